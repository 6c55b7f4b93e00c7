"""HQ actions (4.41b-c wreck repair and replacement steps, 4.42 reorganisation, 4.43 breaches)
and the MP they cost (4.1, 4.3a), Tobrouk 41-42: real-format logs over the built module,
Battleaxe set-up (the XXX Corps HQ, an armoured HQ (Q&A 2), at 0726 with the 11th Hussars;
22nd Guards and 4th Indian's units at 1030; the Axis at Capuzzo 1227 and Halfaya 1028)."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_rules import cw_maneuver
from tests.rules.tobrouk_play import player, rules


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path)


def test_4_41_an_armoured_hq_repairs_wrecks_for_3_mp_each(play):
    def repair(mp: int, where: str = "0826", marker: str = "wreck"):
        def s(w):
            wreck = w.place(marker, where, side="Commonwealth")  # set-up: a wreck left from earlier fighting
            cw_maneuver(w, mp)
            w.remove(wreck)
            w.phase(1, "C")
        return s
    assert play(repair(3)) == []
    found = play(repair(2))
    assert rules(found) == ["4.1"] and "XXX Corps HQ" in found[0].piece and "repair 3 MP" in found[0].message
    found = play(repair(5, marker="wreck-2"))  # two wrecks: 6 MP (Q&A 2)
    assert rules(found) == ["4.1"] and "repair 6 MP" in found[0].message
    found = play(repair(5, where="1226"))  # next to Capuzzo
    assert rules(found) == ["4.41"] and "under enemy fire" in found[0].message
    found = play(repair(5, where="1612"))  # beyond the XXX Corps HQ's range
    assert rules(found) == ["4.41"] and "no supplied Commonwealth armoured HQ" in found[0].message


def test_4_41_a_replacement_step_for_three_wrecks(play):
    def script(repairs: bool, unit: str = "11huss-7ar", cr: bool = False):
        def s(w):
            w.flip(unit)  # set-up: the unit stands reduced
            if cr:
                w.place("cr", "0726", side="Commonwealth")  # set-up: the unit (and the HQ) unsupplied
            one, two = w.place("wreck", "0826", side="Commonwealth"), w.place("wreck-2", "0826", side="Commonwealth")
            cw_maneuver(w, 3)
            if repairs:
                w.remove(one)
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-axis", "MP 3")
            w.phase(1, "E")
            w.phase(1, "F")
            w.phase(1, "B")
            w.move("mp-cw", "MP 9")
            if repairs:
                w.remove(two)
            w.flip(unit)  # the replacement step (4.41c)
        return s
    assert play(script(True)) == []
    found = play(script(False))
    assert rules(found) == ["4.41"] and "no replacement step in hand" in found[0].message
    found = play(script(True, unit="22-grd"))
    assert rules(found) == ["4.41"] and "only armoured units" in found[0].message
    found = [f for f in play(script(True, cr=True)) if f.rule == "4.41"]  # unsupplied: not the armoured HQ's to supply
    assert len(found) == 1 and found[0].step == 16 and "not supplied by an armoured corps HQ" in found[0].message


def test_4_42_reorganisation(play):
    def script(where: str, then=None, phase: str = "B"):
        def s(w):
            if where != "0726":
                w.move("22-grd", where)
            marker = w.place("retreat", where, side="Commonwealth")
            cw_maneuver(w, 5)
            if phase != "B":
                w.phase(1, phase)
            w.flip(marker)
            if then:
                then(w)
        return s
    assert play(script("0726")) == []  # the 11th Hussars, with their HQ
    found = play(script("0726", then=lambda w: w.move("11huss-7ar", "0825")))
    assert rules(found) == ["4.42"] and "may not move at all" in found[0].message
    found = play(script("1228"))  # next to Capuzzo
    assert rules(found) == ["4.42"] and "in contact with the enemy" in found[0].message
    found = play(script("0726", phase="C"))
    assert rules(found) == ["4.42"] and "in its side's maneuver" in found[0].message


def test_4_43_breaching_a_minefield(play):
    def breach(mp: int, where: str = "1029", phase: str = "B"):
        def s(w):
            cw_maneuver(w, mp)
            if phase != "B":
                w.phase(1, phase)
            w.place("breach", where, side="Commonwealth")  # the Halfaya Pass minefield 1028/1029
            w.phase(1, "C" if phase == "B" else "D")
        return s
    assert play(breach(4)) == []
    found = play(breach(3))
    assert rules(found) == ["4.1"] and "breach 4 MP" in found[0].message
    found = play(breach(5, where="1226"))
    assert rules(found) == ["4.43"] and "within the enemy's fire" in found[0].message
    found = play(breach(5, phase="C"))
    assert rules(found) == ["4.43"] and "during a maneuver" in found[0].message


def test_4_3_entrenching_costs_2_mp_or_3_for_armour(play):
    def script(mp: int):
        def s(w):
            cw_maneuver(w, mp)
            w.move("22-grd", "1129")  # motorised, one road hex
            w.place("entrenched", "1129", side="Commonwealth")
        return s
    assert play(script(3)) == []
    found = play(script(2))
    assert rules(found) == ["4.3"] and "+ 2 to entrench (4.3a)" in found[0].message
