"""Stacking points from a table (any game): the set-up checks and the auditors share it.

data (the `stacking` entry of a game's table; one shape for every game with points):
  limit: 4                        # most stacking points in one hex
  terrain_limits: {city: 9}       # another limit in hexes of these terrain types
  default: 1                      # points of any unit no rule below matches
  default_per_step: 1             # or: points per printed step of such a unit
  points: [{nationality: italian, size: XX, sp: 2}, {type: hq, sp_per_step: 0}, ...]
                                  # first match wins; keys are unit attributes (nationality,
                                  # size, type, formation); `sp` a unit, `sp_per_step` a step
  free: {size: II, count: 1}      # this many units matching may stack without counting
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from builder.record import FrozenRecord


_VALUES = ("sp", "sp_per_step", "count", "rule")  # what a rule gives; the other keys match


def unit_attrs(game, unit, reduced: bool = False) -> dict[str, object]:
    """A unit as the stacking tables match it: its nationality, size, type, formation, `steps` as
    printed (points per step) and `now`, the steps it stands for on the face shown (its strength,
    one less on a reduced face, at least 1: Tobrouk 41-42 6.1d; for combinations)."""
    full = getattr(unit, "strength", None) or unit.steps
    return {"nationality": game.formations[unit.formation].nationality, "size": unit.size, "type": unit.type,
            "formation": unit.formation, "steps": unit.steps, "armoured": bool(getattr(unit, "armoured", False)),
            "now": max(1, full - 1) if reduced else full}


class StackingTable(FrozenRecord):
    """A `stacking` table's points and limits (the module docstring shows its data)."""

    __slots__ = _fields = ("limit", "default", "points", "free", "terrain_limits", "default_per_step")

    def __init__(self, limit: int, default: int, points: tuple[Mapping, ...], free: Mapping,
                 terrain_limits: Mapping[str, int] | None = None, default_per_step: int | None = None):
        self._set_fields(limit, default, points, free, {} if terrain_limits is None else terrain_limits,
                         default_per_step)

    @classmethod
    def from_data(cls, data: Mapping) -> StackingTable:
        per_step = data.get("default_per_step")
        return cls(int(data["limit"]), int(data.get("default", 1)), tuple(data.get("points", ())),
                   dict(data.get("free", {})), {str(k): int(v) for k, v in data.get("terrain_limits", {}).items()},
                   None if per_step is None else int(per_step))

    @staticmethod
    def _matches(rule: Mapping, attrs: Mapping[str, object]) -> bool:
        return all(attrs.get(k) == v for k, v in rule.items() if k not in _VALUES)

    def points_of(self, attrs: Mapping[str, object]) -> int:
        """Stacking points of one unit described by its attributes (`steps`: its printed steps)."""
        steps = int(attrs.get("steps") or 1)
        for rule in self.points:
            if self._matches(rule, attrs):
                return int(rule["sp"]) if "sp" in rule else int(rule["sp_per_step"]) * steps
        return self.default if self.default_per_step is None else self.default_per_step * steps

    def limit_in(self, terrain: str | None) -> int:
        """The limit of a hex of this terrain type."""
        return self.terrain_limits.get(terrain or "", self.limit)

    def total(self, units: Iterable[Mapping[str, object]]) -> int:
        """Points counted against the limit: all units, less the free ones (the dearest free first)."""
        units = list(units)
        points = [self.points_of(u) for u in units]
        free = sorted((p for u, p in zip(units, points) if self.free and self._matches(self.free, u)), reverse=True)
        return sum(points) - sum(free[: int(self.free.get("count", 0))])

    def over(self, units: Iterable[Mapping[str, object]], terrain: str | None = None) -> int:
        """Points over the limit of a hex of this terrain (0: legal)."""
        return max(0, self.total(units) - self.limit_in(terrain))


class StackingCombinations(FrozenRecord):
    """Stacking by kinds of unit rather than points (Tobrouk 41-42 7.1): a hex's units must fill
    the slots of one combination.

    data (a table's `combinations` and what goes with it):
      combinations: [{infantry: 2, other: 1, other_max_steps: 2, rule: "7.1b"}, ...]
      kinds: {infantry: {type: [infantry, engineer]}, armoured: {armoured: true}}
                                      # what fills a kind's slot (unit attributes; a list: any)
                                      # an `other` slot takes any unit of at most other_max_steps
                                      # steps on the face it shows (`now`, else `steps`)
      not_counted: [hq]               # unit types that never count
      at_most: {tank: 1}              # most units of a type in one hex, whatever the combination
    """

    __slots__ = _fields = ("combinations", "kinds", "not_counted", "at_most")

    def __init__(self, combinations: tuple[Mapping, ...], kinds: Mapping[str, Mapping], not_counted: frozenset[str],
                 at_most: Mapping[str, int]):
        self._set_fields(combinations, kinds, not_counted, at_most)

    @classmethod
    def from_data(cls, data: Mapping) -> StackingCombinations:
        return cls(tuple(data["combinations"]), dict(data.get("kinds", {})), frozenset(data.get("not_counted", ())),
                   {str(k): int(v) for k, v in data.get("at_most", {}).items()})

    def counted(self, units: Iterable[Mapping[str, object]]) -> list[Mapping[str, object]]:
        return [u for u in units if u.get("type") not in self.not_counted]

    def _is(self, kind: str, attrs: Mapping[str, object], cap: int) -> bool:
        if kind == "other":
            return int(attrs.get("now") or attrs.get("steps") or 1) <= cap
        spec = self.kinds.get(kind, {})
        return bool(spec) and all(attrs.get(k) in v if isinstance(v, list) else attrs.get(k) == v
                                  for k, v in spec.items())

    def fits(self, units: Iterable[Mapping[str, object]]) -> bool:
        """Whether the counted units fill the slots of one combination (one unit a slot)."""
        units = self.counted(units)
        for kind, most in self.at_most.items():
            if sum(1 for u in units if u.get("type") == kind) > most:
                return False
        if len(units) <= 1:
            return True
        for combo in self.combinations:
            slots = [k for k, n in combo.items() if k not in ("other_max_steps", "rule") for _ in range(int(n))]
            if len(units) <= len(slots) and self._match(units, slots, int(combo.get("other_max_steps", 99))):
                return True
        return False

    def _match(self, units, slots: list[str], cap: int) -> bool:
        """A unit for each of some slots (a small bipartite matching: at most a few units)."""
        if not units:
            return True
        first, rest = units[0], units[1:]
        return any(self._is(kind, first, cap) and self._match(rest, slots[:i] + slots[i + 1:], cap)
                   for i, kind in enumerate(slots))

    def describe(self) -> str:
        """The combinations as a person reads them: "2 infantry + 1 other (at most 2 steps)"."""
        def one(c):
            parts = [f"{n} {k}" for k, n in c.items() if k not in ("other_max_steps", "rule")]
            cap = f" (other: at most {c['other_max_steps']} steps)" if "other_max_steps" in c else ""
            return " + ".join(parts) + cap
        limits = "".join(f"; never more than {n} {k}" for k, n in self.at_most.items())
        return ", or ".join(one(c) for c in self.combinations) + limits
