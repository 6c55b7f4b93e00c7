"""Tobrouk 41-42: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/002_bcc9c573f5128021.txt); the ranks are those
of section 10.1 of the digest (../shared/docs/rules/seed_002_tobrouk.md).  Tables come from
sources/tobrouk-41-42/tables; a finding that rests on a table marked reconstructed says so.
Choices where the text is ambiguous are recorded where they are made ("Choices:").  Each rule is
an object of the rules kernel (docs/rules-kernel.md), in `RULES` in the order they hear events;
state.py follows the turn tracker; the trackers keep what several rules read (`Units`,
`CombatGroups`, `Moves`, `SupplyLines`, `ReserveGroups`, `HQLosses`, `ArtilleryMarkers`).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.air import AirPower
from validators.games.tobrouk_41_42.fire import Fire, Morale
from validators.games.tobrouk_41_42.groups import CombatGroupRules
from validators.games.tobrouk_41_42.hqactions import HQActions
from validators.games.tobrouk_41_42.hqs import HQCombat
from validators.games.tobrouk_41_42.ivtrack import IVTrack
from validators.games.tobrouk_41_42.losses import Losses
from validators.games.tobrouk_41_42.modes import Modes
from validators.games.tobrouk_41_42.movement import Movement
from validators.games.tobrouk_41_42.optional import OptionalCounters
from validators.games.tobrouk_41_42.reserves import Reserves
from validators.games.tobrouk_41_42.retreats import Retreats
from validators.games.tobrouk_41_42.setup import SetUp
from validators.games.tobrouk_41_42.stacking import Stacking
from validators.games.tobrouk_41_42.state import TobroukState
from validators.games.tobrouk_41_42.supply import Supply
from validators.games.tobrouk_41_42.turns import Initiative, SequenceOfPlay
from validators.games.tobrouk_41_42.wrecks import Wrecks
from validators.kernel.engine import RulesAuditor

RULES = (SequenceOfPlay, Initiative, Movement, Stacking, Modes, Retreats, Fire, Morale, Losses, AirPower, SetUp,
         Wrecks, Supply, CombatGroupRules, HQActions, Reserves, HQCombat, IVTrack, OptionalCounters)


class Auditor(RulesAuditor):
    """The whole rules check: sequence of play and initiative, movement, stacking, modes, retreats, fire,
    morale, losses, air strikes, the set-up, wrecks, supply markers, Combat Groups and HQ actions, reserves
    and scenario limits, HQs in combat, the I/V track and the optional rules' counters."""

    RULES = RULES
    STATE = TobroukState

    def move_scope(self) -> object:
        """One move is one act within a pair's maneuver (several drags of a unit are one move)."""
        st = self.state
        return st.turn, st.pair, st.phase_id
