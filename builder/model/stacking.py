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
from dataclasses import dataclass, field


_VALUES = ("sp", "sp_per_step", "count", "rule")  # what a rule gives; the other keys match


@dataclass(frozen=True)
class StackingTable:
    limit: int
    default: int
    points: tuple[Mapping, ...]
    free: Mapping
    terrain_limits: Mapping[str, int] = field(default_factory=dict)
    default_per_step: int | None = None

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
