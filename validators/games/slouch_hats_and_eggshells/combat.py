"""Combat (10.1-10.5, 11.1, 12.1-12.5, 13.3, 19.13): each combat die bound to its declared combat,
the odds, column shifts and CRT result, and the losses, retreats and advances applied (digest
10.1 ranks 1, 2, 5, 6 and part of 13).

How a combat shows in a log of our module (its conventions):
- In the attacker's Combat phase (or at the end of his Movement phase, 10.12), the attacking units' **Declare attacker** ("Combat: NAME
  attacks from HEX"), a unit of the Defender Hex's **Declare defender** ("Combat: defender hex
  HEX (NAME)"), supporting artillery's **Artillery support** (either side), a unit's **Combat
  supply** when its SP is spent (6.61; a defending unit's declares Defense Combat Supply);
  air units flying close air support and naval units giving fire support are dragged onto the
  Defender Hex (air) or a sea hex next to it (naval) after the first declaration.  Then the
  attacker's "<Side> combat die" (10.43).  The first declaration after a die opens the next
  combat; the end of the phase closes the last.
- After the die, the participants' changes until the combat closes are its result: a Step
  flip is one step, a unit sent to its Cadre or Eliminated box its remaining steps; a defender's
  move is a retreat, an attacker's move into the Defender Hex an advance, elsewhere a retreat.

Choice (10.11, 10.12): attacks may all be declared at the end of the Movement phase and resolved
in any order; when several Defender Hexes are declared before a die, the log cannot bind each
die to its combat: as many dice as Defender Hexes are accepted, and neither those combats nor
the moves of the rest of that Combat phase, nor its mandatory attacks (10.15), are judged.

The result is judged against every result the known facts allow, so that an unseen choice
never gives a false finding (Choices):
- attack strength: Light units double every non-Light unit of both sides (10.53a); the
  defender's terrain doubles its non-armored units (10.25, 10.26a); mountain units double
  attacking a mountain hex (10.52a); an attacker without Attack Combat Supply is halved, round
  down (6.63c) - taken as supplied when it declared Combat supply, else both ways;  Axis Event Q
  may make an Axis Light unit not Light (both ways when only Axis Light units trigger 10.53a);
- shifts (10.42c: net at most 3): defender without Defense Combat Supply 1 right (6.64b; none
  when a defender declared Combat supply or every defender is Light, 10.53b; else both ways);
  terrain 1 left - the most favourable one only (10.22): a rough hex, or a ridge or wadi
  hexside every non-artillery attacker attacks across; artillery with naval, and air, support
  differentials (11.14, 13.33, tables/support-differential.yaml); German AA defending against
  armor 1 left (10.51); events (Allied G and H, Axis H, 20.2) 1 either way only when an event
  marker changed in the phase;
- losses: the CRT's steps, +1 each side in a Major Battle (12.23: both sides 6+ stacking points,
  non-adjacent artillery aside), +1 on the side of a '*' (12.24: or an air unit instead),
  -1 when the other side was wiped out with loss left over (12.25); more steps than that only
  with a retreat result (no retreat route, overstacking: 12.22, 12.33).
- retreats into OoS hexes (12.36) and when Fired artillery flips back (11.18) are not checked; a
  retreat through enemy ZOC (12.4) is judged when the combat closes, on the attacker's ZOC as the
  defender began to retreat (before any advance).
- 12.24: the '*' is required only when every possible result carries it; when a German AA unit
  defends against attacking armor, the armor's losses are judged under 10.51 alone.
- 10.51: "armor unit" is the `armor` type only (armored cars are not armor units in 2.24); the
  order of the losses is not in the log, so any step an armor attacker lost satisfies the rule; a
  '*' taken as an air unit (12.24) is no step of an attacking unit.
- 10.15: a hex no unit of the attacker's hex could attack (10.16, 10.24, 10.26) is not required
  ("eligible attacking unit"), nor one whose enemy units all left it in the phase or all defended
  already (10.32); the ZOC is worked out when the die is rolled.

`Combats` (a tracker) binds declarations, die, losses and moves to each combat and works out its
possible results; the rules judge them.  Results at the act (issue 31): a side's losses beyond
what every possible result allows (12.21: an attacker's result applied to the defender, say) and
a unit sent to a box no result allows (12.22: eliminated on a D1) are reported at that flip or
move; losses short of the result are judged when the combat closes (a loss may follow a retreat)
and reported at the move of the side's first unit that left the fight having lost no step (it
retreated instead of losing the step), else at the close (an omission); the retreat paths when
the combat closes (`Combat._close`).
"""
from __future__ import annotations

from fractions import Fraction

from validators.games.slouch_hats_and_eggshells.events import EventMarkers
from validators.games.slouch_hats_and_eggshells.state import ARTILLERY, ATTACKER, DEFENDER, SUPPLY
from validators.games.slouch_hats_and_eggshells.units import Forces, MoveCosts
from validators.kernel.combat import distance_from, odds_column, retreat_path
from validators.kernel.declarations import Declared
from validators.kernel.movement import Blocked
from validators.kernel.rule import Rule, Tracker
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Flipped, Moved, Removed, Rolled

DIE_SUFFIX = " combat die"
ARMOR = "armor"  # 10.51 (see the docstring)
ROLES = (ATTACKER, DEFENDER, ARTILLERY, SUPPLY)


class Result(Record):
    """One result of the Combat Results Table: steps lost by each side, retreats, elimination."""

    __slots__ = ("a", "d", "ar", "dr", "de", "special")

    def __init__(self, a: int = 0, d: int = 0, ar: bool = False, dr: bool = False, de: bool = False,
                 special: str | None = None):
        self.a, self.d, self.ar, self.dr, self.de = a, d, ar, dr, de
        self.special = special  # 'attacker' | 'defender'

    @classmethod
    def parse(cls, text: str) -> Result:
        r = cls()
        for tok in text.split():
            star, tok = tok.endswith("*"), tok.rstrip("*")
            if tok in ("AR", "DR", "DE"):
                setattr(r, tok.lower(), True)
            elif tok[0] == "A":
                r.a = int(tok[1])
            elif tok[0] == "D":
                r.d, r.dr = int(tok[1]), r.dr or tok.endswith("R")
            if star:
                r.special = "attacker" if tok.startswith("A") else "defender"
        return r


class SHCombat(Record):
    """One combat: who attacks and defends where, the support, the die and what followed."""

    __slots__ = ("attacker", "defender", "attackers", "defender_hex", "defenders", "passengers", "artillery",
                 "supplied", "more_hexes", "dice", "air", "die", "faults", "below_minimum", "results", "nominal",
                 "odds", "steps", "stacking", "lost", "boxes", "trails", "retreat_zoc", "left")

    def __init__(self, attacker: str, defender: str):
        self.attacker, self.defender = attacker, defender
        self.attackers: dict[str, str] = {}  # piece id -> hex it attacks from
        self.defender_hex: str | None = None
        self.defenders: dict[str, str] = {}  # counted defenders -> hex
        self.passengers: set[str] = set()  # retreated into the hex earlier (12.35)
        self.artillery: dict[str, tuple[str, str]] = {}  # piece -> (hex, side)
        self.supplied: set[str] = set()
        self.more_hexes: set[str] = set()  # further Defender Hexes declared before the die
        self.dice = 0
        self.air: set[str] = set()  # air/naval marker ids moved in for support
        self.die: int | None = None
        self.faults: list[tuple] = []  # (rule, message, piece, from, to) found at the die
        self.below_minimum = False  # 10.31
        self.results: dict[str, Result] = {}  # possible result text -> parsed
        self.nominal: str | None = None
        self.odds = ""
        self.steps: dict[str, int] = {}  # side -> steps at the die
        self.stacking: dict[str, int] = {}
        self.lost: dict[str, int] = {}  # piece -> steps lost
        self.boxes: dict[str, str] = {}  # piece -> box it went to
        self.trails: dict[str, list[str]] = {}  # piece -> hexes since the die
        self.retreat_zoc: frozenset[str] | None = None  # the attacker's ZOC when the defender began to retreat (12.4)
        # side -> (step, piece) of each unit that moved off while it had lost no step (12.21: a
        # unit that retreats instead of taking the loss)
        self.left: dict[str, list[tuple[int, str]]] = {}

    def side_of(self, pid: str) -> str | None:
        if pid in self.attackers:
            return self.attacker
        return self.defender if pid in self.defenders or pid in self.passengers else None


class Combats(Tracker):
    """Each combat of a Combat phase: its declarations, its die, the odds and the results it could
    have, and what happened to its units after the die (losses, boxes, trails)."""

    needs = (Forces, MoveCosts, EventMarkers)

    def start(self) -> None:
        self.forces, self.costs, self.events = self.ctx.get(Forces), self.ctx.get(MoveCosts), self.ctx.get(EventMarkers)
        self.crt = self.tables["combat"]
        self.columns: list[str] = list(self.crt["columns"])
        self.differential = self.tables["support-differential"]["differential"]
        self.crt_note = self.state.reconstructed("combat", "terrain-effects", "support-differential")
        self.combat_now: SHCombat | None = None
        self.combats: list[SHCombat] = []  # every combat resolved, in order (for reports and tests)
        self.closed: list[SHCombat] = []  # every combat closed, in order (a rule judges each once, at the close)
        self._read: dict[type, int] = {}  # rule class -> combats of `closed` it has read
        self.taken: Declared | None = None  # the declaration just bound to a combat
        self.die_fault: tuple[str, str, str | None] | None = None  # (rule, message, side) of the roll just heard
        self.resolved: SHCombat | None = None  # the combat the roll just heard resolved
        self.move_part: tuple[SHCombat | None, str | None] | None = None  # the move just heard: its combat, side
        self._reset()

    def _reset(self) -> None:
        self.fought: set[str] = set()  # pieces in a combat of the side's last Combat phase
        self.attacked: set[str] = set()
        self.defended: set[str] = set()
        self.retreated_to: dict[str, str] = {}  # piece -> hex it retreated into this phase
        self._events_at_start = self.events.changed
        self.unjudged = False  # attacks declared together: the phase's moves are not judged

    @property
    def event_seen(self) -> bool:
        """An event marker changed in this Combat phase: an event may have been played (20.14)."""
        return self.events.changed > self._events_at_start

    def phase_started(self, pid: str) -> None:
        if self.state.phase_kind == "combat":
            self._reset()

    def phase_ended(self, pid: str) -> None:
        c = self.combat_now
        if not (self.state.phase_kind == "movement" and c is not None and c.die is None):
            self._close()  # 10.12: attacks declared at the end of the Movement phase wait for their die

    def _open(self) -> SHCombat | None:
        c = self.combat_now
        if c is not None and c.die is None:
            return c
        self._close()
        side = self.state.phase_side
        if side is None:
            return None
        self.combat_now = SHCombat(side, self.board.other_side[side])
        return self.combat_now

    def _close(self) -> None:
        c, self.combat_now = self.combat_now, None
        if c is not None:
            self.closed.append(c)

    def newly_closed(self, rule: Rule) -> list[SHCombat]:
        """The combats closed since `rule` last asked."""
        seen, self._read[type(rule)] = self._read.get(type(rule), 0), len(self.closed)
        return self.closed[seen:]

    def declared(self, d: Declared) -> None:
        self.taken = None
        piece, role = d.piece, d.name
        if role not in ROLES or not self.board.unit_of(piece):
            return
        opening = role in (ATTACKER, DEFENDER)
        c = self._open() if opening else self.combat_now
        if c is None or (c.die is not None and not opening):
            return  # support and supply are declared before the die
        self.taken = d
        if role == ATTACKER:
            c.attackers[piece.id] = d.where
        elif role == DEFENDER:
            if c.defender_hex not in (None, d.where):
                c.more_hexes.add(d.where)  # several attacks declared at once (see Choices)
            else:
                c.defender_hex = d.where
        elif role == ARTILLERY:
            c.artillery[piece.id] = (d.where, self.board.side_id(piece))
        else:
            c.supplied.add(piece.id)

    def rolled(self, e: Rolled) -> None:
        self.die_fault = self.resolved = None
        if not e.button.endswith(DIE_SUFFIX) or not e.dice:
            return
        st, board = self.state, self.board
        side = board.side_ids.get(e.button[: -len(DIE_SUFFIX)])
        name = board.side_names.get(side or "")
        if st.phase_kind != "combat":
            self.die_fault = ("10.43", f"a combat die outside a Combat phase ({st.phase})", name)
            return
        if side != st.phase_side:
            self.die_fault = ("10.43", f"the {name} combat die in the {st.phase}: the attacker rolls for his attack", name)
            return
        c = self.combat_now
        if c is None:
            self.die_fault = ("10.12", "a combat die with no combat declared (Declare attacker, Declare defender) "
                              "before it", name)
            return
        c.dice += 1
        if c.die is not None:
            if c.dice > 1 + len(c.more_hexes):
                self.die_fault = ("10.43", f"a second combat die for the combat on {c.defender_hex}: one die a combat",
                                  name)
            return
        if not c.attackers or c.defender_hex is None:
            self.die_fault = ("10.12", "a combat die before both the attackers and the Defender Hex were declared", name)
            c.die = e.dice[0]
            return
        c.die = e.dice[0]
        if c.more_hexes:  # the dice cannot be told apart: not judged (see Choices)
            self.fought |= set(c.attackers)
            self.unjudged = True
            return
        self.combats.append(c)
        self.resolved = c
        self._resolve(c)

    def _resolve(self, c: SHCombat) -> None:
        d_hex, geo, board, forces = c.defender_hex, self.game.geometry, self.board, self.forces
        pieces = board.replayer.board.pieces
        self.fought |= set(c.attackers)
        for p in forces.combat_units(d_hex, c.defender):
            if self.retreated_to.get(p.id) == d_hex:
                c.passengers.add(p.id)
            else:
                c.defenders[p.id] = d_hex
        if not c.defenders and not c.passengers:
            c.faults.append(("10.24", f"{d_hex} holds no enemy combat unit: only a hex with enemy combat units is "
                             "attacked", None, None, d_hex))
            c.results = {}
            return
        for pid, h in sorted(c.attackers.items()):
            p, u = pieces.get(pid), board.unit_of(pieces[pid]) if pid in pieces else None
            if p is None or u is None:
                continue
            if board.side_id(p) != c.attacker:
                c.faults.append(("10.12", f"{p.name} is not a unit of the attacking side", p, h, d_hex))
            elif not geo.adjacent(h, d_hex):
                c.faults.append(("10.13", f"{p.name} attacks {d_hex} from {h}: attackers stand next to the Defender "
                                 "Hex", p, h, d_hex))
            elif not board.printed(u, p, "attack"):
                c.faults.append(("10.16", f"{p.name} has no attack strength: it cannot attack", p, h, d_hex))
            else:
                c_ = self.costs.step_cost(h, d_hex, forces.move_class(u))
                if isinstance(c_, Blocked):
                    rule = "10.26" if c_.rule == "8.35" else "10.24"
                    c.faults.append((rule, f"{p.name} attacks {d_hex} from {h} across or into {c_.why}, which it may "
                                     f"not cross or enter{self.state.reconstructed('terrain-effects')}", p, h, d_hex))
            if pid in self.attacked:
                c.faults.append(("10.32", f"{p.name} already attacked in this Combat phase", p, h, d_hex))
        for pid in c.defenders:
            if pid in self.defended:
                c.faults.append(("10.32", f"{pieces[pid].name} already defended in this Combat phase", pieces[pid], None,
                                 d_hex))
        self.attacked |= set(c.attackers)
        self.defended |= set(c.defenders)
        ok = not c.faults  # a combat with a fault so far has no odds
        for pid, (h, side) in sorted(c.artillery.items()):
            p = pieces.get(pid)
            u = board.unit_of(p) if p else None
            if u is None:
                continue
            if not u.range:
                c.faults.append(("11.13", f"{p.name} is not artillery: only units with a range fire in support", p, h,
                                 d_hex))
            elif geo.distance(h, d_hex) > u.range:
                c.faults.append(("11.13", f"{p.name} in {h} is {geo.distance(h, d_hex)} hexes from {d_hex}, beyond its "
                                 f"range {u.range}", p, h, d_hex))
        self._bombers(c)
        if ok:
            self._odds(c)

    def _strengths(self, c: SHCombat, light_axis: bool) -> tuple[Fraction, Fraction, Fraction]:
        """(attack if every undeclared attacker is halved, attack if none is, defense)."""
        board = self.board.replayer.board.pieces
        d_hex = c.defender_hex
        part = [board[i] for i in list(c.attackers) + list(c.defenders) if i in board]

        def light(p) -> bool:
            u = self.board.unit_of(p)
            return u.light and (light_axis or self.board.side_id(p) != "axis")
        doubling = any(light(p) for p in part)
        hex_spec = self.forces.tec["hex"].get(self.game.hex_terrain.get(d_hex, ""), {})
        terrain_double = bool(hex_spec.get("defense", {}).get("double"))
        mountain = self.game.hex_terrain.get(d_hex) == "mountain"
        lo = hi = Fraction(0)
        for pid in c.attackers:
            p = board.get(pid)
            if p is None:
                continue
            u = self.board.unit_of(p)
            v = (self.board.printed(u, p, "attack") or 0) * (2 if doubling and not light(p) else 1)
            v *= 2 if mountain and u.mountain else 1
            hi += v
            lo += v if pid in c.supplied else v // 2
        defense = Fraction(0)
        for pid in c.defenders:
            p = board.get(pid)
            if p is None or pid in c.artillery:
                continue  # artillery firing in support adds no defense (11.22)
            u = self.board.unit_of(p)
            defense += (self.board.printed(u, p, "defense") or 0) * (2 if doubling and not light(p) else 1) * \
                (2 if terrain_double and not self.forces.is_armored(u) else 1)
        return lo, hi, defense

    def _diff_columns(self, diff: int) -> int:
        for row in self.differential:
            if int(row["min"]) <= abs(diff) <= int(row["max"]):
                return int(row["columns"]) * (1 if diff > 0 else -1)
        return 0

    def _odds(self, c: SHCombat) -> None:
        board = self.board.replayer.board.pieces
        axis_light = any(self.board.unit_of(board[i]).light for i in list(c.attackers) + list(c.defenders)
                         if i in board and self.board.side_id(board[i]) == "axis")
        variants = [self._strengths(c, True)] + ([self._strengths(c, False)] if axis_light and self.event_seen else [])
        bases = set()
        best = -1
        for lo, hi, dfn in variants:
            a, b = odds_column(self.columns, lo, dfn), odds_column(self.columns, hi, dfn)  # 10.42; -1 below 1-4
            best = max(best, b)
            bases |= set(range(a, b + 1))
        lo, hi, dfn = variants[0]
        c.odds = f"attack {lo}-{hi} against defense {dfn}"
        if best < 0:
            c.below_minimum = True
            return
        lo_s, hi_s, why = self._shifts(c)
        cap = int(self.crt.get("max_net_shift", 3))
        finals = set()
        for base in bases:
            base = max(base, 0)
            for s in range(lo_s, hi_s + 1):
                finals.add(min(len(self.columns) - 1, max(0, base + max(-cap, min(cap, s)))))
        texts = [self.crt["results"][self.columns[i]][c.die - 1] for i in sorted(finals)]
        c.results, c.nominal = {t: Result.parse(t) for t in texts}, texts[len(texts) // 2]
        c.odds += f", columns {', '.join(self.columns[i] for i in sorted(finals))} ({why}), die {c.die}"
        for side, ids in ((c.attacker, c.attackers), (c.defender, c.defenders)):
            units = [(self.board.unit_of(board[i]), board[i]) for i in ids if i in board]
            c.steps[side] = sum(self.forces.steps_now(u, p) for u, p in units)
            c.stacking[side] = sum(u.stacking or 0 for u, p in units)
        for pid, (h, side) in c.artillery.items():
            if pid in board and side == c.attacker and self.game.geometry.adjacent(h, c.defender_hex):
                c.stacking[side] = c.stacking.get(side, 0) + (self.board.unit_of(board[pid]).stacking or 0)

    def _terrain_shift(self, c: SHCombat) -> int:
        """10.22: the terrain's left shift, the most favourable one only: the Defender Hex's, or a
        hexside every non-artillery attacker attacks across."""
        board, d_hex = self.board.replayer.board.pieces, c.defender_hex
        terrain = self.forces.tec["hex"].get(self.game.hex_terrain.get(d_hex, ""), {}).get("defense", {}).get("shift", 0)
        movers = [(pid, h) for pid, h in c.attackers.items() if pid in board and self.board.unit_of(board[pid]).type != "artillery"]
        for feature, spec in sorted(self.forces.tec["hexside"].items()):
            shift = spec.get("defense", {}).get("shift", 0)
            if shift and movers and all(feature in self.costs.chart.features(h, d_hex) for _, h in movers):
                terrain = min(terrain, shift)
        return terrain

    def _bombers(self, c: SHCombat) -> None:
        """13.36: bombers fly close air support only into a mountain Defender Hex or where the
        terrain would shift the attack left."""
        pieces = self.board.replayer.board.pieces
        bombers = [pieces[i] for i in sorted(c.air) if i in pieces and self.forces.is_bomber(pieces[i])]
        if bombers and self.game.hex_terrain.get(c.defender_hex) != "mountain" and not self._terrain_shift(c) < 0:
            for p in bombers:
                c.faults.append(("13.36", f"{p.name} is a bomber: it gives close air support only into mountain or where "
                                 f"the terrain shifts the attack left, and {c.defender_hex} gives neither"
                                 f"{self.state.reconstructed('terrain-effects')}", p, None, c.defender_hex))

    def _shifts(self, c: SHCombat) -> tuple[int, int, str]:
        """The least and most net shift the facts allow, and why."""
        board = self.board.replayer.board.pieces
        shifts: list[tuple[int, int, str]] = []  # (least, most, why)
        defenders = [board[i] for i in c.defenders if i in board]
        if not (set(c.defenders) & c.supplied) and not all(self.board.unit_of(p).light for p in defenders):
            shifts.append((0, 1, "defender's supply unknown: 0 or 1 right (6.64b)"))
        terrain = self._terrain_shift(c)
        if terrain:
            shifts.append((terrain, terrain, f"terrain {terrain}"))
        art = {c.attacker: 0, c.defender: 0}
        for pid, (h, side) in c.artillery.items():
            if pid in board and side in art:
                art[side] += self.board.unit_of(board[pid]).support or 0
        air = {c.attacker: 0, c.defender: 0}
        for pid in c.air:
            p = board.get(pid)
            side = self.forces.air_side(p) if p else None
            if side not in air:
                continue
            if self.forces.marker_id(p).startswith("naval-"):
                art[side] += self.forces.air_support(p)  # 19.13: naval fire support counts as artillery
            else:
                air[side] += self.forces.air_support(p)
        for name, pts in (("artillery", art), ("air", air)):
            s = self._diff_columns(pts[c.attacker] - pts[c.defender])
            if s:
                shifts.append((s, s, f"{name} {pts[c.attacker]} vs {pts[c.defender]}: {s:+d}"))
        aa = any(self.forces.is_german_aa(self.board.unit_of(p)) for p in defenders)
        if aa and any(self.forces.is_armored(self.board.unit_of(board[i])) for i in c.attackers if i in board):
            shifts.append((-1, -1, "German AA against armor -1 (10.51)"))
        if self.event_seen:
            shifts.append((-1, 1, "an event marker changed this phase: 1 either way (20.2)"))
        return (sum(s[0] for s in shifts), sum(s[1] for s in shifts),
                "; ".join(s[2] for s in shifts) or "no shift")

    def flipped(self, e: Flipped) -> None:
        c = self.combat_now
        if c is not None and c.die is not None and c.side_of(e.piece.id) and e.layer == "Step":
            c.lost[e.piece.id] = c.lost.get(e.piece.id, 0) + (e.new - e.old)

    def removed(self, e: Removed) -> None:
        c = self.combat_now
        u = self.board.unit_of(e.piece)
        if c is not None and c.die is not None and u is not None and c.side_of(e.piece.id):
            c.lost[e.piece.id] = c.lost.get(e.piece.id, 0) + self.forces.steps_now(u, e.piece)
            c.boxes[e.piece.id] = "removed"

    def moved(self, e: Moved) -> None:
        self.move_part = None
        if self.state.phase_kind != "combat" or self.unjudged:
            return
        p, old, new = e.piece, e.old.label, e.new.label
        c = self.combat_now
        mid = self.forces.marker_id(p)
        if c is not None and c.die is None and c.defender_hex and mid.startswith(("air-", "naval-")):
            if new == c.defender_hex or (mid.startswith("naval-") and self.board.on_map(new)
                                         and self.game.geometry.adjacent(new, c.defender_hex)):
                c.air.add(p.id)
            return
        u = self.board.unit_of(p)
        if u is None or old == new:
            return
        side = c.side_of(p.id) if c is not None and c.die is not None else None
        if new in self.forces.loss_boxes:
            if side:
                c.lost[p.id] = c.lost.get(p.id, 0) + self.forces.steps_now(u, p)
                c.boxes[p.id] = self.forces.loss_boxes[new]
            return
        if not self.board.on_map(old) or not self.board.on_map(new):
            return
        self.move_part = c, side
        if side is None:
            return
        if p.id not in c.trails and not c.lost.get(p.id):
            c.left.setdefault(side, []).append((self.state.step, p.id))
        trail = c.trails.setdefault(p.id, [old])
        if trail[-1] != old:
            trail.append(old)
        trail.append(new)
        if side == c.defender:
            self.retreated_to[p.id] = new
            if c.retreat_zoc is None:  # before any advance changes it
                c.retreat_zoc = self.costs.enemy_zoc(c.defender)


class Combat(Rule):
    """10.1-12.5: one die a declared combat, the attacker's, in his Combat phase; attackers of the
    phasing side next to a Defender Hex of enemy units, with strength, not across terrain they may
    not cross, once a phase; artillery within range, firing once a Segment (3.43); odds at least
    1-4; losses, retreats (1 or 2 hexes, on a path a unit may take) and boxes as a result the CRT
    allows; in a Combat phase units move only to retreat or advance (4.21), attackers other than
    artillery and AA from their attack hex into the emptied Defender Hex."""

    ids = ("3.43", "4.21", "10.12", "10.13", "10.16", "10.24", "10.26", "10.31", "10.32", "10.43", "11.13", "12.11",
           "12.21", "12.22", "12.24", "12.3", "12.31", "12.32", "12.4", "12.51", "12.52", "12.56", "13.36")
    covers = ("6.61", "10.22", "10.25", "10.42", "10.53", "11.14", "12.23", "13.33", "19.13")
    needs = (Forces, MoveCosts, Combats)

    def start(self) -> None:
        self.forces, self.costs, self.combats = self.ctx.get(Forces), self.ctx.get(MoveCosts), self.ctx.get(Combats)
        self.crt_note = self.combats.crt_note
        self.tec_note = self.state.reconstructed("terrain-effects")
        self._fired: dict[str, tuple] = {}  # artillery piece -> (turn, segment) it last fired in
        self._over: set[tuple[int, str]] = set()  # (id of a combat, side) whose excess loss was reported at the act

    def declared(self, d: Declared) -> None:
        """3.43, 11.18: artillery that fired is Fired and cannot fire again in the Segment (the
        reading 3.43 and 11.18 share; when it flips back is not judged, digest 11.2 #2)."""
        if d.name == ARTILLERY and self.combats.taken is d:
            key = (self.state.turn, self.state.segment)
            if self._fired.get(d.piece.id) == key:
                self.find("3.43", f"{d.piece.name} already fired in this Segment: Fired artillery cannot fire again",
                          d.piece, None, d.where)
            self._fired[d.piece.id] = key
        self._closed()

    def rolled(self, e: Rolled) -> None:
        if (fault := self.combats.die_fault) is not None:  # (rule, message, side)
            self.find(fault[0], fault[1], side=fault[2])
        if (c := self.combats.resolved) is not None:
            for rule, message, piece, a, b in c.faults:
                self.find(rule, message, piece, a, b)
            if c.below_minimum:
                self.find("10.31", f"odds below 1-4 ({c.odds}): the minimum initial odds are 1-4{self.crt_note}", None,
                          None, c.defender_hex, side=self.board.side_names[c.attacker])

    def _closed(self, *_) -> None:
        for c in self.combats.newly_closed(self):
            if c.die is not None and c.results:
                self._close(c)

    phase_ended = _closed

    def _close(self, c: SHCombat) -> None:
        outcome = self._outcome(c)
        self._special(c, outcome)
        problems = None
        for text, r in c.results.items():
            found = self._mismatch(c, r, outcome)
            if not found:
                return self._boxes(c, c.results)
            if text == c.nominal or problems is None:
                problems = found
        first: dict[str, tuple] = {}  # each rule's first problem
        for rule, msg, *short in problems:
            first.setdefault(rule, (msg, short[0] if short else None))
        for rule, (msg, short) in first.items():
            at, piece = self._short_at(c, short) if rule == "12.21" else (None, None)
            self.find(rule, f"combat on {c.defender_hex}: {msg}; CRT {c.nominal} ({c.odds}){self.crt_note}", piece, None,
                      c.defender_hex, side=self.board.side_names[c.attacker], at=at)
        self._boxes(c, c.results)

    def _short_at(self, c: SHCombat, short: str | None) -> tuple[int | None, Piece | None]:
        """12.21 at the act: a side short of its losses is reported at the move of its first unit
        that left the combat having lost no step (it retreated instead of taking the loss), judged
        when the combat closes (a loss taken after a retreat still counts); with no such move, at
        the close (an omission, at its deadline)."""
        pieces = self.board.replayer.board.pieces
        for step, pid in c.left.get(short or "", ()):
            if not c.lost.get(pid) and pid not in c.boxes and pid in pieces:
                return step, pieces[pid]
        return None, None

    def _special(self, c: SHCombat, o: dict) -> None:
        """12.24: when every possible result carries the '*' on one side, that side loses one of its
        participating air units (13.15) or one step more of its participating armor or armored cars
        (the enemy having armor, armored cars or defending AA); neither participating, nothing."""
        sides = {r.special for r in c.results.values()}
        if len(sides) != 1 or None in sides:
            return
        side = c.attacker if sides == {"attacker"} else c.defender
        board, pieces, forces = self.board, self.board.replayer.board.pieces, self.forces
        own, other = (c.attackers, c.defenders) if side == c.attacker else (c.defenders, c.attackers)
        armored = ("armor", "armored-car")
        air = [i for i in c.air if i in pieces and forces.marker_id(pieces[i]).startswith("air-")
               and forces.air_side(pieces[i]) == side]
        armor = [i for i in own if i in pieces and board.unit_of(pieces[i]).type in armored]
        foes = [board.unit_of(pieces[i]) for i in other if i in pieces]
        if side == c.attacker and armor and any(forces.is_german_aa(u) for u in foes):
            return  # the armor's loss against German AA is judged under 10.51: one act, one finding (Choice)
        if not any(u.type in armored for u in foes):
            armor = []
        total, lost = c.steps.get(side, 0), o["lost"][side]
        if not (air or armor) or lost >= total:
            return
        returns = board.track_boxes("air-return")
        if any(i not in pieces or board.where(pieces[i]) in returns or board.where(pieces[i]).endswith("Eliminated")
               for i in air):
            return  # an air unit destroyed
        least = min(self._need(c, r)[1][side] for r in c.results.values())
        if armor and lost > least and any(c.lost.get(i, 0) > 0 for i in armor):
            return  # a step more, an armored one among the losses
        if not air and all(i in c.boxes for i in armor):
            return  # no armor step left to take (12.24b)
        who = "attacker" if side == c.attacker else "defender"
        self.find("12.24", f"combat on {c.defender_hex}: the '*' of {c.nominal} costs the {who} one of its participating "
                  f"air units or a step more of its armor, and it lost neither ({lost} step(s), the result {least}); "
                  f"{c.odds}{self.crt_note}", None, None, c.defender_hex, side=board.side_names[c.attacker])

    def _outcome(self, c: SHCombat) -> dict:
        board = self.board.replayer.board.pieces
        out = {"lost": {c.attacker: 0, c.defender: 0}, "stayed": {c.attacker: [], c.defender: []}}
        for ids, side in ((c.attackers, c.attacker), (c.defenders, c.defender)):
            for pid, h in ids.items():
                out["lost"][side] += max(0, c.lost.get(pid, 0))
                p = board.get(pid)
                if p is not None and pid not in c.boxes and self.board.hex_of(p) == h:
                    out["stayed"][side].append(p.name)
        for pid in c.passengers:  # 12.35: they share the retreat, absorb no loss
            p = board.get(pid)
            if p is not None and self.board.hex_of(p) == c.defender_hex:
                out["stayed"][c.defender].append(p.name)
        return out

    def _need(self, c: SHCombat, r: Result) -> tuple[dict, dict, dict]:
        """(steps at the die, steps the result takes, steps a '*' may add) by side (12.21, 12.23, 12.24)."""
        major = 1 if min(c.stacking.get(c.attacker, 0), c.stacking.get(c.defender, 0)) >= int(
            self.combats.crt.get("major_battle", {}).get("stacking_points", 6)) else 0
        total = {c.attacker: c.steps.get(c.attacker, 0), c.defender: c.steps.get(c.defender, 0)}
        need = {c.attacker: r.a + major, c.defender: (total[c.defender] if r.de else r.d + major)}
        extra = {c.attacker: 1 if r.special == "attacker" else 0, c.defender: 1 if r.special == "defender" else 0}
        return total, need, extra

    def _most(self, c: SHCombat, r: Result, side: str) -> int:
        """The most steps `side` may lose under result `r`: all with a retreat result (no route,
        overstacking: 12.22, 12.33), else what the result, a Major Battle and a '*' take."""
        total, need, extra = self._need(c, r)
        retreat = r.ar if side == c.attacker else (r.dr or r.de)
        return total[side] if retreat else min(total[side], need[side] + extra[side])

    def _mismatch(self, c: SHCombat, r: Result, o: dict) -> list[tuple]:
        """(rule, message[, side short of its losses]) for each way the outcome breaks result `r`."""
        out: list[tuple] = []
        total, need, extra = self._need(c, r)
        for side, other in ((c.attacker, c.defender), (c.defender, c.attacker)):
            lo = need[side] - (1 if need[other] + extra[other] > total[other] and o["lost"][other] >= total[other] else 0)
            lo = min(lo, total[side])
            hi = self._most(c, r, side)
            lost = o["lost"][side]
            who = "attacker" if side == c.attacker else "defender"
            if lost < lo:
                out.append(("12.11" if r.de and side == c.defender else "12.21",
                            f"the {who} lost {lost} step(s); the result requires {lo}", side))
            elif lost > hi:
                out.append(("12.21", f"the {who} lost {lost} step(s); the result allows at most {hi}"))
        if any(k[0] == id(c) for k in self._over):  # reported at the act: the other side's shortfall is the same act
            out = [x for x in out if x[0] != "12.21"]
        if r.dr and not r.de and o["stayed"][c.defender]:
            out.append(("12.3", f"{', '.join(o['stayed'][c.defender])} stayed in {c.defender_hex}: the result makes every "
                        "defending unit retreat"))
        if r.ar and o["stayed"][c.attacker]:
            out.append(("12.3", f"{', '.join(o['stayed'][c.attacker])} did not retreat: the result makes every attacking "
                        "unit retreat"))
        return out

    def _lost_now(self, piece: Piece) -> None:
        """12.21 at the act: a side that has lost more steps than every result allows (an
        attacker's result applied to the defender, say) is reported at the loss that passes it."""
        c = self.combats.combat_now
        side = c.side_of(piece.id) if c is not None and c.die is not None and c.results else None
        if side is None or (id(c), side) in self._over:
            return
        ids = c.attackers if side == c.attacker else c.defenders
        lost = sum(max(0, c.lost.get(i, 0)) for i in ids)
        most = max(self._most(c, r, side) for r in c.results.values())
        if lost > most:
            self._over.add((id(c), side))
            who = "attacker" if side == c.attacker else "defender"
            self.find("12.21", f"combat on {c.defender_hex}: the {who} has lost {lost} step(s) with {piece.name}; "
                      f"the result allows at most {most}; CRT {c.nominal} ({c.odds}){self.crt_note}", piece, None,
                      c.defender_hex, side=self.board.side_names[c.attacker])

    def flipped(self, e: Flipped) -> None:
        if e.layer == "Step" and e.new > e.old:
            self._lost_now(e.piece)

    def removed(self, e: Removed) -> None:
        self._lost_now(e.piece)

    def _boxed_now(self, e: Moved) -> None:
        """12.22 at the act: a unit of the combat sent to a loss box the results do not allow."""
        c = self.combats.combat_now
        pid = e.piece.id
        if c is None or c.die is None or not c.results or pid not in c.boxes:
            return
        self._lost_now(e.piece)
        results, box, side, p = c.results, c.boxes[pid], c.side_of(pid), e.piece
        if box.endswith("Eliminated") and not any(r.de or r.dr or r.ar for r in results.values()):
            self.find("12.22", f"{p.name} went to the Eliminated Box: with no 'E' result and no retreat a unit that "
                      "loses its last step goes to the Cadre Box", p, c.attackers.get(pid) or c.defender_hex,
                      e.new.label, side=self.board.side_names.get(side))
        elif box.endswith("Cadre") and side == c.defender and all(r.de for r in results.values()):
            self.find("12.22", f"{p.name} went to the Cadre Box: a DE result sends the defenders to the Eliminated Box",
                      p, c.defender_hex, e.new.label, side=self.board.side_names.get(side))

    def _boxes(self, c: SHCombat, results: dict[str, Result]) -> None:
        """12.32: the retreat paths, when the combat closes (the boxes are judged at the act)."""
        board = self.board.replayer.board.pieces
        for pid, trail in sorted(c.trails.items()):
            if c.side_of(pid) != c.defender or pid not in board:
                continue
            self._retreat_path(c, board[pid], trail)

    def _retreat_path(self, c: SHCombat, p: Piece, trail: list[str]) -> None:
        geo = self.game.geometry
        u = self.board.unit_of(p)
        end = trail[-1]
        d = geo.distance(c.defender_hex, end)
        if d == 0:
            return
        if d > 2:
            self.find("12.31", f"{p.name} retreated to {end}, {d} hexes from {c.defender_hex}: a retreat is 1 or 2 hexes",
                      p, c.defender_hex, end, side=self.board.side_of(p))
            return
        enemy = self.forces.enemy_hexes(c.defender)

        def blocked(a: str, b: str) -> str | None:
            if b in enemy:
                return f"{b} holds enemy combat units"
            step = self.costs.step_cost(a, b, self.forces.move_class(u))
            return f"{step.why} may not be crossed or entered" if isinstance(step, Blocked) else None
        path, why = retreat_path(geo, [c.defender_hex] + [h for h in trail[1:] if h != c.defender_hex],
                                 distance_from(geo, [c.defender_hex]), blocked)
        if path is None:
            self.find("12.32", f"{p.name} retreats {c.defender_hex} -> {end}: {why}{self.tec_note}", p, c.defender_hex,
                      end, side=self.board.side_of(p))
            return
        self._retreat_zoc(c, p, u, path, blocked)

    def _retreat_zoc(self, c: SHCombat, p: Piece, u, path: list[str], blocked) -> None:
        """12.41-12.44: a retreat through a vacant hex in the attacker's ZOC (no friendly combat unit
        there but the retreating ones, 12.42) only when no other path exists, never ending in one;
        a non-motorized unit only with a motorized unit of its combat retreating with it; a
        motorized one goes on to a hex out of the ZOC (its extra step is allowed by 12.21's bound)."""
        zoc = c.retreat_zoc if c.retreat_zoc is not None else self.costs.enemy_zoc(c.defender)
        movers = set(c.trails)

        def vacant_zoc(h: str) -> bool:
            return h in zoc and not any(q.id not in movers for q in self.forces.combat_units(h, c.defender))
        bad = [h for h in path[1:] if vacant_zoc(h)]
        if not bad:
            return
        end, geo, side = path[-1], self.game.geometry, self.board.side_of(p)
        escort = u.motorized or any(
            (v := self.board.unit_of(q)) is not None and v.motorized and bad[0] in c.trails.get(q.id, ())
            for q in self.board.replayer.board.pieces.values() if q.id in movers and q.id != p.id)
        why = None
        if vacant_zoc(end):
            why = f"it ends in {end}, a vacant hex in enemy ZOC: a unit whose only retreat ends there is eliminated"
        elif not escort:
            why = f"it is not motorized and no motorized unit retreats with it through {bad[0]}, a vacant hex in enemy ZOC"
        else:
            d = geo.distance(c.defender_hex, end)
            layer = {c.defender_hex}
            for _ in range(d):  # a retreat as long, each hex farther, through no vacant hex in enemy ZOC
                layer = {n for h in layer for n in geo.neighbours(h) if geo.distance(c.defender_hex, n) >
                         geo.distance(c.defender_hex, h) and not blocked(h, n) and not vacant_zoc(n)}
            if layer:
                why = f"it passes {bad[0]}, a vacant hex in enemy ZOC, while another retreat ({sorted(layer)[0]}) avoids one"
        if why is None and self.once("12.43", id(c)):
            total = c.steps.get(c.defender, 0)
            lost = sum(max(0, c.lost.get(i, 0)) for i in c.defenders)
            least = min(total, min((total if r.de else r.d) for r in c.results.values()) + 1) if c.results else 0
            if lost < least:
                why = (f"a retreat through {bad[0]}, a vacant hex in enemy ZOC, costs one step more than the result "
                       f"(12.43): the defender lost {lost}, at least {least}")
        if why:
            self.find("12.4", f"{p.name} retreats {c.defender_hex} -> {end}: {why}{self.tec_note}", p, c.defender_hex,
                      end, side=side)

    def moved(self, e: Moved) -> None:
        if e.new.label in self.forces.loss_boxes:
            self._boxed_now(e)
        found = self.combats.move_part  # a unit's hex-to-hex move in a Combat phase, its combat and side in it
        if found is None:
            return
        (c, side), p, new = found, e.piece, e.new.label
        if side is None and c is not None and p.id in c.artillery and new == c.defender_hex:
            self.find("12.56", f"{p.name}: artillery and AA units never advance after combat", p)
        elif side is None:
            self.find("4.21", f"{p.name} moves in the {self.state.phase}, where units move only to retreat or advance "
                      "after their combat", p)
        elif side == c.defender:
            if c.results and not any(r.dr for r in c.results.values()):
                self.find("12.3", f"{p.name} moves away from {c.defender_hex}, but the result ({c.nominal}) gives the "
                          f"defender no retreat ({c.odds}){self.crt_note}", p)
        elif new == c.defender_hex:
            if self.board.unit_of(p).type in ("artillery", "motorized-aa"):
                self.find("12.56", f"{p.name}: artillery and AA units never advance after combat", p)
            elif self.forces.combat_units(new, c.defender):
                self.find("12.51", f"{p.name} advances into {new} while enemy combat units are still there", p)
            elif c.trails[p.id][0] != c.attackers.get(p.id):
                self.find("12.52", f"{p.name} advances from {c.trails[p.id][0]}, not its attack hex", p)
        elif c.results and not any(r.ar for r in c.results.values()):
            self.find("12.52", f"{p.name} moves to {new}: an attacker moves after combat only to advance into the "
                      f"Defender Hex {c.defender_hex} (the result {c.nominal} has no attacker retreat)", p)


class GermanAA(Rule):
    """10.51: with a German AA unit defending against armor, the Allied force's first step lost
    is an armor unit's."""

    ids = ("10.51",)
    needs = (Forces, Combats)

    def start(self) -> None:
        self.forces, self.combats = self.ctx.get(Forces), self.ctx.get(Combats)
        self._aa_armor: dict[int, set[str]] = {}  # id of a combat -> its armor attackers

    def rolled(self, e: Rolled) -> None:
        c = self.combats.resolved  # the combat this roll resolved (one Defender Hex, its units known)
        if c is None or c.attacker != "allied":
            return
        board, pieces = self.board, self.board.replayer.board.pieces
        aa = any(self.forces.is_german_aa(board.unit_of(pieces[i])) for i in c.defenders if i in pieces)
        armor = {i for i in c.attackers if i in pieces and (u := board.unit_of(pieces[i])) is not None and u.type == ARMOR}
        if aa and armor:
            self._aa_armor[id(c)] = armor

    def _closed(self, *_) -> None:
        """Judged as a combat closes: at a declaration opening the next one, or at the phase's end."""
        for c in self.combats.newly_closed(self):
            if not (armor := self._aa_armor.pop(id(c), None)):
                continue
            lost = sum(max(0, c.lost.get(i, 0)) for i in c.attackers)
            if lost and not any(c.lost.get(i, 0) > 0 for i in armor):
                names = ", ".join(self.board.replayer.board.pieces[i].name for i in sorted(armor))
                self.find("10.51", f"combat on {c.defender_hex}: a German AA unit defends against armor and the "
                          f"attackers lost {lost} step(s), none from the armor ({names}): the first Allied loss "
                          f"is an armor step", None, None, c.defender_hex, side=self.board.side_names["allied"])

    declared = phase_ended = _closed


class MandatoryAttacks(Rule):
    """10.15: an enemy combat unit projecting a ZOC into an attacking unit's hex is attacked in the
    same Combat phase, by that unit or another eligible one."""

    ids = ("10.15",)
    needs = (Forces, MoveCosts, Combats)

    def start(self) -> None:
        self.forces, self.costs, self.combats = self.ctx.get(Forces), self.ctx.get(MoveCosts), self.ctx.get(Combats)
        self._must: dict[str, tuple[str, str]] = {}  # enemy hex -> (an attacker's name, its hex)
        self._attacked_hexes: set[str] = set()
        self._mandatory_unjudged = False

    def phase_started(self, pid: str) -> None:
        self._must, self._attacked_hexes, self._mandatory_unjudged = {}, set(), False

    def rolled(self, e: Rolled) -> None:
        c = self.combats.combat_now
        if self.state.phase_kind != "combat" or c is None or c.die is None or not self.once(id(c)):
            return
        if c.more_hexes or c.defender_hex is None:
            self._mandatory_unjudged = True
            return
        self._attacked_hexes.add(c.defender_hex)
        board, forces, geo, pieces = self.board, self.forces, self.game.geometry, self.board.replayer.board.pieces
        for pid, h in sorted(c.attackers.items()):
            p = pieces.get(pid)
            if p is None or h not in geo:
                continue
            own = forces.combat_units(h, c.attacker)
            for n in geo.neighbours(h):
                holders = [board.unit_of(q) for q in forces.combat_units(n, c.defender)]
                if not holders or all(u.no_zoc for u in holders) or not any(self.costs.passable(u, n, h) for u in holders):
                    continue
                if not any(board.printed(board.unit_of(q), q, "attack") and not isinstance(
                        self.costs.step_cost(h, n, forces.move_class(board.unit_of(q))), Blocked) for q in own):
                    continue
                self._must.setdefault(n, (p.name, h))

    def phase_ended(self, pid: str) -> None:
        st = self.state
        if st.phase_kind != "combat" or self._mandatory_unjudged:
            return
        enemy = self.board.other_side[st.phase_side]
        defended = self.combats.defended
        for n, (name, h) in sorted(self._must.items()):
            held = self.forces.combat_units(n, enemy)
            if n in self._attacked_hexes or not held or all(p.id in defended for p in held):
                continue  # attacked, emptied, or held only by units that defended already (10.32)
            units = ", ".join(p.name for p in held)
            self.find("10.15", f"{name} attacked from {h}, in the ZOC of {units} in {n}, which no attack of the "
                      f"{st.phase} took on: an enemy unit projecting a ZOC into an attacker's hex must be "
                      f"attacked{st.reconstructed('terrain-effects')}", None, h, n, side=self.board.side_names[st.phase_side])
