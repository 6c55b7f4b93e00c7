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

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from builder.record import FrozenRecord
from validators.kernel.movement import Blocked, StepCost, TerrainChart, _whole, search


class Leg(FrozenRecord):
    """One leg of a supply path: the hexside feature it follows ("road") and the most hexes it
    enters along it (None: any number)."""

    __slots__ = _fields = ("feature", "max_steps")

    def __init__(self, feature: str, max_steps: int | None = None):
        self._set_fields(feature, max_steps)


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


def connected(neighbours: Callable[[str], Iterable[str]], sources: Iterable[str],
              passable: Callable[[str, str], bool] | None, blocked: Iterable[str]) -> set[str]:
    """Hexes with a path of any length to a source through free hexes (the start may be blocked);
    `passable` None: every step `neighbours` gives is open (a caller that lists the open ways)."""
    blocked = frozenset(blocked)
    seen = {s for s in sources}
    queue = deque(s for s in seen if s not in blocked)
    while queue:
        b = queue.popleft()
        for a in neighbours(b):
            if a in seen or (passable is not None and not passable(a, b)):
                continue
            seen.add(a)
            if a not in blocked:
                queue.append(a)
    return seen


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
    """Supply legs whose path types never come back: every part of a path has a type
    (cross-country, or the feature it runs along, a track or a road), consecutive parts of one
    type are one run, and no type may come back (road-track-road is no supply path), while the
    overland leg's hexes along a track join the track leg's as one run.

    Choices: a step along a road or track may also be counted as cross-country, at the cost of
    the hex's terrain (a player is never held to the type that happens to be cheapest); a step
    whose hexside feature only the road or track makes passable (an escarpment) has no
    cross-country option.  The legs are found backwards from the sources once per board state;
    each unit then needs only a short search of its overland leg (`traces`)."""

    def __init__(self, neighbours: Callable[[str], Iterable[str]], chart: TerrainChart, movement_class: str,
                 sources: Iterable[str], blocked: Iterable[str], legs: Sequence[Leg], steps: dict | None = None):
        """`steps`: a dict kept by the caller for the ways to take each step (they depend on the
        chart and the class only, so nets of one class may share it)."""
        self.neighbours, self.chart, self.cls = neighbours, chart, movement_class
        self.blocked = frozenset(blocked)
        self._ways = {} if steps is None else steps
        self._traced: dict[tuple[str, Fraction], bool] = {}
        self.scale = chart.scale
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

    def _steps(self, a: str, b: str) -> list[tuple[str, int | Fraction]]:
        """(type, cost in 1/`scale` MP) of each way to take the step a -> b on the overland leg."""
        found = self._ways.get((a, b))
        if found is None:
            found = self._ways[(a, b)] = [(kind, _whole(c * self.scale)) for kind, c in self._ways_mp(a, b)]
        return found

    def _ways_mp(self, a: str, b: str) -> list[tuple[str, Fraction]]:
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
        key = (hex_id, range_mp)
        found = self._traced.get(key)
        if found is None:
            found = self._traced[key] = self._trace(hex_id, _whole(Fraction(range_mp) * self.scale))
        return found

    def _trace(self, hex_id: str, allowance: int | Fraction) -> bool:
        best: dict[tuple[str, Types], int | Fraction] = {(hex_id, ()): 0}
        queue: list[tuple[int | Fraction, str, Types]] = [(0, hex_id, ())]
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
