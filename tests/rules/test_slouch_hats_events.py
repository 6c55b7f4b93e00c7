"""Slouch Hats and Eggshells Special Events (20.11-20.16, 20.21-20.22, 21.12a): draws and plays
as the module's Events window logs them, each rule with a legal and an illegal case."""
from __future__ import annotations

from pathlib import Path

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)
from validators.audit import audit_file

ENGINE = Path(__file__).parent.parent / "fixtures" / "engine"


def markers(w, *cards):
    return {c: w.event_marker(c) for c in cards}


def test_20_11_markers_are_drawn_in_the_special_events_phase(slouch_module, tmp_path):
    def legal(w):
        m = markers(w, "A")
        w.phase(1, "Special Events")
        w.draw(m["A"], "Allied")

    def late(w):
        m = markers(w, "A")
        w.phase(1, "Reinforcements")
        w.draw(m["A"], "Allied")
    assert audit(*slouch_module, legal, tmp_path / "a.vlog") == []
    found = audit(*slouch_module, late, tmp_path / "b.vlog")
    assert rules(found) == ["20.11"] and "Reinforcements" in found[0].message


def test_20_11_a_used_marker_returns_to_the_pool(slouch_module, tmp_path):
    def script(back: bool):
        def s(w):
            m = markers(w, "F")
            w.phase(1, "Special Events")
            w.draw(m["F"], "Allied")
            w.phase(1, "Reinforcements")
            w.play_event(m["F"], "Allied")  # More Replacements (20.21F)
            if back:
                w.return_event(m["F"], "Allied")
            w.phase(1, "Victory Determination")
            w.phase(2, "Turn Record")
        return s
    assert audit(*slouch_module, script(True), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, script(False), tmp_path / "b.vlog")
    assert rules(found) == ["20.11"] and "returns to the Special Events Pool" in found[0].message


def test_20_11_the_allies_draw_first(slouch_module, tmp_path):
    def script(*order: tuple[str, str]):
        def s(w):
            m = markers(w, *"ABC")
            w.phase(1, "Special Events")
            for card, side in order:
                w.draw(m[card], side)
        return s
    assert audit(*slouch_module, script(("A", "Allied"), ("B", "Axis")), tmp_path / "a.vlog") == []
    assert audit(*slouch_module, script(("B", "Axis")), tmp_path / "b.vlog") == []  # the Allies need not draw
    found = audit(*slouch_module, script(("B", "Axis"), ("A", "Allied"), ("C", "Allied")), tmp_path / "c.vlog")
    assert rules(found) == ["20.11"] and "after the Axis player drew" in found[0].message and found[0].step == 6


def test_20_12_four_and_three_on_turn_1_one_later_more_for_2_vps(slouch_module, tmp_path):
    def turn_1(w, allied: int, axis: int):
        m = markers(w, *"ABCDEFGHI")
        w.phase(1, "Special Events")
        for c in "ABCDE"[:allied]:
            w.draw(m[c], "Allied")
        for c in "FGHI"[:axis]:
            w.draw(m[c], "Axis")
        w.phase(1, "Reinforcements")

    assert audit(*slouch_module, lambda w: turn_1(w, 4, 3), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, lambda w: turn_1(w, 5, 3), tmp_path / "b.vlog")
    assert rules(found) == ["20.12"] and found[0].side == "Allied" and "drew 5" in found[0].message
    found = audit(*slouch_module, lambda w: turn_1(w, 4, 4), tmp_path / "c.vlog")
    assert rules(found) == ["20.12"] and found[0].side == "Axis"

    def turn_2(w, paid: bool, put_back: bool = False):
        m = markers(w, "A", "B", "C")
        w.move("vp-allied", "VP 4")
        w.phase(1, "Victory Determination")
        w.phase(2, "Turn Record")
        w.phase(2, "Special Events")
        if paid:
            w.move("vp-allied", "VP 2")  # 18.14b: 2 VPs for one more draw
        w.draw(m["A"], "Allied")
        w.draw(m["B"], "Allied")
        if put_back:
            w.return_event(m["B"], "Allied")
            w.draw(m["C"], "Allied")
        w.phase(2, "Reinforcements")

    assert audit(*slouch_module, lambda w: turn_2(w, True), tmp_path / "d.vlog") == []
    found = audit(*slouch_module, lambda w: turn_2(w, False), tmp_path / "e.vlog")
    assert rules(found) == ["20.12"] and "drew 2" in found[0].message
    found = audit(*slouch_module, lambda w: turn_2(w, False, put_back=True), tmp_path / "f.vlog")
    assert rules(found) == ["20.12"]  # B put back, C drawn: still two


def test_20_14_an_event_only_in_its_phase(slouch_module, tmp_path):
    def play(phase: str, turn: int, side: str, card: str):
        def script(w):
            m = markers(w, card)
            w.phase(1, "Special Events")
            w.draw(m[card], side)
            for t in range(2, turn + 1):
                w.phase(t, "Turn Record")  # every turn is played (4.21)
            if (turn, phase) != (1, "Special Events"):
                w.phase(turn, phase)
            w.play_event(m[card], side)
        return script

    ok = [("Reinforcements", 1, "Allied", "F"), ("1st Allied Combat", 1, "Axis", "H"),
          ("2nd Axis Combat", 1, "Allied", "H"), ("1st Allied Movement", 1, "Allied", "E"),
          ("2nd Axis Transport", 1, "Allied", "M"), ("Reinforcements", 3, "Allied", "N"),
          ("1st Axis Movement", 2, "Axis", "I"), ("1st Allied Exploitation Movement", 1, "Allied", "J"),
          ("2nd Allied Combat", 1, "Axis", "K")]
    for i, case in enumerate(ok):
        assert audit(*slouch_module, play(*case), tmp_path / f"ok{i}.vlog") == [], case
    bad = [("1st Allied Combat", 1, "Allied", "F"), ("Reinforcements", 1, "Allied", "H"),
           ("1st Axis Movement", 2, "Allied", "E"), ("1st Allied Transport", 1, "Allied", "M"),
           ("Reinforcements", 2, "Allied", "N"), ("Reinforcements", 1, "Axis", "I"),
           ("2nd Axis Combat", 1, "Allied", "J")]
    for i, case in enumerate(bad):
        found = audit(*slouch_module, play(*case), tmp_path / f"bad{i}.vlog")
        assert rules(found) == ["20.14"], (case, [f.message for f in found])


def test_20_16_a_once_only_marker_is_not_played_again(slouch_module, tmp_path):
    def script(w, again: str, back: bool = True):
        m = markers(w, again)
        w.move("vp-allied", "VP 5")
        w.phase(1, "Special Events")
        w.draw(m[again], "Allied")
        w.phase(1, "Reinforcements")
        w.play_event(m[again], "Allied")
        if back:
            w.return_event(m[again], "Allied")
        w.phase(2, "Turn Record")
        w.phase(2, "Special Events")
        w.draw(m[again], "Axis")
        w.phase(2, "Reinforcements")
        w.play_event(m[again], "Axis")

    assert audit(*slouch_module, lambda w: script(w, "C"), tmp_path / "a.vlog") == []  # C returns to the pool
    found = audit(*slouch_module, lambda w: script(w, "B"), tmp_path / "b.vlog")
    assert rules(found) == ["20.16"] and "once-only" in found[0].message


def test_20_21d_diplomats_only_after_an_axis_a_b_or_e(slouch_module, tmp_path):
    def script(w, axis_first: bool):
        m = markers(w, "D", "E")
        w.move("vp-allied", "VP 2")
        w.move("vp-axis", "VP 2")
        w.phase(1, "Special Events")
        w.draw(m["D"], "Allied")
        w.draw(m["E"], "Axis")
        if axis_first:
            w.play_event(m["E"], "Axis")
        w.play_event(m["D"], "Allied")

    assert audit(*slouch_module, lambda w: script(w, True), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, lambda w: script(w, False), tmp_path / "b.vlog")
    assert rules(found) == ["20.2"] and "20.21D" in found[0].message


def test_20_21a_an_event_costing_vps_needs_them_on_the_track(slouch_module, tmp_path):
    def script(w, vp: int, card: str = "A", side: str = "Allied"):
        m = markers(w, card)
        if vp:
            w.move(f"vp-{side.lower()}", f"VP {vp}")
        w.phase(1, "Special Events")
        w.draw(m[card], side)
        w.phase(1, "Reinforcements")
        if vp:
            w.move(f"vp-{side.lower()}", f"VP {vp - 1}" if vp > 1 else "VP 0")  # paid before the play
        w.play_event(m[card], side)

    assert audit(*slouch_module, lambda w: script(w, 2), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, lambda w: script(w, 1), tmp_path / "b.vlog")
    assert rules(found) == ["20.2"] and "(20.21A) costs 2 VPs" in found[0].message
    found = audit(*slouch_module, lambda w: script(w, 0, "A", "Axis"), tmp_path / "c.vlog")
    assert rules(found) == ["20.2"] and "(20.22A) costs 1 VP " in found[0].message
    assert audit(*slouch_module, lambda w: script(w, 0, "B", "Axis"), tmp_path / "d.vlog") == []  # 20.22B: no cost


def test_the_engine_log_of_a_draw_and_a_play_gives_no_finding(slouch_module):
    """VASSAL 3.7.26's own log (tests/fixtures/engine/sh-events.vlog): the tracker never set, so the
    phase is unknown and nothing is judged."""
    game, _ = slouch_module
    report = audit_file(game, ENGINE / "sh-events.vlog")
    assert report.violations == []
