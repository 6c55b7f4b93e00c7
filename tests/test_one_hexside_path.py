"""The one-hexside shortcut of the kernel's path search gives exactly what the search gives
(cost and path) on every adjacent pair of Bravery in the Sand's map, whatever hexes the path must
not pass through, and declines wherever a way round could cost as little."""
from __future__ import annotations

from validators.games.bravery_in_the_sand.costs import crossing, one_hexside_path, step_cost
from validators.kernel.movement import search


def _searched(game, a, b, avoid):
    found = search(game.geometry.neighbours, a, step_cost(game), stop=avoid, goal=b)
    return (float(found.cost[b]), found.path(b)) if b in found else None


def test_the_shortcut_is_the_search_on_every_adjacent_pair(game):
    hexes = game.geometry.labels
    taken = declined = 0
    for i, a in enumerate(hexes):
        for b in game.geometry.neighbours(a):
            short = one_hexside_path(game, a, b)
            if short is None:
                declined += 1
                continue
            taken += 1
            ring = frozenset(game.geometry.neighbours(a)) - {b}  # every way round blocked but the direct one
            for avoid in (frozenset(), ring, frozenset(hexes[i::7])):
                assert short == _searched(game, a, b, avoid - {b}), (a, b)
    assert taken and declined  # roads take the shortcut; desert (2 MP, as two road hexsides) does not


def test_the_shortcut_declines_a_prohibited_or_distant_step(game):
    hexes = game.geometry.labels
    a = hexes[0]
    far = next(h for h in hexes if game.geometry.distance(a, h) == 2)
    assert one_hexside_path(game, a, far) is None
    blocked = [(x, y) for x in hexes for y in game.geometry.neighbours(x) if crossing(game, x, y).cost is None]
    assert blocked and all(one_hexside_path(game, x, y) is None for x, y in blocked[:50])
