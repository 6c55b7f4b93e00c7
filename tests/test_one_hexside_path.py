"""The one-hexside shortcut of the kernel's `TerrainCosts.path` gives exactly what the search gives
(cost and path) on every adjacent pair of Bravery in the Sand's map, whatever hexes the path must
not pass through, and declines wherever a way round could cost as little."""
from __future__ import annotations

from validators.kernel.movement import Blocked, TerrainCosts, search


def _searched(costs, a, b, avoid):
    found = search(costs.game.geometry.neighbours, a, costs.cost("all"), stop=avoid, goal=b)
    return (found.cost[b], found.path(b)) if b in found else None


def _shortcut(costs, a, b):
    """The shortcut's answer, None where it declines (it would search: `stop` is asked)."""
    asked = []
    found = costs.path(a, b, "all", lambda: asked.append(1) or frozenset())
    return None if asked else found


def test_the_shortcut_is_the_search_on_every_adjacent_pair(game):
    costs = TerrainCosts(game)
    hexes = game.geometry.labels
    taken = declined = 0
    for i, a in enumerate(hexes):
        for b in game.geometry.neighbours(a):
            short = _shortcut(costs, a, b)
            if short is None:
                declined += 1
                continue
            taken += 1
            ring = frozenset(game.geometry.neighbours(a)) - {b}  # every way round blocked but the direct one
            for avoid in (frozenset(), ring, frozenset(hexes[i::7])):
                assert short == _searched(costs, a, b, avoid - {b}), (a, b)
    assert taken and declined  # roads take the shortcut; desert (2 MP, as two road hexsides) does not


def test_the_shortcut_declines_a_prohibited_or_distant_step(game):
    costs = TerrainCosts(game)
    hexes = game.geometry.labels
    a = hexes[0]
    far = next(h for h in hexes if game.geometry.distance(a, h) == 2)
    assert _shortcut(costs, a, far) is None
    blocked = [(x, y) for x in hexes for y in game.geometry.neighbours(x) if isinstance(costs.step(x, y, "all"), Blocked)]
    assert blocked and all(_shortcut(costs, x, y) is None for x, y in blocked[:50])
