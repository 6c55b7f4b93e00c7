"""The Initiative/Victory track of Tobrouk 41-42 (rule 9, digest 10.1 rank 4): every move of the
I/V marker needs a reason the log shows; a legal and an illegal case for each kind of reason.
Logs are written over the built module (Battleaxe set-up unless named) and audited."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_rules import cw_maneuver, pair
from tests.rules.tobrouk_play import player, rules

MINE = {"9", "6.5"}


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path, MINE)


def new_turn(w, turn: int) -> None:
    w.phase(turn, "A")
    w.move("mp-cw", "MP 0")
    w.move("mp-axis", "MP 0")


def test_9_an_air_strike_pays_one_space_a_move_without_reason_does_not(play):
    def strike(w):
        cw_maneuver(w)
        w.move("air-cw-1", "1227")
        w.declare("air-cw-1", "Air strike")
        w.move("iv", "I/V 1A")  # the strike's space, towards the Axis (5.5)
        w.phase(1, "C")
        w.phase(1, "D")
    assert play(strike) == []

    def unexplained(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.move("iv", "I/V 1C")  # towards the Commonwealth in a combat phase: nothing explains it
        w.phase(1, "D")
    found = play(unexplained)
    assert rules(found) == ["9"] and found[0].step == 4  # judged when the window closes (5), found at the move
    assert "moved 1 space(s) towards the Commonwealth (0 Crusader to 1C) in the Combat" in found[0].message

    def two_spaces(w):  # one strike pays one space, not two
        cw_maneuver(w)
        w.move("air-cw-1", "1227")
        w.declare("air-cw-1", "Air strike")
        w.move("iv", "I/V 2A")
        w.phase(1, "C")
    found = play(two_spaces)
    assert rules(found) == ["9"] and "at most 1 (an air strike (5.5))" in found[0].message


def test_9_the_two_zero_boxes_are_one_value(play):
    def script(w):
        cw_maneuver(w)
        w.move("iv", "I/V 0 Gazala")
        w.phase(1, "C")
    assert play(script) == []


def test_9_the_loss_differential_at_the_end_of_the_turn(play):
    """Battleaxe: a difference of 2 points is 1 space, 4 is 2 (11.5f).  62/Trento (2 foot steps)
    dies under a CW air strike: the Axis lost 2 points, the Commonwealth none."""
    def script(spaces: int, skip_a: bool = False):
        def s(w):
            cw_maneuver(w)
            w.move("air-cw-1", "1527")
            w.declare("air-cw-1", "Air strike")
            w.move("iv", "I/V 1A")
            w.remove("62-trento")
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-axis", "MP 5")
            w.phase(1, "E")
            w.phase(1, "F")
            w.move("iv", {1: "I/V 0 Crusader", 2: "I/V 1C"}[spaces])  # F-3: towards the CW
            if not skip_a:
                new_turn(w, 2)
            w.phase(2, "B")
        return s
    assert play(script(1)) == []
    assert play(script(1, skip_a=True)) == []  # a tracker that skips phase A ends the turn too
    found = play(script(2))
    assert rules(found) == ["9"] and "the loss differential of turn 1 (9.3)" in found[0].message


def test_9_an_hq_still_unsupplied_in_phase_a(play):
    def script(cr: bool):
        def s(w):
            pair(w, 5, 5)
            w.phase(2, "A")
            if cr:
                w.place("cr", "1619", side="Axis")  # the AK HQ's hex (3.3d)
            w.move("iv", "I/V 1C")
            w.phase(2, "B")
        return s
    assert play(script(True)) == []
    found = play(script(False))
    assert rules(found) == ["9"] and "Administrative phase" in found[0].message


def test_9_a_capture_moves_the_marker_towards_the_captor(play):
    def script(to: str):
        def s(w):
            cw_maneuver(w)
            w.move("22-grd", to)  # Solum 1228 is a blue objective (9.4b')
            w.move("iv", "I/V 1C")
            w.phase(1, "C")
        return s
    assert play(script("1228")) == []
    found = play(script("1129"))
    assert rules(found) == ["9"]


def test_9_the_commando_against_rommel(play):
    def script(dice):
        def s(w):
            cw_maneuver(w)
            w.roll("Commonwealth commando 2d6", dice, "Commonwealth")
            w.move("iv", "I/V 3C")  # 12.3: the Axis loses 3 spaces
            w.phase(1, "C")
        return s
    assert play(script([6, 6])) == []
    assert rules(play(script([3, 4]))) == ["9"]


def test_9_the_window_where_the_log_begins_is_not_judged(play):
    """A log that continues a saved game: what was owed before it began is unknown."""
    def script(w):
        w.phase(2, "A")
        w.move("iv", "I/V 2A")
        w.phase(2, "B")
        w.move("mp-cw", "MP 5")
        w.phase(2, "C")
    assert play(script) == []


def test_9_an_hq_eliminated_where_6_5e_forbids_is_no_reason(play):
    """9.3b: an HQ lost in the turn may move the marker towards the opponent (up to 3 spaces, F-3);
    one removed while not encircled (6.5e, reported there) is no reason for it."""
    from tests.rules.test_tobrouk_hqs import AXIS, ring  # that module imports this one

    def script(encircled: bool):
        def s(w):
            if encircled:
                ring(w, "hq-xxx", "1125", AXIS)
            cw_maneuver(w)
            w.remove("hq-xxx")
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-axis", "MP 5")
            w.phase(1, "E")
            w.phase(1, "F")
            w.move("iv", "I/V 1A")  # F-3: the CW lost an HQ
            new_turn(w, 2)
            w.phase(2, "B")
        return s
    assert play(script(True)) == []
    found = play(script(False))
    assert rules(found) == ["6.5", "9"] and found[1].step == 9 and "at most 0 (none)" in found[1].message
