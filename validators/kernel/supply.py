"""Supply paths in legs (any game, parameters from a table).

A supply path runs from the unit towards a source in legs whose order may not go back:

1. an overland leg of at most `range` MP, costed by a step callback (e.g. the motorized rate);
2. then zero or more *feature legs*, in the order given, each along hexsides a feature
   crosses (a track, then a road), each of at most `max_steps` hexes (None: any length);
3. ending at a source.

Every hex of the path but the unit's own must be free (`blocked`: e.g. enemy units, or an
enemy ZOC no friendly unit negates); a path may start in a blocked hex.  The legs are found
backwards from the sources once per board state (`SupplyNet`); each unit then needs only
a short search of its overland leg (`traces`).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from validators.kernel.movement import StepCost, search


@dataclass(frozen=True)
class Leg:
    feature: str  # hexside feature the leg follows (e.g. "road")
    max_steps: int | None = None  # hexes entered along it; None: any number


class SupplyNet:
    """The supply legs of one side at one moment."""

    def __init__(self, neighbours: Callable[[str], Iterable[str]], features: Callable[[str, str], frozenset[str]],
                 sources: Iterable[str], blocked: Iterable[str], legs: Sequence[Leg], overland: StepCost):
        self.neighbours, self.features, self.overland = neighbours, features, overland
        self.blocked = frozenset(blocked)
        self.sources = frozenset(sources)
        self.ok: set[str] = {s for s in self.sources if s not in self.blocked}  # free hexes a path can go on from
        self.start_only: set[str] = {s for s in self.sources if s in self.blocked}  # a unit there is supplied
        reached = set(self.ok)
        for leg in reversed(legs):  # the leg nearest the source first
            reached |= self._leg(leg, reached)

    def _leg(self, leg: Leg, seeds: set[str]) -> set[str]:
        """Free hexes from which `leg` leads to a hex of `seeds`; blocked ones go to start_only."""
        dist = {h: 0 for h in seeds}
        queue = deque(seeds)
        new: set[str] = set()
        while queue:
            a = queue.popleft()
            if leg.max_steps is not None and dist[a] >= leg.max_steps:
                continue
            for b in self.neighbours(a):
                if b in dist or leg.feature not in self.features(a, b):
                    continue
                dist[b] = dist[a] + 1
                if b in self.blocked:
                    self.start_only.add(b)
                    continue
                new.add(b)
                queue.append(b)
        self.ok |= new
        return new

    def traces(self, hex_id: str, range_mp: Fraction) -> bool:
        """Whether a unit in `hex_id` traces supply with an overland leg of `range_mp` MP."""
        if hex_id in self.ok or hex_id in self.start_only:
            return True
        found = search(self.neighbours, hex_id, self.overland, allowance=Fraction(range_mp), blocked=self.blocked)
        return any(h in self.ok for h in found.cost)

    def overland_path(self, hex_id: str, range_mp: Fraction) -> list[str] | None:
        """The cheapest overland leg to a hex from which the legs lead on (for messages)."""
        found = search(self.neighbours, hex_id, self.overland, allowance=Fraction(range_mp), blocked=self.blocked)
        ends = [h for h in found.cost if h in self.ok]
        return found.path(min(ends, key=lambda h: (found.cost[h], h))) if ends else None


def connected(neighbours: Callable[[str], Iterable[str]], sources: Iterable[str], passable: Callable[[str, str], bool],
              blocked: Iterable[str]) -> set[str]:
    """Hexes with a path of any length to a source through free hexes (the start may be blocked)."""
    blocked = frozenset(blocked)
    seen = {s for s in sources}
    queue = deque(s for s in seen if s not in blocked)
    while queue:
        b = queue.popleft()
        for a in neighbours(b):
            if a in seen or not passable(a, b):
                continue
            seen.add(a)
            if a not in blocked:
                queue.append(a)
    return seen
