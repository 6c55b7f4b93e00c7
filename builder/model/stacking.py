"""Stacking points from a table (any game): the set-up checks and the auditors share it.

data (e.g. in a game's movement table):
  limit: 4                        # most stacking points in one hex
  default: 1                      # points of any unit no rule below matches
  points: [{nationality: italian, size: XX, sp: 2}, ...]   # first match wins; keys are
                                  # unit attributes (nationality, size, type, formation)
  free: {size: II, count: 1}      # this many units matching may stack without counting
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class StackingTable:
    limit: int
    default: int
    points: tuple[Mapping, ...]
    free: Mapping

    @classmethod
    def from_data(cls, data: Mapping) -> StackingTable:
        return cls(int(data["limit"]), int(data.get("default", 1)), tuple(data.get("points", ())),
                   dict(data.get("free", {})))

    @staticmethod
    def _matches(rule: Mapping, attrs: Mapping[str, object]) -> bool:
        return all(attrs.get(k) == v for k, v in rule.items() if k not in ("sp", "count", "rule"))

    def points_of(self, attrs: Mapping[str, object]) -> int:
        """Stacking points of one unit described by its attributes."""
        for rule in self.points:
            if self._matches(rule, attrs):
                return int(rule["sp"])
        return self.default

    def total(self, units: Iterable[Mapping[str, object]]) -> int:
        """Points counted against the limit: all units, less the free ones (the dearest free first)."""
        units = list(units)
        points = [self.points_of(u) for u in units]
        free = sorted((p for u, p in zip(units, points) if self.free and self._matches(self.free, u)), reverse=True)
        return sum(points) - sum(free[: int(self.free.get("count", 0))])

    def over(self, units: Iterable[Mapping[str, object]]) -> int:
        """Points over the limit (0: legal)."""
        return max(0, self.total(units) - self.limit)
