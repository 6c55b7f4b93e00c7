"""Slouch Hats and Eggshells General Supply (6.3, 6.23, 6.45, 6.46) on short logs of Operation
Exporter: Out of Supply markers put down in the Supply Status phase.  1/1 FF in 2527 traces by
road to the Middle East Holding Box's Entry hexes (reconstructed); no Axis unit is surely
supplied by a holding box (the Greece box lies across the sea)."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def run(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog")


def oos(where: str, setup=None):
    def s(w):
        if setup:
            setup(w)
        w.phase(1, "Supply Status")
        w.place("oos", where)
        w.phase(1, "First Supply Conversion")
    return s


def test_6_3_no_oos_marker_on_units_a_holding_box_supplies(slouch_module, tmp_path):
    assert run(slouch_module, tmp_path, oos("1625")) == []  # I/22 RTA: Axis, no sure source
    found = run(slouch_module, tmp_path, oos("2527"))
    assert rules(found) == ["6.3"] and "holding box" in found[0].message and found[0].to_hex == "2527"


def test_6_46_an_aa_unit_alone_on_a_friendly_airfield(slouch_module, tmp_path):
    def aa(w):
        w.move("ii-16rtt", "1909")  # set-up: the Vichy AA group alone on Hama's airfield
        w.move("dca", "1908")
    found = run(slouch_module, tmp_path, oos("1908", aa))
    assert rules(found) == ["6.3"] and "(6.46)" in found[0].message

    def not_alone(w):
        w.move("dca", "1908")  # with II/16 RTT: the marker may be the battalion's
    assert run(slouch_module, tmp_path, oos("1908", not_alone)) == []
