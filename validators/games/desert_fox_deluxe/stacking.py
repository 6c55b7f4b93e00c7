"""Stacking (10.1-10.3): digest 10.1 rank 4.

A hex may hold 6 stacking points at the end of a phase, a city hex 9 (10.2); an overstacked hex
is not illegal, but every unit in it is disrupted (10.3).  Points come from tables/stacking.yaml
in the shape every game's stacking table has (builder/model/stacking.py): each printed step 1
point, whatever the unit's status (10.1: the value never changes; reconstructed: the Stacking
Summary Chart is on the missing Player Aid Card), an Italian or Vichy French division 3, even
reduced (15.10), HQs, air, fleets and supply units free.

Choices:
- 10.3: the disruption is due when the phase ends; a Disrupted marker placed in the hex before the
  next phase ends fulfils it.  A hex still overstacked then without a Disrupted marker is reported
  at the end of the phase in which it stood overstacked (the act), once while it stays overstacked
  (one act, one finding).
  Units of both sides in one hex (the set-up's contested hexes) are counted per side.
- A hex the scenario card itself overstacks (26.0 puts the Italian divisions and the depot at
  El Agheila C0701, the DAK at C0702: the cards' `overstacked_hexes`) is left alone while it
  holds no unit that was not there when the log began: the card's set-up is not the players' act.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.units import Forces
from validators.kernel.rule import Rule
from validators.kernel.stacking import StackingTable, unit_attrs
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved


class Stacking(Rule):
    """10.2-10.3: a hex overstacked at the end of a phase has its units disrupted."""

    ids = ("10.3",)
    covers = ("8.2",)
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.table = StackingTable.from_data(self.game.table("stacking").data["stacking"])
        self.points: dict[str, int] = {}  # unit id -> its stacking points
        # hex -> (side name, message, the step that ended the phase it stood in): due a Disrupted marker by
        # the end of the next phase, and then reported at the end of the phase in which it stood
        self.overstacked: dict[str, tuple[str, str, int]] = {}
        self.stack_reported: set[tuple[str, str]] = set()  # (hex, side name) reported and still overstacked
        self.over: dict[tuple[str, str], tuple[list[Piece], int, int]] = {}  # (hex, side) -> over the limit
        self.touched: set[str] | None = None  # hexes whose stacks changed since the last look (None: all)
        self.order = {side: i for i, side in enumerate(self.board.side_names)}  # sides in the game's order
        self._look()
        self.card_stacks = {k: {p.id for p in mine} for k, (mine, total, limit) in self.over.items()}

    def stacking_points(self, p: Piece) -> int:
        u = self.board.unit_of(p)
        if u is None:
            return 0
        found = self.points.get(u.id)
        if found is None:
            found = self.points[u.id] = self.table.points_of(unit_attrs(self.game, u))
        return found

    def phase_ended(self, pid: str) -> None:
        disrupted_in, names = self.forces.disrupted_in, self.board.side_names
        if self.overstacked:
            for h, (side, message, step) in sorted(self.overstacked.items()):
                if not disrupted_in(h) and (h, side) not in self.stack_reported:
                    self.find("10.3", message, None, None, h, side=side, at=step)
                    self.stack_reported.add((h, side))
            self.overstacked = {}
        still: set[tuple[str, str]] = set()
        if self.state.phase_id is not None:
            if self.touched is None or self.touched:
                self._look()
            order = self.order
            for (h, side), (mine, total, limit) in sorted(self.over.items(), key=lambda x: (x[0][0], order[x[0][1]])):
                if {p.id for p in mine} <= self.card_stacks.get((h, side), set()):
                    continue  # as the card set it up
                still.add((h, names[side]))
                if not disrupted_in(h):
                    name = names[side]
                    self.overstacked[h] = name, (
                        f"end of the {self.state.phase} Phase: {h} holds {total} stacking points of {name} units > "
                        f"{limit} (10.2): every unit in it is disrupted (10.3); no Disrupted marker was placed "
                        f"there by the end of the next phase{self.state.reconstructed('stacking')}"), self.state.step
        if self.stack_reported:
            self.stack_reported &= still

    def moved(self, e: Moved) -> None:
        if self.touched is not None:
            self.touched.update((e.old.label, e.new.label))

    def added(self, e: Added) -> None:
        if self.touched is not None:
            self.touched.add(e.where.label)

    removed = added

    def _look(self) -> None:
        """Bring `over` up to date: the hexes touched since the last look are counted again (a
        stack's points change only when a unit comes or goes: 10.1, the value never changes)."""
        board, is_ground, points = self.board, self.forces.is_ground, self.stacking_points
        if self.touched is None:
            hexes = board.by_hex()
            labels, pieces_in = list(hexes), lambda h: hexes.get(h, ())
        else:  # only the touched hexes' pieces are read (by_hex() would bring every hex up to date)
            labels, pieces_in = [h for h in self.touched if board.on_map(h)], board.pieces_in
        for h in labels:
            by_side: dict[str, list[Piece]] = {}
            for p in pieces_in(h):
                side = board.side_id(p)
                if side is not None and is_ground(p):
                    by_side.setdefault(side, []).append(p)
            limit = self.table.limit_in(self.game.hex_terrain.get(h))
            for side in board.side_names:
                mine = by_side.get(side, [])
                if not mine and limit >= 0:  # no unit of the side: within the limit
                    self.over.pop((h, side), None)
                    continue
                total = sum(points(p) for p in mine)
                if total > limit:
                    self.over[h, side] = (mine, total, limit)
                else:
                    self.over.pop((h, side), None)
        self.touched = set()
