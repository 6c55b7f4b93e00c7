"""Location names of any module's maps, as VASSAL computes them (§5-6): boards, edge
buffers, zones, hex and square grids with their numbering, and draw piles.

Read from a module's buildFile; board sizes come from the board images in the .vmod (or
from `board_sizes` when only a build file is at hand).
"""
from __future__ import annotations

import bisect
import io
import math
import zipfile
from collections.abc import Mapping
from pathlib import Path

from builder.vassal.sequence import split

from builder.geometry import javagrid
from builder.geometry.javagrid import GridParams, NumberingParams
from builder.record import FrozenRecord, Record
from validators.vlog.container import ZIP_ERRORS, ZIP_METHODS, LogFormatError

B = "VASSAL.build.module.map.boardPicker."
OFFBOARD = "offboard"
# Bounds on what a build file may say (a hostile one must not make a lookup slow or huge): pixel
# sizes, positions and offsets (real maps are < 50,000 px), the smallest grid cell, the longest
# name or format text, the largest build file in a module.  A value outside gets the default.
LIMIT = 1_000_000
MIN_CELL = 1.0
MAX_TEXT = 256
MAX_BUILD = 64 * 1024 * 1024
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".gif")
# what reading a damaged zip entry can raise: zipfile lets its decompressors' errors through


class ModuleFormatError(LogFormatError):
    """The build file or module cannot be read; the message says why in one line.

    A LogFormatError, so every caller that reports an unreadable input (exit code 2) covers it.
    """


def _b(e, key, default=False) -> bool:
    v = e.get(key)
    return default if v is None else v == "true"


def _i(e, key, default=0, lo=-LIMIT, hi=LIMIT) -> int:
    try:
        v = int(e.get(key, default))
    except ValueError:
        return default
    return v if lo <= v <= hi else default


def _f(e, key, default=0.0, lo=-LIMIT, hi=LIMIT) -> float:
    try:
        v = float(e.get(key, default))
    except ValueError:
        return default
    return v if lo <= v <= hi else default  # NaN compares false: the default


def _s(e, key, default="") -> str:
    v = e.get(key, default)
    return v if len(v) <= MAX_TEXT else default


def _numbering(e) -> tuple[NumberingParams, str]:
    if e is None:
        return NumberingParams(), ""
    n = NumberingParams(e.get("first", "H"), _s(e, "sep"), e.get("hType", "N"), e.get("vType", "N"),
                        _i(e, "hLeading", 1, hi=64), _i(e, "vLeading", 1, hi=64), _i(e, "hOff", 1), _i(e, "vOff", 1),
                        _b(e, "hDescend"), _b(e, "vDescend"), _b(e, "stagger", True))
    return n, _s(e, "locationFormat", "$gridLocation$")


def _fmt(fmt: str, grid_location: str, row: str = "", column: str = "", name: str = "") -> str:
    return (fmt.replace("$gridLocation$", grid_location).replace("$row$", row).replace("$column$", column)
            .replace("$name$", name))


class HexGridSpec(FrozenRecord):
    """A board's hex grid and how its hexes are named."""

    __slots__ = _fields = ("params", "numbering", "fmt")

    def __init__(self, params: GridParams, numbering: NumberingParams | None, fmt: str):
        self._set_fields(params, numbering, fmt)

    def name(self, x: int, y: int, size: tuple[int, int]) -> str | None:
        if self.numbering is None:
            return None
        return _fmt(self.fmt, javagrid.location_name(self.params, self.numbering, size[0], size[1], x, y))


class SquareGridSpec(FrozenRecord):
    """A board's square grid and how its cells are named."""

    __slots__ = _fields = ("dx", "dy", "x0", "y0", "numbering", "fmt")

    def __init__(self, dx: float, dy: float, x0: int, y0: int, numbering: NumberingParams | None, fmt: str):
        self._set_fields(dx, dy, x0, y0, numbering, fmt)

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


class RegionGridSpec(FrozenRecord):
    """A RegionGrid: a point is named after the nearest region (RegionGrid.doSnap; the first of equals)."""

    __slots__ = _fields = ("regions",)

    def __init__(self, regions: tuple[tuple[str, int, int], ...]):
        self._set_fields(regions)

    def name(self, x: int, y: int, size: tuple[int, int]) -> str | None:
        best, out = None, None
        for name, rx, ry in self.regions:
            d = (x - rx) ** 2 + (y - ry) ** 2
            if best is None or d < best:
                best, out = d, name
        return out


class ZoneSpec(FrozenRecord):
    """A zone of a board: its outline and the grid (its own or the board's) that names points in it."""

    _fields = ("name", "polygon", "fmt", "grid", "use_parent")
    __slots__ = (*_fields, "bounds")

    def __init__(self, name: str, polygon: list[tuple[int, int]], fmt: str,
                 grid: HexGridSpec | SquareGridSpec | RegionGridSpec | None, use_parent: bool):
        self._set_fields(name, polygon, fmt, grid, use_parent)
        # (x0, y0, x1, y1): the box polygon_contains first tests a point against, worked out once
        # here rather than at every look-up (a board tries each zone in turn: a set-up of a few
        # hundred pieces tried thousands); not a field (made from `polygon`)
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        object.__setattr__(self, "bounds", (min(xs), min(ys), max(xs), max(ys)) if polygon else (0, 0, 0, 0))

    @property
    def size(self) -> tuple[int, int]:
        xs, ys = [p[0] for p in self.polygon], [p[1] for p in self.polygon]
        return max(xs) - min(xs), max(ys) - min(ys)


class BoardSpec(FrozenRecord):
    """A board: its size, grid and zones; names the location of a point."""

    _fields = ("name", "size", "grid", "zones")
    __slots__ = (*_fields, "_memo")

    def __init__(self, name: str, size: tuple[int, int], grid: HexGridSpec | SquareGridSpec | RegionGridSpec | None,
                 zones: tuple[ZoneSpec, ...] = ()):
        self._set_fields(name, size, grid, zones)
        # location() of points already asked (not a field: neither compared nor pickled): a
        # batch worker keeps it across logs (issue 15); bounded, so a log of endless distinct
        # points cannot grow it without end
        object.__setattr__(self, "_memo", {})

    def location(self, x: int, y: int) -> str | None:
        got = self._memo.get((x, y), self)
        if got is self:
            got = self._location(x, y)
            if len(self._memo) < 100_000:
                self._memo[(x, y)] = got
        return got

    def _location(self, x: int, y: int) -> str | None:
        for z in self.zones:
            x0, y0, x1, y1 = z.bounds  # polygon_contains's own first test, without its work
            if x0 <= x < x1 and y0 <= y < y1 and javagrid.polygon_contains(z.polygon, x, y):
                g = self.grid if z.use_parent else z.grid
                size = self.size if z.use_parent else z.size
                return _fmt(z.fmt, (g.name(x, y, size) or "") if g else "", name=z.name)
        return self.grid.name(x, y, self.size) if self.grid else None


class MapSpec(Record):
    """A map of the module: its boards and where each lies, its decks and layers (a record:
    builder/record.py; the layout it works out takes no part in equality)."""

    _fields = ("name", "edge", "boards", "decks", "placement", "layers")
    __slots__ = (*_fields, "_layout_cache")

    def __init__(self, name: str, edge: tuple[int, int], boards: dict[str, BoardSpec],
                 decks: list[tuple[str, str, int, int]] | None = None, placement: dict[str, tuple[int, int]] | None = None,
                 layers: tuple[str, tuple[str, ...]] | None = None):
        self.name, self.edge, self.boards = name, edge, boards
        self.decks = [] if decks is None else decks  # (name, board, x, y)
        self.placement = {} if placement is None else placement  # board -> (column, row)
        self.layers = layers  # Game Piece Layers: (piece property, layer order)
        self._layout_cache: tuple | None = None

    def origin(self, board: str) -> tuple[int, int]:
        """Top-left of a board: the edge plus the widths of the boards in use left of it in its
        row, and the heights of those above it in its column."""
        _, rows, cols = self._layout()
        col, row = self.placement.get(board, (0, 0))
        return self.edge[0] + _before(rows.get(row), col), self.edge[1] + _before(cols.get(col), row)

    def _layout(self) -> tuple:
        """Boards in use, and per row and per column their sorted positions with running sizes:
        built once per placement, so a lookup costs one pass over the boards, not their square."""
        key = tuple(self.placement.items())
        if self._layout_cache is None or self._layout_cache[0] != key:
            in_use = self._in_use()
            rows: dict[int, list] = {}
            cols: dict[int, list] = {}
            for n in in_use:
                c, r = self.placement.get(n, (0, 0))
                rows.setdefault(r, []).append((c, self.boards[n].size[0]))
                cols.setdefault(c, []).append((r, self.boards[n].size[1]))
            self._layout_cache = (key, in_use, {k: _running(v) for k, v in rows.items()},
                                  {k: _running(v) for k, v in cols.items()})
        return self._layout_cache[1:]

    def location(self, x: int, y: int) -> str:
        """Map.locationName: a deck at the point, else the board's grid name, else offboard."""
        for name, board, dx, dy in self.decks:
            ox, oy = self.origin(board) if board in self.boards else self.edge
            if (ox + dx, oy + dy) == (x, y):
                return name
        for bname in self._layout()[0]:
            b = self.boards[bname]
            ox, oy = self.origin(bname)
            if ox <= x < ox + b.size[0] and oy <= y < oy + b.size[1]:
                return b.location(x - ox, y - oy) or OFFBOARD
        return OFFBOARD

    def _in_use(self) -> list[str]:
        return [n for n in self.boards if n in self.placement] or list(self.boards)[:1]


def _running(items: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    items.sort()
    keys, sums = [k for k, _ in items], [0]
    for _, size in items:
        sums.append(sums[-1] + size)
    return keys, sums


def _before(line: tuple[list[int], list[int]] | None, k: int) -> int:
    """The summed sizes of the boards at positions below k on one row or column."""
    return 0 if line is None else line[1][bisect.bisect_left(line[0], k)]


def _grid(e) -> HexGridSpec | SquareGridSpec | RegionGridSpec | None:
    if e is None:
        return None
    tag = e.tag.rsplit(".", 1)[-1]
    num_el = next((c for c in e if isinstance(c.tag, str) and c.tag.endswith("Numbering")), None)
    n, fmt = _numbering(num_el)
    numbering = n if num_el is not None else None
    if tag == "HexGrid":
        dy = _f(e, "dy", 64.0, MIN_CELL)
        dx = _f(e, "dx", math.sqrt(3) / 2 * dy, MIN_CELL)
        return HexGridSpec(GridParams(dx, dy, _i(e, "x0"), _i(e, "y0"), _b(e, "sideways")), numbering, fmt)
    if tag == "SquareGrid":
        return SquareGridSpec(_f(e, "dx", 48.0, MIN_CELL), _f(e, "dy", 48.0, MIN_CELL), _i(e, "x0"), _i(e, "y0"),
                              numbering, fmt)
    if tag == "RegionGrid":
        return RegionGridSpec(tuple((_s(r, "name"), _i(r, "originx"), _i(r, "originy"))
                                    for r in e if isinstance(r.tag, str) and r.tag.endswith("board.Region")))
    return None


GRIDS = ("HexGrid", "SquareGrid", "RegionGrid")


def _children(e, suffix: str):
    return [c for c in e if isinstance(c.tag, str) and c.tag.endswith(suffix)]


def _board(e, size: tuple[int, int]) -> BoardSpec:
    zoned = _children(e, "board.ZonedGrid")
    if not zoned:
        grids = [c for c in e if isinstance(c.tag, str) and c.tag.endswith(GRIDS)]
        return BoardSpec(e.get("name", ""), size, _grid(grids[0] if grids else None))
    z = zoned[0]
    background = next((c for c in z if isinstance(c.tag, str) and c.tag.endswith(GRIDS)), None)
    zones = []
    for ze in _children(z, "mapgrid.Zone"):
        pts = []
        for pair in (ze.get("path") or "").split(";"):
            if "," in pair:
                a, b = pair.split(",", 1)
                try:
                    pt = (int(a), int(b))
                except ValueError:  # a broken point is left out, as a broken number elsewhere
                    continue
                if -LIMIT <= pt[0] <= LIMIT and -LIMIT <= pt[1] <= LIMIT:
                    pts.append(pt)
        grids = [c for c in ze if isinstance(c.tag, str) and c.tag.endswith(GRIDS)]
        if pts:
            zones.append(ZoneSpec(_s(ze, "name"), pts, _s(ze, "locationFormat", "$name$"),
                                  _grid(grids[0] if grids else None), _b(ze, "useParentGrid")))
    return BoardSpec(e.get("name", ""), size, _grid(background), tuple(zones))


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _size(size) -> tuple[int, int] | None:
    w, h = size
    return (w, h) if 0 <= w <= LIMIT and 0 <= h <= LIMIT else None


def _image_size(images: Mapping, key: str) -> tuple[int, int] | None:
    """Width and height from an image's header; None when it cannot be read (the Board's
    width/height attributes are used then).  Only the header is read, never the pixels."""
    from PIL import Image

    try:
        src = images[key]
        with io.BytesIO(src) if isinstance(src, (bytes, bytearray)) else src as fp, Image.open(fp) as im:
            return _size(im.size)
    except (SyntaxError, Image.DecompressionBombError, *ZIP_ERRORS):  # OSError covers PIL's own
        return None


def read_module_grids(build_xml: bytes, images: Mapping[str, bytes] | None = None,
                      board_sizes: dict[str, tuple[int, int]] | None = None) -> dict[str, MapSpec]:
    """Map name -> MapSpec for every Map (and private map) in a build file.

    Raises ModuleFormatError when the build file is not well-formed XML.  Entities are never
    expanded from outside (no XXE) and libxml2 refuses entity blow-ups.
    """
    from lxml import etree  # here, not at the top: an audit takes its grids from the model cache

    try:
        root = etree.fromstring(build_xml, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise ModuleFormatError(f"build file is not well-formed XML ({_one_line(exc)})") from None
    maps: dict[str, MapSpec] = {}
    seen: dict[str, tuple[int, int] | None] = {}  # image -> size, each image read once
    for m in root.iter():
        if not isinstance(m.tag, str) or not m.tag.endswith(("module.Map", "module.PrivateMap", "module.PlayerHand")):
            continue
        boards = {}
        for be in m.iter(B + "Board"):
            name = be.get("name", "")
            size = (board_sizes or {}).get(name)
            size = _size(size) if size is not None else None
            image = be.get("image")
            if size is None and images and image and f"images/{image}" in images:
                key = f"images/{image}"
                if key not in seen:
                    seen[key] = _image_size(images, key)
                size = seen[key]
            if size is None:
                size = (_i(be, "width", 0, 0), _i(be, "height", 0, 0))
            boards[name] = _board(be, size)
        decks = [(d.get("name", ""), d.get("owningBoard", ""), _i(d, "x"), _i(d, "y"))
                 for d in m.iter("VASSAL.build.module.map.DrawPile")]
        lpc = next((e for e in m.iter() if isinstance(e.tag, str) and e.tag.endswith("map.LayeredPieceCollection")), None)
        layers = None if lpc is None else (lpc.get("property", ""), tuple(x for x in split(lpc.get("layerOrder", ""), ",") if x))
        maps[m.get("mapName", "")] = MapSpec(m.get("mapName", ""), (_i(m, "edgeWidth"), _i(m, "edgeHeight")), boards, decks,
                                             layers=layers)
    return maps


class _ZipImages(Mapping):
    """A module's board images, each opened as a stream only when a board asks for its size."""

    def __init__(self, z: zipfile.ZipFile):
        self._z = z
        self._infos = {i.filename: i for i in z.infolist()
                       if i.filename.startswith("images/") and i.filename.lower().endswith(IMAGE_TYPES)}

    def __getitem__(self, name: str):
        info = self._infos[name]
        if info.flag_bits & 0x1 or info.compress_type not in ZIP_METHODS:
            raise OSError("encrypted, or a compression method VASSAL does not read")
        return self._z.open(info)

    def __contains__(self, name) -> bool:
        return name in self._infos

    def __iter__(self):
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


def read_vmod_grids(path: Path) -> dict[str, MapSpec]:
    """The maps of a .vmod.  Raises ModuleFormatError (one line) when it is not a readable module."""
    try:
        z = zipfile.ZipFile(path)
    except ZIP_ERRORS as exc:
        raise ModuleFormatError(f"{path}: not a readable module ({_one_line(exc)})") from None
    with z:
        names = z.namelist()
        name = "buildFile.xml" if "buildFile.xml" in names else "buildFile"
        if name not in names:
            raise ModuleFormatError(f"{path}: no buildFile.xml in the module")
        info = z.getinfo(name)
        if info.flag_bits & 0x1:
            raise ModuleFormatError(f"{path}: {name} is encrypted")
        if info.compress_type not in ZIP_METHODS:
            raise ModuleFormatError(f"{path}: broken {name} entry (zip compression method {info.compress_type}, "
                                    "not one VASSAL reads: stored, deflated)")
        if info.file_size > MAX_BUILD:
            raise ModuleFormatError(f"{path}: {name} declares {info.file_size} bytes (limit {MAX_BUILD}): refused")
        try:
            with z.open(info) as f:
                build = f.read(MAX_BUILD + 1)
        except ZIP_ERRORS as exc:
            raise ModuleFormatError(f"{path}: broken {name} entry ({_one_line(exc)})") from None
        if len(build) > MAX_BUILD:
            raise ModuleFormatError(f"{path}: {name} inflates past {MAX_BUILD} bytes: refused")
        try:
            return read_module_grids(build, _ZipImages(z))
        except ModuleFormatError as exc:
            raise ModuleFormatError(f"{path}: {exc}") from None
