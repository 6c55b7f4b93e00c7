"""Tobrouk 41-42: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/002_bcc9c573f5128021.txt); the ranks are those
of section 10.1 of the digest (../shared/docs/rules/seed_002_tobrouk.md).  Tables come from
sources/tobrouk-41-42/tables; a finding that rests on a table marked reconstructed (movement
costs, Universal Fire Table, Maneuver Table) says so.  Choices where the text is ambiguous are
recorded where they are made ("Choices:").  Each module is one rule family; they form one chain
of classes (state -> turns -> movement -> stacking -> modes -> retreats -> fire -> losses -> air -> setup -> wrecks), each passing events on with super().
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.wrecks import WreckRules


class Auditor(WreckRules):
    """The whole rules check: sequence of play, movement, stacking, modes, retreats, fire, morale, losses, air
    strikes, the set-up and wrecks."""
