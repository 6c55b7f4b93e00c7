"""Stacking (3.3, 12.33, 12.57): at most 7 stacking points of one side in a hex at the end of any
phase (digest 10.1 rank 4).

The stacking value is printed on each counter (2.24h; units.yaml `stacking`, reconstructed):
units of value 0 stack without limit (3.31), air units, MSUs and Dumps are markers and never
count (13.12, 6.13b), holding boxes have no limit (3.33).  Units moving or retreating pass
through stacks freely (3.32): only the end of a phase is judged.

Choice: a hex over the limit is reported once for the same units; the excess should have gone
to the Cadre Box before the phase ended (3.32).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.movement import MovementRules


class StackingRules(MovementRules):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        data = self.tables["stacking"]["stacking"]
        self.stack_limit = int(data["limit"])
        self._overstacked: set[tuple[str, frozenset[str]]] = set()

    def phase_ended(self, kind: str, side: str | None) -> None:
        self._check_stacking()
        super().phase_ended(kind, side)

    def _check_stacking(self) -> None:
        for h, ps in sorted(self.by_hex().items()):
            for side in self.side_names:
                units = [p for p in ps if self.is_combat(p) and self.side_id(p) == side]
                total = sum(self.unit_of(p).stacking or 0 for p in units)
                key = (h, frozenset(p.id for p in units))
                if total <= self.stack_limit or key in self._overstacked:
                    continue
                self._overstacked.add(key)
                names = ", ".join(f"{p.name} ({self.unit_of(p).stacking})" for p in units if self.unit_of(p).stacking)
                self.find("3.32", f"end of the {self.phase}: {h} holds {total} stacking points ({names}), more than "
                          f"{self.stack_limit}; the excess goes to the Cadre Box{self.reconstructed('stacking')}",
                          None, None, h, side=self.side_names[side])
