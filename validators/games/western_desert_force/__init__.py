"""Western Desert Force: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/001_8688065313218c02.txt); the ranks are
those of §10.1 of the digest (../shared/docs/rules/seed_001_western_desert_force.md).
Tables come from sources/western-desert-force/tables.  Choices where the text is ambiguous
are recorded where they are made ("Choice:").

The rules are listed below in the order they hear each event; what several of them read is
kept by trackers (state.py `Places`, supply.py `Supply`, roads.py `Roads`, events.py
`RandomEvents`, points.py `Organization`, depot.py `DepotLosses`, reserves.py `Reserve`,
leaders.py `CasualtyChecks`, movement.py `Moves`, combat_state.py `CombatView`).
"""
from __future__ import annotations

from validators.games.western_desert_force.air import AirRules
from validators.games.western_desert_force.attrition import AttritionRules
from validators.games.western_desert_force.bombardment import BombardmentRules
from validators.games.western_desert_force.combat_state import CombatView
from validators.games.western_desert_force.depot import DepotRules
from validators.games.western_desert_force.fortress import FortressRules
from validators.games.western_desert_force.ip import ImprovedPositionRules
from validators.games.western_desert_force.leaders import LeaderRules
from validators.games.western_desert_force.mandatory import MandatoryAttackRules
from validators.games.western_desert_force.movement import MovementRules, Moves
from validators.games.western_desert_force.points import Organization, PointsRules
from validators.games.western_desert_force.replacements import ReplacementRules
from validators.games.western_desert_force.reserves import ReserveRules
from validators.games.western_desert_force.roads import Roads
from validators.games.western_desert_force.stacking import StackingRules
from validators.games.western_desert_force.state import WdfState
from validators.games.western_desert_force.turns import TurnRules
from validators.games.western_desert_force.victory import VictoryRules
from validators.kernel.engine import RulesAuditor


class CombatRules(MandatoryAttackRules, BombardmentRules):
    """10.0-10.51, 3.2, 9.32, 9.4, 11.2, 13.3, 14.0-14.2, 15.0: each combat declared, its dice
    worth the final strengths, its losses, retreats and advances; air and naval bombardment; the
    attacks a side owes once it attacks (10.1).  One rule: the combat being resolved is the state
    of all of them (combat.py, combat_results.py, bombardment.py, mandatory.py)."""

    ids = ("3.2", "9.32", "9.4", "10.0", "10.1", "10.11", "10.21", "10.22", "10.23", "10.24", "10.25", "10.26",
           "10.27", "10.3", "11.2", "13.3", "14.0", "14.1", "14.2", "15.0")
    covers = ("10.12", "10.13", "10.31", "10.32", "10.5", "10.51", "13.2", "13.5", "16.2")
    needs = MandatoryAttackRules.needs + (Roads, Organization, Moves, CombatView)


RULES = (TurnRules, PointsRules, DepotRules, VictoryRules, AirRules, ImprovedPositionRules, ReserveRules,
         LeaderRules, ReplacementRules, CombatRules, FortressRules, MovementRules, StackingRules, AttritionRules)


class Auditor(RulesAuditor):
    RULES, STATE = RULES, WdfState
