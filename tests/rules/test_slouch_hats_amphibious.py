"""Slouch Hats and Eggshells amphibious raids (10.61-10.63) on short logs of Operation Exporter:
No. 11 Commando (MA 6) waits in the Middle East Holding Box; 1423 is an all-sea hex next to the
coastal hexes 1522 and 1523 (1523 is in the ZOC of the Vichy unit in 1524)."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def run(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog")


def raid(land: str | None = "1522", *, start: str | None = None, unit: str = "11cdo", sail: str = "1423"):
    def s(w):
        if start:
            w.move(unit, start)  # set-up
        w.phase(1, "1st Allied Transport")
        w.declare(unit, "Amphibious raid") if start else None
        w.move(unit, sail)
        w.phase(1, "1st Allied Movement")
        if land:
            w.move(unit, land)
        w.phase(1, "1st Allied Combat")
    return s


def test_10_61_10_62_a_commando_sails_from_a_port_in_its_transport_phase(slouch_module, tmp_path):
    assert run(slouch_module, tmp_path, raid()) == []  # from the Middle East Holding Box
    assert run(slouch_module, tmp_path, raid(start="1527")) == []  # from Haifa, declared
    found = run(slouch_module, tmp_path, raid(None, unit="1-1ff", start="1527"))
    assert rules(found) == ["10.61"]  # declared: no commando (at sea it may be in naval transport)
    found = run(slouch_module, tmp_path, raid(None, start="2527"))  # no port
    assert rules(found) == ["10.62"] and found[0].to_hex == "1423"
    found = run(slouch_module, tmp_path, raid(None, sail="1326"))  # not next to the coast
    assert rules(found) == ["10.62"]

    def twice(w):
        raid(None)(w)
        w.phase(1, "2nd Allied Transport")
        w.move("11cdo", "Middle East Holding Box")
        w.move("11cdo", "1424")
    assert rules(run(slouch_module, tmp_path, twice)) == ["10.61"]


def test_10_63_the_commando_lands_in_its_movement_phase_for_2_mp_more(slouch_module, tmp_path):
    assert run(slouch_module, tmp_path, raid("1730", sail="1427")) == []  # 4 MP with the landing
    found = run(slouch_module, tmp_path, raid("1830", sail="1427"))  # by Haifa (1527): 4 1/2 MP and 2 to land, of MA 6
    assert rules(found) == ["8.13"] and "less 2 to land (10.63)" in found[0].message

    def in_transport(w):
        w.phase(1, "1st Allied Transport")
        w.move("11cdo", "1423")
        w.move("11cdo", "1522")
    assert rules(run(slouch_module, tmp_path, in_transport)) == ["10.63"]

    def motor_pool(w):
        w.phase(1, "1st Allied Transport")
        w.move("11cdo", "1423")
        w.phase(1, "1st Allied Movement")
        w.declare("11cdo", "Motor pool")
        w.move("11cdo", "1522")
    assert rules(run(slouch_module, tmp_path, motor_pool)) == ["10.63"]
