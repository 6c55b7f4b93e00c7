"""Bravery in the Sand: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/000_48ad4592f1b982c9.txt).  Tables (costs,
modifiers, hit and recovery numbers, victory conditions) come from the sources.  Choices where
the text is ambiguous are recorded in each module's docstring ("Choices:").

Each rule is an object of the rules kernel (validators/kernel/rule.py, validators/kernel/README.md);
`RULES` lists them in the order they hear each event.  The state (state.py) follows the turn
tracker; two trackers keep what the rules read: `Forces` (units.py: units, markers and movement
costs) and `Play` (play.py: the activation, its trail and combat, replacements and control), which
tells the rules each fact of its own as it works it out, so findings come at the act.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.combat import Damage, Dice, Replacements, Retreats, TankRecovery
from validators.games.bravery_in_the_sand.control import Control, DecisiveVictory, TacticalVictory
from validators.games.bravery_in_the_sand.movement import Activated, Movement
from validators.games.bravery_in_the_sand.play import Play
from validators.games.bravery_in_the_sand.state import BraveryState
from validators.games.bravery_in_the_sand.turns import ChitDraws, RommelDirective, SetUp
from validators.kernel.engine import RulesAuditor

RULES = (SetUp, ChitDraws, RommelDirective, Activated, Movement, Dice, Damage, Retreats, TankRecovery, Replacements,
         Control, DecisiveVictory, TacticalVictory)


class Auditor(RulesAuditor):
    """The whole rules check: set-up, chit draws, the Rommel Directive, activation and movement,
    combat dice, damage and retreats, tank recovery, replacements, control and victory."""

    RULES = RULES
    STATE = BraveryState

    def move_scope(self) -> object:
        """One activation is one move of its stack (5.2): its findings are reported once."""
        play = self._trackers.get(Play)
        act = play.activation if play is not None else None
        return self.turn, self.phase, (act.box, act.chit) if act else None
