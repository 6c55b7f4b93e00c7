"""Headquarters in combat, Tobrouk 41-42 (6.5, digest 10.1 rank 19): flipped once on a successful
shot, eliminated only when encircled, re-entering on a source hex, reduced, for 2 I/V spaces.
Battleaxe set-up: the AK HQ at Gambout 1619, the XXX Corps HQ at 0726."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_ivtrack import new_turn
from tests.rules.test_tobrouk_rules import cw_maneuver
from tests.rules.tobrouk_play import player, rules

MINE = {"6.5", "9"}


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path, MINE)


def strike_ak(w) -> None:
    """A CW air strike on the AK HQ's hex, paid (5.5)."""
    cw_maneuver(w)
    w.move("air-cw-1", "1619")
    w.declare("air-cw-1", "Air strike")
    w.move("iv", "I/V 1A")


def test_6_5_an_hq_is_flipped_by_a_successful_shot_only(play):
    def hit(w):
        strike_ak(w)
        w.flip("hq-ak")
        w.phase(1, "C")
    assert play(hit) == []

    def no_hit(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.flip("hq-ak")
        w.phase(1, "D")
    found = play(no_hit)  # judged when C ends (5), reported at the flip (4, issue 31)
    assert rules(found) == ["6.5"] and found[0].step == 4 and "with no shot, hit marker or air strike" in found[0].message

    def undone(w):  # flipped by mistake and back within the phase: no flip
        cw_maneuver(w)
        w.flip("hq-ak")
        w.flip("hq-ak")
        w.phase(1, "C")
    assert play(undone) == []


def test_6_5_a_reduced_hq_is_never_restored(play):
    def script(w):
        strike_ak(w)
        w.flip("hq-ak")
        w.phase(1, "C")
        w.flip("hq-ak")
        w.phase(1, "D")
    found = play(script)  # judged when C ends, reported at the flip back (8)
    assert rules(found) == ["6.5"] and found[0].step == 8 and "turned back to its full face" in found[0].message


def ring(w, hq: str, centre: str, units: list[str]) -> None:
    """Set-up adjustments: the HQ at `centre`, Axis units on its neighbours."""
    w.move(hq, centre)
    for unit, to in zip(units, RING):
        w.move(unit, to)


RING = ["1025", "1026", "1124", "1126", "1225", "1226"]  # the six neighbours of 1125
AXIS = ["62-trento", "606-lw", "33-15pz", "afrika-lw", "det-104-21pz", "3a-21pz"]


def _neighbours_ok(tobrouk_module) -> None:
    game, _ = tobrouk_module
    assert sorted(game.geometry.neighbours("1125")) == sorted(RING)


def test_6_5_an_hq_is_eliminated_only_when_encircled(play, tobrouk_module):
    _neighbours_ok(tobrouk_module)

    def encircled(w):
        ring(w, "hq-xxx", "1125", AXIS)
        cw_maneuver(w)
        w.remove("hq-xxx")
        w.phase(1, "C")
    assert play(encircled) == []

    def open_ring(w):  # at 0726, far from the Axis
        cw_maneuver(w)
        w.remove("hq-xxx")
        w.phase(1, "C")
    found = play(open_ring)
    assert rules(found) == ["6.5"] and "which is not encircled" in found[0].message

    def left_there(w):  # encircled when the combat ends and still there when the next phase ends
        ring(w, "hq-xxx", "1125", AXIS)
        cw_maneuver(w)
        w.phase(1, "C")
        w.phase(1, "D")
        w.phase(1, "E")
    found = play(left_there)
    assert rules(found) == ["6.5"] and "totally encircled" in found[0].message
    assert found[0].phase == "Reactive player's maneuver"


def test_6_5_an_eliminated_hq_re_enters_next_turn_on_a_source_hex_reduced_for_two_spaces(play):
    def script(turn: int = 2, hex_id: str = "1030", flip: bool = True, iv: str | None = "I/V 2A"):
        def s(w):
            ring(w, "hq-xxx", "1125", AXIS)
            cw_maneuver(w)
            w.move("hq-xxx", "Commonwealth eliminated")
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-axis", "MP 5")
            w.phase(1, "E")
            w.phase(1, "F")
            if turn == 2:
                new_turn(w, 2)
                w.phase(2, "B")
                w.move("mp-cw", "MP 3")
            w.move("hq-xxx", hex_id)
            if flip:
                w.flip("hq-xxx")
            if iv:
                w.move("iv", iv)  # 6.5f: two spaces to the Axis
            w.phase(turn, "C")
            if turn == 2:
                w.phase(2, "D")
                w.move("mp-axis", "MP 3")
                w.phase(2, "E")
                w.phase(2, "F")
                new_turn(w, 3)
                w.phase(3, "B")
        return s
    assert play(script()) == []
    found = play(script(hex_id="0626"))
    assert rules(found) == ["6.5"] and "friendly supply source hex" in found[0].message
    found = play(script(flip=False))
    assert rules(found) == ["6.5"] and "on its full face" in found[0].message
    found = play(script(iv=None))
    assert rules(found) == ["6.5"] and "did not move two spaces" in found[0].message
    found = play(script(turn=1))
    assert rules(found) == ["6.5"] and "the turn it was eliminated" in found[0].message


def test_6_5cd_an_hq_displaces_from_enemy_fire_to_the_nearest_safe_hex(play):
    """The XXX Corps HQ at 0726, 606/LW put at 0727 next to it: in the combat phase it may displace
    to 0725, one hex, out of fire (6.5c-d'); not further, and not when no enemy threatens it."""
    def script(to, threat=True):
        def s(w):
            if threat:
                w.move("606-lw", "0727")
            cw_maneuver(w)
            w.phase(1, "C")
            for h in to:
                w.move("hq-xxx", h)
            w.phase(1, "D")
        return s
    assert play(script(["0725"])) == []
    found = play(script(["0725", "0724"]))  # judged when C ends, reported at its last move
    assert rules(found) == ["6.5"] and found[0].step == 6 and "nearest hex out of enemy fire is 1 away" in found[0].message
    found = play(script(["0725"], threat=False))
    assert rules(found) == ["6.5"] and found[0].step == 4 and "not under enemy fire" in found[0].message
