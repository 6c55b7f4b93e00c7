"""Per-rule scenarios for the Desert Fox Deluxe audit: real-format logs written over the built module
(the 24.0 Fox Killed set-up, GT 4 from Phase VI) and audited as a player's log would be.  Each rule
has a legal and an illegal case.  Moves made before the turn tracker first moves are set-up
adjustments, not movement (their set-up findings, 3.1, are left out unless a test asks)."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", **kw)


@pytest.fixture
def game(dfd_module):  # noqa: F811
    return dfd_module[0]


# ---- 4.1: sequence of play -------------------------------------------------------------------------
def test_4_1_each_side_moves_in_its_own_movement_phase(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.phase(4, "VIII")
        w.phase(4, "IX")
        w.move("22-bde", "W2017")
        w.phase(4, "X")
    assert play(script) == []


def test_4_1_the_second_player_may_not_move_in_the_first_players_movement_phase(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.move("22-bde", "W2017")
    found = play(script)
    assert rules(found) == ["4.1"] and found[0].piece.startswith("22")


def test_4_1_the_reacting_player_alone_moves_in_a_reaction_phase(play):
    def script(w):
        w.move("ragg-x", "W1917")  # set-up: an enemy within two hexes of 22 Gds Bde, which may then react (13.5)
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("22-bde", "W2017")  # the Allies react: legal
        w.move("63-cirene", "C2331")  # the Axis may not
    found = play(script)
    assert rules(found) == ["4.1"] and found[0].piece.startswith("63")


def test_4_1_no_ground_move_in_the_strategic_impulse(play):
    def script(w):
        w.phase(5, "III")
        w.move("62-mmrirca", "C2331")
    assert rules(play(script)) == ["4.1"]


def test_4_1_the_tracker_never_goes_back(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(4, "VIII")
        w.phase(4, "VII")
    assert rules(play(script)) == ["4.1"]


def test_4_1_the_tracker_goes_on_to_the_next_gt(play):
    def script(w):
        w.phase(4, "XVII")
        w.phase(4, "XX")
        w.phase(5, "I")
    assert play(script) == []


# ---- 13.2: movement allowance (reconstructed TEC) --------------------------------------------------
def test_13_2_a_move_within_the_ma_is_legal(play):
    def script(w):
        w.phase(4, "VI")
        w.move("4-lt-arm", "W0610")  # 19 MP of its 22 along the desert tracks
        w.phase(4, "VII")
    assert play(script) == []


def test_13_2_a_unit_that_comes_back_to_where_it_began_has_spent_nothing(play):
    """A move is costed from where the unit stood when the phase began: back there, it has
    moved nowhere, even when that hex is one no move may enter (the sea hex W2106 here: the
    shortcut for a hex nothing can enter must not call the way back blocked)."""
    def script(w):
        w.move("babini", "W2106")  # set-up adjustment: onto the sea
        w.phase(4, "VI")
        w.move("babini", "W2006")
        w.move("babini", "W2106")
        w.phase(4, "VII")
    assert play(script) == []


def test_13_2_a_move_past_even_a_forced_march_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.move("4-lt-arm", "W0226")  # 33 MP > 22 + 9
    found = play(script)
    assert rules(found) == ["13.2"] and "reconstructed" in found[0].message


def test_13_2_4_a_move_past_the_ma_must_be_a_forced_march_that_disrupts(play):
    def script(w):
        w.phase(4, "VI")
        w.move("4-lt-arm", "W0608")  # 23 MP: only a forced march (MA + 1d6 + 3)
        w.phase(4, "VII")
    assert rules(play(script)) == ["13.2.4"]


def test_13_2_4_a_forced_march_with_its_disruption_is_legal(play):
    def script(w):
        w.phase(4, "VI")
        w.move("4-lt-arm", "W0608")
        w.place("disrupted", "W0608", side="Allied")
        w.phase(4, "VII")
    assert play(script) == []


def test_13_2_4_c_a_unit_starting_next_to_an_enemy_may_not_force_march(play):
    def script(w):
        w.move("ragg-x", "W2116")  # set-up adjustment: an Axis unit next to 4 Lt Arm's W2117
        w.phase(4, "VI")
        w.move("4-lt-arm", "W0608")  # 23 MP: only a forced march, which 13.2.4 c denies it
        w.place("disrupted", "W0608", side="Allied")
        w.phase(4, "VII")
    found = play(script)
    assert rules(found) == ["13.2.4"] and "13.2.4 c" in found[0].message and found[0].piece.startswith("4 Lt Arm")


def test_13_2_4_c_a_unit_starting_next_to_an_enemy_moves_its_ma(play):
    def script(w):
        w.move("ragg-x", "W2116")
        w.phase(4, "VI")
        w.move("4-lt-arm", "W0610")  # 19 MP of its 22
        w.phase(4, "VII")
    assert play(script) == []


def _march(w, to: str, *, declare: bool = True, enemy_at: str | None = None) -> None:
    """The Axis (1st player) marches 62 Marmarica, a foot division (road 1/2 MP a hex, MA 14), west
    from C2330 along the Via Balbia; `enemy_at`: an Allied unit set up there first."""
    if enemy_at:
        w.move("11-huss", enemy_at)  # before the turn tracker moves: a set-up adjustment
    w.phase(4, "VI")
    if declare:
        w.declare("62-mmrirca", "Road march")
    w.move("62-mmrirca", to)
    w.phase(4, "VII")


def test_13_2_3_a_declared_road_march_adds_7_mp_along_the_road(play):
    assert play(lambda w: _march(w, "C1907")) == []  # 31 road hexes, 15 1/2 MP <= 14 + 7


def test_13_2_3_without_the_declaration_the_same_march_is_beyond_the_ma(play):
    found = play(lambda w: _march(w, "C1907", declare=False))
    assert rules(found) == ["13.2.4"]  # only a forced march, which disrupts, would allow it


def test_13_2_3_c_a_road_march_that_leaves_the_road_adds_nothing(play):
    found = play(lambda w: _march(w, "C1808"))  # the last hex off the road, in the desert
    assert rules(found) == ["13.2.3"] and "13.2.3 c-d" in found[0].message and found[0].to_hex == "C1808"


def test_13_2_3_d_a_road_march_may_not_pass_next_to_an_enemy_unit(play):
    found = play(lambda w: _march(w, "C1907", enemy_at="C2716"))  # C2716 is next to the road at C2616
    assert rules(found) == ["13.2.3"] and found[0].to_hex == "C1907"


def test_13_2_3_b_a_unit_out_of_supply_does_not_road_march(play):
    def script(w):
        w.place("ogs", "C2330", side="Axis")  # set-up adjustments: 62 Marmarica and 63 Cirene OGS
        w.place("ogs", "C2330", side="Axis")
        _march(w, "C2130")  # 3 road hexes, 1 1/2 MP: within even the OGS half MA (7)
    assert play(script) == []
    found = play(lambda w: (w.place("ogs", "C2330", side="Axis"), w.place("ogs", "C2330", side="Axis"),
                            _march(w, "C1907")))  # 15 1/2 MP: past 7, and no +7 for a unit out of supply
    assert rules(found) == ["13.2.2"] and "out of general supply" in found[0].message


def test_13_2_3_e_a_road_march_enters_no_hex_where_it_would_be_out_of_supply(play):
    def script(w):
        w.place("ogs", "C2616", side="Axis")  # set-up adjustment: an OGS marker on the road
        _march(w, "C1907")
    found = play(script)
    assert rules(found) == ["13.2.3"] and "OGS marker (e)" in found[0].message and found[0].to_hex == "C1907"


def test_13_2_3_d_a_unit_next_to_an_enemy_may_not_road_march(play):
    found = play(lambda w: _march(w, "C1907", enemy_at="C2230"))  # next to C2330, where the march begins
    assert rules(found) == ["13.2.3"] and "began its move in C2330" in found[0].message


def test_13_7_a_foot_unit_moving_with_an_msu_may_be_truck_lifted(play):
    """13.7 truck lift: 62 Marmarica (foot, MA 14) goes 31 road hexes (15 1/2 MP) where the Axis MSU
    went first: carried, not costed (without the MSU: test_13_2_3_without_the_declaration...)."""
    def script(w):
        w.move("axis-msu-1", "C2330")  # set-up adjustment: the MSU with 62 Marmarica
        w.phase(4, "VI")
        w.move("axis-msu-1", "C1907")
        w.move("62-mmrirca", "C1907")
        w.phase(4, "VII")
    assert play(script) == []


def _rail(w, *moves: tuple[str, str], setup: tuple[str, str] | None = None) -> None:
    """In the Allied Movement Phase (IX: the Axis is 1st player), units move to their hexes."""
    if setup:
        w.move(*setup)  # before the turn tracker moves: a set-up adjustment
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.phase(4, "IX")
    for unit, to in moves:
        w.move(unit, to)
    w.phase(4, "X")


def test_13_7_a_rail_lift_costs_3_mp_whatever_the_distance(play):
    # 7 RTR (MA 14, mechanized: 1 MP a road hex) to Alexandria: 18 hexes of road, or a hex to the
    # railhead at Mersa Matruh (W2118) and the Egyptian railroad for 3 MP
    assert play(lambda w: _rail(w, ("7-rtr", "W2232"))) == []


def test_13_7_a_rail_hexside_is_not_free_movement(play):
    found = play(lambda w: _rail(w, ("7-rtr", "W2232"), ("4-lt-arm", "W2232"), setup=("4-lt-arm", "W2008")))
    assert rules(found) == ["13.7"] and found[0].piece.startswith("4 Lt Arm") and "rode it already" in found[0].message
    assert "7 RTR" in found[0].message.partition(":")[2]


def test_13_7_the_egyptian_railroad_runs_no_farther_than_the_railhead(play):
    # the railhead set up at W1929, 11 road hexes east of Mersa Matruh: 7 RTR reaches it with 2 MP
    # left, too few for the 3 MP of the lift (the whole line would have taken it to Alexandria)
    found = play(lambda w: _rail(w, ("7-rtr", "W2232"), setup=("railhead", "W1929")))
    assert rules(found) == ["13.2.4"]  # beyond the MA: only a forced march would allow it


# ---- 13.3: a motorized unit leaving a road loses the fraction of an MP it has left ----------------
def _react_in_algeria(w, to: str) -> None:
    """7 SG (MA 22, motorized: RMA 6, a road hex 1/4 MP) set up at A5719 with Ragg X two hexes off
    (A5518, so that it may react, 13.5) reacts in VII: A5720 by road (1/4), A5821 off it (clear, 1),
    two road hexes to A5922, then rough (4) to A6022."""
    w.move("7-sg", "A5719")  # set-up adjustments, before the tracker moves
    w.move("ragg-x", "A5518")
    w.phase(4, "VI")
    w.phase(4, "VII")
    w.move("7-sg", to)
    w.declare("7-sg", "Morale check")  # 13.5 c: a reacting unit checks its morale
    w.roll("Allied morale 1d6", [1], "Allied")
    w.phase(4, "VIII")


def test_13_3_a_motorized_unit_leaving_the_road_within_its_allowance_is_legal(play):
    assert play(lambda w: _react_in_algeria(w, "A5922")) == []  # 2 1/2 MP with the fraction lost (1 3/4 without)


def test_13_3_the_fraction_lost_leaving_the_road_counts_against_the_allowance(play):
    found = play(lambda w: _react_in_algeria(w, "A6022"))  # 5 3/4 MP without the loss: 1/4 rounds up to 1 at A5821
    assert rules(found) == ["13.2.1"] and "spends 7 MP" in found[0].message and found[0].piece.startswith("7 SG")


def _moves_marked(w, marker: str | None, to: str, *, extra: str | None = None) -> None:
    """7 RTR (MA 14, mechanized) set up alone in W2016 with `marker` (and `extra`, a unit joining it)
    moves west over the desert in IX."""
    w.move("7-rtr", "W2016")
    if extra:
        w.move(extra, "W2016")
    if marker:
        w.place(marker, "W2016", side="Allied")
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.phase(4, "IX")
    w.move("7-rtr", to)
    w.phase(4, "X")


def test_13_2_2_a_disrupted_unit_moves_half_its_ma(play):
    assert play(lambda w: _moves_marked(w, "disrupted", "W2012")) == []  # 4 desert hexes: 4 MP <= 7
    found = play(lambda w: _moves_marked(w, "disrupted", "W2008"))  # 8 desert hexes: 8 MP > 7
    assert rules(found) == ["13.2.2"] and "disrupted" in found[0].message and found[0].to_hex == "W2008"
    assert play(lambda w: _moves_marked(w, None, "W2008")) == []  # undisrupted, the same move is legal


def test_13_2_2_an_out_of_supply_motorized_unit_moves_its_rma(play):
    found = play(lambda w: _moves_marked(w, "ogs", "W2011"))  # 5 hexes > its RMA of 4 (14 / 4 rounded up)
    assert rules(found) == ["13.2.2"] and "out of general supply" in found[0].message


def test_13_5_only_a_unit_near_the_enemy_or_in_reserve_reacts(play):
    def script(w, reserve: bool):
        if reserve:
            w.place("reserve", "W2118", side="Allied")
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("22-bde", "W2017")  # no enemy unit within two hexes of Matruh
        w.phase(4, "VIII")
    found = play(lambda w: script(w, False))
    assert rules(found) == ["13.5"] and "two hexes" in found[0].message
    assert play(lambda w: script(w, True)) == []


def test_13_5_a_reacting_unit_enters_an_ezoc_only_of_an_enemy_already_engaged(play):
    """13.5 a: 7 RTR reacts next to Babini, whom no Allied unit stood next to; with 11 Huss beside
    Babini the same reaction is legal."""
    def script(w, engaged: bool):
        w.move("babini", "W2014")
        w.move("7-rtr", "W2016")
        if engaged:
            w.move("11-huss", "W2013")
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("7-rtr", "W2015")
        w.declare("7-rtr", "Morale check")  # 13.5 c: a reacting unit checks its morale
        w.roll("Allied morale 1d6", [1], "Allied")
        w.phase(4, "VIII")
    found = play(lambda w: script(w, False))
    assert rules(found) == ["13.5"] and "W2014" in found[0].message
    assert play(lambda w: script(w, True)) == []


def test_13_5_a_disrupted_unit_may_not_react(play):
    def script(w):
        w.move("7-rtr", "W2016")
        w.place("disrupted", "W2016", side="Allied")
        w.phase(4, "VI")
        w.phase(4, "VII")
        w.move("7-rtr", "W2015")
        w.phase(4, "VIII")
    found = play(script)
    assert rules(found) == ["13.5"] and "may not react" in found[0].message


def test_13_2_2_a_marker_on_a_stack_of_two_units_is_not_taken_to_be_this_units(play):
    assert play(lambda w: _moves_marked(w, "disrupted", "W2008", extra="5-ind-bg")) == []


def _recovers(w, phase: str, *, at: str = "W2016", enemy_at: str | None = None, ogs: bool = False) -> None:
    """7 RTR set up disrupted alone in `at`; its Disrupted marker is taken off in GT 4's `phase`
    (IX is the Allied Movement Phase: the Axis is 1st player)."""
    w.move("7-rtr", at)
    if enemy_at:
        w.move("babini", enemy_at)  # a tank brigade: its ZoC binds every mover
    w.place("disrupted", at, side="Allied")
    if ogs:
        w.place("ogs", at, side="Allied")
    for roman in ("VI", "VII", "VIII", "IX", "X", "XI"):
        w.phase(4, roman)
        if roman == "VI":
            w.move("maletti", "C2130")  # the Axis moves first: the 1st player
        if roman == phase:
            w.remove(f"disrupted@{at}")
    w.phase(4, "XII")


def test_8_2_a_unit_recovers_at_the_end_of_its_movement_phase(play):
    assert play(lambda w: _recovers(w, "IX")) == []
    assert play(lambda w: _recovers(w, "X")) == []  # the tracker moved on first


def test_8_2_a_unit_does_not_recover_in_another_phase(play):
    found = play(lambda w: _recovers(w, "VII"))
    assert rules(found) == ["8.2"] and "VII" in found[0].message and found[0].piece.startswith("7 RTR")


def test_8_2_a_unit_in_an_enemy_zoc_does_not_recover(play):
    found = play(lambda w: _recovers(w, "IX", enemy_at="W2015"))
    assert rules(found) == ["8.2"] and "zone of control" in found[0].message


def test_8_2_an_out_of_supply_unit_does_not_recover(play):
    found = play(lambda w: _recovers(w, "IX", ogs=True))
    assert rules(found) == ["8.2"] and "out of general supply" in found[0].message


def test_15_6_a_unit_with_its_hq_pays_no_mp_to_enter_an_ezoc_but_stops(play):
    """15.6: "Do not pay the MP cost to enter EZOC" - the stop of 11.4 still holds."""
    def script(w):
        w.move("babini", "C2030")
        w.move("7-rtr", "C2129")
        w.move("wdf-bde", "C2129")  # the HQ
        w.phase(4, "VI")
        w.move("7-rtr", "C2130", stack=True)  # dragged with its HQ: EZOC to EZOC
        w.phase(4, "VII")
    assert set(rules(play(script))) == {"11.4"}


def _axis_reacts(w, to: str) -> None:
    """The Axis is 1st player (its move in VI); in X, its Reaction Phase, 62 Marmarica reacts to `to`
    (11 Huss set up within two hexes of it, so that it may react, 13.5)."""
    w.move("11-huss", "C2328")
    w.phase(4, "VI")
    w.move("babini", "W2006")
    w.phase(4, "VII")
    w.phase(4, "VIII")
    w.phase(4, "IX")
    w.phase(4, "X")
    w.move("62-mmrirca", to)
    w.declare("62-mmrirca", "Morale check")  # 13.5 c: a reacting unit checks its morale
    w.roll("Axis morale 1d6", [1], "Axis")
    w.phase(4, "XI")


def test_13_2_1_an_italian_infantry_division_reacts_one_hex(play):
    assert play(lambda w: _axis_reacts(w, "C2230")) == []  # one desert hex


def test_13_2_1_an_italian_infantry_division_is_a_foot_unit_and_reacts_no_further(play):
    # 2 MP of desert, within the RMA of 4 a trucked unit would have: 13.7 and 15.10 make it foot.
    found = play(lambda w: _axis_reacts(w, "C2129"))
    assert rules(found) == ["13.2.1"], found


# ---- 13.1, 11.4, 11.5: enemy units and zones of control ---------------------------------------------
def test_13_1_no_entering_an_enemy_hex_without_an_overrun(play):
    def script(w):
        w.move("4-lt-arm", "C2131")  # set-up adjustment next to Babini
        w.phase(4, "VI")
        w.move("4-lt-arm", "C2231")
    assert rules(play(script)) == ["13.1"]


def test_11_4_leaving_an_enemy_zoc_for_a_free_hex_is_legal(play):
    def script(w):
        w.move("4-lt-arm", "C2130")  # in Babini's ZoC (C2231)
        w.phase(4, "VI")
        w.move("4-lt-arm", "C2030")
        w.phase(4, "VII")
    assert play(script) == []


def zoc_to_zoc(w):
    """7 RTR (MA 14) in Babini's ZoC moves straight into another hex of it (the way round costs 21 MP)."""
    w.move("babini", "C2030")
    w.move("7-rtr", "C2129")
    w.phase(4, "VI")
    w.move("7-rtr", "C2130")


def test_11_5_zoc_to_zoc_only_by_night_movement_which_disrupts(play):
    def script(w):
        zoc_to_zoc(w)
        w.phase(4, "VII")
    assert rules(play(script)) == ["11.4"]  # no Disrupted marker came: no night movement (11.5)


def test_11_5_zoc_to_zoc_with_the_disruption_is_legal(play):
    def script(w):
        zoc_to_zoc(w)
        w.place("disrupted", "C2130", side="Allied")
        w.phase(4, "VII")
    assert play(script) == []


# ---- 10.2, 10.3: stacking (reconstructed stacking points) --------------------------------------------
def test_10_3_an_overstacked_hex_without_disruption_is_reported(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2229")  # 4 divisions of 3 points = 12 > 6
        w.move("63-cirene", "C2229")
        w.phase(4, "VII")
        w.phase(4, "VIII")
    found = play(script)
    assert rules(found) == ["10.3"] and found[0].to_hex == "C2229"


def test_10_3_an_overstacked_hex_disrupted_is_legal(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2229")
        w.move("63-cirene", "C2229")
        w.phase(4, "VII")
        w.place("disrupted", "C2229")
        w.phase(4, "VIII")
    assert play(script) == []


def test_10_2_a_city_hex_holds_nine_points(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.move("63-cirene", "C2331")  # Tobruk: 1 + 3 + 3 = 7 <= 9
        w.phase(4, "VII")
        w.phase(4, "VIII")
    assert play(script) == []


# ---- 14: combat -----------------------------------------------------------------------------------
def axis_attack(w, dice):
    w.move("22-bde", "C2129")  # set-up adjustment: an Allied brigade before 1 CCNN and 2 Libyan
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.combat(["1-ccnn", "2-libyan"], ["22-bde"], dice, side="Axis")


def test_14_6_the_defender_loses_what_the_table_gives(play):
    def script(w):
        axis_attack(w, [6, 6])  # 11-12: D1 at the least
        w.flip("22-bde")
        w.place("disrupted", "C2129", side="Allied")  # 14.7.1, Example of Play: held on a W, disrupted
        w.phase(4, "IX")
    assert play(script) == []


def test_14_6_the_owner_takes_the_loss_on_any_unit_of_the_defending_stack(play):
    """14.2: stacked defenders are attacked together, named as targets or not; 14.6: the owner
    chooses which of them loses the step."""
    def script(w):
        w.move("4-lt-arm", "C2129")  # with 22 Gds Bde, which alone is named the target
        axis_attack(w, [6, 6])
        w.flip("4-lt-arm")
        w.phase(4, "IX")
    assert play(script) == []


def test_14_6_a_defender_that_loses_nothing_is_reported(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.place("disrupted", "C2129", side="Allied")  # 14.7.1, Example of Play: held on a W, disrupted
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.6"] and "reconstructed" in found[0].message and "defender" in found[0].message


def test_14_6_an_attacker_losing_steps_no_result_gives_is_reported_at_the_loss(play):
    """Found when the combat closes (a flip put right before then is no finding), reported at the
    flip that took the loss past what the table gives."""
    at = []

    def script(w):
        axis_attack(w, [6, 6])  # no attacker loss on the 11-12 row
        w.flip("22-bde")
        w.place("disrupted", "C2129", side="Allied")  # 14.7.1, Example of Play: held on a W, disrupted
        w.flip("1-ccnn")
        at.append(len(w.steps))
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.6"] and "attacker" in found[0].message and found[0].step == at[0]


def test_14_6_a_wrong_flip_put_right_before_the_combat_closes_is_no_finding(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.place("disrupted", "C2129", side="Allied")  # 14.7.1, Example of Play: held on a W, disrupted
        w.flip("1-ccnn")  # the wrong counter...
        w.flip("1-ccnn")  # ...flipped back
        w.phase(4, "IX")
    assert play(script) == []


def test_14_7_a_retreat_after_a_withdraw_result_is_legal(play):
    def script(w):
        axis_attack(w, [6, 6])  # D1W or more
        w.flip("22-bde")
        w.move("22-bde", "C2029")
        w.phase(4, "IX")
    assert play(script) == []


def test_14_7_2_a_retreat_may_end_in_an_enemy_zoc(play):
    """11.4: "A unit may retreat into but not through an EZOC"."""
    def script(w):
        w.move("babini", "C1928")  # set-up: an Axis tank brigade next to C2029
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.move("22-bde", "C2029")
        w.phase(4, "IX")
    assert play(script) == []


def test_14_7_2_a_retreat_through_an_enemy_zoc_is_reported(play):
    def script(w):
        w.move("babini", "C1929")  # set-up: its ZoC stands across every 3-hex way from C2129 to C1828
        axis_attack(w, [3, 3])  # row 5-6: withdrawals at most, 3 hexes
        w.flip("22-bde")
        w.move("22-bde", "C1828")
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.7.2"] and found[0].piece.startswith("22")


def test_14_7_1_a_withdrawal_is_at_most_three_hexes(play):
    def script(w):
        axis_attack(w, [3, 3])  # row 5-6: no rout on any column
        w.flip("22-bde")
        w.move("22-bde", "C2125")  # 4 hexes
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.7.1"] and "at most 3" in found[0].message


def test_14_8_an_attacker_advances_into_the_vacated_hex(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.move("22-bde", "C2029")
        w.move("1-ccnn", "C2129")
        w.phase(4, "IX")
    assert play(script) == []


def test_14_8_an_attacker_may_not_advance_while_the_defender_holds_the_hex(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.place("disrupted", "C2129", side="Allied")  # 14.7.1, Example of Play: held on a W, disrupted
        w.move("1-ccnn", "C2129")
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.8"] and "still hold" in found[0].message


def test_14_8_only_attackers_advance(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.move("22-bde", "C2029")
        w.move("62-mmrirca", "C2129")  # it did not attack
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.8"] and found[0].piece.startswith("62")


def _msu_advance(w, *, escort: bool) -> None:
    """The Axis MSU stands with 1 CCNN and 2 Libyan (C2229); 22 Gds Bde takes its D1 and withdraws
    from C2129; the MSU advances, with 1 CCNN or alone."""
    w.move("axis-msu-1", "C2229")  # set-up adjustment
    axis_attack(w, [6, 6])
    w.flip("22-bde")
    w.move("22-bde", "C2029")
    if escort:
        w.move("1-ccnn", "C2129")
    w.move("axis-msu-1", "C2129")
    w.phase(4, "IX")


def test_14_8_an_msu_advances_with_an_attacking_unit(play):
    assert play(lambda w: _msu_advance(w, escort=True)) == []


def test_14_8_an_msu_does_not_advance_alone(play):
    found = play(lambda w: _msu_advance(w, escort=False))
    assert rules(found) == ["14.8"] and found[0].piece.startswith("Axis MSU") and "accompanied" in found[0].message


def test_14_8_the_advance_comes_before_the_next_combat(play):
    def script(w):
        w.move("11-huss", "C2130")  # set-up adjustment: next to Maletti's C2230
        w.move("22-bde", "C2129")
        w.phase(4, "VI")
        w.phase(4, "VIII")
        for unit, order in (("1-ccnn", "attacker"), ("2-libyan", "attacker"), ("22-bde", "target"),
                            ("maletti", "attacker"), ("11-huss", "target")):  # 14.0: both declared first
            w.declare(unit, f"Declare {order}")
        w.roll("Axis combat 2d6", [6, 6], "Axis")
        w.flip("22-bde")
        w.move("22-bde", "C2029")
        w.roll("Axis combat 2d6", [6, 6], "Axis")  # the next combat
        w.move("11-huss", w.game.zone_name("allied-boxes", "Allied Refit"))  # both its steps (D2 at the least)
        w.move("1-ccnn", "C2129")  # the first combat's advance, too late
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.8"] and "before the next combat" in found[0].message and found[0].piece.startswith("1 CCNN")


def _capture(w, die: int) -> None:
    """22 Gds Bde (two steps) is destroyed (to the Destroyed Box) by 1 CCNN and 2 Libyan; 1 CCNN
    advances into C2129, the Axis rolls 1d6 and places a Captured Supply marker there."""
    axis_attack(w, [6, 6])  # 11-12: D1 to D3
    w.move("22-bde", w.game.zone_name("allied-boxes", "Allied Destroyed"))
    w.move("1-ccnn", "C2129")
    w.roll("Axis 1d6", [die], "Axis")
    w.place("captured-supply", "C2129", side="Axis")
    w.phase(4, "IX")


def test_14_8_supply_is_captured_on_a_roll_no_higher_than_the_steps_destroyed(play):
    assert play(lambda w: _capture(w, 2)) == []


def test_14_8_no_supply_is_captured_on_a_higher_roll(play):
    found = play(lambda w: _capture(w, 3))
    assert rules(found) == ["14.8"] and "Captured Supply" in found[0].message and found[0].to_hex == "C2129"


def test_15_2_a_defending_anti_tank_unit_may_cut_the_attack_unless_disrupted(play):
    """15.2 (AT ratings not in units.yaml): a defending support unit may take 2 from the attack; the
    window's weakest attack shows it, and a disrupted one (8.2 d: no special function) takes nothing."""
    def script(w, disrupted: bool):
        w.move("7-sg", "C2129")  # set-up adjustment: 7 SG (support) with 22 Gds Bde
        if disrupted:
            w.place("disrupted", "C2129", side="Allied")
            w.place("disrupted", "C2129", side="Allied")
        axis_attack(w, [6, 6])
        w.phase(4, "IX")  # the defenders take no loss: 14.6 gives the odds in its message
    cut = [f for f in play(lambda w: script(w, False)) if f.rule == "14.6"]
    whole = [f for f in play(lambda w: script(w, True)) if f.rule == "14.6"]
    assert len(cut) == len(whole) == 1
    assert "attack 13 (at least 4.5)" in cut[0].message and "attack 13 (at least 6.5)" in whole[0].message


def test_15_9_infantry_fights_whole_outside_the_desert(play):
    """15.9: infantry is halved in a desert hex unless a non-infantry, non-light unit stands with it:
    the window's weakest attack is the whole CF once a tank brigade stacks with the attackers."""
    def script(w, tank: bool):
        if tank:
            w.move("babini", "C2229")
        axis_attack(w, [6, 6])
        w.phase(4, "IX")  # the defender takes no loss: 14.6 gives the odds in its message
    alone = [f for f in play(lambda w: script(w, False)) if f.rule == "14.6"]
    with_tank = [f for f in play(lambda w: script(w, True)) if f.rule == "14.6"]  # (and 10.3: C2229 overstacked)
    assert len(alone) == len(with_tank) == 1
    assert "attack 13 (at least 6.5)" in alone[0].message and "attack 13 (at least 13)" in with_tank[0].message


def test_14_7_a_retreat_no_result_gives_is_reported(play):
    def script(w):
        axis_attack(w, [1, 1])  # 2-4: no W or R on any column
        w.move("22-bde", "C2029")
        w.phase(4, "IX")
    assert "14.7" in rules(play(script))


def test_14_2_every_attacker_is_adjacent_to_every_defender(play):
    def script(w):
        w.move("22-bde", "C2129")
        w.phase(4, "VI")
        w.phase(4, "VIII")
        w.combat(["1-ccnn", "62-mmrirca"], ["22-bde"], [6, 6], side="Axis")  # 62 Mmrirca in C2330
        w.flip("22-bde")
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.2"] and found[0].piece.startswith("62")


def test_4_1_an_attack_is_declared_in_the_attackers_combat_phase(play):
    def script(w):
        w.move("22-bde", "C2129")
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.declare("1-ccnn", "Declare attacker")
        w.declare("22-bde", "Declare target")
    assert rules(play(script)) == ["4.1"]


def test_4_1_units_move_in_combat_only_to_retreat_or_advance(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(4, "VIII")
        w.move("62-mmrirca", "C2331")
    assert rules(play(script)) == ["4.1"]


# ---- 7.0-7.4: reinforcements and withdrawals ------------------------------------------------------------
def test_7_0_a_reinforcement_arrives_on_its_gt_at_its_hex(play):
    def script(w):
        w.phase(6, "III")
        w.move("61-sirte", "C0701")
    assert play(script) == []


def test_7_1_a_reinforcement_arriving_early_is_reported(play):
    def script(w):
        w.phase(5, "III")
        w.move("61-sirte", "C0701")
    assert rules(play(script)) == ["7.1"]


def test_7_0_a_reinforcement_arrives_where_the_card_says(play):
    def script(w):
        w.phase(6, "III")
        w.move("61-sirte", "C2329")
    assert rules(play(script)) == ["7.0"]


def test_7_0_reinforcements_arrive_in_the_reinforcement_phase(play):
    def script(w):
        w.phase(6, "VI")
        w.move("61-sirte", "C0701")
    assert rules(play(script)) == ["7.0"]


def test_7_4_units_not_withdrawn_by_the_end_of_their_gt(play):
    def script(w):
        w.phase(8, "XVII")
        w.phase(8, "XX")
    found = play(script, events=True)
    assert sorted(f.piece for f in found) == sorted(["5 Ind BG (IND)", "7 Ind BG (IND)", "11 Ind BG (IND)", "CIH (IND)"])
    assert {f.rule for f in found} == {"7.4"} and {f.kind for f in found} == {"event"}


def test_7_4_withdrawn_units_are_not_reported(play, game):
    nrv = game.zone_name("offmap", "NRV")

    def script(w):
        w.phase(8, "IX")
        for u in ("5-ind-bg", "7-ind-bg", "11-ind-bg", "cih"):
            w.move(u, nrv)
        w.phase(8, "XX")
    assert play(script, events=True) == []


# ---- 3.1: the set-up ------------------------------------------------------------------------------------
def test_3_1_the_card_set_up_is_legal(play):
    def script(w):
        w.move("wdf-bde", "W2116")  # within 3 hexes of W2118 (24.2)
        w.phase(4, "VI")
    assert play(script, setup_check=True) == []


def test_3_1_a_unit_off_its_card_hex_is_reported(play):
    def script(w):
        w.move("22-bde", "W2116")  # the card puts 22 Gds Bde on W2118
        w.phase(4, "VI")
    found = play(script, setup_check=True)
    assert rules(found) == ["3.1"] and found[0].piece.startswith("22")


def test_3_1_a_unit_out_of_its_box_is_reported(play):
    def script(w):
        w.move("4-nz-bg", "W2216")  # the card puts 4 NZ BG in the NRV
        w.phase(4, "VI")
    assert rules(play(script, setup_check=True)) == ["3.1"]


# ---- 2.2, 13.4, 14.3, 14.7.1: the sea, overruns, CF 0 attacks, retreat length --------------------------
def test_2_2_no_move_onto_a_sea_hex(play):
    def script(w):
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2430")
    found = play(script)
    assert rules(found) == ["13.1"] and "C2430" in found[0].message


def test_13_4_an_overrun_of_an_open_desert_hex_is_legal(play):
    def script(w):
        w.move("4-lt-arm", "C2131")  # next to Babini (C2231) and Maletti (C2230)
        w.phase(4, "VI")
        w.declare("4-lt-arm", "Declare overrun")
    assert play(script) == []


def test_13_4_1_a_disrupted_unit_may_not_overrun(play):
    def script(w):
        w.move("4-lt-arm", "C2131")
        w.phase(4, "VI")
        w.place("disrupted", "C2131", side="Allied")
        w.declare("4-lt-arm", "Declare overrun")
    assert rules(play(script)) == ["13.4.1"]


def test_13_4_2_a_city_cannot_be_overrun(play):
    def script(w):
        w.move("4-lt-arm", "C2332")  # next to Tobruk (city) alone
        w.phase(4, "VI")
        w.declare("4-lt-arm", "Declare overrun")
    assert rules(play(script)) == ["13.4.2"]


def _babini_overruns(w, *, support: bool) -> None:
    """Babini (C2231, Axis tanks) declares an overrun of 4 Lt Arm set up alone next to it in C2131;
    `support`: 7 RTR (tanks) set up next to 4 Lt Arm, in C2132 (not next to Babini)."""
    w.move("4-lt-arm", "C2131")  # set-up adjustments
    if support:
        w.move("7-rtr", "C2132")
    w.phase(4, "VI")
    w.declare("babini", "Declare overrun")


def test_13_4_2_a_unit_alone_may_be_overrun(play):
    assert play(lambda w: _babini_overruns(w, support=False)) == []


def test_13_4_2_a_unit_in_a_friendly_zoc_cannot_be_overrun(play):
    found = play(lambda w: _babini_overruns(w, support=True))
    assert rules(found) == ["13.4.2"] and "ZoC of a unit friendly" in found[0].message


def test_14_3_an_attack_of_cf_0_is_reported(play):
    def script(w):
        w.move("22-bde", "W0304")  # next to the Giarabub garrison (CF 0) in W0303
        w.phase(4, "VI")
        w.phase(4, "VIII")
        w.combat(["giarabub-w0303"], ["22-bde"], [6, 6], side="Axis")
        w.phase(4, "IX")
    assert rules(play(script)) == ["14.3"]


def test_14_7_1_a_retreat_longer_than_six_hexes_is_reported(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.move("22-bde", "C2122")  # 7 hexes from C2129
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.7.1"]


def test_14_7_1_a_retreat_of_six_hexes_is_legal(play):
    def script(w):
        axis_attack(w, [6, 6])
        w.flip("22-bde")
        w.move("22-bde", "C2123")  # 6 hexes
        w.phase(4, "IX")
    assert play(script) == []


def test_10_3_a_hex_the_card_overstacks_is_the_card_s_not_the_players(play):
    """26.0 puts the Italian divisions and the depot at C0701 and the DAK at C0702, over 6 points:
    no finding while those hexes hold only what the card put there; a unit moved in is judged."""
    def script(extra: bool):
        def s(w):
            w.phase(10, "XII")
            if extra:
                w.move("5-pz", "C0701")  # from C0702, next door
            w.phase(10, "XIII")
            w.phase(10, "XIV")
        return s
    assert [f for f in play(script(False), setup="sonnenblume.vsav") if f.rule == "10.3"] == []
    found = [f for f in play(script(True), setup="sonnenblume.vsav") if f.rule == "10.3"]
    assert [(f.rule, f.to_hex) for f in found] == [("10.3", "C0701")]


def test_an_illegal_move_undone_is_never_made(play):
    """Real play: a drag taken back with Undo (the engine's UNDO step) counts as never made."""
    def script(undo: bool):
        def s(w):
            w.phase(4, "VI")
            w.move("62-mmrirca", "C2331")
            w.move("22-bde", "W2017")  # the second player in the first player's Movement Phase (4.1)
            if undo:
                w.undo()
        return s
    assert rules(play(script(False))) == ["4.1"]
    assert play(script(True)) == []


# ---- 18.1: fortifications ----------------------------------------------------------------------------
def _fort(w, level: int, *, phase: str = "VI", under_construction: bool = True) -> None:
    """The Axis begins a fort in C2229 (desert), with 1 CCNN and 2 Libyan, in GT 4."""
    w.phase(4, "VI")
    w.move("62-mmrirca", "C2331")  # the Axis moves first: the 1st player
    if phase != "VI":
        w.phase(4, phase)
    w.place(f"fort-{level}", "C2229", side="Axis")
    if under_construction:
        w.place("construction-fort", "C2229", side="Axis")
    w.phase(4, "X")


def test_18_1_a_fort_is_begun_in_a_movement_phase_with_its_builder(play):
    assert play(lambda w: _fort(w, 1)) == []


def test_18_1_an_f2_fort_needs_an_f1_fort(play):
    found = play(lambda w: _fort(w, 2))
    assert rules(found) == ["18.1"] and "F1 fort" in found[0].message and found[0].to_hex == "C2229"


def test_18_1_a_fort_is_not_begun_in_a_combat_phase(play):
    found = play(lambda w: _fort(w, 1, phase="VIII"))
    assert rules(found) == ["18.1"] and "Movement Phase" in found[0].message


def test_18_1_an_f1_fort_is_under_construction(play):
    found = play(lambda w: _fort(w, 1, under_construction=False))
    assert rules(found) == ["18.1"] and "Under Construction" in found[0].message
