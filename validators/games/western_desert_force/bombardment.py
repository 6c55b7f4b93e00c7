"""Air bombardment limits (14.2): at least two ASPs (one die each), targets within 5 hexes of a
friendly combat unit or the depot, and a unit bombarded at most once a combat phase; and the
Allied naval bombardment (15.0): with Naval Support, the turn's one naval attack, in Regular
Combat, on a coastal hex, never with air bombardment dice.

Part of rank 20 of the digest's §10.1; the dice, their hits and the no-fire-back rule are in
combat.py.  Judged when the bombardment (a combat with air bombardment dice) closes.

Choice (14.2): the 5 hexes are counted from the bombarded hex to the nearest hex holding a
combat unit of the bombarding side, or its depot, when the combat closes.
"""
from __future__ import annotations

from validators.games.western_desert_force.combat import CombatResolution
from validators.games.western_desert_force.roads import Roads
from validators.replay.replayer import Rolled

AIR_BOMBARDMENT = " bombardment dice"
NAVAL = "naval"


class BombardmentRules(CombatResolution):
    """Part of the Western Desert Force auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        spec = self.combat_table.get("air_bombardment", {})
        self.bomb_min = int(spec.get("min_asp", 2))
        self.bomb_range = int(spec.get("range", 5))
        self._bomb_dice: dict[int, int] = {}  # id(combat) -> air bombardment dice
        self._bombarded: set[str] = set()  # units bombarded this phase

    def phase_started(self, pid: str) -> None:
        kind = self.phase_kind
        if kind in self.combat_table.get("phases", ()):
            self._bombarded = set()
        super().phase_started(pid)

    def rolled(self, e: Rolled) -> None:
        if NAVAL in e.button and e.button.endswith(AIR_BOMBARDMENT) and self.in_combat_phase():
            self._naval_bombardment(e)
        super().rolled(e)
        c = self.combat_now
        if c is not None and e.button.endswith(AIR_BOMBARDMENT) and NAVAL not in e.button and self.in_combat_phase():
            self._bomb_dice[id(c)] = self._bomb_dice.get(id(c), 0) + len(e.dice)

    def _naval_bombardment(self, e: Rolled) -> None:
        """15.0: with Naval Support, once a turn (with naval ground support), in Regular Combat,
        on a coastal hex, apart from any air bombardment."""
        spec, c = self.combat_table.get("naval_support", {}), self.combat_now
        why = []
        if not self.supply.naval_support():
            why.append("the Allies have no Naval Support this turn")
        if self.phase_kind not in spec.get("phases", ("combat",)):
            why.append(f"the naval attack is made in the Regular Combat Phase only, not {self.phase}")
        if self._cb_naval_turn == self.turn:
            why.append("the one naval attack of the turn was already made")
        coast = spec.get("coast", "sea")
        inland = sorted(h for h in (c.attacked_hexes if c else ())
                        if not any(self.game.hex_terrain.get(n) == coast for n in self.game.geometry.neighbours(h)))
        if inland:
            why.append(f"{', '.join(inland)} is not a coastal hex")
        if c is not None and self._bomb_dice.get(id(c)):
            why.append("naval bombardment is always separate from air bombardment")
        if why:
            self.find(spec.get("rule", "15.0"), "naval bombardment: " + "; ".join(why), side=self.game.sides["allied"].name)

    def _close(self) -> None:
        c = self.combat_now
        n = self._bomb_dice.pop(id(c), 0) if c is not None else 0
        if c is not None and c.resolved_at is not None and n:
            self._check_bombardment(c, n)
        super()._close()

    def _check_bombardment(self, c, n: int) -> None:
        name = self.game.sides[c.attacker].name
        where = ", ".join(sorted(c.attacked_hexes))
        if n < self.bomb_min:
            self.find("14.2", f"an air bombardment takes at least {self.bomb_min} ASPs (a die each): {n} rolled on "
                      f"{where}", side=name)
        friends = set(self.supply.unit_hexes(c.attacker))
        depot = self.ctx.get(Roads).depot_hex(c.attacker)
        if depot:
            friends.add(depot)
        geo = self.game.geometry
        for h in sorted(c.attacked_hexes):
            near = min((geo.distance(h, f) for f in friends), default=None)
            if near is None or near > self.bomb_range:
                self.find("14.2", f"air bombardment reaches enemy units within {self.bomb_range} hexes of a friendly "
                          f"combat unit or the depot: {h} is {near if near is not None else 'beyond any'} hexes away",
                          to_hex=h, side=name)
        again = sorted(self.game_piece_name(pid) for pid in c.defenders if pid in self._bombarded)
        if again:
            self.find("14.2", f"a unit is bombarded at most once a combat phase: {', '.join(again)} again in {where}",
                      side=name)
        self._bombarded |= set(c.defenders)

    def game_piece_name(self, pid: str) -> str:
        p = self.board.replayer.board.pieces.get(pid)
        return p.name if p is not None else pid
