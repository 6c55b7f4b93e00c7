"""Per-rule scenarios for the Tobrouk 41-42 audit: real-format logs written over the built module
(Battleaxe set-up, the scenario of the example of play) and audited as a player's log would be.
Each rule has a legal and an illegal case.  Moves made before the turn tracker first moves are
set-up adjustments, not movement."""
from __future__ import annotations

import pytest

from tests.rules.tobrouk_play import audit, player, rules


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path)


def cw_maneuver(w, mp: int = 5, turn: int = 1) -> None:
    """Phase B with the Commonwealth active, choosing `mp` MP."""
    w.phase(turn, "B")
    w.move("mp-cw", f"MP {mp}")


def axis_maneuver(w, mp: int = 5, turn: int = 1) -> None:
    w.phase(turn, "B")
    w.move("mp-axis", f"MP {mp}")


def pair(w, cw: int, axis: int, turn: int = 1) -> None:
    """A whole pair of maneuvers, Commonwealth active, equalised in F."""
    cw_maneuver(w, cw, turn)
    w.phase(turn, "C")
    w.phase(turn, "D")
    w.move("mp-axis", f"MP {axis}")
    w.phase(turn, "E")
    w.phase(turn, "F")
    if cw > axis:
        w.move("mp-axis", f"MP {cw}")
    elif axis > cw:
        w.move("mp-cw", f"MP {axis}")


# ---- 2: sequence of play ----------------------------------------------------------------------
def test_2_a_turn_of_two_pairs_in_order_is_legal(play):
    def script(w):
        pair(w, 5, 5)
        pair(w, 7, 7)
        w.phase(2, "A")
        w.move("mp-cw", "MP 0")
        w.move("mp-axis", "MP 0")
        pair(w, 3, 3, turn=2)
    assert play(script) == []


def test_2_phases_go_back_only_from_f_to_b(play):
    def script(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.phase(1, "B")
    found = play(script)
    assert rules(found) == ["2"] and found[0].step == 4 and "went back from C" in found[0].message


def test_2_25_a_turn_ends_in_phase_f(play):
    def script(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.phase(2, "A")
    found = play(script)
    assert rules(found) == ["2.25"] and "ended in phase C" in found[0].message


def test_2_25_equalisation_moves_the_lower_marker_up(play):
    def script(w):
        pair(w, 5, 3)
    assert play(script) == []

    def unequal(w):
        cw_maneuver(w, 5)
        w.phase(1, "D")
        w.move("mp-axis", "MP 3")
        w.phase(1, "F")
        w.phase(1, "B")
    found = play(unequal)
    assert rules(found) == ["2.25"] and "5 (Commonwealth)" in found[0].message


def test_2_25_no_new_pair_after_a_marker_reached_10(play):
    def script(w):
        pair(w, 8, 8)
        cw_maneuver(w, 10)  # 2 more: reaches 10
        w.phase(1, "F")
        w.move("mp-axis", "MP 10")
        w.phase(1, "B")
    found = play(script)
    assert rules(found) == ["2.25"] and "reached 10" in found[0].message


def test_2_23_the_active_player_may_not_choose_an_int_row(play):
    assert play(lambda w: cw_maneuver(w, 8)) == []
    found = play(lambda w: cw_maneuver(w, 9))
    assert rules(found) == ["2.23"] and "'Int'" in found[0].message and "(reconstructed table)" in found[0].message


def test_2_24_the_reactive_player_uses_at_most_the_table_cell(play):
    def script(mp):
        def s(w):
            cw_maneuver(w, 5)
            w.phase(1, "C")
            w.phase(1, "D")
            w.move("mp-axis", f"MP {mp}")
        return s
    assert play(script(5)) == []
    found = play(script(6))
    assert rules(found) == ["2.24"] and "at most 5" in found[0].message


def test_2_22_mp_markers_do_not_go_back_nor_move_in_combat(play):
    def script(w):
        cw_maneuver(w, 5)
        w.phase(1, "C")
        w.move("mp-cw", "MP 6")
        w.move("mp-cw", "MP 4")
    found = play(script)
    assert rules(found) == ["2.22", "2.22"]
    assert "moved in the Combat" in found[0].message and "went back" in found[1].message


def test_2_1_initiative_rolls(play):
    def turn_2(w):
        pair(w, 5, 5)
        w.phase(2, "A")
        w.roll("Commonwealth initiative 1d6", [3], "Commonwealth")  # column 0: '-', roll again
        w.roll("Commonwealth initiative 1d6", [6], "Commonwealth")  # C
    assert play(turn_2) == []

    def again(w):
        turn_2(w)
        w.roll("Axis initiative 1d6", [1], "Axis")
    found = play(again)
    assert rules(found) == ["2.1"] and "already won (C)" in found[0].message

    def first_turn(w):
        w.roll("Axis initiative 1d6", [1], "Axis")
    found = play(first_turn)
    assert rules(found) == ["11.5"] and "Commonwealth player: no initiative roll" in found[0].message

    def in_b(w):
        pair(w, 5, 5)
        w.phase(2, "B")
        w.roll("Axis initiative 1d6", [1], "Axis")
    assert rules(play(in_b)) == ["2.1"]


def test_8_2_the_scenario_length_and_one_extra_turn(play):
    def script(last):
        def s(w):
            for t in range(1, last):
                pair(w, 5, 5, turn=t)
                w.phase(t + 1, "A")
                w.move("mp-cw", "MP 0")
                w.move("mp-axis", "MP 0")
        return s
    assert play(script(3)) == []  # Battleaxe: 2 turns and an extra one
    found = play(script(4))
    assert rules(found) == ["8.2"] and "Turn 4" in found[0].message


# ---- 2.22: who moves when -------------------------------------------------------------------------
def test_2_22_units_move_in_their_side_s_maneuver(play):
    def script(w):
        cw_maneuver(w)
        w.move("22-grd", "1129")
        w.move("62-trento", "1526")
    found = play(script)
    assert rules(found) == ["2.22"] and found[0].piece.startswith("62th") and found[0].to_hex == "1526"


def test_2_units_move_in_combat_only_to_retreat(play):
    def script(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.place("retreat", "1527")
        w.move("62-trento", "1426")
    assert play(script) == []

    def no_retreat(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.move("62-trento", "1426")
    found = play(no_retreat)
    assert rules(found) == ["2"] and "only to retreat" in found[0].message


# ---- 4.1, 4.2: movement costs -------------------------------------------------------------------
def test_4_1_the_example_moves_fit_the_maneuver_s_mp(play):
    def script(mp):
        def s(w):
            cw_maneuver(w, mp)
            w.move("11huss-7ar", "0824")
            w.move("22-grd", "1228")
            w.move("cg-xxx", "1125")
        return s
    assert play(script(5)) == []  # 10.B: all three with 5 MP
    found = play(script(3))
    assert rules(found) == ["4.1"] and found[0].piece == "XXX Corps CG"
    assert "cost 4 1/2 MP for a cg unit" in found[0].message and "(reconstructed table)" in found[0].message


def test_4_1_a_stack_dragged_whole_is_costed_unit_by_unit(play):
    def script(to):
        def s(w):
            cw_maneuver(w, 1)
            w.move("22-grd", to, stack=True)  # 11/4 Ind (foot), Recce/4 Ind, 22 Gds and their markers
        return s
    assert play(script("1129")) == []  # one road hex: foot 1 MP
    found = play(script("1128"))  # two road hexes: the foot brigade pays 2
    assert rules(found) == ["4.1"] and found[0].piece.startswith("11th Indian") and found[0].to_hex == "1128"


def test_4_1_several_drags_are_one_move(play):
    def script(w):
        cw_maneuver(w, 1)
        w.move("11-4ind", "1129")
        w.move("11-4ind", "1128")
        w.move("11-4ind", "1127")
    found = play(script)
    assert rules(found) == ["4.1"] and found[0].step == 4  # one finding, at the first drag too far


def test_4_2_no_path_into_the_sea(play):
    def script(w):
        axis_maneuver(w, 5)
        w.move("62-trento", "1528")
    found = play(script)
    assert rules(found) == ["4.2"] and "1527 to 1528 crosses a cliff or enters the sea" in found[0].message


def test_4_2_contact_only_from_within_the_hq_s_radius(play):
    def script(far):
        def s(w):
            if far:
                w.move("hq-xxx", "0101")
            cw_maneuver(w, 5)
            w.move("22-grd", "1228")
        return s
    assert play(script(False)) == []
    found = play(script(True))
    assert rules(found) == ["4.2"] and "command radius" in found[0].message


def test_7_1_no_move_into_an_enemy_hex(play):
    def script(w):
        cw_maneuver(w, 5)
        w.move("22-grd", "1227")
    found = play(script)
    assert rules(found) == ["7.1"] and "enemy combat units" in found[0].message


# ---- 7.1, 7.31: stacking ------------------------------------------------------------------------------
def test_7_1_two_tank_units_never_stack(play):
    def script(unit):
        def s(w):
            axis_maneuver(w, 5)
            w.declare(unit, "Release reserve")  # the 21 Pz elements are in reserve (11.5i)
            w.move(unit, "1615")
            w.phase(1, "C")
        return s
    assert play(script("3a-21pz")) == []  # a tank and a 2-step recon: armoured + other
    found = play(script("a-8-21pz-2"))
    # judged when phase B ends (5), reported at the move that overstacked the hex (4, issue 31)
    assert rules(found) == ["7.1"] and found[0].to_hex == "1615" and found[0].step == 4


def test_7_1_a_stack_dragged_whole_onto_another(play):
    def script(w):
        cw_maneuver(w, 5)
        w.move("11huss-7ar", "1030", stack=True)  # Hussars and XXX Corps HQ join 11/4 Ind, Recce, 22 Gds
        w.phase(1, "C")
    found = play(script)
    assert rules(found) == ["7.1"] and found[0].to_hex == "1030"


def test_7_31_a_combat_group_never_stacks(play):
    def script(to):
        def s(w):
            cw_maneuver(w, 5)
            w.move("cg-xxx", to)
            w.phase(1, "C")
        return s
    assert play(script("0827")) == []
    found = play(script("0726"))
    assert rules(found) == ["7.31"]


# ---- 5: fire -----------------------------------------------------------------------------------------
def at_capuzzo(w) -> None:
    """Set-up: 22 Gds next to Capuzzo (1227), as in the example (10.B)."""
    w.move("22-grd", "1228")


def test_5_1_the_result_of_the_universal_fire_table(play):
    def script(marker):
        def s(w):
            at_capuzzo(w)
            cw_maneuver(w)
            w.phase(1, "C")
            w.fire("22-grd", "33pzjag-15pz", 6, side="Commonwealth")  # AT 3, die 6 -1 entrenched -1 crest: T
            if marker:
                w.place(marker, "1227")
        return s
    assert play(script("t")) == []
    found = play(script("t1"))
    assert rules(found) == ["5.1"] and "gives T (column 3 (AT 3), die 6" in found[0].message
    assert "T1 placed (reconstructed table)" in found[0].message
    assert rules(play(script(None))) == ["5.1"]


def test_5_1_fire_at_an_adjacent_enemy_once_a_phase(play):
    def twice(w):
        at_capuzzo(w)
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("22-grd", "33pzjag-15pz", 1, side="Commonwealth")
        w.fire("22-grd", "15-15pz", 1, side="Commonwealth")
    found = play(twice)
    assert rules(found) == ["5.1"] and "already fired" in found[0].message

    def far(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("22-grd", "33pzjag-15pz", 1, side="Commonwealth")
    found = play(far)
    assert rules(found) == ["5.1"] and "adjacent" in found[0].message


def test_5_1_fire_only_in_combat_and_declared(play):
    def in_maneuver(w):
        at_capuzzo(w)
        cw_maneuver(w)
        w.fire("22-grd", "33pzjag-15pz", 1, side="Commonwealth")
    found = play(in_maneuver)
    assert rules(found) == ["5.1"] and "combat phase" in found[0].message

    def undeclared(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.roll("Commonwealth fire 1d6", [4], "Commonwealth")
        w.roll("Commonwealth fire 1d6", [4], "Commonwealth")
    found = play(undeclared)
    assert rules(found) == ["5.1"] and "no firer and target declared" in found[0].message


def test_5_10_entrenched_units_and_fire(play):
    def offensive(w):
        at_capuzzo(w)
        w.move("entrenched@1030", "1228")
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("22-grd", "33pzjag-15pz", 1, side="Commonwealth")
    found = play(offensive)
    assert rules(found) == ["5.10"] and "fires offensively only after" in found[0].message

    def defensive(fired):
        def s(w):
            at_capuzzo(w)
            w.move("entrenched@1030", "1228")
            cw_maneuver(w)
            w.phase(1, "C")
            w.fire("15-15pz", "22-grd", 1, side="Axis")
        return s
    found = play(defensive(False))
    assert rules(found) == ["5.10"] and "not having fired offensively" in found[0].message

    def legal(w):
        at_capuzzo(w)
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("15-15pz", "22-grd", 1, side="Axis")  # 22 Gds not entrenched: defensive fire allowed
    assert play(legal) == []


# ---- 6.2: morale -------------------------------------------------------------------------------------
def test_6_2_morale_checks(play):
    def script(dice, retreat):
        def s(w):
            cw_maneuver(w)
            w.phase(1, "C")
            t = w.place("t", "1527")
            w.roll("Axis morale 2d6", dice, "Axis")
            w.remove(t)
            if retreat:
                w.place("retreat", "1527")
        return s
    # 62/Trento, morale 7, entrenched (-1): 3+3-1 = 5 passes, 6+6-1 = 11 fails
    assert play(script([3, 3], False)) == []
    assert play(script([6, 6], True)) == []
    found = play(script([3, 3], True))
    assert rules(found) == ["6.2"] and "= 5 vs morale 7 passes" in found[0].message
    found = play(script([6, 6], False))
    assert rules(found) == ["6.2"] and "= 11 vs morale 7 fails" in found[0].message


def test_6_2_a_hit_marker_dragged_off_the_map_counts_as_removed(play):
    """The module's markers have no Delete command: a player drags the T to the Markers box, and
    the engine logs a move (tests/fixtures/engine/tobrouk-legal.vlog)."""
    def script(dice):
        def s(w):
            cw_maneuver(w)
            w.phase(1, "C")
            t = w.place("t", "1527")
            w.roll("Axis morale 2d6", dice, "Axis")
            w.move(t, "Markers")  # the Markers box
        return s
    assert play(script([3, 3])) == []
    found = play(script([6, 6]))  # a failed check taken as a pass
    assert rules(found) == ["6.2"] and "= 11 vs morale 7 fails" in found[0].message


# ---- 4.2c, 4.3, 5.4: markers a maneuver places -------------------------------------------------------
def test_4_2_rapid_movement_away_from_the_enemy_in_one_s_own_maneuver(play):
    def script(where):
        def s(w):
            cw_maneuver(w)
            w.place("rapid", where, side="Commonwealth")
        return s
    assert play(script("1030")) == []

    def next_to_enemy(w):
        w.move("22-grd", "1228")
        cw_maneuver(w)
        w.place("rapid", "1228", side="Commonwealth")
    found = play(next_to_enemy)
    assert rules(found) == ["4.2"] and "next to enemy units in 1227" in found[0].message

    def in_combat(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.place("rapid", "1030", side="Commonwealth")
    assert rules(play(in_combat)) == ["4.2"]


def test_4_3_entrenchment_out_of_enemy_range(play):
    def script(unit, to):
        def s(w):
            cw_maneuver(w)
            w.move(unit, to)
            w.place("entrenched", to, side="Commonwealth")
        return s
    assert play(script("11huss-7ar", "0825")) == []
    found = play(script("22-grd", "1228"))
    assert rules(found) == ["4.3"] and "in an enemy ZoC" in found[0].message


def test_5_4_artillery_support(play):
    def script(mp, target, phase="B"):
        def s(w):
            w.move("hq-xxx", "1129")
            w.move("22-grd", "1228")
            cw_maneuver(w, mp)
            if phase != "B":
                w.phase(1, phase)
            w.place("artillery-xxx", target, side="Commonwealth")
        return s
    assert play(script(4, "1227")) == []  # 1129 to 1227: 1 hex between
    found = play(script(3, "1227"))
    assert rules(found) == ["5.4"] and "at least 4" in found[0].message
    found = play(script(5, "1616"))
    assert rules(found) == ["5.4"] and "its HQ (XXX Corps) is not within 3 hexes" in found[0].message
    found = play(script(5, "1227", phase="C"))
    assert rules(found) == ["5.4"] and "only in the Commonwealth player's maneuver" in found[0].message


def test_5_4e_each_hq_its_own_markers_counted_from_its_own_hq(play):
    """5.4e, 11.4j: VIII Army has one marker in Crusader (the set-up's, in its hex); a second from
    the palette is reported at its drop, and a marker is in range only of its own HQ (5.4d)."""
    def script(marker, target):
        def s(w):
            w.move("hq-viii", "0728")  # before play: VIII Army next to XIII Corps, 0926 2 hexes between
            cw_maneuver(w, 5)
            if marker == "set-up":
                w.move("artillery-viii@0329", target)
            else:
                w.place(marker, target, side="Commonwealth")
        return s
    assert play(script("set-up", "0926"), setup="crusader.vsav") == []
    found = play(script("artillery-viii", "0926"), setup="crusader.vsav")
    assert rules(found) == ["5.4"] and found[0].step == 4 and "2nd artillery marker of VIII Army" in found[0].message
    assert play(script("artillery-xiii", "0926"), setup="crusader.vsav") == []  # XIII Corps (0729): 3 between
    found = play(script("artillery-xxx", "0926"), setup="crusader.vsav")  # XXX Corps (0529): 4 between
    assert rules(found) == ["5.4"] and found[0].step == 4 and "its HQ (XXX Corps) is not within 3" in found[0].message


def artillery_on_capuzzo(w) -> None:
    """XXX Corps HQ at 1129, 22 Gds at 1228, a 5-MP Commonwealth maneuver, and its artillery
    marker on 15/15Pz at Capuzzo (1227, one hex between: in range)."""
    w.move("hq-xxx", "1129")
    w.move("22-grd", "1228")
    cw_maneuver(w, 5)
    w.place("artillery-xxx", "1227", side="Commonwealth")


def test_5_4_an_artillery_marker_dragged_out_of_range_is_reported_at_the_drag(play):
    """Issue 31: 5.4d holds wherever the marker is dropped, hex to hex included."""
    def script(to):
        def s(w):
            artillery_on_capuzzo(w)
            w.move("artillery-xxx@1227", to)
        return s
    assert play(script("1228")) == []  # still in range
    found = play(script("1616"))
    assert rules(found) == ["5.4"] and "its HQ (XXX Corps) is not within 3 hexes" in found[0].message and found[0].step == 6


def test_5_4_an_artillery_marker_without_its_hq_in_range_at_the_shot_adds_no_column(play):
    """Q&A 9: the range is checked at the combat phase: the HQ left, the marker supports nothing."""
    def script(hq_stays):
        def s(w):
            artillery_on_capuzzo(w)
            if not hq_stays:
                w.move("hq-xxx", "1616")  # set far off: no HQ within 3 hexes of 1227 at the shot
            w.phase(1, "C")
            w.fire("22-grd", "15-15pz", 6, side="Commonwealth")  # no hit marker placed after it
        return s
    with_hq = [f for f in play(script(True)) if f.rule == "5.1"]
    without = [f for f in play(script(False)) if f.rule == "5.1"]
    assert with_hq and "artillery marker +1" in with_hq[0].message
    assert all("artillery" not in f.message for f in without)


def test_5_12_a_retreating_unit_fires_only_defensively(play):
    def script(w):
        w.move("22-grd", "1228")
        cw_maneuver(w)
        w.phase(1, "C")
        w.place("retreat", "1227")
        w.fire("15-15pz", "22-grd", 6, side="Axis")  # defensive: AP 5 -2 retreating = column 3, die 6 -1 crest: T
        w.place("t", "1228")
    assert play(script) == []

    def offensive(w):
        w.move("22-grd", "1228")
        w.remove("entrenched@1227")
        w.remove("entrenched@1227")
        axis_maneuver(w)
        w.place("retreat", "1227")
        w.phase(1, "C")
        w.fire("15-15pz", "22-grd", 6, side="Axis")
    found = play(offensive)
    assert rules(found) == ["5.12"] and "fires only defensively" in found[0].message


def test_4_1_rapid_movement_halves_the_costs(play):
    def script(rapid):
        def s(w):
            cw_maneuver(w, 1)
            if rapid:
                w.place("rapid", "0726", side="Commonwealth")
            w.move("11huss-7ar", "0426")  # recon: 3 x 1/2 MP, west, away from every enemy (4.2c')
        return s
    assert play(script(True)) == []
    found = play(script(False))
    assert rules(found) == ["4.1"] and "cost 3/2 MP" not in found[0].message and "1 1/2 MP" in found[0].message


def test_4_2c_a_unit_in_rapid_movement_never_ends_its_move_next_to_an_enemy(play):
    """Issue 31: 4.2c' ("may not begin, end or move next to an enemy unit") holds for the whole move
    of the units under the marker, not only where it is put down: placed at 0726, away from the
    enemy, the Hussars end next to 33/15Pz (Sidi Omar, 0923)."""
    def script(to):
        def s(w):
            cw_maneuver(w, 1)
            w.place("rapid", "0726", side="Commonwealth")
            w.move("11huss-7ar", to)
        return s
    assert play(script("0426")) == []
    found = play(script("0824"))
    assert rules(found) == ["4.2"] and "in rapid movement ends its move in 0824, next to enemy units in 0923" in \
        found[0].message and found[0].step == 4  # the move, after the phase, the MP marker and the marker


# ---- 6.3: retreats ---------------------------------------------------------------------------------------
def test_6_3_a_retreat_ends_out_of_fire_by_the_fewest_hexes(play):
    def script(*hexes):
        def s(w):
            at_capuzzo(w)
            cw_maneuver(w)
            w.phase(1, "C")
            w.place("retreat", "1228", side="Commonwealth")
            for h in hexes:
                w.move("22-grd", h, stack=True)  # the unit and its Retreat marker
            w.phase(1, "D")
        return s
    # 1128: next to 1028 only across the Halfaya cliff, so out of fire, one hex away
    assert play(script("1128")) == []
    found = play(script("1327"))  # still next to Capuzzo
    assert rules(found) == ["6.3"] and "still next to enemy units" in found[0].message
    found = play(script("1128", "1129"))  # two hexes where one suffices
    assert rules(found) == ["6.3"] and "1129 is 2 hexes away; the nearest hex out of enemy fire is 1 away" in found[0].message


# ---- 6.1: losses ----------------------------------------------------------------------------------------
def test_6_1_t1_and_t2_cost_their_steps(play):
    def legal(w):
        at_capuzzo(w)
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("15-15pz", "22-grd", 6, side="Axis")  # AP 5, die 6 -1 crest = 5: T1
        w.place("t1", "1228")
        w.flip("22-grd")
        w.phase(1, "D")
    assert play(legal) == []

    def not_taken(w):
        at_capuzzo(w)
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("15-15pz", "22-grd", 6, side="Axis")
        w.place("t1", "1228")
        w.phase(1, "D")
    found = play(not_taken)
    assert rules(found) == ["6.1"] and "lost 0 step(s); its T1/T2 markers call for 1" in found[0].message

    def unhit(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.flip("11-4ind")
        w.phase(1, "D")
    found = play(unhit)
    assert rules(found) == ["6.1"] and "1030 lost 1 step(s); it took no T1 or T2" in found[0].message


# ---- 5.5: air power ----------------------------------------------------------------------------------------
def test_5_5_air_strikes(play):
    def script(iv: str | None, phase: str = "B"):
        def s(w):
            cw_maneuver(w)
            if phase != "B":
                w.phase(1, phase)
            w.move("air-cw-1", "1227")
            w.declare("air-cw-1", "Air strike")
            if iv:
                w.move("iv", iv)  # one space to the Axis
            w.phase(1, "C" if phase == "B" else "D")
        return s
    assert play(script("I/V 1A")) == []
    found = play(script(None))
    assert rules(found) == ["5.5"] and "moves one space in the opponent's favour" in found[0].message
    found = play(script("I/V 1A", phase="C"))
    assert rules(found) == ["5.5"] and "belong to the Commonwealth player's own maneuver" in found[0].message

    def axis(w):
        axis_maneuver(w)
        w.declare("air-cw-1", "Air strike")  # a CW squadron in the Axis maneuver
    found = play(axis)
    assert rules(found) == ["5.5"]


def test_5_5_crusader_has_no_air_strikes_after_turn_2(play):
    def script(turn):
        def s(w):
            for t in range(1, turn):
                pair(w, 5, 5, turn=t)
                w.phase(t + 1, "A")
                w.move("mp-cw", "MP 0")
                w.move("mp-axis", "MP 0")
            cw_maneuver(w, 5, turn)
            w.move("air-cw-1", "1227")
            w.declare("air-cw-1", "Air strike")
            w.move("iv", "I/V 1A")
        return s
    assert play(script(2), setup="crusader.vsav") == []
    found = play(script(3), setup="crusader.vsav")
    assert rules(found) == ["5.5"] and "no air strike after turn 2" in found[0].message


# ---- 5.3: coordinated fire -----------------------------------------------------------------------------------
def test_5_3_coordinated_fire_needs_a_partner(play):
    def axis(both: bool):
        def s(w):
            at_capuzzo(w)
            cw_maneuver(w)
            w.phase(1, "C")
            w.fire("15-15pz", "22-grd", 1, side="Axis", coordinated=True)
            if both:  # same division (15 Pz), both German: armour and infantry may coordinate on the Axis side
                w.fire("33pzjag-15pz", "22-grd", 1, side="Axis", coordinated=True)
            w.phase(1, "D")
        return s
    assert play(axis(True)) == []
    found = play(axis(False))
    assert rules(found) == ["5.3"] and "with no partner" in found[0].message

    def cw_mixed(w):  # 4th Indian's infantry and its recce: Commonwealth armour with non-armour
        w.move("11-4ind", "1228")
        w.move("recce-4ind", "1228")
        cw_maneuver(w)
        w.phase(1, "C")
        w.fire("11-4ind", "15-15pz", 1, side="Commonwealth", coordinated=True)
        w.fire("recce-4ind", "15-15pz", 1, side="Commonwealth", coordinated=True)
        w.phase(1, "D")
    found = play(cw_mixed)
    assert rules(found) == ["5.3", "5.3"]


def test_5_6_at_fire_on_fragile_armour_and_5_9_minefields(play):
    def fragile(marker):
        def s(w):
            w.move("4-7ar", "1125")  # 4th Armoured Brigade out of the CG: fragile (10.C)
            cw_maneuver(w)
            w.phase(1, "C")
            w.fire("606-lw", "4-7ar", 4, side="Axis")  # AT 6 +2 fragile = column 8, die 4 -1 crest: T1 (10.C)
            w.place(marker, "1125")
        return s
    assert play(fragile("t1")) == []
    found = play(fragile("t"))
    assert rules(found) == ["5.1"] and "column 8 (AT 6, at fire on fragile +2)" in found[0].message

    def mines(marker):
        def s(w):
            w.move("11huss-7ar", "0824")
            w.remove("entrenched@0923")
            axis_maneuver(w)
            w.phase(1, "C")
            w.fire("33-15pz", "11huss-7ar", 4, side="Axis")  # offensive, across a light minefield: 4 -1 = 3: T
            w.place(marker, "0824")
        return s
    assert play(mines("t")) == []
    found = play(mines("t1"))
    assert rules(found) == ["5.1"] and "behind light minefield -1" in found[0].message


def test_5_2_weapon_priority(play):
    def script(marker):
        def s(w):
            w.move("11-4ind", "1228")
            cw_maneuver(w)
            w.phase(1, "C")
            # AP 5; die 6 -1 entrenched -1 escarpment -1 weapon (C firer, B target) = 3: T
            w.fire("11-4ind", "15-15pz", 6, side="Commonwealth")
            w.place(marker, "1227")
        return s
    assert play(script("t")) == []
    found = play(script("t1"))
    assert rules(found) == ["5.1"] and "weapon priority -1 = 3" in found[0].message


# ---- 11.1: the set-up, checked when the turn tracker first moves ---------------------------------
@pytest.fixture
def play_setup(tobrouk_module, tmp_path):
    game, vmod = tobrouk_module
    return lambda script, setup="battleaxe.vsav": audit(game, vmod, script, tmp_path / "game.vlog", setup=setup,
                                                        setup_check=True)


@pytest.mark.parametrize("card", ["battleaxe", "crusader", "gazala", "gazala-hypothetical"])
def test_11_1_every_card_as_set_up_is_legal(play_setup, card):
    assert play_setup(lambda w: cw_maneuver(w, 3), setup=f"{card}.vsav") == []


def test_11_1_a_unit_set_up_off_its_hex(play_setup):
    def script(to):
        def s(w):
            w.move("22-grd", to)  # 22 Gds: 1030 by the Battleaxe card (11.5j), no "#"
            cw_maneuver(w, 3)
        return s
    assert play_setup(script("1029")) == []  # one hex of room (11.1d and the card's spreading)
    found = play_setup(script("1228"))
    assert rules(found) == ["11.1"] and found[0].to_hex == "1228" and found[0].from_hex == "1030"


def test_11_1_a_stack_dragged_whole_off_its_hexes(play_setup):
    def script(w):
        w.move("11huss-7ar", "0923", stack=True)  # 11th Hussars and XXX Corps HQ from 0726
        cw_maneuver(w, 3)
    found = play_setup(script)
    assert sorted(rules(found)) == ["11.1", "11.1"] and {f.to_hex for f in found} == {"0923"}
    assert len({f.piece for f in found}) == 2 and all(f.from_hex == "0726" for f in found)


def test_11_1_moves_after_play_starts_are_not_the_set_up(play_setup):
    def script(w):
        cw_maneuver(w, 3)
        w.move("22-grd", "1129")
    assert "11.1" not in rules(play_setup(script))


def test_11_1_a_log_begun_in_a_game_under_way_has_no_set_up_check(play_setup):
    def script(turn, letter):
        def s(w):
            w.move("22-grd", "1228")  # 2 hexes from its card's 1030
            w.phase(turn, letter)
        return s
    assert rules(play_setup(script(1, "B"))) == ["11.1"]
    assert "11.1" not in rules(play_setup(script(1, "C")))
    assert "11.1" not in rules(play_setup(script(2, "A")))


def test_11_1_approach_march_within_8_hexes(play_setup):
    def script(to):
        def s(w):
            w.move("recce-nz", to)  # NZ Division (0729*), Crusader 11.4h
            cw_maneuver(w, 3)
        return s
    assert play_setup(script("0725"), setup="crusader.vsav") == []  # 4 hexes: an approach march
    found = play_setup(script("0719"), setup="crusader.vsav")  # 10 hexes
    assert rules(found) == ["11.1"]


def test_11_1a_the_approach_march_keeps_stacking_and_ends_out_of_contact(play_setup):
    """11.1a: "within the stacking limits" and (the designer) not into contact with the enemy."""
    def script(*moves):
        def s(w):
            for unit, to in moves:
                w.move(unit, to)
            cw_maneuver(w, 3)
        return s
    legal = script(("4-7ar", "0627"), ("22-grd", "0627"), ("recce-nz", "0725"))  # tank + infantry; far from the enemy
    assert play_setup(legal, setup="crusader.vsav") == []
    found = play_setup(script(("4-7ar", "0627"), ("7-7ar", "0627")), setup="crusader.vsav")  # two tank units
    assert rules(found) == ["11.1"] and "beyond the stacking limits" in found[0].message and found[0].to_hex == "0627"
    found = play_setup(script(("recce-nz", "0827"),), setup="crusader.vsav")  # next to 16/Savona (0926)
    assert rules(found) == ["11.1"] and "in contact with the enemy" in found[0].message and found[0].to_hex == "0827"


def test_11_1_boxes_and_faces_of_the_card(play_setup):
    def off_box(w):
        w.move("5-4ind", "1030")  # in the Commonwealth reserve by the Battleaxe card (11.5l)
        cw_maneuver(w, 3)
    found = play_setup(off_box)
    assert rules(found) == ["11.1"] and "reserve" in found[0].message

    def flipped(w):
        w.flip("afrika-lw")  # Afrika LW starts one step down (11.5g)
        cw_maneuver(w, 3)
    found = play_setup(flipped)
    assert rules(found) == ["11.1"] and "reduced" in found[0].message


# ---- 4.41a: wrecks -------------------------------------------------------------------------------------
def wreck_rules(found) -> list[str]:
    return [r for r in rules(found) if r == "4.41"]


def test_4_41_a_wreck_where_armour_lost_steps(play):
    def script(wreck_at: str | None, unit: str = "b-5-15pz-2", hex_id: str = "1620"):
        def s(w):
            cw_maneuver(w)
            w.phase(1, "C")
            w.place("t1", hex_id)
            w.flip(unit)
            if wreck_at:
                w.place("wreck", wreck_at)
            w.phase(1, "D")
        return s
    assert play(script("1620")) == []
    found = [f for f in play(script(None)) if f.rule == "4.41"]
    assert len(found) == 1 and found[0].to_hex == "1620" and found[0].piece.startswith("II./5 Panzer")
    assert rules(play(script("1619"))) == ["4.41"]  # the wrong hex
    assert play(script(None, "11huss-7ar", "0726")) == []  # recon: no wreck (4.41a')


def test_4_41_a_fragile_armour_makes_no_wreck(play):
    def script(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.place("t1", "0630")
        w.flip("4-7ar")  # 4/7Ar: fragile on both faces (4.41a')
        w.phase(1, "D")
    assert play(script, setup="crusader.vsav") == []


def test_4_41_a_wreck_after_a_stack_retreats_or_a_unit_is_eliminated(play):
    def retreat(wreck_at):
        def s(w):
            cw_maneuver(w)
            w.phase(1, "C")
            w.place("t1", "1620")
            w.flip("b-5-15pz-2")
            w.move("b-5-15pz-2", "1720", stack=True)  # the whole stack (tank, markers) drawn back
            w.place("wreck", wreck_at)
            w.phase(1, "D")
        return s
    # the drag itself is judged by 2 and 6.3 (no Retreat marker here); only the wreck is asked about
    assert wreck_rules(play(retreat("1720"))) == []
    assert wreck_rules(play(retreat("1620"))) == []

    def eliminated(w):
        cw_maneuver(w)
        w.phase(1, "C")
        w.place("t2", "1620")
        w.remove("b-5-15pz-2")
        w.phase(1, "D")
    assert rules(play(eliminated)) == ["4.41"]


def test_an_illegal_move_undone_is_never_made(play):
    """Real play: a drag taken back with Undo (the engine's UNDO step) counts as never made."""
    def script(undo: bool):
        def s(w):
            axis_maneuver(w, 5)
            w.move("62-trento", "1528")  # into the sea (4.2)
            if undo:
                w.undo()
        return s
    assert rules(play(script(False))) == ["4.2"]
    assert play(script(True)) == []


# ---- issue 31: acts found where they are made ------------------------------------------------------------
def test_6_21_a_failed_check_ignored_in_a_hex_of_two_units(play):
    """1227 holds 33PzJag/15Pz (morale 8 reduced) and 15/15Pz (9), entrenched (-1): the roll does not
    say which unit checks, so it is judged only when it passes, or fails, for both."""
    def script(dice, retreat):
        def s(w):
            cw_maneuver(w)
            w.phase(1, "C")
            t = w.place("t", "1227")
            w.roll("Axis morale 2d6", dice, "Axis")
            w.move(t, "Markers")
            if retreat:
                w.place("retreat", "1227")
            w.phase(1, "D")
        return s
    assert play(script([6, 6], True)) == []  # 11 fails for both: the Retreat marker is due
    assert play(script([4, 4], False)) == []  # 7 passes for both
    assert play(script([5, 5], False)) == []  # 9: passes for 15/15Pz, fails for 33PzJag: not judged
    assert play(script([5, 5], True)) == []
    found = play(script([6, 6], False))  # a failure ignored: the T taken off, no Retreat marker (6.21)
    assert rules(found) == ["6.2"] and found[0].step == 6 and "whichever of" in found[0].message
    found = play(script([4, 4], True))
    assert rules(found) == ["6.2"] and found[0].step == 7 and "passes" in found[0].message


def test_6_1e_a_t1_flipped_to_t_before_its_step_is_taken(play):
    def script(flip_unit_first, unit=True):
        def s(w):
            at_capuzzo(w)
            cw_maneuver(w)
            w.phase(1, "C")
            w.fire("15-15pz", "22-grd", 6, side="Axis")  # T1 (test_6_1_t1_and_t2_cost_their_steps)
            t1 = w.place("t1", "1228")
            if flip_unit_first and unit:
                w.flip("22-grd")
            w.flip(t1)
            if not flip_unit_first and unit:
                w.flip("22-grd")
            w.phase(1, "D")
        return s
    assert play(script(True)) == []
    found = play(script(True, unit=False))  # the T1 flipped to T, no step ever taken: found at the flip
    assert rules(found) == ["6.1"] and found[0].step == 9 and "6.1e" in found[0].message
    assert play(script(False)) == []  # the step taken right after the marker's flip: judged at the phase's end


def test_4_43_a_breach_across_a_minefield_from_an_enemy_is_within_its_fire(play):
    """0824 is next to 33/15Pz in 0923 across a light minefield (no ZoC crosses it, 1.34), yet units
    fire across it (5.9): a breach there is not "out of range of their firing" (4.43a).  1029 faces
    the Axis in 1028 across a cliff (no fire, 5.1d)."""
    def script(to):
        def s(w):
            cw_maneuver(w, 5)
            w.place("breach", to, side="Commonwealth")
            w.phase(1, "C")
        return s
    assert play(script("1029")) == []
    found = play(script("0824"))
    assert rules(found) == ["4.43"] and found[0].step == 3 and "within the enemy's fire" in found[0].message


def test_4_2e_a_unit_back_where_it_began_moved_into_no_contact(play):
    """Afrika/LW at 1028 is 11 hexes between from the Afrika Korps HQ (range 10) and, with 22 Gds
    put at 1027, in contact: stepping out to 0928 and back is no move into contact (4.2e); ending
    in another contact hex is (Q&A 6: In Command at the beginning of the movement)."""
    def script(back):
        def s(w):
            w.move("22-grd", "1027")
            axis_maneuver(w, 5)
            w.move("afrika-lw", "0928")
            w.move("afrika-lw", back)
        return s
    assert "4.2" not in rules(play(script("1028")))
    found = play(script("0927"))
    assert rules(found) == ["4.2"] and found[0].step == 5 and "command radius" in found[0].message


def test_5_10_a_target_that_fired_offensively_may_be_fired_at(play):
    """Q&A 7-8: defensive fire may not target a unit that remained entrenched instead of firing
    offensively; 22 Gds (entrenched at 1228) that fired offensively, its marker kept (5.10c'), may.
    Fire is simultaneous (5.1a'): its offensive shot may come after the defensive one in the log."""
    def script(order):
        def s(w):
            at_capuzzo(w)
            w.move("entrenched@1030", "1228")
            cw_maneuver(w)
            w.phase(1, "C")
            for shot in order:
                if shot == "offensive":
                    w.fire("22-grd", "33pzjag-15pz", 1, side="Commonwealth")
                else:
                    w.fire("15-15pz", "22-grd", 1, side="Axis")
            w.phase(1, "D")
        return s
    for order in (("offensive", "defensive"), ("defensive", "offensive")):
        found = play(script(order))  # only the offensive shot with the marker kept is wrong (5.10c')
        assert rules(found) == ["5.10"] and "fires offensively only after" in found[0].message
    found = play(script(("defensive",)))  # 22 Gds never fired: judged when C ends, found at the die (8)
    assert rules(found) == ["5.10"] and found[0].step == 8 and "not having fired offensively" in found[0].message


def test_11_3_the_hypothetical_card_keeps_the_axis_initiative_of_turn_1(play):
    """11.3a: "as 11.2" (tables/scenario-rules.yaml `same_as`): the Axis has the initiative on turn 1 (11.2d)."""
    def script(roll):
        def s(w):
            if roll:
                w.roll("Commonwealth initiative 1d6", [6], "Commonwealth")  # in phase A, where the set-up stands
            w.phase(1, "B")
            w.move("mp-axis", "MP 5")
        return s
    for setup, number in (("gazala.vsav", "11.2"), ("gazala-hypothetical.vsav", "11.3")):
        assert play(script(False), setup=setup) == []
        found = play(script(True), setup=setup)
        assert rules(found) == [number] and found[0].step == 1 and "initiative to the Axis" in found[0].message


def test_5_4_a_supplied_hq_and_the_markers_go_at_the_end_of_the_fire(play):
    """5.4a (Q&A 9): the HQ in supply (no CR or RE marker in its hex); 5.4h: the markers are
    removed at the end of the fire phase."""
    def script(cr=False, removed=True):
        def s(w):
            if cr:
                w.place("cr", "1129", side="Commonwealth")  # before play: the HQ's hex unsupplied
            artillery_on_capuzzo(w)
            w.phase(1, "C")
            if removed:
                w.move("artillery-xxx@1227", "Markers")
            w.phase(1, "D")
        return s
    assert play(script()) == []
    found = play(script(cr=True))
    assert rules(found) == ["5.4"] and found[0].step == 6 and "supplied" in found[0].message
    found = play(script(removed=False))  # an omission: reported at its deadline (the end of C), once
    assert rules(found) == ["5.4"] and found[0].step == 7 and "5.4h" in found[0].message


def test_5_2d_moved_artillery_fired_at_gives_no_weapon_priority_penalty(play):
    """33/15Pz (artillery, weapon A) at 0923 fired at by 11 Huss (0824, weapon C) in the combat after
    the Axis maneuver: -2 for weapon priority (5.2a'), none if 33/15Pz moved in that maneuver."""
    def script(moved, die):
        def s(w):
            w.move("11huss-7ar", "0824")
            w.move("entrenched@0923", "Markers")  # 33/15Pz not entrenched: defensive fire at it allowed
            if moved:
                w.move("33-15pz", "0922")
            axis_maneuver(w, 5)
            if moved:
                w.move("33-15pz", "0923")
            else:
                w.move("33-15pz", "0922")
                w.move("33-15pz", "0923")  # out and back: no move
            w.phase(1, "C")
            w.fire("11huss-7ar", "33-15pz", die, side="Commonwealth")
            w.phase(1, "D")
        return s
    # AP 2 on column 2: a 6 gives T, a 6 - 2 nothing (no hit marker is placed after the die)
    found = play(script(True, 6))
    assert rules(found) == ["5.1"] and "die 6 moved artillery: no weapon priority (5.2d) = 6" in found[0].message
    assert play(script(False, 6)) == []


def test_4_3b_and_4_2c_units_unsupplied_neither_entrench_nor_go_rapid(play):
    def script(marker, cr):
        def s(w):
            w.move("22-grd", "1129")
            if cr:
                w.place("cr", "1129", side="Commonwealth")
            cw_maneuver(w, 5)
            w.place(marker, "1129", side="Commonwealth")
        return s
    for marker, number in (("entrenched", "4.3"), ("rapid", "4.2")):
        assert play(script(marker, False)) == []
        found = play(script(marker, True))
        assert rules(found) == [number] and found[0].step == 5 and "unsupplied" in found[0].message


def test_6_1_an_air_strike_s_losses_are_taken_in_the_maneuver(play):
    """5.5: the targets of an air strike take their losses at once ("the reactive player then
    applies any losses"): a T1 on 62/Trento (1527) costs it a step before the maneuver ends."""
    def script(step_taken, flip_marker=False):
        def s(w):
            cw_maneuver(w)
            w.move("air-cw-1", "1527")
            w.declare("air-cw-1", "Air strike")
            w.move("iv", "I/V 1A")
            t1 = w.place("t1", "1527")
            if step_taken:
                w.flip("62-trento")
            if flip_marker:
                w.flip(t1)
            w.phase(1, "C")
        return s
    assert play(script(True)) == []
    assert play(script(True, flip_marker=True)) == []
    found = play(script(False))  # never taken: reported when the maneuver ends (its deadline)
    assert rules(found) == ["6.1"] and found[0].step == 7 and "call for 1" in found[0].message
    found = play(script(False, flip_marker=True))  # the T1 flipped to T with no step lost: at the flip (6.1e)
    assert rules(found) == ["6.1"] and found[0].step == 7 and "6.1e" in found[0].message


def test_6_22f_the_optional_afrika_korps_modifier_and_6_4_surrender(play):
    """A/5/15Pz (morale 8) at 1619 with the Afrika Korps HQ, entrenched (-1): 10 fails unless the
    optional -1 (6.22f) is in use, so either answer stands; 11 fails with it too.  62/Trento (1527,
    morale 7, entrenched) failing on 12 may surrender (6.4) instead of retreating."""
    def script(hex_id, dice, retreat=False, surrender=None):
        def s(w):
            cw_maneuver(w)
            w.phase(1, "C")
            t = w.place("t", hex_id)
            w.roll("Axis morale 2d6", dice, "Axis")
            w.move(t, "Markers")
            if retreat:
                w.place("retreat", hex_id)
            if surrender:
                w.remove(surrender)
            w.phase(1, "D")
        return s
    assert play(script("1619", [5, 5])) == []
    assert play(script("1619", [5, 5], retreat=True)) == []
    found = play(script("1619", [5, 6]))
    assert rules(found) == ["6.2"] and found[0].step == 6 and "fails" in found[0].message
    assert play(script("1527", [6, 6], surrender="62-trento")) == []


def test_4_43c_a_breached_minefield_costs_1_mp_less(play):
    """62/Trento (foot) leaves Bardia 1527 for 1428 across the heavy minefield: 2 + 4 MP, 1 less
    breached (tables/terrain-effects.yaml, reconstructed); the breach marker in 1527 names no
    hexside (Q&A 3): each minefield hexside of its hex is taken as breached."""
    def script(breach):
        def s(w):
            if breach:
                w.place("breach", "1527", side="Axis")  # set-up: breached earlier
            axis_maneuver(w, 5)
            w.move("62-trento", "1428")
        return s
    assert play(script(True)) == []
    found = play(script(False))
    assert rules(found) == ["4.1"] and found[0].step == 3 and "cost 6 MP" in found[0].message


def test_11_5h_the_afrika_korps_hq_has_no_artillery_in_battleaxe(play):
    """5.4 with 11.5h: in Battleaxe the AK HQ (1619) supports nothing; in Gazala it may (1301)."""
    def script(target):
        def s(w):
            axis_maneuver(w, 5)
            w.place("artillery-ak", target, side="Axis")
        return s
    assert play(script("1402"), setup="gazala.vsav") == []  # two hexes from the AK HQ
    found = play(script("1620"))
    assert rules(found) == ["5.4"] and found[0].step == 3 and "its HQ (AK) is not within 3 hexes" in found[0].message


def test_6_3a_a_unit_that_failed_retreats_or_surrenders(play):
    """22 Gds at 1228, next to Capuzzo, takes a Retreat marker: it retreats (1128) or surrenders
    (removed); staying there, next to the enemy, is reported when the combat phase ends."""
    def script(then):
        def s(w):
            at_capuzzo(w)
            cw_maneuver(w)
            w.phase(1, "C")
            w.place("retreat", "1228", side="Commonwealth")
            if then == "retreat":
                w.move("22-grd", "1128", stack=True)
            elif then == "surrender":
                w.remove("22-grd")
            w.phase(1, "D")
        return s
    assert play(script("retreat")) == []
    assert [f for f in play(script("surrender")) if f.rule == "6.3"] == []
    found = play(script("stay"))
    assert rules(found) == ["6.3"] and found[0].step == 6 and "6.3a" in found[0].message


def test_12_3_rommel_gives_one_shot_a_turn_plus_2(play):
    """15/15Pz (Capuzzo 1227) fires at 22 Gds (1228): AP 5, die 4 -1 crest = 3 gives less than
    die 6 -1 = 5 (T1, test_6_1_t1_and_t2_cost_their_steps); with Rommel in 1227 the +2 (12.3) makes
    the 4 a T1, for one shot of the combat phase only."""
    def script(rommel, shots=1):
        def s(w):
            at_capuzzo(w)
            if rommel:
                w.place("rommel", "1227", side="Axis")
            cw_maneuver(w)
            w.phase(1, "C")
            for firer in ("15-15pz", "33pzjag-15pz")[:shots]:
                w.fire(firer, "22-grd", 4, side="Axis")
                w.place("t1", "1228")
        return s
    assert [f for f in play(script(True)) if f.rule == "5.1"] == []
    found = [f for f in play(script(False)) if f.rule == "5.1"]
    assert len(found) == 1 and "T1 placed" in found[0].message
    found = [f for f in play(script(True, shots=2)) if f.rule == "5.1"]  # a second +2 in the phase: none
    assert len(found) == 1 and "33rd Panzerjager" in found[0].message


def test_12_3_rommel_adds_3_to_the_command_radius_of_his_hq(play):
    """Afrika/LW at 1028 is 11 hexes between from the Afrika Korps HQ (1619, range 10): it may move
    into contact (4.2e) only with Rommel stacked with the HQ (+3, 12.3)."""
    def script(rommel):
        def s(w):
            w.move("22-grd", "1027")
            if rommel:
                w.place("rommel", "1619", side="Axis")
            axis_maneuver(w, 5)
            w.move("afrika-lw", "0927")
        return s
    assert "4.2" not in rules(play(script(True)))
    found = play(script(False))
    assert rules(found) == ["4.2"] and "command radius" in found[0].message


def test_12_4_the_lrdg_moves_with_its_own_5_mp_and_retreats_automatically(play):
    """12.4: the LRDG moves "freely once per maneuver" with 5 MP (here in an Axis maneuver of 1 MP,
    0726 to 0722: 4 clear hexes), not more (0726 to 0717); fired at, it retreats (1228 to 1128, out of
    Capuzzo's fire, as 6.3) or is destroyed, with no Retreat marker or morale check."""
    def move(to):
        def s(w):
            lrdg = w.place("lrdg", "0726", side="Commonwealth")
            axis_maneuver(w, 1)
            w.move(lrdg, to)
        return s
    assert play(move("0722")) == []
    found = play(move("0717"))
    assert rules(found) == ["4.1"] and found[0].step == 4 and "the maneuver's 5 MP" in found[0].message

    def fired_at(retreat):
        def s(w):
            lrdg = w.place("lrdg", "1228", side="Commonwealth")
            cw_maneuver(w)
            w.phase(1, "C")
            w.fire("15-15pz", lrdg, 1, side="Axis")
            if retreat:
                w.move(lrdg, retreat)
            w.phase(1, "D")
        return s
    assert play(fired_at("1128")) == []
    found = play(fired_at(None))
    assert rules(found) == ["12.4"] and found[0].step == 8 and "retreats automatically" in found[0].message
    found = play(fired_at("1327"))  # still next to Capuzzo
    assert rules(found) == ["12.4"] and found[0].step == 8 and "still next to enemy units" in found[0].message


def test_12_4_the_lrdg_has_no_zoc(play):
    """B/5/15Pz (1620) steps to 1621 (1 1/2 MP) next to 1622 with 2 MP: no ZoC surcharge next to the
    LRDG (12.4), +1 MP next to an ordinary CU (4.2e)."""
    def script(unit):
        def s(w):
            if unit == "lrdg":
                w.place("lrdg", "1622", side="Commonwealth")
            else:
                w.move(unit, "1622")
            axis_maneuver(w, 2)
            w.move("b-5-15pz-2", "1621")
        return s
    assert play(script("lrdg")) == []
    found = play(script("22-grd"))
    assert rules(found) == ["4.1"] and found[0].step == 4 and "enemy-ZoC" in found[0].message


def test_5_5_one_squadron_a_hex_squadrons_as_artillery_and_retreats_in_the_maneuver(play):
    """5.5c: one squadron a hex; 5.5f': a squadron left on its target adds a column in the next
    combat, as an artillery marker; 5.5f: units struck in contact retreat in the maneuver."""
    def strike(w, squadrons=("air-cw-1",)):
        at_capuzzo(w)
        cw_maneuver(w)
        for sq in squadrons:
            w.move(sq, "1227")
            w.declare(sq, "Air strike")
        w.move("iv", "I/V 1A")

    found = play(lambda w: strike(w, ("air-cw-1", "air-cw-2")))
    assert rules(found) == ["5.5"] and found[0].step == 7 and "5.5c" in found[0].message

    def fire(squadron_stays):
        def s(w):
            strike(w)
            if not squadron_stays:
                w.move("air-cw-1", "Markers")
            w.phase(1, "C")
            w.fire("22-grd", "15-15pz", 6, side="Commonwealth")  # no hit marker placed after it
        return s
    with_sq = [f for f in play(fire(True)) if f.rule == "5.1"]
    without = [f for f in play(fire(False)) if f.rule == "5.1"]
    assert with_sq and "artillery marker +1" in with_sq[0].message
    assert all("artillery" not in f.message for f in without)

    def retreat(to):
        def s(w):
            strike(w)
            w.place("retreat", "1227", side="Axis")
            for unit in ("15-15pz", "33pzjag-15pz"):
                if to:
                    w.move(unit, to)
            w.phase(1, "C")
        return s
    assert [f for f in play(retreat("1326")) if f.rule in ("2.22", "6.3")] == []
    found = [f for f in play(retreat(None)) if f.rule in ("2.22", "6.3")]
    assert len(found) == 1 and found[0].rule == "6.3" and found[0].step == 8 and "6.3a" in found[0].message
