"""Generic rules: what any hex game's log can be checked for before it has rules of its own.

A game names this package in game.yaml (`rules: validators.kernel.generic`, as `hexforge new`
writes) until it has its own.  It checks movement only, from the sources alone:

- a unit cannot enter a prohibited hex, nor cross a prohibited hexside (terrain.yaml);
- in one turn a unit spends at most its MA (units.yaml), paying per hexside crossed: the
  cheapest costed feature, else `hexside_default_cost` (`validators.kernel.movement.crossing`).

Choices (no rulebook to follow): a move is costed by the cheapest legal path between the two
hexes, so a drag across several hexes is one legal move when some path fits; the MP spent
start again when the turn changes; a unit with MA 0 is not checked (it may be a marker-like
unit a game moves freely).  Undone steps never reach the rules: the replayer leaves them out.
"""
from __future__ import annotations

from fractions import Fraction

from validators.kernel.auditor import BaseAuditor
from validators.kernel.movement import _bravery_step, crossing, search, show_mp
from validators.replay.replayer import Moved, TurnChanged

MOVE_RULE = "movement"  # findings of the allowance; terrain findings carry terrain.yaml's rule


class Auditor(BaseAuditor):
    """Movement allowance and prohibited terrain, per unit and turn."""

    def start(self) -> None:
        self.spent: dict[str, Fraction] = {}  # piece id -> MP spent this turn

    def on_turn(self, e: TurnChanged) -> None:
        self.spent.clear()

    def on_moved(self, e: Moved) -> None:
        unit = self.unit_of(e.piece)
        old, new = e.old.label, e.new.label
        if unit is None or old == new or not unit.ma:
            return
        geometry = self.game.geometry
        if old not in geometry or new not in geometry:
            return  # into or out of a box: not a move on the map
        found = search(geometry.neighbours, old, _bravery_step(self.game), goal=new)
        if new not in found:
            why = crossing(self.game, old, new) if new in geometry.neighbours(old) else None
            reason = f"{why.why} cannot be entered or crossed" if why is not None and why.cost is None \
                else "no path of enterable hexes leads there"
            rule = why.rule if why is not None and why.rule else MOVE_RULE
            self.find(rule, f"{unit.name} moves {old} -> {new}: {reason}", e.piece, old, new)
            return
        cost = found.cost[new]
        total = self.spent.get(e.piece.id, Fraction(0)) + cost
        self.spent[e.piece.id] = total
        if total > unit.ma:
            self.find(MOVE_RULE, f"{unit.name} spends {show_mp(total)} MP this turn, more than its MA of {unit.ma}",
                      e.piece, old, new, path=found.path(new))
