"""Western Desert Force acceptance: a legal game from the campaign set-up (Turn 1 whole, Turn 2 into
the Allied combats, Turn 3 to the Allied Exploitation Movement), and the same game with illegal
moves of many ranks of the digest's §10.1 planted in it.

The legal game must give no violation; the planted one must give each planted move, at its
step, with its rule number, and nothing else.  One script serves both (`plant` switches the
illegal moves on), so the two games share every legal move.

The game (campaign set-up, scenarios/campaign.yaml; Operation Compass, Dec 1940):
- Turn 1 (3.1: no Random Events, no Air/Naval): the Allied depot goes forward from Mersa Matruh
  5110 (zone A) to 4910 (zone B, one zone: not Moved, 7.12); Organization die 6 on row B = 5 AP
  (4 -> 9), reserve requirement 0.  4th Indian Division, 16th Brigade, 7 RTR and O'Connor close
  on Nibeiwa and stop in the Italian ZOC at 4610 (9.31); Selby Force stops at 4710 on the road;
  the armour crosses the desert to 4512; an Australian brigade drives 12 road hexes (4 MP) from
  Alexandria.  Two combats: the Indians take Nibeiwa (11 dice + 2 O'Connor dice, 3 hits; the
  Italians 5 dice, 1 hit; no Italian retreat on Turn 1, 3.2: three steps empty the camp; the
  infantry advance one hex, 10.27); Selby Force attacks Maktila (2 dice, 1 hit).  The armour
  exploits half its MA (9.5).  The Axis depot moves up to Buq Buq 4310 (zone E, one zone);
  die 6 + 1 Benghazi on row D (E shifted up for Tobruk) = 3 AP (2 -> 5), supply level Normal.
  The Italians from Sidi Barrani and the coast road overwhelm the reduced Indian brigade in
  Nibeiwa (2 hits >= 1.5 x 1): it is eliminated, the defender does not roll, the AP comes back
  (10.24).  Babini's armour exploits, End of Turn.
- Turn 2: Random Events 13 (Malta Strikes Axis Convoys: Axis -1 AP); Air Superiority: Allied
  3 + 1 (zone B) = score 3, Axis 4 - 1 (zone E) = score 1: 2 ASPs to the Allies, no Naval
  Support (raw die not 6).  Allied Organization die 6: +5 AP (7 -> 12).  The armour goes
  through two Italian ZOC hexes to 4511 (armour pays 1 MP each, 9.31).  The Indians, 7 RTR and
  Selby Force with O'Connor overwhelm reduced 1st Libyan at Maktila (AP refunded); 4th Indian
  advances one hex, 7 RTR two.  The armoured brigades attack Sofafi: 2 hits each way; the
  armour takes a step and retreats one hex, the Italians take two steps (3.2).  Exploitation.

- Turn 3 (the rest of Turn 2 skipped, 4.0): Random Events 23 (Commonwealth Drafts: one more
  Allied replacement, 5.0); Air Superiority as on Turn 2 (2 Allied ASPs: the marker stays);
  Allied Organization die 5 on row B: 4 AP, and 1 reserve unit required (7.4); the 5th Indian
  Brigade comes back reduced from the Recoverable Eliminated box to Alexandria (1 point, 7.6);
  the Turn 3 arrivals: 2nd Support Group into the Reserve Box (the requirement met), 3rd
  Armoured Brigade and KDG to Alexandria (7.7); an IP-1 on 6aus-19, which did not move (12.1).

Planted (rank: rule): 25: 3.1 a d66 on Turn 1; 10: 7.11 depot off the road; 11: 7.31 wrong new
APs; 14: 4.0 a move in the Organization Phase; 2: 9.31 ZOC to ZOC; 3: 9.0 into an enemy hex;
1: 9.1 over the allowance; 11: 10.3 two APs for one attack; 6: 10.21 5-6 dice for units hitting
on 6; 8: 10.21 a hit not taken; 5: 8.3 attrition on a supplied unit; 4: 9.2 overstacked at the
phase end; 7: 10.11 a die too many; 9: 10.24 no AP refund; 12: 10.27 infantry advancing two
hexes; 13: 10.26 a retreat not away from the attacked hex; 14: 9.5 infantry exploiting without a
Major Offensive; 14: 9.0 the inactive side moving; 10: 7.16 depot relocated in exploitation
without a Major Offensive; 11: 7.3 an AP from nowhere; 25: 4.0 a phase played out of order;
Turn 3: 20: 6.1 the ASP marker one box too high; 16: 7.6 a returning unit placed away from the
entry hexes; 17: 7.7 a Turn 4 arrival; 17: 7.7 Montgomery on Turn 3, and 19: 13.1 two Allied
leaders on the map; 15: 12.1 an IP on a unit that moved; 15: 12.2 an IP in Alexandria; 17: 7.8 a
unit into the Reserve Box in the Regular Movement Phase; 15: 12.1 an IP in Exploitation; 22: 16.1
Bardia's status marker flipped with no combat.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from validators.audit import audit_file
from validators.replay.writer import LogWriter

SLUG = "western-desert-force"
PLAYERS = {"Allied": ("allied-user", "Bob"), "Axis": ("axis-user", "Alice")}
INDIANS = ("4ind-5", "4ind-11", "70d-16", "7rtr")  # 3 + 3 + 3 + 2 CS, 3 stacking points + a battalion
ARMOUR = ("7a-4arm", "7a-7arm", "7a-7sg", "11h")


@pytest.fixture(scope="module")
def wdf(wdf_module):
    return wdf_module


def dice(n: int, sixes: int = 0) -> list[int]:
    return [6] * sixes + [1] * (n - sixes)


class Game:
    """The script's state: the writer, whether illegal moves are planted, what was planted
    (step, rule), and the Attack Point totals the markers show."""

    def __init__(self, w: LogWriter, plant: bool, drag: bool = False):
        self.w, self.plant, self.planted, self.drag = w, plant, [], drag
        self.ap = {"Allied": 4, "Axis": 2}  # 3.1

    def step(self) -> int:
        return len(self.w.steps)

    def illegal(self, rule: str, action, later: int = 0) -> None:
        """Plant `action` (a callable or None); found at its own step, or `later` steps after."""
        if self.plant:
            if action is not None:
                action()
            self.planted.append((self.step() + later, rule))

    def expect(self, rule: str) -> None:
        """A planted move found at the step just written (a phase end, a combat's close)."""
        if self.plant:
            self.planted.append((self.step(), rule))

    def points(self, side: str, total: int) -> None:
        self.ap[side] = total
        self.w.move(f"ap-{side.lower()}", f"Points {total}")

    def move_all(self, units, *hexes: str) -> None:
        """Each hex in turn: units that are a whole stack go in one drag when the game drags
        stacks (as players mostly do), the others one at a time."""
        for h in hexes:
            self.w.move_units(list(units), h, whole_stacks=self.drag)


def turn_1_allied(g: Game) -> None:
    w = g.w
    g.illegal("3.1", lambda: w.roll("Random Events d66", [3, 4], "Allied"))  # no Random Events on Turn 1
    w.turn(1, "Allied Depot Removal")
    w.turn(1, "Allied Depot Placement")
    g.illegal("7.11", lambda: w.move("depot-allied", "4911"))  # not a road hex
    w.move("depot-allied", "4910")  # zone A -> zone B: one zone, front side up (7.12)
    w.turn(1, "Allied Attack Points & Reserves")
    w.roll("Allied Organization die", [6], "Allied")  # row B: 6 -> 5 AP; reserves Turn 1-3, 6 -> 0
    if g.plant:
        g.illegal("7.31", lambda: g.points("Allied", 8), later=1)  # 4 + 5 is 9: found as the segment ends
    else:
        g.points("Allied", 9)
    w.turn(1, "Allied Replacements")
    g.illegal("4.0", lambda: w.move("6aus-19", "6408"))  # no movement in the Organization Phase
    w.turn(1, "Allied Reinforcement-Withdrawal")
    w.turn(1, "Allied Major Offensive")
    w.turn(1, "Allied Regular Movement")
    g.illegal("9.31", lambda: w.move("selby", "4511"))  # from one Italian ZOC hex (4610) into another
    w.move("selby", "4710")  # road, into the Italian ZOC from Maktila: stops (9.31)
    g.move_all(INDIANS + ("oconnor",), "4610")  # one hex: the ZOC of Nibeiwa and Maktila
    g.illegal("9.0", lambda: w.move("11h", "4510"))  # into Nibeiwa, held by the Italians
    g.move_all(ARMOUR, "4512")  # desert, 2 hexes
    g.illegal("9.1", lambda: w.move("4ind-7", "5414"))  # 5 hexes of desert: 5 MP > MA 4
    w.move("4ind-7", "4809")  # 3 road hexes: 1 MP (several drags are one move from where it began)
    w.move("6aus-17", "5310")  # 12 road hexes from Alexandria: 4 MP
    w.turn(1, "Allied Regular Combat")
    # Nibeiwa: the Indians, 16th Brigade and 7 RTR (11 CS, supplied, in AP range) with O'Connor (2).
    for u in INDIANS:
        w.declare(u, "Declare attacker")
    for u in ("2lib", "maletti"):
        w.declare(u, "Declare target")
    if g.plant:
        g.illegal("10.3", lambda: g.points("Allied", g.ap["Allied"] - 2))  # an attack costs 1 AP
    else:
        g.points("Allied", g.ap["Allied"] - 1)  # 10.3
    w.roll("Allied 6 dice", dice(11, sixes=3), "Allied")
    w.roll("Allied leader dice", dice(2), "Allied")
    w.roll("Axis 6 dice", dice(5, sixes=1), "Axis")  # 2lib 3 + Maletti 2
    w.flip("4ind-5")  # the attacker's hit: a step (10.22)
    w.flip("2lib")  # three steps, no retreat on Turn 1 (3.2)
    w.move("2lib", "Axis Recoverable Eliminated")
    w.move("maletti", "Axis Recoverable Eliminated")
    w.move("4ind-5", "4510")  # advance: infantry, the attacked hex only (10.27)
    # Maktila: Selby Force (2 CS) against 1st Libyan (3 CS), as 4610 is next to it (10.1).
    w.declare("selby", "Declare attacker")
    w.declare("1lib", "Declare target")
    g.points("Allied", g.ap["Allied"] - 1)
    if g.plant:
        w.roll("Allied 5-6 dice", [6, 1], "Allied")  # British infantry hit on 6: found when the combat closes
    else:
        w.roll("Allied 6 dice", [6, 1], "Allied")
    w.roll("Axis 6 dice", dice(3), "Axis")
    if not g.plant:
        w.flip("1lib")  # planted: the hit is not taken (found when the combat closes)
    w.turn(1, "Allied Exploitation Movement")
    g.expect("10.21")  # the dice of the wrong hit class
    g.expect("10.21")  # the hit not taken
    w.move("7a-4arm", "4513")  # armour: half its MA in a Normal Offensive (9.5)
    w.move("7a-4arm", "4512")
    w.turn(1, "Allied Exploitation Combat")
    w.turn(1, "Allied Attrition")  # every Allied unit is in supply
    g.illegal("8.3", lambda: w.flip("6aus-16"), later=1)  # supplied at Mersa Matruh: found as the phase ends


def turn_1_axis(g: Game) -> None:
    w = g.w
    w.turn(1, "Axis Depot Removal")
    w.turn(1, "Axis Depot Placement")
    w.move("depot-axis", "4310")  # zone D -> zone E (7.12)
    w.turn(1, "Axis Attack Points & Supply Level")
    w.roll("Axis Organization die", [6], "Axis")  # row D (E shifted up: Tobruk): 6 + 1 Benghazi -> 3 AP
    g.points("Axis", g.ap["Axis"] + 3)  # supply level Turn 1-3, 6 -> Normal: the marker stays
    w.turn(1, "Axis Replacements")
    w.turn(1, "Axis Reinforcement")
    w.turn(1, "Axis Major Offensive")
    w.turn(1, "Axis Regular Movement")
    w.move("1ccnn", "4110")  # Bardia to Sollum by the road over the escarpment
    w.move("60sab", "3109")  # Derna to Gazala along the Via Balbia
    g.illegal("9.2", lambda: w.move("2ccnn", "4110"), later=1)  # three Italian divisions: 6 points
    w.turn(1, "Axis Regular Combat")
    if g.plant:
        w.remove("2ccnn")  # the Allies eliminate the excess (9.2)
    # Nibeiwa: 4ccnn (3) and 64cat (4) overwhelm the reduced 5th Indian Brigade (1 CS): 2 hits.
    for u in ("4ccnn", "64cat"):
        w.declare(u, "Declare attacker")
    w.declare("4ind-5", "Declare target")
    g.points("Axis", g.ap["Axis"] - 1)
    w.roll("Axis 6 dice", dice(8 if g.plant else 7, sixes=2), "Axis")  # planted: a die too many
    w.move("4ind-5", "Allied Recoverable Eliminated")
    if not g.plant:
        g.points("Axis", g.ap["Axis"] + 1)  # 10.24: the AP comes back (planted: not)
    w.turn(1, "Axis Exploitation Movement")
    g.expect("10.11")
    g.expect("10.24")
    w.move("babini", "2811")
    w.turn(1, "Axis Exploitation Combat")
    w.turn(1, "Axis Attrition")
    w.turn(1, "End of Turn")


def turn_2(g: Game) -> None:
    w = g.w
    w.turn(2, "Random Events")
    w.roll("Random Events d66", [1, 3], "Allied")  # 13: Malta Strikes Axis Convoys, Axis -1 AP
    g.points("Axis", g.ap["Axis"] - 1)
    w.turn(2, "Air/Naval Support")
    w.roll("Allied Air Superiority die", [3], "Allied")  # + 1 zone B: 4 -> score 3
    w.roll("Axis Air Superiority die", [4], "Axis")  # - 1 zone E: 3 -> score 1
    w.move("asp", "Points 2")  # the Allies: 3 - 1 = 2 ASPs (6.1)
    w.move("naval-support", "Markers")  # no raw 6: no Naval Support (6.2)
    w.turn(2, "Allied Depot Removal")
    w.turn(2, "Allied Depot Placement")
    w.turn(2, "Allied Attack Points & Reserves")
    w.roll("Allied Organization die", [6], "Allied")
    g.points("Allied", min(12, g.ap["Allied"] + 5))
    w.turn(2, "Allied Replacements")
    w.turn(2, "Allied Reinforcement-Withdrawal")
    w.turn(2, "Allied Major Offensive")
    w.turn(2, "Allied Regular Movement")
    g.move_all(ARMOUR[:2], "4511")  # armour through two Italian ZOC hexes: 1 MP more each (9.31)
    w.move("7a-7sg", "4611")
    w.move("11h", "4412")
    w.move("4ind-7", "4711")
    w.move("6aus-17", "5009")
    w.move("6aus-19", "5310")
    w.turn(2, "Allied Regular Combat")
    # Maktila: 4ind-11, 70d-16, 7 RTR (8 CS) and Selby Force (2) with O'Connor overwhelm reduced
    # 1st Libyan (1 CS): 2 hits needed.
    attackers = ("4ind-11", "70d-16", "7rtr", "selby")
    for u in attackers:
        w.declare(u, "Declare attacker")
    w.declare("1lib", "Declare target")
    g.points("Allied", g.ap["Allied"] - 1)
    w.roll("Allied 6 dice", dice(10, sixes=5), "Allied")
    w.roll("Allied leader dice", dice(2), "Allied")
    w.move("1lib", "Axis Recoverable Eliminated")
    g.points("Allied", g.ap["Allied"] + 1)
    w.move("4ind-11", "4609")
    w.move("7rtr", "4609")  # armour: a second hex, empty and next to the attacked hex (10.27)
    w.move("7rtr", "4510")
    w.move("70d-16", "4609")
    g.illegal("10.27", lambda: w.move("70d-16", "4510"))  # infantry: the attacked hex only
    # Sofafi: the two armoured brigades (10 CS) attack 63rd Cirene (4 CS) from 4511.
    for u in ARMOUR[:2]:
        w.declare(u, "Declare attacker")
    w.declare("63cir", "Declare target")
    g.points("Allied", g.ap["Allied"] - 1)
    w.roll("Allied 6 dice", dice(10, sixes=2), "Allied")
    w.roll("Axis 6 dice", dice(4, sixes=2), "Axis")
    w.flip("7a-4arm")  # a step, and one hex of retreat for every attacker (10.22)
    if g.plant:  # to Nibeiwa, still next to Sofafi
        g.illegal("10.26", lambda: w.move("7a-4arm", "4510"))
        w.move("7a-7arm", "4610")
    else:
        g.move_all(ARMOUR[:2], "4610")  # the only hex away from Sofafi: 4512 and 4611 lie over the escarpment
    w.flip("63cir")  # two steps: no Italian retreat on Turn 2 (3.2)
    w.move("63cir", "Axis Recoverable Eliminated")
    w.turn(2, "Allied Exploitation Movement")
    g.illegal("9.5", lambda: w.move("4ind-7", "4712"))  # infantry exploit only in a Major Offensive
    g.illegal("9.0", lambda: w.move("61sir", "3409"))  # the Axis moves in the Allied player turn
    g.illegal("7.16", lambda: w.move("depot-allied", "5009"))  # no depot relocation without a Major Offensive
    g.illegal("7.3", lambda: g.points("Axis", g.ap["Axis"] + 1))  # an AP from nowhere
    w.move("7a-7sg", "4612")  # armour and motorized units exploit at half MA (9.5)
    w.turn(2, "Allied Exploitation Combat")
    g.illegal("4.0", lambda: w.turn(2, "Allied Regular Movement"))  # the phases run forward only


def turn_3(g: Game) -> None:
    """The rest of Turn 2 is skipped (4.0); Turn 3 to the Allied Exploitation Movement: a random
    event, the air award, a reserve turn, a replacement, the reinforcements, IPs."""
    w = g.w
    w.turn(2, "End of Turn")
    w.turn(3, "Random Events")
    w.roll("Random Events d66", [2, 3], "Allied")  # 23: Commonwealth Drafts, one more Allied replacement
    w.turn(3, "Air/Naval Support")
    w.roll("Allied Air Superiority die", [3], "Allied")  # + 1 zone B: score 3
    w.roll("Axis Air Superiority die", [4], "Axis")  # - 1 zone E: score 1; 2 ASPs: the marker stays
    g.illegal("6.1", lambda: w.move("asp", "Points 3"), later=1)  # 3 ASPs, not 2
    w.turn(3, "Allied Attack Points & Reserves")
    w.roll("Allied Organization die", [5], "Allied")  # row B: 4 AP; reserve requirement 1 (7.4)
    g.points("Allied", min(12, g.ap["Allied"] + 4))
    w.turn(3, "Allied Replacements")  # 1 on the track + 1 from the event (7.6)
    if g.plant:  # the returning brigade goes where reinforcements do not enter
        w.move("4ind-5", "5110")
    else:
        w.move("4ind-5", "6508")  # back from the Recoverable Eliminated box, reduced: 1 point
    w.turn(3, "Allied Reinforcement-Withdrawal")
    g.expect("7.6")
    w.move("2a-2sg", "Allied Reserve")  # 1 reserve unit: the requirement is met (7.4)
    g.move_all(("2a-3arm", "kdg"), "6508")
    g.illegal("7.7", lambda: w.move("9aus-20", "Allied Reserve"))  # a Turn 4 arrival
    g.illegal("7.7", lambda: w.move("montgomery", "6508"))  # Turn 21, and O'Connor still in play
    w.turn(3, "Allied Major Offensive")
    g.expect("13.1")  # two Allied leaders on the map when the segment ends
    w.turn(3, "Allied Regular Movement")
    w.move("ip", "5310")  # 6aus-19 did not move: an IP-1 (12.1), 1 AP
    g.points("Allied", g.ap["Allied"] - 1)
    if g.plant:
        w.move("6aus-17", "5110")
        g.illegal("12.1", lambda: w.move("ip#2", "5110"))  # on a unit that moved this phase
        g.points("Allied", g.ap["Allied"] - 1)
        g.illegal("12.2", lambda: w.move("ip#3", "6508"))  # no IP in Alexandria
        g.points("Allied", g.ap["Allied"] - 1)
    g.illegal("7.8", lambda: w.move("7a-7sg", "Allied Reserve"))  # withdrawn outside its segment
    w.turn(3, "Allied Exploitation Movement")
    g.illegal("12.1", lambda: w.move("ip#4", "5310"))  # no IP in Exploitation
    g.illegal("16.1", lambda: w.flip("fortress-bardia"))  # Bardia destroyed with no combat
    w.turn(3, "Allied Exploitation Combat")


def play(wdf, tmp_path: Path, plant: bool, drag: bool = False):
    game, vmod = wdf
    w = LogWriter(vmod, players=PLAYERS)
    g = Game(w, plant, drag)
    for part in (turn_1_allied, turn_1_axis, turn_2, turn_3):
        part(g)
    path = tmp_path / ("planted.vlog" if plant else "legal.vlog")
    w.write(path)
    return g, audit_file(game, path)


def test_the_legal_game_has_no_violation(wdf, tmp_path, drag):
    _, report = play(wdf, tmp_path, plant=False, drag=drag)
    assert [(f.step, f.rule, f.message) for f in report.violations] == []
    assert report.summary.last_turn == 3 and report.summary.steps > 100
    assert [(f.rule, f.message.split(":")[0]) for f in report.findings] == [
        ("5.0", "random event 13 (Allied 1, Axis 3)"), ("5.0", "random event 23 (Allied 2, Axis 3)")]


def test_every_planted_move_is_found_and_nothing_else(wdf, tmp_path, drag):
    g, report = play(wdf, tmp_path, plant=True, drag=drag)
    assert len(g.planted) >= 20 and len({rule for _, rule in g.planted}) >= 15
    found = sorted((f.step, f.rule) for f in report.violations)
    assert found == sorted(g.planted), [(f.step, f.rule, f.message) for f in report.violations]
