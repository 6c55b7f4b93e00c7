"""Stacking (3.3, 12.33, 12.57): at most 7 stacking points of one side in a hex at the end of any
phase (digest 10.1 rank 4).

The stacking value is printed on each counter (2.24h; units.yaml `stacking`, reconstructed):
units of value 0 stack without limit (3.31), air units, MSUs and Dumps are markers and never
count (13.12, 6.13b), holding boxes have no limit (3.33).  Units moving or retreating pass
through stacks freely (3.32): only the end of a phase is judged.

Choice: a hex over the limit is reported once for the same units.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.rule import Rule


class Stacking(Rule):
    """3.32: at most 7 stacking points of one side in a hex at the end of any phase; the excess goes
    to the Cadre Box."""

    ids = ("3.32",)
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.stack_limit = int(self.tables["stacking"]["stacking"]["limit"])
        self._overstacked: set[tuple[str, frozenset[str]]] = set()

    def phase_ended(self, pid: str) -> None:
        board, is_combat, names = self.board, self.forces.is_combat, self.board.side_names
        for h, ps in sorted(board.by_hex().items()):
            for side in names:
                units = [p for p in ps if is_combat(p) and board.side_id(p) == side]
                total = sum(board.unit_of(p).stacking or 0 for p in units)
                key = (h, frozenset(p.id for p in units))
                if total <= self.stack_limit or key in self._overstacked:
                    continue
                self._overstacked.add(key)
                listed = ", ".join(f"{p.name} ({board.unit_of(p).stacking})" for p in units if board.unit_of(p).stacking)
                self.find("3.32", f"end of the {self.state.phase}: {h} holds {total} stacking points ({listed}), more "
                          f"than {self.stack_limit}; the excess goes to the Cadre Box"
                          f"{self.state.reconstructed('stacking')}", None, None, h, side=names[side])
