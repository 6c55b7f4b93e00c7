"""Desert Fox Deluxe: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/004_e25a106a192fc80d.txt); the ranks are those
of section 10.1 of the digest (../shared/docs/rules/seed_004_desert_fox.md).  Tables come from
sources/desert-fox-deluxe/tables; every table the audit reads but the sequence of play is
reconstructed (the Player Aid Cards are missing), and a finding that rests on one says so.
Choices where the text is ambiguous are recorded where they are made ("Choices:").

Each rule is an object of the rules kernel (validators/kernel/rule.py, docs/rules-kernel.md);
`RULES` lists them in the order they hear each event.  The state (state.py) follows the turn
tracker and learns the 1st player; the trackers keep what several rules read: `Forces` (units.py),
`MoveCosts` (movement.py), `Arrivals` (arrivals.py) and `MoraleChecks` (morale.py).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.air import AirDeployment
from validators.games.desert_fox_deluxe.arrival_rolls import ArrivalRolls
from validators.games.desert_fox_deluxe.arrivals import Reinforcements, Withdrawals
from validators.games.desert_fox_deluxe.combat import Combat
from validators.games.desert_fox_deluxe.construction import Construction
from validators.games.desert_fox_deluxe.disruption import Recovery
from validators.games.desert_fox_deluxe.met_tracks import MetTracks
from validators.games.desert_fox_deluxe.nrv import NileRiverValley
from validators.games.desert_fox_deluxe.oasis import OasisTrack
from validators.games.desert_fox_deluxe.initiative import Initiative, ScenarioEnd, Surprise
from validators.games.desert_fox_deluxe.morale import Morale
from validators.games.desert_fox_deluxe.movement import Movement, Overrun
from validators.games.desert_fox_deluxe.refit import Refit
from validators.games.desert_fox_deluxe.scenario_limits import ForbiddenHexes
from validators.games.desert_fox_deluxe.setup import SetUp
from validators.games.desert_fox_deluxe.shipping import Shipping
from validators.games.desert_fox_deluxe.stacking import Stacking
from validators.games.desert_fox_deluxe.supply_lines import SupplyLines
from validators.games.desert_fox_deluxe.supply_units import SupplyUnits
from validators.games.desert_fox_deluxe.support import MonthlySupport
from validators.games.desert_fox_deluxe.state import FoxState
from validators.games.desert_fox_deluxe.training import Training
from validators.games.desert_fox_deluxe.turns import SequenceOfPlay
from validators.games.desert_fox_deluxe.victory import Victory
from validators.games.desert_fox_deluxe.withdrawal_rp import WithdrawalRefitPoints
from validators.kernel.engine import RulesAuditor

RULES = (SetUp, SequenceOfPlay, Movement, Overrun, Stacking, Combat, Reinforcements, Withdrawals, Morale, Refit,
         Initiative, Surprise, ScenarioEnd, ArrivalRolls, Recovery, ForbiddenHexes, Construction, AirDeployment, Training,
         MetTracks, Shipping, OasisTrack, SupplyUnits, NileRiverValley,
         WithdrawalRefitPoints, MonthlySupport, Victory, SupplyLines)


class Auditor(RulesAuditor):
    """The whole rules check: sequence of play, movement and ZoC, overrun eligibility, stacking, combat
    declarations, results and retreats, reinforcements and withdrawals, the set-up, morale checks'
    failures, recovery from disruption, refit timing, the initiative roll, surprise, a scenario's fixed end,
    a card's arrival rolls, the hexes a card forbids, where a fort is begun, air deployment, training,
    the MET tracks, shipping, the Oasis Track, supply units, the NRV Box and the RP owed for an eliminated withdrawal
    and each GT's supply and RP, who wins at the end, and units marked OGS that trace supply."""

    RULES = RULES
    STATE = FoxState
