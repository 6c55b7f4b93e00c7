"""Tobrouk 41-42: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/002_bcc9c573f5128021.txt); the ranks are those
of section 10.1 of the digest (../shared/docs/rules/seed_002_tobrouk.md).  Tables come from
sources/tobrouk-41-42/tables; a finding that rests on a table marked reconstructed (movement
costs, Universal Fire Table, Maneuver Table) says so.  Choices where the text is ambiguous are
recorded where they are made ("Choices:").  Each module is one rule family; they form one chain
of classes (state -> turns -> movement -> stacking -> modes -> retreats -> fire -> losses -> air -> setup -> wrecks -> supply -> groups -> hqactions; and from wrecks: reserves -> hqs -> ivtrack -> optional), each passing events on with
super(); `Auditor` joins the two branches (cooperative multiple inheritance).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.hqactions import HQActionRules
from validators.games.tobrouk_41_42.optional import OptionalRules
from validators.games.tobrouk_41_42.wrecks import WreckRules  # noqa: F401 (the chain's base)


class Auditor(OptionalRules, HQActionRules):
    """The whole rules check: sequence of play, movement, stacking, modes, retreats, fire, morale, losses, air
    strikes, the set-up, wrecks, supply markers, Combat Groups and HQ actions, reserves and scenario limits, HQs in
    combat, the I/V track and the optional rules' counters."""
