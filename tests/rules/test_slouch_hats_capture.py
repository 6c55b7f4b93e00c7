"""Slouch Hats and Eggshells: capture of Supply Points (6.16) on short logs of Operation Exporter:
an Axis MSU left alone in 2526, which 1/1 FF enters in the Allied Movement phase."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def run(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog")


def capture(dice: int, resolved: bool):
    def s(w):
        msu = w.place("msu-axis", "2526")  # set-up
        w.phase(1, "1st Allied Movement")
        w.move("1-1ff", "2526")
        for _ in range(dice):
            w.roll("Allied supply capture die", [2], "Allied")  # captured
        if resolved:
            w.remove(msu)
            w.place("msu-allied", "2526", side="Allied")
        w.phase(1, "1st Allied Combat")
    return s


def test_6_16_each_sp_entered_is_rolled_for_and_captured_or_destroyed(slouch_module, tmp_path):
    assert run(slouch_module, tmp_path, capture(1, True)) == []
    found = run(slouch_module, tmp_path, capture(0, True))
    assert rules(found) == ["6.16"] and "rolled the Supply Point Capture Table 0 time(s)" in found[0].message
    found = run(slouch_module, tmp_path, capture(1, False))
    assert rules(found) == ["6.16"] and "still there" in found[0].message
