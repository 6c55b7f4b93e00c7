"""The optional rules of Tobrouk 41-42 a log can show (12.2 Group Hecker, 12.3 Rommel, 12.4 LRDG):
a legal and an illegal case each.  Rommel and the LRDG are dragged from the palette before play."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_rules import axis_maneuver, cw_maneuver
from tests.rules.tobrouk_play import player, rules

OPTIONAL = {"12.2", "12.3", "12.4"}


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path, OPTIONAL)


def test_12_2_group_hecker_does_not_move_after_its_breach(play):
    def script(move_after: bool):
        def s(w):
            axis_maneuver(w, 5)
            if not move_after:
                w.move("hecker", "2403")
            w.declare("hecker", "Breach minefield")
            if move_after:
                w.move("hecker", "2403")
            w.phase(1, "C")
        return s
    assert play(script(False), setup="gazala.vsav") == []
    found = play(script(True), setup="gazala.vsav")
    assert rules(found) == ["12.2"] and "after its minefield breach" in found[0].message


def test_12_3_rommel_is_never_attacked_and_the_commando_is_rolled_once(play):
    def target(at_rommel: bool):
        def s(w):
            w.place("rommel", "1227", side="Axis")
            cw_maneuver(w)
            w.phase(1, "C")
            w.declare("22-grd", "Declare firer")
            w.declare("rommel" if at_rommel else "15-15pz", "Declare target")
        return s
    assert play(target(False)) == []
    found = play(target(True))
    assert rules(found) == ["12.3"] and "cannot be attacked" in found[0].message

    def commando(dice, again: bool = False):
        def s(w):
            rommel = w.place("rommel", "1619", side="Axis")
            cw_maneuver(w)
            w.roll("Commonwealth commando 2d6", dice, "Commonwealth")
            if again:
                w.roll("Commonwealth commando 2d6", [1, 1], "Commonwealth")
            w.remove(rommel)
            w.move("iv", "I/V 3C")
            w.phase(1, "C")
        return s
    assert play(commando([1, 1])) == []
    found = play(commando([3, 4]))
    assert rules(found) == ["12.3"] and "no commando roll of 2 or 12" in found[0].message
    found = play(commando([6, 6], again=True))
    assert rules(found) == ["12.3"] and "once per scenario" in found[0].message


def test_12_4_the_lrdg_never_attacks_and_comes_back_at_1030(play):
    def fire(after: str):
        def s(w):
            lrdg = w.place("lrdg", "1228", side="Commonwealth")
            (cw_maneuver if after == "cw" else axis_maneuver)(w)
            w.phase(1, "C")
            w.declare(lrdg, "Declare firer")
            w.declare("15-15pz", "Declare target")
        return s
    assert play(fire("axis")) == []  # defensive fire
    found = play(fire("cw"))
    assert rules(found) == ["12.4"] and "cannot attack" in found[0].message

    def back(to: str):
        def s(w):
            lrdg = w.place("lrdg", "1228", side="Commonwealth")
            cw_maneuver(w)
            w.move(lrdg, "Commonwealth eliminated")
            w.phase(1, "C")
            w.phase(1, "D")
            w.phase(1, "E")
            w.phase(1, "F")
            w.phase(1, "B")
            w.move(lrdg, to)
        return s
    assert play(back("1030")) == []
    found = play(back("1129"))
    assert rules(found) == ["12.4"] and "reappears in hex 1030" in found[0].message


def test_12_2_group_hecker_breaches_for_3_mp_on_top_of_its_move(play):
    """Group Hecker (2402, Gazala) moves one clear hex (2401, 1 MP), then breaches for 3 MP: 5 MP are
    enough, 3 are not (12.2)."""
    def script(mp):
        def s(w):
            axis_maneuver(w, mp)
            w.move("hecker", "2401")
            w.declare("hecker", "Breach minefield")
            w.phase(1, "C")
        return s
    assert play(script(5), setup="gazala.vsav") == []
    found = play(script(3), setup="gazala.vsav")
    assert rules(found) == ["12.2"] and found[0].step == 4 and "breach's 3 MP" in found[0].message
