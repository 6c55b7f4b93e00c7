"""Slouch Hats and Eggshells: each audited rule, legal and illegal, on short logs of Operation
Exporter (21.1).  Positions are arranged before the turn tracker first moves (the set-up is not
judged); rule numbers are the draft rulebook's, ranks those of the digest's 10.1.

Map facts used (sources, reconstructed): 1526-1525-1524 is the coast road; the Vichy units in
1524, 1624 and 1625 put 1525, 1523 and 1724 in their ZOC; 2425 (4 RST and the Circassians,
Light) puts 2426 in its ZOC; 1615, 1616 and 1715 are mountain hexes, 1615 next to both others
(10.53 example); 2018 is a mountain hex next to Rayak 1918 with no road between.
"""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def run(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog")


def auditor(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog", auditor=True)


# ---- sequence of play (4.21, 21.11) ---------------------------------------------------------------
def test_4_21_phases_go_forward_and_turn_by_turn(slouch_module, tmp_path):
    def legal(w):
        w.phase(1, "Reinforcements")
        w.phase(1, "1st Allied Movement")
        w.phase(1, "Victory Determination")
        w.phase(2, "Turn Record")
        w.phase(2, "Bombardment")
    assert run(slouch_module, tmp_path, legal) == []

    def back(w):
        w.phase(1, "1st Allied Combat")
        w.phase(1, "1st Allied Movement")
        w.phase(3, "Turn Record")
    assert rules(run(slouch_module, tmp_path, back)) == ["4.21", "4.21"]


def test_21_11_turn_1_skips_the_first_axis_operations(slouch_module, tmp_path):
    def legal(w):
        w.phase(1, "1st Allied Transport")
        w.phase(2, "1st Axis Movement")
        w.move("7rca", "2016")
    assert run(slouch_module, tmp_path, legal) == []

    def walked_through(w):  # issue 31: the module's tracker steps through the omitted phases
        for name in ("Bombardment", "1st Axis Transport", "1st Axis Movement", "1st Axis Combat",
                     "1st Axis Exploitation Movement", "1st Axis Administrative", "1st Allied Transport"):
            w.phase(1, name)
    assert run(slouch_module, tmp_path, walked_through) == []

    def moved(w):
        w.phase(1, "1st Axis Movement")
        w.move("7rca", "2016")
        w.move("1-1ff", "2526")  # an Allied unit: the segment is not played (21.11), not only not his (4.21)
    found = run(slouch_module, tmp_path, moved)
    assert rules(found) == ["21.11", "21.11"] and found[0].piece.startswith("7e")

    def attacked(w):
        w.phase(1, "1st Axis Combat")
        w.declare("i-22rta", "Declare attacker")
    assert rules(run(slouch_module, tmp_path, attacked)) == ["21.11"]


def test_21_11_the_scenario_ends_after_turn_6(slouch_module, tmp_path):
    def illegal(w):
        w.phase(6, "Victory Determination")
        w.phase(7, "Turn Record")
    assert rules(run(slouch_module, tmp_path, illegal)) == ["21.11"]  # the log begins in Turn 6: no jump


def test_4_21_units_move_in_their_own_movement_phases(slouch_module, tmp_path):
    def legal(w):
        w.phase(1, "1st Allied Movement")
        w.move("1-1ff", "2526")
        w.phase(1, "2nd Axis Movement")
        w.move("7rca", "2016")
    assert run(slouch_module, tmp_path, legal) == []

    def illegal(w):
        w.phase(1, "1st Allied Movement")
        w.move("7rca", "2016")  # Axis
        w.phase(1, "Second Supply Conversion")
        w.move("1-1ff", "2526")
    found = run(slouch_module, tmp_path, illegal)
    assert rules(found) == ["4.21", "4.21"] and found[0].piece.startswith("7e")


# ---- movement (8.1-8.3, 8.38, 3.55, 6.53) -----------------------------------------------------------
def test_8_13_the_allowance_and_the_one_hex_move(slouch_module, tmp_path):
    def too_far(w):
        w.phase(1, "1st Allied Movement")
        w.move("4-1ff", "3324")  # 5 1/2 MP by the cheapest path, MA 5
    found = run(slouch_module, tmp_path, too_far)
    assert rules(found) == ["8.13"] and "> MA 5" in found[0].message and "(reconstructed table)" in found[0].message

    def within(w):
        w.phase(1, "1st Allied Movement")
        w.move("4-1ff", "2927")
        w.move("tjff", "2426")  # cavalry MA 8, next to 2425: it stops there
    assert run(slouch_module, tmp_path, within) == []

    def one_hex(w):  # 8.38: a first hex is always allowed (2/3 MG: MA 5 ... rough costs 2)
        w.move("2-3mg-a", "1828")  # set-up
        w.phase(1, "1st Allied Movement")
        w.move("2-3mg-a", "1827")
    assert run(slouch_module, tmp_path, one_hex) == []


def test_8_15_no_unit_enters_an_enemy_hex(slouch_module, tmp_path):
    def illegal(w):
        w.phase(1, "1st Allied Movement")
        w.move("staffs-yeo", "2024")
    found = run(slouch_module, tmp_path, illegal)
    assert rules(found) == ["8.15"] and found[0].to_hex == "2024"


def test_8_21_a_unit_stops_on_entering_an_enemy_zoc(slouch_module, tmp_path):
    def legal(w):
        w.phase(1, "1st Allied Movement")
        w.move("6cav-a", "1525")
    assert run(slouch_module, tmp_path, legal) == []

    def through(w):
        w.phase(1, "1st Allied Movement")
        w.move("6cav-a", "1523")  # every way there goes on from an enemy-ZOC hex
    assert rules(run(slouch_module, tmp_path, through)) == ["8.21"]

    def onwards(w):
        w.phase(1, "1st Allied Movement")
        w.move("tjff", "2426")  # into the ZOC of 2425
        w.move("tjff", "2527")  # and on: it stopped in 2426
    found = run(slouch_module, tmp_path, onwards)
    assert rules(found) == ["8.21"] and "2426" in found[0].message


def test_8_22_no_move_from_enemy_zoc_directly_into_enemy_zoc(slouch_module, tmp_path):
    def setup(w):
        w.move("i-24rmic", "1523")
        w.move("21-7a", "1524")  # 2/3 MG stands in 1725, 6 Cav in 1526
        w.phase(1, "2nd Axis Movement")
    def illegal(w):
        setup(w)
        w.move("i-22rta", "1624")  # 1625 -> 1624: every neighbour of 1625 is in the Allied ZOC
    assert rules(run(slouch_module, tmp_path, illegal)) == ["8.22"]

    def legal(w):
        setup(w)
        w.move("ii-22rta", "1521")
    assert run(slouch_module, tmp_path, legal) == []


def test_8_35_armor_enters_mountain_only_along_a_road_or_trail(slouch_module, tmp_path):
    def illegal(w):
        w.phase(1, "2nd Axis Movement")
        w.move("6rca", "2018")
    found = run(slouch_module, tmp_path, illegal)
    assert rules(found) == ["8.35"] and "(reconstructed table)" in found[0].message

    def infantry(w):
        w.phase(1, "2nd Axis Movement")
        w.move("i-raml", "2018")  # motorized artillery: mountain 3 MP
    assert run(slouch_module, tmp_path, infantry) == []


def test_6_53_no_movement_supply_halves_a_motorized_unit(slouch_module, tmp_path):
    def script(marker: bool):
        def s(w):
            if marker:
                w.place("no-move-supply", "2017")
            w.phase(1, "2nd Axis Movement")
            w.move("7rca", "1912")  # 7e RCA, MA 12: 3 1/2 MP by the roads
        return s
    assert run(slouch_module, tmp_path, script(False)) == []
    assert run(slouch_module, tmp_path, script(True)) == []  # within 6

    def far(w):
        w.place("no-move-supply", "2017")
        w.phase(1, "2nd Axis Movement")
        w.move("7rca", "1900")  # 10 MP by the roads: within 12, not 6
    found = run(slouch_module, tmp_path, far)
    assert rules(found) == ["8.13"] and "halved without Movement Supply" in found[0].message


def test_8_16_an_msu_goes_next_to_the_enemy_only_with_combat_units(slouch_module, tmp_path):
    def alone(w):
        w.phase(1, "1st Allied Movement")
        w.move("msu-allied@1526", "1525")  # next to 1524 and 1625, no unit with it
        w.phase(1, "1st Allied Combat")
    found = run(slouch_module, tmp_path, alone)
    assert rules(found) == ["8.16"] and found[0].to_hex == "1525" and found[0].step == 2  # at the move (issue 31)

    def with_units(w):
        w.phase(1, "1st Allied Movement")
        w.move("msu-allied@1526", "1525")
        w.move("21-7a", "1525")  # the brigade follows it: they moved together
        w.phase(1, "1st Allied Combat")
    assert run(slouch_module, tmp_path, with_units) == []

    def dump(w):  # a Supply Dump carried (6.13d) next to the enemy, alone
        w.phase(1, "1st Allied Movement")
        w.move("dump-allied@1527", "1525")
        w.phase(1, "1st Allied Combat")
    found = run(slouch_module, tmp_path, dump)
    assert rules(found) == ["8.16"] and found[0].step == 2


# ---- movement modes (9.2, 9.4, 9.5, 9.6) and exploitation (8.4) -------------------------------------
def test_9_21_strategic_movement(slouch_module, tmp_path):
    def legal(w):  # 7e RCA beyond its MA of 12 along the roads, away from the enemy: taken as strategic
        w.phase(1, "2nd Axis Movement")
        w.declare("7rca", "Strategic movement")
        w.move("7rca", "2011")
    assert run(slouch_module, tmp_path, legal) == []

    def next_to_enemy(w):
        w.phase(1, "1st Allied Movement")
        w.declare("2-5fd-a", "Strategic movement")
        w.move("2-5fd-a", "1823")  # ends next to 1722
    found = run(slouch_module, tmp_path, next_to_enemy)
    assert rules(found) == ["9.21"] and "next to an enemy" in found[0].message

    def foot(w):
        w.phase(1, "1st Allied Movement")
        w.declare("1-1ff", "Strategic movement")
        w.move("1-1ff", "2628")
    assert rules(run(slouch_module, tmp_path, foot)) == ["9.21"]


def test_9_57_motor_pool(slouch_module, tmp_path):
    def pooled(w):  # 2/1 FF (MA 5) by the Allied motor pool: MA 7
        w.phase(1, "1st Allied Movement")
        w.declare("2-1ff", "Motor pool")
        w.move("2-1ff", "3127")
    assert run(slouch_module, tmp_path, pooled) == []

    def motorized(w):
        w.phase(1, "1st Allied Movement")
        w.declare("chars-ff", "Motor pool")
        w.move("chars-ff", "2628")
    assert rules(run(slouch_module, tmp_path, motorized)) == ["9.54"]


def test_9_56_motor_pool_capacity(slouch_module, tmp_path):
    def script(units: tuple[str, ...]):
        def s(w):  # the Allied motor pool carries 3 stacking points a phase (reconstructed)
            w.phase(1, "1st Allied Movement")
            for u in units:
                w.declare(u, "Motor pool")
                w.move(u, "2526")
            w.phase(1, "1st Allied Combat")
            w.phase(1, "2nd Allied Movement")  # a new phase: the pool again
            w.declare("5-1ff", "Motor pool")
            w.move("5-1ff", "2526")
        return s
    assert run(slouch_module, tmp_path, script(("1-1ff", "2-1ff", "3-1ff"))) == []
    found = run(slouch_module, tmp_path, script(("1-1ff", "2-1ff", "3-1ff", "4-1ff")))
    assert rules(found) == ["9.56"] and found[0].piece.startswith("Bataillon de Marche 4")


def test_9_4_rail_movement_is_axis_only_along_active_rail(slouch_module, tmp_path):
    def legal(w):
        w.phase(1, "2nd Axis Movement")
        w.declare("ii-16rtt", "Rail movement")
        w.move("ii-16rtt", "2220")  # Hama to Damascus by rail
    assert run(slouch_module, tmp_path, legal) == []

    def allied(w):
        w.phase(1, "1st Allied Movement")
        w.declare("1-1ff", "Rail movement")
        w.move("1-1ff", "2426")
    assert rules(run(slouch_module, tmp_path, allied)) == ["9.4"]

    def off_rail(w):
        w.phase(1, "2nd Axis Movement")
        w.declare("cl-3", "Rail movement")
        w.move("cl-3", "1722")
    assert rules(run(slouch_module, tmp_path, off_rail)) == ["9.42"]

    def cut_off(w):  # an Allied unit next to the rail north of Hama (set-up): no active line to 1200 (9.41)
        w.move("staffs-yeo", "1704")
        legal(w)
    found = run(slouch_module, tmp_path, cut_off)
    assert rules(found) == ["9.42"] and "north edge" in found[0].message


def test_9_6_infiltration(slouch_module, tmp_path):
    def setup(w):
        w.move("2-2pnr-a", "1725")
        w.phase(1, "1st Allied Movement")
    def legal(w):  # an Australian unit from the ZOC of 1625 into 1724, in the ZOC of 1624 and 1625
        setup(w)
        w.declare("2-2pnr-a", "Infiltration")
        w.move("2-2pnr-a", "1724")
    assert run(slouch_module, tmp_path, legal) == []

    def not_eligible(w):
        w.move("1-1ff", "1725")
        setup(w)
        w.declare("1-1ff", "Infiltration")
        w.move("1-1ff", "1724")
    assert rules(run(slouch_module, tmp_path, not_eligible)) == ["9.62"]


def test_8_42_exploitation_by_motorized_units_that_fought(slouch_module, tmp_path):
    def script(mover: str, to: str):
        def s(w):
            w.move("i-22rta", "1520")  # to Damour: in 1625 its ZOC on 1525 must be attacked too (10.15)
            w.phase(1, "1st Allied Movement")
            w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
            w.phase(1, "1st Allied Combat")
            w.combat(["21-7a", "6cav-a"], "i-24rmic", 4, side="Allied", support=("2-4fd-a",), supply=("21-7a", "6cav-a"))
            w.send("i-24rmic", "To Cadre Box")
            w.phase(1, "1st Allied Exploitation Movement")
            w.move(mover, to)
        return s
    assert run(slouch_module, tmp_path, script("6cav-a", "1526")) == []
    assert rules(run(slouch_module, tmp_path, script("chars-ff", "2628"))) == ["8.42"]  # did not fight
    assert rules(run(slouch_module, tmp_path, script("21-7a", "1526"))) == ["8.42"]  # not motorized


def test_8_42_cavalry_exploits_by_event_j(slouch_module, tmp_path):
    def script(raid: bool, to: str = "1628"):
        def s(w):  # the TJFF (cavalry, not motorized, MA 8) in 1527, no combat of its own
            w.move("tjff", "1527")
            j = w.event_marker("J")
            w.phase(1, "Special Events")
            w.draw(j, "Allied")
            w.phase(1, "1st Allied Combat")
            if raid:
                w.play_event(j, "Allied")  # Cavalry Raid, at the end of the friendly Combat phase
            w.phase(1, "1st Allied Exploitation Movement")
            w.move("tjff", to)
        return s
    assert run(slouch_module, tmp_path, script(True)) == []
    found = run(slouch_module, tmp_path, script(False))
    assert rules(found) == ["8.42"] and "Event J" in found[0].message


def test_8_41_exploitation_at_half_the_ma(slouch_module, tmp_path):
    def script(to: str):
        def s(w):  # the Free French tank company (armor, MA 8) attacks with 21/7A
            w.move("i-22rta", "1520")  # to Damour: in 1625 its ZOC on 1525 must be attacked too (10.15)
            w.move("chars-ff", "1525")
            w.move("21-7a", "1525")
            w.phase(1, "1st Allied Combat")
            w.combat(["21-7a", "chars-ff"], "i-24rmic", 4, side="Allied", supply=("21-7a", "chars-ff"))
            w.send("i-24rmic", "To Cadre Box")
            w.phase(1, "1st Allied Exploitation Movement")
            w.move("chars-ff", to)
        return s
    assert run(slouch_module, tmp_path, script("1527")) == []
    found = run(slouch_module, tmp_path, script("2031"))  # 6 1/2 MP by the roads: over half of MA 8
    assert rules(found) == ["8.41"] and "halved in exploitation" in found[0].message


# ---- stacking (3.32) ----------------------------------------------------------------------------------
def test_3_32_seven_stacking_points_at_the_end_of_a_phase(slouch_module, tmp_path):
    def script(n: int):
        def s(w):
            w.phase(1, "1st Allied Movement")
            w.move_units(["4-1ff", "5-1ff", "bim-ff"], "2527")
            for u in ("tjff", "spahis-ff")[:n]:
                w.move(u, "2527")
            w.phase(1, "1st Allied Combat")
        return s
    assert run(slouch_module, tmp_path, script(1)) == []  # 7 points
    found = run(slouch_module, tmp_path, script(2))
    assert rules(found) == ["3.32"] and found[0].to_hex == "2527" and "8 stacking points" in found[0].message


# ---- garrisons and reinforcements (5.3, 5.4, 5.6) --------------------------------------------------
def test_5_62_a_garrison_moves_only_once_released(slouch_module, tmp_path):
    def script(release: bool):
        def s(w):
            w.phase(1, "Reinforcements")
            if release:
                w.declare("iv-6rei", "Release garrison")
            w.phase(1, "2nd Axis Movement")
            w.move("iv-6rei", "2010")
        return s
    assert run(slouch_module, tmp_path, script(True)) == []
    assert rules(run(slouch_module, tmp_path, script(False))) == ["5.62"]


def test_5_63_one_axis_release_a_turn(slouch_module, tmp_path):
    def two(w):
        w.phase(1, "Reinforcements")
        w.declare("iv-6rei", "Release garrison")
        w.declare("iii-6rei", "Release garrison")
    found = run(slouch_module, tmp_path, two)
    assert rules(found) == ["5.63"] and found[0].piece.startswith("III/6e")

    def adjacent(w):  # an enemy combat unit next to the garrison frees it at any time
        w.move("tjff", "2012")
        w.phase(1, "Reinforcements")
        w.declare("iii-6rei", "Release garrison")
        w.phase(1, "2nd Axis Movement")
        w.declare("iv-6rei", "Release garrison")
    assert run(slouch_module, tmp_path, adjacent) == []


def test_5_31_reinforcements_on_their_turn_into_their_box(slouch_module, tmp_path):
    def legal(w):
        w.phase(2, "Reinforcements")
        w.move("16-6", "Middle East Holding Box")
        w.move("rta", "Greece Holding Box")
    assert run(slouch_module, tmp_path, legal) == []

    def early(w):
        w.phase(1, "Reinforcements")
        w.move("16-6", "Middle East Holding Box")
    assert rules(run(slouch_module, tmp_path, early)) == ["5.31"]

    def wrong_box(w):
        w.phase(2, "Reinforcements")
        w.move("16-6", "Iraq Holding Box")
    assert rules(run(slouch_module, tmp_path, wrong_box)) == ["5.32"]

    def iraq_early(w):  # Allied Event E: the Iraq units one turn early
        w.phase(2, "Reinforcements")
        w.move("4cav-bde", "Iraq Holding Box")
    assert run(slouch_module, tmp_path, iraq_early) == []


def test_15_12_axis_repls_arrive_in_the_greece_holding_box(slouch_module, tmp_path):
    def script(box: str):
        def s(w):
            w.phase(2, "Reinforcements")
            w.move("repl-v1", box)
            w.move("repl-g1", box)  # the German REPL from the spare pieces (an event's)
        return s
    assert run(slouch_module, tmp_path, script("Greece Holding Box")) == []
    found = run(slouch_module, tmp_path, script("1519"))
    assert rules(found) == ["15.12", "15.12"] and found[0].step < found[1].step


def test_9_33_units_leave_a_holding_box_by_its_entry_hexes(slouch_module, tmp_path):
    def script(to: str):
        def s(w):  # 16/6 (MA 5) arrives in the Middle East box; entry hexes 1631 and 2631 (reconstructed)
            w.phase(2, "Reinforcements")
            w.move("16-6", "Middle East Holding Box")
            w.phase(2, "1st Allied Movement")
            w.move("16-6", to)
        return s
    assert run(slouch_module, tmp_path, script("1629")) == []  # 1 1/2 MP from 1631
    found = run(slouch_module, tmp_path, script("3327"))  # 6 MP from 2631
    assert rules(found) == ["8.13"] and found[0].path[0] == "2631"


def test_9_33_units_enter_a_holding_box_from_its_entry_hexes(slouch_module, tmp_path):
    def script(start: str, phase: str = "1st Allied Movement", back: bool = False):
        def s(w):
            w.move("1-1ff", start)  # set-up
            w.phase(2, phase)
            w.move("1-1ff", "Middle East Holding Box")
            if back:
                w.move("1-1ff", "1631")
        return s
    assert run(slouch_module, tmp_path, script("1630")) == []  # next to the Entry hex 1631
    found = run(slouch_module, tmp_path, script("2226"))  # far from 1631 and 2631 for MA 5
    assert rules(found) == ["9.33"] and "Entry hex" in found[0].message
    assert rules(run(slouch_module, tmp_path, script("1630", "1st Allied Exploitation Movement"))) == ["9.33"]
    found = run(slouch_module, tmp_path, script("1630", back=True))  # in, and out again
    assert rules(found) == ["9.33"] and "rest of the Segment" in found[0].message


def test_9_33_the_greece_box_opens_by_land_with_axis_event_e(slouch_module, tmp_path):
    def script(play: bool):
        def s(w):
            e = w.event_marker("E")
            w.move("iii-16rtt", "Greece Holding Box")  # set-up
            w.phase(1, "Special Events")
            w.draw(e, "Axis")
            if play:
                w.play_event(e, "Axis")  # Transit through Turkey (20.22E)
            w.phase(1, "2nd Axis Movement")
            w.move("iii-16rtt", "1302")
        return s
    assert [f.rule for f in run(slouch_module, tmp_path, script(True)) if f.rule == "9.33"] == []
    found = run(slouch_module, tmp_path, script(False))
    assert [f.rule for f in found] == ["9.33"] and "Axis Event E" in found[0].message


def test_5_41_conditional_groups_within_their_turns(slouch_module, tmp_path):
    def early(w):
        w.phase(2, "Reinforcements")
        w.move("turk-armor", "1302")  # from III June (20.22D)
    assert rules(run(slouch_module, tmp_path, early)) == ["5.41"]

    def on_time(w):
        w.phase(3, "Reinforcements")
        w.move("turk-armor", "1302")
    assert run(slouch_module, tmp_path, on_time) == []

    def felmy(play: bool):
        def s(w):  # Sonderstab Felmy enters by Axis Event C (20.22C), played in the Reinforcements phase
            c = w.event_marker("C")
            w.phase(1, "Special Events")
            w.draw(c, "Axis")
            w.phase(1, "Reinforcements")
            if play:
                w.play_event(c, "Axis")
            w.move("sk-f", "1900")
        return s
    assert run(slouch_module, tmp_path, felmy(True)) == []
    found = run(slouch_module, tmp_path, felmy(False))
    assert rules(found) == ["5.41"] and "Axis Event C" in found[0].message


# ---- combat (10-12) -----------------------------------------------------------------------------------
def coast_attack(w, die: int = 4, support=("2-4fd-a",)):
    w.phase(1, "1st Allied Movement")
    w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
    w.phase(1, "1st Allied Combat")
    w.combat(["21-7a", "6cav-a"], "i-24rmic", die, side="Allied", support=support, supply=("21-7a", "6cav-a"))


def test_10_42_odds_shifts_and_the_crt(slouch_module, tmp_path):
    a = auditor(slouch_module, tmp_path, coast_attack)
    c = a.combats[0]
    assert "attack 5-5 against defense 2" in c.odds and "columns 3-1, 4-1" in c.odds
    assert sorted(c.results) == ["D2R", "D2R*"]


def test_10_12_attacks_declared_at_the_end_of_movement(slouch_module, tmp_path):
    def script(w):
        w.move("i-22rta", "1520")  # to Damour: in 1625 its ZOC on 1525 must be attacked too (10.15)
        w.phase(1, "1st Allied Movement")
        w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
        for a in ("21-7a", "6cav-a"):
            w.declare(a, "Declare attacker")
        w.declare("i-24rmic", "Declare defender")
        w.phase(1, "1st Allied Combat")
        w.declare("2-4fd-a", "Artillery support")
        w.roll("Allied combat die", [4], "Allied")
        w.flip("2-4fd-a")  # to its Fired side (11.18)
        w.send("i-24rmic", "To Cadre Box")
        w.phase(1, "1st Allied Exploitation Movement")
    assert run(slouch_module, tmp_path, script) == []


def test_10_11_attacks_declared_together_are_not_judged(slouch_module, tmp_path):
    """Two attacks declared at once: two dice are accepted, a third is one too many (10.43)."""
    def script(dice: int):
        def s(w):
            w.phase(1, "1st Allied Movement")
            w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
            w.move_units(["5-4ind", "1fd-ra"], "2426")
            for a, d in (("21-7a", "i-24rmic"), ("5-4ind", "4rst")):
                w.declare(a, "Declare attacker")
                w.declare(d, "Declare defender")
            w.phase(1, "1st Allied Combat")
            for die in (4, 3, 2)[:dice]:
                w.roll("Allied combat die", [die], "Allied")
            w.send("i-24rmic", "To Cadre Box")
            w.move("21-7a", "1524")
            w.phase(1, "1st Allied Exploitation Movement")
        return s
    assert run(slouch_module, tmp_path, script(2)) == []
    assert rules(run(slouch_module, tmp_path, script(3))) == ["10.43"]


def test_20_14_an_event_played_in_combat_widens_the_odds(slouch_module, tmp_path):
    def script(w):
        w.phase(1, "1st Allied Movement")
        w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
        w.phase(1, "1st Allied Combat")
        w.report("Allied plays event H: Victoria Cross (20.21H)")  # 1 column either way
        w.combat(["21-7a", "6cav-a"], "i-24rmic", 4, side="Allied", support=("2-4fd-a",), supply=("21-7a", "6cav-a"))
    c = auditor(slouch_module, tmp_path, script).combats[0]
    assert "columns 2-1, 3-1, 4-1, 5-1" in c.odds and "event marker" in c.odds


def test_10_53_the_light_unit_example(slouch_module, tmp_path):
    """The rulebook's example: 21/7A, 25/7A, 5(-)/4 Ind and the reduced 5/1 attack V-IRTM and 8
    RSA in mountain hex 1615: 25 against 6, 4-1."""
    def script(w):
        w.move("i-6rei", "1614")
        for u in ("v-1rtm", "8rsa"):
            w.move(u, "1615")
        for u in ("21-7a", "25-7a"):
            w.move(u, "1616")
        for u in ("5-4ind", "5-1ff"):
            w.move(u, "1715")
        w.flip("5-1ff")
        w.phase(1, "1st Allied Combat")
        w.combat(["21-7a", "25-7a", "5-4ind", "5-1ff"], "v-1rtm", 1, side="Allied",
                 supply=("21-7a", "25-7a", "5-4ind", "5-1ff"))
    a = auditor(slouch_module, tmp_path, script)
    assert "attack 25-25 against defense 6" in a.combats[0].odds and "columns 4-1" in a.combats[0].odds


def test_12_21_losses_and_retreats_as_the_result_says(slouch_module, tmp_path):
    def legal(w):
        w.move("i-22rta", "1520")  # to Damour: in 1625 it would have to be attacked too (10.15)
        coast_attack(w)
        w.send("i-24rmic", "To Cadre Box")
        w.move("21-7a", "1524")
        w.phase(1, "1st Allied Exploitation Movement")
    assert run(slouch_module, tmp_path, legal) == []

    def one_step(w):
        w.move("i-22rta", "1520")  # to Damour: in 1625 it would have to be attacked too (10.15)
        coast_attack(w)
        w.flip("i-24rmic")
        w.move("i-24rmic", "1523")
        w.phase(1, "1st Allied Exploitation Movement")
    found = run(slouch_module, tmp_path, one_step)
    assert rules(found) == ["12.21"] and "(reconstructed table)" in found[0].message

    def attacker_extra(w):
        w.move("i-22rta", "1520")  # to Damour: in 1625 it would have to be attacked too (10.15)
        coast_attack(w)
        w.send("i-24rmic", "To Cadre Box")
        w.flip("21-7a")
        w.phase(1, "1st Allied Exploitation Movement")
    assert rules(run(slouch_module, tmp_path, attacker_extra)) == ["12.21"]


def test_12_21_an_attackers_result_applied_to_the_defender_is_found_at_the_act(slouch_module, tmp_path):
    def script(loser: str):
        def s(w):  # I/22 RTA (2) on 21/7 A and 6 Cav (5): 1-3 or 1-2, die 2: A1
            w.move_units(["21-7a", "6cav-a"], "1525")
            w.move("2-3mg-a", "1726")  # out of I/22 RTA's ZOC: it would have to be attacked too (10.15)
            w.phase(1, "2nd Axis Combat")
            w.combat(["i-22rta"], "21-7a", 2, side="Axis", supply=("i-22rta",))
            w.flip(loser)
            w.phase(1, "2nd Axis Exploitation Movement")
        return s
    assert run(slouch_module, tmp_path, script("i-22rta")) == []
    found = run(slouch_module, tmp_path, script("21-7a"))
    assert rules(found) == ["12.21"] and found[0].step == 9 and found[0].piece.startswith("21")


def test_12_24_a_special_result_costs_an_armor_step_or_an_air_unit(slouch_module, tmp_path):
    def script(armor_step: bool):
        def s(w):  # 21/7 A, 6 Cav and the FF tanks (7) on I/24 RMIC and 6 RCA (armor, 5, supplied): 1-1, die 1: A1*
            w.move("i-22rta", "1520")  # to Damour: in 1625 its ZOC on 1525 must be attacked too (10.15)
            w.move("chars-ff", "1525")
            w.move("6rca", "1524")
            w.phase(1, "1st Allied Movement")
            w.move_units(["21-7a", "6cav-a"], "1525")
            w.phase(1, "1st Allied Combat")
            w.combat(["21-7a", "6cav-a", "chars-ff"], "i-24rmic", 1, side="Allied",
                     supply=("21-7a", "6cav-a", "chars-ff", "i-24rmic"))
            w.flip("21-7a")  # A1
            if armor_step:
                w.send("chars-ff", "To Cadre Box")  # the '*': a step of the armor (both sides have armor)
            w.phase(1, "1st Allied Exploitation Movement")
        return s
    assert run(slouch_module, tmp_path, script(True)) == []
    found = run(slouch_module, tmp_path, script(False))
    assert rules(found) == ["12.24"] and "A1*" in found[0].message


def test_12_3_retreats(slouch_module, tmp_path):
    def attack(to: str | None):
        def s(w):  # 5/4 Ind doubled (Light defenders): 6 against 2, 3-1, +1 artillery: 4-1, die 3: D2R
            w.phase(1, "1st Allied Movement")
            w.move_units(["5-4ind", "1fd-ra"], "2426")
            w.phase(1, "1st Allied Combat")
            w.combat(["5-4ind"], "4rst", 3, side="Allied", support=("1fd-ra",), supply=("5-4ind",))
            w.flip("4rst")
            w.send("tcherkess", "To Cadre Box")
            if to:
                w.move("4rst", to)
            w.phase(1, "1st Allied Exploitation Movement")
        return s
    assert run(slouch_module, tmp_path, attack("2424")) == []
    assert run(slouch_module, tmp_path, attack("2323")) == []  # two hexes
    assert rules(run(slouch_module, tmp_path, attack(None))) == ["12.3"]
    assert rules(run(slouch_module, tmp_path, attack("2421"))) == ["12.31"]


def test_12_4_retreats_and_enemy_zoc(slouch_module, tmp_path):
    def attack(*to: str):
        def s(w):  # as test_12_3_retreats: D2R on 2425; 5/4 Ind in 2426 puts 2325, 2525 and 2326 in its ZOC
            w.phase(1, "1st Allied Movement")
            w.move_units(["5-4ind", "1fd-ra"], "2426")
            w.phase(1, "1st Allied Combat")
            w.combat(["5-4ind"], "4rst", 3, side="Allied", support=("1fd-ra",), supply=("5-4ind",))
            w.flip("4rst")
            w.send("tcherkess", "To Cadre Box")
            for h in to:
                w.move("4rst", h)
            w.phase(1, "1st Allied Exploitation Movement")
        return s
    assert run(slouch_module, tmp_path, attack("2424")) == []
    found = run(slouch_module, tmp_path, attack("2325"))  # ends in a vacant hex in enemy ZOC
    assert rules(found) == ["12.4"] and "ends in 2325" in found[0].message
    found = run(slouch_module, tmp_path, attack("2325", "2225"))  # through one, not motorized, alone
    assert rules(found) == ["12.4"] and "not motorized" in found[0].message

    def escorted(w):  # 7 RCA (armored cars, motorized) with them: 6-6, columns 3-2/2-1, die 6: D2R or D2R*
        w.move("7rca", "2425")  # set-up
        w.phase(1, "1st Allied Movement")
        w.move_units(["5-4ind", "1fd-ra"], "2426")
        w.phase(1, "1st Allied Combat")
        w.combat(["5-4ind"], "4rst", 6, side="Allied", support=("1fd-ra",), supply=("5-4ind",))
        w.flip("4rst")
        w.send("tcherkess", "To Cadre Box")
        for u in ("7rca", "4rst"):
            w.move(u, "2325")
            w.move(u, "2225")
        w.phase(1, "1st Allied Exploitation Movement")
    found = run(slouch_module, tmp_path, escorted)  # through 2325 while 2324-2224 avoids the ZOC (12.41)
    assert rules(found) == ["12.4", "12.4"] and "another retreat" in found[0].message


def test_12_3_no_retreat_without_a_retreat_result(slouch_module, tmp_path):
    def script(w):
        w.phase(1, "2nd Axis Combat")  # I/22 RTA (2) on 2/3 MG (2) in rough 1725: 1-1 or 3-2, die 1
        w.combat(["i-22rta"], "2-3mg-a", 1, side="Axis", supply=("i-22rta",))
    a = auditor(slouch_module, tmp_path, script)
    assert a.combats[0].results and not any(r.dr for r in a.combats[0].results.values())

    def moves(w):
        w.phase(1, "2nd Axis Combat")
        w.combat(["i-22rta"], "2-3mg-a", 1, side="Axis", supply=("i-22rta",))
        w.move("2-3mg-a", "1726")
    assert "12.3" in rules(run(slouch_module, tmp_path, moves))


def test_12_22_the_cadre_box_unless_eliminated(slouch_module, tmp_path):
    def script(command: str):
        def s(w):
            w.phase(1, "2nd Axis Combat")
            w.combat(["i-22rta"], "2-4fd-a", 1, side="Axis", supply=("i-22rta",))
            w.send("2-4fd-a", command)
            w.phase(1, "2nd Axis Exploitation Movement")
        return s

    def setup_then(command):
        inner = script(command)

        def s(w):
            w.move("2-4fd-a", "1525")
            w.move("2-3mg-a", "1726")  # out of I/22 RTA's ZOC: it would have to be attacked too (10.15)
            inner(w)
        return s
    assert run(slouch_module, tmp_path, setup_then("To Cadre Box")) == []
    assert rules(run(slouch_module, tmp_path, setup_then("Eliminate"))) == ["12.22"]


def test_12_5_advance_after_combat(slouch_module, tmp_path):
    def early(w):
        coast_attack(w, die=2)  # 3-1 D1R / 4-1 D2
        w.move("21-7a", "1524")  # before the defender left
    assert "12.51" in rules(run(slouch_module, tmp_path, early))

    def artillery(w):
        coast_attack(w)
        w.send("i-24rmic", "To Cadre Box")
        w.move("2-4fd-a", "1524")
    assert rules(run(slouch_module, tmp_path, artillery)) == ["12.56"]

    def elsewhere(w):
        coast_attack(w)
        w.send("i-24rmic", "To Cadre Box")
        w.move("6cav-a", "1526")
    assert rules(run(slouch_module, tmp_path, elsewhere)) == ["12.52"]


def test_10_12_10_43_each_die_bound_to_one_declared_combat(slouch_module, tmp_path):
    def bare(w):
        w.phase(1, "1st Allied Combat")
        w.roll("Allied combat die", [3], "Allied")
    assert rules(run(slouch_module, tmp_path, bare)) == ["10.12"]

    def twice(w):
        coast_attack(w)
        w.roll("Allied combat die", [6], "Allied")
    assert rules(run(slouch_module, tmp_path, twice))[:1] == ["10.43"]

    def defender_rolls(w):
        w.phase(1, "1st Allied Combat")
        w.roll("Axis combat die", [3], "Axis")
    assert rules(run(slouch_module, tmp_path, defender_rolls)) == ["10.43"]

    def outside(w):
        w.phase(1, "1st Allied Movement")
        w.roll("Allied combat die", [3], "Allied")
    assert rules(run(slouch_module, tmp_path, outside)) == ["10.43"]


def test_10_13_attackers_next_to_the_defender_hex_10_32_once(slouch_module, tmp_path):
    def far(w):
        w.phase(1, "1st Allied Combat")
        w.combat(["2-3mg-a"], "iii-16rtt", 3, side="Allied")
    assert rules(run(slouch_module, tmp_path, far)) == ["10.13"]

    def twice(w):
        coast_attack(w)
        w.send("i-24rmic", "To Cadre Box")
        w.combat(["21-7a"], "i-22rta", 3, side="Allied")
    assert rules(run(slouch_module, tmp_path, twice)) == ["10.32"]


def test_10_26_armor_attacks_mountain_only_along_a_road_or_trail(slouch_module, tmp_path):
    def script(unit: str):
        def s(w):
            w.move(unit, "1616")
            w.phase(1, "1st Allied Combat")
            w.combat([unit], "i-6rei", 6, side="Allied", supply=(unit,))
        return s
    assert run(slouch_module, tmp_path, script("25-7a")) == []
    assert rules(run(slouch_module, tmp_path, script("chars-ff"))) == ["10.26"]


def test_10_16_10_31_11_13_strength_odds_and_range(slouch_module, tmp_path):
    def artillery_attacks(w):
        coast_attack(w)
        w.send("i-24rmic", "To Cadre Box")
        w.move("21-7a", "1524")
        w.combat(["2-4fd-a"], "i-22rta", 3, side="Allied")
    assert rules(run(slouch_module, tmp_path, artillery_attacks)) == ["10.16"]

    def low_odds(w):
        w.move("2-3mg-a", "1616")
        w.phase(1, "1st Allied Combat")
        w.combat(["2-3mg-a"], "i-6rei", 3, side="Allied", supply=("2-3mg-a",))  # 1 against 3 x 2 (mountain)
    assert rules(run(slouch_module, tmp_path, low_odds)) == ["10.31"]

    def out_of_range(w):
        coast_attack(w, support=("2-4fd-a", "1rac-ff"))
    assert rules(run(slouch_module, tmp_path, out_of_range)) == ["11.13"]


def test_3_43_artillery_fires_once_a_segment(slouch_module, tmp_path):
    def script(again: bool):
        def s(w):  # 1 Fd RA supports 5/4 Ind on 2425, then (again) a second attack on 2424
            w.phase(1, "1st Allied Movement")
            w.move_units(["5-4ind", "1fd-ra"], "2426")
            w.move("tjff", "2526")
            w.move("tjff", "2525")
            w.phase(1, "1st Allied Combat")
            w.combat(["5-4ind"], "4rst", 1, side="Allied", support=("1fd-ra",), supply=("5-4ind",))
            w.combat(["tjff"], "4rst", 1, side="Allied", support=("1fd-ra",) if again else (), supply=("tjff",))
        return s
    found = [f.rule for f in run(slouch_module, tmp_path, script(True))]
    assert "3.43" in found and "3.43" not in [f.rule for f in run(slouch_module, tmp_path, script(False))]


# ---- air and VPs (13.13, 18.15, 18.31) --------------------------------------------------------------
def test_13_13_two_air_units_an_airfield(slouch_module, tmp_path):
    def script(n: int):
        def s(w):
            w.phase(1, "2nd Axis Movement")
            for m in ("air-gb-i12", "air-gb-i31")[:n]:
                w.move(m, "2220")
            w.phase(1, "2nd Axis Combat")
        return s
    assert run(slouch_module, tmp_path, script(1)) == []
    found = run(slouch_module, tmp_path, script(2))
    assert rules(found) == ["13.13"] and "(reconstructed table)" in found[0].message

    def iraq(n: int):  # the Iraq Holding Box holds 3 (reconstructed); 84 Sqn is there at the start
        def s(w):
            w.phase(1, "1st Allied Movement")
            for m in ("air-80sqn", "air-11sqn", "air-3raaf")[:n]:
                w.move(m, "Iraq Holding Box")
            w.phase(1, "1st Allied Combat")
        return s
    assert run(slouch_module, tmp_path, iraq(2)) == []
    found = run(slouch_module, tmp_path, iraq(3))
    assert rules(found) == ["13.13"] and found[0].to_hex == "Iraq Holding Box"


def test_13_36_bombers_fly_cas_only_into_mountain_or_a_left_shift(slouch_module, tmp_path):
    def script(air: str, defender_hex: str):
        def s(w):
            if defender_hex != "1524":  # set-up: the defender in a mountain hex (1615), or where it is (1524)
                w.move("i-24rmic", defender_hex)
            w.move("21-7a", "1616" if defender_hex == "1615" else "1525")
            w.phase(1, "1st Allied Combat")
            w.declare("21-7a", "Declare attacker")
            w.declare("i-24rmic", "Declare defender")
            w.move(air, defender_hex)  # close air support (13.3)
            w.roll("Allied combat die", [4], "Allied")
        return s

    def bombers(found):
        return [(f.rule, f.piece) for f in found if f.rule == "13.36"]
    assert bombers(run(slouch_module, tmp_path, script("air-11sqn", "1615"))) == []  # a Blenheim into mountain
    assert bombers(run(slouch_module, tmp_path, script("air-80sqn", "1524"))) == []  # a Hurricane anywhere
    found = run(slouch_module, tmp_path, script("air-11sqn", "1524"))
    assert bombers(found) == [("13.36", "11 Squadron RAF (Blenheim) (Allied)")]
    assert [f.step for f in found if f.rule == "13.36"] == [6]  # at the die, the log's sixth step


def test_18_15_at_most_ten_unspent_vps(slouch_module, tmp_path):
    def script(box: str):
        def s(w):
            w.phase(1, "Victory Determination")
            w.move("vp-axis", box)
            w.phase(2, "Turn Record")
        return s
    assert run(slouch_module, tmp_path, script("VP 10")) == []
    assert rules(run(slouch_module, tmp_path, script("VP 12"))) == ["18.15"]


def test_18_31_the_surrender_roll(slouch_module, tmp_path):
    def script(turn: int, phase: str, rolls: int = 1):
        def s(w):
            w.phase(turn, phase)
            for _ in range(rolls):
                w.roll("Allied Vichy Surrender die", [4], "Allied")
        return s
    assert run(slouch_module, tmp_path, script(3, "Victory Determination")) == []
    assert rules(run(slouch_module, tmp_path, script(2, "Victory Determination"))) == ["18.31"]
    assert rules(run(slouch_module, tmp_path, script(3, "Bombardment"))) == ["18.31"]
    assert rules(run(slouch_module, tmp_path, script(4, "Engineering", rolls=2))) == ["18.31"]


def test_an_illegal_move_undone_is_never_made(slouch_module, tmp_path):
    """Real play: a drag taken back with Undo (the engine's UNDO step) counts as never made."""
    def script(undo: bool):
        def s(w):
            w.phase(1, "1st Allied Movement")
            w.move("staffs-yeo", "2024")  # into an enemy hex (8.15)
            if undo:
                w.undo()
        return s
    assert rules(run(slouch_module, tmp_path, script(False))) == ["8.15"]
    assert run(slouch_module, tmp_path, script(True)) == []


def test_18_2_the_game_ends_at_a_sudden_victory(slouch_module, tmp_path):
    game = slouch_module[0]

    def script(last: int, go_on: bool):
        def s(w):
            w.phase(1, "2nd Axis Combat")
            axis = [pid for pid, p in w.board.pieces.items()
                    if p.properties().get("Side") == "Axis" and p.properties().get("UnitId")
                    and w.location(p.map, p.x, p.y) in game.geometry]
            for pid in axis[:last]:  # every Axis unit of the map to the Eliminated Box (or all but one)
                w.move(pid, "Axis Eliminated")
            if go_on:
                w.phase(1, "2nd Axis Exploitation Movement")
                w.phase(1, "2nd Axis Administrative")
        return s
    assert run(slouch_module, tmp_path, script(-1, True)) == []  # one Axis unit left on the map
    assert run(slouch_module, tmp_path, script(None, False)) == []  # the log ends there
    found = run(slouch_module, tmp_path, script(None, True))
    assert rules(found) == ["18.2"] and "Exploitation" in found[0].message


def test_11_18_fired_artillery_turns_back_in_its_administrative_phase(slouch_module, tmp_path):
    def script(phase: str, oos: bool = False):
        def s(w):  # 2/4 Fd (the only artillery in 1526) under a Fired marker (set-up)
            fired = w.place("fired", "1526", side="Allied")
            if oos:
                w.place("oos", "1526", side="Allied")
            w.phase(1, phase)
            w.remove(fired)
        return s
    assert run(slouch_module, tmp_path, script("1st Allied Administrative")) == []
    found = run(slouch_module, tmp_path, script("1st Allied Movement"))
    assert rules(found) == ["11.18"] and found[0].piece.startswith("2/4")
    assert rules(run(slouch_module, tmp_path, script("2nd Axis Administrative"))) == ["11.18"]
    assert rules(run(slouch_module, tmp_path, script("1st Allied Administrative", oos=True))) == ["11.18"]

    def carried(w):  # the marker dragged along with its stack: no turning back
        w.place("fired", "1526", side="Allied")
        w.phase(1, "1st Allied Movement")
        w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
    assert "11.18" not in rules(run(slouch_module, tmp_path, carried))

    def fires(marked: bool):
        def s(w):
            w.move("i-22rta", "1520")
            w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
            if marked:
                w.place("fired", "1525", side="Allied")
            w.phase(1, "1st Allied Combat")
            w.combat(["21-7a", "6cav-a"], "i-24rmic", 4, side="Allied", support=("2-4fd-a",), supply=("21-7a", "6cav-a"))
        return s
    assert "11.13" not in rules(run(slouch_module, tmp_path, fires(False)))
    found = [f for f in run(slouch_module, tmp_path, fires(True)) if f.rule == "11.13"]
    assert len(found) == 1 and "Fired" in found[0].message


# ---- the artillery's Fired side and the SP an attack spends (3.43, 11.18, 6.61) --------------------------
def test_11_18_artillery_turns_to_its_fired_side_after_its_fire_support(slouch_module, tmp_path):
    def script(flip: bool):
        def s(w):  # 2/4 Fd supports the coast attack; the writer's combat would flip it: declared by hand
            w.phase(1, "1st Allied Movement")
            w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
            w.phase(1, "1st Allied Combat")
            for a in ("21-7a", "6cav-a"):
                w.declare(a, "Declare attacker")
            w.declare("i-24rmic", "Declare defender")
            w.declare("2-4fd-a", "Artillery support")
            w.roll("Allied combat die", [4], "Allied")
            if flip:
                w.flip("2-4fd-a")
            w.send("i-24rmic", "To Cadre Box")
            w.move("i-22rta", "1520")  # (10.15 aside: I/22 RTA's ZOC is not judged here)
            w.phase(1, "1st Allied Exploitation Movement")
        return s
    legal = [f.rule for f in run(slouch_module, tmp_path, script(True))]
    found = run(slouch_module, tmp_path, script(False))
    assert "11.18" not in legal
    mine = [f for f in found if f.rule == "11.18"]
    assert len(mine) == 1 and mine[0].piece.startswith("2/4") and "not on its Fired side" in mine[0].message
    assert [f.rule for f in found if f.rule != "11.18"] == legal


def test_11_18_the_fired_side_turns_back_in_its_administrative_phase(slouch_module, tmp_path):
    def script(phase: str):
        def s(w):
            coast_attack(w)  # 2/4 Fd fires and turns to its Fired side
            w.send("i-24rmic", "To Cadre Box")
            w.phase(1, phase)
            w.flip("2-4fd-a")  # back to active
        return s
    ok = run(slouch_module, tmp_path, script("1st Allied Administrative"))
    late = run(slouch_module, tmp_path, script("2nd Axis Movement"))
    assert "11.18" not in rules(ok)
    back = [f for f in late if f.rule == "11.18"]
    assert len(back) == 1 and "Administrative phase only" in back[0].message
    assert rules([f for f in late if f.rule != "11.18"]) == rules(ok)


def _msu_in(w, hex_id: str) -> str:
    return next(pid for pid, p in w.board.pieces.items() if p.properties().get("MarkerId") == "msu-allied"
                and w.location(p.map, p.x, p.y) == hex_id)


def test_6_61_the_sp_an_attack_spends_is_within_its_supply_line(slouch_module, tmp_path):
    def script(msu_hex: str):
        def s(w):  # the coast attack from 1525 spends an SP (6.63a): the MSU with it, or the one in 2527
            coast_attack(w)
            w.send("i-24rmic", "To Cadre Box")
            w.flip(_msu_in(w, msu_hex))  # 2 SP -> 1
            w.phase(1, "1st Allied Exploitation Movement")
        return s
    near = run(slouch_module, tmp_path, script("1525"))  # it came along with the 1526 stack
    far = run(slouch_module, tmp_path, script("2527"))
    assert "6.61" not in rules(near)
    spent = [f for f in far if f.rule == "6.61"]
    assert len(spent) == 1 and "2527" in spent[0].message and "at most 7 hexes" in spent[0].message
    assert rules([f for f in far if f.rule != "6.61"]) == rules(near)
