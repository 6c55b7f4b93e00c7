"""A board whose map sections each carry their own hex ids ("C2331", "W2104").

Desert Fox Deluxe prints six maps, each numbered on its own with the map letter in front
(2.2.2).  The module draws them on one board: each section is a VASSAL Zone with its own copy
of the board's grid (same lattice, so hexes of two sections are neighbours across the seam)
and its own numbering offsets; the zone writes the letter in front of the grid location.
VASSAL names a point by the first zone in document order that holds it (ZonedGrid), and a
zone's descending numbering counts from the zone's own bounding box (Zone.getSize).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from builder.geometry import javagrid
from builder.geometry.hexmap import HexMap
from builder.geometry.javagrid import NumberingParams


@dataclass(frozen=True)
class SectionParams:
    prefix: str
    area: tuple[int, int, int, int]  # x, y, w, h: the zone's rectangle
    numbering: NumberingParams

    @property
    def polygon(self) -> list[tuple[int, int]]:
        x, y, w, h = self.area
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]

    def contains(self, x: float, y: float) -> bool:
        return javagrid.polygon_contains(self.polygon, x, y)


@dataclass(frozen=True)
class SectionedHexMap(HexMap):
    """A HexMap whose labels come from the section (zone) holding each hex centre.

    Only hexes inside a section exist (the board between staggered maps is empty).  Where two
    sections overlap (the printed maps overlap by a column, 2.2.1: S34 = C01) a hex has one
    label, the first section's as VASSAL names it, and an alias in each later section holding
    it: VASSAL's getLocation of the alias (Send-To-Location, a set-up by hex id) reaches the
    same hex, so sources may use either id the rulebook prints."""

    sections: tuple[SectionParams, ...] = field(default=())

    def section_at(self, x: float, y: float) -> SectionParams | None:
        return next((s for s in self.sections if s.contains(x, y)), None)

    def _inside(self, nx: int, ny: int) -> bool:
        return super()._inside(nx, ny) and self.section_at(*javagrid.raw_centre(self.grid, nx, ny)) is not None

    @cached_property
    def aliases(self) -> dict[str, str]:
        """alias -> label: the id a later overlapping section gives a hex."""
        out: dict[str, str] = {}
        for label in self.labels:
            x, y = HexMap.centre(self, label)
            first = self.section_at(x, y)
            for s in self.sections:
                if s is not first and s.contains(x, y):
                    _, _, w, h = s.area
                    out[s.prefix + javagrid.location_name(self.grid, s.numbering, w, h, x, y)] = label
        return out

    def canonical(self, label: str) -> str:
        return self.aliases.get(label, label)

    def __contains__(self, label: object) -> bool:
        return label in self._cells or label in self.aliases

    @cached_property
    def ids(self) -> frozenset[str]:
        return frozenset(self._cells).union(self.aliases)

    def centre(self, label: str) -> tuple[int, int]:
        return super().centre(self.canonical(label))

    def ideal_centre(self, label: str) -> tuple[float, float]:
        return super().ideal_centre(self.canonical(label))

    def outline(self, label: str) -> list[tuple[float, float]]:
        return super().outline(self.canonical(label))

    def neighbours(self, label: str) -> list[str]:
        return super().neighbours(self.canonical(label))

    def adjacent(self, a: str, b: str) -> bool:
        return self.canonical(b) in self.neighbours(a)

    def _axial(self, label: str) -> tuple[int, int]:
        return super()._axial(self.canonical(label))

    def label_at(self, x: float, y: float) -> str:
        s = self.section_at(x, y)
        if s is None:  # outside every section: the board's own numbering (VASSAL's background grid)
            return super().label_at(x, y)
        _, _, w, h = s.area
        return s.prefix + javagrid.location_name(self.grid, s.numbering, w, h, x, y)

    def location_point(self, label: str) -> tuple[int, int]:
        """Zone.getLocation: the point VASSAL sends a sectioned id to (BadCoords if none)."""
        for s in self.sections:
            if label.startswith(s.prefix):
                _, _, w, h = s.area
                try:
                    p = javagrid.location_point(self.grid, s.numbering, w, h, label[len(s.prefix):])
                except javagrid.BadCoords:
                    continue
                if s.contains(*p):
                    return p
        w, h = self.board
        return javagrid.location_point(self.grid, self.numbering, w, h, label)
