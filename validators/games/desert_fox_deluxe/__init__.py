"""Desert Fox Deluxe: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/004_e25a106a192fc80d.txt); the ranks are those
of section 10.1 of the digest (../shared/docs/rules/seed_004_desert_fox.md).  Tables come from
sources/desert-fox-deluxe/tables; every table the audit reads but the sequence of play is
reconstructed (the Player Aid Cards are missing), and a finding that rests on one says so.
Choices where the text is ambiguous are recorded where they are made ("Choices:").  One module
a rule family, one chain of classes, each passing events on with super(): state -> turns (4.1)
-> movement (11, 13) -> stacking (10) -> combat (14) -> arrivals (7) -> setup (3.1) -> morale
(8.1) -> refit (17.2) -> initiative (6.1, 6.2 and the fixed end of 24.0/25.0, 4.0) -> arrival rolls (26.2).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.arrival_rolls import ArrivalRollRules


class Auditor(ArrivalRollRules):
    """The whole rules check: sequence of play, movement and ZoC, overrun eligibility, stacking, combat
    declarations, results and retreats, reinforcements and withdrawals, the set-up, morale checks'
    failures, refit timing, the initiative roll, surprise, a scenario's fixed end and a card's arrival rolls."""
