"""Stacking (9.2, 7.7): at most 4 stacking points a hex at the end of every phase.

Points come from tables/stacking.yaml (`kind: stacking`) through `kernel.stacking.StackingTable`
(an Italian division 2, any other combat unit 1, one battalion free); leaders and depots are
not units and never count.  A hex still over the limit when the turn tracker leaves a phase is
reported: the excess should have been eliminated by then (9.2).

Choices (7.7): a reinforcement is a unit that came onto the map from an off-map box after play
began; it is left out of the count while it stands on the hex where it entered, until the end
of its side's next Regular Movement Phase.
"""
from __future__ import annotations

from validators.games.western_desert_force.base import WdfRule
from validators.kernel.stacking import StackingTable
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved


class StackingRules(WdfRule):
    """9.2: at most 4 stacking points a hex when a phase ends; reinforcements on their entry hex aside (7.7)."""

    ids = ('9.2',)
    acts_in = {"unit_step": ()}  # its `moved` reads units coming onto the map (7.7)

    def start(self) -> None:
        super().start()
        table = self.game.table("stacking").data  # schema.StackingData
        spec = table["stacking"]
        self.stacking = StackingTable.from_data(spec)
        rules = self.stacking.points
        self._most = (None if any("sp" not in r for r in rules) or self.stacking.default_per_step is not None
                      else max([self.stacking.default] + [int(r["sp"]) for r in rules]))  # the most points of a unit
        self.stacking_rule = str(spec.get("rule", "9.2"))
        self.overstack_rule = str(table["reinforcement_overstack"]["rule"])
        self._entered: dict[str, str] = {}  # reinforcement piece id -> its entry hex (7.7)
        self._over_kept: dict[str, tuple] = {}  # side -> (its unit_hexes, _entered, _over(side))

    def stacking_points(self, hex_id: str, side: str) -> int:
        """Points of `side`'s combat units in the hex counted against the limit (9.2)."""
        return self.stacking.total(self.supply.unit_attrs(p) for p in self.supply.unit_hexes(side).get(hex_id, ()))

    # -- reinforcements (7.7) ---------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        self._arrived(e.piece, e.old.label, e.new.label)

    def added(self, e: Added) -> None:
        self._arrived(e.piece, None, e.where.label)

    def _arrived(self, p: Piece, old: str | None, new: str) -> None:
        geo = self.game.geometry
        if self.phase_kind is not None and self.board.unit_of(p) and old not in geo and new in geo:
            self._entered = {**self._entered, p.id: new}  # a new dict: the counts kept for the old one stand

    # -- end of phase (9.2) -------------------------------------------------------------------
    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == "movement" and side:
            board = self.board.replayer.board.pieces
            self._entered = {i: h for i, h in self._entered.items() if i in board and self.board.side_id(board[i]) != side}
        self._check_stacking()

    def _over(self, side: str) -> list[tuple[str, int, int]]:
        """(hex, stacking points, reinforcements left out) of each of the side's hexes over the
        limit, by hex id; kept while its units and the reinforcements on their entry hexes stay."""
        units, entered, limit = self.supply.unit_hexes(side), self._entered, self.stacking.limit
        kept = self._over_kept.get(side)
        if kept is None or kept[0] is not units or kept[1] is not entered:
            over = []
            for hex_id, pieces in sorted(units.items()):
                if self._most is not None and len(pieces) * self._most <= limit:
                    continue  # too few units to be over, whatever they are
                counted = [p for p in pieces if entered.get(p.id) != hex_id]
                total = self.stacking.total(self.supply.unit_attrs(p) for p in counted)
                if total > limit:
                    over.append((hex_id, total, len(pieces) - len(counted)))
            kept = self._over_kept[side] = (units, entered, over)
        return kept[2]

    def _check_stacking(self) -> None:
        limit, free = self.stacking.limit, self.stacking.free
        for side in self.game.sides:
            for hex_id, total, fresh in self._over(side):
                note = (f" besides {fresh} reinforcement(s) still on their entry hex ({self.overstack_rule})"
                        if fresh else "")
                self.find(self.stacking_rule, f"end of the {self.phase} Phase: {hex_id} holds {total} stacking points "
                          f"of {self.supply.side_name(side)} units{note} > {limit} (one {free.get('size', '')} free): the "
                          "excess must be eliminated", None, None, hex_id, side=self.supply.side_name(side))
