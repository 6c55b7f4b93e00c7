"""Tracing supply lines (12.4, with 12.5's marking): digest 10.1 rank 8.

Evidence: the phasing side's combat units that stand still through their Movement Phase, the OGS
markers of their hexes at its end (12.5: GenS is determined at the start of the phase and the
units marked then, 4.1 VI.1), the enemy's units and ZoC, and the two sources the log shows to be
active whatever the players did with dumps: the NRV, a permanently active primary base (22.1),
and a card's Axis base "automatically activated each GT" (24.1: C0701; 25.1: Tripoli L2817;
tables/scenario-rules.yaml `active_base`, unless an Allied unit is next to it, 12.2.4).

Checked:
- 12.4.1, 12.5: a unit that traces an LOS to one of those sources is in GenS: a hex whose units all
  carry OGS markers although they trace one, by the strictest reading, is reported (once a hex
  and phase).

The strictest reading (a false alarm costs more than a miss):
- 12.4.1: 14 MMP from the source, each step at the dearer of the reconstructed TEC's motorized and
  mechanized costs (the TEC is missing: its road cost for motorized units, 1/4 MP, is a guess); from
  the NRV along its roads only, entering at W2034 or W2234 with the 14 road hexes of 22.1 d already
  spent (the track at W1434 takes all 14 MMP, and the railroad's reach is not counted); the line enters no
  enemy-held hex and no hex in an enemy ZoC (12.4: friendly units negate it, which is not credited);
  units standing in an enemy ZoC are not judged.
- Units that moved in the phase are not judged (the marking reflects the phase's start); the line is
  traced at the phase's end, where the enemy stands as it stood at its start.
- That a unit without an LOS carries its OGS marker is not checked: the log cannot show that a dump
  was expended to supply its hex (12.2.1, digest 10.2), and no base's activation is in it.
"""
from __future__ import annotations

import heapq

from validators.games.desert_fox_deluxe.movement import MoveCosts
from validators.games.desert_fox_deluxe.units import Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

LOS = 14  # 12.4.1 a: from a base, in MMP
NRV_ROADS = ("W2034", "W2234")  # 22.1 a, d
NRV_ROAD_HEXES = 14  # 22.1 d
CLASSES = ("motorized", "mechanized")  # the dearer of the two (see the docstring)


class SupplyLines(Rule):
    """12.4-12.5: units that trace an LOS to the NRV or a card's always-active base are not marked OGS."""

    ids = ("12.4",)
    needs = (MoveCosts, Forces)

    def start(self) -> None:
        self.costs = self.ctx.get(MoveCosts)
        self.forces = self.ctx.get(Forces)
        rules = self.tables.get("scenario-rules", {}).get(self.state.scenario or "", {})
        self.active_base = rules.get("active_base")
        road = max(float(v) for k, v in self.game.table("terrain-effects").data["connected"]["road"]["mp"].items()
                   if k in CLASSES)
        self.nrv_budget = max(0, int((LOS - NRV_ROAD_HEXES * road) * self.costs.scale))
        self.moved_now: set[str] = set()

    def moved(self, e: Moved) -> None:
        if e.old.label != e.new.label:
            self.moved_now.add(e.piece.id)

    def _reach(self, side: str) -> set[str]:
        board, geo, costs = self.board, self.game.geometry, self.costs
        enemy, zoc = costs.enemy_hexes(side), costs.enemy_zoc(side, False)
        budget: dict[str, int] = {}
        if side == "allied":
            for h in NRV_ROADS:
                if h in geo and h not in enemy and h not in zoc:
                    budget[h] = self.nrv_budget
        elif side == "axis" and self.active_base and self.active_base in geo:
            h = self.active_base
            near = [h, *geo.neighbours(h)]
            if not any(board.enemies_in(n, board.side_names[side]) for n in near) and h not in enemy:
                budget[h] = LOS * costs.scale
        left = dict(budget)
        heap = [(-b, h) for h, b in budget.items()]
        heapq.heapify(heap)
        while heap:
            b, h = heapq.heappop(heap)
            b = -b
            if left.get(h, -1) > b:
                continue
            for n in geo.neighbours(h):
                if n in enemy or n in zoc:
                    continue
                found = [costs.step_units(h, n, cls) for cls in CLASSES]
                c = None if None in found else max(found)
                if c is None or c > b or left.get(n, -1) >= b - c:
                    continue
                left[n] = b - c
                heapq.heappush(heap, (-(b - c), n))
        return set(left)

    def phase_started(self, pid: str) -> None:
        self.moved_now = set()

    def phase_ended(self, pid: str) -> None:
        """Only hexes whose units all carry OGS markers and stood still are candidates; the line is
        traced (once a phase) only when there is one (the enemy does not move in this phase)."""
        if self.state.phase_kind != "movement":
            return
        side = self.state.phasing()
        if side not in ("allied", "axis"):
            return
        board, f = self.board, self.forces
        candidates = []
        for h, units in sorted(board.unit_hexes(side).items()):
            if not board.markers_in(h, "ogs"):
                continue  # the commonest hex: no OGS marker, so not surely marked
            combat = [p for p in units if f.is_combat_unit(p)]
            if combat and not any(p.id in self.moved_now for p in combat) \
                    and f.surely_marked(board.pieces_in(h), "ogs"):
                candidates.append((h, combat))
        if not candidates:
            return
        reach, zoc = self._reach(side), self.costs.enemy_zoc(side, False)
        for h, units in candidates:
            if h not in reach or h in zoc:
                continue
            source = "the NRV (22.1)" if side == "allied" else f"the base at {self.active_base}"
            self.find("12.4", f"{units[0].name} in {h} is marked OGS, but it traces a line of supply to {source} within "
                      f"{LOS} MMP, free of enemy units and ZoC (12.4.1): it is in general supply (12.5)"
                      f"{self.state.reconstructed('terrain-effects')}", units[0], None, h, side=board.side_names[side])
