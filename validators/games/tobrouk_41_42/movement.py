"""Movement (2.22, 4.1, 4.2, 6.3, 7.1): who moves in which phase, along which path, for how many
MP (digest 10.1 rank 6, with the phase eligibility of rank 20).

A log shows where a move starts and ends: a move is legal when some path joins them within the
maneuver's MP (`kernel.movement.search`).  Costs come from tables/movement.yaml (reconstructed):
the terrain of the hex entered for the unit's class (foot, motorised, mechanised; recon units
the `recon` column, HQs motorised, Combat Group counters the `cg` column), the road or track
cost when the hex is entered along it (table note 2), plus the cost of the hexside crossed
(cliff and sea prohibited); +1 MP for each hex entered in an enemy ZoC (4.2e; ZoCs are fluid,
Q&A 6: no stop); all halved in rapid movement (4.2c), whose units never end a move next to an enemy
unit (4.2c'; see `_check_rapid`); an out-of-supply (RE) unit pays twice the
foot cost (4.2d).  The allowance is the MP its side chose for the maneuver (2.22c), read from
its MP marker.  Enemy combat units' hexes are never entered (7.1: opposing CU never share a hex).
`Moves` keeps where each unit's move of the maneuver began; HQ actions, Combat Groups and
reinforcements cost their moves by it.

Choices:
- 2.22, 4.1: several drags of one unit in one maneuver are one move, measured from the hex it
  stood in when its side's maneuver began.
- A unit taken off a Combat Group display in its side's maneuver starts its move at the CG's
  hex (7.33a: dissolving costs no MP).
- Outside a maneuver a unit moves only as a retreat (6.3: its hex holds a Retreat marker, in a
  combat phase) or an HQ's displacement (6.5c, in a combat phase); moves to and from the boxes
  off the map (Combat Group displays, eliminated units) are not movement.
- 12.4 (optional): the LRDG "can be activated freely once per maneuver but only to move, it has
  5 MP": it moves in any maneuver (the text names no side's), with 5 MP of its own, and retreats
  automatically in a combat phase (optional.py judges that retreat).
- 4.2e: a unit that ends its move in contact (in an enemy ZoC) must have begun it within the
  command radius of its own HQ (its HQ's range, counted as hexes between, 3.1d; +3 with Rommel
  stacked with it, 12.3).  Q&A 6 ("the
  only condition ... is whether it is In Command or not at the beginning of its movement") holds
  a move from one contact hex to another to it too; a unit that ends its move where it began
  (stepped out of contact and back) has not "moved into contact": no finding.
- Breached minefields (4.43c: 1 MP less): a breach marker lies in a hex and cannot name its
  hexside (Q&A 3: one hexside is breached); every minefield hexside of a hex holding one is taken
  as breached (the kindest reading).
"""
from __future__ import annotations

from fractions import Fraction

from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.units import CombatGroups, TobroukRule, Units, mid
from validators.kernel.movement import mp, search, show_mp
from validators.kernel.rule import Tracker
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Moved

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


MINEFIELDS = frozenset({"mines-light", "mines-heavy", "camp"})  # minefield hexsides a breach opens (4.43)


class MoveRecord(Record):
    """Where a unit's move of this maneuver began, and what its start hex's markers said."""

    __slots__ = ("start", "rapid", "exhausted")

    def __init__(self, start: str, rapid: bool, exhausted: bool):
        self.start, self.rapid = start, rapid
        self.exhausted = exhausted  # an RE marker: out of supply (4.2d)


class Moves(Tracker):
    """Each unit's move in this maneuver (where it began), its movement class and step costs."""

    needs = (Units, CombatGroups)

    def __init__(self, ctx):
        super().__init__(ctx)
        self.units_view, self.cgs = ctx.get(Units), ctx.get(CombatGroups)
        self.mv = self.tables["movement"]
        self.tec = self.game.table("terrain-effects").data  # schema.TerrainEffectsData
        self.moves: dict[str, MoveRecord] = {}
        self.moved_last: frozenset[str] = frozenset()  # pieces that moved in the last phase that ended (5.2d)
        self.left_cg: str | None = None  # the CG hex a unit just left its display for (a move within a phase)
        self.from_cg: MoveRecord | None = None  # the move that leaving opened in its side's maneuver
        self._steps: dict = {}  # (class, rapid, out of supply) -> its step callback
        self._movers: dict[str, tuple] = {}  # piece id -> (its state, mover())
        self.zoc_mp = mp(self.mv["enter_enemy_zoc"]["mp"])
        self.breach_less = mp(self.tec.get("breached_minefield", {}).get("less", 0))
        self._breaches_now()

    def phase_started(self, pid: str) -> None:
        self.moved_last = self._moved_away()  # in the phase that just ended (a maneuver's, before its combat)
        self.moves = {}

    def _moved_away(self) -> frozenset[str]:
        """Pieces whose move of the phase did not end where it began."""
        pieces, hex_of = self.board.replayer.board.pieces, self.board.hex_of
        return frozenset(i for i, rec in self.moves.items() if (p := pieces.get(i)) is None or hex_of(p) != rec.start)

    def move_class(self, p: Piece) -> str | None:
        u = self.board.unit_of(p)
        if u is None:
            return "cg" if mid(p) in self.units_view.cg_side else None
        if u.type == "recon":
            return "recon"
        if u.type in ("hq", "leader"):
            return "motorised"
        return u.mode

    def mover_side(self, p: Piece) -> str | None:
        return self.board.side_id(p) if self.board.unit_of(p) else self.units_view.cg_side.get(mid(p))

    def mover(self, p: Piece) -> tuple:
        """(unit, movement class, side) of a piece, worked out again only when its state changes:
        Moves and Movement both ask at every step of a unit, the commonest event of a log."""
        found = self._movers.get(p.id)
        if found is None or found[0] is not p.state:
            found = self._movers[p.id] = (p.state, (self.board.unit_of(p), self.move_class(p), self.mover_side(p)))
        return found[1]

    def record(self, p: Piece, start: str, at_start: bool = True) -> MoveRecord:
        ids = {mid(q) for q in (self.board.stood_in(start) if at_start else self.board.pieces_in(start))}
        rec = self.moves[p.id] = MoveRecord(start, "rapid" in ids, "re" in ids)
        return rec

    def added(self, e) -> None:
        if mid(e.piece) == "breach":
            self._breaches_now()

    removed = added

    def _breaches_now(self) -> None:
        """The hexes holding a breached-minefield marker (4.43a'), in `breaches`."""
        hex_of = self.board.hex_of
        self.breaches = frozenset(h for p in self.board.replayer.board.pieces.values()
                                  if mid(p) == "breach" and (h := hex_of(p)))

    def breached(self, a: str, b: str) -> bool:
        """Whether the minefield between two hexes may be breached: a breach marker lies in one of
        them (4.43a'; Q&A 3: a breach is one hexside, but the marker lies in a hex and names none)."""
        return a in self.breaches or b in self.breaches

    def moved(self, e: Moved) -> None:
        p = e.piece
        u, cls, side = self.mover(p)
        if u is None and mid(p) == "breach":  # (a unit's piece has no MarkerId)
            self._breaches_now()
        self.left_cg = self.from_cg = None
        geo, st = self.game.geometry.ids, self.state
        old, new = e.old.label, e.new.label
        if old in self.cgs.box and self.units_view.is_cu(p) and new in geo and st.phase_id is not None:
            at = self.cgs.on_map(self.cgs.box[old]) or self.cgs.hex.get(self.cgs.box[old])
            if at is not None and new != at:
                self.left_cg = at
                if st.phase_id in MANEUVERS and st.maneuvering() in (None, self.board.side_id(p)) and p.id not in self.moves:
                    self.from_cg = self.record(p, at, at_start=False)
            return
        if old not in geo or new not in geo or old == new or st.phase_id not in MANEUVERS:
            return
        if cls is None or side is None or (st.maneuvering() not in (None, side)
                                           and (u is None or u.id not in self.units_view.free_movers)):
            return
        if p.id not in self.moves:
            self.record(p, old)

    def step_cost(self, cls: str, rec: MoveRecord):
        """The step callback of a class (rapid movement, out of supply), its costs kept: the map
        does not change."""
        key = (cls, rec.rapid, rec.exhausted, self.breaches)
        found = self._steps.get(key)
        if found is None:
            base, memo = self._step_cost(cls, rec), {}

            def found(a: str, b: str) -> Fraction | None:
                c = memo.get((a, b), memo)
                if c is memo:
                    c = memo[a, b] = base(a, b)
                return c
            self._steps[key] = found
        return found

    def _step_cost(self, cls: str, rec: MoveRecord):
        hex_costs, along, side_costs = self.tec["hex"], self.tec["connected"], self.tec["hexside"]
        factor = Fraction(str(self.mv["rapid_movement"]["factor"])) if rec.rapid else Fraction(1)
        if rec.exhausted:
            cls, factor = self.mv["out_of_supply"]["pays"], factor * int(self.mv["out_of_supply"]["factor"])
        terrain, crossing = self.game.hex_terrain, self.units_view.crossing
        breaches, less = self.breaches, self.breach_less

        def step(a: str, b: str) -> Fraction | None:
            t = terrain.get(b)
            if t not in hex_costs:
                return None  # the sea
            features = crossing(a, b)
            cost = mp(hex_costs[t]["mp"][cls])
            for line in ("road", "track"):
                if line in features:
                    cost = min(cost, mp(along[line]["mp"][cls]))
            for f in sorted(features):
                spec = side_costs.get(f)
                if spec is None:
                    continue
                if spec.get("prohibited"):
                    return None
                if spec.get("mp") is not None:
                    cost += mp(spec["mp"][cls])
                    if f in MINEFIELDS and (a in breaches or b in breaches):
                        cost -= less  # 4.43c: a breached minefield costs 1 less (and still counts)
            return cost * factor
        return step

    def path(self, cls: str, rec: MoveRecord, side: str, goal: str, zoc: set[str] = frozenset()):
        """The cheapest path (kernel search) from the move's start to `goal`, never into an enemy
        combat unit's hex (7.1), +1 MP for each hex entered in `zoc` (4.2e)."""
        base, extra = self.step_cost(cls, rec), mp(self.mv["enter_enemy_zoc"]["mp"])

        def step(a: str, b: str) -> Fraction | None:
            c = base(a, b)
            return None if c is None else c + (extra if b in zoc else 0)
        return search(self.game.geometry.neighbours, rec.start, step, blocked=self.units_view.enemy_hexes(side),
                      goal=goal)

    def spent(self, p: Piece, side: str) -> tuple[Fraction, str] | None:
        """The cheapest cost of the piece's move this maneuver, and its start; None without a path."""
        rec = self.moves.get(p.id)
        here = self.board.hex_of(p)
        if rec is None or here is None or rec.start == here:
            return Fraction(0), here or ""
        cls = self.move_class(p)
        if cls is None:
            return None
        found = self.path(cls, rec, side, here, self.units_view.enemy_zoc(side))
        return (found.cost[here], rec.start) if here in found else None


class Movement(TobroukRule):
    """2, 2.22, 4.1, 4.2, 7.1: units move in their side's maneuver (in combat only to retreat or
    displace an HQ), along a path open to their class within the maneuver's MP, never into an enemy
    combat unit's hex, and into contact only from within their HQ's command radius."""

    ids = ("2", "2.22", "4.1", "4.2", "7.1")
    needs = (Units, Moves)

    def start(self) -> None:
        self.moves = self.ctx.get(Moves)
        self._within: dict[tuple, bool] = {}  # _direct_within by all it depends on

    def moved(self, e: Moved) -> None:
        moves, p = self.moves, e.piece
        if moves.from_cg is not None:  # off a CG display: the move starts at the CG's hex
            self._check_path(e, self.unit_of(p), self.side_id(p), moves.move_class(p), moves.from_cg, e.new.label)
            return
        old, new = e.old.label, e.new.label
        if old not in self.hexes or new not in self.hexes or old == new:
            return
        u, cls, side = moves.mover(p)
        if cls is None or side is None or self.state.phase_id is None:
            return
        phase = self.state.phase_id
        if phase in MANEUVERS and self.maneuvering() in (None, side):  # its own maneuver (_may_move's first case,
            self._check_path(e, u, side, cls, moves.moves[p.id], new)  # written out: nearly every step of a log)
        elif self._may_move(e, u, side) and phase in MANEUVERS:
            self._check_path(e, u, side, cls, moves.moves[p.id], new)

    def _may_move(self, e: Moved, u: s.Unit | None, side: str) -> bool:
        """2.22: units move in their side's maneuver; retreats (6.3) and HQ displacements (6.5)
        in a combat phase."""
        free = u is not None and u.id in self.free_movers
        if self.state.phase_id in MANEUVERS:
            if self.maneuvering() in (None, side):
                return True  # its own maneuver: nearly every move of a log
            if self.retreating(e.old.label) or self.units_view.stood_retreating(e.old.label):
                return False  # a retreat after an air strike (5.5f): retreats.py judges it
            if not free:
                name = self.side_names[side]
                self.find("2.22", f"{'an' if name[0] in 'AEIOU' else 'a'} {name} unit moved in the "
                          f"{self.side_name(self.maneuvering())} player's maneuver ({self.state.phase})", e.piece)
                return False
            return True
        if self.state.phase_id in COMBATS and (self.retreating(e.old.label) or self.units_view.stood_retreating(e.old.label)
                                         or (u and self.is_hq(e.piece)) or free):
            return False  # a retreat (the LRDG's automatic one, 12.4) or a displacement: not a maneuver
        self.find("2", f"units move in the maneuvers (B, D), and in combat only to retreat (6.3): not in the "
                  f"{self.state.phase}", e.piece)
        return False

    def _check_path(self, e: Moved, u: s.Unit | None, side: str, cls: str, rec: MoveRecord, new: str) -> None:
        if new in self.units_view.enemy_hexes(side):
            self.find("7.1", f"{new} holds enemy combat units: opposing units never share a hex", e.piece)
            return
        if rec.rapid or (len(self.board.step_moves) > 1 and self._rapid_along(e, new)):  # (a marker moved with it)
            self._check_rapid(e, side, rec, new)
        if new == rec.start:
            return  # back where it began: no cost, and no contact entered (_check_contact)
        zoc, allowance = self.enemy_zoc(side), self.free_movers.get(u.id if u else "", self.maneuver_mp(side))
        contact = new in zoc
        if self._direct_within(cls, rec, new, contact, allowance):
            if contact:  # (_check_contact judges only a move into contact: most steps are spared the call)
                self._check_contact(e, u, side, rec, new, contact)
            return
        geo, note, allowance = self.geo, self.reconstructed("movement", "terrain-effects"), Fraction(allowance)
        found = self.moves.path(cls, rec, side, new, zoc)
        if new not in found:
            why = (f"{rec.start} to {new} crosses a cliff or enters the sea: prohibited" if geo.adjacent(rec.start, new)
                   else f"no path from {rec.start} to {new} is open")
            self.find("4.2", f"{why} to a {cls} unit{note}", e.piece, rec.start)
            return
        cost, path = found.cost[new], found.path(new)
        if cost > allowance:
            if allowance == 0:
                why = f"the {self.side_names[side]} MP marker has not moved: no MP chosen for this maneuver (2.23)"
            else:
                why = f"the maneuver's {show_mp(allowance)} MP"
            zocs = sum(1 for h in path[1:] if h in zoc)
            extra = mp(self.moves.mv["enter_enemy_zoc"]["mp"])
            surcharge = f" ({zocs} enemy-ZoC hexes at +{show_mp(extra)} MP)" if zocs else ""
            mode = " in rapid movement" if rec.rapid else " out of supply (RE)" if rec.exhausted else ""
            self.find("4.1", f"cost {show_mp(cost)} MP for a {cls} unit{mode} via {'-'.join(path)}{surcharge} > {why}"
                      f"{note}", e.piece, rec.start, path=path)
        self._check_contact(e, u, side, rec, new, contact)

    def _rapid_along(self, e: Moved, new: str) -> bool:
        """A Rapid Movement marker dragged into `new` in the same step (with the unit's stack)."""
        for m in self.board.step_moves:
            if m is not e and m.new.label == new and mid(m.piece) == "rapid":  # (e's piece is no marker)
                return True
        return False

    def _check_rapid(self, e: Moved, side: str, rec: MoveRecord, new: str) -> None:
        """4.2c': a unit in rapid movement may not end a move next to an enemy unit, judged at each
        drag of its move, not only where the marker went down (issue 31).  Choice: where it began
        is judged when the marker is placed (modes.py), the hexes between are taken the kindest way."""
        near = sorted(n for n in self.geo.neighbours(new) if self.combat_units(n, self.other_side[side]))
        if near:
            self.find("4.2", f"{e.piece.name} in rapid movement ends its move in {new}, next to enemy units in "
                      f"{', '.join(near)} (4.2c')", e.piece, rec.start, new)

    def _direct_within(self, cls: str, rec: MoveRecord, new: str, contact: bool, allowance) -> bool:
        """A one-hex move whose own step is within the allowance: no search can find it over
        (the cheapest path costs at most that), and no finding needs the path."""
        moves = self.moves
        key = (cls, rec.rapid, rec.exhausted, moves.breaches, rec.start, new, contact, allowance)
        found = self._within.get(key)
        if found is None:  # a unit steps out and back between the same hexes all game: asked once
            if not self.geo.adjacent(rec.start, new):
                found = False
            else:
                c = moves.step_cost(cls, rec)(rec.start, new)
                found = c is not None and c + (moves.zoc_mp if contact else 0) <= allowance
            self._within[key] = found
        return found

    def _check_contact(self, e: Moved, u, side: str, rec: MoveRecord, new: str, contact: bool) -> None:
        if new == rec.start:
            return  # back where it began (several drags are one move, 4.1): it moved into no contact (4.2e)
        if u is not None and contact and not self.in_command(u, side, rec.start):
            self.find("4.2", f"{new} is in contact with the enemy: a unit enters contact only if it began its "
                      f"move within its HQ's command radius; {rec.start} is outside it", e.piece, rec.start)

    def in_command(self, u: s.Unit, side: str, hex_id: str) -> bool:
        """Within the command radius of the unit's own HQ (3.1d: hexes between); True when the log
        cannot tell (no HQ given, the HQ not on the map)."""
        if u.type in ("hq", "leader") or not u.hq:
            return True
        for p in self.replayer.board.pieces.values():
            hq = self.unit_of(p)
            if hq is not None and hq.id == u.hq and (h := self.hex_of(p)):
                reach = (hq.range_reduced if self.reduced(p) and hq.range_reduced is not None else hq.range) or 0
                if any((q := self.unit_of(x)) is not None and q.type == "leader" for x in self.pieces_in(h)):
                    reach += int(self.tables.get("optional", {}).get("switches", {}).get("rommel", {})
                                 .get("range_bonus", 3))  # 12.3: Rommel stacked with the HQ
                return self.geo.distance(h, hex_id) - 1 <= reach
        return True
