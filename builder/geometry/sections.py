"""A board whose map sections each carry their own hex ids ("C2331", "W2104").

Desert Fox Deluxe prints six maps, each numbered on its own with the map letter in front
(2.2.2).  The module draws them on one board: each section is a VASSAL Zone with its own copy
of the board's grid (same lattice, so hexes of two sections are neighbours across the seam)
and its own numbering offsets; the zone writes the letter in front of the grid location.
VASSAL names a point by the first zone in document order that holds it (ZonedGrid), and a
zone's descending numbering counts from the zone's own bounding box (Zone.getSize).
"""
from __future__ import annotations

from functools import cached_property

from builder.geometry import javagrid
from builder.geometry.hexmap import HexMap, Hexside
from builder.geometry.javagrid import GridParams, NumberingParams
from builder.record import FrozenRecord


class SectionParams(FrozenRecord):
    """One map section: its hex ids' prefix, its zone's rectangle (x, y, w, h), its numbering."""

    __slots__ = _fields = ("prefix", "area", "numbering")

    def __init__(self, prefix: str, area: tuple[int, int, int, int], numbering: NumberingParams):
        self._set_fields(prefix, area, numbering)

    @property
    def polygon(self) -> list[tuple[int, int]]:
        x, y, w, h = self.area
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]

    def contains(self, x: float, y: float) -> bool:
        return javagrid.polygon_contains(self.polygon, x, y)


class SectionedHexMap(HexMap):
    """A HexMap whose labels come from the section (zone) holding each hex centre.

    Only hexes inside a section exist (the board between staggered maps is empty).  Where two
    sections overlap (the printed maps overlap by a column, 2.2.1: S34 = C01) a hex has one
    label, the first section's as VASSAL names it, and an alias in each later section holding
    it: VASSAL's getLocation of the alias (Send-To-Location, a set-up by hex id) reaches the
    same hex, so sources may use either id the rulebook prints."""

    __slots__ = ("sections",)
    _fields = (*HexMap._fields, "sections")

    def __init__(self, grid: GridParams, numbering: NumberingParams, board: tuple[int, int],
                 area: tuple[int, int, int, int], sections: tuple[SectionParams, ...] = ()):
        self._set_fields(grid, numbering, board, area, sections)

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


def lattice_shift(grid: javagrid.GridParams, move_x: int, move_y: int) -> tuple[int, int] | None:
    """The raw (column, row) shift a move of (move_x, move_y) board pixels makes, or None when the
    move is not one of the lattice (it would put hexes between the grid's own, or turn the stagger
    of every other column: columns move in pairs)."""
    col_px, row_px = (move_y, move_x) if grid.sideways else (move_x, move_y)  # raw columns are dx apart
    cols, rows = col_px / grid.dx, row_px / grid.dy
    if cols != int(cols) or int(cols) % 2 or rows != int(rows):
        return None
    return int(cols), int(rows)


def zone_numbering(lattice: SectionedHexMap, section: SectionParams, area: tuple[int, int, int, int],
                   shift: tuple[int, int]) -> javagrid.NumberingParams:
    """The numbering of a section's zone drawn at `area`, its hexes moved by `shift` (raw), that
    names each of them as the lattice does (VASSAL counts a zone's descending numbering from its
    own size, and ascending from the board's origin)."""
    g, n = lattice.grid, section.numbering
    first = next((h for h in lattice.labels if lattice.section_at(*lattice.centre(h)) is section), None)
    if first is None:
        return n
    lc, lr = lattice._cells[first]
    x, y = javagrid.raw_centre(g, lc + shift[0], lr + shift[1])
    zero = n.replace(h_off=0, v_off=0)
    c0, r0 = javagrid.numbered_cell(zero, javagrid.location_name(g, zero, area[2], area[3], x, y))
    c1, r1 = javagrid.numbered_cell(zero, first[len(section.prefix):])
    return n.replace(h_off=c1 - c0, v_off=r1 - r0)


class PlacedHexMap(SectionedHexMap):
    """Sections drawn on the board apart from where they lie in the game's lattice (issue 35:
    Desert Fox's six maps packed on a compact board instead of the staircase of the coast).

    `lattice` is the map as the game counts it: every section at its `area` in one hex lattice,
    so hexes of neighbouring maps are neighbours there (L16 north of S15, S34 = C01).  Each
    section is drawn moved by a whole number of hexes (`shifts`: prefix, raw column and row
    shift); `sections` are the board's zones (moved, cut where another section draws the hexes
    they share), with the numbering that gives every hex its id there.  Ids, aliases, neighbours
    and distances are the lattice's; centres, outlines and VASSAL's names are the board's."""

    __slots__ = ("lattice", "shifts")
    _fields = (*SectionedHexMap._fields, "lattice", "shifts")

    def __init__(self, grid: GridParams, numbering: NumberingParams, board: tuple[int, int],
                 area: tuple[int, int, int, int], sections: tuple[SectionParams, ...] = (),
                 lattice: SectionedHexMap | None = None, shifts: tuple[tuple[str, int, int], ...] = ()):
        self._set_fields(grid, numbering, board, area, sections, lattice, shifts)

    @cached_property
    def _shift(self) -> dict[str, tuple[int, int]]:
        return {p: (c, r) for p, c, r in self.shifts}

    @cached_property
    def _section_of(self) -> dict[str, str]:
        """label -> the prefix of the section that holds it in the lattice."""
        lat = self.lattice
        return {label: lat.section_at(*javagrid.raw_centre(self.grid, *raw)).prefix for label, raw in lat._cells.items()}

    @cached_property
    def _cells(self) -> dict[str, tuple[int, int]]:
        out = {}
        for label, (nx, ny) in self.lattice._cells.items():
            dc, dr = self._shift.get(self._section_of[label], (0, 0))
            out[label] = (nx + dc, ny + dr)
        return out

    @cached_property
    def aliases(self) -> dict[str, str]:
        return self.lattice.aliases

    def _near(self, label: str) -> tuple[str, ...]:
        return self.lattice._near(label)

    def _axial(self, label: str) -> tuple[int, int]:
        return self.lattice._axial(self.canonical(label))

    @property
    def lattice_view(self) -> HexMap:
        return self.lattice

    def offset(self, label: str) -> tuple[float, float]:
        """How far the hex is drawn from its place in the lattice (board pixels)."""
        (bx, by), (lx, ly) = self.ideal_centre(label), self.lattice.ideal_centre(self.canonical(label))
        return bx - lx, by - ly

    def joined(self, a: str, b: str) -> bool:
        return self.offset(a) == self.offset(b)

    def _toward(self, a: str, b: str) -> tuple[float, float]:
        """b's centre as seen from a's section: where b would be drawn if it moved with a."""
        (ox, oy), (x, y) = self.offset(a), self.lattice.ideal_centre(self.canonical(b))
        return x + ox, y + oy

    def hexside(self, a: str, b: str) -> Hexside:
        """The shared edge, drawn on a's side (the hexsides of two sections drawn apart are
        drawn once on each: `hexside_drawn`)."""
        if self.joined(a, b):
            return super().hexside(a, b)
        side, (ox, oy) = self.lattice.hexside(self.canonical(a), self.canonical(b)), self.offset(a)
        return Hexside(a, b, (side.p1[0] + ox, side.p1[1] + oy), (side.p2[0] + ox, side.p2[1] + oy))

    def hexside_drawn(self, a: str, b: str) -> list[tuple[Hexside, tuple[float, float]]]:
        if self.joined(a, b):
            return super().hexside_drawn(a, b)
        mine, theirs = self.hexside(a, b), self.hexside(b, a)
        return [(mine, self.ideal_centre(a)), (Hexside(a, b, theirs.p1, theirs.p2), self._toward(b, a))]

    def misnamed(self) -> list[tuple[str, str]]:
        """(label, the name the board gives its centre) for every hex drawn where another zone
        names it (a section drawn over another)."""
        return [(h, self.label_at(*self.centre(h))) for h in self.labels if self.label_at(*self.centre(h)) != h]

    def stray_points(self, zone: SectionParams) -> list[str]:
        """The names a zone gives hex centres of the board where none of its hexes is drawn (hexes
        its map shares with another, drawn there, or none), sorted: VASSAL would name a piece
        dropped there by an id that stands for a hex elsewhere."""
        x, y, w, h = zone.area
        g = self.grid
        (c0, cw), (r0, rw) = ((y, h), (x, w)) if g.sideways else ((x, w), (y, h))
        cells, out = self._raw_to_label, []
        for nx in range(int((c0 - g.x0) / g.dx) - 2, int((c0 + cw - g.x0) / g.dx) + 3):
            for ny in range(int((r0 - g.y0) / g.dy) - 2, int((r0 + rw - g.y0) / g.dy) + 3):
                p = javagrid.raw_centre(g, nx, ny)
                if (nx, ny) not in cells and self.section_at(*p) is zone:
                    out.append(self.label_at(*p))
        return sorted(out)

    def link(self, a: str, b: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        if self.joined(a, b):
            return super().link(a, b)
        out = []
        for p, q in ((a, b), (b, a)):
            (px, py), (qx, qy) = self.ideal_centre(p), self._toward(p, q)
            out.append(((px, py), ((px + qx) / 2, (py + qy) / 2)))
        return out
