"""Bravery in the Sand: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/000_48ad4592f1b982c9.txt).  Tables (costs,
modifiers, hit and recovery numbers) come from the sources.  Choices where the text is
ambiguous are recorded where they are made ("Choice:").
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.combat import CombatRules
from validators.games.bravery_in_the_sand.control import ControlRules
from validators.games.bravery_in_the_sand.movement import MovementRules
from validators.games.bravery_in_the_sand.recovery import RecoveryRules
from validators.games.bravery_in_the_sand.turns import TurnRules


class Auditor(TurnRules, MovementRules, CombatRules, RecoveryRules, ControlRules):
    """The whole rules check: one class per rule family, sharing the replay's state."""
