"""Flips back to full strength and returned units: tank recovery (7.4) and replacements (11)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Flipped

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


class RecoveryRules(BaseAuditor):
    """Part of the Bravery in the Sand auditor; see __init__.py."""

    def on_flipped(self, e: Flipped) -> None:
        self._victory_dirty = True
        if e.layer == "Face" and e.piece.properties().get("MarkerId") == "control":
            self._control_flipped(e)
            return
        unit = self.unit_of(e.piece)
        if unit is None or e.layer != "Step" or not self.started:
            return
        where = e.where.label
        if e.new == 2 and e.old == 1:
            if self._combat_at(where) is None:
                self.stray_flips.add(e.piece.id)
            self._damage(e.piece, unit, where, eliminated=False)
        elif e.new == 1 and e.old == 2:
            if e.piece.id in self.stray_flips:  # Choice (7.2, 11): flipping back a unit flipped by
                self.stray_flips.discard(e.piece.id)  # mistake, with no combat, costs nothing
                return
            self._restored(e.piece, unit, where)

    def _restored(self, p: Piece, unit: s.Unit, where: str) -> None:
        """Back to full strength: a replacement point (11.1) or a tank recovery (7.4)."""
        side = self.side_of(p)
        c = self._combat_at(where)
        if c and c.recovery.get(side, 0) > 0 and p.id in c.damaged_armor.get(side, set()):
            c.recovery[side] -= 1
            return
        if self.phase == "Replacements" and side == self.side_name.get("commonwealth"):
            self._spend_replacement(p, unit, 1.0)
            return
        self.find("7.4" if c else "11.1", "a unit returned to full strength with no tank recovery success or "
                  "replacement point to pay for it", p, where)

    def _returned(self, p: Piece, unit: s.Unit, hex_id: str) -> None:
        """7.4.2: armor eliminated in a combat comes back into its hex for a tank recovery success
        (two for full strength); 11.1-11.2: an eliminated Commonwealth unit comes back in a
        controlled strategic hex."""
        cost = 1.0 if self.reduced(p) else 2.0
        if self._recovered(p, hex_id, int(cost)):
            return
        if self.side_of(p) != self.side_name.get("commonwealth") or self.phase != "Replacements":
            self.find("11.1", "only the Commonwealth brings back eliminated units, in its replacement phase", p, to_hex=hex_id)
            return
        place = self.game.places.get(hex_id)
        if not (place and place.strategic and self._controller(hex_id) == self.side_name["commonwealth"]):
            self.find("11.2", f"returned units are placed in a strategic hex with a Commonwealth Control Marker; "
                      f"{hex_id} is not one", p, to_hex=hex_id)
        self._spend_replacement(p, unit, cost)

    def _recovered(self, p: Piece, hex_id: str, successes: int) -> bool:
        """7.4.2, 7.4.3: a unit eliminated in this hex's combat, paid for by recovery successes."""
        c = self._combat_at(hex_id)
        side = self.side_of(p)
        if c is None or p.id not in c.damaged_armor.get(side, set()) or side not in c.lost:
            return False
        if c.recovery.get(side, 0) < successes:
            self.find("7.4.2", f"{p.name} came back into {hex_id} with {c.recovery.get(side, 0)} tank recovery "
                      f"success(es); it needs {successes} ({'full' if successes == 2 else 'reduced'} strength)", p,
                      to_hex=hex_id)
        c.recovery[side] = max(0, c.recovery.get(side, 0) - successes)
        return True

    def _spend_replacement(self, p: Piece, unit: s.Unit, cost: float) -> None:
        if (self.turn or 0) < 2:
            self.find("11.1", "replacements start on turn 2", p)
        self.replacement_points += cost
        self.replaced[unit.formation] = self.replaced.get(unit.formation, 0) + cost
        if self.replacement_points > 2:
            self.find("11.1", f"{self.replacement_points:g} replacement points used in turn {self.turn}; 2 a turn", p)
