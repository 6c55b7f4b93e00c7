"""Reinforcements, withdrawals and the Allied reserve requirement (7.4, 7.7, 7.8; digest §10.1
rank 17) from real-format logs over the built module.

Turn 3 of the campaign: the 3rd Armoured Brigade, 2nd Support Group and KDG wait in the "Turn 3"
box and enter at Alexandria (6508).  The Allied Organization die 5 gives 4 + 5 = 9 AP (depot
5110, row A) and, on the reconstructed Reserves table's Turn 1-3 row, 1 reserve unit; die 1
gives 7 AP and 4 reserve units.
"""
from __future__ import annotations

import yaml

from builder.paths import REPO as ROOT
from tests.rules import test_wdf_movement as mv
from tests.rules.test_wdf_movement import ALLIED_UNITS, run_log

wdf, play, desert = mv.wdf, mv.play, mv.desert

RESERVES = yaml.safe_load((ROOT / "sources" / "western-desert-force" / "tables" / "reserves.yaml").read_text())["data"]
ARRIVALS = ("2a-3arm", "2a-2sg", "kdg")  # Turn 3, Alexandria
AP_AFTER = {5: "Points 9", 1: "Points 7"}


def test_the_table_keeps_the_rulebook_point_and_the_tests_rows():
    rows = {r["turns"]: r["required"] for r in RESERVES["rows"]}
    assert rows["6-8"][0] == 12  # 7.8 Ex: Turn 6, die 1 -> 12
    assert rows["1-3"][4] == 1 and rows["1-3"][0] == 4  # what these tests use


def rules(found) -> list[str]:
    return [f.rule for f in found]


def segment(w, die: int = 5, turn: int = 3) -> None:
    """The Allied Organization roll, then the Reinforcement-Withdrawal segment."""
    w.turn(turn, "Allied Attack Points & Reserves")
    w.roll("Allied Organization die", [die], "Allied")
    w.move("ap-allied", AP_AFTER[die])
    w.turn(turn, "Allied Reinforcement-Withdrawal")


def arrive(w, to: str, units=ARRIVALS) -> None:
    """Arrivals moved one by one out of the Turn 3 box (it holds the Axis arrivals of the turn too)."""
    for u in units:
        w.move(u, to)


def end(w, turn: int = 3) -> int:
    w.turn(turn, "Allied Major Offensive")
    return len(w.steps)


# -- 7.7: arrivals ---------------------------------------------------------------------------------
def test_7_7_reinforcements_enter_at_alexandria_or_into_the_reserve(play):
    def one_by_one(w):
        segment(w)
        w.move("2a-2sg", "Allied Reserve")  # the 1 reserve unit required
        w.move("2a-3arm", "6508")
        w.move("kdg", "6508")
        end(w)
    assert play(one_by_one) == []

    def dragged(w):
        segment(w)
        arrive(w, "6508")
        w.move("6aus-17", "Allied Reserve", stack=True)  # the Alexandria stack withdrawn whole (7.8)
        end(w)
    assert play(dragged) == []


def test_7_7_a_reinforcement_not_placed(play):
    def script(w):
        segment(w)
        w.move("2a-2sg", "Allied Reserve")
        w.move("2a-3arm", "6508")
        return end(w)
    found = play(script)
    assert rules(found) == ["7.7"] and "still on the turn track" in found[0].message


def test_7_7_not_before_its_turn_nor_elsewhere(play):
    def early(w):
        segment(w)
        w.move("2a-2sg", "Allied Reserve")
        arrive(w, "6508", ("2a-3arm", "kdg"))
        w.move("9aus-20", "6508")  # a Turn 4 arrival
        end(w)
    found = play(early)
    assert rules(found) == ["7.7"] and "waits for Turn 4" in found[0].message

    def elsewhere(w):
        segment(w)
        w.move("2a-2sg", "Allied Reserve")
        w.move("kdg", "6508")
        w.move("2a-3arm", "5110")
        end(w)
    found = play(elsewhere)
    assert rules(found) == ["7.7"] and "6508" in found[0].message and "5110" in found[0].message


def test_7_7_only_in_the_reinforcement_segment(play):
    def script(w):
        w.turn(3, "Allied Regular Movement")
        w.move("kdg", "6508")
    found = play(script)
    assert "7.7" in rules(found) and "Reinforcement segment" in found[0].message


# -- 7.4: the requirement ----------------------------------------------------------------------------
def test_7_4_the_requirement_is_mandatory(play):
    def script(w):
        segment(w)
        arrive(w, "6508")  # everyone to the map, nobody to the reserve
        return end(w)
    found = play(script)
    assert rules(found) == ["7.4"] and "0 reserve units of the 1 required" in found[0].message


def test_7_4_a_withdrawal_meets_it(play):
    """A supplied unit withdrawn from the map (Alexandria) meets the requirement instead."""
    def script(w):
        segment(w)
        arrive(w, "6508")
        w.move("6aus-17", "Allied Reserve")
        end(w)
    assert play(script) == []


def test_7_4_six_units_on_the_map_a_failure_worth_3_vp(wdf, tmp_path):
    """Six Allied units left on the map: the deficit is ignored, and the Axis gain 3 VP."""
    gone = ALLIED_UNITS[6:]

    def script(w):
        for u in gone:
            w.send(u, "Eliminate")  # set-up: eliminated by the menu command (Ctrl+E)
        segment(w, die=1)  # 4 reserve units required
        arrive(w, "Allied Reserve")  # 1 + 1 + 1/2 = 2.5
        end(w)
    a = run_log(wdf, script, tmp_path / "g.vlog", auditor=True)
    assert a.failures == [3]
    assert [f for f in a.findings if f.kind == "violation"] == []
    assert [f.rule for f in a.findings if f.kind == "event" and "reserve" in f.message] == ["7.4"]
    assert "Axis gain 3 VP" in next(f.message for f in a.findings if f.rule == "7.4")
    score, detail = a.victory_points()  # 17.2: the failure turn counts for the Axis
    assert "1 reserve failure" in detail["axis"]
    a.failures.clear()
    assert a.victory_points()[0]["axis"] == score["axis"] - 3


# -- 7.8: withdrawals and reserve units ----------------------------------------------------------------
def test_7_8_only_supplied_units_are_withdrawn(play, desert):
    def script(w):
        w.move("4ind-5", desert())  # set-up: out of supply
        segment(w)
        arrive(w, "6508")
        w.move("4ind-5", "Allied Reserve")
        end(w)
    found = play(script)
    assert rules(found) == ["7.8"] and "unsupplied" in found[0].message


def test_7_8_reduced_reserve_units_do_not_go_to_the_map(play):
    def script(w, reduced):
        w.move("6aus-19", "Allied Reserve")  # set-up
        if reduced:
            w.flip("6aus-19")
        w.move("6aus-17", "Allied Reserve")
        segment(w)
        arrive(w, "6508")
        w.move("6aus-19", "6508")  # 6aus-17 stays: the requirement is met
        end(w)
    assert play(lambda w: script(w, False)) == []
    found = play(lambda w: script(w, True))
    assert rules(found) == ["7.8"] and "reduced" in found[0].message


def test_7_8_units_go_to_the_reserve_only_in_the_segment(play):
    def script(w):
        w.turn(3, "Allied Regular Movement")
        w.move("6aus-17", "Allied Reserve")
    found = play(script)
    assert rules(found) == ["7.8"] and "Reinforcement-Withdrawal" in found[0].message
