"""Movement costs and paths from the terrain tables (no terrain in code).

Two ways to cost a step, both read from data:

- `TerrainCosts`: terrain.yaml alone: a costed hexside feature (a road) costs its own, else the
  entered hex type's `cost` (one, or per movement class), else the default hexside cost; a
  prohibiting feature (a cliff) forbids the crossing unless a costed feature shares the
  hexside; a prohibited hex (the sea) cannot be entered.
- `TerrainChart`: a Terrain Effects Chart (a rules table): the cost of the hex entered per
  movement class, a cheaper rate when the hexside crossed carries a road or track, plus the
  hexside's own cost unless a negating feature (a road) shares it.

One path search, `search`, takes any per-step cost callback with exact costs: integers in a
unit small enough for every cost of the game's tables (`mp_scale`: quarters of an MP, say; the
fastest), or `fractions.Fraction` (so that 3 x 1/3 MP is exactly 1); hexes where movement must
end (`stop`, e.g. an enemy ZOC), hexes that cannot be entered (`blocked`), and an `allowance`
past which it looks no further.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Container, Iterable, Mapping
from fractions import Fraction

from builder.geometry.hexmap import hexside_key
from builder.model.game import Game
from builder.record import FrozenRecord

StepCost = Callable[[str, str], "Fraction | None"]  # cost of moving a -> b (adjacent); None: prohibited


# -- the search ------------------------------------------------------------------------------
class Reach(FrozenRecord):
    """What one search found: the cheapest cost of every hex reached, and how."""

    __slots__ = _fields = ("start", "cost", "prev")

    def __init__(self, start: str, cost: dict[str, Fraction], prev: dict[str, str]):
        object.__setattr__(self, "start", start)  # one a search, often one a step: no _set_fields loop
        object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "prev", prev)

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self.cost

    def path(self, goal: str) -> list[str]:
        path = [goal]
        while path[-1] != self.start:
            path.append(self.prev[path[-1]])
        return path[::-1]


def search(neighbours: Callable[[str], Iterable[str]], start: str, step: StepCost, *,
           allowance: Fraction | None = None, stop: Container[str] | Iterable[str] = (), blocked: Iterable[str] = (),
           goal: str | None = None, scale: int | None = None) -> Reach:
    """Cheapest paths from `start` (Dijkstra) within `allowance` (None: any length).

    A `stop` hex may be entered but not left (the start excepted): any container (a set, or an
    object that answers `in` hex by hex); a `blocked` hex cannot be entered.  With a `goal` the
    search ends as soon as the goal's cost is final.  With a `scale`, the steps cost whole units
    of 1/scale MP (`TerrainChart.units`) and the Reach's costs are read in MP.
    """
    stop = stop if isinstance(stop, Container) and not isinstance(stop, (list, tuple, str)) else frozenset(stop)
    blocked = frozenset(blocked)
    best: dict[str, Fraction] = {start: 0}
    prev: dict[str, str] = {}
    queue: list[tuple[Fraction, str]] = [(0, start)]
    done: set[str] = set()
    while queue:
        cost, a = heapq.heappop(queue)
        if a in done:
            continue
        done.add(a)
        if a == goal or (a in stop and a != start):
            if a == goal:
                break
            continue
        for b in neighbours(a):
            if b in blocked or b in done:
                continue
            c = step(a, b)
            if c is None:
                continue
            new = cost + c
            if (allowance is None or new <= allowance) and new < best.get(b, new + 1):
                best[b], prev[b] = new, a
                heapq.heappush(queue, (new, b))
    cost = {h: c for h, c in best.items() if h in done}
    return Reach(start, cost if scale is None else _InMP(cost, scale), prev)


class _InMP(dict):
    """Path costs found in whole units, read in MP."""

    def __init__(self, units: dict, scale: int):
        super().__init__(units)
        self.scale = scale

    def __getitem__(self, hex_id: str) -> Fraction:
        return Fraction(super().__getitem__(hex_id), self.scale)

    def get(self, hex_id: str, default=None):
        return self[hex_id] if hex_id in self else default


# -- a Terrain Effects Chart -------------------------------------------------------------------
def mp(value) -> Fraction:
    """An MP value from a table: 1, 0.5, "1/3"."""
    return Fraction(str(value)) if not isinstance(value, Fraction) else value


def mp_scale(values) -> int:
    """The least whole number of units per MP that makes every table value, and its half (a
    track or a hexside halved), a whole number of units: integer costs for `search`."""
    scale = 1
    for v in values:
        scale = math.lcm(scale, mp(v).denominator)
    return 2 * scale


_UNKNOWN = object()


def _whole(x: Fraction) -> int | Fraction:
    """A cost in scale units as an int when it is whole (the fast case), else the Fraction."""
    return x.numerator if x.denominator == 1 else x


def show_mp(x: Fraction) -> str:
    """7 1/3, 1/2, 4."""
    x = Fraction(x)
    whole, rest = divmod(x.numerator, x.denominator)
    if not rest:
        return str(whole)
    part = f"{rest}/{x.denominator}"
    return f"{whole} {part}" if whole else part


class Blocked(FrozenRecord):
    """Why a step is prohibited: the rule and the terrain."""

    __slots__ = _fields = ("rule", "why")

    def __init__(self, rule: str, why: str):
        object.__setattr__(self, "rule", rule)  # may be one a step a search looks at: no _set_fields loop
        object.__setattr__(self, "why", why)


class TerrainChart:
    """Movement costs from a Terrain Effects Chart: the game's `kind: terrain-effects` table
    (schema.TerrainEffectsData), or the `data` given.

    data:
      movement_classes: {class: [column, ...]}   # a class reads its columns in order; the
                                                  # first column a cost gives applies
      hex: {terrain id: {mp: {column: cost}, rule}}   # no column of the class: prohibited
      connected: {feature: {mp: cost, rule}}      # the cost of a hex entered across a hexside
                                                  # the feature crosses, when the hex entered
                                                  # lies on that feature (cheapest wins)
      hexside: {feature: {mp: {column: cost} | prohibited: true, unless: [feature...], rule}}
    """

    def __init__(self, game: Game, data: Mapping | None = None):
        self.game = game
        data = game.table("terrain-effects").data if data is None else data
        self.classes: dict[str, list[str]] = {k: list(v) for k, v in data["movement_classes"].items()}
        self.hex = data["hex"]
        self.connected = {f: (mp(v["mp"]), str(v.get("rule", ""))) for f, v in data.get("connected", {}).items()}
        self.hexside = data.get("hexside", {})
        self.on_feature: dict[str, frozenset[str]] = {}  # hex -> features (roads, tracks) through it
        acc: dict[str, set[str]] = {}
        for feature, paths in game.map_terrain.hexside_paths.items():
            for path in paths:
                for h in path.hexes:
                    acc.setdefault(h, set()).add(feature)
        self.on_feature = {h: frozenset(v) for h, v in acc.items()}
        self._memo: dict[tuple[str, str, str], Fraction | Blocked] = {}
        values = [c for c, _ in self.connected.values()]
        for spec in [*self.hex.values(), *self.hexside.values()]:
            costs = spec.get("mp", {})
            values += list(costs.values()) if isinstance(costs, Mapping) else [costs]  # per column, or one cost
        self.scale = mp_scale(values)  # units per MP in which every cost of the chart is whole
        self._units: dict[str, dict] = {}  # class -> (a, b) -> the step's cost in scale units

    def _column(self, costs: Mapping, cls: str):
        for column in self.classes[cls]:
            if column in costs:
                return mp(costs[column])
        return None

    def features(self, a: str, b: str) -> frozenset[str]:
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def connected_by(self, a: str, b: str) -> bool:
        """Whether a road or track (a `connected` feature) crosses the hexside a/b."""
        return bool(self.features(a, b) & self.connected.keys())

    def step(self, a: str, b: str, cls: str) -> Fraction | Blocked:
        """Cost for a unit of movement class `cls` to move a -> b, or why it may not."""
        key = (a, b, cls)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._step(a, b, cls)
        return found

    _entries: dict[tuple[str, str], Fraction | Blocked] | None = None  # (terrain, class) -> entry_cost

    def entry_cost(self, hex_id: str, cls: str) -> Fraction | Blocked:
        """The cost of the hex's own terrain for a class, or why it may not enter (worked out once
        per terrain and class)."""
        terrain = self.game.hex_terrain[hex_id]
        if self._entries is None:
            self._entries = {}
        found = self._entries.get((terrain, cls))
        if found is None:
            entry = self.hex.get(terrain, {})
            base = self._column(entry.get("mp", {}), cls)
            found = Blocked(str(entry.get("rule", "")), terrain) if base is None else base
            self._entries[(terrain, cls)] = found
        return found

    def _step(self, a: str, b: str, cls: str) -> Fraction | Blocked:
        base = self.entry_cost(b, cls)
        if isinstance(base, Blocked):
            return base
        side = self.features(a, b)
        through = self.on_feature.get(b, frozenset()) if side & self.connected.keys() else frozenset()
        rates = [c for f, (c, _) in self.connected.items() if f in through]
        cost = min(rates) if rates else base
        for feature in sorted(side):
            spec = self.hexside.get(feature)
            if not spec or side & set(spec.get("unless", ())):
                continue
            if spec.get("prohibited"):
                return Blocked(str(spec.get("rule", "")), feature)
            extra = self._column(spec.get("mp", {}), cls)
            cost += extra or 0
        return cost

    def cost(self, cls: str) -> StepCost:
        """The step callback of one movement class (prohibited steps give None)."""
        def step(a: str, b: str) -> Fraction | None:
            c = self.step(a, b, cls)
            return None if isinstance(c, Blocked) else c
        return step

    def units(self, cls: str) -> StepCost:
        """`cost(cls)` in whole units of `scale` (an int where whole, which every table cost is):
        the fast step callback for `search`; `Reach.cost` values divided by `scale` are MP."""
        memo = self._units.setdefault(cls, {})

        def step(a: str, b: str) -> int | Fraction | None:
            c = memo.get((a, b), _UNKNOWN)
            if c is _UNKNOWN:
                found = self.step(a, b, cls)
                c = memo[(a, b)] = None if isinstance(found, Blocked) else _whole(found * self.scale)
            return c
        return step

    def passable(self, a: str, b: str) -> bool:
        """Whether any movement class may move a -> b (e.g. for a ZOC 'where movement is possible')."""
        return any(not isinstance(self.step(a, b, cls), Blocked) for cls in self.classes)


# -- terrain.yaml alone: hex costs per movement class and hexside features ----------------------
class TerrainCosts:
    """What a step costs a movement class by terrain.yaml alone, in whole `scale` units per MP.

    A costed hexside feature (a road) across the hexside costs its own and the hex's terrain does
    not count; otherwise the entered hex type's `cost` (one for all, or per class: a class the map
    leaves out may not enter), else `hexside_default_cost`.  A prohibited hex type cannot be
    entered; a prohibiting feature (a cliff) forbids the crossing unless a costed feature shares
    the hexside.  Worked out once per hexside and class."""

    def __init__(self, game: Game):
        self.game = game
        t = game.terrain
        values = [t.hexside_default_cost] + [f.cost for f in game.hexside_feature_types.values() if f.cost is not None]
        for h in game.hex_terrain_types.values():
            values += list(h.cost.values()) if isinstance(h.cost, Mapping) else [h.cost] if h.cost is not None else []
        self.scale = mp_scale(values)
        self.least = min(self.units(v) for v in values)  # the least a step can cost
        self._memo: dict[tuple[str, str, str], int | Blocked] = {}

    def units(self, value) -> int:
        """An MP value (a table's, an MA) in cost units."""
        return int(mp(value) * self.scale)

    def show(self, units: int) -> str:
        return show_mp(Fraction(units, self.scale))

    def step(self, a: str, b: str, cls: str) -> int | Blocked:
        """The cost of a -> b (adjacent) for class `cls`, or why it may not."""
        key = (a, b, cls)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._step(a, b, cls)
        return found

    def _step(self, a: str, b: str, cls: str) -> int | Blocked:
        g = self.game
        kind = g.hex_terrain_types[g.hex_terrain[b]]
        if kind.prohibited:
            return Blocked(kind.rule or "", kind.name.lower())
        features = [g.hexside_feature_types[f] for f in sorted(g.hexside_features.get(hexside_key(a, b), ()))]
        costed = [f for f in features if f.cost is not None]
        if costed:
            return self.units(min(f.cost for f in costed))
        blocked = [f for f in features if f.prohibited]
        if blocked:
            return Blocked(blocked[0].rule or "", blocked[0].name.lower())
        if isinstance(kind.cost, Mapping):
            if cls not in kind.cost:
                return Blocked(kind.rule or "", f"{kind.name.lower()} (no cost for {cls} units)")
            return self.units(kind.cost[cls])
        return self.units(kind.cost if kind.cost is not None else g.terrain.hexside_default_cost)

    def cost(self, cls: str) -> StepCost:
        """The step callback of one class for `search` (prohibited steps give None)."""
        def step(a: str, b: str) -> int | None:
            c = self.step(a, b, cls)
            return None if isinstance(c, Blocked) else c
        return step

    def path(self, start: str, goal: str, cls: str,
             stop: Container[str] | Callable[[], Container[str]] = frozenset()) -> tuple[int, list[str]] | None:
        """The cheapest legal path start -> goal for class `cls` (cost units, hexes), or None when
        there is none; a `stop` hex (or one `stop()` gives, asked only if a search is needed) may
        end a path, not lie on it.  An adjacent goal whose hexside
        costs at most two of the cheapest steps needs no search: no way round costs less, and the
        search keeps the direct step on a tie (most moves are one hex)."""
        if self.game.geometry.adjacent(start, goal):
            c = self.step(start, goal, cls)
            if not isinstance(c, Blocked) and c <= 2 * self.least:
                return c, [start, goal]
        found = search(self.game.geometry.neighbours, start, self.cost(cls), stop=stop() if callable(stop) else stop,
                       goal=goal)
        return (found.cost[goal], found.path(goal)) if goal in found else None
