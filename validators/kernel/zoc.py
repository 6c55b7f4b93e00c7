"""Zones of control: where they reach, and what they do to a move (any game, rules as data).

A ZOC reaches from a unit's hex into each adjacent hex the game's `crosses(a, b)` allows
(e.g. "where movement across the hexside is possible"; an escarpment without a road does
not pass it).  Which units exert one and which are exempt from its effects comes from the
game's tables.  `ZocMove` turns the common movement effects into a step callback and the
`stop` hexes of `kernel.movement.search`:

- a hex in an enemy ZOC is *negated* for a mover when a friendly unit is in it;
- a unit must stop on entering an un-negated EZOC hex;
- it may not move from an EZOC hex directly into an un-negated EZOC hex;
- exempt units ignore both but pay `exempt_cost` for each un-negated EZOC hex entered;
- `forbidden`: no EZOC hex may be entered at all, negated or not (e.g. strategic movement).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from builder.record import FrozenRecord
from validators.kernel.movement import StepCost


def zone_of_control(holders: Iterable[str], neighbours: Callable[[str], Iterable[str]],
                    crosses: Callable[[str, str], bool] | None) -> set[str]:
    """Hexes in the zone of control of units in `holders` (their own hexes not included);
    `crosses` None: every neighbour `neighbours` gives (a caller that lists where a ZOC reaches)."""
    out: set[str] = set()
    for h in set(holders):
        out.update(neighbours(h) if crosses is None else (n for n in neighbours(h) if crosses(h, n)))
    return out


class ZocMove(FrozenRecord):
    """The enemy zones of control one move meets: `ezoc` the hexes in them, `negated` those of
    them holding a friendly unit; an `exempt` unit pays `exempt_cost` to enter one instead of
    stopping; a `forbidden` move may not enter one at all."""

    __slots__ = _fields = ("ezoc", "negated", "exempt", "exempt_cost", "forbidden")

    def __init__(self, ezoc: frozenset[str], negated: frozenset[str], exempt: bool = False,
                 exempt_cost: Fraction = Fraction(1), forbidden: bool = False):
        object.__setattr__(self, "ezoc", ezoc)  # one a unit's move: no _set_fields loop
        object.__setattr__(self, "negated", negated)
        object.__setattr__(self, "exempt", exempt)
        object.__setattr__(self, "exempt_cost", exempt_cost)
        object.__setattr__(self, "forbidden", forbidden)

    @property
    def live(self) -> frozenset[str]:
        """The un-negated EZOC hexes."""
        return self.ezoc - self.negated

    def stops(self) -> frozenset[str]:
        """Hexes where movement must end."""
        return frozenset() if self.exempt or self.forbidden else self.live

    def blocked(self) -> frozenset[str]:
        return self.ezoc if self.forbidden else frozenset()

    def wrap(self, step: StepCost) -> StepCost:
        """`step` with this ZOC's prohibitions (EZOC to EZOC) and extra costs."""
        live, ezoc = self.live, self.ezoc

        def zoc_step(a: str, b: str) -> Fraction | None:
            c = step(a, b)
            if c is None:
                return None
            if self.exempt:
                return c + self.exempt_cost if b in live else c
            if a in ezoc and b in live:
                return None
            return c
        return zoc_step

    def why(self, a: str, b: str) -> str | None:
        """The ZOC reason a step a -> b is prohibited, if any."""
        if self.forbidden and b in self.ezoc:
            return f"{b} is in an enemy ZOC"
        if not self.exempt and a in self.ezoc and b in self.live:
            return f"{a} to {b} goes from one enemy ZOC hex directly into another"
        return None
