"""Location names of any module's maps, as VASSAL computes them (§5-6): boards, edge
buffers, zones, hex and square grids with their numbering, and draw piles.

Read from a module's buildFile; board sizes come from the board images in the .vmod (or
from `board_sizes` when only a build file is at hand).
"""
from __future__ import annotations

import io
import math
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from builder.geometry import javagrid
from builder.geometry.javagrid import GridParams, NumberingParams

B = "VASSAL.build.module.map.boardPicker."
OFFBOARD = "offboard"


def _b(e, key, default=False) -> bool:
    v = e.get(key)
    return default if v is None else v == "true"


def _i(e, key, default=0) -> int:
    try:
        return int(e.get(key, default))
    except ValueError:
        return default


def _f(e, key, default=0.0) -> float:
    try:
        return float(e.get(key, default))
    except ValueError:
        return default


def _numbering(e) -> tuple[NumberingParams, str]:
    if e is None:
        return NumberingParams(), ""
    n = NumberingParams(e.get("first", "H"), e.get("sep", ""), e.get("hType", "N"), e.get("vType", "N"),
                        _i(e, "hLeading", 1), _i(e, "vLeading", 1), _i(e, "hOff", 1), _i(e, "vOff", 1),
                        _b(e, "hDescend"), _b(e, "vDescend"), _b(e, "stagger", True))
    return n, e.get("locationFormat", "$gridLocation$")


def _fmt(fmt: str, grid_location: str, row: str = "", column: str = "", name: str = "") -> str:
    return (fmt.replace("$gridLocation$", grid_location).replace("$row$", row).replace("$column$", column)
            .replace("$name$", name))


@dataclass(frozen=True)
class HexGridSpec:
    params: GridParams
    numbering: NumberingParams | None
    fmt: str

    def name(self, x: int, y: int, size: tuple[int, int]) -> str | None:
        if self.numbering is None:
            return None
        return _fmt(self.fmt, javagrid.location_name(self.params, self.numbering, size[0], size[1], x, y))


@dataclass(frozen=True)
class SquareGridSpec:
    dx: float
    dy: float
    x0: int
    y0: int
    numbering: NumberingParams | None
    fmt: str

    def name(self, x: int, y: int, size: tuple[int, int]) -> str | None:
        n = self.numbering
        if n is None:
            return None
        col = math.floor((x - self.x0) / self.dx + 0.5)
        row = int((y - self.y0) / self.dy + 0.5)
        if n.h_descend:
            col = int(size[0] / self.dx + 0.5) - col
        if n.v_descend:
            row = int(size[1] / self.dy + 0.5) - row
        r = javagrid._part_name(row + n.v_off, n.v_type, n.v_leading)
        c = javagrid._part_name(col + n.h_off, n.h_type, n.h_leading)
        loc = c + n.sep + r if n.first == "H" else r + n.sep + c
        return _fmt(self.fmt, loc, r, c)


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    polygon: list[tuple[int, int]]
    fmt: str
    grid: HexGridSpec | SquareGridSpec | None
    use_parent: bool

    @property
    def size(self) -> tuple[int, int]:
        xs, ys = [p[0] for p in self.polygon], [p[1] for p in self.polygon]
        return max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True)
class BoardSpec:
    name: str
    size: tuple[int, int]
    grid: HexGridSpec | SquareGridSpec | None
    zones: tuple[ZoneSpec, ...] = ()

    def location(self, x: int, y: int) -> str | None:
        for z in self.zones:
            if javagrid.polygon_contains(z.polygon, x, y):
                g = self.grid if z.use_parent else z.grid
                size = self.size if z.use_parent else z.size
                return _fmt(z.fmt, (g.name(x, y, size) or "") if g else "", name=z.name)
        return self.grid.name(x, y, self.size) if self.grid else None


@dataclass
class MapSpec:
    name: str
    edge: tuple[int, int]
    boards: dict[str, BoardSpec]
    decks: list[tuple[str, str, int, int]] = field(default_factory=list)  # name, board, x, y
    placement: dict[str, tuple[int, int]] = field(default_factory=dict)  # board -> (column, row)

    def origin(self, board: str) -> tuple[int, int]:
        col, row = self.placement.get(board, (0, 0))
        at = {n: self.placement.get(n, (0, 0)) for n in self._in_use()}
        x = self.edge[0] + sum(self.boards[n].size[0] for n, (c, r) in at.items() if r == row and c < col)
        y = self.edge[1] + sum(self.boards[n].size[1] for n, (c, r) in at.items() if c == col and r < row)
        return x, y

    def location(self, x: int, y: int) -> str:
        """Map.locationName: a deck at the point, else the board's grid name, else offboard."""
        for name, board, dx, dy in self.decks:
            ox, oy = self.origin(board) if board in self.boards else self.edge
            if (ox + dx, oy + dy) == (x, y):
                return name
        for bname in self._in_use():
            b = self.boards[bname]
            ox, oy = self.origin(bname)
            if ox <= x < ox + b.size[0] and oy <= y < oy + b.size[1]:
                return b.location(x - ox, y - oy) or OFFBOARD
        return OFFBOARD

    def _in_use(self) -> list[str]:
        return [n for n in self.boards if n in self.placement] or list(self.boards)[:1]


def _grid(e) -> HexGridSpec | SquareGridSpec | None:
    if e is None:
        return None
    tag = e.tag.rsplit(".", 1)[-1]
    num_el = next((c for c in e if isinstance(c.tag, str) and c.tag.endswith("Numbering")), None)
    n, fmt = _numbering(num_el)
    numbering = n if num_el is not None else None
    if tag == "HexGrid":
        dy = _f(e, "dy", 64.0)
        dx = _f(e, "dx", math.sqrt(3) / 2 * dy)
        return HexGridSpec(GridParams(dx, dy, _i(e, "x0"), _i(e, "y0"), _b(e, "sideways")), numbering, fmt)
    if tag == "SquareGrid":
        return SquareGridSpec(_f(e, "dx", 48.0), _f(e, "dy", 48.0), _i(e, "x0"), _i(e, "y0"), numbering, fmt)
    return None


def _children(e, suffix: str):
    return [c for c in e if isinstance(c.tag, str) and c.tag.endswith(suffix)]


def _board(e, size: tuple[int, int]) -> BoardSpec:
    zoned = _children(e, "board.ZonedGrid")
    if not zoned:
        grids = [c for c in e if isinstance(c.tag, str) and c.tag.endswith(("HexGrid", "SquareGrid"))]
        return BoardSpec(e.get("name", ""), size, _grid(grids[0] if grids else None))
    z = zoned[0]
    background = next((c for c in z if isinstance(c.tag, str) and c.tag.endswith(("HexGrid", "SquareGrid"))), None)
    zones = []
    for ze in _children(z, "mapgrid.Zone"):
        pts = []
        for pair in (ze.get("path") or "").split(";"):
            if "," in pair:
                a, b = pair.split(",", 1)
                pts.append((int(a), int(b)))
        grids = [c for c in ze if isinstance(c.tag, str) and c.tag.endswith(("HexGrid", "SquareGrid"))]
        if pts:
            zones.append(ZoneSpec(ze.get("name", ""), pts, ze.get("locationFormat", "$name$"),
                                  _grid(grids[0] if grids else None), _b(ze, "useParentGrid")))
    return BoardSpec(e.get("name", ""), size, _grid(background), tuple(zones))


def read_module_grids(build_xml: bytes, images: dict[str, bytes] | None = None,
                      board_sizes: dict[str, tuple[int, int]] | None = None) -> dict[str, MapSpec]:
    """Map name -> MapSpec for every Map (and private map) in a build file."""
    from PIL import Image

    root = etree.fromstring(build_xml, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
    maps: dict[str, MapSpec] = {}
    for m in root.iter():
        if not isinstance(m.tag, str) or not m.tag.endswith(("module.Map", "module.PrivateMap", "module.PlayerHand")):
            continue
        boards = {}
        for be in m.iter(B + "Board"):
            name = be.get("name", "")
            size = (board_sizes or {}).get(name)
            image = be.get("image")
            if size is None and images and image and f"images/{image}" in images:
                with Image.open(io.BytesIO(images[f"images/{image}"])) as im:
                    size = im.size
            if size is None:
                size = (_i(be, "width"), _i(be, "height"))
            boards[name] = _board(be, size)
        decks = [(d.get("name", ""), d.get("owningBoard", ""), _i(d, "x"), _i(d, "y"))
                 for d in m.iter("VASSAL.build.module.map.DrawPile")]
        maps[m.get("mapName", "")] = MapSpec(m.get("mapName", ""), (_i(m, "edgeWidth"), _i(m, "edgeHeight")), boards, decks)
    return maps


def read_vmod_grids(path: Path) -> dict[str, MapSpec]:
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        build = z.read("buildFile.xml" if "buildFile.xml" in names else "buildFile")
        images = {n: z.read(n) for n in names if n.startswith("images/") and z.getinfo(n).file_size < 64_000_000
                  and n.lower().endswith((".png", ".jpg", ".jpeg", ".gif"))}
    return read_module_grids(build, images)
