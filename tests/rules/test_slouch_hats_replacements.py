"""Slouch Hats and Eggshells replacements (15.2, 15.21, 15.23): a unit on the map turned back to
full strength, each rule with a legal and an illegal case."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def rebuild(unit: str, hex_id: str, phase: str, *, repl: bool = True, turn: int = 1):
    """`unit` reduced before the log's first phase (a REPL unit beside it or not), then turned back
    to full in `phase`."""
    def script(w):
        w.flip(unit)
        if repl:
            w.move("repl-v1", hex_id)
        w.phase(turn, phase)
        w.flip(unit)
    return script


def test_15_2_a_step_comes_back_in_the_friendly_administrative_phase(slouch_module, tmp_path):
    assert audit(*slouch_module, rebuild("i-22rta", "1625", "2nd Axis Administrative"), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, rebuild("i-22rta", "1625", "2nd Axis Movement"), tmp_path / "b.vlog")
    assert rules(found) == ["15.2"] and "2nd Axis Movement" in found[0].message
    found = audit(*slouch_module, rebuild("i-22rta", "1625", "2nd Allied Administrative"), tmp_path / "c.vlog")
    assert rules(found) == ["15.2"]


def test_15_2_a_flip_back_after_a_flip_the_same_phase_is_a_correction(slouch_module, tmp_path):
    def script(w):
        w.phase(1, "2nd Axis Movement")
        w.flip("i-22rta")
        w.flip("i-22rta")
    assert audit(*slouch_module, script, tmp_path / "a.vlog") == []


def test_15_2_a_unit_reduced_in_a_combat_turned_full_in_a_later_phase_of_the_turn(slouch_module, tmp_path):
    """Reduced in one phase and turned full in a later one, then back: a step recovered outside the
    Administrative phase, reported at the flip to full (not read as a correction)."""
    def script(w):
        w.phase(1, "1st Axis Combat")
        w.flip("i-22rta")
        w.phase(1, "1st Axis Exploitation Movement")
        w.flip("i-22rta")
        w.flip("i-22rta")
    found = audit(*slouch_module, script, tmp_path / "a.vlog")
    assert rules(found) == ["15.2"] and "Exploitation" in found[0].message


def test_15_21_an_axis_unit_rebuilds_with_a_repl_unit_in_its_hex(slouch_module, tmp_path):
    script = rebuild("i-22rta", "1625", "2nd Axis Administrative", repl=False)
    found = audit(*slouch_module, script, tmp_path / "a.vlog")
    assert rules(found) == ["15.21"] and "REPL" in found[0].message


def test_15_23_infantry_rps_rebuild_no_armor(slouch_module, tmp_path):
    found = audit(*slouch_module, rebuild("6rca", "2018", "2nd Axis Administrative"), tmp_path / "a.vlog")
    assert rules(found) == ["15.23"]


def test_15_21_the_repl_is_of_the_units_nationality_and_removed(slouch_module, tmp_path):
    def script(unit: str, remove: bool):
        def s(w):
            if unit == "lehr":
                w.move("lehr", "1625")  # set-up: the German paratroops with I/22 RTA
            rebuild(unit, "1625", "2nd Axis Administrative")(w)
            if remove:
                w.move("repl-v1", "Axis spare")
            w.phase(1, "2nd Allied Transport")
        return s
    assert audit(*slouch_module, script("i-22rta", True), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, script("i-22rta", False), tmp_path / "b.vlog")
    assert rules(found) == ["15.21"] and "removed" in found[0].message and found[0].phase == "2nd Axis Administrative"
    found = audit(*slouch_module, script("lehr", True), tmp_path / "c.vlog")
    assert rules(found) == ["15.21"] and "(15.14)" in found[0].message
