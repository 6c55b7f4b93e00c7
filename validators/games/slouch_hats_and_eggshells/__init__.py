"""Slouch Hats and Eggshells: the rules a VASSAL log can show, checked step by step.

Rule numbers are the draft rulebook's (../shared/seeds/003_4a142580d0cb8783.txt); the ranks are
those of section 10.1 of the digest (../shared/docs/rules/seed_003_slouch_hats.md).  The text
prints no CRT, TEC or support chart: findings resting on those reconstructed tables say so.
Choices where the text is ambiguous are recorded where they are made ("Choices:").

Each rule is an object of the rules kernel (validators/kernel/rule.py, docs/rules-kernel.md);
`RULES` lists them in the order they hear each event.  The state (state.py) follows the turn
tracker; the trackers keep what several rules read: `Forces` and `MoveCosts` (units.py),
`EventMarkers` (events.py) and `Combats` (combat.py).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.amphibious import AmphibiousRaid
from validators.games.slouch_hats_and_eggshells.arrivals import Garrisons, Reinforcements
from validators.games.slouch_hats_and_eggshells.artillery import FiredArtillery
from validators.games.slouch_hats_and_eggshells.capture import SupplyCapture
from validators.games.slouch_hats_and_eggshells.combat import Combat, GermanAA, MandatoryAttacks
from validators.games.slouch_hats_and_eggshells.combat_supply import CombatSupplySpent
from validators.games.slouch_hats_and_eggshells.events import SpecialEvents
from validators.games.slouch_hats_and_eggshells.movement import Movement
from validators.games.slouch_hats_and_eggshells.ports import PortLevels
from validators.games.slouch_hats_and_eggshells.replacements import Replacements
from validators.games.slouch_hats_and_eggshells.stacking import Stacking
from validators.games.slouch_hats_and_eggshells.state import SlouchState
from validators.games.slouch_hats_and_eggshells.supply import GeneralSupply
from validators.games.slouch_hats_and_eggshells.transport import Transport
from validators.games.slouch_hats_and_eggshells.turns import SequenceOfPlay
from validators.games.slouch_hats_and_eggshells.victory import SuddenVictory, VictoryPoints
from validators.kernel.engine import RulesAuditor

RULES = (SequenceOfPlay, SpecialEvents, GermanAA, Combat, Stacking, Movement, Garrisons, Reinforcements, VictoryPoints, SuddenVictory,
         Replacements, MandatoryAttacks, PortLevels, AmphibiousRaid, Transport,
         SupplyCapture, GeneralSupply, FiredArtillery, CombatSupplySpent)


class Auditor(RulesAuditor):
    """The whole rules check: sequence of play, movement, stacking, garrisons, reinforcements,
    combat, airfields, VP bookkeeping, special events, the German AA's first loss,
    replacements, mandatory attacks, port capacity, amphibious raids, transport from the holding boxes the capture of SPs, General Supply, Fired artillery and
    the SP an attack spends."""

    RULES = RULES
    STATE = SlouchState
