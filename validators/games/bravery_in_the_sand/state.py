"""What the Bravery in the Sand auditor remembers between events: the activation and its combat."""
from __future__ import annotations

from dataclasses import dataclass, field

LEVELS = "ABCD"  # Strength Levels, strongest first (2.1.1)


@dataclass
class Activation:
    """One drawn chit and what it set moving (5.2)."""

    chit: str
    side: str
    formation: str | None  # None: a DAK chit before the German division is chosen (5.1.5)
    box: int
    rommel: bool = False
    start_hex: str | None = None
    trail: list[str] = field(default_factory=list)  # hexes the stack passed, in order
    place: dict[str, int] = field(default_factory=dict)  # piece id -> its index on the trail
    members: set[str] = field(default_factory=set)  # piece ids of the activated stack
    italians: str | None = None  # the Italian infantry division moving with it (6.6)
    spent: dict[str, float] = field(default_factory=dict)
    stopped: dict[str, str] = field(default_factory=dict)  # piece id -> the enemy hex where it stopped (6.4)
    combat: Combat | None = None
    ended: bool = False  # a Combined Attack was declared (8.1.2)
    idle_rolls_reported: bool = False  # dice rolled with no enemy in the stack's hex (6.5), reported once


@dataclass
class Combat:
    """A combat in one hex: rounds of simultaneous fire, damage, retreats, recovery (7)."""

    hex: str
    attacker: str
    defender: str
    rolls: dict[str, tuple[int, ...]] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)  # hits scored BY a side this round
    damage: dict[str, int] = field(default_factory=dict)  # damage points applied TO a side this round
    damaged_total: dict[str, int] = field(default_factory=dict)  # over the whole combat (7.3.3)
    damaged_armor: dict[str, set[str]] = field(default_factory=dict)
    rounds: int = 0
    fortified: bool = False
    retreated: set[str] = field(default_factory=set)
    recovery: dict[str, int] = field(default_factory=dict)  # successes left for a side
    reported: set[tuple[str, str]] = field(default_factory=set)  # (rule, side) already reported once
    min_rounds: int = 1  # 8.2.4: as many rounds as attacking stacks
    entered_from: str | None = None  # 7.3.5: where the attackers came from
    all_in: bool = False  # 8.4.2: an end-of-turn Combined Attack, every unit in the hex fights
    before: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)  # (level index, reduced) at round start
    damage_levels: dict[str, list[int]] = field(default_factory=dict)  # level index of each damage point this round
    lost: set[str] = field(default_factory=set)  # sides that had a unit eliminated here (12.1.3, 12.1.4)
    retreat_order: list[str] = field(default_factory=list)  # sides in the order they left the hex (12.1.2)
    control_before: str | None = None  # who held the hex's Control Marker when the combat began (12.1.3, 12.1.5)
    control_reported: bool = False  # a wrong control flip here was already reported
