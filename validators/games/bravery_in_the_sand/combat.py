"""Combat (6.5, 7-9): dice per Combat Strength, damage, retreats, Combined Attacks, forts.

The `Play` tracker follows each combat round by round and tells when a round starts and closes,
each roll of fire, each elimination and each retreat; these rules judge them.

Choices:
- 5.2.2, 6.4, 6.5: combat dice with no enemy units in the activated stack's hex are reported
  once per activation.
- 7.1.1: the dice are checked against the Combat Strength of the units that fight: the attacker's
  active stack and its Combined Attack stacks (7.1.2, 8.2.2), all the defender's units (7.1.3).
- 7.2.3: the damage each side must take is the hits the other scored with the modifiers of
  7.1.4, 7.1.5, 9.3, 9.4 and 10.1.2 (tables/combat.yaml), at most the elimination of all it has;
  it is judged when the round closes: at the next round's roll, a retreat, the next chit, or the
  end of the turn or the log.
- 7.3.3, 7.3.5, 8.2.4: each is reported once per combat and side (7.3.5: per destination).
"""
from __future__ import annotations

import math

from validators.games.bravery_in_the_sand.play import Play
from validators.games.bravery_in_the_sand.state import Combat
from validators.games.bravery_in_the_sand.units import LEVELS, Forces
from validators.kernel.rule import Rule
from validators.replay.board import Piece


class Dice(Rule):
    """6.5, 7.1.1, 9.2: combat needs enemy units in the activated stack's hex; a side rolls one die
    per whole point of Combat Strength; combat against a controlled fort lasts one round."""

    ids = ("6.5", "7.1.1", "9.2")
    covers = ("5.2.2", "7.1.2", "7.1.3", "8.1.4", "8.2.1", "8.2.2", "8.2.3", "8.4", "8.4.1", "8.4.2", "9.1")
    needs = (Forces, Play)

    def start(self) -> None:
        self.forces, self.play = self.ctx.get(Forces), self.ctx.get(Play)

    def idle_roll(self, side: str, hex_id: str | None) -> None:
        where = f"in {hex_id}, which holds" if hex_id else "in no hex with"
        self.find("6.5", f"{side} rolled combat dice, but the activated units are {where} no enemy units",
                  side=side, to_hex=hex_id)

    def round_starting(self, c: Combat, side: str) -> None:
        if c.fortified and c.rounds >= self.tables["combat"].get("fortification_rounds", 1):
            self.find("9.2", f"combat against a controlled fort or encampment ({c.hex}) lasts one round", side=side,
                      to_hex=c.hex)

    def fired(self, c: Combat, side: str, dice) -> None:
        strength = self.forces.combat_strength(self.play.combatants(c, side))
        want = math.floor(strength)
        if len(dice) != want:
            self.find("7.1.1", f"{side} rolled {len(dice)} dice in {c.hex}; Combat Strength {strength:g} gives {want}",
                      side=side, to_hex=c.hex)


class Damage(Rule):
    """7.2: each side takes exactly the damage the other scored (7.2.3), at least half of it on its
    highest Strength Level (7.2.1), reducing all of a level before eliminating any (7.2.2); no unit
    is eliminated outside a combat."""

    ids = ("7.2.1", "7.2.2", "7.2.3")
    covers = ("7.1.4", "7.1.5", "9.3", "9.4", "10.1.2")
    needs = (Play,)

    def round_closing(self, c: Combat) -> None:
        for side, other in ((c.attacker, c.defender), (c.defender, c.attacker)):
            hits, taken = c.hits.get(other, 0), c.damage.get(side, 0)
            units = c.before.get(side, [])
            capacity = sum(1 if reduced else 2 for _, reduced in units)  # every unit eliminated
            if units and taken != min(hits, capacity):
                self.find("7.2.3", f"{side} applied {taken} damage point(s) in {c.hex}; {other} scored {hits} hit(s) "
                          f"(dice {','.join(map(str, c.rolls.get(other, ())))})", side=side, to_hex=c.hex)
            levels = {lvl for lvl, _ in units}
            if len(levels) > 1 and taken:
                top = min(levels)
                on_top = sum(1 for lvl in c.damage_levels.get(side, []) if lvl == top)
                top_capacity = sum(1 if r else 2 for lvl, r in units if lvl == top)
                if on_top < min(math.ceil(taken / 2), top_capacity):
                    self.find("7.2.1", f"{side} put {on_top} of {taken} damage point(s) on its {LEVELS[top]} units in "
                              f"{c.hex}; at least {math.ceil(taken / 2)} must go to the highest Strength Level",
                              side=side, to_hex=c.hex)

    def eliminated_outside_combat(self, p: Piece, where: str) -> None:
        self.find("7.2.3", "a unit was eliminated with no combat in its hex", p, where)

    def eliminated_in_combat(self, c: Combat, side: str, p: Piece, unit) -> None:
        b = self.board
        fulls = [q for q in b.units_in(c.hex, side) if b.unit_of(q).level == unit.level and not b.reduced(q)]
        if fulls:
            self.find("7.2.2", f"a {unit.level} unit was eliminated while {len(fulls)} full-strength {unit.level} "
                      f"unit(s) remained in {c.hex}", p, c.hex)


class Retreats(Rule):
    """7.3.3-7.3.5, 8.2.4: only a side that took damage retreats (a lone reduced defender may; a lone
    reduced attacker must); a retreat goes to an adjacent hex free of enemy units and not across a
    cliff, the attackers back where they came from; not before a Combined Attack's rounds."""

    ids = ("7.3.3", "7.3.5", "8.2.4")
    needs = (Play,)

    def start(self) -> None:
        self.play = self.ctx.get(Play)
        self.once: set[tuple] = set()  # (combat, what, side) reported

    def _first(self, *key) -> bool:
        if key in self.once:
            return False
        self.once.add(key)
        return True

    def round_starting(self, c: Combat, side: str) -> None:
        if c.rounds and (c, "single", c.attacker) not in self.once:
            units = self.play.combatants(c, c.attacker)
            if len(units) == 1 and self.board.reduced(units[0]) and self._first(c, "single", c.attacker):
                self.find("7.3.3", f"the attacker has a single reduced unit in {c.hex}: it must retreat", units[0], c.hex)

    def retreating(self, c: Combat, side: str, p: Piece, old: str, new: str | None) -> None:
        enemy = c.defender if side == c.attacker else c.attacker
        b = self.board
        if c.rounds < c.min_rounds and not c.fortified and self.play.combatants(c, enemy) and self._first(c, "8.2.4", side):
            self.find("8.2.4", f"a Combined Attack of {c.min_rounds} stacks lasts at least {c.min_rounds} rounds; "
                      f"{side} retreated after {c.rounds}", p, old, new)
        alone = [q for q in b.units_in(old, side) if q.id != p.id]
        single_reduced = not alone and b.reduced(p)
        if not c.damaged_total.get(side) and not (side == c.defender and single_reduced) and not (
                c.fortified and side == c.attacker) and self._first(c, "7.3.3", side):
            self.find("7.3.3", f"{side} took no damage in {old} and may not retreat", p, old, new)

    def retreated(self, c: Combat, side: str, p: Piece, old: str, new: str) -> None:
        problem = self.play.retreat_problem(side, old, new)
        back = c.entered_from
        if problem is None and side == c.attacker and back and new != back and not self.board.enemies_in(back, side):
            problem = f"the attackers return to the hex they entered from ({back}), not {new}"
        if problem and self._first(c, "7.3.5", f"{side} {new}"):  # one finding per stack and destination
            self.find("7.3.5", problem, p, old, new)
