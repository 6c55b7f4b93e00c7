"""Combat (7-9): dice per Combat Strength, hit numbers, damage, retreats, tank recovery, combined attacks, forts."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from validators.games.bravery_in_the_sand.state import LEVELS, Activation, Combat
from validators.kernel.auditor import BaseAuditor
from validators.games.bravery_in_the_sand.costs import crossing
from validators.replay.board import Piece
from validators.replay.replayer import Rolled

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


class CombatRules(BaseAuditor):
    """Part of the Bravery in the Sand auditor; see __init__.py."""

    def _open_combat(self, hex_id: str, attacker: str) -> Combat:
        defender = next((self.side_of(q) for q in self.enemies_in(hex_id, attacker)), "")
        place = self.game.places.get(hex_id)
        fort = bool(place and self.game.hex_terrain_types[self.game.hex_terrain[hex_id]].fortification
                    and self._controller(hex_id) == defender)
        c = Combat(hex_id, attacker, defender, fortified=fort)
        self._watch_control(c)
        return c

    def _combat_at(self, hex_id: str) -> Combat | None:
        act = self.activation
        for c in (act.combat if act else None, self.ca_combat):
            if c is not None and c.hex == hex_id:
                return c
        return None

    def _end_of_turn_combat(self) -> Combat | None:
        """8.4: remaining Combined Attacks, resolved after the last chit.

        Choice (8.4): the rulebook sets no order; a roll belongs to the earliest declared
        Combined Attack hex that still holds both sides.  Its attacker is the side that
        declared first there (8.4.2), and it must fight as many rounds as it has markers.
        """
        c = self.ca_combat
        if c is not None and self._combatants(c, c.defender) and self._combatants(c, c.attacker):
            return c
        if c is not None and c.rolls:
            self._close_round(c)
        for hex_id, side in self.ca_hexes.items():
            if self.enemies_in(hex_id, side) and self.units_in(hex_id, side):
                c = self._open_combat(hex_id, side)
                c.all_in = True
                self.ca_combat = c
                self.ca_hexes.pop(hex_id)
                return c
        return None

    def on_rolled(self, e: Rolled) -> None:
        side_id = self.dice_buttons.get(e.button)
        if side_id is None or not self.started:
            return
        side = self.side_name[side_id]
        act = self.activation
        if act is None:
            c = self._end_of_turn_combat() if self.phase == "Combined attacks" else None
        else:
            if act.combat is None:
                act.combat = self._stand_and_fight(act, side, e)
            c = act.combat
        if c is None:
            return
        enemy = c.defender if side == c.attacker else c.attacker
        if c.rounds and ((c.retreated and side not in c.retreated) or not self._combatants(c, enemy)):
            if c.rolls:
                self._close_round(c)
            self._recovery_roll(c, side, e)  # 7.4.1: the other side retreated or is eliminated
            return
        if side in c.rolls:
            self._close_round(c)
        if not c.rolls:
            if c.fortified and c.rounds >= self.combat_table.get("fortification_rounds", 1):
                self.find("9.2", f"combat against a controlled fort or encampment ({c.hex}) lasts one round", side=side,
                          to_hex=c.hex)
            self._single_reduced_attacker(c)
            c.rounds += 1
            if c.rounds == 1:
                markers = self._combined_markers(c.hex, c.attacker)
                c.min_rounds = markers if c.all_in else 1 + markers
            c.before = {x: [(self._level_index(q), self.reduced(q)) for q in self._combatants(c, x)]
                        for x in (c.attacker, c.defender)}
        units = self._combatants(c, side)
        strength = self.combat_strength(units)
        want = math.floor(strength)
        if len(e.dice) != want:
            self.find("7.1.1", f"{side} rolled {len(e.dice)} dice in {c.hex}; Combat Strength {strength:g} gives {want}",
                      side=side, to_hex=c.hex)
        need = self._hit_number(c, side)
        c.rolls[side] = e.dice
        c.hits[side] = sum(d >= need for d in e.dice)

    def _stand_and_fight(self, act: Activation, side: str, e: Rolled) -> Combat | None:
        """6.5: dice rolled with no combat open: the activated stack fights where it stands.

        That is the hex its move ended in, or, if it has not moved, the hex it is activated in
        (6.5 combat without moving; also 8.1.4, 8.1.5 under Combined Attack Markers).  Dice with
        no enemy units in that hex are a finding: combat needs enemy units in the activated
        stack's hex (5.2.2, 6.4, 6.5).
        """
        hex_id = act.trail[-1] if act.start_hex else self._activated_hex(act, side, len(e.dice))
        if hex_id is None or not self.enemies_in(hex_id, act.side):
            if not act.idle_rolls_reported:
                act.idle_rolls_reported = True
                where = f"in {hex_id}, which holds" if hex_id else "in no hex with"
                self.find("6.5", f"{side} rolled combat dice, but the activated units are {where} no enemy units",
                          side=side, to_hex=hex_id)
            return None
        if not act.start_hex:
            act.start_hex, act.trail, act.place = hex_id, [hex_id], {}
            act.members = {q.id for q in self.units_in(hex_id) if self.unit_of(q).formation == act.formation}
        return self._open_combat(hex_id, act.side)

    def _activated_hex(self, act: Activation, side: str, dice: int) -> str | None:
        """5.2.1: the hex of the drawn division (5.1.5: of any German division) that holds enemy units.

        Choice (5.2.1): the log does not name the hex a player picks; if the division shares
        several hexes with enemy units, it is the one whose active Combat Strength gives the dice
        the active side rolled, else the first by hex number.
        """
        options: dict[str, str] = {}
        for q in self.units_on_map():
            u, h = self.unit_of(q), self.hex_of(q)
            f = self.game.formations[u.formation]
            mine = u.formation == act.formation if act.formation else (f.nationality == "german" and not f.garrison)
            if mine and self.side_of(q) == act.side and self.enemies_in(h, act.side):
                options.setdefault(h, u.formation)
        if not options:
            return None
        hex_id = min(options)
        if side == act.side:
            for h in sorted(options):
                own = [q for q in self.units_in(h, side) if self.unit_of(q).formation == options[h]
                       or q.id in self._under_combined_attack(h, side)]
                if math.floor(self.combat_strength(own)) == dice:
                    hex_id = h
                    break
        act.formation = options[hex_id]
        return hex_id

    def combat_strength(self, units) -> float:
        """7.1.1: full-strength units count 1, reduced ones 1/2 (values from tables/combat.yaml)."""
        t = self.combat_table
        return sum(t["strength_reduced"] if self.reduced(q) else t["strength_full"] for q in units)

    def _single_reduced_attacker(self, c: Combat) -> None:
        """7.3.3: an attacker down to a single reduced unit must retreat, not fight on."""
        if c.rounds and ("7.3.3 single", c.attacker) not in c.reported:
            units = self._combatants(c, c.attacker)
            if len(units) == 1 and self.reduced(units[0]):
                c.reported.add(("7.3.3 single", c.attacker))
                self.find("7.3.3", f"the attacker has a single reduced unit in {c.hex}: it must retreat", units[0],
                          c.hex)

    def _combatants(self, c: Combat, side: str) -> list[Piece]:
        """7.1.2 the attacker fights with the active stack (8.2.2: plus Combined Attack stacks); 7.1.3 the defender with all."""
        units = self.units_in(c.hex, side)
        if side != c.attacker or not self.activation or c.all_in:
            return units
        act = self.activation
        marked = self._under_combined_attack(c.hex, side)
        return [q for q in units if q.id in act.members or q.id in marked]

    def _combined_markers(self, hex_id: str, side: str) -> int:
        """Combined Attack Markers of `side` in a hex (their face shows the side)."""
        faces = self.game.markers["combined-attack"].faces if "combined-attack" in self.game.markers else []
        return sum(1 for q in self.pieces_in(hex_id) if q.properties().get("MarkerId") == "combined-attack"
                   and faces and self.side_name.get(faces[max(0, q.layer_level("Face") - 1)].side or "") == side)

    def _under_combined_attack(self, hex_id: str, side: str) -> set[str]:
        out: set[str] = set()
        board = self.replayer.board
        for stack in board.stacks.values():
            kids = [board.pieces[i] for i in stack.children if i in board.pieces]
            if any(k.properties().get("MarkerId") == "combined-attack" for k in kids) and any(self.hex_of(k) == hex_id for k in kids):
                out |= {k.id for k in kids if self.unit_of(k) and self.side_of(k) == side}
        return out

    def _hit_number(self, c: Combat, side: str) -> int:
        """7.1.1 a 6 hits; 7.1.4, 7.1.5, 9.3, 9.4 and 10.1.2 modify each die (Combat Summary)."""
        mods = {m["id"]: m["value"] for m in self.combat_table["modifiers"]}
        own, enemy = self._combatants(c, side), self._combatants(c, c.defender if side == c.attacker else c.attacker)
        total = 0
        negated = side == c.attacker and c.fortified  # 9.3
        if own and enemy and not negated:
            if min(self._level_index(q) for q in enemy) - min(self._level_index(q) for q in own) >= 2:
                total += mods.get("level-advantage", 0)
            if all(self.reduced(q) for q in enemy):
                total += mods.get("enemy-all-reduced", 0)
        if side == c.defender and c.fortified and self.game.hex_terrain_types[self.game.hex_terrain[c.hex]].fortification == "fort":
            total += mods.get("fort-defence", 0)
        act = self.activation
        # Choice (10.2): the Rommel modifier applies to every die of an attacking stack that is German.
        if side == c.attacker and act and act.rommel and act.formation and \
                self.game.formations[act.formation].nationality == "german":
            total += mods.get("rommel-directive", 0)
        return self.combat_table["hit_on"] - total

    def _level_index(self, p: Piece) -> int:
        u = self.unit_of(p)
        return LEVELS.index(u.level) if u else 9

    def _close_round(self, c: Combat) -> None:
        """7.2: each side takes exactly the hits the other scored, at least half on its highest level."""
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
        c.rolls, c.hits, c.damage, c.damage_levels = {}, {}, {}, {}

    def _damage(self, p: Piece, unit: s.Unit, where: str, eliminated: bool) -> None:
        c = self._combat_at(where) if where in self.game.geometry else None
        side = self.side_of(p)
        if c is None or side not in (c.attacker, c.defender):
            if self.started and eliminated and where in self.game.geometry:
                self.find("7.2.3", "a unit was eliminated with no combat in its hex", p, where)
            return
        if eliminated:
            c.lost.add(side)
            if self._trapped(c, side, p, unit):
                return
        points = 2 if eliminated and not self.reduced(p) else 1  # 7.2.3: a full unit is flipped, then eliminated
        c.damage[side] = c.damage.get(side, 0) + points
        c.damaged_total[side] = c.damaged_total.get(side, 0) + points
        c.damage_levels.setdefault(side, []).extend([LEVELS.index(unit.level)] * points)
        if unit.type == "armor":
            c.damaged_armor.setdefault(side, set()).add(p.id)
        if eliminated:
            self._check_damage_order(c, side, p, unit)

    def _check_damage_order(self, c: Combat, side: str, p: Piece, unit: s.Unit) -> None:
        """7.2.2: among one level, full-strength units are reduced before any is eliminated."""
        fulls = [q for q in self.units_in(c.hex, side) if self.unit_of(q).level == unit.level and not self.reduced(q)]
        if fulls:
            self.find("7.2.2", f"a {unit.level} unit was eliminated while {len(fulls)} full-strength {unit.level} "
                      f"unit(s) remained in {c.hex}", p, c.hex)

    def _trapped(self, c: Combat, side: str, p: Piece, unit: s.Unit) -> bool:
        """7.3.5: units that cannot retreat for want of a legal retreat hex are eliminated.

        Choice (7.3.5): an elimination is such a retreat, not damage, when its side has taken all
        the damage the enemy scored this round (or the round is over) and has no legal retreat
        hex; otherwise it counts as damage, and 7.2.3 compares it with the hits.  Garrisons never
        retreat (7.3.4).
        """
        if not c.rounds or self.game.formations[unit.formation].garrison:
            return False
        other = c.defender if side == c.attacker else c.attacker
        due = min(c.hits.get(other, 0), sum(1 if r else 2 for _, r in c.before.get(side, [])))
        if (c.rolls and c.damage.get(side, 0) < due) or self._retreat_hexes(c, side):
            return False
        if c.rolls:
            self._close_round(c)  # a retreat comes after the damage of the round
        self._may_retreat(c, side, p, c.hex, None)
        return True

    def _retreat_hexes(self, c: Combat, side: str) -> list[str]:
        """7.3.5: the attackers go back where they entered from if they can, else like defenders."""
        back = c.entered_from
        if side == c.attacker and back and not self.enemies_in(back, side):
            return [back]
        return [n for n in self.game.geometry.neighbours(c.hex) if self._retreat_problem(side, c.hex, n) is None]

    def _may_retreat(self, c: Combat, side: str, p: Piece, old: str, new: str | None) -> None:
        """7.3.3 only a side that took damage retreats; 8.2.4 not before the Combined Attack's rounds."""
        enemy = c.defender if side == c.attacker else c.attacker
        if c.rounds < c.min_rounds and not c.fortified and self._combatants(c, enemy) \
                and ("8.2.4", side) not in c.reported:
            c.reported.add(("8.2.4", side))
            self.find("8.2.4", f"a Combined Attack of {c.min_rounds} stacks lasts at least {c.min_rounds} rounds; "
                      f"{side} retreated after {c.rounds}", p, old, new)
        alone = [q for q in self.units_in(old, side) if q.id != p.id]
        single_reduced = not alone and self.reduced(p)
        if not c.damaged_total.get(side) and not (side == c.defender and single_reduced) and not (
                c.fortified and side == c.attacker) and ("7.3.3", side) not in c.reported:
            c.reported.add(("7.3.3", side))
            self.find("7.3.3", f"{side} took no damage in {old} and may not retreat", p, old, new)

    def _retreat(self, p: Piece, unit: s.Unit, c: Combat, old: str, new: str) -> None:
        """7.3.3-7.3.5: who may retreat, and where to; 8.2.4 not before the Combined Attack's rounds."""
        side = self.side_of(p)
        self._may_retreat(c, side, p, old, new)
        c.retreated.add(side)
        if side in c.retreat_order:
            c.retreat_order.remove(side)
        c.retreat_order.append(side)  # 12.1.2: the side whose last unit left last
        problem = self._retreat_problem(side, old, new)
        back = c.entered_from
        if problem is None and side == c.attacker and back and new != back and not self.enemies_in(back, side):
            problem = f"the attackers return to the hex they entered from ({back}), not {new}"
        if problem and ("7.3.5", f"{side} {new}") not in c.reported:
            c.reported.add(("7.3.5", f"{side} {new}"))  # one finding per stack and destination
            self.find("7.3.5", problem, p, old, new)

    def _retreat_problem(self, side: str, old: str, new: str) -> str | None:
        """7.3.5: an adjacent hex, free of enemy units, not across a cliff without road or track."""
        if not self.game.geometry.adjacent(old, new):
            return f"a retreat goes to an adjacent hex; {new} is {self.game.geometry.distance(old, new)} hexes away"
        if self.enemies_in(new, side):
            return f"{new} holds enemy units: no retreat into it"
        if crossing(self.game, old, new).cost is None:
            return f"no retreat across the {crossing(self.game, old, new).why} hexside {old}/{new}"
        return None

    def _recovery_roll(self, c: Combat, side: str, e: Rolled) -> None:
        """7.4: one die per damaged armor unit of the side that stayed; Italians never recover."""
        table = self.combat_table["tank_recovery"]
        eligible = [i for i in c.damaged_armor.get(side, set())
                    if (u := self.unit_of(self.replayer.board.pieces[i])) and
                    table.get(self.game.formations[u.formation].nationality) is not None]
        if len(e.dice) != len(eligible):
            self.find("7.4.2", f"{side} rolled {len(e.dice)} recovery dice; {len(eligible)} armor unit(s) took damage "
                      f"and may recover", side=side, to_hex=c.hex)
        nat = next((self.game.formations[self.unit_of(self.replayer.board.pieces[i]).formation].nationality for i in eligible), None)
        need = table.get(nat) or 7
        c.recovery[side] = c.recovery.get(side, 0) + sum(d >= need for d in e.dice)
