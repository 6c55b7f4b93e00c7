"""Western Desert Force: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/001_8688065313218c02.txt); the ranks are
those of §10.1 of the digest (../shared/docs/rules/seed_001_western_desert_force.md).
Tables come from sources/western-desert-force/tables.  Choices where the text is ambiguous
are recorded where they are made ("Choice:").
"""
from __future__ import annotations

from validators.games.western_desert_force.air import AirRules
from validators.games.western_desert_force.attrition import AttritionRules
from validators.games.western_desert_force.bombardment import BombardmentRules
from validators.games.western_desert_force.combat import CombatRules
from validators.games.western_desert_force.depot import DepotRules
from validators.games.western_desert_force.fortress import FortressRules
from validators.games.western_desert_force.ip import ImprovedPositionRules
from validators.games.western_desert_force.events import RandomEvents
from validators.games.western_desert_force.leaders import CasualtyChecks, LeaderRules
from validators.games.western_desert_force.legacy import ALL
from validators.games.western_desert_force.mandatory import MandatoryAttackRules
from validators.games.western_desert_force.combat_state import CombatView
from validators.games.western_desert_force.movement import MovementRules, Moves
from validators.games.western_desert_force.points import Organization, PointsRules
from validators.games.western_desert_force.replacements import ReplacementRules
from validators.games.western_desert_force.reserves import ReserveRules
from validators.games.western_desert_force.stacking import StackingRules
from validators.games.western_desert_force.roads import Roads
from validators.games.western_desert_force.state import Places, WdfState
from validators.games.western_desert_force.supply import Supply
from validators.games.western_desert_force.turns import TurnRules
from validators.games.western_desert_force.victory import VictoryRules
from validators.kernel.engine import RulesAuditor


class Families(MandatoryAttackRules, FortressRules, BombardmentRules, CombatRules):
    """The families still chained."""

    ids = tuple(n for n in ALL if n not in ("9.2", "8.3", "7.61", "7.62", "7.63", "6.1", "6.2", "13.1", "13.6", "7.4", "7.7", "7.8", "17.1", "17.2", "3.1", "5.0", "7.2", "7.3", "7.31",
                                         "7.5", "7.9", "7.91", "7.92", "7.11", "7.12", "7.13", "7.14", "7.15", "7.16"))
    needs = (Places, Supply, Roads, RandomEvents, CasualtyChecks, Organization, Moves, CombatView)


RULES = (TurnRules, PointsRules, DepotRules, ImprovedPositionRules, Families, MovementRules, VictoryRules, ReserveRules, AirRules, LeaderRules, ReplacementRules, StackingRules, AttritionRules)


class Auditor(RulesAuditor):
    RULES, STATE = RULES, WdfState
