"""Movement (13.1-13.5) and zones of control (11.1-11.5): digest 10.1 rank 9, with the
movement half of rank 10 (overrun).

Costs come from tables/terrain-effects.yaml (reconstructed: the Terrain Effects Chart is on the
missing Player Aid Card), so every cost finding says so.  A unit's moves in one phase are costed
together: the cheapest legal path from where it stood when the phase began to where it is now.

Checked:
- 13.1: no enemy-occupied hex is entered except by an overrun (13.4, a "Declare overrun");
- 13.2: the path costs at most the MA (Movement Phase) or the RMA (Reaction Phase, 13.2.1:
  a quarter of the MA rounded up for a motorized unit, one hex for a non-motorized one; +2 with an
  HQ, 15.6);
- 13.2.2: a unit that began its move disrupted has half its MA (rounded up); out of general supply,
  a motorized unit its RMA and a non-motorized one half its MA; isolated (both markers), half; such
  a unit may neither force march nor road march (13.2.3 a-b, 13.2.4 a-b), nor react (8.2 f, 12.5 d);
- 13.5: a unit reacts only when it begins the phase within two hexes of an enemy unit, or in reserve,
  and (not in reserve) enters an EZOC only of enemy units already next to a friendly unit (a);
- 13.2.3: a declared road march adds 7 MP only to a move made wholly along road hexsides that
  never enters a hex next to an enemy unit, by a unit that began the move neither disrupted nor
  next to an enemy unit, in a Movement Phase (a-d, f); a move that only the +7 would allow is
  reported under 13.2.3 with the condition it breaks;
- 13.7 rail lift (tables/rail-lift.yaml): a move that only the rail allows costs 3 MP for the rail
  whatever the distance, in a Movement Phase, on the lines its side may use (the Egyptian railroad:
  Allied, from the NRV end to the railhead marker, cut at the first hex held by an enemy unit or in
  its ZoC); a line carries one combat unit a phase;
- 11.4: entering an EZOC costs 1 MP more and ends the move (coming onto the map into one, too); a
  unit may not go from one EZOC hex
  straight into another.

Choices (a false alarm costs more than a miss):
- 13.2.4 forced march (MA + 1d6 + 3) and 11.5 night movement (through EZOC, the EZOC hexes at
  double cost) are not declared in the log: a move that only one of them allows is legal when the
  unit's hex holds a Disrupted marker at the end of the phase (both disrupt the unit); otherwise
  it is judged then and reported at the move (an EZOC crossed without night movement under 11.4,
  whose "unless using night movement" it breaks).  The forced march is taken at its most, MA + 9.
- The ZoC of 11.1 is exerted by units with a CF above 0 on the face shown, not garrisons (15.8),
  not supply units, in a hex without a Disrupted, OGS or Reserve marker; it does not cross an
  escarpment hexside nor enter a city hex, a hex with a Fort marker or a hex the unit could not
  enter (11.3).  A mover that may be motorized ignores the ZoC of units that may be foot (11.2).
  Special forces and desert raiders ignore EZOC (15.4, 16.0); a unit stacked with an HQ pays no MP
  to enter an EZOC and reacts 2 MP further (15.6), but still stops there (11.4), and only while the
  HQ stays with it ("during the entire Movement or Reaction Phase": it began the move with the HQ
  and stands with one where each move ends).  8.2 d: a disrupted unit loses its special functions: an
  HQ in a hex surely disrupted (13.2.2's reading of markers) gives none of 15.6's, a special force or
  desert raider that began its move disrupted pays the ZoC and terrain costs of its class.  Recon superiority (15.3, +2 MP) is not charged.
- Costs: a road hexside cancels the other terrain (13.3); a track halves the hex and hexside
  costs (the table's `track` where it gives one); an escarpment costs nothing along a road or
  track; a railroad hexside costs the terrain it crosses (rail lift is `Rail`); a unit whose class
  is unsure pays the cheaper of its classes (state.py); special forces pay 1 MP a hex (15.4).
- 13.3: a unit surely motorized (no foot class) loses the fraction of an MP it has left where its
  path leaves a road or track hexside for one that is neither (the MP spent so far rounded up);
  a unit whose class is unsure is costed without the loss (the kinder reading).
- A unit that declared an overrun in the phase is not costed (the overrun's +2 MP and its combat
  are not followed hex by hex); the overrun itself: no overrun into a mountain or city hex, a hex
  with a Fort marker or a hex in the ZoC of a unit friendly to its defenders (13.4.2: the ZoC that
  binds a motorized mover, 11.2 - the overrunner moves), nor by a unit in a hex with a Disrupted or
  OGS marker (13.4.1); the declaration names no target: reported when every enemy hex next to the
  overrunner is such a hex.
- 13.7: a unit is taken to have ridden the rail only when no move without it fits; rail and regular
  movement combine once (two rides in one move cost 3 MP in all); the load is judged a phase (the text
  gives the load, not its period); the Algerian and Tunisian lines' city control is not followed.
- 13.2.2: a Disrupted or OGS marker lies on a stack, not on one unit: a unit is taken to carry it
  only when its hex holds at least as many such markers as combat units.
- 13.2.3: "enemy unit" is a combat unit (supply units do not bar a road march); a hexside is
  impassable when the TEC marks its feature `prohibited`; (b) GenS when the move begins and (e) a hex
  where it would be OGS are read from the OGS markers (13.2.2's reading; supply lines, 12.4, are not
  traced): no march from a hex whose units surely carry one, nor into a hex with one.
- 6.2: on a card's surprise GT the 2nd player's motorized units not in reserve react 1d6 MP instead
  of their RMA; the die is the side's die for any purpose (not bound to a unit): up to 6 MP.  In a
  GT whose Phase V saw an initiative roll, surprise may have come from the (reconstructed) table:
  a side not known to be the 1st player then reacts up to the larger of its RMA and 6.
- 13.2.4 c: a unit that began its move next to an enemy combat unit (as 13.2.3 d reads it, across a
  hexside that is not impassable) may not force march; the module has no forced-march declaration and
  the 1d6 is the side's die for any purpose, so the die is not bound to the unit: MA + 9 is allowed.
- Units with an MA of 0, supply units carried by an MSU (13.7: dumps) and moves into or out of
  boxes are not costed; nor, for the rest of a Movement Phase, a unit that may be a foot unit once it
  moves with a friendly MSU (13.7 truck lift: dragged with it, or to the hex an MSU moved to in the
  phase) - the lift's own limits (one unit at a time, the RMA before or after) are not followed.
"""
from __future__ import annotations

import heapq
import math
from fractions import Fraction

from builder.geometry.hexmap import hexside_key
from validators.games.desert_fox_deluxe.morale import MoraleChecks
from validators.games.desert_fox_deluxe.state import OVERRUN, ROAD_MARCH
from validators.games.desert_fox_deluxe.units import EZOC_EXEMPT, NOT_GROUND, SUPPLY, Forces
from validators.kernel.declarations import Declared
from validators.kernel.movement import mp, mp_scale, search, show_mp
from validators.kernel.rule import Rule, Tracker
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed, Rolled

FORCED_MARCH_MAX = 9  # 13.2.4: MA + (1d6 + 3)
REDUCED = {"disrupted": "halved, disrupted", "OGS": "reduced, out of general supply",
           "isolated": "halved, isolated"}
ROAD_MARCH_MP = 7  # 13.2.3
HQ_RMA = 2  # 15.6
SURPRISE_RMA = 6  # 6.2: the 2nd player's reacting motorized units not in reserve move 1d6 MP
DUMPS_AND_BASES = SUPPLY - {"msu"}  # not costed: carried by an MSU (13.7), or not moved


class MoveRecord(Record):
    """A unit's move in the phase: where it began and what it began as."""

    __slots__ = ("start", "road_march", "status", "may_react", "reserve", "hq", "trucked")

    def __init__(self, start: str, road_march: bool = False, status: str | None = None, may_react: bool = True,
                 reserve: bool = False, hq: bool = False, trucked: bool = False):
        self.start, self.road_march = start, road_march
        self.status = status  # "disrupted", "OGS" or "isolated" when the move began (13.2.2), surely
        self.may_react = may_react  # in a Reaction Phase: within two hexes of an enemy unit, or in reserve (13.5)
        self.reserve = reserve  # in reserve when the move began (13.6)
        self.hq = hq  # stacked with a friendly HQ when the move began (15.6)
        self.trucked = trucked  # moved with a friendly MSU in this Movement Phase (13.7 truck lift)


class MoveCosts(Tracker):
    """What a step costs a unit by the reconstructed TEC, and where the enemy's ZoC lies.

    Costs are whole numbers of `scale` units per MP (quarters and their halves: the TEC's road
    costs 1/4 MP, a track halves), worked out once per hexside and class."""

    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.tec = self.game.table("terrain-effects").data  # schema.TerrainEffectsData
        self.scale = mp_scale(_numbers(self.tec))
        self._units: dict[tuple[str, str, str], int | None] = {}
        self._fractions: dict[object, Fraction] = {}  # a table's MP value -> mp(value)
        self._steps: dict[frozenset[str], object] = {}
        self._zoc: dict[tuple[str, bool], frozenset[str]] = {}  # (mover's side, motorized) -> EZOC hexes
        self._enemy: dict[str, frozenset[str]] = {}  # mover's side -> enemy-held hexes
        self._kept: set[str] = set()  # the movers' sides of the entries in _zoc and _enemy
        self.zoc_extra = self.units((self.tec.get("enemy_zoc") or {}).get("mp", 1))  # 11.4: entering an EZOC

    # The enemy's ZoC and hexes are kept while only the mover's own side's units act: any other
    # piece (an enemy unit, a marker) that moves, flips, comes or goes makes them be worked out again.
    def _changed(self, piece: Piece) -> None:
        kept = self._kept
        if not kept:
            return
        side = self.board.side_id(piece) if self.board.unit_of(piece) is not None else None
        if side is not None and len(kept) == 1 and side in kept:
            return  # only the mover's own side's are kept: nothing to drop (the commonest move)
        self._zoc = {k: v for k, v in self._zoc.items() if k[0] == side and side is not None}
        self._enemy = {k: v for k, v in self._enemy.items() if k == side and side is not None}
        self._kept = {side} & kept

    def moved(self, e: Moved) -> None:
        self._changed(e.piece)

    flipped = added = removed = moved

    def units(self, mp_value) -> int:
        """An MP value (a table's, an MA) in cost units."""
        if isinstance(mp_value, int):
            return mp_value * self.scale
        return int(mp(mp_value) * self.scale)

    def show(self, units: int) -> str:
        """Cost units as MP, for a message: 7 1/2."""
        return show_mp(Fraction(units, self.scale))

    def step_units(self, a: str, b: str, cls: str) -> int | None:
        """`step_cost` in cost units, remembered (the terrain never changes)."""
        key = (a, b, cls)
        try:
            return self._units[key]
        except KeyError:
            c = self.step_cost(a, b, cls)
            found = self._units[key] = None if c is None else int(c * self.scale)
            return found

    def step_cost(self, a: str, b: str, cls: str) -> Fraction | None:
        """Cost for class `cls` to move a -> b by the reconstructed TEC, None: prohibited."""
        g, tec = self.game, self.tec
        t = g.hex_terrain.get(b)
        kind = g.hex_terrain_types.get(t)
        if t is None or kind is None or kind.prohibited:
            return None
        side = self.crossing(a, b)
        road, track = "road" in side, "track" in side
        base_cls = "mechanized" if cls in ("recon", "desert-raider") else cls
        if road:
            return self._mp(tec["connected"]["road"]["mp"][base_cls])
        spec = tec["hex"].get(t, {})
        costs = spec.get("mp", {})
        value = costs.get(cls, costs.get(base_cls))
        if value is None or value == "along-track":
            if not (value == "along-track" and track):
                return None
            cost = self._mp(spec.get("track", tec["hex"]["desert"].get("track", 1)))
        else:
            cost = self._mp(value)
            if track:
                cost = self._mp(spec["track"]) if "track" in spec else cost / 2
        for f in sorted(side):
            hs = tec.get("hexside", {}).get(f)
            if not hs or "mp" not in hs:
                continue
            if side & set(hs.get("unless", ())):
                continue
            extra = self._mp(hs.get("along_track", hs["mp"])) if track and "along_track" in hs else self._mp(hs["mp"])
            cost += extra / 2 if track and "along_track" not in hs else extra
        return cost

    def _mp(self, value) -> Fraction:
        """`mp` of a table value, parsed once per value (the parse is the costly part of a step's cost)."""
        found = self._fractions.get(value)
        if found is None:
            found = self._fractions[value] = mp(value)
        return found

    def crossing(self, a: str, b: str) -> frozenset[str]:
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def unit_step(self, p: Piece, special: bool = True):
        """The step cost callback of a unit, in cost units: the cheapest of its classes (one per
        set of classes, made once); `special` False: a special force's 1 MP a hex (15.4) lost (8.2 d)."""
        u = self.board.unit_of(p)
        key = frozenset({"special-forces"}) if u.type == "special-forces" and special else self.forces.classes(u)
        step = self._steps.get(key)
        if step is None:
            step = self._steps[key] = self._make_step(key)
        return step

    def _make_step(self, classes: frozenset[str]):
        units, one = self.step_units, self.scale
        if classes == {"special-forces"}:  # 15.4: 1 MP a hex wherever foot or mechanized may go
            return lambda a, b: None if units(a, b, "foot") is None and units(a, b, "mechanized") is None else one
        ordered = sorted(classes)

        memo: dict[tuple[str, str], int | None] = {}

        def step(a: str, b: str) -> int | None:
            try:
                return memo[a, b]
            except KeyError:
                costs = [c for c in (units(a, b, cls) for cls in ordered) if c is not None]
                found = memo[a, b] = min(costs) if costs else None
                return found
        return step

    def exerts_zoc(self, p: Piece, here: str | None = None) -> bool:
        """11.1 (see Choices); `here`: the piece's hex, when the caller knows it."""
        u, f = self.board.unit_of(p), self.forces
        if u is None or not f.is_combat_unit(p) or u.type == "garrison" or f.cf(p) <= 0:
            return False
        here = here or self.board.hex_of(p)
        return here is not None and not self.board.markers_in(here, "disrupted", "ogs", "reserve")

    def enemy_zoc(self, side: str, mover_motorized: bool) -> EnemyZoc:
        """The hexes in the ZoC of `side`'s enemies, for a mover that may be motorized or not."""
        key = (side, mover_motorized)
        found = self._zoc.get(key)
        if found is None:
            found = self._zoc[key] = EnemyZoc(self, side, mover_motorized)
            self._kept.add(side)
        return found

    def holders(self, hex_id: str, side: str, mover_motorized: bool) -> set:
        """The step callbacks of the units in a hex whose ZoC binds a mover of `side` (11.1-11.2)."""
        board, f = self.board, self.forces
        enemy = board.other_side[side]
        return {self.unit_step(p) for p in board.pieces_in(hex_id)
                if board.side_id(p) == enemy and self.exerts_zoc(p, hex_id)
                and (not mover_motorized or f.surely_motorized(board.unit_of(p)))}

    def reaches(self, n: str, side: str, mover_motorized: bool, holders) -> bool:
        """Whether the enemy's ZoC reaches hex n: not a city nor a fortified hex, and next to a
        holder across a hexside without an escarpment that the holder could cross (11.3)."""
        g = self.game
        if g.hex_terrain.get(n) == "city" or self.forces.fort_level(n) is not None:
            return False
        for h in g.geometry.neighbours(n):
            steps = holders(h)
            if steps and "escarpment" not in self.crossing(h, n) and any(step(h, n) is not None for step in steps):
                return True
        return False

    def enemy_hexes(self, side: str) -> frozenset[str]:
        """Hexes holding enemy units other than supply units (13.1, 13.4.1)."""
        found = self._enemy.get(side)
        if found is None:  # the enemy's units by hex (BoardView keeps them): no look at markers or friends
            combat = self.forces.is_combat_unit
            found = self._enemy[side] = frozenset(
                h for h, units in self.board.unit_hexes(self.board.other_side[side]).items()
                if any(combat(p) for p in units))
            self._kept.add(side)
        return found


class Movement(Rule):
    """13.1-13.2, 11.4-11.5: a unit's moves in a phase fit its allowance and the enemy's ZoC."""

    ids = ("13.1", "13.2", "13.2.1", "13.2.2", "13.2.3", "13.2.4", "13.5", "13.7", "11.4")
    covers = ("2.2", "2.2.4", "8.1", "8.2", "11.0", "11.5", "13.0", "13.3")
    needs = (MoveCosts, Forces, MoraleChecks)

    def start(self) -> None:
        self.costs, self.forces = self.ctx.get(MoveCosts), self.ctx.get(Forces)
        self.rail = self.tables.get("rail-lift", {})
        self.moves: dict[str, MoveRecord] = {}
        self.faulted: set[str] = set()  # pieces with a finding in this phase (13.5 c: no check owed then)
        self.last_step: dict[str, int] = {}  # piece id -> the step of its last move in this phase
        self.left: set[str] = set()  # hexes a Reserve marker or an HQ left in this Reaction Phase (13.6, 15.6)
        self.riders: dict[tuple[str, str], list[str]] = {}  # (side, rail line) -> combat units it carried this phase
        self.entered_zoc: dict[str, str] = {}  # piece id -> the enemy-ZoC hex it came onto the map at, this phase
        self.initiative_rolled: int | None = None  # the last GT whose Phase V saw an initiative roll (6.2)
        self._near_kept: dict[str, tuple] = {}  # side -> (the enemy's hexes, the hexes next to them): _near_enemy
        self.flagged = False  # a finding was made for the move being judged
        # piece id -> (rule, message, hex, the move's step): due unless disrupted by the phase's end,
        # and then reported at the move (13.2.4: the move beyond the MA is the act)
        self.pending: dict[str, tuple[str, str, str, int]] = {}

    def phase_started(self, pid: str) -> None:
        self.moves, self.riders, self.entered_zoc, self.faulted, self.last_step = {}, {}, {}, set(), {}
        self.left = set()

    def _exempt(self, hex_id: str) -> bool:
        """Whether a Reserve marker or an HQ not surely disrupted stood in the hex when the Reaction Phase
        began: one is there now, or left it in this phase (13.6, 15.6: its units make no check after
        reacting; a marker taken off before the move counts)."""
        if hex_id in self.left:
            return True
        board = self.board
        here = board.pieces_in(hex_id)
        return board.markers_in(hex_id, "reserve") > 0 or (
            any(board.unit_of(p) is not None and board.unit_of(p).type == "hq" for p in here)
            and not self.forces.surely_marked(here, "disrupted"))

    def _leaving(self, piece: Piece, old: str) -> None:
        """A Reserve marker or an HQ leaving a hex in a Reaction Phase (see `_exempt`)."""
        u = self.board.unit_of(piece)
        if self.board.marker_id(piece) == "reserve" or (u is not None and u.type == "hq"):
            self.left.add(old)

    def removed(self, e: Removed) -> None:
        if self.state.phase_kind == "reaction" and self.board.on_map(e.where.label):
            self._leaving(e.piece, e.where.label)

    def _checks_owed(self) -> None:
        """13.5 c, when the Reaction Phase ends: each unit that reacted (ended away from where it began;
        not one that stood in reserve or with an HQ, 13.6, 15.6, nor one whose reaction drew a finding)
        took its morale check (8.1) in the phase."""
        board, forces = self.board, self.forces
        pieces = board.replayer.board.pieces
        by_side: dict[str, list[Piece]] = {}
        self._msu_alone(pieces)
        for pid, rec in self.moves.items():
            p = pieces.get(pid)
            if (p is None or pid in self.faulted or rec.reserve or rec.hq or not forces.is_combat_unit(p)
                    or board.hex_of(p) in (None, rec.start) or self._exempt(rec.start)):
                continue
            by_side.setdefault(board.side_id(p), []).append(p)
        for side, reacted in by_side.items():
            for p in self.ctx.get(MoraleChecks).unchecked(side, reacted):
                self.find("13.5", f"{p.name} reacted from {self.moves[p.id].start} to {board.hex_of(p)} and took no morale "
                          f"check in the {self.state.phase} Phase: each reacting unit makes one at the end of its reaction "
                          "move (13.5 c, 8.1)", p, None, board.hex_of(p))

    def _msu_alone(self, pieces) -> None:
        """13.5: an MSU reacts only with reacting combat units: one that stood with it when the phase
        began and ends where it ends (reported at the MSU's last move)."""
        board = self.board
        for pid, rec in self.moves.items():
            p = pieces.get(pid)
            u = board.unit_of(p) if p is not None else None
            here = board.hex_of(p) if u is not None else None
            if u is None or u.type != "msu" or pid in self.faulted or here in (None, rec.start):
                continue
            if not any(q != pid and r.start == rec.start and q in pieces and self.forces.is_combat_unit(pieces[q])
                       and board.hex_of(pieces[q]) == here for q, r in self.moves.items()):
                self.find("13.5", f"{p.name} reacts from {rec.start} to {here} with no reacting combat unit of its stack: an "
                          "MSU may move with reacting combat units, but may not initiate reaction movement (13.5)", p,
                          rec.start, here, at=self.last_step.get(pid))

    def phase_ended(self, pid: str) -> None:
        if self.state.phase_kind == "reaction":
            self._checks_owed()
        board = self.board.replayer.board.pieces
        for piece_id, (rule, message, _, step) in sorted(self.pending.items()):
            p = board.get(piece_id)
            here = self.board.hex_of(p) if p is not None else None
            if p is None or here is None or self.forces.disrupted_in(here):
                continue
            self.find(rule, f"{message}; no Disrupted marker in {here} at the end of the {self.state.phase} Phase", p,
                      None, here, at=step)
        self.pending = {}

    def _declared(self, name: str, p: Piece) -> bool:
        made = self.state.declarations
        return bool(made) and any(d.name == name and d.piece.id == p.id for d in made)

    def moved(self, e: Moved) -> None:
        old, new, board, st = e.old.label, e.new.label, self.board, self.state
        if st.phase_kind == "reaction" and old != new and board.on_map(old):
            self._leaving(e.piece, old)
        u = board.unit_of(e.piece)
        if (u is None or old == new or not board.on_map(new) or u.type in NOT_GROUND  # Forces.is_ground
                or st.phase_kind not in ("movement", "reaction") or not u.ma or u.type in DUMPS_AND_BASES):
            return
        if not board.on_map(old):
            self._entered(e, u)
            return
        side = board.side_id(e.piece)
        if side is None or st.phasing() not in (None, side):
            return  # out of phase: turns.py
        rec = self.moves.get(e.piece.id)
        if rec is None:
            stood = board.stood_in(old)
            hq = self._hq_among(stood, side, e.piece)
            marked = [p for p in stood if board.marker_id(p) is not None]
            rec = self.moves[e.piece.id] = MoveRecord(old, hq=hq, status=self._status(stood) if marked else None)
            if st.phase_kind == "reaction":
                rec.reserve = any(board.marker_id(p) == "reserve" for p in marked)
                rec.may_react = rec.reserve or self._near_enemy_unit(old, side, 2)
        self.last_step[e.piece.id] = st.step
        rec.road_march = rec.road_march or self._declared(ROAD_MARCH, e.piece)
        if self._declared(OVERRUN, e.piece):
            return
        if rec.trucked or (st.phase_kind == "movement" and self._trucked(e, u, side, new)):
            rec.trucked = True
            return  # 13.7 truck lift (see Choices)
        if self.entered_zoc.pop(e.piece.id, None) == rec.start and new not in self.costs.enemy_hexes(side):
            self.find("11.4", f"{u.name} entered the map at {rec.start}, in an enemy ZoC, in this phase and moves on to "
                      f"{new}: a unit that enters an enemy ZoC must stop (11.4 a)", e.piece, rec.start)
            return
        self.flagged = False
        self._check_path(e, u, side, rec, new)
        if st.phase_kind == "reaction" and not self.flagged:
            self._may_react(e, u, rec)

    def find(self, *args, **kwargs) -> None:
        self.flagged = True  # a finding for the move being judged: the reaction's eligibility is not judged too
        piece = args[2] if len(args) > 2 else kwargs.get("piece")
        if piece is not None:
            self.faulted.add(piece.id)
        super().find(*args, **kwargs)

    def _may_react(self, e: Moved, u, rec: MoveRecord) -> None:
        """13.5: a reacting unit began the phase within two hexes of an enemy unit or in reserve, and
        neither disrupted nor out of supply (8.2 f, 12.5 d); judged once its move is within its RMA."""
        if rec.status:
            self.find("13.5", f"{u.name} reacts from {rec.start}, {rec.status}: a disrupted or out-of-supply unit may "
                      "not react (8.2 f, 12.5 d)", e.piece, rec.start)
        elif not rec.may_react:
            self.find("13.5", f"{u.name} reacts from {rec.start}, more than two hexes from every enemy unit and not in "
                      "reserve: only units within two hexes of an enemy unit, or in reserve, react (13.5)", e.piece,
                      rec.start)
        elif not rec.reserve and (alone := self._zoc_unsupported(e, u)):
            self.find("13.5", f"{u.name} reacts into {e.new.label}, in the ZoC of the enemy in {alone}, which no friendly "
                      "unit stood next to: a reacting unit enters an EZOC only when the unit exerting it is already "
                      "adjacent to a friendly unit (13.5 a)", e.piece, rec.start)

    def _zoc_unsupported(self, e: Moved, u) -> str | None:
        """13.5 a: the hex of an enemy unit whose ZoC the reaction enters and that no friendly unit
        stood next to when the move began (the mover's own old hex counts); None when there is none."""
        board, costs, geo, new = self.board, self.costs, self.game.geometry, e.new.label
        side = board.side_id(e.piece)
        motorized = self.forces.may_be_motorized(u)
        if new not in costs.enemy_zoc(side, motorized):
            return None
        for h in geo.neighbours(new):
            holders = costs.holders(h, side, motorized)
            if holders and "escarpment" not in costs.crossing(h, new) and not any(
                    board.side_id(q) == side and board.unit_of(q) is not None
                    for n in geo.neighbours(h) for q in board.stood_in(n)):
                return h
        return None

    def _entered(self, e: Moved, u) -> None:
        """A unit coming onto the map from a box (an arrival, 13.8) into an enemy ZoC has entered it (11.4 a)."""
        side = self.board.side_id(e.piece)
        if side is None or (u.type in EZOC_EXEMPT and not self.forces.surely_disrupted(e.piece)):
            return
        if e.new.label in self.costs.enemy_zoc(side, self.forces.may_be_motorized(u)):
            self.entered_zoc[e.piece.id] = e.new.label

    def _check_path(self, e: Moved, u, side: str, rec: MoveRecord, new: str) -> None:
        costs, forces = self.costs, self.forces
        enemy = costs.enemy_hexes(side)
        if new in enemy:
            self.find("13.1", f"{new} holds enemy units: a unit enters an enemy-occupied hex only by an overrun (13.4)",
                      e.piece, rec.start)
            return
        if new == rec.start:  # back where its move began: it costs nothing (the commonest undo of a step)
            if self.state.phase_kind != "reaction":
                self.pending.pop(e.piece.id, None)
            return
        geo, units, show = self.game.geometry, costs.units, costs.show
        hq = rec.hq and self._hq_among(self.board.pieces_in(new), side, e.piece)  # 15.6: still with its HQ
        classes = forces.classes(u)
        special = rec.status not in ("disrupted", "isolated")  # 8.2 d: a disrupted unit loses its special functions
        zoc = frozenset() if u.type in EZOC_EXEMPT and special else costs.enemy_zoc(side, forces.may_be_motorized(u))
        extra = 0 if hq else costs.zoc_extra  # 15.6: no MP to enter an EZOC
        base = costs.unit_step(e.piece, special)
        start = rec.start
        reaction = self.state.phase_kind == "reaction"
        if reaction and not classes & {"motorized", "mechanized"} and geo.distance(start, new) > 1:
            self.find("13.2.1", f"{u.name} reacts {geo.distance(start, new)} hexes, {start} to {new}: a non-motorized "
                      "unit moves at most one hex in the Reaction Phase (13.2.1)", e.piece, start)
            return
        ma = self._ma(u, classes, rec.status)
        rma = forces.rma(u)
        if reaction and not rec.reserve:  # 6.2: the 2nd player's 1d6 under surprise
            surprise = self._surprised(side)
            rma = SURPRISE_RMA if surprise is True else max(rma, SURPRISE_RMA) if surprise is None else rma
        allowance = units(rma + (HQ_RMA if hq else 0)) if reaction else units(ma)

        def normal(a: str, b: str) -> int | None:
            if a in zoc and b in zoc:
                return None
            c = base(a, b)
            return None if c is None else c + (extra if b in zoc else 0)

        def night(a: str, b: str) -> int | None:
            c = base(a, b)
            return None if c is None else (c * 2 if b in zoc else c)
        around = geo.neighbours(new)  # a step from one that can enter it shows the hex open, without the others
        if (start not in around or base(start, new) is None) and all(base(n, new) is None for n in around):
            self.find("13.1", f"no path open to {u.name} leads from {start} to {new} (prohibited terrain or enemy units)"
                      f"{self.state.reconstructed('terrain-effects')}", e.piece, start)
            return  # nothing can enter the hex: no search needed to know it
        direct = normal(start, new) if geo.adjacent(start, new) else None
        if direct is not None and reaction:
            return  # 13.2.1: a non-motorized unit reacts one hex
        if direct is not None and direct <= allowance:
            self.pending.pop(e.piece.id, None)  # the step itself fits: no search (the cheapest path
            return  # costs no more than it)
        note = self.state.reconstructed("terrain-effects")
        engaged = not reaction and start in self._near_enemy(side)  # 13.2.4 c: began its move next to an enemy
        forced = units(u.ma + FORCED_MARCH_MAX) if rec.status is None and not engaged else allowance  # 13.2.4 a-c
        night_allowance = allowance if reaction or rec.road_march else forced
        march = units(u.ma + ROAD_MARCH_MP) if rec.road_march and not reaction else None
        refused = None
        if march is not None:
            refused = self._march_refused(start, side, rec.status)
            if refused is None:
                near = self._near_enemy(side)

                def along_road(a: str, b: str) -> int | None:  # 13.2.3 c-e
                    return normal(a, b) if ("road" in costs.crossing(a, b) and b not in near
                                            and not self.board.markers_in(b, "ogs")) else None
                road = self._cheapest(start, new, along_road, zoc, enemy, march)
                if road.cost.get(new) is not None and road.cost[new] <= march:
                    self.pending.pop(e.piece.id, None)
                    return
                refused = ("only a move wholly along roads that enters no hex next to an enemy unit may road march "
                           "(13.2.3 c-d), and none into a hex with an OGS marker (e)")
        keeps = self._keeps_fractions(u)
        found = self._cheapest(start, new, normal, zoc, enemy, max(night_allowance, march or 0), keeps)
        cost = found.cost.get(new)
        if not reaction and (cost is None or cost > allowance) and self._by_rail(e.piece, side, start, new, normal,
                                                                                 zoc, enemy, allowance):
            self.pending.pop(e.piece.id, None)
            return
        if reaction and geo.distance(start, new) <= 1 and cost is not None:
            return  # 13.2.1: a non-motorized unit reacts one hex
        if cost is not None and cost <= allowance:
            self.pending.pop(e.piece.id, None)
            return
        late = self._cheapest(start, new, night, frozenset(), enemy, night_allowance, keeps)
        night_cost = late.cost.get(new)
        if night_cost is not None and night_cost <= allowance:
            self.pending[e.piece.id] = ("11.4", f"{u.name} moves {'-'.join(late.path(new))} through enemy ZoC, which 11.4 "
                                        f"forbids but for night movement (11.5), and that disrupts the unit{note}", new,
                                        self.state.step)
            return
        if not reaction and not rec.road_march and cost is not None and cost <= forced:
            self.pending[e.piece.id] = ("13.2.4", f"{u.name} spends {show(cost)} MP via {'-'.join(found.path(new))}, "
                                        f"more than its MA of {u.ma}: only a forced march allows it, and it disrupts the "
                                        f"unit{note}", new, self.state.step)
            return
        if night_cost is not None and night_cost <= night_allowance:
            self.pending[e.piece.id] = ("11.4", f"{u.name} moves {'-'.join(late.path(new))} through enemy ZoC, which 11.4 "
                                        f"forbids but for night movement (11.5), and that disrupts the unit{note}", new,
                                        self.state.step)
            return
        if cost is None and night_cost is None:
            self.find("13.1", f"no path open to {u.name} leads from {start} to {new} (prohibited terrain or enemy units)"
                      f"{note}", e.piece, start)
            return
        what = f"its RMA of {show(allowance)}{' (6.2: 1d6 under surprise)' if rma == SURPRISE_RMA else ''}" if reaction else \
            f"its MA of {u.ma}{' + 7 for its road march' if march is not None else ''}"
        if cost is None:
            self.find("11.4", f"{u.name} cannot reach {new} from {start} without leaving one enemy ZoC hex straight "
                      f"into another or moving on from an enemy ZoC hex (11.4){note}", e.piece, start,
                      path=late.path(new))
            return
        zocs = sum(1 for h in found.path(new)[1:] if h in zoc)
        surcharge = f" ({zocs} enemy-ZoC hex at +{show(extra)} MP)" if zocs else ""
        rule = "13.2.1" if reaction else "13.2"
        if rec.status and not reaction and cost <= units(u.ma + (ROAD_MARCH_MP if march else FORCED_MARCH_MAX)):
            rule, what = "13.2.2", f"its MA of {show(allowance)}: {u.ma} {REDUCED[rec.status]} (13.2.2)"
        elif engaged and not rec.road_march and cost <= units(u.ma + FORCED_MARCH_MAX):
            rule, what = "13.2.4", (f"its MA of {u.ma}: it began its move in {start}, next to an enemy unit, and may not "
                                    "force march (13.2.4 c)")
        elif refused and cost <= march:
            rule, what = "13.2.3", f"its MA of {u.ma}, and its road march adds nothing: {refused}"
        self.find(rule, f"{u.name} spends {show(cost)} MP via {'-'.join(found.path(new))}{surcharge} > {what}{note}",
                  e.piece, start, path=found.path(new))

    def _by_rail(self, piece: Piece, side: str, start: str, new: str, normal, zoc, enemy, allowance: int) -> bool:
        """13.7 rail lift: whether the move fits the allowance with 3 MP for the rail, on the lines
        `side` may use now; a combat unit past a line's load for the phase is reported."""
        lines = self._rail_lines(side)
        lift = self.costs.units(self.rail.get("mp", 3))
        if not lines or allowance < lift:
            return False

        def step(a: str, b: str) -> int | None:
            return 0 if hexside_key(a, b) in lines else normal(a, b)
        found = search(self.game.geometry.neighbours, start, step, allowance=allowance - lift, stop=zoc, blocked=enemy,
                       goal=new)
        if found.cost.get(new) is None or found.cost[new] + lift > allowance:
            return False
        path = found.path(new)
        used = sorted({lines[k] for k in (hexside_key(a, b) for a, b in zip(path, path[1:])) if k in lines})
        if not self.forces.is_combat_unit(piece):
            return True
        most = self.rail.get("combat_units", 1)
        for line in used:
            riders = self.riders.setdefault((side, line), [])
            if piece.id not in riders:
                riders.append(piece.id)
            if len(riders) > most and riders.index(piece.id) >= most:
                board = self.board.replayer.board.pieces
                before = ", ".join(board[i].name for i in riders[:most] if i in board)
                self.find("13.7", f"{piece.name} moves by rail on the {line} ({'-'.join(path)}), which carries {most} "
                          f"combat unit a Movement Phase: {before} rode it already", piece, start, path=path)
        return True

    def _rail_lines(self, side: str) -> dict[frozenset[str], str]:
        """The rail hexsides `side` may ride now, each with its line's name (13.7): a line kept for
        other sides is left out; one with a railhead runs from its first hex (the NRV end) to the
        railhead marker, and no farther than the last hex free of enemy units and their ZoC (13.7 b)."""
        spec, costs = self.rail.get("lines", {}), self.costs
        out: dict[frozenset[str], str] = {}
        for line in self.game.map_terrain.hexside_paths.get("railroad", []):
            s = spec.get(line.name, {})
            if s.get("sides") and side not in s["sides"]:
                continue
            hexes = list(line.hexes)
            if s.get("railhead"):
                head = next((i for i, h in enumerate(hexes) if self.board.markers_in(h, s["railhead"])), None)
                hexes = hexes if head is None else hexes[:head + 1]
                enemy, zoc = costs.enemy_hexes(side), costs.enemy_zoc(side, True)
                free = next((i for i, h in enumerate(hexes) if h in enemy or h in zoc), len(hexes))
                hexes = hexes[:free]
            out.update({hexside_key(a, b): line.name for a, b in zip(hexes, hexes[1:])})
        return out

    def _near_enemy_unit(self, hex_id: str, side: str, reach: int) -> bool:
        """Whether an enemy unit stands within `reach` hexes (13.5)."""
        board, by_hex = self.board, self.board.by_hex()
        near = search(self.game.geometry.neighbours, hex_id, lambda a, b: 1, allowance=reach).cost
        return any(board.side_id(p) not in (None, side) and board.unit_of(p) is not None
                   for h in near if h in by_hex for p in by_hex[h])

    def _trucked(self, e: Moved, u, side: str, new: str) -> bool:
        """13.7 truck lift: whether a unit that may be a foot unit moves with a friendly MSU (dragged
        with it in this step, or one that moved in this phase and stands in `new`)."""
        if u.type == "msu" or "foot" not in self.forces.classes(u):
            return False
        board, p = self.board, e.piece
        msus = [q for q in board.pieces_in(new) if q.id != p.id and board.side_id(q) == side
                and (board.unit_of(q) is not None and board.unit_of(q).type == "msu")]
        if not msus:  # the commonest case: no search of the step's moves
            return False
        together = {q.id for q in board.moved_with(e)}
        return any(q.id in together or q.id in self.moves for q in msus)

    def _hq_among(self, pieces, side: str, mover: Piece) -> bool:
        """Whether an HQ of `side` other than the mover is among one hex's pieces (15.6), and not surely
        disrupted (8.2 d: a disrupted unit loses its special functions)."""
        board = self.board
        pieces = list(pieces)
        for p in pieces:
            u = board.unit_of(p)
            if u is not None and u.type == "hq" and p.id != mover.id and board.side_id(p) == side:
                return not self.forces.surely_marked(pieces, "disrupted")
        return False

    def _status(self, stood) -> str | None:
        """What the unit surely was when its move began (see Choices): disrupted, OGS, or both (isolated)."""
        stood = list(stood)
        marked = {m for m in ("disrupted", "ogs") if self.forces.surely_marked(stood, m)}
        return {frozenset({"disrupted"}): "disrupted", frozenset({"ogs"}): "OGS"}.get(
            frozenset(marked), "isolated" if marked else None)

    def _ma(self, u, classes: frozenset[str], status: str | None) -> int:
        """13.2.2: the MA a unit's status leaves it (halves rounded up; an OGS unit of unsure class the
        non-motorized half, the kinder)."""
        if status is None:
            return u.ma
        if status == "OGS" and "foot" not in classes:
            return self.forces.rma(u)
        return math.ceil(u.ma / 2)

    def _surprised(self, side: str) -> bool | None:
        """6.2: whether `side` reacts as the 2nd player of a GT with surprise: True on the first GT of a
        card that gives surprise; None (it may) in a GT whose Phase V saw an initiative roll, unless
        `side` is known to be the 1st player (the Initiative Table is reconstructed and its modifiers
        are not in the log: its surprise is not judged); False otherwise."""
        card, st = self.state.card, self.state
        if card is not None and card.surprise and card.initiative and st.turn == card.first_turn:
            return side != card.initiative
        if self.initiative_rolled == st.turn and st.first_player != side:
            return None
        return False

    def rolled(self, e: Rolled) -> None:
        if e.button.endswith(" initiative 2d6") and self.state.phase_id == "V":
            self.initiative_rolled = self.state.turn

    def _march_refused(self, start: str, side: str, status: str | None) -> str | None:
        """Why a declared road march gives nothing to a unit that began its move in `start` (13.2.3 a, b, d)."""
        if status:
            return f"it began its move {status} in {start} (13.2.3 a-b)"
        if start in self._near_enemy(side):
            return f"it began its move in {start}, next to an enemy unit (13.2.3d)"
        return None

    def _near_enemy(self, side: str) -> frozenset[str]:
        """Hexes next to an enemy combat unit across a hexside that is not impassable (13.2.3d);
        worked out again only when the enemy's hexes change (asked at every move)."""
        costs, geo = self.costs, self.game.geometry
        enemy = costs.enemy_hexes(side)
        kept = self._near_kept.get(side)
        if kept is not None and kept[0] is enemy:
            return kept[1]
        shut = {f for f, spec in costs.tec.get("hexside", {}).items() if spec.get("prohibited")}
        found = frozenset(n for h in enemy for n in geo.neighbours(h) if not costs.crossing(h, n) & shut)
        self._near_kept[side] = (enemy, found)
        return found

    def _keeps_fractions(self, u):
        """13.3: the hexsides along which a motorized unit keeps a fraction of an MP (a road or a track);
        None for a unit that is not surely motorized (see Choices: the kinder reading)."""
        if "foot" in self.forces.classes(u):
            return None
        crossing = self.costs.crossing
        return lambda a, b: bool(crossing(a, b) & {"road", "track"})

    def _cheapest(self, start: str, goal: str, step, stop: frozenset[str], blocked: frozenset[str], bound: int,
                  keeps=None):
        """The cheapest path start -> goal, searched no further than `bound` (what any allowance
        of the move can reach: legal play never needs more); only a move that no allowance fits
        is searched without a bound, for the cost its finding gives.  With `keeps` (13.3, a
        motorized unit) the fraction of an MP left is lost where the path leaves a road or track."""
        neighbours = self.game.geometry.neighbours
        if keeps is not None:
            found = search_losing_fractions(neighbours, start, step, keeps, self.costs.scale, allowance=bound,
                                            stop=stop, blocked=blocked, goal=goal)
            if goal in found:
                return found
            return search_losing_fractions(neighbours, start, step, keeps, self.costs.scale, stop=stop,
                                           blocked=blocked, goal=goal)
        found = search(neighbours, start, step, allowance=bound, stop=stop, blocked=blocked, goal=goal)
        if goal in found:
            return found
        return search(neighbours, start, step, stop=stop, blocked=blocked, goal=goal)


def search_losing_fractions(neighbours, start: str, step, keeps, scale: int, *, allowance: int | None = None,
                            stop=frozenset(), blocked=frozenset(), goal: str | None = None) -> _Paths:
    """13.3: the kernel's cheapest-path search (whole cost units, `scale` a MP) for a motorized unit,
    which "when it leaves a track or road loses any fraction of an MP remaining": a step off a road
    or track (`keeps(a, b)` false) taken after one along it first rounds the MP spent up to a whole
    MP.  The rounding only ever raises a cost, so Dijkstra over (hex, came along a road or track)
    stays exact; the Reach gives each hex its cheaper state's cost and path."""
    blocked = frozenset(blocked)
    origin = (start, False)
    best: dict[tuple[str, bool], int] = {origin: 0}
    prev: dict[tuple[str, bool], tuple[str, bool]] = {}
    queue: list[tuple[int, tuple[str, bool]]] = [(0, origin)]
    done: set[tuple[str, bool]] = set()
    while queue:
        cost, node = heapq.heappop(queue)
        if node in done:
            continue
        done.add(node)
        a, along = node
        if a == goal:
            break
        if a in stop and a != start:
            continue
        for b in neighbours(a):
            if b in blocked:
                continue
            c = step(a, b)
            if c is None:
                continue
            kept = keeps(a, b)
            spent = cost if kept or not along else -(-cost // scale) * scale
            nxt, new = (b, kept), spent + c
            if nxt in done or (allowance is not None and new > allowance) or new >= best.get(nxt, new + 1):
                continue
            best[nxt], prev[nxt] = new, node
            heapq.heappush(queue, (new, nxt))
    cost: dict[str, int] = {}
    via: dict[str, tuple[str, bool]] = {}
    for node, c in best.items():
        if node in done and c < cost.get(node[0], c + 1):
            cost[node[0]], via[node[0]] = c, node
    return _Paths(start, cost, prev, via)


class _Paths:
    """What `search_losing_fractions` found, read by hex as a kernel `Reach` is: each hex's cheapest
    cost (in cost units) and the path of its cheaper state."""

    def __init__(self, start: str, cost: dict[str, int], prev: dict, via: dict):
        self.start, self.cost, self._prev, self._via = start, cost, prev, via

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self.cost

    def path(self, goal: str) -> list[str]:
        node, out = self._via[goal], []
        while node != (self.start, False):
            out.append(node[0])
            node = self._prev[node]
        return [self.start, *out[::-1]]


class Overrun(Rule):
    """13.4.1-13.4.2 and 13.5 b: who may overrun, and what cannot be overrun."""

    ids = ("13.4.1", "13.4.2", "13.5")
    needs = (Forces, MoveCosts)

    def declared(self, d: Declared) -> None:
        if d.name != OVERRUN:
            return
        piece, hex_id, board, forces = d.piece, d.where, self.board, self.ctx.get(Forces)
        side = board.side_id(piece)
        disrupted = board.markers_in(hex_id, "disrupted", "ogs")
        if disrupted:
            self.find("13.4.1", f"{piece.name} overruns from {hex_id}, a hex with a Disrupted or OGS marker: disrupted "
                      "and out-of-supply units may not overrun (8.2, 12.5)", piece, None, hex_id)
        enemy = board.other_side.get(side or "")
        targets = [n for n in self.game.geometry.neighbours(hex_id)
                   if any(board.side_id(p) == enemy and forces.is_ground(p) for p in board.units_in(n))]
        if self.state.phase_kind == "reaction" and not board.markers_in(hex_id, "reserve"):
            self.find("13.5", f"{piece.name} declares an overrun in the {self.state.phase} Phase from {hex_id}, with no "
                      "Reserve marker: reacting units may not overrun (13.5 b), but units in reserve (13.6)", piece, None,
                      hex_id)
            return
        if not disrupted and targets and forces.classes(board.unit_of(piece)) == {"foot"} and all(
                any(board.side_id(p) == enemy and forces.is_combat_unit(p) and forces.cf(p) > 0 for p in board.units_in(n))
                for n in targets):
            self.find("13.4.1", f"{piece.name}, a foot unit, overruns from {hex_id}: every enemy hex next to it "
                      f"({', '.join(targets)}) holds a combat unit with a combat factor above 0, which only motorized "
                      "units may overrun", piece, None, hex_id)
            return
        covered = self.ctx.get(MoveCosts).enemy_zoc(side, True) if side is not None else frozenset()
        if not disrupted and targets and all(  # one act, one finding
                self.game.hex_terrain.get(n) in ("mountain", "city") or forces.fort_level(n) is not None
                or n in covered for n in targets):
            self.find("13.4.2", f"{piece.name} overruns from {hex_id}: every enemy hex next to it ({', '.join(targets)}) "
                      "is a mountain, city or fortified hex or in the ZoC of a unit friendly to its defenders, which "
                      "cannot be overrun", piece, None, hex_id)


def _numbers(data):
    """Every MP value of a table's data (numbers and "1/4"-like strings), for `mp_scale`."""
    if isinstance(data, dict):
        for v in data.values():
            yield from _numbers(v)
    elif isinstance(data, list):
        for v in data:
            yield from _numbers(v)
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        yield data
    elif isinstance(data, str) and data.replace("/", "", 1).replace(".", "", 1).isdigit():
        yield data


class EnemyZoc:
    """The hexes in the enemy's ZoC for one mover, found hex by hex as a move asks (a legal step
    asks about two hexes; the whole map is never worked out), and kept until the enemy acts.
    A hex none of whose neighbours holds an enemy combat unit (`enemy_hexes`, kept as long) is
    out of it without a look at its pieces or its neighbours' (most hexes a move asks about)."""

    __slots__ = ("costs", "side", "motorized", "_known", "_holders", "_enemy")

    def __init__(self, costs: MoveCosts, side: str, motorized: bool):
        self.costs, self.side, self.motorized = costs, side, motorized
        self._known: dict[str, bool] = {}
        self._holders: dict[str, set] = {}
        self._enemy: frozenset[str] | None = None  # costs.enemy_hexes(side), asked at the first hex

    def _held(self, hex_id: str) -> set:
        found = self._holders.get(hex_id)
        if found is None:
            found = self._holders[hex_id] = self.costs.holders(hex_id, self.side, self.motorized)
        return found

    def __contains__(self, hex_id: object) -> bool:
        found = self._known.get(hex_id)
        if found is None:
            costs, enemy = self.costs, self._enemy
            if enemy is None and self.side in costs.board.other_side:
                enemy = self._enemy = costs.enemy_hexes(self.side)  # a holder's hex is one of them
            if enemy is not None and enemy.isdisjoint(costs.game.geometry.neighbours(hex_id)):
                found = self._known[hex_id] = False
            else:
                found = self._known[hex_id] = costs.reaches(hex_id, self.side, self.motorized, self._held)
        return found
