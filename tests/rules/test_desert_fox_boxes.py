"""Desert Fox Deluxe: what happens in the boxes and tracks off the hex grid - air deployment (19.1-19.2),
training (8.5), the MET tracks (22.2), shipping (20.1-20.3) and the Oasis Track (16.2)."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", **kw)


# ---- 19.1-19.2: air deployment ------------------------------------------------------------------
def test_19_2_air_units_deploy_in_the_air_superiority_phase(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "II")
        w.move("libya-air", "Axis Air Superiority")
    assert play(script) == []


def test_19_2_an_air_unit_deployed_in_a_movement_phase_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.move("libya-air", "Axis Air Superiority")
    found = play(script)
    assert rules(found) == ["19.2"] and "Air Superiority Phase" in found[0].message


def test_19_2_an_air_unit_flies_a_mission_from_a_holding_box_and_comes_back(play):
    def script(w):
        w.phase(4, "VI")
        w.move("libya-air", "C2331")  # interdiction (4.1 VI.3 c)
        w.phase(4, "VIII")
        w.move("libya-air", "Axis Air North Africa")
    assert play(script) == []


def test_19_2_an_air_unit_in_the_air_superiority_box_flies_no_other_mission(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "II")
        w.move("libya-air", "Axis Air Superiority")
        w.phase(5, "VI")
        w.move("libya-air", "C2331")
    found = play(script)
    assert rules(found) == ["19.2"] and "other missions" in found[0].message


def test_19_2_an_air_unit_goes_to_the_available_next_turn_box_in_any_phase(play):
    def script(w):
        w.phase(4, "VIII")
        w.move("libya-air", "Axis Available Next Turn")  # mission damage (19.3)
    assert play(script) == []


def test_19_2_no_air_unit_in_the_other_sides_box(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "II")
        w.move("libya-air", "Allied Air North Africa")
    assert rules(play(script)) == ["19.2"]


# ---- 8.5: training ----------------------------------------------------------------------------------
def test_8_5_a_unit_trains_one_box_an_allocation_phase_and_leaves_at_the_nrv(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("4-nz-bg", "Training T2")  # a restart from the NRV: ceil(d6 / 3) <= 2 (8.5.2)
        w.phase(6, "IV")
        w.move("4-nz-bg", "Training T1")
        w.phase(7, "IV")
        w.move("4-nz-bg", "NRV Box")
    assert play(script) == []


def test_8_5_a_training_move_outside_the_allocation_phase_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("4-nz-bg", "Training T2")
        w.phase(6, "VI")
        w.move("4-nz-bg", "Training T1")
    found = play(script)
    assert rules(found) == ["8.5"] and "Allocation Phase" in found[0].message


def test_8_5_a_unit_moves_down_the_track_not_up(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("4-nz-bg", "Training T2")
        w.phase(6, "IV")
        w.move("4-nz-bg", "Training T3")
    assert rules(play(script)) == ["8.5"]


def test_8_5_an_allied_restart_goes_no_higher_than_t2(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("4-nz-bg", "Training T3")
    found = play(script)
    assert rules(found) == ["8.5"] and "T2" in found[0].message


def test_8_5_an_axis_unit_enters_training_at_a_base(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("tobruk-it", "Training T3")  # Tobruk C2331 holds an Axis base (12.2.4)
        w.phase(6, "IV")
        w.move("tobruk-it", "Training T2")
        w.phase(7, "IV")
        w.move("tobruk-it", "Training T1")
        w.phase(8, "IV")
        w.move("tobruk-it", "C2331")
    assert play(script) == []


def test_8_5_an_axis_unit_out_of_t1_away_from_the_base_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("tobruk-it", "Training T1")
        w.phase(6, "IV")
        w.move("tobruk-it", "C1812")
    found = play(script)
    assert rules(found) == ["8.5"] and "primary base" in found[0].message


def test_8_5_an_untrained_unit_on_the_map_needs_its_marker(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("tobruk-it", "Training T3")
        w.phase(6, "IV")
        w.move("tobruk-it", "C2331")  # before T1: untrained (8.5.2)
        w.phase(6, "V")
    found = play(script)
    assert rules(found) == ["8.5"] and "Untrained" in found[0].message


def test_8_5_an_untrained_unit_with_its_marker_is_legal(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("tobruk-it", "Training T3")
        w.phase(6, "IV")
        w.move("tobruk-it", "C2331")
        w.place("untrained", "C2331", side="Axis")
        w.phase(6, "V")
    assert play(script) == []


# ---- 22.2: the MET tracks ---------------------------------------------------------------------------
def _levant(w):
    w.place("met-situation", "Levant 0", side="Allied")
    w.phase(4, "VI")


def test_22_2_a_met_marker_moves_up_one_box_in_the_events_phase(play):
    def script(w):
        _levant(w)
        w.phase(5, "I")
        w.move("met-situation", "Levant 1")
    assert play(script) == []


def test_22_2_a_met_marker_moving_in_another_phase_is_reported(play):
    def script(w):
        _levant(w)
        w.move("met-situation", "Levant 1")
    found = play(script)
    assert rules(found) == ["22.2"] and "Events Phase" in found[0].message


def test_22_2_a_met_marker_moves_no_more_than_one_box_up(play):
    def script(w):
        _levant(w)
        w.phase(5, "I")
        w.move("met-situation", "Levant 2")
    assert rules(play(script)) == ["22.2"]


def test_22_2_a_unit_goes_from_the_nrv_to_the_marker_box_in_a_movement_phase(play):
    def script(w):
        _levant(w)
        w.move("4-nz-bg", "Levant 0")
    assert play(script) == []


def test_22_2_a_unit_goes_onto_a_track_only_from_the_nrv(play):
    def script(w):
        _levant(w)
        w.move("22-bde", "Levant 0")
    found = play(script)
    assert rules(found) == ["22.2"] and "NRV" in found[0].message


def test_22_2_no_unit_on_the_pacific_track(play):
    def script(w):
        w.phase(4, "VI")
        w.move("4-nz-bg", "Pacific 0")
    assert rules(play(script)) == ["22.2"]


# ---- 20.1-20.3: shipping ------------------------------------------------------------------------------
def test_20_0_ocean_shipping_placed_in_the_allocation_phase_lands_in_a_movement_phase(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("4-nz-bg", "Allied Mediterranean Shipping")
        w.phase(5, "VI")
        w.move("4-nz-bg", "W2232")  # Alexandria
    assert play(script) == []


def test_20_0_ocean_shipping_placed_in_a_movement_phase_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.move("4-nz-bg", "Allied Mediterranean Shipping")
    found = play(script)
    assert rules(found) == ["20.0"] and "Allocation Phase" in found[0].message


def test_20_0_a_unit_not_landed_in_its_gt_is_reported_once(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("4-nz-bg", "Allied Mediterranean Shipping")
        w.phase(5, "XX")
        w.phase(6, "I")
        w.phase(6, "II")
    found = play(script)
    assert rules(found) == ["20.0"] and "end of GT 5" in found[0].message


def test_20_0_coastal_shipping_from_port_to_port(play):
    def script(w):
        w.phase(4, "VI")
        w.move("22-bde", "Allied Coastal Shipping")  # from Mersa Matruh W2118
        w.move("22-bde", "W2232")
    assert play(script) == []


def test_20_0_coastal_shipping_embarks_only_at_a_port(play):
    def script(w):
        w.phase(4, "VI")
        w.move("wdf-bde", "Allied Coastal Shipping")  # from W2117, no port
    found = play(script)
    assert rules(found) == ["20.0"] and "no port" in found[0].message


# ---- 16.2: the Oasis Track ------------------------------------------------------------------------------
def test_16_2_a_unit_moves_onto_the_track_in_its_movement_phase(play):
    def script(w):
        w.move("cih", "W0106")  # set-up position for the test: Siwa counts as an oasis box (16.2.1)
        w.phase(4, "VI")
        w.move("cih", "Kufra Oasis Box")
    assert play(script) == []


def test_16_2_no_oasis_track_move_in_a_reaction_phase(play):
    def script(w):
        w.move("cih", "W0106")
        w.phase(4, "VII")
        w.move("cih", "Kufra Oasis Box")
    found = play(script)
    assert rules(found) == ["16.2"] and "Movement Phase" in found[0].message


def test_16_2_hon_is_reached_only_by_its_connection_hex(play):
    def script(w):
        w.move("cih", "S0513")
        w.phase(4, "VI")
        w.move("cih", "Hon Oasis Box")
    found = play(script)
    assert rules(found) == ["16.2"] and "S0413" in found[0].message


def test_16_2_hon_from_its_connection_hex_is_legal(play):
    def script(w):
        w.move("cih", "S0413")
        w.phase(4, "VI")
        w.move("cih", "Hon Oasis Box")
    assert play(script) == []


def test_8_5_an_untrained_marker_stays_until_the_unit_has_trained(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("tobruk-it", "Training T3")
        w.phase(6, "IV")
        w.move("tobruk-it", "C2331")
        w.place("untrained", "C2331", side="Axis")
        w.phase(6, "VI")
        w.remove("untrained@C2331")
    found = play(script)
    assert rules(found) == ["8.5"] and "completed its training" in found[0].message


def test_8_5_no_axis_training_in_the_gt_the_primary_base_is_relocated(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "IV")
        w.move("axis-base-1", "C0803")  # 12.2.4: the primary base relocated at the start of the Allocation Phase
        w.move("tobruk-it", "Training T3")
    found = play(script)
    assert rules(found) == ["8.5"] and "relocated" in found[0].message


# ---- 12.2: supply units --------------------------------------------------------------------------------
def test_12_2_a_base_is_created_from_a_dump_and_an_msu_in_a_movement_phase(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.remove("axis-dump-1")
        w.remove("axis-msu-1")
        w.place("axis-base-3", "C2331", side="Axis")
    assert play(script) == []


def test_12_2_a_base_without_a_dump_and_an_msu_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.remove("axis-dump-1")
        w.place("axis-base-3", "C2331", side="Axis")
    found = play(script)
    assert rules(found) == ["12.2"] and "one dump and one MSU" in found[0].message


def test_12_2_a_base_is_not_created_in_a_combat_phase(play):
    def script(w):
        w.phase(4, "VIII")
        w.remove("axis-dump-1")
        w.remove("axis-msu-1")
        w.place("axis-base-3", "C2331", side="Axis")
    found = play(script)
    assert rules(found) == ["12.2"] and "Movement Phase" in found[0].message


def test_12_2_no_more_dumps_on_the_map_than_the_counters_provided(play):
    def script(w):
        w.phase(1, "VI")
        for _ in range(8):  # one Axis dump is on the map already (28.0, AXC-2); the game provides eight
            w.place("axis-dump-2", "C2331", side="Axis")
    found = play(script, setup="desert-war.vsav")
    assert rules(found) == ["12.2"] and "more than the 8" in found[0].message


def test_12_2_a_captured_dump_is_not_moved(play):
    def script(w):
        w.phase(4, "VI")
        w.place("captured-supply", "C2331", side="Axis")
        w.move("axis-dump-1", "C2330")
    found = play(script)
    assert "12.2" in rules(found) and "Captured Supply" in found[rules(found).index("12.2")].message


# ---- 22.1: the Nile River Valley ----------------------------------------------------------------------------
def test_22_1_an_axis_unit_never_enters_the_nrv(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "NRV Box")
    found = play(script)
    assert rules(found) == ["22.1"] and "Axis units may not enter" in found[0].message


def test_22_1_an_allied_unit_reaches_the_nrv_by_the_railroad(play):
    def script(w):
        w.phase(4, "VI")
        w.move("22-bde", "NRV Box")  # from Mersa Matruh W2118, on the Egyptian railroad
    assert play(script) == []


def test_22_1_a_withdrawal_may_be_lifted_off_the_map(play):
    def script(w):
        w.phase(4, "VI")
        w.move("5-ind-bg", "NRV Box")  # withdrawn on GT 8 (24.2); 7.4 Important: if the Axis player allows
    assert play(script) == []


def test_22_1_an_allied_unit_reaches_the_nrv_only_by_its_connections(play):
    def script(w):
        w.phase(4, "VI")
        w.move("wdf-bde", "NRV Box")  # from W2117, off the railroad, the track and the roads
    found = play(script)
    assert rules(found) == ["22.1"] and "W1434" in found[0].message


# ---- 7.4 with 24.2 b: the RP owed for an eliminated withdrawal ---------------------------------------
def test_7_4_an_eliminated_withdrawal_costs_one_rp_at_once(play):
    def script(w):
        w.place("rp-allied", "NRV Box", side="Allied")
        w.phase(4, "VIII")
        w.send("5-ind-bg", "Eliminate", side="Allied")  # withdrawn by the end of GT 8 (24.2)
        w.remove("rp-allied")
        w.phase(4, "IX")
    assert play(script) == []


def test_7_4_an_eliminated_withdrawal_without_the_rp_is_reported_at_the_elimination(play):
    def script(w):
        w.place("rp-allied", "NRV Box", side="Allied")
        w.phase(4, "VIII")
        w.send("5-ind-bg", "Eliminate", side="Allied")
        w.phase(4, "IX")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["7.4"] and "refit point" in found[0].message and found[0].step == 3  # the elimination


def test_7_4_with_no_rp_to_expend_the_debt_waits_for_the_next_rp(play):
    def script(w):
        w.phase(4, "VIII")
        w.send("5-ind-bg", "Eliminate", side="Allied")
        w.phase(4, "IX")
        w.phase(5, "III")
        w.place("rp-allied", "NRV Box", side="Allied")  # the GT's arriving RP is forfeited to the debt
        w.phase(5, "IV")
    found = play(script)
    assert rules(found) == ["7.4"]


# ---- 24.1-24.2: each GT's support ---------------------------------------------------------------------------
def test_24_each_gts_support_arrives_where_and_when_the_card_says(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "III")
        for _ in range(2):
            w.place("axis-dump-2", "C0701", side="Axis")
        w.place("rp-axis", "C0701", side="Axis")
        for _ in range(4):
            w.place("allied-msu-2", "NRV Box", side="Allied")
        w.place("rp-allied", "NRV Box", side="Allied")
    assert play(script) == []


def test_24_1_a_third_dump_in_one_gt_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "III")
        for _ in range(3):
            w.place("axis-dump-2", "C0701", side="Axis")
    found = play(script)
    assert rules(found) == ["24.1"] and "more than the 2" in found[0].message


def test_24_1_the_axis_support_arrives_at_el_agheila(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "III")
        w.place("axis-dump-2", "C0803", side="Axis")
    found = play(script)
    assert rules(found) == ["24.1"] and "C0701" in found[0].message


def test_24_2_the_allied_rp_arrives_in_the_reinforcement_phase(play):
    def script(w):
        w.phase(4, "VI")
        w.place("rp-allied", "NRV Box", side="Allied")
    found = play(script)
    assert rules(found) == ["24.2"] and "Reinforcement Phase" in found[0].message


# ---- 12.4-12.5: a unit that traces supply is not marked OGS --------------------------------------------------
def test_12_4_a_unit_next_to_the_always_active_base_is_not_marked_ogs(play):
    def script(w):
        w.place("ogs", "C0803", side="Axis")  # set-up for the test: 2 CCNN at Mersa Brega marked OGS
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
    found = play(script)
    assert rules(found) == ["12.4"] and "C0701" in found[0].message


def test_12_4_a_unit_far_from_any_sure_source_may_be_marked_ogs(play):
    def script(w):
        w.place("ogs", "C2232", side="Axis")  # near Tobruk: its base's activation is not in the log
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
    assert play(script) == []


def test_12_4_an_allied_unit_on_the_road_from_the_nrv_is_not_marked_ogs(play):
    def script(w):
        w.move("cih", "W2034")  # set-up for the test: on the NRV's road entry (22.1 a)
        w.place("ogs", "W2034", side="Allied")
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VIII")
        w.phase(4, "IX")
        w.move("22-bde", "W2017")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["12.4"] and "NRV" in found[0].message
