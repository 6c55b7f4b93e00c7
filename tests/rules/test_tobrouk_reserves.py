"""Reserves, reinforcements and the scenarios' movement limits of Tobrouk 41-42 (11.2g, 11.2i-k,
11.4i, 11.5b, 11.5i, 11.5l; digest 10.1 rank 18): a legal and an illegal case each."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_ivtrack import new_turn
from tests.rules.test_tobrouk_rules import axis_maneuver, cw_maneuver, pair
from tests.rules.tobrouk_play import player, rules

SCENARIO_RULES = {"11.2", "11.4", "11.5"}


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path, SCENARIO_RULES)


def test_11_5i_the_21st_panzer_elements_move_once_released(play):
    def script(release: bool):
        def s(w):
            axis_maneuver(w, 5)
            w.move("3a-21pz", "1717")
            if release:  # declared after the move, in the same maneuver: judged when the phase ends
                w.declare("3a-21pz", "Release reserve")
            w.phase(1, "C")
        return s
    assert play(script(True)) == []
    found = play(script(False))
    # judged when phase B ends (4), reported at the move (3, issue 31)
    assert rules(found) == ["11.5"] and "while in reserve" in found[0].message and found[0].step == 3


def test_11_5l_the_4th_indian_brigades_enter_through_1030(play):
    def script(to: str, release: bool = True, phase: str = "B"):
        def s(w):
            cw_maneuver(w, 3)
            if phase != "B":
                w.phase(1, phase)
            if release:
                w.declare("5-4ind", "Release reserve")
            w.move("5-4ind", to)
            w.phase(1, "D" if phase == "C" else "C")
        return s
    assert play(script("1030")) == []
    assert play(script("1129")) == []  # one road hex beyond the gate: within the 3 MP
    found = play(script("0630"))
    assert rules(found) == ["11.5"] and "enters through 1030" in found[0].message
    found = play(script("1030", release=False))
    assert rules(found) == ["11.5"] and "while in reserve" in found[0].message
    found = play(script("1030", phase="C"))
    assert rules(found) == ["11.5"] and "entered the map in the Combat" in found[0].message


def test_11_5b_battleaxe_is_played_on_the_east_half(play):
    def script(to: str):
        def s(w):
            w.move("11huss-7ar", "1115")  # set-up adjustment
            cw_maneuver(w, 5)
            w.move("11huss-7ar", to)
            w.phase(1, "C")
        return s
    assert play(script("1114")) == []
    found = play(script("1113"))
    assert rules(found) == ["11.5"] and "east half" in found[0].message


def test_11_4i_the_2nd_south_african_division_enters_once_released(play):
    def script(release: bool):
        def s(w):
            cw_maneuver(w, 5)
            if release:
                w.declare("4-2sa", "Release reserve")
            w.move("4-2sa", "0630")
            w.phase(1, "C")
        return s
    assert play(script(True), setup="crusader.vsav") == []
    found = play(script(False), setup="crusader.vsav")
    assert rules(found) == ["11.4"] and "while in reserve" in found[0].message

    def behind_the_lines(w):  # 1229: no valid supply path joins it to a CW source (computed on the map)
        cw_maneuver(w, 5)
        w.declare("4-2sa", "Release reserve")
        w.move("4-2sa", "1229")
        w.phase(1, "C")
    found = play(behind_the_lines, setup="crusader.vsav")
    assert rules(found) == ["11.4"] and found[0].step == 4 and "along the Commonwealth supply path" in found[0].message


def test_11_2k_the_8th_army_reserve_moves_once_the_marker_moved(play):
    def script(iv: bool):
        def s(w):
            if iv:
                w.move("iv", "I/V 1C")  # before play (the bidding, 9.2): the marker has moved
            axis_maneuver(w, 3)
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-cw", "MP 3")
            w.move("1-rtr", "1812")
            w.phase(1, "E")
        return s
    assert play(script(True), setup="gazala.vsav") == []
    found = play(script(False), setup="gazala.vsav")
    assert rules(found) == ["11.2"] and "the I/V marker moving" in found[0].message


def test_11_2i_xiii_corps_stays_east_of_the_gazala_line_until_2c(play):
    def script(iv: str | None):
        def s(w):
            if iv:
                w.move("iv", iv)
            axis_maneuver(w, 3)
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-cw", "MP 3")
            w.move("hq-xiii", "1511")  # east of the line: free
            w.move("hq-xiii", "1510")
            w.phase(1, "E")
        return s
    assert play(script(None), setup="gazala.vsav") == []

    def west(iv: str | None):
        def s(w):
            if iv:
                w.move("iv", iv)
            axis_maneuver(w, 3)
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-cw", "MP 3")
            w.move("hq-xiii", "1504")  # row 15: the line's western hex is 1504
            w.phase(1, "E")
        return s
    found = play(west(None), setup="gazala.vsav")
    assert rules(found) == ["11.2"] and "west of the Gazala line minefields" in found[0].message
    assert play(west("I/V 2C"), setup="gazala.vsav") == []
    # the same set-up played as 11.3 (its scenario card in the Markers box): 11.3a drops 11.2i
    assert play(west(None), setup="gazala-hypothetical.vsav") == []


def test_11_2g_littorio_appears_from_turn_4(play):
    def script(turn: int):
        def s(w):
            for t in range(1, turn):
                pair(w, 5, 5, turn=t)
                new_turn(w, t + 1)
            axis_maneuver(w, 3, turn)
            w.move("133-littorio", "2402")
            w.phase(turn, "C")
        return s
    assert play(script(4), setup="gazala.vsav") == []
    found = play(script(3), setup="gazala.vsav")
    assert rules(found) == ["11.2"] and "reinforcement of turn 4" in found[0].message
