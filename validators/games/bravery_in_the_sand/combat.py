"""Combat (6.5, 7-9, 11): dice, damage, retreats, tank recovery and replacements, judged as the
`Play` tracker tells each round starting and closing, each roll, elimination and retreat.

Choices:
- 6.5: combat dice with no enemy units in the activated stack's hex are reported once per activation.
- 7.1.1: the dice are checked against the Combat Strength of the units that fight: the attacker's
  active stack and its Combined Attack stacks (7.1.2, 8.2.2), all the defender's (7.1.3).
- 7.2.3: the damage due is the hits scored with the modifiers of 7.1.4, 7.1.5, 9.3, 9.4 and 10.1.2
  (tables/combat.yaml), at most all a side has; judged when the round closes (the next round's
  roll, a retreat, the next chit, the end of the turn or the log).
- 7.3.3, 7.3.5, 8.2.4: each is reported once per combat and side (7.3.5: per destination).
- 7.4, 11.1: a step restored with nothing to pay for it is reported under 7.4 in a combat hex,
  else under 11.1; more than 2 points used in a turn under 11.1 (11.3: they start afresh).
"""
from __future__ import annotations

import math

from validators.games.bravery_in_the_sand.play import LEVELS, Combat, PlayRule
from validators.replay.board import Piece

UNPAID = "a unit returned to full strength with no tank recovery success or replacement point to pay for it"


class Dice(PlayRule):
    """6.5, 7.1.1, 9.2: combat needs enemies in the activated stack's hex; one die per whole point of
    Combat Strength; one round against a controlled fort."""

    ids = ("6.5", "7.1.1", "9.2")
    covers = ("5.2.2", "7.1.2", "7.1.3", "8.1.4", "8.2.1", "8.2.2", "8.2.3", "8.4", "8.4.1", "8.4.2", "9.1")

    def idle_roll(self, side: str, hex_id: str | None) -> None:
        where = f"in {hex_id}, which holds" if hex_id else "in no hex with"
        self.find("6.5", f"{side} rolled combat dice, but the activated units are {where} no enemy units",
                  side=side, to_hex=hex_id)

    def round_starting(self, c: Combat, side: str) -> None:
        if c.fortified and c.rounds >= self.tables["combat"].get("fortification_rounds", 1):
            self.find("9.2", f"combat against a controlled fort or encampment ({c.hex}) lasts one round", side=side,
                      to_hex=c.hex)

    def fired(self, c: Combat, side: str, dice) -> None:
        strength = self.play.combat_strength(self.play.combatants(c, side))
        want = math.floor(strength)
        if len(dice) != want:
            self.find("7.1.1", f"{side} rolled {len(dice)} dice in {c.hex}; Combat Strength {strength:g} gives {want}",
                      side=side, to_hex=c.hex)


class Damage(PlayRule):
    """7.2: each side takes the damage scored (7.2.3; none outside a combat), at least half on its
    highest Strength Level (7.2.1), reducing all of a level before eliminating any (7.2.2)."""

    ids = ("7.2.1", "7.2.2", "7.2.3")
    covers = ("7.1.4", "7.1.5", "9.3", "9.4", "10.1.2")

    def round_closing(self, c: Combat) -> None:
        for side, other in ((c.attacker, c.defender), (c.defender, c.attacker)):
            hits, taken, units = c.hits.get(other, 0), c.damage.get(side, 0), c.before.get(side, [])
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


class Retreats(PlayRule):
    """7.3.3-7.3.5, 8.2.4: only a damaged side retreats (a lone reduced defender may, attacker must),
    to an adjacent hex free of enemies, not across a cliff (attackers: whence they came), and not
    before a Combined Attack's rounds."""

    ids = ("7.3.3", "7.3.5", "8.2.4")

    def round_starting(self, c: Combat, side: str) -> None:
        if c.rounds:
            units = self.play.combatants(c, c.attacker)
            if len(units) == 1 and self.board.reduced(units[0]) and self.once(c, "single", c.attacker):
                self.find("7.3.3", f"the attacker has a single reduced unit in {c.hex}: it must retreat", units[0], c.hex)

    def retreating(self, c: Combat, side: str, p: Piece, old: str, new: str | None) -> None:
        enemy, b = c.defender if side == c.attacker else c.attacker, self.board
        if c.rounds < c.min_rounds and not c.fortified and self.play.combatants(c, enemy) and self.once(c, "8.2.4", side):
            self.find("8.2.4", f"a Combined Attack of {c.min_rounds} stacks lasts at least {c.min_rounds} rounds; "
                      f"{side} retreated after {c.rounds}", p, old, new)
        alone = [q for q in b.units_in(old, side) if q.id != p.id]
        single_reduced = not alone and b.reduced(p)
        if not c.damaged_total.get(side) and not (side == c.defender and single_reduced) and not (
                c.fortified and side == c.attacker) and self.once(c, "7.3.3", side):
            self.find("7.3.3", f"{side} took no damage in {old} and may not retreat", p, old, new)
        if new is None:  # no retreat hex at all (7.3.5): eliminated
            return
        problem = self.play.retreat_problem(side, old, new)
        back = c.entered_from
        if problem is None and side == c.attacker and back and new != back and not self.board.enemies_in(back, side):
            problem = f"the attackers return to the hex they entered from ({back}), not {new}"
        if problem and self.once(c, "7.3.5", f"{side} {new}"):  # one finding per stack and destination
            self.find("7.3.5", problem, p, old, new)


class TankRecovery(PlayRule):
    """7.4: the side that stayed rolls a die per damaged armor unit (Germans recover on 5, British on
    6, Italians never); a success restores a step, two bring a full unit back (7.4.2)."""

    ids = ("7.4", "7.4.2")
    covers = ("7.4.1", "7.4.3", "7.4.4")

    def recovery_rolled(self, c: Combat, side: str, dice, eligible: list[str]) -> None:
        if len(dice) != len(eligible):
            self.find("7.4.2", f"{side} rolled {len(dice)} recovery dice; {len(eligible)} armor unit(s) took damage "
                      f"and may recover", side=side, to_hex=c.hex)

    def recovered_short(self, p: Piece, hex_id: str, have: int, need: int) -> None:
        self.find("7.4.2", f"{p.name} came back into {hex_id} with {have} tank recovery success(es); it needs {need} "
                  f"({'full' if need == 2 else 'reduced'} strength)", p, to_hex=hex_id)

    def restored_unpaid(self, p: Piece, where: str, in_combat: bool) -> None:
        if in_combat:
            self.find("7.4", UNPAID, p, where)


class Replacements(PlayRule):
    """11.1-11.2: from turn 2, in its phase, the Commonwealth spends up to 2 points a step each, an
    eliminated unit coming back in a strategic hex under its Control Marker."""

    ids = ("11.1", "11.2")
    covers = ("11", "11.3")

    def restored_unpaid(self, p: Piece, where: str, in_combat: bool) -> None:
        if not in_combat:
            self.find("11.1", UNPAID, p, where)

    def returned(self, p: Piece, hex_id: str, allowed: bool) -> None:
        if not allowed:
            self.find("11.1", "only the Commonwealth brings back eliminated units, in its replacement phase", p,
                      to_hex=hex_id)
            return
        place = self.game.places.get(hex_id)
        if not (place and place.strategic and self.play.controller(hex_id) == self.play.commonwealth):
            self.find("11.2", f"returned units are placed in a strategic hex with a Commonwealth Control Marker; "
                      f"{hex_id} is not one", p, to_hex=hex_id)

    def replacement_spent(self, p: Piece) -> None:
        turn = self.state.turn
        if (turn or 0) < 2:
            self.find("11.1", "replacements start on turn 2", p)
        if self.play.replacement_points > 2:
            self.find("11.1", f"{self.play.replacement_points:g} replacement points used in turn {turn}; 2 a turn", p)
