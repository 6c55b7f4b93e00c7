"""What a module's build file declares that a game's sources can carry: its maps with their
boards, grids and zones, the roster's sides, every piece slot and the predefined setups.

Numbers are read with bounds (a hostile value is a reason to refuse, never a crash); the XML
is parsed without DTDs or entities from outside.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from builder.geometry.javagrid import GridParams, NumberingParams, _part_name
from builder.importer.archive import MAX_BUILD, MAX_IMAGE, ImportFailed, ModuleArchive
from builder.vassal.pieces import PieceTooDeep, Trait, unchain
from builder.vassal.sequence import split

LIMIT = 1_000_000  # largest coordinate or size we believe
SQUARE = "square"  # a board or zone whose grid our hex maps cannot carry


@dataclass(frozen=True)
class HexGridInfo:
    grid: GridParams
    numbering: NumberingParams
    fmt: str  # the numbering's locationFormat
    numbered: bool = True  # False: the grid has no numbering (VASSAL names none of its points)


@dataclass(frozen=True)
class SquareGridInfo:
    """A SquareGrid: cells of dx x dy from (x0, y0), named by its numbering (a zone's boxes)."""

    dx: float
    dy: float
    x0: int
    y0: int
    numbering: NumberingParams
    fmt: str

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """(column, row) of a point, as VASSAL's SquareGrid rounds it."""
        return math.floor((x - self.x0) / self.dx + 0.5), int((y - self.y0) / self.dy + 0.5)

    def name(self, col: int, row: int, size: tuple[int, int]) -> tuple[str, str, str]:
        """(grid location, row name, column name) of a cell; `size` is its container's."""
        n = self.numbering
        if n.h_descend:
            col = int(size[0] / self.dx + 0.5) - col
        if n.v_descend:
            row = int(size[1] / self.dy + 0.5) - row
        r = _part_name(row + n.v_off, n.v_type, n.v_leading)
        c = _part_name(col + n.h_off, n.h_type, n.h_leading)
        return (c + n.sep + r if n.first == "H" else r + n.sep + c), r, c


@dataclass(frozen=True)
class RegionGridInfo:
    """A RegionGrid: named points (a point of the board is named after the nearest)."""

    regions: tuple[tuple[str, int, int], ...]
    fmt: str = "$gridLocation$"


@dataclass(frozen=True)
class ZoneInfo:
    name: str
    fmt: str
    polygon: list[tuple[int, int]]
    grid: HexGridInfo | SquareGridInfo | RegionGridInfo | str | None  # None: the zone's own name
    parent_grid: bool = False

    @property
    def bbox(self) -> tuple[int, int, int, int]:
        xs, ys = [p[0] for p in self.polygon], [p[1] for p in self.polygon]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True)
class BoardInfo:
    name: str
    image: str | None
    size: tuple[int, int] | None
    colour: str
    grid: HexGridInfo | str | None
    zones: list[ZoneInfo] = field(default_factory=list)


@dataclass(frozen=True)
class MapInfo:
    name: str
    boards: list[BoardInfo]


@dataclass(frozen=True)
class SlotInfo:
    name: str
    gpid: str
    traits: list[Trait]
    context: list[str]  # the palette widgets it sits in and the prototypes it uses (a side may be named there)

    @property
    def image(self) -> str:
        f = self.traits[-1].fields
        return f[2] if len(f) > 2 else ""

    @property
    def basic_name(self) -> str:
        f = self.traits[-1].fields
        return f[3] if len(f) > 3 else ""


@dataclass(frozen=True)
class SetupInfo:
    name: str
    file: str | None  # None: a setup that starts from nothing (useFile false) or a menu


@dataclass(frozen=True)
class DeckInfo:
    """A DrawPile: its map, name, centre and size on its board, and the gpids of the slots it starts with."""

    map: str
    name: str
    board: str
    x: int
    y: int
    width: int
    height: int
    shuffle: bool
    gpids: tuple[str, ...]


@dataclass
class ModuleInfo:
    title: str
    version: str
    sides: list[str]
    maps: list[MapInfo]
    slots: list[SlotInfo]
    setups: list[SetupInfo]
    prototypes: dict[str, list[Trait]]
    skipped: list[str] = field(default_factory=list)  # what was read but cannot be carried, with why
    decks: list[DeckInfo] = field(default_factory=list)


def piece_traits(text: str, where: str) -> list[Trait] | None:
    """The traits of an AddPiece text `+/id/type/state` (a palette slot, a prototype, a saved
    piece), outermost first; None when the text is no AddPiece.  A hostile nesting: ImportFailed."""
    if not text.startswith("+/"):
        return None
    parts = split(text[2:], "/")
    try:
        return unchain(parts[1], parts[2] if len(parts) > 2 else "") if len(parts) > 1 else []
    except PieceTooDeep as exc:
        raise ImportFailed(f"{where}: {exc}") from None


def _tag(e) -> str:
    return e.tag if isinstance(e.tag, str) else ""


def _children(e, suffix: str):
    return [c for c in e if _tag(c).endswith(suffix)]


def _num(e, key: str, default: float, lo: float = -LIMIT, hi: float = LIMIT) -> float:
    raw = e.get(key)
    try:
        v = float(raw) if raw not in (None, "") else default
    except ValueError:
        raise ImportFailed(f"{_tag(e).rsplit('.', 1)[-1]} {key}={raw[:40]!r} is not a number") from None
    if not (lo <= v <= hi) or math.isnan(v):
        raise ImportFailed(f"{_tag(e).rsplit('.', 1)[-1]} {key}={raw[:40]!r} is out of range ({lo} to {hi})")
    return v


def _bool(e, key: str) -> bool:
    return (e.get(key) or "").strip().lower() == "true"


def _numbering(e) -> tuple[NumberingParams, str]:
    if e is None:  # a grid with no numbering names no point in VASSAL; our hexes need ids: VASSAL's default one
        return NumberingParams(h_off=0, v_off=0), "$gridLocation$"
    t = lambda k, d: (e.get(k) or d) if (e.get(k) or d) in ("N", "A") else d  # noqa: E731
    return NumberingParams(
        first="V" if e.get("first") == "V" else "H", sep=(e.get("sep") or "")[:8],
        h_type=t("hType", "N"), v_type=t("vType", "N"),
        h_leading=int(_num(e, "hLeading", 1, 0, 3)), v_leading=int(_num(e, "vLeading", 1, 0, 3)),
        h_off=int(_num(e, "hOff", 0, -9999, 9999)), v_off=int(_num(e, "vOff", 0, -9999, 9999)),
        h_descend=_bool(e, "hDescend"), v_descend=_bool(e, "vDescend"),
        stagger=(e.get("stagger") or "true").lower() == "true"), e.get("locationFormat") or "$gridLocation$"


def _grid(e) -> HexGridInfo | SquareGridInfo | RegionGridInfo | str | None:
    if e is None:
        return None
    if _tag(e).endswith("HexGrid"):
        dy = _num(e, "dy", 64.0, 1.0)
        dx = _num(e, "dx", math.sqrt(3) / 2 * dy, 1.0)
        numbering = next(iter(_children(e, "HexGridNumbering")), None)
        n, fmt = _numbering(numbering)
        return HexGridInfo(GridParams(dx, dy, int(_num(e, "x0", 0)), int(_num(e, "y0", 0)), _bool(e, "sideways")), n, fmt,
                           numbering is not None)
    if _tag(e).endswith("SquareGrid"):
        n, fmt = _numbering(next(iter(_children(e, "SquareGridNumbering")), None))
        return SquareGridInfo(_num(e, "dx", 48.0, 1.0), _num(e, "dy", 48.0, 1.0), int(_num(e, "x0", 0)),
                              int(_num(e, "y0", 0)), n, fmt)
    regions = tuple((r.get("name") or "", int(_num(r, "originx", 0)), int(_num(r, "originy", 0)))
                    for r in _children(e, "board.Region"))[:5000]
    return RegionGridInfo(regions) if regions else SQUARE  # a RegionGrid with no region names no point


def _first_grid(e):
    return next((c for c in e if _tag(c).endswith(("board.HexGrid", "board.SquareGrid", "board.RegionGrid"))), None)


def _polygon(path: str) -> list[tuple[int, int]]:
    pts = []
    for pair in path.split(";")[:1000]:
        a, _, b = pair.partition(",")
        try:
            x, y = int(a), int(b)
        except ValueError:
            continue
        if abs(x) <= LIMIT and abs(y) <= LIMIT:
            pts.append((x, y))
    return pts


def _colour(rgb: str | None) -> str:
    try:
        r, g, b = (max(0, min(255, int(v))) for v in (rgb or "").split(",")[:3])
        return f"#{r:02x}{g:02x}{b:02x}"
    except ValueError:
        return "#ffffff"


def _image_size(arc: ModuleArchive, image: str) -> tuple[int, int] | None:
    return arc.image_size(f"images/{image}", MAX_IMAGE)


def _board(arc: ModuleArchive, e) -> BoardInfo:
    image = e.get("image") or None
    size = _image_size(arc, image) if image else None
    if size is None and e.get("width"):
        size = (int(_num(e, "width", 0, 0)), int(_num(e, "height", 0, 0)))
    zones: list[ZoneInfo] = []
    zoned = next(iter(_children(e, "board.ZonedGrid")), None)
    grid = _grid(_first_grid(zoned if zoned is not None else e))
    if zoned is not None:
        for z in _children(zoned, "mapgrid.Zone"):
            poly = _polygon(z.get("path") or "")
            if len(poly) >= 3:
                zones.append(ZoneInfo(z.get("name") or "", z.get("locationFormat") or "$name$", poly,
                                      _grid(_first_grid(z)), _bool(z, "useParentGrid")))
    return BoardInfo(e.get("name") or "Board", image, size, _colour(e.get("color")), grid, zones)


def _slots(root) -> list[SlotInfo]:
    """Every PieceSlot (and CardSlot) in palettes, with the names of the widgets around it."""
    out: list[SlotInfo] = []

    def walk(e, context: list[str]) -> None:
        for c in e:
            tag = _tag(c)
            if tag.endswith(("widget.PieceSlot", "widget.CardSlot")):
                traits = piece_traits((c.text or "").strip(), f"piece slot {c.get('entryName', '')[:40]!r}")
                if not traits or not traits[-1].type.startswith("piece;"):
                    continue
                protos = [t.type[len("prototype;"):] for t in traits if t.prefix == "prototype;"]
                out.append(SlotInfo(c.get("entryName") or "", c.get("gpid") or "", traits, context + protos))
            elif tag:
                name = c.get("entryName") or c.get("name") or ""
                walk(c, context + ([name] if name else []))

    walk(root, [])
    return out


def read_module(arc: ModuleArchive) -> ModuleInfo:
    from lxml import etree

    name = "buildFile.xml" if arc.has("buildFile.xml") else "buildFile" if arc.has("buildFile") else None
    if name is None:
        raise ImportFailed(f"{arc.name}: not a VASSAL module (no buildFile.xml or buildFile entry)")
    data = arc.read(name, MAX_BUILD)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        tree = etree.parse(io.BytesIO(data), parser)
    except etree.XMLSyntaxError as exc:
        raise ImportFailed(f"{arc.name}: {name} is not well-formed XML ({' '.join(str(exc).split())[:160]})") from None
    if tree.docinfo.doctype:
        raise ImportFailed(f"{arc.name}: {name} declares a DOCTYPE (VASSAL never writes one): refused")
    root = tree.getroot()
    sides = [(x.text or "").strip() for r in _children(root, "module.PlayerRoster") for x in r if _tag(x) == "entry"]
    maps, decks = [], []
    for m in root.iter():
        if _tag(m).endswith(("module.Map", "module.PrivateMap", "module.PlayerHand")):
            boards = [_board(arc, b) for p in _children(m, "map.BoardPicker") for b in _children(p, "boardPicker.Board")]
            maps.append(MapInfo(m.get("mapName") or "", boards))
            decks += [DeckInfo(m.get("mapName") or "", d.get("name") or "", d.get("owningBoard") or "",
                               int(_num(d, "x", 0)), int(_num(d, "y", 0)), int(_num(d, "width", 0, 0)),
                               int(_num(d, "height", 0, 0)), (d.get("shuffle") or "Always") == "Always",
                               tuple(c.get("gpid") or "" for c in _children(d, ("widget.PieceSlot", "widget.CardSlot"))))
                      for d in _children(m, "map.DrawPile")]
    protos = {}
    for p in root.iter():
        if _tag(p).endswith("module.PrototypeDefinition"):
            traits = piece_traits((p.text or "").strip(), f"prototype {p.get('name', '')[:40]!r}")
            protos[p.get("name") or ""] = traits or []
    setups = [SetupInfo(s.get("name") or "", s.get("file") if _bool(s, "useFile") and s.get("file") else None)
              for s in root.iter() if _tag(s).endswith("module.PredefinedSetup")]
    return ModuleInfo(root.get("name") or "Imported game", root.get("version") or "1.0",
                      [s for s in sides if s], maps, _slots(root), setups, protos, decks=decks)
