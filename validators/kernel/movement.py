"""Movement costs and paths from the terrain tables (no terrain in code).

A hexside's cost is the cheapest costed feature on it (a road, a track), else the default
hexside cost; a prohibiting feature (a cliff) forbids the crossing unless a costed feature
shares the hexside; a prohibited hex (the sea) cannot be entered.  These are the terms of
Bravery in the Sand 6.1.1-6.1.4; other games choose other tables.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from builder.geometry.hexmap import hexside_key
from builder.model.game import Game


@dataclass(frozen=True)
class Crossing:
    cost: float | None  # None: prohibited
    rule: str  # the rule that sets this cost or prohibition
    why: str  # e.g. "road", "cliff"


def crossing(game: Game, a: str, b: str) -> Crossing:
    """What it takes to move from hex a into the adjacent hex b."""
    kinds = game.hex_terrain_types
    target = kinds[game.hex_terrain[b]]
    if target.prohibited:
        return Crossing(None, target.rule or "", target.name.lower())
    features = [game.hexside_feature_types[f] for f in sorted(game.hexside_features.get(hexside_key(a, b), ()))]
    costed = [f for f in features if f.cost is not None]
    if costed:
        best = min(costed, key=lambda f: f.cost)
        return Crossing(best.cost, best.rule or "", best.name.lower())
    blocked = [f for f in features if f.prohibited]
    if blocked:
        return Crossing(None, blocked[0].rule or "", blocked[0].name.lower())
    return Crossing(game.terrain.hexside_default_cost, game.terrain.hexside_default_rule or "", "desert")


def cheapest_path(game: Game, start: str, goal: str, avoid: frozenset[str] = frozenset()) -> tuple[float, list[str]] | None:
    """The cheapest legal path start -> goal (Dijkstra), or None when none exists.

    `avoid` lists hexes a path may end in but not pass through (e.g. enemy-occupied hexes,
    where movement must stop).
    """
    if start == goal:
        return 0.0, [start]
    best = {start: 0.0}
    prev: dict[str, str] = {}
    queue = [(0.0, start)]
    while queue:
        cost, a = heapq.heappop(queue)
        if a == goal:
            path = [a]
            while path[-1] != start:
                path.append(prev[path[-1]])
            return cost, path[::-1]
        if cost > best.get(a, float("inf")) or (a in avoid and a != start):
            continue
        for b in game.geometry.neighbours(a):
            c = crossing(game, a, b).cost
            if c is None:
                continue
            if cost + c < best.get(b, float("inf")):
                best[b] = cost + c
                prev[b] = a
                heapq.heappush(queue, (cost + c, b))
    return None


def reachable(game: Game, start: str, allowance: float, avoid: frozenset[str] = frozenset()) -> dict[str, float]:
    """Every hex reachable within `allowance` MP, with its cost (the legal set of a move)."""
    best = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        cost, a = heapq.heappop(queue)
        if cost > best[a] or (a in avoid and a != start):
            continue
        for b in game.geometry.neighbours(a):
            c = crossing(game, a, b).cost
            if c is not None and cost + c <= allowance and cost + c < best.get(b, float("inf")):
                best[b] = cost + c
                heapq.heappush(queue, (cost + c, b))
    return best
