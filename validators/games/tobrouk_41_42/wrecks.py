"""Wrecks (4.41a): digest 10.1 rank 16.

"At the end of each combat where armored CU suffer losses, a wreck marker is placed in the hex"
(4.41a), not for light or fragile armour nor for reconnaissance units (4.41a').

Evidence: the steps a unit loses in a combat phase (its Step layer flipped up, the counter
removed or taken off the map) and the Wreck markers (single, double, triple) dragged onto a hex
in that phase.  When the combat phase ends, each hex where an armoured, non-fragile, non-recon
combat unit lost a step must hold a Wreck marker placed in the phase.

Choices:
- Digest O15: one wreck per step or per combat is not said; one Wreck marker (of any size) per
  hex and combat phase is asked for, the number is not checked.
- Fragile is read on the face the unit showed when it lost the step (11.1g: mixed brigades lose
  their fragile arrow on the reduced face); a unit fragile then makes no wreck due.
- A wreck placed in the hex the unit retreated to is accepted as well (the log cannot say
  whether it was placed before the retreat).
- Wrecks placed outside a combat phase, or where no loss called for them, are not reported.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import COMBATS
from validators.games.tobrouk_41_42.units import WRECKS, TobroukRule, mid
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed


class Wrecks(TobroukRule):
    """4.41a: a combat phase in which an armoured CU (not fragile, not recon) lost a step leaves a
    Wreck marker in its hex."""

    ids = ("4.41",)
    acts_in = {"unit_step": ()}

    def new_phase(self) -> None:
        self.wreck_due: dict[str, Piece] = {}  # hex -> the first unit whose loss there calls for a wreck
        self.wrecked: set[str] = set()  # hexes given a wreck marker in this phase

    def phase_ended(self, pid: str) -> None:
        if pid in COMBATS:
            self._check_wrecks()

    def _makes_wreck(self, p: Piece, reduced: bool) -> bool:
        """4.41a-a': an armoured CU, not fragile on the face it showed (`reduced`), not recon."""
        u = self.unit_of(p)
        if u is None or not self.is_cu(p) or not u.armoured or u.type == "recon":
            return False
        return not (u.fragile_reduced if reduced else u.fragile)

    def _loss(self, p: Piece, hex_id: str | None, reduced: bool) -> None:
        if self.state.phase_id in COMBATS and hex_id in self.hexes and self._makes_wreck(p, reduced):
            self.wreck_due.setdefault(hex_id, p)

    def flipped(self, e: Flipped) -> None:
        if e.layer == "Step" and e.new > e.old and e.where is not None:
            self._loss(e.piece, e.where.label, e.old == 2)  # the face before the flip

    def removed(self, e: Removed) -> None:
        if e.where is not None:
            self._loss(e.piece, e.where.label, self.reduced(e.piece))

    def moved(self, e: Moved) -> None:
        geo = self.hexes
        if e.old.label in geo and e.new.label not in geo and e.old.label != e.new.label:
            self._loss(e.piece, e.old.label, self.reduced(e.piece))
        self.added(e)

    def added(self, e: Added | Moved) -> None:
        at = e.where.label if isinstance(e, Added) else e.new.label
        if mid(e.piece) in WRECKS and at in self.hexes and self.state.phase_id in COMBATS:
            self.wrecked.add(at)

    def _check_wrecks(self) -> None:
        for hex_id, p in sorted(self.wreck_due.items()):
            if hex_id in self.wrecked:
                continue
            now = self.hex_of(p)
            if now is not None and now in self.wrecked:
                continue
            self.find("4.41", f"end of the {self.state.phase}: {p.name} (armoured, not fragile nor recon) lost a step "
                      f"in {hex_id} and no Wreck marker was placed there (4.41a)", p, None, hex_id,
                      side=self.side_name(self.side_id(p)))
