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
    """A HexMap whose labels come from the section (zone) holding each hex centre."""

    sections: tuple[SectionParams, ...] = field(default=())

    def section_at(self, x: float, y: float) -> SectionParams | None:
        return next((s for s in self.sections if s.contains(x, y)), None)

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
