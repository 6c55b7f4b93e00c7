"""Tobrouk 41-42 acceptance: a legal Battleaxe game of three turns (two and the extra one, 8.2),
and the same game with illegal acts planted in it.

The legal game must give no violation; the planted one must give each planted act, at its
step, with its rule number, and nothing else.  One script serves both (`plant` switches the
illegal acts on), so the two games share every legal act.  The game is played twice: units
moved one at a time, and the stack at 1030 dragged whole.

The game (11.5, the example of play 10.B-C): Turn 1, Commonwealth initiative by the scenario;
the CW chooses 5 MP; the 11th Hussars go to 0824, 22nd Guards to 1228 by the road, the XXX Corps
CG to 1125 (10.B).  Combat: 22 Gds fires at 33 PzJag in Capuzzo (AT 3, die 6 -1 entrenched
-1 crest: T); 15th Motorcycle fires back (AP 5, die 6 -1 crest: T1); 22 Gds loses a step, its
T1 becomes a T, it passes its morale (4+4 <= 8); the Axis pair at Capuzzo passes too.  The Axis
reacts with 3 MP; equalisation at 5; a second pair of 2 MP each.  Turn 2: CW initiative 6 on
column 0 (C); 3 MP, 4th Indian's stack goes up the road to 1129; the Axis 3.  Turn 3 (extra):
8 MP, the Axis 3, equalised at 8.

Planted (rule): 11.5 an initiative roll on Turn 1; 2.22 an Axis unit moving in the CW
maneuver; 4.1 a foot brigade 6 MP away on a 5 MP maneuver; 7.1 the Hussars into an enemy hex;
5.1 a fire die in a maneuver; 5.1 a fire die with nothing declared; 5.1 a shot at a unit three
hexes away; 5.1 a second shot by 22 Gds; 5.1 a T placed on a '-' result; 6.1 a step taken by an unhit unit; 6.2 a failed morale
roll taken as a pass; 7.1 two tank units stacked at the end of the Axis maneuver; 4.2 a move
into the sea; 5.10 offensive fire by an entrenched unit; 2 a move in phase F; 2.1 a second
initiative roll; 2.1 an initiative roll in phase B; 2.24 the reactive player over the Maneuver
Table's cell; 2 the turn tracker going back; 2.23 an 'Int' row; 7.31 a Combat Group stacked;
8.2 a fourth turn; 11.5 a 21st Panzer reserve moving unreleased (11.5i); 11.5 a 4th Indian
brigade entering far from 1030 (11.5l); 6.5 the AK HQ flipped with no shot at it, and flipped
back; 6.5 the XXX Corps HQ eliminated though not encircled; 9 the I/V marker moved for no reason;
3.7 an RE marker placed before a whole turn out of supply, and a CR on supplied units; 7.32 a
Combat Group placed beyond its HQ's range; 4.43 a breach in a hex next to enemy units.
"""
from __future__ import annotations

from tests.rules.planted import PlantedGame, assert_only_the_planted, audited
from tests.rules.tobrouk_play import TobroukWriter


class Game(PlantedGame):
    """The script's state (PlantedGame) and each side's MP marker."""

    def __init__(self, w: TobroukWriter, plant: bool, drag: bool):
        super().__init__(w, plant, drag)
        self.mp = {"cw": 0, "axis": 0}

    def choose(self, side: str, mp: int) -> None:
        self.mp[side] = mp
        self.w.move(f"mp-{side}", f"MP {mp}")

    def equalise(self) -> None:
        top = max(self.mp.values())
        for side, mp in self.mp.items():
            if mp < top:
                self.choose(side, top)

    def new_turn(self, turn: int) -> None:
        self.w.phase(turn, "A")
        for side in self.mp:
            self.choose(side, 0)


def moves(w, *pairs):
    for unit, to in pairs:
        w.move(unit, to)


def turn_1(g: Game) -> None:
    w = g.w
    g.illegal("11.5", lambda: w.roll("Axis initiative 1d6", [1], "Axis"))  # the scenario gives it
    w.phase(1, "B")
    g.choose("cw", 5)
    g.illegal("5.1", lambda: w.roll("Commonwealth fire 1d6", [3], "Commonwealth"))  # not in a maneuver
    moves(w, ("11huss-7ar", "0824"), ("22-grd", "1228"), ("cg-xxx", "1125"))
    g.illegal("2.22", lambda: moves(w, ("62-trento", "1526"), ("62-trento", "1527")), later=-1)
    g.illegal("4.1", lambda: moves(w, ("11-4ind", "1226"), ("11-4ind", "1030")), later=-1)
    g.illegal("7.1", lambda: moves(w, ("11huss-7ar", "0923"), ("11huss-7ar", "0824")), later=-1)
    w.phase(1, "C")
    g.illegal("5.1", lambda: w.roll("Commonwealth fire 1d6", [4], "Commonwealth"))  # nothing declared
    w.fire("22-grd", "33pzjag-15pz", 6, side="Commonwealth")
    w.place("t", "1227")
    g.illegal("5.1", lambda: w.fire("11-4ind", "606-lw", 5, side="Commonwealth"))  # three hexes away
    g.illegal("5.1", lambda: w.fire("22-grd", "15-15pz", 5, side="Commonwealth"))  # fired already
    w.fire("11huss-7ar", "33-15pz", 1, side="Commonwealth")  # AP 2 on column 2, die 1 -1 minefield: '-'
    g.illegal("5.1", lambda: w.place("t", "0923"))  # judged when the next shot is declared, found at the act
    w.fire("15-15pz", "22-grd", 6, side="Axis")  # AP 5, die 6 -1 crest = 5: T1
    t1 = w.place("t1", "1228")
    w.flip("22-grd")  # the step lost (6.1)
    if g.plant:
        w.flip("11-4ind")  # unhit
    g.expect("6.1")  # 11/4 Ind lost a step in a hex no T1/T2 hit: judged when C ends, found at the flip
    w.flip(t1)  # T1 becomes T (6.1e)
    w.roll("Commonwealth morale 2d6", [6, 6] if g.plant else [4, 4], "Commonwealth")
    w.remove(t1)
    g.expect("6.2")  # 12 fails, yet the T went without a Retreat marker: found at that act (settled at the next roll)
    w.roll("Axis morale 2d6", [2, 2], "Axis")
    w.remove("t@1227")
    w.phase(1, "D")
    g.choose("axis", 3)
    if g.plant:
        w.move("a-5-15pz-2", "1620")  # onto B/5/15Pz (the 21 Pz tanks are in reserve, 11.5i)
    g.expect("7.1")  # two tank units in 1620: judged when the Axis maneuver ends, found at the move
    g.illegal("11.5", lambda: w.move("3a-21pz", "1717"))  # a reserve moves: judged when D ends, found at the move
    g.illegal("4.2", lambda: moves(w, ("62-trento", "1528"), ("62-trento", "1527")), later=-1)
    w.phase(1, "E")
    g.illegal("5.10", lambda: w.fire("15-15pz", "22-grd", 2, side="Axis"))  # entrenched: no offensive fire
    w.phase(1, "F")
    g.equalise()
    g.illegal("2", lambda: moves(w, ("11huss-7ar", "0825"), ("11huss-7ar", "0824")), later=-1)
    w.phase(1, "B")
    g.choose("cw", 7)
    w.phase(1, "C")
    w.phase(1, "D")
    g.choose("axis", 7)
    if g.plant:
        w.move("a-5-15pz-2", "1619")  # back to Gambout
    w.phase(1, "E")
    w.phase(1, "F")


def turn_2(g: Game) -> None:
    w = g.w
    g.new_turn(2)
    re_ = w.place("re", "1028", side="Axis") if g.plant else None  # RE before a whole turn unsupplied
    g.illegal("7.32", lambda: w.place("cg-ak1", "0505", side="Axis"))  # beyond the AK HQ's range
    w.roll("Commonwealth initiative 1d6", [6], "Commonwealth")
    g.illegal("2.1", lambda: w.roll("Axis initiative 1d6", [1], "Axis"))  # already won
    w.phase(2, "B")
    g.expect("3.7")  # the RE at 1028, found when phase A ends (3.7b)
    if re_:
        w.remove(re_)
    g.illegal("2.1", lambda: w.roll("Axis initiative 1d6", [2], "Axis"))  # not in phase A
    g.choose("cw", 3)
    if g.plant:
        w.declare("5-4ind", "Release reserve")
    g.illegal("11.5", lambda: w.move("5-4ind", "0630"))  # 11.5l: enters through 1030, 4+ MP away
    if g.drag:
        w.move("11-4ind", "1129", stack=True)  # 11/4 Ind, Recce/4 Ind and their markers
    else:
        moves(w, ("11-4ind", "1129"), ("recce-4ind", "1129"))
    w.phase(2, "C")
    g.illegal("2", lambda: w.phase(2, "B"))
    if g.plant:
        w.phase(2, "C")
    w.phase(2, "D")
    g.illegal("2.24", lambda: g.choose("axis", 4))  # row 3, column 0: at most 3
    if not g.plant:
        g.choose("axis", 3)
    w.phase(2, "E")
    g.illegal("6.5", lambda: w.flip("hq-ak"))  # no shot at it: judged when E ends, found at the flip
    w.phase(2, "F")
    g.equalise()
    g.illegal("6.5", lambda: w.flip("hq-ak"))  # back to its full face: judged when F ends, found at the flip


def turn_3(g: Game) -> None:
    w = g.w
    g.new_turn(3)
    cr = w.place("cr", "1228", side="Commonwealth") if g.plant else None  # 22 Gds, next to the road source 1128
    w.roll("Commonwealth initiative 1d6", [6], "Commonwealth")
    w.phase(3, "B")
    g.expect("3.7")  # a CR on supplied units (3.7c)
    if cr:
        w.remove(cr)
    g.choose("cw", 9 if g.plant else 8)
    g.expect("2.23")  # row 9 is Int in column 0
    g.illegal("7.31", lambda: w.move("cg-xxx", "1129"))  # judged when B ends, found at the move
    w.phase(3, "C")
    w.phase(3, "D")
    g.choose("axis", 3)
    g.illegal("4.43", lambda: w.place("breach", "1029", side="Axis"))  # next to the CW units in 1129
    w.phase(3, "E")
    w.phase(3, "F")
    g.equalise()
    g.illegal("6.5", lambda: w.remove("hq-xxx"))  # eliminated, yet not encircled
    g.illegal("9", lambda: w.move("iv", "I/V 1C"))  # no reason: judged when the log ends, found at the move
    g.illegal("8.2", lambda: w.phase(4, "A"))


def play(tobrouk, tmp_path, plant: bool, drag: bool):
    game, vmod = tobrouk
    w = TobroukWriter(game, vmod, "battleaxe.vsav")
    g = Game(w, plant, drag)
    for part in (turn_1, turn_2, turn_3):
        part(g)
    return g, audited(g, game, tmp_path)


def test_the_legal_game_has_no_violation(tobrouk_module, tmp_path, drag):
    _, report = play(tobrouk_module, tmp_path, plant=False, drag=drag)
    assert [(f.step, f.rule, f.message) for f in report.violations] == []
    assert report.summary.last_turn == 3 and report.summary.steps > 50


def test_every_planted_act_is_found_and_nothing_else(tobrouk_module, tmp_path, drag):
    g, report = play(tobrouk_module, tmp_path, plant=True, drag=drag)
    assert_only_the_planted(g, report, acts=20, rules=12)
