"""Desert Fox Deluxe acceptance, second scenario: a legal game of 26.0 Sonnenblume, GT 10 from
Phase XII to GT 12, and the same game with illegal acts planted in it; each played twice, units
moved one at a time, and whole stacks dragged (LogWriter.move_units).

The legal game must give no violation; the planted one must give each planted act, at its step,
with its rule number, and nothing else.  One script serves all four (`plant` switches the illegal
acts on, `drag` the way stacks move), so the games share every legal act.

The game: GT 10, the Axis is 1st player (26.0: initiative with surprise, 6.2).  XII: the Axis
clears its two overstacked hexes (C0701 and C0702 hold 10 and 9 stacking points at the set-up):
8 Ber to C0802 next to 2 SG, Nizza and 3 Aufkl to C0801, 300 Oasis (a desert raider, 16.0: free of
ZoC) to C0703.  XIV: Stab 200 attacks KDG in the marsh C0603 (line 2, 1-1 to 2-1 before the surprise
and air shifts; 2d6 = 6, row 5-6: A1 for the attacker, D1 W among the defender's results); both
lose a step and KDG withdraws to C0604 (into 300 Oasis's ZoC, as 11.4 allows).  XV: 20 and 24 Aus BG and their dump leave Barce C2410
together.  XVII: the depleted 3 Lt Arm attacks 300 Oasis (2d6 = 3: A1 or A2 for the attacker, D0 or
D1 and no retreat for the defender) and loses its last step.  GT 11: the four Italian divisions
arrive at El Agheila C0701 (Phase III), which they overstack: a Disrupted marker goes there in
Phase IV (10.3); Ariete moves to C0601.  GT 12: 7 Ind BG, 11 Ind BG and CIH arrive in the NRV, Libya
air in its box, in Phase III.  Dragged whole: the Barce stack and the Italian divisions' box.

Planted (rule): 3.1 26 Aus BG out of Tobruk, 11 Huss out of the NRV at the set-up (found at the
first tracker move); 4.1 an Allied unit moving in the Axis Movement Phase; 13.1 I/18 Flak into 2 SG's
hex; 13.1 5 Pz onto the sea; 10.3 605 PzJg overstacking C0701 undisrupted (reported at the end of
the phase it stands in, found when the next one ends); 4.1 an Axis HQ moving in the Allied Reaction Phase; 13.2.1 22 Bde reacting past its
RMA; 14.7.1 KDG retreating 7 hexes; 14.6 Stab 200 losing no step where the table gives one (found
at the next declaration); 14.2 132 Cel attacking 2 SG from C0701, two hexes away; 4.1 an attack
declared in the Allied Movement Phase; 13.2 13 Corps 40 MP away; 13.2.4 3 Ind 25 MP of its 22 and
11.4 2 SG from one EZOC hex straight into another, neither with a Disrupted marker (found at the
phase end, reported at the moves); 13.2.1 Nizza reacting 8 MP; 14.7 300 Oasis retreating with no retreat result (GT 10);
7.0 55 Savona arriving on C0601, not C0701; 7.1 1 SA BG a GT early; 4.1 a move in the Allocation
Phase; 13.4.1 Brescia overrunning from the disrupted C0701; 4.1 an Allied unit moving in the Axis
Movement Phase; 17.2 22 Bde rebuilt in the Supply Attrition Phase (found at its end, reported at
the flip); 4.1 a move in the Victory Check Phase (GT 11); 7.1 1 Lt Arm a GT early; 7.0 2 SA BG arriving in a Movement Phase;
4.1 the tracker going back (GT 12).  27 acts of 16 rules.
"""
from __future__ import annotations

from tests.rules.desert_fox_play import FoxWriter, dfd_module  # noqa: F401 (the fixture)
from tests.rules.planted import PlantedGame, assert_only_the_planted, audited

Game = PlantedGame


def box(w: FoxWriter, track: str, name: str) -> str:
    return w.game.zone_name(track, name)


def gt_10(g: Game) -> None:
    w = g.w
    g.illegal("3.1", lambda: w.move("26-aus-bg", "C2330"), later=2)  # 26.2: on Tobruk C2331
    g.illegal("3.1", lambda: w.move("11-huss", "W2117"), later=1)  # 26.2: in the NRV
    w.phase(10, "XII")
    w.move("8-ber", "C0802")  # next to 2 SG: its move ends in the EZOC
    w.move("nizza", "C0801")
    w.move("3-aufkl", "C0801")  # out of the EZOC by C0701
    w.move("300-oasis", "C0703")  # 16.0: desert raiders ignore ZoC
    g.illegal("4.1", lambda: w.move("3-ind", "W2018"))
    g.illegal("13.1", lambda: w.move("i-18-flk", "C0803"))  # 2 SG's hex, no overrun declared
    if g.plant:
        w.move("i-18-flk", "C0702")  # taken back (where it stood: no cost), so no later rule sees it there
    g.illegal("13.1", lambda: w.move("5-pz", "C0902"))  # the sea
    if g.plant:
        w.move("605-pzjg", "C0701")  # 7 stacking points, no Disrupted marker
    w.phase(10, "XIII")
    g.expect("10.3")  # overstacked when XII ends (reported once XIII ends without a Disrupted marker)
    g.illegal("4.1", lambda: w.move("kasta", "C0701"))  # an Axis unit in the Allied Reaction Phase
    g.illegal("13.2.1", lambda: w.move("22-bde", "C2032"))  # 8 MP > RMA 4 + 2 (13 Corps, 15.6)
    w.phase(10, "XIV")
    # 14.0: both combats declared before the first is resolved; 14.2: 2 SG projects a ZoC onto Stab 200's
    # C0702 (and 8 Ber's C0802), so it must be attacked in this phase too
    w.declare("stab-200", "Declare attacker")
    w.declare("kdg", "Declare target")
    w.declare("8-ber", "Declare attacker")
    w.declare("2-sg", "Declare target")
    if g.plant:  # a third combat, declared with the others (14.0)
        w.declare("132-cel", "Declare attacker")  # from C0701, two hexes from C0803
        w.declare("2-sg", "Declare target")
    w.roll("Axis combat 2d6", [4, 4], "Axis")  # KDG: line 2, 1-1 to 2-1 and 2 surprise shifts; row 7-8: A1, D1 or D1W
    if not g.plant:  # planted: the attacker takes no loss (found at its close, the next roll)
        w.flip("stab-200")
    w.flip("kdg")
    if g.plant:
        w.move("kdg", "C1305")  # 7 hexes
        g.planted.append((g.step(), "14.7.1"))
        g.planted.append((g.step() + 1, "14.6"))
    else:
        w.move("kdg", "C0604")  # into 300 Oasis's ZoC: a retreat may end in an EZOC (11.4)
    w.roll("Axis combat 2d6", [1, 2], "Axis")  # 8 Ber on 2 SG (AT 2, 15.2): 1-2 to 2-1, row 2-4: A1 or A2, D0 or D1
    w.flip("8-ber")
    if g.plant:
        w.roll("Axis combat 2d6", [1, 1], "Axis")  # 132 Cel's
        g.expect("14.2")
        w.move("132-cel", box(w, "axis-boxes", "Axis Destroyed"))  # A2: its only step
    w.phase(10, "XV")
    g.group(["20-aus-bg", "24-aus-bg", "allied-dump-5"], "C2310")
    g.illegal("4.1", lambda: w.declare("3-lt-arm", "Declare attacker"))  # an attack in a Movement Phase
    g.illegal("13.2", lambda: w.move("13-corps", "A5207"))  # 40 MP > 22 + 9
    g.illegal("13.2.4", lambda: w.move("3-ind", "C1518"))  # 25 MP of its 22: a forced march, which disrupts
    g.illegal("11.4", lambda: w.move("2-sg", "C0804"))  # from an EZOC hex straight into another: night movement
    w.phase(10, "XVI")  # (both found as XV ends with no Disrupted marker, reported at the moves)
    g.illegal("13.2.1", lambda: w.move("nizza", "C0401"))  # 8 MP > its RMA of 6
    w.phase(10, "XVII")
    w.combat(["3-lt-arm"], ["300-oasis"], [1, 2], side="Allied")  # row 2-4: A1/A2, D0/D1, no W or R
    w.move("3-lt-arm", box(w, "allied-boxes", "Allied Destroyed"))  # depleted: its last step
    g.illegal("14.7", lambda: w.move("300-oasis", "C0602"))
    w.phase(10, "XVIII")
    w.phase(10, "XX")


def gt_11(g: Game) -> None:
    w = g.w
    w.phase(11, "I")
    w.phase(11, "III")
    italians = ["17-pavia", "25-bolgna", "55-savona", "102-trn-ap"]
    if g.plant:
        w.move("55-savona", "C0601")
        g.planted.append((g.step(), "7.0"))
    g.group([u for u in italians if not (g.plant and u == "55-savona")], "C0701")
    g.illegal("7.1", lambda: w.move("1-sa-bg", w.game.zone_name("offmap", "NRV")))  # a GT 12 arrival
    w.phase(11, "IV")
    w.place("disrupted", "C0701")  # 10.3: the overstacked hex is disrupted
    g.illegal("4.1", lambda: w.move("nizza", "C0802"))  # a move in the Allocation Phase
    w.phase(11, "V")
    w.phase(11, "VI")
    w.move("132-ariete", "C0601")  # the Axis moves first: it is the 1st player
    g.illegal("13.4.1", lambda: w.declare("27-brescia", "Declare overrun"))  # from the disrupted C0701
    g.illegal("4.1", lambda: w.move("20-aus-bg", "C2410"))
    w.phase(11, "XVIII")
    g.illegal("17.2", lambda: w.flip("22-bde"))  # rebuilt in the Supply Attrition Phase (found at its end)
    w.phase(11, "XIX")
    g.illegal("4.1", lambda: w.move("3-aufkl", "C0701"))
    w.phase(11, "XX")


def gt_12(g: Game) -> None:
    w = g.w
    nrv = w.game.zone_name("offmap", "NRV")
    w.phase(12, "I")
    w.phase(12, "III")
    for u in ("7-ind-bg", "11-ind-bg", "cih"):
        w.move(u, nrv)
    w.move("libya-air", box(w, "axis-boxes", "Axis Air North Africa"))
    g.illegal("7.1", lambda: w.move("1-lt-arm", nrv))  # a GT 13 arrival
    w.phase(12, "VI")
    g.illegal("7.0", lambda: w.move("2-sa-bg", nrv))
    g.illegal("4.1", lambda: w.phase(12, "V"))


def play(dfd, tmp_path, plant: bool, drag: bool):
    game, vmod = dfd
    w = FoxWriter(game, vmod, "sonnenblume.vsav")
    g = Game(w, plant, drag)
    for part in (gt_10, gt_11, gt_12):
        part(g)
    return g, audited(g, game, tmp_path)


def test_the_legal_game_has_no_violation(dfd_module, tmp_path, drag):  # noqa: F811
    _, report = play(dfd_module, tmp_path, plant=False, drag=drag)
    assert [(f.step, f.rule, f.message) for f in report.violations] == []
    assert report.summary.last_turn == 12 and report.summary.steps > 30


def test_every_planted_act_is_found_and_nothing_else(dfd_module, tmp_path, drag):  # noqa: F811
    g, report = play(dfd_module, tmp_path, plant=True, drag=drag)
    assert_only_the_planted(g, report, acts=25, rules=15)


def test_dragging_stacks_whole_finds_the_same_acts(dfd_module, tmp_path):  # noqa: F811
    """The drag variant really drags (fewer steps than moving the same units one by one), and the
    planted game gives the same findings either way, in the same order."""
    runs = {}
    for drag in (False, True):
        (tmp_path / str(drag)).mkdir()
        runs[drag] = play(dfd_module, tmp_path / str(drag), plant=True, drag=drag)
    (one, one_report), (whole, whole_report) = runs[False], runs[True]
    assert len(whole.w.steps) < len(one.w.steps)
    assert [(f.rule, f.message) for f in whole_report.violations] == \
        [(f.rule, f.message) for f in one_report.violations]
