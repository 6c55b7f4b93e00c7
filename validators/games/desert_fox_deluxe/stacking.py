"""Stacking (10.1-10.3): digest 10.1 rank 4.

A hex may hold 6 stacking points at the end of a phase, a city hex 9 (10.2); an overstacked hex
is not illegal, but every unit in it is disrupted (10.3).  Points come from
tables/stacking.yaml (reconstructed: the Stacking Summary Chart is on the missing Player Aid
Card): each printed step 1 point, whatever the unit's status (10.1: the value never changes),
HQs, air, fleets and supply units free.

Choices:
- 15.10 gives an Italian or Vichy French division 3 points, even reduced; the rulebook's number
  is used over the table's `division_step` (2 a step), and the table's `city_limit` (10.2).
- 10.3: the disruption is due when the phase ends; a Disrupted marker placed in the hex before the
  next phase ends fulfils it.  A hex still overstacked then without a Disrupted marker is reported,
  once while it stays overstacked (one act, one finding).
  Units of both sides in one hex (the set-up's contested hexes) are counted per side.
- A hex the scenario card itself overstacks (26.0 puts the Italian divisions and the depot at
  El Agheila C0701, the DAK at C0702) is left alone while it holds no unit that was not there
  when the log began: the card's set-up is not the players' act.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.movement import MovementRules
from validators.replay.board import Piece

DIVISION_SP = 3  # 15.10


class StackingRules(MovementRules):
    """Part of the Desert Fox Deluxe auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        spec = self.tables["stacking"]["stacking_points"]
        self.sp_limit = int(spec["limit"])
        self.sp_city = int(spec.get("city_limit", 9))
        self.sp_step = int(spec.get("per_step", 1))
        self.sp_free = frozenset(spec.get("free", ()))
        self.overstacked: dict[str, tuple[str, str]] = {}  # hex -> (side name, message), due a Disrupted marker
        self.stack_reported: set[tuple[str, str]] = set()  # (hex, side name) reported and still overstacked
        self.card_stacks = {(h, side): {p.id for p in mine} for h, side, mine, total, limit in self._stacks()
                            if total > limit}  # overstacked by the set-up (see Choices)

    def stacking_points(self, p: Piece) -> int:
        u = self.unit_of(p)
        if u is None or u.type in self.sp_free:
            return 0
        if self.is_division(u):
            return DIVISION_SP
        return self.sp_step * u.steps

    def phase_ended(self, pid: str) -> None:
        for h, (side, message) in sorted(self.overstacked.items()):
            if not self.disrupted_in(h) and (h, side) not in self.stack_reported:
                self.find("10.3", message, None, None, h, side=side)
                self.stack_reported.add((h, side))
        self.overstacked = {}
        still: set[tuple[str, str]] = set()
        if self.phase_id is not None:
            note = self.reconstructed("stacking")
            for h, side, mine, total, limit in self._stacks():
                if total > limit and {p.id for p in mine} <= self.card_stacks.get((h, side), set()):
                    continue  # as the card set it up
                if total > limit:
                    still.add((h, self.side_names[side]))
                if total > limit and not self.disrupted_in(h):
                    name = self.side_names[side]
                    self.overstacked[h] = name, (
                        f"end of the {self.phase} Phase: {h} holds {total} stacking points of {name} units > "
                        f"{limit} (10.2): every unit in it is disrupted (10.3); no Disrupted marker was placed "
                        f"there by the end of the next phase{note}")
        self.stack_reported &= still
        super().phase_ended(pid)

    def _stacks(self):
        """(hex, side id, its ground pieces, their stacking points, the hex's limit) of every hex and side."""
        for h, ps in sorted(self._by_hex().items()):
            limit = self.sp_city if self.game.hex_terrain.get(h) == "city" else self.sp_limit
            for side in self.side_names:
                mine = [p for p in ps if self.side_id(p) == side and self.is_ground(p)]
                yield h, side, mine, sum(self.stacking_points(p) for p in mine), limit
