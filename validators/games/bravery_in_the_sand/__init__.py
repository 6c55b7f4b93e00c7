"""Bravery in the Sand: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/000_48ad4592f1b982c9.txt); tables come from the
sources.  Each rule is a kernel object (validators/kernel/README.md), listed in `RULES` in the order
they hear each event; the state (state.py) follows the turn tracker, the `Play` tracker (play.py)
keeps the course of play and tells the rules its facts as it works them out.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.combat import Damage, Dice, Replacements, Retreats, TankRecovery
from validators.games.bravery_in_the_sand.control import Control, DecisiveVictory, TacticalVictory
from validators.games.bravery_in_the_sand.movement import Activated, ChitDraws, Movement, RommelDirective, SetUp
from validators.games.bravery_in_the_sand.play import Play
from validators.games.bravery_in_the_sand.state import BraveryState
from validators.kernel.engine import RulesAuditor

RULES = (SetUp, ChitDraws, RommelDirective, Activated, Movement, Dice, Damage, Retreats, TankRecovery, Replacements,
         Control, DecisiveVictory, TacticalVictory)


class Auditor(RulesAuditor):
    """The whole rules check: the turn's activations, combat, recovery, control and victory."""

    RULES = RULES
    STATE = BraveryState

    def move_scope(self) -> object:
        """One activation is one move of its stack (5.2): its findings are reported once."""
        play = self._trackers.get(Play)
        act = play.activation if play is not None else None
        return self.turn, self.phase, (act.box, act.chit) if act else None
