"""Mandatory attacks (10.15): "When a unit attacks, any enemy combat unit which projects a ZOC into
an attacking unit's hex must be attacked by either that unit or by another eligible attacking
unit" (digest 10.1 rank 1, part).

At each combat's die the hexes of enemy combat units whose ZOC reaches an attacker's hex (3.22,
3.24, as movement.py works it out) are noted; when the Combat phase ends, a noted hex that held
enemy combat units and was no Defender Hex of the phase is reported.

Choices:
- A hex no unit of the attacker's hex could attack (10.16 attack 0, 10.24 and 10.26 a hexside or
  terrain it may not cross or enter) is not required (10.16 note: "eligible attacking unit").
- A phase with attacks declared together on several Defender Hexes (combat.py, 10.11) is not
  judged; nor is a hex whose enemy units all left it in the phase (retreated or eliminated), or
  whose units all defended already in the phase (retreated there from another combat, 10.32).
- The ZOC rests on the terrain effects chart (reconstructed): findings say so.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.combat import Combats
from validators.games.slouch_hats_and_eggshells.terrain import MoveCosts
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.movement import Blocked
from validators.kernel.rule import Rule
from validators.replay.replayer import Rolled


class MandatoryAttacks(Rule):
    """10.15: an enemy combat unit projecting a ZOC into an attacking unit's hex is attacked in the
    same Combat phase, by that unit or another eligible one."""

    ids = ("10.15",)
    needs = (Forces, MoveCosts, Combats)

    def start(self) -> None:
        self.forces, self.costs, self.combats = self.ctx.get(Forces), self.ctx.get(MoveCosts), self.ctx.get(Combats)
        self._must: dict[str, tuple[str, str]] = {}  # enemy hex -> (an attacker's name, its hex)
        self._attacked_hexes: set[str] = set()
        self._mandatory_unjudged = False
        self._seen_combats: set[int] = set()

    def phase_started(self, pid: str) -> None:
        self._must, self._attacked_hexes, self._mandatory_unjudged = {}, set(), False

    def rolled(self, e: Rolled) -> None:
        c = self.combats.combat_now
        if self.state.phase_kind != "combat" or c is None or c.die is None or id(c) in self._seen_combats:
            return
        self._seen_combats.add(id(c))
        if c.more_hexes or c.defender_hex is None:
            self._mandatory_unjudged = True
            return
        self._attacked_hexes.add(c.defender_hex)
        board, forces, geo = self.board, self.forces, self.game.geometry
        pieces = board.replayer.board.pieces
        for pid, h in sorted(c.attackers.items()):
            p = pieces.get(pid)
            if p is None or h not in geo:
                continue
            own = forces.combat_units(h, c.attacker)
            for n in geo.neighbours(h):
                holders = [board.unit_of(q) for q in forces.combat_units(n, c.defender)]
                if not holders or all(u.no_zoc for u in holders) or not any(self.costs.passable(u, n, h) for u in holders):
                    continue
                if not any(forces.attack_of(board.unit_of(q), q) > 0 and not isinstance(
                        self.costs.step_cost(h, n, forces.move_class(board.unit_of(q))), Blocked) for q in own):
                    continue
                self._must.setdefault(n, (p.name, h))

    def phase_ended(self, pid: str) -> None:
        st = self.state
        if st.phase_kind != "combat" or self._mandatory_unjudged:
            return
        enemy = self.board.other_side[st.active_side]
        defended = self.combats.defended
        for n, (name, h) in sorted(self._must.items()):
            held = self.forces.combat_units(n, enemy)
            if n in self._attacked_hexes or not held or all(p.id in defended for p in held):
                continue  # attacked, emptied, or held only by units that defended already (10.32)
            units = ", ".join(p.name for p in held)
            self.find("10.15", f"{name} attacked from {h}, in the ZOC of {units} in {n}, which no attack of the "
                      f"{st.phase} took on: an enemy unit projecting a ZOC into an attacker's hex must be "
                      f"attacked{st.reconstructed('terrain-effects')}", None, h, n, side=self.board.side_names[st.active_side])
