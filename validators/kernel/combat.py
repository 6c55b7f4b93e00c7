"""Combat bookkeeping shared by the games: dice grouped per combat, hits counted by hit number,
the record of one combat (who fought, from and in which hexes, the steps each side lost, where
its units went afterwards) and retreat paths that lead away from a hex.

What hits, what a loss is worth and which hexes block a retreat belong to each game: they come
in as numbers (from its tables) or as predicates.  Nothing here knows a rule number.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from itertools import pairwise

from builder.geometry import HexMap
from builder.record import FrozenRecord
from builder.record import Record


def hits(dice: Iterable[int], hit_on: int, per_hit: int = 1) -> int:
    """Hits scored by `dice`: each die showing `hit_on` or more counts; `per_hit` of them make a hit.

    >>> hits([6, 5, 2], 5), hits([6, 5, 2], 6), hits([6, 6, 6], 6, per_hit=2)
    (2, 1, 1)
    """
    return sum(1 for d in dice if d >= hit_on) // per_hit


def steps_left(reduced: bool, steps: int) -> int:
    """Steps a unit still has: a full two-step unit 2, a reduced or one-step unit 1."""
    return 1 if reduced or steps <= 1 else steps


def ratio_threshold(strength: float, factor: float, least: int = 0) -> int:
    """`factor` times `strength`, rounded up, and at least `least` (e.g. 150 % of a defence)."""
    return max(least, math.ceil(round(factor * strength, 9)))


def odds_column(columns: Iterable[str], attack, defense) -> int:
    """The index of the last odds column ("3-1", "1-2") that attack:defense reaches (the odds
    rounded down); -1 below the first, the last with no defense.

    >>> odds_column(["1-2", "1-1", "2-1"], 3, 2), odds_column(["1-2", "1-1"], 1, 3), odds_column(["1-1"], 1, 0)
    (1, -1, 0)
    """
    ratios = [tuple(int(v) for v in c.split("-")) for c in columns]
    if defense <= 0:
        return len(ratios) - 1
    return max((i for i, (x, y) in enumerate(ratios) if attack * y >= defense * x), default=-1)


class Roll(FrozenRecord):
    """One roll of a combat: the side, what the dice are for (as the game names its dice
    groups), the dice and the hits they scored."""

    __slots__ = _fields = ("side", "group", "dice", "hits")

    def __init__(self, side: str, group: str, dice: tuple[int, ...], hits: int):
        self._set_fields(side, group, dice, hits)


class Combat(Record):
    """One combat resolution: declared participants, dice, losses and moves afterwards."""

    __slots__ = ("number", "attacker", "defender", "attackers", "defenders", "rolls", "steps", "lost_by", "eliminated",
                 "trails", "declared_at", "resolved_at")

    def __init__(self, number: int, attacker: str, defender: str, attackers: dict[str, str] | None = None,
                 defenders: dict[str, str] | None = None, rolls: list[Roll] | None = None,
                 steps: dict[str, int] | None = None, lost_by: dict[str, int] | None = None,
                 eliminated: set[str] | None = None, trails: dict[str, list[str]] | None = None,
                 declared_at: int = 0, resolved_at: int | None = None):
        self.number = number  # 1, 2, ... within the phase
        self.attacker, self.defender = attacker, defender  # side ids
        self.attackers = {} if attackers is None else attackers  # piece id -> hex it attacks from
        self.defenders = {} if defenders is None else defenders  # piece id -> hex it defends in
        self.rolls = [] if rolls is None else rolls
        self.steps = {} if steps is None else steps  # side -> steps lost since the dice
        self.lost_by = {} if lost_by is None else lost_by  # piece id -> steps it lost
        self.eliminated = set() if eliminated is None else eliminated
        self.trails = {} if trails is None else trails  # piece id -> hexes since the dice, start first
        self.declared_at = declared_at  # step of the first declaration
        self.resolved_at = resolved_at  # step of the first dice

    @property
    def attacked_hexes(self) -> set[str]:
        return set(self.defenders.values())

    @property
    def attacking_hexes(self) -> set[str]:
        return set(self.attackers.values())

    def side_of(self, piece_id: str) -> str | None:
        if piece_id in self.attackers:
            return self.attacker
        return self.defender if piece_id in self.defenders else None

    def members(self, side: str) -> dict[str, str]:
        return self.attackers if side == self.attacker else self.defenders

    def roll(self, side: str, group: str, dice: Iterable[int], scored: int) -> Roll:
        r = Roll(side, group, tuple(dice), scored)
        self.rolls.append(r)
        return r

    def dice(self, side: str, groups: Iterable[str] | None = None) -> list[int]:
        wanted = None if groups is None else set(groups)
        return [d for r in self.rolls if r.side == side and (wanted is None or r.group in wanted) for d in r.dice]

    def count(self, side: str, group: str) -> int:
        return len(self.dice(side, [group]))

    def hits_by(self, side: str, groups: Iterable[str] | None = None) -> int:
        wanted = None if groups is None else set(groups)
        return sum(r.hits for r in self.rolls if r.side == side and (wanted is None or r.group in wanted))

    def lose(self, piece_id: str, steps: int, eliminated: bool = False) -> None:
        """Steps lost by a participant (negative: a flip taken back)."""
        side = self.side_of(piece_id)
        if side is None:
            return
        self.steps[side] = self.steps.get(side, 0) + steps
        self.lost_by[piece_id] = self.lost_by.get(piece_id, 0) + steps
        if eliminated:
            self.eliminated.add(piece_id)

    def moved(self, piece_id: str, old: str, new: str) -> None:
        trail = self.trails.setdefault(piece_id, [old])
        if trail[-1] != old:
            trail.append(old)
        trail.append(new)


def distance_from(geometry: HexMap, origin: Iterable[str]) -> Callable[[str], int]:
    """Hex distance to the nearest of `origin`."""
    hexes = tuple(origin)
    return lambda h: min(geometry.distance(o, h) for o in hexes)


def retreat_path(geometry: HexMap, waypoints: list[str], away: Callable[[str], int],
                 blocked: Callable[[str, str], str | None]) -> tuple[list[str] | None, str | None]:
    """A path through `waypoints` (start hex, then every hex a move of the unit ended in) whose
    every hex is one farther from the origin (`away`) than the one before, each step allowed
    (`blocked(a, b)` gives the reason a step a -> b is not); (path, None) or (None, why not)."""
    path = [waypoints[0]]
    for a, b in pairwise(waypoints):
        if away(b) <= away(a):
            return None, f"{b} is not farther than {a} from the hex it retreats from"
        leg, why = _leg(geometry, a, b, away, blocked)
        if leg is None:
            return None, why
        path += leg[1:]
    return path, None


def _leg(geometry: HexMap, a: str, b: str, away: Callable[[str], int],
         blocked: Callable[[str, str], str | None]) -> tuple[list[str] | None, str | None]:
    """Breadth-first, one distance layer at a time, from a to b."""
    prev, layer, why = _layers(geometry, a, away(b) - away(a), away, blocked, goal=b)
    if b not in layer:
        return None, why or f"no retreat path from {a} to {b}"
    path = [b]
    while path[-1] != a:
        path.append(prev[path[-1]])
    return path[::-1], None


def retreat_ends(geometry: HexMap, start: str, hexes: int, away: Callable[[str], int],
                 blocked: Callable[[str, str], str | None]) -> set[str]:
    """Every hex a retreat of `hexes` hexes from `start` may end in (each hex farther than the last)."""
    return _layers(geometry, start, hexes, away, blocked)[1]


def _layers(geometry: HexMap, start: str, hexes: int, away: Callable[[str], int],
            blocked: Callable[[str, str], str | None], goal: str | None = None
            ) -> tuple[dict[str, str], set[str], str | None]:
    prev: dict[str, str] = {}
    layer, why = {start}, None
    base = away(start)
    for level in range(base + 1, base + hexes + 1):
        nxt: set[str] = set()
        for h in sorted(layer):
            for n in geometry.neighbours(h):
                if away(n) != level or n in nxt or (goal and geometry.distance(n, goal) > base + hexes - level):
                    continue
                reason = blocked(h, n)
                if reason:
                    why = reason if n == goal or why is None else why
                    continue
                prev[n] = h
                nxt.add(n)
        layer = nxt
        if not layer:
            break
    return prev, layer, why
