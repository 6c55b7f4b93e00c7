"""Supply paths that never go back to a path type already used (8.1, 8.3 Ex 3).

The kernel's `SupplyNet` costs the overland leg at the motorized rate, road 1/3 and track 1/2,
but does not know that the hexes it runs along a road or a track are of that type.  8.3 Ex 3
says they are: from 1709 the road to Gazala, then the track to 3609, then the road is
"road-track-road" and unsupplied, while Barce's eight track hexes (its 4 MP) join the ten track
hexes of the next leg as one track run.  So here every part of a path has a type (cross-country,
track, road), consecutive parts of one type are one run, and no type may come back (8.1).

Choices (8.1):
- a step along a road or track may also be counted as cross-country, at the cost of the hex's
  terrain (so that a player is never held to the type that happens to be cheapest);
- a step whose hexside feature only the road or track makes passable (an escarpment) has no
  cross-country option;
- a leader's supply range replaces the 4 MP of the whole overland leg (13.5), as before.
"""
from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from validators.kernel.movement import Blocked, TerrainChart
from validators.kernel.supply import Leg

CROSS = "cross-country"
Types = tuple[str, ...]


def joined(a: Types, b: Types) -> Types | None:
    """The runs of `a` then `b` (a run continuing across the join is one run); None when a type comes back."""
    out = list(a)
    for t in b:
        if out and out[-1] == t:
            continue
        if t in out:
            return None
        out.append(t)
    return tuple(out)


class TypedSupplyNet:
    """The supply legs of one side at one moment, with the types each leg leaves to run."""

    def __init__(self, neighbours: Callable[[str], Iterable[str]], chart: TerrainChart, movement_class: str,
                 sources: Iterable[str], blocked: Iterable[str], legs: Sequence[Leg]):
        self.neighbours, self.chart, self.cls = neighbours, chart, movement_class
        self.blocked = frozenset(blocked)
        # hex -> the type runs from it to a source along the legs (empty: the source itself)
        self.rest: dict[str, set[Types]] = {s: {()} for s in sources}
        for i in range(len(legs) - 1, -1, -1):  # the leg nearest the source first
            self._leg(legs[i])

    def _leg(self, leg: Leg) -> None:
        seeds: dict[Types, list[str]] = {}
        for h, rests in self.rest.items():
            if h in self.blocked:
                continue  # a path may start in a blocked hex, never pass through one
            for r in rests:
                if not r or r[0] != leg.feature:
                    seeds.setdefault(r, []).append(h)
        for r, hexes in seeds.items():
            tail = (leg.feature,) + r
            dist = {h: 0 for h in hexes}
            queue = deque(hexes)
            while queue:
                a = queue.popleft()
                if leg.max_steps is not None and dist[a] >= leg.max_steps:
                    continue
                for b in self.neighbours(a):
                    if b in dist or leg.feature not in self.chart.features(a, b):
                        continue
                    dist[b] = dist[a] + 1
                    self.rest.setdefault(b, set()).add(tail)
                    if b not in self.blocked:
                        queue.append(b)

    def _steps(self, a: str, b: str) -> list[tuple[str, Fraction]]:
        """(type, cost) of each way to take the step a -> b on the overland leg."""
        cost = self.chart.step(a, b, self.cls)
        if isinstance(cost, Blocked):
            return []
        base = self.chart.entry_cost(b, self.cls)
        side = self.chart.features(a, b)
        through = self.chart.on_feature.get(b, frozenset())
        rates = {f: c for f, (c, _) in self.chart.connected.items() if f in side and f in through}
        extra = cost - (min(rates.values()) if rates else base)
        out = [(f, c + extra) for f, c in rates.items()]
        exempted = any(side & set(self.chart.hexside.get(f, {}).get("unless", ()))
                       for f in side if self.chart.hexside.get(f, {}).get("prohibited"))
        if not isinstance(base, Blocked) and not exempted:
            out.append((CROSS, base + extra))
        return out

    def traces(self, hex_id: str, range_mp: Fraction) -> bool:
        """Whether a unit in `hex_id` traces supply with an overland leg of `range_mp` MP."""
        allowance = Fraction(range_mp)
        best: dict[tuple[str, Types], Fraction] = {(hex_id, ()): Fraction(0)}
        queue: list[tuple[Fraction, str, Types]] = [(Fraction(0), hex_id, ())]
        while queue:
            cost, a, runs = heapq.heappop(queue)
            if best.get((a, runs), cost) < cost:
                continue
            if any(joined(runs, r) is not None for r in self.rest.get(a, ())):
                return True
            for b in self.neighbours(a):
                if b in self.blocked:
                    continue
                for kind, c in self._steps(a, b):
                    new, now = cost + c, joined(runs, (kind,))
                    if now is None or new > allowance or best.get((b, now), new + 1) <= new:
                        continue
                    best[(b, now)] = new
                    heapq.heappush(queue, (new, b, now))
        return False
