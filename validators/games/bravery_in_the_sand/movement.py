"""Movement (5.2, 6): who moves with the drawn chit, along which path, how far."""
from __future__ import annotations

from typing import TYPE_CHECKING

from validators.games.bravery_in_the_sand.state import Activation
from validators.kernel.auditor import BaseAuditor
from validators.games.bravery_in_the_sand.costs import cheapest_path, crossing, one_hexside_path
from validators.replay.board import Piece
from validators.replay.replayer import Moved

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


class MovementRules(BaseAuditor):
    """Part of the Bravery in the Sand auditor; see __init__.py."""

    def _unit_moved(self, e: Moved) -> None:
        unit = self.unit_of(e.piece)
        old, new = e.old.label, e.new.label
        if new in self.eliminated or old in self.eliminated:
            self._victory_dirty = True
        self._passes(self.side_of(e.piece), [new])
        if new in self.eliminated:
            self._damage(e.piece, unit, old, eliminated=True)
            return
        if old in self.eliminated and new in self.game.geometry:
            self._returned(e.piece, unit, new)
            return
        if not self.started or old not in self.game.geometry or new not in self.game.geometry:
            return
        if self.game.formations[unit.formation].garrison:
            self.find("6.7", f"{unit.formation} is a garrison: it never moves", e.piece, old, new)
            return
        combat = self._combat_at(old)
        if combat and self.side_of(e.piece) in (combat.attacker, combat.defender) and combat.rounds:
            if combat.rolls:
                self._close_round(combat)  # a retreat comes after the damage of the round
            self._retreat(e.piece, unit, combat, old, new)
            return
        self._activated_move(e.piece, unit, old, new)

    def _activated_move(self, p: Piece, unit: s.Unit, old: str, new: str) -> None:
        """5.2 who may move, 6 how far and where."""
        act = self.activation
        side = self.side_of(p)
        if act is None or act.ended:
            self.find("5.2", "no activated division: units move only after their chit is drawn", p, old, new)
            return
        if side != act.side:
            self.find("5.2", f"the drawn chit ({act.chit}) activates a {act.side} division, not this {side} unit", p, old, new)
            return
        if not self._may_move_with(act, p, unit, old):
            return
        if act.stopped.get(p.id) == old and not self._passes_through(act, p, unit, old):
            self.find("6.4", f"movement ended when the stack entered the enemy hex {old}", p, old, new)
            return
        if self._nationality(p) == "german" and self.under_ca.get(p.id) == old and self.enemies_in(old, side):
            self.find("8.1.5", f"a German stack under a Combined Attack Marker in {old} may attack or wait, "
                      "not move out", p, old, new)
            return
        self._trail_move(act, p, unit, old, new)

    def _may_move_with(self, act: Activation, p: Piece, unit: s.Unit, old: str) -> bool:
        formation = self.game.formations[unit.formation]
        nat = formation.nationality
        if act.formation is None and nat == "german" and not formation.garrison:
            act.formation = unit.formation  # 5.1.5: the DAK chit activates any one German division
        if act.start_hex is None and (unit.formation == act.formation):
            act.start_hex = old
            act.trail = [old]
            act.members = {q.id for q in self.stood_in(old) + [p] if (u := self.unit_of(q)) and u.formation == act.formation}
        if unit.formation == act.formation and p.id in act.members:
            return True
        if unit.formation == act.formation:
            self.find("5.2.1", f"only the {act.formation} units in {act.start_hex} are activated; this one started in {old}",
                      p, old)
            return False
        italian_foot = nat == "italian" and formation.chits == 0 and unit.type == "infantry"
        german_act = act.formation and self.game.formations[act.formation].nationality == "german"
        if italian_foot and german_act and act.start_hex and old == act.start_hex and p.id not in act.spent and act.italians in (None, unit.formation):
            act.italians = unit.formation  # 6.6: one Italian infantry division may go with the German stack
            act.members.add(p.id)
            return True
        if italian_foot and german_act:
            self.find("6.6", f"{unit.formation} infantry may move only with a German stack activated in its own hex "
                      f"({act.start_hex}), one division at a time", p, old)
            return False
        self.find("5.2.1", f"the drawn chit activates {act.formation or 'a German division (DAK)'}, not {unit.formation}",
                  p, old)
        return False

    def _trail_move(self, act: Activation, p: Piece, unit: s.Unit, old: str, new: str) -> None:
        """The stack moves together along one trail; units may be dropped off (6).

        Each unit's place on the trail is kept (`act.place`): a stack may go back over a hex it
        left (rule 6 forbids dividing, not doubling back), so a hex may lie on the trail twice,
        and one by one every unit follows the same trail to its end."""
        trail = act.trail
        i, j = _on_trail(trail, old, new, act.place.get(p.id, 0))
        if i < 0:
            self.find("6", f"the stack moves together: {old} is not on its path {'-'.join(trail)}", p, old, new)
            return
        if j >= 0:
            segment = trail[i:j + 1]
            cost = sum(crossing(self.game, a, b).cost or 0 for a, b in zip(segment, segment[1:]))
        elif i == len(trail) - 1:
            found = one_hexside_path(self.game, old, new)  # most drags: no search, no enemy hexes needed
            if found is None:
                found = cheapest_path(self.game, old, new, frozenset(self.occupied_by_enemy(act.side) - {new}))
            if found is None:
                self._no_path(p, old, new)
                return
            cost, segment = found
            trail.extend(segment[1:])
            j = len(trail) - 1
        else:
            self.find("6", f"the stack cannot divide: it went on to {trail[-1]}, this unit turned off at {old} to {new}",
                      p, old, new)
            return
        act.place[p.id] = j
        self._passes(act.side, segment)
        spent = act.spent.get(p.id, 0.0) + cost
        act.spent[p.id] = spent
        allowance = self._allowance(act, unit)
        if spent > allowance + 1e-9:
            direct = crossing(self.game, old, new) if self.game.geometry.adjacent(old, new) else None
            prohibited = direct is not None and direct.cost is None
            rule = (direct.rule or "6.1") if prohibited else "6.2"
            if not self.is_follow_on(p, rule):  # else find() drops it: spare the path's text
                path = trail[: j + 1]
                via = '-'.join(path[path.index(act.start_hex):])
                if prohibited:
                    self.find(rule, f"{old} to {new} crosses a {direct.why} hexside: movement is "
                              f"prohibited (the way round costs {spent:g} MP via {via} > MA {allowance:g})", p, old, new)
                else:
                    self.find(rule, f"cost {spent:g} MP via {via} > MA {allowance:g}", p, act.start_hex, new, path)
        if self.enemies_in(new, act.side):
            act.stopped |= {q.id: new for q in self.units_in(new, act.side) + [p]}
            if not (act.combat and act.combat.hex == new):
                act.combat = self._open_combat(new, act.side)
                act.combat.entered_from = trail[j - 1] if j else None

    def _no_path(self, p: Piece, old: str, new: str) -> None:
        if self.game.geometry.adjacent(old, new):
            c = crossing(self.game, old, new)
            self.find(c.rule or "6.1", f"{old} to {new} crosses a {c.why} hexside: movement is prohibited", p, old, new)
        else:
            self.find("6.1", f"no legal path from {old} to {new}", p, old, new)

    def _allowance(self, act: Activation, unit: s.Unit) -> float:
        """6.1 MA 3; 6.6 Italian infantry 1; 10.1.1 Rommel Directive 4 for German units."""
        nat = self.game.formations[unit.formation].nationality
        if act.rommel and nat == "german":
            return 4.0
        return float(unit.ma)

    def _passes_through(self, act: Activation, p: Piece, unit: s.Unit, hex_id: str) -> bool:
        """6.4: a unit leaving the enemy hex it entered goes on only under the exception; then
        no combat is fought there."""
        if not self._may_pass(act, unit, hex_id):
            return False
        act.stopped.pop(p.id, None)
        if act.combat is not None and act.combat.hex == hex_id and not act.combat.rounds:
            act.combat = None
        return True

    def _may_pass(self, act: Activation, unit: s.Unit, hex_id: str) -> bool:
        """6.4: the moving units, all armor, may go on through a hex whose enemy units are all
        reduced infantry.

        The moving units are the activated ones that reached the hex (in it or beyond on the
        stack's path), not those dropped off before it (6).
        """
        board = self.replayer.board.pieces
        ahead = set(act.trail[act.trail.index(hex_id):]) if hex_id in act.trail else {hex_id}
        movers = [self.unit_of(board[i]) for i in act.members if i in board and self.hex_of(board[i]) in ahead]
        enemies = self.enemies_in(hex_id, act.side)
        return (all(u.type == "armor" for u in movers + [unit] if u) and
                all(self.unit_of(q).type == "infantry" and self.reduced(q) for q in enemies))


def _on_trail(trail: list[str], old: str, new: str, start: int) -> tuple[int, int]:
    """Where a unit in `old`, at `start` or further on the trail, joins it (-1: `old` is not on
    it), and where it reaches `new` ahead (-1: nowhere ahead; the unit must then be at the end).

    Choice (6): of the passes through `old` before the first `new` ahead, the latest is taken:
    the shortest stretch, never more MP than the unit's own way along the trail (a lenient
    reading: a doubled-back trail never makes a false alarm)."""
    i = _find(trail, old, start)
    if i < 0:
        i = _find(trail, old, 0)  # a place the unit left other than by moving (a retreat)
    if i < 0:
        return -1, -1
    j = _find(trail, new, i + 1)
    if j < 0:
        return (len(trail) - 1 if trail[-1] == old else i), -1
    k = _find(trail, old, i + 1)
    while 0 <= k < j:
        i, k = k, _find(trail, old, k + 1)
    return i, j


def _find(items: list[str], item: str, start: int) -> int:
    """The index of `item` in `items` from `start` on, or -1."""
    try:
        return items.index(item, start)
    except ValueError:
        return -1
