"""Movement (2.22, 4.1, 4.2, 6.3, 7.1): who moves in which phase, along which path, for how many
MP (digest 10.1 rank 6, with the phase eligibility of rank 20).

A log shows where a move starts and ends: a move is legal when some path joins them within the
maneuver's MP (`kernel.movement.search`).  Costs come from tables/movement.yaml (reconstructed):
the terrain of the hex entered for the unit's class (foot, motorised, mechanised; recon units
the `recon` column, HQs motorised, Combat Group counters the `cg` column), the road or track
cost when the hex is entered along it (table note 2), plus the cost of the hexside crossed
(cliff and sea prohibited); +1 MP for each hex entered in an enemy ZoC (4.2e; ZoCs are fluid,
Q&A 6: no stop); all halved in rapid movement (4.2c); an out-of-supply (RE) unit pays twice the
foot cost (4.2d).  The allowance is the MP its side chose for the maneuver (2.22c), read from
its MP marker.  Enemy combat units' hexes are never entered (7.1: opposing CU never share a hex).

Choices:
- 2.22, 4.1: several drags of one unit in one maneuver are one move, measured from the hex it
  stood in when its side's maneuver began.
- Outside a maneuver a unit moves only as a retreat (6.3: its hex holds a Retreat marker, in a
  combat phase) or an HQ's displacement (6.5c, in a combat phase); moves to and from the boxes
  off the map (Combat Group displays, eliminated units) are not movement.
- 4.2e: a unit that ends its move in contact (in an enemy ZoC) must have begun it within the
  command radius of its own HQ (its HQ's range, counted as hexes between, 3.1d).
- Breached minefields (4.43c) are not read: a breach marker lies in a hex and cannot name its
  hexside; a move the breach makes legal may be reported.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.turns import TurnRules
from validators.kernel.movement import mp, search, show_mp
from validators.replay.board import Piece
from validators.replay.replayer import Moved

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


@dataclass
class MoveRecord:
    start: str
    rapid: bool
    exhausted: bool  # an RE marker: out of supply (4.2d)


class MovementRules(TurnRules):
    """Part of the Tobrouk 41-42 auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.mv = self.tables["movement"]
        self.moves: dict[str, MoveRecord] = {}
        self.cg_side = {m.id: m.faces[0].side for m in self.game.markers_file.markers
                        if m.id.startswith("cg-") and m.faces and m.faces[0].side}
        self._features_on: dict[str, set[str]] = {}

    def move_scope(self) -> object:
        return self.turn, self.pair, self.phase_id

    def phase_started(self, pid: str) -> None:
        self.moves = {}
        super().phase_started(pid)

    # -- the unit's class and costs --------------------------------------------------------------
    def move_class(self, p: Piece) -> str | None:
        u = self.unit_of(p)
        if u is None:
            return "cg" if p.properties().get("MarkerId", "") in self.cg_side else None
        if u.type == "recon":
            return "recon"
        if u.type in ("hq", "leader"):
            return "motorised"
        return u.mode

    def step_cost(self, cls: str, rec: MoveRecord):
        hex_costs, side_costs = self.mv["hex_costs"], self.mv["hexside_costs"]
        factor = Fraction(str(self.mv["rapid_movement"]["factor"])) if rec.rapid else Fraction(1)
        if rec.exhausted:
            cls, factor = self.mv["out_of_supply"]["pays"], factor * int(self.mv["out_of_supply"]["factor"])
        terrain = self.game.hex_terrain

        def step(a: str, b: str) -> Fraction | None:
            t = terrain.get(b)
            if t not in hex_costs:
                return None  # the sea
            features = self.crossing(a, b)
            cost = mp(hex_costs[t][cls])
            for line in ("road", "track"):
                if line in features:
                    cost = min(cost, mp(hex_costs[line][cls]))
            for f in sorted(features):
                spec = side_costs.get(f)
                if spec == "prohibited":
                    return None
                if isinstance(spec, dict):
                    cost += mp(spec[cls])
            return cost * factor
        return step

    # -- moves ---------------------------------------------------------------------------------------
    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        geo = self.game.geometry
        old, new = e.old.label, e.new.label
        if old not in geo or new not in geo or old == new:
            return
        cls = self.move_class(e.piece)
        if cls is None:
            return
        u = self.unit_of(e.piece)
        side = self.side_id(e.piece) if u else self.cg_side.get(e.piece.properties().get("MarkerId", ""))
        if side is None or self.phase_id is None:
            return
        if not self._may_move(e, u, side):
            return
        if self.phase_id not in MANEUVERS:
            return
        rec = self.moves.get(e.piece.id)
        if rec is None:
            rec = self.moves[e.piece.id] = MoveRecord(old, self.markers_in(old, "rapid", at_start=True) > 0,
                                                      self.markers_in(old, "re", at_start=True) > 0)
        self._check_path(e, u, side, cls, rec, new)

    def _may_move(self, e: Moved, u: s.Unit | None, side: str) -> bool:
        """2.22: units move in their side's maneuver; retreats (6.3) and HQ displacements (6.5)
        in a combat phase."""
        name = self.side_names[side]
        if self.phase_id in MANEUVERS:
            if self.maneuvering() not in (None, side):
                self.find("2.22", f"{'an' if name[0] in 'AEIOU' else 'a'} {name} unit moved in the {self.side_name(self.maneuvering())} player's "
                          f"maneuver ({self.phase})", e.piece)
                return False
            return True
        if self.phase_id in COMBATS and (self.retreating(e.old.label) or self.stood_retreating(e) or (u and self.is_hq(e.piece))):
            return False  # a retreat or a displacement: not a maneuver
        self.find("2", f"units move in the maneuvers (B, D), and in combat only to retreat (6.3): not in the "
                  f"{self.phase}", e.piece)
        return False

    def stood_retreating(self, e: Moved) -> bool:
        return any(p.properties().get("MarkerId") == "retreat" for p in self.stood_in(e.old.label))

    def _check_path(self, e: Moved, u: s.Unit | None, side: str, cls: str, rec: MoveRecord, new: str) -> None:
        geo, note = self.game.geometry, self.reconstructed("movement")
        allowance = Fraction(self.maneuver_mp(side))
        enemy = frozenset(h for h in self.by_hex() if self.combat_units(h, self.other_side[side]))
        if new in enemy:
            self.find("7.1", f"{new} holds enemy combat units: opposing units never share a hex", e.piece)
            return
        zoc = self.enemy_zoc(side)
        extra = mp(self.mv["enter_enemy_zoc"]["mp"])
        base = self.step_cost(cls, rec)

        def step(a: str, b: str) -> Fraction | None:
            c = base(a, b)
            return None if c is None else c + (extra if b in zoc else 0)
        found = search(geo.neighbours, rec.start, step, blocked=enemy, goal=new)
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
            surcharge = f" ({zocs} enemy-ZoC hexes at +{show_mp(extra)} MP)" if zocs else ""
            mode = " in rapid movement" if rec.rapid else " out of supply (RE)" if rec.exhausted else ""
            self.find("4.1", f"cost {show_mp(cost)} MP for a {cls} unit{mode} via {'-'.join(path)}{surcharge} > {why}"
                      f"{note}", e.piece, rec.start, path=path)
        if u is not None and new in zoc and not self.in_command(u, side, rec.start):
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
                return self.game.geometry.distance(h, hex_id) - 1 <= reach
        return True
