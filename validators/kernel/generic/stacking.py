"""Stacking from the data: the `kind: stacking` table's `stacking` (builder/model/stacking.py), judged
at the end of every phase, per side, as the set-up checks judge the scenario cards.

A hex over its limit when a phase ends is reported once, at that phase's end, and again only
after it has been back within the limit (one act, one finding)."""
from __future__ import annotations

from builder.model.game import Game
from builder.model.stacking import StackingTable, unit_attrs
from validators.kernel.rule import Rule


class Stacking(Rule):
    """No hex holds more of one side's stacking points than its limit when a phase ends."""

    @classmethod
    def ids_in(cls, game: Game) -> tuple[str, ...]:
        table = game.table("stacking")
        spec = table.data.get("stacking") if table is not None else None
        return (str(spec.get("rule") or "stacking"),) if spec is not None else ()

    def start(self) -> None:
        spec = self.game.table("stacking").data["stacking"]
        self.rule, self.table = self.ids[0], StackingTable.from_data(spec)
        self.reported: set[tuple[str, str]] = set()  # (hex, side id) reported and still over

    def phase_ended(self, pid: str) -> None:
        board, still = self.board, set()
        for h, ps in sorted(board.by_hex().items()):
            by_side: dict[str, list] = {}
            for p in ps:
                u = board.unit_of(p)
                if u is not None and board.side_id(p) is not None:
                    by_side.setdefault(board.side_id(p), []).append(u)
            limit = self.table.limit_in(self.game.hex_terrain.get(h))
            for side, units in sorted(by_side.items()):
                total = self.table.total([unit_attrs(self.game, u) for u in units])
                if total <= limit:
                    continue
                still.add((h, side))
                if (h, side) in self.reported:
                    continue
                self.reported.add((h, side))
                names = ", ".join(f"{u.name} {self.table.points_of(unit_attrs(self.game, u))}" for u in units)
                self.find(self.rule, f"end of the {self.state.phase + ' phase' if self.state.phase else 'turn'}: {h} holds {total} stacking points of "
                          f"{board.side_names.get(side, side)} units > {limit}: {names}", None, None, h,
                          side=board.side_names.get(side))
        self.reported &= still
