"""Replacements (7.6-7.63, digest §10.1 rank 16) from real-format logs over the built module.

Points come from tables/replacements.yaml (reconstructed around the rulebook's two data
points): Allied Turn 2 = 1, Turn 8 = 2 (7.62 Ex); Axis Turn 13 = 2 (7.5 Ex), plus one
non-armor point at supply level Excellent or Normal.  Units are reduced or eliminated in the
set-up (before the turn tracker starts), then the tracker goes to the Replacements segment.
"""
from __future__ import annotations

import yaml

from builder.paths import REPO as ROOT
from tests.rules import test_wdf_movement as mv
from tests.rules.test_wdf_movement import to_reserve

wdf, play, desert = mv.wdf, mv.play, mv.desert

TABLE = yaml.safe_load((ROOT / "sources" / "western-desert-force" / "tables" / "replacements.yaml").read_text())["data"]
INFANTRY = ("6aus-17", "6aus-19")  # in Alexandria in the set-up
ARMOR = ("7a-4arm", "7a-7arm")


def test_the_table_keeps_the_rulebook_points():
    assert TABLE["allied"][8] == 2 and TABLE["axis"][13] == 2  # 7.62 Ex, 7.5 Ex
    assert TABLE["allied"][2] == 1  # the tests' one-point turn


def rules(found) -> list[str]:
    return [f.rule for f in found]


def allied(w, turn: int, reduce=(), to_alexandria=()) -> None:
    """Set-up: units to Alexandria, units reduced; then the Allied Replacements segment."""
    for u in to_alexandria:
        w.move(u, "6508")
    for u in reduce:
        w.flip(u)
    w.turn(turn, "Allied Replacements")


def end(w, turn: int) -> None:
    w.turn(turn, "Allied Reinforcement-Withdrawal")


# -- 7.6: the count -------------------------------------------------------------------------------
def test_7_6_two_points_restore_two_units(play):
    def script(w):
        allied(w, 8, reduce=INFANTRY)
        for u in INFANTRY:
            w.flip(u)
        end(w, 8)
    assert play(script) == []


def test_7_6_no_more_points_than_the_turn_gives(play):
    def script(w):
        allied(w, 2, reduce=INFANTRY)
        for u in INFANTRY:
            w.flip(u)
        end(w, 2)
    found = play(script)
    assert rules(found) == ["7.6"] and "2 replacement point(s) spent" in found[0].message
    assert found[0].step == 6  # when the segment ends


def test_7_6_a_unit_must_be_supplied_and_out_of_enemy_zoc(play, desert):
    def script(w):
        to_reserve(w, keep=("4ind-5",))
        w.move("4ind-5", desert())
        allied(w, 8, reduce=("4ind-5",))
        w.flip("4ind-5")
        end(w, 8)
    found = play(script)
    assert rules(found) == ["7.6"] and "unsupplied or in an enemy ZOC" in found[0].message

    def in_zoc(w):
        w.move("64cat", "5111")  # set-up: an Italian division beside the Matruh garrison
        allied(w, 8, reduce=("4ind-7",))
        w.flip("4ind-7")
        end(w, 8)
    assert rules(play(in_zoc)) == ["7.6"]


# -- returns from the Recoverable Eliminated box ----------------------------------------------------
def test_7_6_an_eliminated_unit_returns_reduced_for_one_point_full_for_two(play):
    def script(w, turn, full):
        w.send("6aus-17", "Eliminate")  # set-up: eliminated by its menu command (Ctrl+E)
        allied(w, turn)
        w.move("6aus-17", "6508")
        if not full:
            w.flip("6aus-17")  # it comes back reduced
        end(w, turn)
    assert play(lambda w: script(w, 2, False)) == []
    assert play(lambda w: script(w, 8, True)) == []
    found = play(lambda w: script(w, 2, True))
    assert rules(found) == ["7.6"] and "2 replacement point(s) spent" in found[0].message


def test_7_6_a_stack_dragged_out_of_the_recoverable_box(play):
    def script(w, turn):
        for u in INFANTRY:
            w.send(u, "Eliminate")  # set-up
            w.flip(u)  # reduced in the box: each returns for one point
        allied(w, turn)
        w.move(INFANTRY[0], "6508", stack=True)
        end(w, turn)
    assert play(lambda w: script(w, 8)) == []
    assert rules(play(lambda w: script(w, 2))) == ["7.6"]


def test_7_6_returns_go_where_reinforcements_enter(play):
    def script(w):
        w.send("6aus-17", "Eliminate")
        w.flip("6aus-17")
        allied(w, 8)
        w.move("6aus-17", "5110")
        end(w, 8)
    found = play(script)
    assert rules(found) == ["7.6"] and "6508 or Allied Reserve" in found[0].message


def test_7_6_never_from_the_permanent_box(play):
    def script(w):
        w.move("6aus-17", "Allied Permanent Eliminated")
        allied(w, 8)
        w.move("6aus-17", "6508")
        end(w, 8)
    found = play(script)
    assert rules(found) == ["7.6"] and "permanently eliminated" in found[0].message


# -- 7.61, 7.62: the Allied split and the armor refit ------------------------------------------------
def test_7_61_never_both_allied_points_for_armor(play):
    def script(w, units):
        allied(w, 8, reduce=units, to_alexandria=ARMOR)
        for u in units:
            w.flip(u)
        end(w, 8)
    assert play(lambda w: script(w, (ARMOR[0], INFANTRY[0]))) == []
    found = play(lambda w: script(w, ARMOR))
    assert rules(found) == ["7.61"] and "2 of the 2" in found[0].message


def test_7_62_one_armor_unit_in_the_reserve_refits_free(play):
    def script(w, in_reserve):
        for u in in_reserve:
            w.move(u, "Allied Reserve")
        allied(w, 2, reduce=in_reserve + (INFANTRY[0],))
        for u in in_reserve + (INFANTRY[0],):
            w.flip(u)
        end(w, 2)
    assert play(lambda w: script(w, (ARMOR[0],))) == []  # the refit, and the turn's one point
    found = play(lambda w: script(w, ARMOR))  # a second armor unit: one point too many
    assert rules(found) == ["7.6"] and "2 replacement point(s) spent" in found[0].message


# -- 7.63: the Axis split --------------------------------------------------------------------------
def test_7_63_one_german_one_italian_and_the_supply_level_point(play):
    italians, german = ("1ccnn", "2ccnn"), "21pz-104"

    def script(w, units, level):
        w.move(german, "3909")  # set-up: a German regiment on the road west of Bardia
        if level != "Normal":  # the campaign starts at Normal
            w.move("supply-level", f"Supply {level}")
        for u in units:
            w.flip(u)
        w.turn(13, "Axis Replacements")
        for u in units:
            w.flip(u)
        w.turn(13, "Axis Reinforcement")
    assert play(lambda w: script(w, (german, italians[0]), "Poor")) == []
    assert play(lambda w: script(w, italians, "Normal")) == []  # the supply-level point is the second Italian
    found = play(lambda w: script(w, italians, "Poor"))
    assert rules(found) == ["7.63"]


def test_7_6_an_event_point_is_spent_like_the_track_s(play):
    """Event 23, Commonwealth Drafts (5.0): one more Allied point this turn; on Turn 2 (1 on the
    track) two restorations are then legal, and without the event one too many."""
    def script(w, code):
        for u in INFANTRY:
            w.flip(u)  # set-up
        w.turn(2, "Random Events")
        w.roll("Random Events d66", code, "Allied")
        w.turn(2, "Allied Replacements")
        for u in INFANTRY:
            w.flip(u)
        end(w, 2)
    assert play(lambda w: script(w, [2, 3])) == []
    assert rules(play(lambda w: script(w, [1, 4]))) == ["7.6"]  # 14: No Event


def test_7_6_flipped_in_the_box_then_returned_costs_two(play):
    """A unit flipped to its full face in the Recoverable Eliminated box, then moved out: a
    return at full strength, 2 points (too many on Turn 2)."""
    def script(w, turn):
        w.send("6aus-17", "Eliminate")
        w.flip("6aus-17")  # set-up: eliminated reduced
        allied(w, turn)
        w.flip("6aus-17")  # full again, still in the box
        w.move("6aus-17", "6508")
        end(w, turn)
    assert play(lambda w: script(w, 8)) == []
    assert rules(play(lambda w: script(w, 2))) == ["7.6"]
