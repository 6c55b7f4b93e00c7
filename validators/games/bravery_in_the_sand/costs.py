"""Bravery in the Sand's movement costs (6.1.1-6.1.4), from terrain.yaml: a hexside costs the
cheapest costed feature on it (a road, a track), else the default hexside cost; a prohibiting
feature (a cliff) forbids the crossing unless a costed feature shares the hexside; a prohibited
hex (the sea) cannot be entered.  The kernel's path search finds the cheapest way; the answers
are in MP as the rulebook counts them (halves), worked out once per pair of hexes (`Game.memo`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from builder.geometry.hexmap import hexside_key
from builder.model.game import Game
from validators.kernel.movement import StepCost, search


@dataclass(frozen=True)
class Crossing:
    cost: float | None  # None: prohibited
    rule: str  # the rule that sets this cost or prohibition
    why: str  # e.g. "road", "cliff"


def crossing(game: Game, a: str, b: str) -> Crossing:
    """What it takes to move from hex a into the adjacent hex b (Bravery's hexside costs),
    worked out once per pair of hexes (`Game.memo`)."""
    key = ("crossing", a, b)
    found = game.memo.get(key)
    if found is None:
        found = game.memo[key] = _crossing(game, a, b)
    return found


def _crossing(game: Game, a: str, b: str) -> Crossing:
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


def step_cost(game: Game) -> StepCost:
    """The search's step callback: `crossing` costs as exact fractions (None: prohibited)."""
    def step(a: str, b: str) -> Fraction | None:
        c = crossing(game, a, b).cost
        return None if c is None else Fraction(c)
    return step


def cheapest_path(game: Game, start: str, goal: str, avoid: frozenset[str] = frozenset()) -> tuple[float, list[str]] | None:
    """The cheapest legal path start -> goal by `crossing` costs, or None when none exists.

    `avoid` lists hexes a path may end in but not pass through (e.g. enemy-occupied hexes,
    where movement must stop).
    """
    direct = one_hexside_path(game, start, goal)
    if direct is not None:
        return direct
    found = search(game.geometry.neighbours, start, step_cost(game), stop=avoid, goal=goal)
    if goal not in found:
        return None
    return float(found.cost[goal]), found.path(goal)


def one_hexside_path(game: Game, start: str, goal: str) -> tuple[float, list[str]] | None:
    """`cheapest_path` for any `avoid`, without a search, when `goal` is adjacent and its hexside
    costs no more than two hexsides of the cheapest kind: no way round can then cost less, and
    the search keeps the direct step on a tie.  None: a search is needed.  Most moves are one
    hex, so a caller can skip working out `avoid` too."""
    if not game.geometry.adjacent(start, goal):
        return None
    cost = crossing(game, start, goal).cost
    if cost is None or cost > 2 * _cheapest_crossing(game):
        return None
    return float(cost), [start, goal]


def _cheapest_crossing(game: Game) -> float:
    """The least any hexside can cost (`_crossing`'s costs: the feature types' and the default)."""
    key = ("cheapest_crossing",)
    found = game.memo.get(key)
    if found is None:
        costs = [f.cost for f in game.hexside_feature_types.values() if f.cost is not None]
        found = game.memo[key] = min(costs + [game.terrain.hexside_default_cost])
    return found
