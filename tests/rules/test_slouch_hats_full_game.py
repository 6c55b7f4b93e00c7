"""Slouch Hats and Eggshells acceptance: a legal game of three turns of Operation Exporter (21.1),
and the same game with illegal acts planted in it.

The legal game must give no violation; the planted one must give each planted act, at its step,
with its rule number, and nothing else.  One script serves both (`plant` switches the illegal
acts on), so the two games share every legal act.  The game is played twice: units moved one at
a time, and stacks dragged whole.

The game: Turn 1 skips the First Axis Operations Segment (21.11).  The Allies cross the border:
21st Australian Brigade's stack up the coast road to 1525, the Free French to 2526, 5th Indian
Brigade to 2426.  Combat: 21/7A and 6 Cav (supplied, 2/4 Fd firing) on I/24 RMIC in 1524 -
attack 5 against 2 (2-1), +1 artillery, the defender's supply unknown: 3-1 or 4-1, die 4: D2R
(D2R* on 4-1); I/24 RMIC goes to the Cadre Box; 6 Cav does not advance.  I/22 RTA in 1625
projects a ZOC into 1525, so 2/3 MG attacks it from 1725 (10.15) and loses its step.  5(-)/4 Ind
(doubled: the spahis are Light) on 4 RST and the Circassians in 2425: 6 against 2, 3-1, +1 artillery, die 3:
D2R; 4 RST flips and retreats to 2424, the Circassians go to the Cadre Box, 5/4 Ind advances.
The Axis shifts II/22 RTA to Sidon and 7 RCA to 2016, and I/22 RTA attacks 21/7A and 2/4 Fd in
1525 (2 against 4 + 1 + 1: 1-3, or 1-2 with the defender out of supply; die 5: D1 on both): the
battery goes to the Cadre Box.  Turn 2: reinforcements to their boxes; the Axis releases the Homs
garrison and moves it; 5/4 Ind attacks 4 RST in 2424 (6 against 1, 6-1 +1: 7-1, die 2: D3R) and advances.
Turn 3: reinforcements, a Vichy Surrender roll, the VP marker at 3.  Special Events (20.1): on
Turn 1 the Allies draw four markers and the Axis three, the Allies play More Replacements in the
Reinforcements phase and put it back; on Turn 2 each side draws one and the Axis plays Active
Druze; on Turn 3 the Allies draw one.

Planted (rule): 18.31 a surrender roll on Turn 1, and a second one on Turn 3; 21.11 a unit
moving in the skipped segment; 8.15 into an enemy hex; 8.13 beyond the MA; 8.22 ZOC to ZOC; 8.21 on
through an enemy ZOC; 4.21 an Axis unit moving in the Allied Movement phase, and the tracker
going back; 10.12 a die with no combat declared; 11.13 a battery out of range; 10.43 a second
die; 12.52 an attacker moving off with no retreat result; 12.21 a step not taken; 8.42 an
exploitation by a unit that did not fight; 8.35 armor into a mountain hex; 5.62 a garrison
moving; 12.22 a lost unit to the Eliminated Box; 3.32 eight stacking points in a hex; 5.31 a
reinforcement a turn early; 5.32 one into the wrong box; 5.63 a second garrison release; 9.4
rail movement by the Allies; 9.21 strategic movement that ends next to the enemy; 10.32 an
advancing unit attacking again; 13.13 three air units on an airfield; 18.15 eleven unspent VPs
at the end of a turn; 20.12 a fourth Axis event marker drawn on Turn 1; 20.14 Victoria Cross
played in the Reinforcements phase; 20.11 a marker drawn in a Movement phase; 20.2 The Alawis
Revolt played with no VP on the track; 20.16 the Druze marker played again after the Axis played
its once-only event; 10.15 the Allied attack from 1525 with I/22 RTA left unattacked (the 2/3 MG
attack left out), and then the Axis attack from 1625 with 2/3 MG left unattacked; 15.2 a reduced
unit turned to full (and back) in a Movement phase.  (35 acts, 32 rules.)
"""
from __future__ import annotations

from tests.rules.planted import PlantedGame, assert_only_the_planted, audited
from tests.rules.slouch_play import SlouchWriter, slouch_module  # noqa: F401 (a fixture)


class Game(PlantedGame):
    """The script's state (PlantedGame), with phases set in a row."""

    def phases(self, turn: int, *names: str) -> None:
        for n in names:
            self.w.phase(turn, n)


def there_and_back(w: SlouchWriter, unit: str, to: str, back: str) -> None:
    w.move(unit, to)
    w.move(unit, back)


STRATEGIC = ("Special Events", "Reinforcements", "Supply Status", "First Supply Conversion", "Bombardment")


def turn_1(g: Game) -> None:
    w = g.w
    g.events = {c: w.event_marker(c) for c in "ABCDEFGHIJKL"}  # the Special Events Pool
    g.phases(1, "Special Events")
    g.illegal("18.31", lambda: w.roll("Allied Vichy Surrender die", [3], "Allied"))  # from III June
    for c in "AFHC":
        w.draw(g.events[c], "Allied")  # 20.12: four on the first turn
    for c in "BIK":
        w.draw(g.events[c], "Axis")  # and three
    g.illegal("20.12", lambda: w.draw(g.events["L"], "Axis"))  # a fourth: judged as the phase ends, found at the draw
    g.phases(1, "Reinforcements")
    w.play_event(g.events["F"], "Allied")  # More Replacements (20.21F)
    w.return_event(g.events["F"], "Allied")
    g.illegal("20.14", lambda: w.play_event(g.events["H"], "Allied"))  # Victoria Cross: a Combat phase
    g.illegal("5.31", lambda: there_and_back(w, "23-6", "Middle East Holding Box", "Turn 3"), later=-1)
    g.phases(1, "Supply Status", "First Supply Conversion", "Bombardment")
    g.phases(1, "1st Axis Transport", "1st Axis Movement")  # the tracker walks through what turn 1 skips
    g.illegal("21.11", lambda: there_and_back(w, "7rca", "2016", "2017"), later=-1)  # and a unit moves in it
    g.phases(1, "1st Allied Transport", "1st Allied Movement")
    g.group(["21-7a", "6cav-a", "2-4fd-a"], "1525")  # the coast road: 1/2 MP, into the ZOC of 1524
    g.group(["1-1ff", "2-1ff", "3-1ff"], "2526")
    g.group(["5-4ind", "1fd-ra"], "2426")  # into the ZOC of 2425
    g.illegal("8.15", lambda: there_and_back(w, "staffs-yeo", "2024", "1925"), later=-1)  # 8 RSA's hex
    g.illegal("8.13", lambda: there_and_back(w, "4-1ff", "3327", "2528"), later=-1)  # MA 5
    g.illegal("8.21", lambda: there_and_back(w, "6cav-a", "1523", "1525"), later=-1)  # beyond the ZOC of 1524
    g.illegal("4.21", lambda: there_and_back(w, "7rca", "2016", "2017"), later=-1)  # an Axis unit
    g.phases(1, "1st Allied Combat")
    g.illegal("10.12", lambda: w.roll("Allied combat die", [5], "Allied"))  # nothing declared
    support = ("2-4fd-a", "1rac-ff") if g.plant else ("2-4fd-a",)  # 1 RAC in 2627: out of range of 1524
    w.combat(["21-7a", "6cav-a"], "i-24rmic", 4, side="Allied", support=support, supply=("21-7a", "6cav-a"))
    if g.plant:  # found at the die, before the batteries turn to their Fired side (11.18)
        g.planted.append((g.step() - len(support), "11.13"))
    if g.plant:
        w.roll("Allied combat die", [4], "Allied")  # the combat's die again ...
        g.expect("10.43")
    w.send("i-24rmic", "To Cadre Box")  # D2R: two steps
    g.illegal("12.52", lambda: there_and_back(w, "6cav-a", "1526", "1525"), later=-1)  # no attacker retreat
    # 6 Cav does not advance (12.51: at the attacker's option)
    if not g.plant:  # 10.15: I/22 RTA's ZOC reaches 1525: it must be attacked (planted: it is not)
        w.combat(["2-3mg-a"], "i-22rta", 2, side="Allied", supply=("2-3mg-a", "i-22rta"))
        w.send("2-3mg-a", "To Cadre Box")  # its one step lost
    w.combat(["5-4ind"], "4rst", 3, side="Allied", support=("1fd-ra",), supply=("5-4ind",))
    w.flip("4rst")
    if g.plant:  # retreats instead of losing its step: judged when the combat closes, found at the retreat
        g.illegal("12.21", lambda: w.move("tcherkess", "2324"))
    else:
        w.send("tcherkess", "To Cadre Box")
    w.move("4rst", "2424")  # R: one hex
    w.move("5-4ind", "2425")  # advance
    g.phases(1, "1st Allied Exploitation Movement")
    g.expect("10.15")  # I/22 RTA, in 1525's ZOC, not attacked
    g.illegal("8.42", lambda: there_and_back(w, "chars-ff", "2628", "2627"), later=-1)  # did not fight
    g.phases(1, "1st Allied Administrative", "Second Supply Conversion", "2nd Axis Transport", "2nd Axis Movement")
    w.move("ii-22rta", "1521")  # to Sidon, the bridged road
    w.move("7rca", "2016")
    g.illegal("8.35", lambda: there_and_back(w, "6rca", "2018", "1918"), later=-1)  # armor into mountain
    g.illegal("20.11", lambda: w.draw(g.events["J"], "Axis"))  # drawn outside the Special Events phase
    g.illegal("5.62", lambda: there_and_back(w, "iv-6rei", "2010", "2011"), later=-1)  # a garrison
    g.phases(1, "2nd Axis Combat")
    w.combat(["i-22rta"], "2-4fd-a", 5, side="Axis", supply=("i-22rta",))  # 2 against 4 + 1: D1 (1-3 or 1-2)
    if g.plant:
        w.send("2-4fd-a", "Eliminate")
        g.expect("12.22")  # at the act
    else:
        w.send("2-4fd-a", "To Cadre Box")
    g.phases(1, "2nd Axis Exploitation Movement")
    g.expect("10.15")  # planted: 2/3 MG, still in 1725, is in I/22 RTA's ZOC and not attacked
    g.phases(1, "2nd Axis Administrative", "2nd Allied Transport", "2nd Allied Movement")
    g.group(["4-1ff", "5-1ff", "bim-ff"], "2526")  # 6 stacking points
    g.illegal("8.22", lambda: there_and_back(w, "21-7a", "1524", "1525"), later=-1)  # I/22 RTA's ZOC to ZOC
    if g.plant:
        w.move("tjff", "2526")
        w.move("spahis-ff", "2526")
        g.expect("3.32")  # 8 points: judged when the Movement phase ends, at the move that made them
    g.phases(1, "2nd Allied Combat")
    g.phases(1, "2nd Allied Exploitation Movement", "2nd Allied Administrative", "Engineering",
             "Victory Determination")


def turn_2(g: Game) -> None:
    w = g.w
    g.phases(2, "Turn Record", "Special Events")
    w.draw(g.events["D"], "Allied")
    w.draw(g.events["E"], "Axis")
    g.phases(2, "Reinforcements")
    w.play_event(g.events["B"], "Axis")  # Active Druze: no VP, once only (20.22B)
    if g.plant:
        w.return_event(g.events["B"], "Axis")  # back into the pool all the same
    g.illegal("20.2", lambda: w.play_event(g.events["A"], "Allied"))  # 2 VPs, the track at 0
    for u in ("16-6", "2-6fd-a"):
        w.move(u, "Middle East Holding Box")
    if g.plant:
        w.move("9cav-a", "Iraq Holding Box")
        g.expect("5.32")
        w.move("9cav-a", "Middle East Holding Box")
    else:
        w.move("9cav-a", "Middle East Holding Box")
    for u in ("rta", "repl-v1"):
        w.move(u, "Greece Holding Box")
    w.declare("iv-6rei", "Release garrison")
    g.illegal("5.63", lambda: w.declare("iii-6rei", "Release garrison"))  # a second one
    g.phases(2, "Supply Status", "First Supply Conversion", "Bombardment", "1st Axis Transport", "1st Axis Movement")
    w.move("iv-6rei", "2012")  # released: it moves
    g.illegal("15.2", lambda: (w.flip("4rst"), w.flip("4rst")), later=-1)  # a step back in a Movement phase
    g.phases(2, "1st Axis Combat", "1st Axis Exploitation Movement", "1st Axis Administrative",
             "1st Allied Transport", "1st Allied Movement")
    if g.plant:
        w.declare("1-1ff", "Rail movement")
    g.illegal("9.4", lambda: there_and_back(w, "1-1ff", "2426", "2526"), later=-1)
    if g.plant:
        w.declare("2-5fd-a", "Strategic movement")
    g.illegal("9.21", lambda: there_and_back(w, "2-5fd-a", "1823", "1824"), later=-1)  # ends next to 1722
    g.illegal("4.21", lambda: w.phase(2, "1st Allied Transport"))  # back
    if g.plant:
        w.phase(2, "1st Allied Movement")
    g.phases(2, "1st Allied Combat")
    w.combat(["5-4ind"], "4rst", 2, side="Allied", support=("1fd-ra",), supply=("5-4ind",))  # 7-1: D3R
    w.send("4rst", "To Cadre Box")
    w.move("5-4ind", "2424")  # advance
    if g.plant:
        w.combat(["5-4ind"], "tcherkess", 6, side="Allied", supply=("5-4ind",))
        g.expect("10.32")  # it attacked already this phase
    g.phases(2, "1st Allied Exploitation Movement", "1st Allied Administrative", "Second Supply Conversion",
             "2nd Axis Transport", "2nd Axis Movement")
    if g.plant:
        w.move("air-gb-i12", "2220")
        w.move("air-gb-i31", "2220")
        g.expect("13.13")  # three air units on Damascus' airfield: judged at the phase's end, at the third
    g.phases(2, "2nd Axis Combat")
    if g.plant:
        w.move("air-gb-i12", "1900")
        w.move("air-gb-i31", "2011")
    g.phases(2, "2nd Axis Exploitation Movement", "2nd Axis Administrative", "2nd Allied Transport",
             "2nd Allied Movement", "2nd Allied Combat", "2nd Allied Exploitation Movement",
             "2nd Allied Administrative", "Engineering", "Victory Determination")


def turn_3(g: Game) -> None:
    w = g.w
    g.phases(3, "Turn Record", "Special Events")
    w.draw(g.events["B" if g.plant else "G"], "Allied")
    g.phases(3, "Reinforcements")
    g.illegal("20.16", lambda: w.play_event(g.events["B"], "Allied"))  # the Axis played its once-only B
    w.move("23-6", "Middle East Holding Box")
    for u in ("4cav-bde", "1essex", "arab-legion", "237bty", "ches-yeo"):
        w.move(u, "Iraq Holding Box")
    w.move("repl-v2", "Greece Holding Box")
    g.phases(3, "Supply Status", "First Supply Conversion", "Bombardment", "1st Axis Transport", "1st Axis Movement",
             "1st Axis Combat", "1st Axis Exploitation Movement", "1st Axis Administrative", "1st Allied Transport",
             "1st Allied Movement", "1st Allied Combat", "1st Allied Exploitation Movement",
             "1st Allied Administrative", "Second Supply Conversion", "2nd Axis Transport", "2nd Axis Movement",
             "2nd Axis Combat", "2nd Axis Exploitation Movement", "2nd Axis Administrative", "2nd Allied Transport",
             "2nd Allied Movement", "2nd Allied Combat", "2nd Allied Exploitation Movement",
             "2nd Allied Administrative", "Engineering", "Victory Determination")
    w.roll("Allied Vichy Surrender die", [2], "Allied")
    g.illegal("18.31", lambda: w.roll("Allied Vichy Surrender die", [6], "Allied"))  # once a turn
    w.move("vp-allied", "VP 11" if g.plant else "VP 3")
    w.phase(4, "Turn Record")
    g.expect("18.15")


def play(slouch, tmp_path, plant: bool, drag: bool):
    game, vmod = slouch
    w = SlouchWriter(game, vmod, "exporter.vsav")
    g = Game(w, plant, drag)
    for part in (turn_1, turn_2, turn_3):
        part(g)
    return g, audited(g, game, tmp_path)


def test_the_legal_game_has_no_violation(slouch_module, tmp_path, drag):
    _, report = play(slouch_module, tmp_path, plant=False, drag=drag)
    assert [(f.step, f.rule, f.message) for f in report.violations] == []
    assert report.summary.last_turn == 4 and report.summary.steps > 100


def test_every_planted_act_is_found_and_nothing_else(slouch_module, tmp_path, drag):
    g, report = play(slouch_module, tmp_path, plant=True, drag=drag)
    assert_only_the_planted(g, report, acts=20, rules=12)
