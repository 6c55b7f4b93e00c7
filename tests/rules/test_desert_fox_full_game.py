"""Desert Fox Deluxe acceptance (first step): a legal game of scenario 24.0 Fox Killed, GT 4 from
Phase VI to GT 7, and the same game with illegal acts planted in it.

The legal game must give no violation; the planted one must give each planted act, at its step,
with its rule number, and nothing else.  One script serves both (`plant` switches the illegal acts
on), so the two games share every legal act.

The game: GT 4, the Axis is 1st player (its first move in Phase VI).  VI: 62 Mmrirca enters
Tobruk; Babini drives down the coast road to W2006, next to Bardia; Maletti and Ragg X (the stack of
C2230) move to C2130, one by one or dragged as one stack (the `drag` variant).  IX: the 11th Hussars (W2007)
and 7 SG (W1906) close on Babini.  XI: they attack it (CF 4 to Babini's depleted 2, 2-1; 2d6 = 2:
A1: no Axis air unit supports the defence, 19.5), and 11 Huss loses a step.  GT 6 and 7: 61 Sirte,
60 Sabratha and 10 Ber arrive at El Agheila C0701, the Australians into the NRV, in Phase III.

Planted (rule): 3.1 CIH set up off its area; 3.1 4 NZ BG out of the NRV; 4.1 an Allied unit
moving in the Axis Movement Phase; 13.1 64 Catanzaro onto a sea hex; 10.3 63 Cirene overstacking C2229 undisrupted (reported at the end of the phase it
stands in, once the next has ended without a Disrupted marker); 4.1 an
Axis unit moving in the Allied Reaction Phase; 4.1 a move in the Axis Combat Phase with no combat;
13.2 4 Lt Arm 33 MP away; 13.1 CIH into Babini's hex; 13.2.4 7 RTR 15 MP of its 14 with no
Disrupted marker (reported at the move, found at the phase end); 14.6 the attackers losing no step where the table gives
one or two (found at the next declaration); 14.7 Babini retreating with no retreat result; 14.2 22 Gds
attacking Babini from W2017; 13.2.1 4 CCNN reacting past its RMA; 13.4.1 an overrun declared from
a disrupted hex; 14.7.1 7 SG retreating 7 hexes after Babini's attack; 4.1 an attack declared in a Movement Phase; 13.4.2 an overrun of Bardia, a city;
4.1 a move in the Victory Check Phase; 4.1 a move in a Reinforcement Phase; 7.1 61 Sirte a GT early; 7.1 20 Aus BG a GT early;
7.0 10 Ber onto another hex than C0701; 7.0 an Australian brigade arriving in a Movement Phase; 4.1 the tracker going back.
"""
from __future__ import annotations

import zipfile

from tests.rules.desert_fox_play import FoxWriter, dfd_module  # noqa: F401 (the fixture)
from tests.rules.planted import PlantedGame, assert_only_the_planted, audited
from validators.audit import audit_file, module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record

Game = PlantedGame


def gt_4(g: Game) -> None:
    w = g.w
    g.illegal("3.1", lambda: w.move("cih", "W2012"), later=2)  # ALC-2: within 3 hexes of W2118 (found at the tracker)
    g.illegal("3.1", lambda: w.move("4-nz-bg", "W2216"), later=1)  # ALC-1: in the NRV
    w.phase(4, "VI")
    w.move("62-mmrirca", "C2331")
    w.move("babini", "W2006")  # 11 MP of 22 along the coast road
    w.move_units(["maletti", "ragg-x"], "C2130", whole_stacks=g.drag)  # the stack of C2230, whole or one by one
    g.illegal("4.1", lambda: w.move("22-bde", "W2017"))
    g.illegal("13.1", lambda: w.move("64-ctnzaro", "C2430"))  # the sea
    if g.plant:
        w.move("63-cirene", "C2229")  # 12 stacking points, no Disrupted marker
    w.phase(4, "VII")
    g.expect("10.3")  # overstacked when VI ends (reported once VII ends without a Disrupted marker)
    g.illegal("4.1", lambda: w.move("maletti", "C2230"))
    w.phase(4, "VIII")
    g.illegal("4.1", lambda: w.move("ragg-x", "C2230"))
    w.phase(4, "IX")
    w.move("11-huss", "W2007")
    w.move("7-sg", "W1906")
    g.illegal("13.2", lambda: w.move("4-lt-arm", "W0226"))  # 33 MP > 22 + 9
    g.illegal("13.1", lambda: w.move("cih", "W2006"))
    if g.plant:
        w.move("cih", "W2012")  # taken back (where it stood: no cost), so no later rule sees it in Babini's hex
    g.illegal("13.2.4", lambda: w.move("7-rtr", "W1019"))  # 15 MP of 14: a forced march, which disrupts
    w.phase(4, "X")  # (found as IX ends with no Disrupted marker, reported at the move)
    g.illegal("13.2.1", lambda: w.move("4-ccnn", "C1923"))  # 5 MP > its RMA of 4
    w.phase(4, "XI")
    # 2-1, row 2-4: A1 (no Axis air unit is placed in support, 19.5: no shift), D0 or D1, no retreat
    for unit, order in (("11-huss", "attacker"), ("7-sg", "attacker"), ("babini", "target")):
        w.declare(unit, f"Declare {order}")
    if g.plant:  # a second combat, declared with the first (14.0): 22 Gds in W2017, far from Babini
        w.declare("22-bde", "Declare attacker")
        w.declare("babini", "Declare target")
    w.roll("Allied combat 2d6", [1, 1], "Allied")
    if not g.plant:  # planted: the attackers take no loss (found at the next roll, which closes the combat)
        w.flip("11-huss")
    g.illegal("14.7", lambda: w.move("babini", "W2005"))
    if g.plant:
        g.planted.append((g.step() + 1, "14.6"))
        w.roll("Allied combat 2d6", [1, 1], "Allied")
        g.expect("14.2")
        w.flip("22-bde")
    w.phase(4, "XII")
    if g.plant:
        w.place("disrupted", _hex(w, "babini"))
    g.illegal("13.4.1", lambda: w.declare("babini", "Declare overrun"))
    if g.plant:
        w.move("babini", "W1905")  # next to 7 SG
    w.phase(4, "XIV")
    if g.plant:
        air = w.game.zone_name("axis-boxes", "Axis Air North Africa")
        w.move("libya-air", "W1906")  # 19.5: offensive ground support on the defender's hex
        w.combat(["babini"], ["7-sg"], [6, 6], side="Axis")  # 1-2 + the air unit's shifts: D1 to D2W
        w.flip("7-sg")
        w.move("libya-air", air)  # 19.5: back to its holding box
    g.illegal("14.7.1", lambda: w.move("7-sg", "W1913"))  # 7 hexes
    w.phase(4, "XV")
    g.illegal("4.1", lambda: w.declare("22-bde", "Declare attacker"))  # an attack in a Movement Phase
    if g.plant:
        w.move("11-huss", "W2103")  # next to Bardia, a city, alone
    g.illegal("13.4.2", lambda: w.declare("11-huss", "Declare overrun"))
    w.phase(4, "XVII")
    w.phase(4, "XIX")
    g.illegal("4.1", lambda: w.move("1-ccnn", "C2129"))
    w.phase(4, "XX")


def _hex(w: FoxWriter, ref: str) -> str:
    p = w.board.pieces[w.piece(ref)]
    return w.location(p.map, p.x, p.y)


def gt_5_to_7(g: Game, nrv: str) -> None:
    w = g.w
    w.phase(5, "I")
    w.phase(5, "III")
    g.illegal("7.1", lambda: w.move("61-sirte", "C0701"))
    w.phase(5, "XX")
    w.phase(6, "I")
    w.phase(6, "III")
    if not g.plant:
        w.move("61-sirte", "C0701")
    g.illegal("4.1", lambda: w.move("2-ccnn", "C0802"))  # a move in the Reinforcement Phase
    w.phase(6, "XX")
    w.phase(7, "III")
    w.move("60-sabrtha", "C0701")
    w.move("10-ber", "C0702" if g.plant else "C0701")
    g.expect("7.0")
    for u in ("16-aus-bg", "17-aus-bg"):
        w.move(u, nrv)
    g.illegal("7.1", lambda: w.move("20-aus-bg", nrv))  # a GT 8 arrival
    w.phase(7, "VI")
    g.illegal("7.0", lambda: w.move("19-aus-bg", nrv))
    g.illegal("4.1", lambda: w.phase(7, "V"))


def play(dfd, tmp_path, plant: bool, drag: bool = False):
    game, vmod = dfd
    w = FoxWriter(game, vmod, "fox-killed.vsav")
    g = Game(w, plant, drag)
    gt_4(g)
    gt_5_to_7(g, game.zone_name("offmap", "NRV"))
    return g, audited(g, game, tmp_path)


def test_the_legal_game_has_no_violation(dfd_module, tmp_path, drag):  # noqa: F811
    _, report = play(dfd_module, tmp_path, plant=False, drag=drag)
    assert [(f.step, f.rule, f.message) for f in report.violations] == []
    assert report.summary.last_turn == 7 and report.summary.steps > 30


def test_every_planted_act_is_found_and_nothing_else(dfd_module, tmp_path, drag):  # noqa: F811
    g, report = play(dfd_module, tmp_path, plant=True, drag=drag)
    assert_only_the_planted(g, report, acts=25, rules=15)


# -- the card's saved setup: the turn tracker at GT 4 Phase VI -------------------------------------
def _setup_record(vmod, entry: str, tmp_path):
    with zipfile.ZipFile(vmod) as z:
        (tmp_path / entry).write_bytes(z.read(entry))
    return read_record(tmp_path / entry)


def test_the_built_setups_open_the_tracker_at_the_cards_first_gt_and_phase(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    ids = [p["id"] for p in game.tables["sequence"].data["phases"]]
    start = Replayer(_setup_record(vmod, "fox-killed.vsav", tmp_path), {}).initial_turn
    assert (start.turn, ids[start.phase_index]) == (4, "VI")  # 24.0: GT 4 Phase VI
    for sid, card in game.scenarios.items():
        start = Replayer(_setup_record(vmod, f"{sid}.vsav", tmp_path), {}).initial_turn
        assert (start.turn, start.phase_index) == (card.first_turn, ids.index(card.start_phase or "I")), sid


def test_a_game_begun_from_the_saved_setup_is_played_from_phase_vi(dfd_module, tmp_path):  # noqa: F811
    """No tracker move before play: the set-up is checked once, at the log's beginning, and the first
    moves are judged in Phase VI (the Axis moves first: 22 Gds moving is out of its phase)."""
    game, vmod = dfd_module
    w = FoxWriter(game, vmod, "fox-killed.vsav", tracker_from_setup=True)
    w.move("62-mmrirca", "C2331")
    w.move("babini", "W2006")  # far from its set-up area: play, not set-up
    w.move("22-bde", "W2017")
    w.phase(4, "VII")
    w.phase(4, "VIII")
    path = tmp_path / "from-setup.vlog"
    w.write(path)
    assert [(f.step, f.rule) for f in audit_file(game, path).violations] == [(3, "4.1")]
    record = read_record(path)
    replayer = Replayer(record, module_grids(game))
    assert (replayer.initial_turn.turn, replayer.initial_turn.phase_index) == (4, 5)
    cih = replayer.board.pieces[w.piece("cih")]
    cih.x, cih.y = w.point("Main Map", "W2012")  # ALC-2: within 3 hexes of W2118; W2012 is 6 away
    auditor = rules_for(game.slug)(game, replayer)
    found = [(f.step, f.rule) for f in auditor.run() if f.kind == "violation"]
    assert found == [(0, "3.1"), (3, "4.1")]
