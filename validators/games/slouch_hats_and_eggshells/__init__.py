"""Slouch Hats and Eggshells: the rules a VASSAL log can show, checked step by step.

Rule numbers are the draft rulebook's (../shared/seeds/003_4a142580d0cb8783.txt); the ranks are
those of section 10.1 of the digest (../shared/docs/rules/seed_003_slouch_hats.md).  Tables come
from sources/slouch-hats-and-eggshells/tables; the text prints no CRT, TEC or support chart, so
findings resting on those reconstructed tables say "(reconstructed table)".  Choices where the
text is ambiguous are recorded where they are made ("Choices:").  Each module is one rule
family; they form one chain of classes (state -> turns -> movement -> stacking -> arrivals ->
combat -> victory -> events -> german_aa -> replacements ->
mandatory_attacks), each passing events on with super().
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.mandatory_attacks import MandatoryAttackRules


class Auditor(MandatoryAttackRules):
    """The whole rules check: sequence of play, movement, stacking, garrisons, reinforcements,
    combat, airfields, VP bookkeeping, special events, the German AA's first loss,
    replacements and mandatory attacks."""
