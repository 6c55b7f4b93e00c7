"""Generic rules: what any hex game's log is checked for from its data alone.

A game names this package in game.yaml (`rules: validators.kernel.generic`, as `hexforge new`
writes) until it has rules of its own.  Every rule reads its numbers and its values from the
game's sources, so a designer who edits the tables edits the audit:

- `SequenceOfPlay` (the `kind: sequence` table: phases with `kind` movement/combat and `side`): the
  tracker never goes back; a side's units move in its Movement Phase, and in a Combat Phase only
  to retreat as a result makes them; combats are declared in the attacker's Combat Phase;
- `Movement` (terrain.yaml, units.yaml, tables/movement.yaml `allowance` and `zoc`): in a Movement
  Phase a unit spends at most its MA by the terrain's costs for its movement class, enters no
  prohibited terrain nor enemy-held hex, stops on entering an enemy zone of control and never
  moves from one enemy-controlled hex straight into another;
- `Stacking` (the `kind: stacking` table's `stacking`, builder/model/stacking.py): at the end of every
  phase no hex holds more of one side's stacking points than its limit;
- `Combat` (tables/combat.yaml: odds `columns`, die `results`, and each result's `effects`):
  the declared attackers' strength against the defenders' gives the column, the die the result,
  and what the result demands (eliminations, a retreat of N hexes) is an obligation: an act that
  breaks it is reported at that act, an obligation not met once, at the end of the phase.

A game without one of those tables is not checked for what it holds (a game written by an older
`hexforge new` has movement only).  Choices (no rulebook to follow): a move is costed by the
cheapest legal path from where the unit stood when its Movement Phase began (when the game has
no sequence of play: when the turn began); a unit with MA 0 is not checked; undone steps never
reach the rules (the replayer leaves them out).
"""
from __future__ import annotations

from validators.kernel.engine import RulesAuditor
from validators.kernel.generic.combat import Combat
from validators.kernel.generic.movement import Movement
from validators.kernel.generic.sequence import SequenceOfPlay
from validators.kernel.generic.stacking import Stacking

RULES = (SequenceOfPlay, Movement, Stacking, Combat)


class Auditor(RulesAuditor):
    """Sequence of play, movement and zones of control, stacking and combat results, from the tables."""

    RULES = RULES
