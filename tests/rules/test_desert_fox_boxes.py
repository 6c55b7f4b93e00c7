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
