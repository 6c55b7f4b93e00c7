"""Western Desert Force, organization rules: depots (7.11-7.16), the Attack Point ledger (7.2-7.9),
victory (17.1, 17.2), turn structure and random events (3.1, 4.0, 5.0).

Each scenario starts from the campaign set-up (Allied depot 5110, Axis depot 4009 with Graziani
and two Italian divisions, Allies 4 AP and 4 ASP with Naval Support, Axis 2 AP), may adjust it
before play starts (moves before the first turn-tracker step are set-up, not play), then jumps
with the turn tracker to the segment it needs.  Each asserts the exact findings and steps.
"""
from __future__ import annotations

import pytest
import yaml

from builder.paths import REPO as ROOT
from validators.audit import audit_file
from validators.games.western_desert_force.points import column_for, parse_range
from validators.replay.writer import LogWriter

SLUG = "western-desert-force"
PLAYERS = {"Allied": ("allied-user", "Bob"), "Axis": ("axis-user", "Alice")}
TABLES = ROOT / "sources" / SLUG / "tables"


@pytest.fixture(scope="session")
def wdf(wdf_module):
    """(vmod path, game) of the one build of the real sources."""
    game, vmod = wdf_module
    return vmod, game


@pytest.fixture
def play(wdf, tmp_path):
    """Run a script on a LogWriter over the built module; return (findings, writer)."""
    vmod, game = wdf

    def run(script):
        w = LogWriter(vmod, players=PLAYERS)
        script(w)
        path = tmp_path / "game.vlog"
        w.write(path)
        return list(audit_file(game, path).findings)
    return run


def at(w: LogWriter) -> int:
    """The step number of the writer's last step."""
    return len(w.steps)


def violations(found) -> list[tuple[int, str]]:
    return [(f.step, f.rule) for f in found if f.kind == "violation"]


def events(found) -> list[tuple[int, str]]:
    return [(f.step, f.rule) for f in found if f.kind == "event"]


def message(found, rule: str) -> str:
    return next(f.message for f in found if f.rule == rule)


# -- tables: the rulebook's data points hold ---------------------------------------------------
def table(name: str) -> dict:
    return yaml.safe_load((TABLES / f"{name}.yaml").read_text())["data"]


def test_attack_points_table_keeps_the_rulebook_figures():
    data = table("attack-points")
    for row in data["rows"].values():
        for side in ("axis", "allied"):
            covered = sorted(d for c in row["columns"] if (r := parse_range(c["dice"].split("/")[side == "allied"]))
                             for d in range(r[0], r[1] + 1))
            assert covered == [1, 2, 3, 4, 5, 6]
    for p in data["rulebook_points"]:
        row = data["rows"][p["row"]]
        if "ap" in p:
            assert column_for(row["columns"], p["side"], p["die"], "ap") == p["ap"]
        if "mo_cost" in p:
            assert row["mo_cost"] == p["mo_cost"]


def test_other_tables_keep_the_rulebook_figures():
    air = table("air-superiority")
    for p in air["rulebook_points"]:
        row = next(r for r in air["rows"] if parse_range(r["turns"])[0] <= p["turn"] <= parse_range(r["turns"])[1])
        modified = min(6, max(1, p["die"] + air["zone_modifiers"][p["side"]][p["zone"]]))
        assert modified == p["modified"] and column_for(row["columns"], p["side"], modified, "score") == p["score"]
    reserves, levels, repl = table("reserves"), table("supply-level"), table("replacements")
    assert next(r for r in reserves["rows"] if r["turns"] == "6-8")["required"][0] == 12  # 7.8 Ex
    assert next(r for r in levels["rows"] if r["turns"] == "13-17")["levels"][3] == "Normal"  # 7.5 Ex
    assert repl["allied"][8] == 2 and repl["axis"][13] == 2  # 7.62 Ex, 7.5 Ex
    events_ = table("random-events")["events"]
    assert sorted(events_) == [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)]
    known = {e["name"]: e for e in events_.values() if e.get("known")}
    assert known["Special Allied Convoy"]["earliest"] == 7 and "Rommel Assassination" in known


# -- turn structure (3.1, 4.0) ------------------------------------------------------------------
def test_3_1_the_campaign_starts_with_its_markers(play):
    def script(w):
        w.turn(1, "Allied Depot Removal")
    assert violations(play(script)) == []


@pytest.mark.parametrize("marker, box, says", [("ap-axis", "Points 3", "begins with 2 Attack Points"),
                                               ("asp", "Points 3", "begins with 4 Allied ASPs"),
                                               ("naval-support", "Markers", "begin with Naval Support")])
def test_3_1_starting_markers_are_checked(play, marker, box, says):
    def script(w):
        w.move(marker, box)  # set-up
        w.turn(1, "Allied Depot Removal")
    found = play(script)
    assert violations(found) == [(2, "3.1")] and says in message(found, "3.1")


def test_3_1_no_random_events_on_turn_1(play):
    def script(w):
        w.roll("Random Events d66", [1, 1], "Allied")  # the tracker starts on Turn 1 Random Events
    assert violations(play(script)) == [(1, "3.1")]


def test_3_1_no_air_superiority_roll_on_turn_1_but_on_turn_2(play):
    def script(w):
        w.turn(1, "Air/Naval Support")
        w.roll("Axis Air Superiority die", [4], "Axis")
        w.turn(2, "Air/Naval Support")
        w.roll("Axis Air Superiority die", [4], "Axis")
    assert violations(play(script)) == [(2, "3.1")]


def test_4_0_phases_skip_forward_but_never_back(play):
    def script(w):
        w.turn(2, "Allied Depot Removal")
        w.turn(2, "Allied Regular Movement")  # forward over empty segments: legal
        w.turn(2, "Allied Depot Placement")  # back
    assert violations(play(script)) == [(3, "4.0")]


def test_4_0_no_turn_is_jumped(play):
    def script(w):
        w.turn(2, "End of Turn")
        w.turn(3, "Allied Depot Removal")
        w.turn(5, "Allied Depot Removal")
    assert violations(play(script)) == [(3, "4.0")]


# -- random events (5.0) ------------------------------------------------------------------------
def test_5_0_an_event_is_reported_and_a_repeat_of_a_once_only_one_is_not(play):
    def script(w):
        w.turn(7, "Random Events")
        w.roll("Random Events d66", [1, 6], "Allied")  # Special Allied Convoy (7+, once)
        w.turn(8, "Random Events")
        w.roll("Random Events d66", [1, 6], "Allied")  # again: No Event
    found = play(script)
    assert violations(found) == [] and events(found) == [(2, "5.0")]
    assert "Special Allied Convoy" in found[0].message and "(reconstructed table)" in found[0].message


def test_5_0_too_early_is_no_event(play):
    def script(w):
        w.turn(6, "Random Events")
        w.roll("Random Events d66", [1, 6], "Allied")  # before Turn 7
    assert play(script) == []


def test_5_0_an_ap_event_moves_the_marker(play):
    def script(w):
        w.turn(2, "Random Events")
        w.roll("Random Events d66", [1, 2], "Allied")  # Allied Convoy Sunk: Allied -1 AP
        w.move("ap-allied", "Points 3")
        w.turn(2, "Air/Naval Support")
    found = play(script)
    assert violations(found) == [] and events(found) == [(2, "5.0")]


def test_5_0_an_ap_event_not_applied(play):
    def script(w):
        w.turn(2, "Random Events")
        w.roll("Random Events d66", [1, 2], "Allied")
        w.turn(2, "Air/Naval Support")
    found = play(script)
    assert violations(found) == [(3, "5.0")] and events(found) == [(2, "5.0")]


def test_5_0_one_roll_a_turn(play):
    def script(w):
        w.turn(2, "Random Events")
        w.roll("Random Events d66", [1, 1], "Allied")
        w.roll("Random Events d66", [1, 6], "Allied")
    assert violations(play(script)) == [(3, "5.0")]


# -- the Attack Point ledger (7.2-7.9) -----------------------------------------------------------
def allied_points(w: LogWriter, die: int, to: str) -> None:
    w.turn(2, "Allied Attack Points & Reserves")
    w.roll("Allied Organization die", [die], "Allied")
    w.move("ap-allied", to)
    w.turn(2, "Allied Replacements")


def test_7_31_new_attack_points_from_the_table(play):
    # depot 5110 in Allied zone A, row A: die 5 -> 5 AP, 4 + 5 = 9
    assert play(lambda w: allied_points(w, 5, "Points 9")) == []


def test_7_31_wrong_new_attack_points(play):
    found = play(lambda w: allied_points(w, 5, "Points 8"))
    assert violations(found) == [(4, "7.31")]
    assert "from 4 to 9" in found[0].message and "(reconstructed table)" in found[0].message


def axis_points(w: LogWriter, *, spent_after_roll: bool = False, ap: str = "Points 5",
                level: str | None = "Supply Poor") -> None:
    w.turn(2, "Axis Attack Points & Supply Level")
    if not spent_after_roll:
        w.move("asp", "Points 2")  # the Allies spend 2 ASPs against the roll (7.2)
    w.roll("Axis Organization die", [6], "Axis")
    if spent_after_roll:
        w.move("asp", "Points 2")
    w.move("ap-axis", ap)
    if level:
        w.move("supply-level", level)
    w.turn(2, "Axis Replacements")


def test_7_32_asps_tobruk_and_benghazi(play):
    # depot 4009, Axis zone D; Tobruk held and joined to 1019: row C; 6 - 2 ASP + 1 Benghazi = 5 -> 3 AP;
    # supply level: Turn 2, 6 - 2 = 4 -> Poor (the Benghazi +1 does not count, 7.5)
    assert play(axis_points) == []


def test_7_2_asps_are_declared_before_the_roll(play):
    # 6 + 1 Benghazi, no ASP spent before the roll: row C, 6 -> 4 AP; supply level 6 -> Normal
    found = play(lambda w: axis_points(w, spent_after_roll=True, ap="Points 6", level=None))
    assert violations(found) == [(3, "7.2")]


def test_7_5_supply_level_from_the_same_roll(play):
    found = play(lambda w: axis_points(w, level=None))
    assert violations(found) == [(5, "7.5")] and "Poor" in found[0].message


def test_7_3_no_other_ap_change(play):
    def script(w):
        w.turn(2, "Axis Regular Movement")
        w.move("ap-allied", "Points 5")
    assert violations(play(script)) == [(2, "7.3")]


def major_offensive(w: LogWriter, *, to: str = "Points 2", surprise: bool = True) -> None:
    w.turn(2, "Allied Major Offensive")
    w.flip("ap-allied")
    w.move("ap-allied", to)
    if surprise:
        w.roll("Allied Surprise die", [2], "Allied")
    w.turn(2, "Allied Regular Movement")


def test_7_9_major_offensive_costs_the_zone_cost(play):
    assert play(major_offensive) == []  # zone A: 2 AP


def test_7_9_major_offensive_wrong_cost(play):
    assert violations(play(lambda w: major_offensive(w, to="Points 1"))) == [(5, "7.9")]


def test_7_9_major_offensive_must_be_affordable(play):
    def script(w):
        w.move("ap-allied", "Points 1")  # set-up
        major_offensive(w, to="Points 0")
    assert violations(play(script)) == [(6, "7.9")]


def test_7_92_major_offensive_rolls_for_surprise(play):
    assert violations(play(lambda w: major_offensive(w, surprise=False))) == [(4, "7.92")]


def test_12_1_each_ip_costs_one_ap(play):
    def script(w, pay):
        w.turn(2, "Allied Regular Movement")
        w.move("ip", "5110")  # on the Mersa Matruh garrison, which did not move
        if pay:
            w.move("ap-allied", "Points 3")
        w.turn(2, "Allied Regular Combat")
    assert violations(play(lambda w: script(w, True))) == []
    assert violations(play(lambda w: script(w, False))) == [(3, "12.1")]


# -- depots (7.11-7.16) --------------------------------------------------------------------------
def test_7_11_depot_placed_in_its_segment(play):
    def script(w):
        w.turn(2, "Allied Depot Placement")
        w.move("depot-allied", "5209")  # zone A, road to Alexandria
        w.turn(2, "Allied Attack Points & Reserves")
    assert violations(play(script)) == []


def test_7_11_depot_moved_outside_its_segment(play):
    def script(w):
        w.turn(2, "Allied Regular Movement")
        w.move("depot-allied", "5209")
    assert violations(play(script)) == [(2, "7.11")]


def test_7_11_depot_off_the_road(play):
    def script(w):
        w.turn(2, "Allied Depot Placement")
        w.move("depot-allied", "5211")
    found = play(script)
    assert violations(found) == [(2, "7.11")] and "not a road hex" in found[0].message


def test_7_11_depot_next_to_the_enemy_and_cut_off_by_its_zoc(play):
    def script(w):
        w.move("64cat", "5711")  # set-up: an Italian division south of the road at 5710
        w.turn(2, "Allied Depot Placement")
        w.move("depot-allied", "5710")
    found = [f for f in play(script) if f.kind == "violation"]
    assert [(f.step, f.rule) for f in found] == [(3, "7.11")]  # one act, one finding with both reasons
    assert "adjacent to an enemy" in found[0].message and "no road path" in found[0].message


def test_7_12_two_zones_put_the_depot_on_its_moved_side(play):
    def script(w, flip):
        w.turn(2, "Axis Depot Placement")
        w.move("depot-axis", "1908")  # Barce: from Axis zone D to zone B
        if flip:
            w.flip("depot-axis")
        w.turn(2, "Axis Attack Points & Supply Level")
    assert violations(play(lambda w: script(w, True))) == []
    found = play(lambda w: script(w, False))
    assert violations(found) == [(3, "7.12")] and "2 zones" in found[0].message


def test_7_13_a_depot_not_cut_off_stays(play):
    def script(w):
        w.turn(2, "Allied Depot Removal")
        w.move("depot-allied", "Markers")
    assert violations(play(script)) == [(2, "7.13")]


def cut_off(w: LogWriter, *, zero: bool = True, remove: bool = True) -> None:
    w.move("64cat", "5810")  # set-up: an Italian division on the road between Matruh and Alexandria
    w.turn(2, "Allied Depot Removal")
    if remove:
        w.move("depot-allied", "Markers")
    if zero:
        w.move("ap-allied", "Points 0")
    w.turn(2, "Allied Depot Placement")


def test_7_13_a_cut_off_depot_goes_and_its_points_with_it(play):
    def script(w):
        cut_off(w)
        w.move("depot-allied", "6408")  # back, Moved side up (7.15)
        w.flip("depot-allied")
        w.turn(2, "Allied Attack Points & Reserves")
    assert violations(play(script)) == []


def test_7_13_a_cut_off_depot_left_on_the_map(play):
    assert violations(play(lambda w: cut_off(w, zero=False, remove=False))) == [(3, "7.13")]


def test_7_13_the_ap_total_goes_to_zero(play):
    assert violations(play(lambda w: cut_off(w, zero=False))) == [(4, "7.13")]


def test_7_15_a_returning_depot_is_moved_side_up(play):
    def script(w):
        cut_off(w)
        w.move("depot-allied", "6408")
        w.turn(2, "Allied Attack Points & Reserves")
    assert violations(play(script)) == [(7, "7.15")]


def capture(w: LogWriter, *, zero: bool = True, gain: str = "Points 7") -> None:
    w.move("depot-axis", "4910")  # set-up: the Axis depot on the coast road next to Selby Force (4809)
    w.turn(2, "Allied Regular Movement")
    w.move("selby", "4910")  # captures it (7.14)
    w.move("depot-axis", "Markers")
    if zero:
        w.move("ap-axis", "Points 0")
    w.roll("Allied 1d6", [3], "Allied")
    w.move("ap-allied", gain)
    w.turn(2, "Allied Regular Combat")


def test_7_14_a_captured_depot(play):
    assert violations(play(capture)) == []


def test_7_14_capture_sets_the_owner_to_zero(play):
    assert violations(play(lambda w: capture(w, zero=False))) == [(7, "7.14")]


def test_7_14_the_capturer_adds_his_die(play):
    found = play(lambda w: capture(w, gain="Points 8"))
    assert violations(found) == [(7, "7.14")] and "from 4 to 7" in found[0].message


def test_7_16_exploitation_relocation_only_in_a_major_offensive(play):
    def script(w, offensive):
        if offensive:
            w.flip("ap-allied")  # set-up: the Allies have declared a Major Offensive
        w.turn(2, "Allied Exploitation Movement")
        w.move("depot-allied", "5209")
    assert violations(play(lambda w: script(w, True))) == []
    assert violations(play(lambda w: script(w, False))) == [(2, "7.16")]


def test_4_0_moved_depots_flip_back_at_the_end_of_the_turn(play):
    def script(w, when):
        w.turn(2, "Axis Depot Placement")
        w.move("depot-axis", "1908")
        w.flip("depot-axis")
        w.turn(2, when)
        w.flip("depot-axis")
    assert violations(play(lambda w: script(w, "End of Turn"))) == []
    assert violations(play(lambda w: script(w, "Axis Regular Movement"))) == [(5, "4.0")]


# -- victory (17.1, 17.2) ------------------------------------------------------------------------
def clear_the_way(w: LogWriter) -> None:
    """Set-up: every Allied unit off the map, an Italian division on Alexandria."""
    for unit in ("7a-4arm", "7a-7arm", "7a-7sg", "11h", "4ind-5", "4ind-11", "70d-16", "7rtr", "selby", "4ind-7",
                 "6aus-16", "6aus-17", "6aus-19", "oconnor"):
        w.move(unit, "Allied Reserve")
    w.move("64cat", "6508")


def test_17_1_automatic_victory_ends_the_game(play):
    def script(w, more):
        clear_the_way(w)
        w.turn(5, "End of Turn")
        if more:
            w.roll("Axis 1d6", [4], "Axis")
    found = play(lambda w: script(w, False))
    assert violations(found) == [] and events(found) == [(16, "17.1")]
    assert "Axis Automatic Victory" in found[0].message
    found = play(lambda w: script(w, True))
    assert violations(found) == [(17, "17.1")]


def test_17_2_victory_by_points_needs_tobruk(play):
    def script(w, flips):
        for unit in flips:
            w.flip(unit)  # set-up: reduced units
        w.turn(23, "End of Turn")
    found = play(lambda w: script(w, ["7a-4arm"]))  # Axis 4 VP and Tobruk
    assert events(found) == [(2, "17.2")] and "Axis victory" in found[0].message
    found = play(lambda w: script(w, ["1ccnn"]))  # Allies 1 VP, but Tobruk is Axis
    assert events(found) == [(2, "17.2")] and "a draw" in found[0].message


def test_4_0_no_play_after_turn_23(play):
    def script(w):
        w.turn(23, "End of Turn")
        w.roll("Allied 1d6", [4], "Allied")
    found = play(script)
    assert violations(found) == [(2, "4.0")] and events(found) == [(1, "17.2")]
