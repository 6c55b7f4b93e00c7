"""The duty to attack (10.0, 10.1, 7.92): once a side attacks in a combat phase, every
enemy-occupied hex next to a unit that attacked must be attacked in that phase.

Rank 18 of the digest's §10.1 (the other checks of rank 18 - each unit and each hex once a
phase, every attacker next to every defender - are in combat.py).

Choices (10.1):
- the hexes owed are those holding enemy combat units next to an attacker's hex when the
  attacker is declared; a hex emptied before the phase ends (its units retreated or were
  eliminated by another combat) is owed no more;
- no hex across a hexside no attack may cross (an escarpment with no road or track, 11.2) is
  owed; a surprise Major Offensive (7.92) owes none; a bombardment (no attacker) owes none;
- reported once per hex when the combat phase ends.
"""
from __future__ import annotations

from validators.games.western_desert_force.state import ROLES
from validators.kernel.declarations import Declared
from validators.games.western_desert_force.combat import CombatResolution
from validators.games.western_desert_force.points import Organization


class MandatoryAttackRules(CombatResolution):
    """Part of the Western Desert Force auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self._owed: dict[str, set[str]] = {}  # enemy hex -> attacking hexes next to it

    def phase_started(self, pid: str) -> None:
        kind = self.phase_kind
        if kind in self.combat_table.get("phases", ()):
            self._owed = {}
        super().phase_started(pid)

    def declared(self, d: Declared) -> None:
        role, piece, hex_id = ROLES[d.name], d.piece, d.where
        super().declared(d)
        if role != "attacker" or not self.in_combat_phase() or self.board.side_id(piece) != self.active_side:
            return
        enemy = self.supply.side_name(self.board.other_side[self.active_side])
        for n in self.game.geometry.neighbours(hex_id):
            if self.board.units_in(n, enemy) and not self._escarpment_bars(hex_id, n):
                self._owed.setdefault(n, set()).add(hex_id)

    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        super().phase_ended(pid)  # closes the phase's last combat first
        if kind not in self.combat_table.get("phases", ()) or not side or not self._owed:
            return
        owed, self._owed = self._owed, {}
        if self.ctx.get(Organization).surprise_won.get(side):
            return
        attacked = {h for c in self.combats for h in c.attacked_hexes if c.attackers}
        enemy = self.supply.side_name(self.board.other_side[side])
        for h in sorted(owed):
            if h in attacked or not self.board.units_in(h, enemy):
                continue
            froms = ", ".join(sorted(owed[h]))
            self.find("10.1", f"{enemy} units in {h}, next to the attack from {froms}, were not attacked in {self.phase}: "
                      "once a side attacks, every enemy-occupied hex next to an attacking unit must be attacked "
                      "(unless a surprise Major Offensive, 7.92)", to_hex=h, side=self.supply.side_name(side))
