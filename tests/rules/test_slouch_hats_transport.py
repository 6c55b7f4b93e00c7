"""Slouch Hats and Eggshells transport from the holding boxes (7.0, 7.13) on short logs of
Operation Exporter: 1908 (Hama) and 2220 (Damascus) are Axis airfields and no ports, 1519
(Beirut) both, 1527 (Haifa) a port (tables/air-naval.yaml, map.yaml; reconstructed)."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def run(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog")


def test_7_13_the_axis_air_transport_carries_one_stacking_point(slouch_module, tmp_path):
    def script(*moves: tuple[str, str]):
        def s(w):
            w.move("iii-16rtt", "Greece Holding Box")  # set-up: two battalions (1 stacking point each) in Greece
            w.move("ii-16rtt", "Greece Holding Box")
            w.phase(2, "1st Axis Transport")
            for unit, to in moves:
                w.move(unit, to)
            w.phase(2, "1st Axis Movement")
        return s
    assert run(slouch_module, tmp_path, script(("iii-16rtt", "2220"), ("ii-16rtt", "1519"))) == []  # air, sea
    found = run(slouch_module, tmp_path, script(("iii-16rtt", "2220"), ("ii-16rtt", "1908")))
    assert rules(found) == ["7.13"] and found[0].to_hex == "1908"


def test_7_0_from_a_holding_box_to_a_port_or_an_airfield(slouch_module, tmp_path):
    def script(unit: str, box: str, to: str, phase: str):
        def s(w):
            w.move(unit, box)  # set-up
            w.phase(2, phase)
            w.move(unit, to)
        return s
    assert run(slouch_module, tmp_path, script("1-1ff", "Middle East Holding Box", "1527", "1st Allied Transport")) == []
    found = run(slouch_module, tmp_path, script("1-1ff", "Middle East Holding Box", "1628", "1st Allied Transport"))
    assert rules(found) == ["7.0"]
    found = run(slouch_module, tmp_path, script("1-1ff", "Middle East Holding Box", "2220", "1st Allied Transport"))
    assert rules(found) == ["7.0"]  # an airfield, but not the Allies' by air transport


def test_19_14_a_naval_unit_for_anti_shipping_returns_at_the_end_of_the_transport_phase(slouch_module, tmp_path):
    def script(back: bool):
        def s(w):
            w.phase(2, "1st Axis Transport")
            w.move("naval-phoebe", "Axis naval transport")  # designated against the Axis convoy
            w.roll("Axis naval transport die", [4], "Axis")
            if back:
                w.move("naval-phoebe", "Middle East Holding Box")
            w.phase(2, "1st Axis Movement")
        return s
    assert run(slouch_module, tmp_path, script(True)) == []
    found = run(slouch_module, tmp_path, script(False))
    assert rules(found) == ["19.14"] and "Middle East Holding Box" in found[0].message
