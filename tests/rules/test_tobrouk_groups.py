"""Combat Groups (7.31-7.33, 4.2a'), Tobrouk 41-42: real-format logs over the built module,
Battleaxe set-up (the XXX Corps CG at 0727 holding 4/7Ar, 7/7Ar and the Support Group, its HQ
at 0726; the AK HQ at Gambout 1619, which forms AK1 at 1117 in the example of play, 10.A)."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_rules import cw_maneuver, pair
from tests.rules.tobrouk_play import player, rules

BOX = "CG XXX Corps CG"


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path)


def turn_2_admin(w) -> None:
    pair(w, 5, 5)
    w.phase(2, "A")
    w.move("mp-cw", "MP 0")
    w.move("mp-axis", "MP 0")


def test_7_32_a_cg_is_created_in_phase_a_in_range_and_out_of_fire(play):
    def create(hex_id: str, phase: str = "A"):
        def s(w):
            turn_2_admin(w)
            if phase != "A":
                w.phase(2, phase)
            w.place("cg-ak1", hex_id, side="Axis")
        return s
    assert play(create("1117")) == []  # 10.A
    found = play(create("1117", phase="B"))
    assert rules(found) == ["7.32"] and "created in the Administrative phase" in found[0].message
    found = play(create("0505"))
    assert rules(found) == ["7.32"] and "within the HQ's range of 13" in found[0].message  # 10 + the lenient margin
    found = play(create("1129"))  # next to the Commonwealth units in 1030
    assert rules(found) == ["7.32"] and "1129 is under enemy fire" in found[0].message


def test_7_31_only_the_hq_s_units_enter_its_cg(play):
    def enter(unit: str, mp: int = 5):
        def s(w):
            w.move(unit, "0826")  # set-up adjustment: next to the CG
            cw_maneuver(w, mp)
            w.move(unit, BOX)
        return s
    assert play(enter("22-grd")) == []  # a XXX Corps unit: 1 MP + 2 to enter
    found = play(enter("11-4ind"))  # XIII Corps
    assert rules(found) == ["7.31"] and "only units of XXX Corps HQ" in found[0].message
    found = play(enter("22-grd", mp=2))
    assert rules(found) == ["4.2"] and "+ 2 to enter (4.2a')" in found[0].message


def test_7_32_no_entry_in_contact_nor_unsupplied(play):
    def contact(w):
        w.move("cg-xxx", "1226")  # next to Capuzzo 1227
        w.move("22-grd", "1126")
        cw_maneuver(w, 5)
        w.move("22-grd", BOX)
    found = play(contact)
    assert rules(found) == ["7.32"] and "in contact with the enemy (7.32c)" in found[0].message

    def unsupplied(w):
        w.move("22-grd", "0826")
        w.place("cr", "0826", side="Commonwealth")  # set-up: marked unsupplied
        cw_maneuver(w, 5)
        w.move("22-grd", BOX)
    found = play(unsupplied)
    assert rules(found) == ["7.32"] and "may not enter a CG (3.9a" in found[0].message


def test_7_31_the_display_holds_the_cg_s_capacity(play):
    def script(w):
        w.move("11huss-7ar", "0826")
        cw_maneuver(w, 5)
        w.move("11huss-7ar", BOX)  # a third armoured CU (recon is armoured)
    found = play(script)
    assert rules(found) == ["7.31"] and "2 armoured" not in found[0].message and "(reconstructed table)" in found[0].message


def test_7_33_the_units_of_a_dissolved_cg_take_its_hex(play):
    def in_admin(to: str):
        def s(w):
            turn_2_admin(w)
            w.remove("cg-xxx")
            w.move("4-7ar", to)
        return s
    assert play(in_admin("0727")) == []
    found = play(in_admin("0726"))
    assert rules(found) == ["7.33"] and "replace its counter in 0727" in found[0].message

    def in_maneuver(to: str):
        def s(w):
            cw_maneuver(w, 2)
            w.remove("cg-xxx")
            w.move("7-7ar", to)  # the move starts at the CG's hex
        return s
    assert play(in_maneuver("0728")) == []
    found = play(in_maneuver("1030"))
    assert rules(found) == ["4.1"] and found[0].from_hex == "0727"

    def in_f(w):
        pair(w, 5, 5)
        w.remove("cg-xxx")
    found = play(in_f)
    assert rules(found) == ["7.33"] and "taken off 0727 in the" in found[0].message


def test_7_33_a_cg_explodes_when_one_of_its_units_retreats_or_is_eliminated(play):
    """The XXX Corps CG at 0727 (4/7Ar and 7/7Ar on its display): a Retreat marker on its hex, or a
    unit of its display eliminated, in the combat phase: the CG explodes (its counter goes)."""
    def script(event, explode):
        def s(w):
            cw_maneuver(w, 5)
            w.phase(1, "C")
            if event == "retreat":
                w.place("retreat", "0727", side="Commonwealth")
            else:
                w.move("7-7ar", "Commonwealth eliminated")
            if explode:
                w.remove("cg-xxx")
            w.phase(1, "D")
        return s
    for event in ("retreat", "eliminated"):
        assert [f for f in play(script(event, True)) if f.rule == "7.33"] == []
        found = [f for f in play(script(event, False)) if f.rule == "7.33"]
        assert len(found) == 1 and found[0].step == 5 and "explodes" in found[0].message
