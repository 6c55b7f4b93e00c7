"""Movement (13.1-13.5) and zones of control (11.1-11.5): digest 10.1 rank 9, with the
movement half of rank 10 (overrun).

Costs come from tables/terrain-effects.yaml (reconstructed: the Terrain Effects Chart is on the
missing Player Aid Card), so every cost finding says so.  A unit's moves in one phase are costed
together: the cheapest legal path from where it stood when the phase began to where it is now.

Checked:
- 13.1: no enemy-occupied hex is entered except by an overrun (13.4, a "Declare overrun");
- 13.2: the path costs at most the MA (Movement Phase) or the RMA (Reaction Phase, 13.2.1:
  a quarter of the MA rounded up for a motorized unit, one hex for a non-motorized one; +2 with an
  HQ, 15.6); a declared road march (13.2.3) adds 7 MP;
- 11.4: entering an EZOC costs 1 MP more and ends the move; a unit may not go from one EZOC hex
  straight into another.

Choices (a false alarm costs more than a miss):
- 13.2.4 forced march (MA + 1d6 + 3) and 11.5 night movement (through EZOC, the EZOC hexes at
  double cost) are not declared in the log: a move that only one of them allows is legal when the
  unit's hex holds a Disrupted marker at the end of the phase (both disrupt the unit), and is
  reported then otherwise.  The forced march is taken at its most, MA + 9.
- The ZoC of 11.1 is exerted by units with a CF above 0 on the face shown, not garrisons (15.8),
  not supply units, in a hex without a Disrupted, OGS or Reserve marker; it does not cross an
  escarpment hexside nor enter a city hex, a hex with a Fort marker or a hex the unit could not
  enter (11.3).  A mover that may be motorized ignores the ZoC of units that may be foot (11.2).
  Special forces, desert raiders and units that began the move stacked with an HQ ignore EZOC
  (15.4, 16.0, 15.6).  Recon superiority (15.3, +2 MP) is not charged.
- Costs: a road hexside cancels the other terrain (13.3); a track halves the hex and hexside
  costs (the table's `track` where it gives one); an escarpment costs nothing along a road or
  track; a railroad hexside costs nothing (13.7: 3 MP for any distance by rail); a unit whose class
  is unsure pays the cheaper of its classes (state.py); special forces pay 1 MP a hex (15.4).
- A unit that declared an overrun in the phase is not costed (the overrun's +2 MP and its combat
  are not followed hex by hex); the overrun itself: no overrun into a mountain or city hex or a
  hex with a Fort marker (13.4.2), nor by a unit in a hex with a Disrupted or OGS marker (13.4.1).
- Units with an MA of 0, supply units carried by an MSU (13.7: dumps) and moves into or out of
  boxes are not costed.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from validators.games.desert_fox_deluxe.state import EZOC_EXEMPT, SUPPLY
from validators.games.desert_fox_deluxe.turns import SequenceRules
from validators.kernel.movement import mp, search, show_mp
from validators.replay.board import Piece
from validators.replay.replayer import Moved

FORCED_MARCH_MAX = 9  # 13.2.4: MA + (1d6 + 3)
ROAD_MARCH = 7  # 13.2.3
HQ_RMA = 2  # 15.6


@dataclass
class MoveRecord:
    start: str
    road_march: bool = False
    hq: bool = False  # stacked with a friendly HQ when the move began (15.6)


class MovementRules(SequenceRules):
    """Part of the Desert Fox Deluxe auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.tec = self.tables["terrain-effects"]
        self.moves: dict[str, MoveRecord] = {}
        self.pending: dict[str, tuple[str, str, str]] = {}  # piece id -> (rule, message, hex) due unless disrupted
        self.road_marchers: set[str] = set()
        self.overrunners: set[str] = set()

    def phase_started(self, pid: str) -> None:
        super().phase_started(pid)
        self.moves, self.road_marchers, self.overrunners = {}, set(), set()

    def phase_ended(self, pid: str) -> None:
        board = self.replayer.board.pieces
        for piece_id, (rule, message, _) in sorted(self.pending.items()):
            p = board.get(piece_id)
            here = self.hex_of(p) if p is not None else None
            if p is None or here is None or self.disrupted_in(here):
                continue
            self.find(rule, f"{message}; no Disrupted marker in {here} at the end of the {self.phase} Phase", p,
                      None, here)
        self.pending = {}
        super().phase_ended(pid)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        if role == "road":
            self.road_marchers.add(piece.id)
        elif role == "overrun":
            self.overrunners.add(piece.id)
            self._check_overrun(piece, hex_id)
        super().declared(role, piece, hex_id)

    # -- costs -------------------------------------------------------------------------------------
    def step_cost(self, a: str, b: str, cls: str) -> Fraction | None:
        """Cost for class `cls` to move a -> b by the reconstructed TEC, None: prohibited."""
        g, tec = self.game, self.tec
        t = g.hex_terrain.get(b)
        kind = g.hex_terrain_types.get(t)
        if t is None or kind is None or kind.prohibited:
            return None
        side = self.crossing(a, b)
        road, track = "road" in side, "track" in side
        if "railroad" in side:
            return Fraction(0)
        base_cls = "mechanized" if cls in ("recon", "desert-raider") else cls
        if road:
            return mp(tec["road"][base_cls])
        spec = tec["terrain"].get(t, {})
        costs = spec.get("mp", {})
        value = costs.get(cls, costs.get(base_cls))
        if value is None or value == "along-track":
            if not (value == "along-track" and track):
                return None
            cost = mp(spec.get("track", tec["terrain"]["desert"].get("track", 1)))
        else:
            cost = mp(value)
            if track:
                cost = mp(spec["track"]) if "track" in spec else cost / 2
        for f in sorted(side):
            hs = tec.get("hexside", {}).get(f)
            if not hs or "add" not in hs:
                continue
            if f == "escarpment" and track:
                continue
            extra = mp(hs.get("along_track", hs["add"])) if track and "along_track" in hs else mp(hs["add"])
            cost += extra / 2 if track and "along_track" not in hs else extra
        return cost

    def crossing(self, a: str, b: str) -> frozenset[str]:
        from builder.geometry.hexmap import hexside_key
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def unit_step(self, p: Piece):
        u = self.unit_of(p)
        if u.type == "special-forces":
            return lambda a, b: None if self.step_cost(a, b, "foot") is None and self.step_cost(a, b, "mechanized") is None \
                else Fraction(1)
        classes = sorted(self.classes(u))

        def step(a: str, b: str) -> Fraction | None:
            costs = [c for c in (self.step_cost(a, b, cls) for cls in classes) if c is not None]
            return min(costs) if costs else None
        return step

    # -- zones of control ----------------------------------------------------------------------------
    def exerts_zoc(self, p: Piece) -> bool:
        u = self.unit_of(p)
        if u is None or not self.is_combat_unit(p) or u.type == "garrison" or self.cf(p) <= 0:
            return False
        here = self.hex_of(p)
        return here is not None and not self.markers_in(here, "disrupted", "ogs", "reserve")

    def enemy_zoc(self, side: str, mover_motorized: bool) -> frozenset[str]:
        enemy = self.other_side[side]
        geo, g = self.game.geometry, self.game
        out: set[str] = set()
        for h, ps in self._by_hex().items():
            holders = [p for p in ps if self.side_id(p) == enemy and self.exerts_zoc(p)
                       and (not mover_motorized or self.surely_motorized(self.unit_of(p)))]
            if not holders:
                continue
            for n in geo.neighbours(h):
                if "escarpment" in self.crossing(h, n) or g.hex_terrain.get(n) == "city" or self.fort_level(n) is not None:
                    continue
                if all(self.unit_step(p)(h, n) is None for p in holders):
                    continue
                out.add(n)
        return frozenset(out)

    def enemy_hexes(self, side: str) -> frozenset[str]:
        """Hexes holding enemy units other than supply units (13.1, 13.4.1)."""
        return frozenset(h for h, ps in self._by_hex().items()
                         if any(self.side_id(p) == self.other_side[side] and self.is_combat_unit(p) for p in ps))

    # -- moves ----------------------------------------------------------------------------------------
    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        old, new = e.old.label, e.new.label
        u = self.unit_of(e.piece)
        if (u is None or old == new or not self.on_map(old) or not self.on_map(new) or not self.is_ground(e.piece)
                or self.phase_kind not in ("movement", "reaction") or not u.ma or u.type in SUPPLY - {"msu"}):
            return
        side = self.side_id(e.piece)
        if side is None or self.phasing() not in (None, side):
            return  # out of phase: turns.py
        rec = self.moves.get(e.piece.id)
        if rec is None:
            hq = any(self.side_id(p) == side and self.unit_of(p) and self.unit_of(p).type == "hq" and p.id != e.piece.id
                     for p in self.stood_in(old))
            rec = self.moves[e.piece.id] = MoveRecord(old, hq=hq)
        rec.road_march = rec.road_march or e.piece.id in self.road_marchers
        if e.piece.id in self.overrunners:
            return
        self._check_path(e, u, side, rec, new)

    def _check_path(self, e: Moved, u, side: str, rec: MoveRecord, new: str) -> None:
        note = self.reconstructed("terrain-effects")
        enemy = self.enemy_hexes(side)
        if new in enemy:
            self.find("13.1", f"{new} holds enemy units: a unit enters an enemy-occupied hex only by an overrun (13.4)",
                      e.piece, rec.start)
            return
        geo = self.game.geometry
        exempt = u.type in EZOC_EXEMPT or rec.hq
        zoc = frozenset() if exempt else self.enemy_zoc(side, "foot" not in self.classes(u) or "motorized" in self.classes(u))
        extra = mp(self.tec.get("ezoc", 1))
        base = self.unit_step(e.piece)
        start = rec.start

        def normal(a: str, b: str) -> Fraction | None:
            if a in zoc and b in zoc:
                return None
            c = base(a, b)
            return None if c is None else c + (extra if b in zoc else 0)

        def night(a: str, b: str) -> Fraction | None:
            c = base(a, b)
            return None if c is None else (c * 2 if b in zoc else c)
        found = search(geo.neighbours, start, normal, stop=zoc, blocked=enemy, goal=new)
        late = search(geo.neighbours, start, night, blocked=enemy, goal=new)
        cost = found.cost.get(new)
        night_cost = late.cost.get(new)
        reaction = self.phase_kind == "reaction"
        if reaction:
            allowance = Fraction(self.rma(u) + (HQ_RMA if rec.hq else 0))
            if geo.distance(start, new) <= 1 and cost is not None:
                return  # 13.2.1: a non-motorized unit reacts one hex
        else:
            allowance = Fraction(u.ma + (ROAD_MARCH if rec.road_march else 0))
        if cost is not None and cost <= allowance:
            self.pending.pop(e.piece.id, None)
            return
        forced = Fraction(u.ma + FORCED_MARCH_MAX)
        if night_cost is not None and night_cost <= allowance:
            self.pending[e.piece.id] = ("11.5", f"{u.name} moves {'-'.join(late.path(new))} through enemy ZoC: only night "
                                        f"movement allows it, and it disrupts the unit{note}", new)
            return
        if not reaction and not rec.road_march and cost is not None and cost <= forced:
            self.pending[e.piece.id] = ("13.2.4", f"{u.name} spends {show_mp(cost)} MP via {'-'.join(found.path(new))}, "
                                        f"more than its MA of {u.ma}: only a forced march allows it, and it disrupts the "
                                        f"unit{note}", new)
            return
        night_allowance = allowance if reaction or rec.road_march else forced
        if night_cost is not None and night_cost <= night_allowance:
            self.pending[e.piece.id] = ("11.5", f"{u.name} moves {'-'.join(late.path(new))} through enemy ZoC: only night "
                                        f"movement allows it, and it disrupts the unit{note}", new)
            return
        if cost is None and night_cost is None:
            self.find("13.1", f"no path open to {u.name} leads from {start} to {new} (prohibited terrain or enemy units)"
                      f"{note}", e.piece, start)
            return
        what = f"its RMA of {show_mp(allowance)}" if reaction else \
            f"its MA of {u.ma}{' + 7 for its road march' if rec.road_march else ''}"
        if cost is None:
            self.find("11.4", f"{u.name} cannot reach {new} from {start} without leaving one enemy ZoC hex straight "
                      f"into another or moving on from an enemy ZoC hex (11.4){note}", e.piece, start,
                      path=late.path(new))
            return
        zocs = sum(1 for h in found.path(new)[1:] if h in zoc)
        surcharge = f" ({zocs} enemy-ZoC hex at +{show_mp(extra)} MP)" if zocs else ""
        rule = "13.2.1" if reaction else "13.2"
        self.find(rule, f"{u.name} spends {show_mp(cost)} MP via {'-'.join(found.path(new))}{surcharge} > {what}{note}",
                  e.piece, start, path=found.path(new))

    # -- overrun (13.4) --------------------------------------------------------------------------
    def _check_overrun(self, piece: Piece, hex_id: str) -> None:
        side = self.side_id(piece)
        if self.markers_in(hex_id, "disrupted", "ogs"):
            self.find("13.4.1", f"{piece.name} overruns from {hex_id}, a hex with a Disrupted or OGS marker: disrupted "
                      "and out-of-supply units may not overrun (8.2, 12.5)", piece, None, hex_id)
        targets = [n for n in self.game.geometry.neighbours(hex_id)
                   if any(self.side_id(p) == self.other_side.get(side or "") and self.is_ground(p) for p in self.units_in(n))]
        if targets and all(self.game.hex_terrain.get(n) in ("mountain", "city") or self.fort_level(n) is not None
                           for n in targets):
            self.find("13.4.2", f"{piece.name} overruns from {hex_id}: every enemy hex next to it ({', '.join(targets)}) "
                      "is a mountain, city or fortified hex, which cannot be overrun", piece, None, hex_id)
