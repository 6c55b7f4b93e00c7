"""The hexes of one board: labels, pixel centres, neighbours, outlines and hexsides.

Built from VASSAL's own grid parameters, so the label of every hex is by construction the
location name VASSAL shows (see `javagrid`).  Labels are the identity used everywhere else
(sources, rules, reports): they are what the rulebook prints.
"""
from __future__ import annotations

import math
from functools import cached_property

from builder.geometry import javagrid
from builder.geometry.javagrid import GridParams, NumberingParams
from builder.record import FrozenRecord

# Neighbour offsets of raw cells (column-major, odd columns shifted down: "odd-q").
_EVEN_COL = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
_ODD_COL = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))


class Hexside(FrozenRecord):
    """The edge shared by two adjacent hexes, as a segment in board pixels."""

    __slots__ = _fields = ("a", "b", "p1", "p2")

    def __init__(self, a: str, b: str, p1: tuple[float, float], p2: tuple[float, float]):
        self._set_fields(a, b, p1, p2)

    @property
    def key(self) -> tuple[str, str]:
        return hexside_key(self.a, self.b)


def hexside_key(a: str, b: str) -> tuple[str, str]:
    """A hexside's order-free identity."""
    return (a, b) if a <= b else (b, a)


class HexMap(FrozenRecord):
    """Every hex whose outline lies inside `area` (x, y, w, h) of a board of `board` size."""

    _fields = ("grid", "numbering", "board", "area")
    __slots__ = (*_fields, "__dict__")  # __dict__: the cached properties

    def __init__(self, grid: GridParams, numbering: NumberingParams, board: tuple[int, int],
                 area: tuple[int, int, int, int]):
        self._set_fields(grid, numbering, board, area)

    # -- construction -------------------------------------------------------------------
    @cached_property
    def _cells(self) -> dict[str, tuple[int, int]]:
        """label -> raw (col, row) for every hex inside the area."""
        g = self.grid
        ax, ay, aw, ah = self.area
        span_c = (ah if g.sideways else aw) / g.dx + 2
        span_r = (aw if g.sideways else ah) / g.dy + 2
        cells: dict[str, tuple[int, int]] = {}
        for nx in range(-2, int(span_c) + int((ay if g.sideways else ax) / g.dx) + 3):
            for ny in range(-2, int(span_r) + int((ax if g.sideways else ay) / g.dy) + 3):
                if not self._inside(nx, ny):
                    continue
                label = self.label_at(*javagrid.raw_centre(g, nx, ny))
                if label in cells:
                    raise ValueError(f"grid numbering gives two hexes the label {label}")
                cells[label] = (nx, ny)
        return cells

    def _inside(self, nx: int, ny: int) -> bool:
        ax, ay, aw, ah = self.area
        return all(ax <= x <= ax + aw and ay <= y <= ay + ah for x, y in self._outline_raw(nx, ny))

    @cached_property
    def _raw_to_label(self) -> dict[tuple[int, int], str]:
        return {raw: label for label, raw in self._cells.items()}

    # -- queries --------------------------------------------------------------------------
    @property
    def labels(self) -> list[str]:
        """All hex labels, sorted."""
        return sorted(self._cells)

    def __contains__(self, label: object) -> bool:
        return label in self._cells

    @cached_property
    def ids(self) -> frozenset[str]:
        """Every id `in` accepts, as a set: a membership test without a call (an audit asks it
        at every move)."""
        return frozenset(self._cells)

    def canonical(self, label: str) -> str:
        """The label of the hex an id names (a map of sections may give a hex two ids)."""
        return label

    def centre(self, label: str) -> tuple[int, int]:
        """The pixel VASSAL snaps this hex to (board-local)."""
        return javagrid.raw_centre(self.grid, *self._cells[label])

    def label_at(self, x: float, y: float) -> str:
        """VASSAL's location name of a board point (not snapped, as VASSAL does)."""
        w, h = self.board
        return javagrid.location_name(self.grid, self.numbering, w, h, x, y)

    def snap(self, x: float, y: float) -> tuple[int, int]:
        """The hex centre a piece dropped at (x, y) lands on."""
        return javagrid.snap(self.grid, x, y)

    def neighbours(self, label: str) -> list[str]:
        """Adjacent hexes on this map, in a fixed order."""
        return list(self._near(label))

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._near(a)

    @cached_property
    def _adjacency(self) -> dict[str, tuple[str, ...]]:
        """label -> its neighbours, filled as asked: an audit's path searches ask the same hexes
        thousands of times (issue 15)."""
        return {}

    def _near(self, label: str) -> tuple[str, ...]:
        found = self._adjacency.get(label)
        if found is None:
            nx, ny = self._cells[label]
            offsets = _ODD_COL if nx % 2 else _EVEN_COL
            raw = self._raw_to_label
            found = self._adjacency[label] = tuple(raw[(nx + ox, ny + oy)] for ox, oy in offsets
                                                   if (nx + ox, ny + oy) in raw)
        return found

    def distance(self, a: str, b: str) -> int:
        """Hex distance in steps (cube coordinates)."""
        (q1, r1), (q2, r2) = (self._axial(a), self._axial(b))
        return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2

    def _axial(self, label: str) -> tuple[int, int]:
        nx, ny = self._cells[label]
        return nx, ny - (nx - (nx & 1)) // 2

    # -- drawing --------------------------------------------------------------------------
    def _ideal_centre_raw(self, nx: int, ny: int) -> tuple[float, float]:
        """Un-truncated centre in the grid's own (un-rotated) frame."""
        g = self.grid
        return g.dx * nx + g.x0, g.dy * ny + (g.dy / 2 if nx % 2 else 0) + g.y0

    def _outline_raw(self, nx: int, ny: int) -> list[tuple[float, float]]:
        cx, cy = self._ideal_centre_raw(nx, ny)
        r, h = 2 * self.grid.dx / 3, self.grid.dy / 2
        pts = [(cx - r, cy), (cx - r / 2, cy - h), (cx + r / 2, cy - h),
               (cx + r, cy), (cx + r / 2, cy + h), (cx - r / 2, cy + h)]
        return [(y, x) for x, y in pts] if self.grid.sideways else pts

    def outline(self, label: str) -> list[tuple[float, float]]:
        """The six corners of a hex in board pixels (ideal, un-truncated lattice)."""
        return self._outline_raw(*self._cells[label])

    def ideal_centre(self, label: str) -> tuple[float, float]:
        x, y = self._ideal_centre_raw(*self._cells[label])
        return (y, x) if self.grid.sideways else (x, y)

    def hexside(self, a: str, b: str) -> Hexside:
        """The shared edge of two adjacent hexes."""
        if not self.adjacent(a, b):
            raise ValueError(f"{a} and {b} are not adjacent")
        (ax, ay), (bx, by) = self.ideal_centre(a), self.ideal_centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay)
        half = self.grid.dx / 3  # half a side: side = R = 2 dx / 3
        px, py = -(by - ay) / length * half, (bx - ax) / length * half
        return Hexside(a, b, (mx - px, my - py), (mx + px, my + py))

    # -- drawing sections placed apart (sections.PlacedHexMap): one board, one lattice here -------
    @property
    def lattice_view(self) -> "HexMap":
        """The map as the game's lattice lays it out (where a map's sections are drawn apart,
        the lattice keeps them where the rules count hexes: fit-map works there)."""
        return self

    def joined(self, a: str, b: str) -> bool:
        """Whether two hexes are drawn side by side as they lie in the lattice."""
        return True

    def hexside_drawn(self, a: str, b: str) -> list[tuple[Hexside, tuple[float, float]]]:
        """The hexside of a and b as drawn, each with a's centre on its side (a cliff faces it):
        one, or one beside each hex where the two hexes' sections are drawn apart."""
        return [(self.hexside(a, b), self.ideal_centre(a))]

    def link(self, a: str, b: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The segments that draw a road or track from a's centre to b's: one, or a half from
        each centre toward the other where the two hexes' sections are drawn apart."""
        return [(self.ideal_centre(a), self.ideal_centre(b))]

    def hexsides(self) -> list[Hexside]:
        """Every hexside between two hexes of the map, each once."""
        out = []
        for a in self.labels:
            out.extend(self.hexside(a, b) for b in self.neighbours(a) if a < b)
        return out
