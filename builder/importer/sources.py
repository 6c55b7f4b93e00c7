"""The game's source files from what a module declares (modulefile.py) and where its set-up
pieces stand (setups.py), with the list of what our sources cannot carry and why.

Choices (issue 33): the map is the first board with a hex grid (our games have one hex map);
a palette piece whose widgets or prototypes name one roster side, and that no setup places
twice, is a unit of that side; every other piece is a marker (a marker may be placed as often
as its count).  A piece's faces are the module's own images, shown as they are (importer/art.py
says which); a piece with none is drawn by the builder from its name.  The board keeps its art.  Zones named by
their own name become one-box tracks.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from builder.geometry import javagrid
from builder.geometry.hexmap import HexMap
from builder.geometry.roundtrip import misses, round_trip_fix
from builder.geometry.sections import SectionedHexMap, SectionParams
from builder.importer.art import ArtFiles, PieceArt, flipped, piece_art
from builder.importer.modulefile import (SQUARE, BoardInfo, HexGridInfo, ModuleInfo, RegionGridInfo, SlotInfo,
                                         SquareGridInfo,
                                         ZoneInfo)
from builder.importer.setups import PlacedPiece

DEFAULT_BOARD = (1000, 800)
COLOURS = ["#9fc5e8", "#ea9999", "#b6d7a8", "#ffe599", "#d5a6bd", "#a2c4c9"]
REASON = "imported from the VASSAL module {src}"


def slug(text: str, limit: int = 40) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (s or "x")[:limit].strip("-") or "x"


def _unique(base: str, taken: set[str], limit: int = 40) -> str:
    out, n = base[:limit], 2
    while out in taken:
        suffix = f"-{n}"
        out, n = base[:limit - len(suffix)] + suffix, n + 1
    taken.add(out)
    return out


@dataclass
class Imported:
    """The files of the new game (relative path -> data) and what was left out."""

    files: dict[str, object] = field(default_factory=dict)
    art: tuple[str, str] | None = None  # (file in the game's folder, entry in the module)
    board_size: tuple[int, int] | None = None  # the art grown to this size (blank right and bottom) if larger
    other_art: list[tuple[str, str, tuple[int, int]]] = field(default_factory=list)  # further maps': art, size
    notes: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # module piece name -> rebuilt piece name


@dataclass(frozen=True)
class MainBoard:
    map: str
    board: BoardInfo
    grid: HexGridInfo | None
    zone: ZoneInfo | None  # the zone the hex grid lives in, if any


def _main_board(mod: ModuleInfo) -> MainBoard | None:
    for m in mod.maps:
        for b in m.boards:
            if isinstance(b.grid, HexGridInfo):
                return MainBoard(m.name, b, b.grid, None)
            for z in b.zones:
                if isinstance(z.grid, HexGridInfo):
                    return MainBoard(m.name, b, z.grid, z)
    for m in mod.maps:
        for b in m.boards:
            return MainBoard(m.name, b, None, None)
    return None


def _side_of(slot: SlotInfo, sides: list[str]) -> str | None:
    found = {s for s in sides for c in slot.context if re.search(rf"(?<![A-Za-z0-9]){re.escape(s)}(?![A-Za-z0-9])", c, re.I)}
    return found.pop() if len(found) == 1 else None


def _sections(main: MainBoard, g: HexGridInfo) -> list[ZoneInfo]:
    """The zones of the main board that our map sections can hold: a rectangle with the map's
    grid, numbered as the map but for its offsets, its names a prefix of one or two capitals
    before the grid location (Desert Fox Deluxe's "C2331")."""
    out = []
    for z in main.board.zones:
        zg = z.grid
        if (isinstance(zg, HexGridInfo) and zg.grid == g.grid and zg.fmt == "$gridLocation$"
                and zg.numbering.replace(h_off=g.numbering.h_off, v_off=g.numbering.v_off) == g.numbering
                and re.fullmatch(r"[A-Z]{1,2}\$gridLocation\$", z.fmt) and not z.parent_grid
                and len(z.polygon) == 4 and len({x for x, _ in z.polygon}) == 2 and len({y for _, y in z.polygon}) == 2):
            out.append(z)
    return out


def _board_numbering(g, n, zone: ZoneInfo, board: tuple[int, int]):
    """The numbering that gives, on the whole board, the names a zone's grid gives: a descending
    numbering counts from the size of its container (the zone's bounding box in VASSAL), so the
    offsets take up the difference (javagrid.location_name)."""
    _, _, zw, zh = zone.bbox
    w, h = board
    rows = lambda size: math.floor(size / g.dx + 0.5)  # noqa: E731  (javagrid's max_rows, over dx)
    cols = lambda size: math.floor(size / g.dy + 0.5)  # noqa: E731
    dh = dv = 0
    if g.sideways:
        dh = rows(zh) - rows(h) if n.v_descend else 0
        dv = cols(zw) - cols(w) if n.h_descend else 0
    else:
        dh = cols(zw) - cols(w) if n.h_descend else 0
        dv = rows(zh) - rows(h) if n.v_descend else 0
    return n.replace(h_off=n.h_off + dh, v_off=n.v_off + dv)


def _square_yaml(name: str, area, g: SquareGridInfo, fmt: str) -> dict:
    """A square grid as map.yaml holds it (schema.SquareGrid)."""
    n = g.numbering
    return {"name": name[:200] or "Grid", "area": list(area), "dx": g.dx, "dy": g.dy, "x0": g.x0, "y0": g.y0,
            "location": fmt[:200],
            "numbering": {"first": n.first, "sep": n.sep, "h_type": n.h_type, "v_type": n.v_type,
                          "h_leading": n.h_leading, "v_leading": n.v_leading, "h_off": n.h_off, "v_off": n.v_off,
                          "h_descend": n.h_descend, "v_descend": n.v_descend}}


PAST_EDGE = 40  # px of board kept beyond a piece set up past a board's edge
MAP_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$")  # schema.OtherMap.id


def _hex_yaml(name: str, area, g: HexGridInfo, fmt: str) -> dict:
    """A hex grid besides the main map's, as map.yaml holds it (schema.HexGrid)."""
    n = g.numbering
    return {"name": name[:200] or "Grid", "area": list(area), "dx": g.grid.dx, "dy": g.grid.dy, "x0": g.grid.x0,
            "y0": g.grid.y0, "sideways": g.grid.sideways, "location": fmt[:200],
            "numbering": {"first": n.first, "sep": n.sep, "h_type": n.h_type, "v_type": n.v_type,
                          "h_leading": n.h_leading, "v_leading": n.v_leading, "h_off": n.h_off, "v_off": n.v_off,
                          "h_descend": n.h_descend, "v_descend": n.v_descend, "stagger": n.stagger}}


def _region_yaml(name: str, area, g: RegionGridInfo, fmt: str) -> dict:
    """Named points, as map.yaml holds them (schema.RegionGrid)."""
    return {"name": name[:200] or "Regions", "area": list(area), "location": fmt[:200],
            "regions": [{"name": n[:200] or "?", "at": [x, y]} for n, x, y in g.regions]}


def _zone_grid(z: ZoneInfo) -> tuple[str, dict] | None:
    """('squares' | 'hexes' | 'regions', its map.yaml entry) of a zone with a grid of its own, else None."""
    fmt = z.fmt.replace("$gridLocation$", z.grid.fmt) if isinstance(
        z.grid, (SquareGridInfo, HexGridInfo, RegionGridInfo)) else ""
    if z.parent_grid:
        return None
    if isinstance(z.grid, RegionGridInfo):
        return "regions", _region_yaml(z.name, z.bbox, z.grid, fmt)
    if isinstance(z.grid, SquareGridInfo):
        return "squares", _square_yaml(z.name, z.bbox, z.grid, fmt)
    if isinstance(z.grid, HexGridInfo) and 1 < z.grid.grid.dx <= 2000 and 1 < z.grid.grid.dy <= 2000:
        return "hexes", _hex_yaml(z.name, z.bbox, z.grid, fmt)
    return None


def _board_grids(m, b: BoardInfo, note) -> dict[str, list[dict]]:
    """A further map's board's square and hex grids (its zones', then its own), as map.yaml holds them."""
    out: dict[str, list[dict]] = {}
    for z in b.zones:
        got = _zone_grid(z)
        if got is None:
            what = "a grid with no region" if z.grid == SQUARE else "its parent's grid" if z.parent_grid else "no grid"
            note(f"map {m.name!r}: zone {z.name!r} ({what}) is not carried over (zones of further maps are carried "
                 "with a grid of their own); pieces keep their points")
            continue
        out.setdefault(got[0], []).append(got[1])
    if isinstance(b.grid, SquareGridInfo):
        out.setdefault("squares", []).append(_square_yaml(b.name, (0, 0, *b.size), b.grid, b.grid.fmt))
    elif isinstance(b.grid, HexGridInfo):
        out.setdefault("hexes", []).append(_hex_yaml(b.name, (0, 0, *b.size), b.grid, b.grid.fmt))
    elif isinstance(b.grid, RegionGridInfo):
        out.setdefault("regions", []).append(_region_yaml(b.name, (0, 0, *b.size), b.grid, b.grid.fmt))
    elif b.grid is not None:
        note(f"map {m.name!r}: board {b.name!r}'s region grid has no region; not carried over")
    return out


def _other_maps(mod: ModuleInfo, main: MainBoard | None, placed: dict[str, list[PlacedPiece]],
                note, layouts: dict | None = None) -> list[tuple[dict, list[tuple[dict, str]]]]:
    """The module's maps other than the main one, each with its boards in use (laid out as the first setup
    that names them lays them out) and their square grids (map.yaml `maps`), with each board (its map.yaml
    entry) that has an image in the module.  A map of one board is grown (at the right and bottom) to hold
    every piece a setup puts on it beyond its edge: VASSAL keeps such pieces, and a board with no grid names
    every point alike."""
    out, seen = [], {"Main Map"}  # builder/vassal/pieces.py MAP_ID: the main map's name in the rebuilt module
    for m in mod.maps:
        if main is not None and m.name == main.map:
            continue
        if not m.boards:
            note(f"map {m.name!r}: no board; left out")
            continue
        if not MAP_NAME.match(m.name) or m.name in seen:
            note(f"map {m.name!r}: its name is taken or not one a map may have here (letters, digits, ' ._-', "
                 "at most 40); left out, with the pieces set up on it")
            continue
        by_name = {x.name: x for x in m.boards}
        layout = [(by_name[n], c, r) for n, c, r, _ in (layouts or {}).get(m.name, []) if n in by_name]
        if any(rev for *_, rev in (layouts or {}).get(m.name, [])):
            note(f"map {m.name!r}: a board a setup turns round (reversed) is carried unturned")
        if not layout:  # no setup lays them out: VASSAL asks at a new game; here they stand in one row
            layout = [(x, i, 0) for i, x in enumerate(m.boards)]
            if len(m.boards) > 1:
                note(f"map {m.name!r}: no setup lays out its {len(m.boards)} boards (VASSAL asks at a new game); "
                     "they stand in one row, in the module's order")
        layout.sort(key=lambda e: (e[2], e[1]))
        if (layout[0][1], layout[0][2]) != (0, 0):
            note(f"map {m.name!r}: its boards leave the top-left place empty; left out, with the pieces set up on it")
            continue
        bad = [x.name for x, _, _ in layout if x.size is None or not (200 <= x.size[0] <= 8000 and 200 <= x.size[1] <= 8000)]
        if bad:
            note(f"map {m.name!r}: board(s) {', '.join(map(repr, bad))} of a size outside what a board may be (200 to "
                 "8000 px a side, or unknown); the map is left out, with the pieces set up on it")
            continue
        unused = [x.name for x in m.boards if all(x is not y for y, _, _ in layout)]
        if unused:
            note(f"map {m.name!r}: board(s) {', '.join(map(repr, unused))} no setup uses are left out")
        seen.add(m.name)
        b = layout[0][0]
        w, h = b.size
        if len(layout) == 1:
            here = [p for ps in placed.values() for p in ps if p.map == m.name]
            w = max([w, *(p.x + PAST_EDGE for p in here if b.size[0] <= p.x < 8000 - PAST_EDGE)])
            h = max([h, *(p.y + PAST_EDGE for p in here if b.size[1] <= p.y < 8000 - PAST_EDGE)])
            if (w, h) != b.size:
                note(f"map {m.name!r}: board {b.name!r} grown from {b.size[0]} x {b.size[1]} to {w} x {h} px (blank at "
                     "the right and bottom) to hold the pieces a setup puts beyond its edge")
        boards = []
        for x, c, r in layout:
            entry = {"name": x.name[:200] or "Board", "width": w if x is b else x.size[0],
                     "height": h if x is b else x.size[1]}
            if not x.image:
                entry["background"] = x.colour
            if x is not b:
                entry |= {"column": c, "row": r}
            grids = _board_grids(m, x, note)
            if x is not b:
                entry |= grids
            boards.append((entry, x.image, grids))
        om = {"id": m.name, "name": m.name, "board": boards[0][0], **boards[0][2]}
        if len(boards) > 1:
            om["more_boards"] = [e for e, _, _ in boards[1:]]
        out.append((om, [(e, image) for e, image, _ in boards if image]))
    return out


def _fit_pieces(main: MainBoard, pieces: list[PlacedPiece]) -> tuple[int, int]:
    """A board size that holds the whole hex (or cell) of every piece set up on it, within 8000 px."""
    gx, gy = (main.grid.grid.dx, main.grid.grid.dy) if main.grid else (0.0, 0.0)
    if main.grid and main.grid.grid.sideways:
        gx, gy = gy, gx
    w = max([DEFAULT_BOARD[0], *(math.ceil(p.x + gx) for p in pieces if 0 <= p.x < 8000)])
    h = max([DEFAULT_BOARD[1], *(math.ceil(p.y + gy) for p in pieces if 0 <= p.y < 8000)])
    return min(w, 8000), min(h, 8000)


def _art_face(file: str) -> dict:
    return {"file": file, "values": False, "exact": True}


def compose(mod: ModuleInfo, placed: dict[str, list[PlacedPiece]], src: str, images: ArtFiles | None = None,
            layouts: dict | None = None) -> Imported:
    """`images`: the module's images, read as the pieces' faces name them (None: faces drawn by hexforge);
    `layouts`: the boards each map uses and where (setups.BoardLayout)."""
    out = Imported()
    note = out.notes.append
    reason = REASON.format(src=src)
    rec = {"provenance": "reconstructed", "reason": reason}
    main = _main_board(mod)

    # ---- sides ----
    sides = list(dict.fromkeys(s[:200] for s in mod.sides))
    if len(sides) < 2:
        extra = [f"Player {i}" for i in range(1, 3) if f"Player {i}" not in sides]
        note(f"sides: the module's roster names {len(sides)} side(s); a game has at least two, so "
             f"{', '.join(extra[:2 - len(sides)])} were added")
        sides += extra[:2 - len(sides)]
    side_ids: dict[str, str] = {}
    taken: set[str] = set()
    for s in sides:
        side_ids[s] = _unique(slug(s, 30), taken, 30)

    # ---- board, grid, numbering ----
    board = main.board if main else None
    size = board.size if board and board.size else None
    if size is None and board and board.image:  # its image is not in the module: a board that holds every set-up piece
        fit = _fit_pieces(main, [p for ps in placed.values() for p in ps if p.map == main.map])
        note(f"board {board.name!r}: its image {board.image!r} is not in the module; a plain {fit[0]} x {fit[1]} px "
             "board stands in (large enough for every set-up piece's hex, at least "
             f"{DEFAULT_BOARD[0]} x {DEFAULT_BOARD[1]})")
        size, art = fit, False
    elif size is None or not (200 <= size[0] <= 8000 and 200 <= size[1] <= 8000):
        if board:
            note(f"board {board.name!r}: size {size} is outside what a board may be (200 to 8000 px a side); "
                 f"a plain {DEFAULT_BOARD[0]} x {DEFAULT_BOARD[1]} board stands in, and its art is left out")
        size, art = DEFAULT_BOARD, False
    else:
        art = bool(board.image)
    w, h = size
    board_yaml: dict = {"name": (board.name if board else "Board")[:200] or "Board", "width": w, "height": h}
    if art:
        ext = board.image.rsplit(".", 1)[-1].lower() if "." in board.image else "png"
        ext = ext if ext in ("png", "jpg", "jpeg", "gif") else "png"
        board_yaml["image"] = f"board.{ext}"
        out.art = (f"board.{ext}", f"images/{board.image}")
    elif board:
        board_yaml["background"] = board.colour
    g = main.grid if main else None
    if g is not None and not (10 < g.grid.dx <= 400 and 10 < g.grid.dy <= 400):
        note(f"hex grid: dx {g.grid.dx:g}, dy {g.grid.dy:g} px are outside what our grids allow (10 to 400); "
             "a grid of our own stands in, so hex names differ")
        g = None
    if g is not None and (g.fmt != "$gridLocation$" or (main.zone and main.zone.fmt != "$gridLocation$")):
        note(f"hex names: the module formats them as {(main.zone.fmt if main.zone else g.fmt)!r}; our grids name a hex "
             "by its grid location alone, so names differ")
    if g is not None and not g.numbered:
        note("hex names: the module's hex grid has no numbering, so VASSAL names none of its points (a piece's "
             "location is 'offboard'); our hexes need ids, so they are numbered as VASSAL's default numbering does")
    if g is None:
        if main is not None and isinstance(main.board.grid, (SquareGridInfo, RegionGridInfo)):
            what = "a square grid" if isinstance(main.board.grid, SquareGridInfo) else "a region grid (named points)"
            note(f"grid: the map has {what}; it is carried as such over the whole board (its cells keep "
                 "their names, pieces their points), over a hex grid of our own that no point reaches (a game has one)")
        elif main is None or not isinstance(main.board.grid, (HexGridInfo, type(None))):
            note("grid: the map has a square (or region) grid; our games are hex maps, so a hex grid of our own "
                 "stands in and the module's cell names are not carried over")
        else:
            note("grid: the module's map has no hex grid; a hex grid of our own stands in")
        grid_params = javagrid.GridParams(60.0, 69.28, 40, 40, False)
        numbering = javagrid.NumberingParams(h_off=1, v_off=1)
    else:
        grid_params, numbering = g.grid, g.numbering
    if main and main.zone:
        zx, zy, zw, zh = main.zone.bbox
        x0, y0 = max(0, zx), max(0, zy)
        area = (x0, y0, min(w, zx + zw) - x0, min(h, zy + zh) - y0)
    else:
        area = (0, 0, w, h)
    if g is not None and main.zone is not None:
        numbering = _board_numbering(grid_params, numbering, main.zone, (w, h))
    sections = _sections(main, g) if g is not None and main.zone is None else []
    if sections:  # zones numbered from the map's grid with a letter before (map sections: schema.Section)
        geo = SectionedHexMap(grid_params, numbering, (w, h), area, tuple(
            SectionParams(z.fmt[:-len("$gridLocation$")], z.bbox, z.grid.numbering) for z in sections))
    else:
        geo = HexMap(grid_params, numbering, (w, h), area)
    if g is not None and not sections and misses(geo):  # VASSAL's getLocation and locationName disagree on this grid
        fix = round_trip_fix(geo)
        if fix is None:
            note("hex grid: some hex ids do not lead VASSAL back to their own hex (getLocation), and no larger "
                 "board fixes it; `hexforge build` will refuse the map until map.yaml's numbering is mended")
        else:
            (w2, h2), dh, dv = fix
            numbering = numbering.replace(h_off=numbering.h_off + dh, v_off=numbering.v_off + dv)
            note(f"board: {w} x {h} px grown to {w2} x {h2} (the new strip {'of art ' if art else ''}is blank, at the "
                 f"right and bottom) with the numbering's offsets changed by {dh}, {dv}: in the module VASSAL sends "
                 "a hex id to a neighbouring hex (getLocation disagrees with locationName on this grid), which our "
                 "build refuses; every hex keeps its id and centre")
            w, h = w2, h2
            board_yaml.update(width=w, height=h)
            geo = HexMap(grid_params, numbering, (w, h), area)
    out.board_size = (w, h)
    n = numbering
    map_yaml = {
        "board": board_yaml,
        "grid": {"sideways": grid_params.sideways, "dx": grid_params.dx, "dy": grid_params.dy,
                 "x0": grid_params.x0, "y0": grid_params.y0, "area": list(area), **rec},
        "numbering": {"first": n.first, "sep": n.sep, "h_type": n.h_type, "v_type": n.v_type,
                      "h_leading": n.h_leading, "v_leading": n.v_leading, "h_off": n.h_off, "v_off": n.v_off,
                      "h_descend": n.h_descend, "v_descend": n.v_descend, "stagger": n.stagger, **rec},
        "default_terrain": "clear",
    }
    if sections:
        map_yaml["sections"] = [{"prefix": z.fmt[:-len("$gridLocation$")], "name": z.name[:200] or z.fmt[:2],
                                 "area": list(z.bbox), "h_off": z.grid.numbering.h_off,
                                 "v_off": z.grid.numbering.v_off, **rec} for z in sections]

    # ---- zones: named ones become one-box tracks; the rest are listed ----
    tracks: dict[str, tuple[str, str]] = {}  # zone name -> (track id, box)
    square_zones: list[ZoneInfo] = []  # zones of the main board carried as square or hex grids
    main_squares: list[dict] = []
    main_hexes: list[dict] = []
    main_regions: list[dict] = []
    track_yaml = []
    tids: set[str] = set()
    for m in mod.maps:
        for b in m.boards:
            for z in b.zones:
                here = main is not None and b is main.board and m.name == main.map
                if here and (main.zone is z or z in sections):
                    continue
                if not here:
                    continue
                if z.grid is None and not z.parent_grid and z.fmt == "$name$" and z.name:
                    x, y, zw, zh = z.bbox
                    if zw < 1 or zh < 1 or z.name in tracks:
                        note(f"zone {z.name!r}: empty or repeated; left out")
                        continue
                    tid = _unique(slug(z.name), tids)
                    tracks[z.name] = (tid, z.name[:200])
                    track_yaml.append({"id": tid, "name": z.name[:200], "origin": [x, y], "box": [zw, zh],
                                       "boxes": [z.name[:200]], "zone_format": "{box}", **rec})
                    if len(z.polygon) != 4 or len({p[0] for p in z.polygon}) != 2:
                        note(f"zone {z.name!r}: its outline is not a rectangle; it is carried as its bounding box")
                elif _zone_grid(z) is not None:
                    # a square or hex grid of its own: a grid over the zone's bounding box (schema.SquareGrid,
                    # schema.HexGrid), its cells named as the module names them; pieces in it keep their points
                    kind, entry = _zone_grid(z)
                    square_zones.append(z)
                    {"squares": main_squares, "hexes": main_hexes, "regions": main_regions}[kind].append(entry)
                    if len(z.polygon) != 4 or len({p[0] for p in z.polygon}) != 2:
                        note(f"zone {z.name!r}: its outline is not a rectangle; its grid covers its bounding box")
                else:
                    what = "a grid with no region" if z.grid == SQUARE else f"location format {z.fmt!r}" if z.grid is None else "its parent's grid"
                    note(f"zone {z.name!r} ({what}): our maps have one hex grid and named one-box zones; "
                         "it is left out, and pieces set up in it are listed below")
    if track_yaml:
        map_yaml["tracks"] = track_yaml
    whole = main.board.grid if main is not None and g is None and isinstance(main.board.grid, SquareGridInfo) else None
    if whole is not None:  # the board's own square grid: a zone over the whole board (schema.SquareGrid)
        main_squares.append(_square_yaml(main.board.name, (0, 0, w, h), whole, whole.fmt))
    whole_regions = main.board.grid if main is not None and g is None and isinstance(main.board.grid, RegionGridInfo) \
        else None
    if whole_regions is not None:  # the board's own region grid: named points over the whole board
        main_regions.append(_region_yaml(main.board.name, (0, 0, w, h), whole_regions, whole_regions.fmt))
    if main_squares:
        map_yaml["squares"] = main_squares
    if main_hexes:
        map_yaml["hexes"] = main_hexes
    if main_regions:
        map_yaml["regions"] = main_regions
    other_maps, art_names = _other_maps(mod, main, placed, note, layouts), {out.art[0]} if out.art else set()
    if other_maps:
        map_yaml["maps"] = [om for om, _ in other_maps]
        for om, arts in other_maps:
            for i, (entry, image) in enumerate(arts):
                stem = "board-" + slug(om["id"], 30) + (f"-{slug(entry['name'], 20)}" if entry is not om["board"] else "")
                ext = image.rsplit(".", 1)[-1].lower() if "." in image else "png"
                name = _unique(f"{stem}", art_names) + "." + (ext if ext in ("png", "jpg", "jpeg", "gif") else "png")
                entry["image"] = name
                out.other_art.append((name, f"images/{image}", (entry["width"], entry["height"])))
    placed_maps = {om["id"] for om, _ in other_maps}
    if main:
        extra_boards = [b.name for m in mod.maps if m.name == main.map for b in m.boards if b is not main.board]
        if extra_boards:
            note(f"boards: {', '.join(repr(x) for x in extra_boards)} of map {main.map!r} left out (the main map has one board: its hexes and their ids are that board's)")

    def locate(p: PlacedPiece) -> tuple[str, str] | str:
        """('hex', id) or ('track', zone name) for a piece on the main board, or why it cannot be placed."""
        if p.map in placed_maps and (main is None or p.map != main.map):
            return ("point", (p.map, p.x, p.y))
        if main is None or p.map != main.map:
            return f"on map {p.map!r}, which is not carried over"
        for z in main.board.zones:
            if javagrid.polygon_contains(z.polygon, p.x, p.y):
                if z is main.zone or z in sections:
                    break
                if z in square_zones:
                    return ("point", (None, p.x, p.y))
                if z.name in tracks:
                    return ("track", z.name)
                return f"in zone {z.name!r}, which is not carried over"
        else:
            if main.zone is not None:
                return f"at ({p.x}, {p.y}), outside every zone of map {main.map!r}"
        if whole is not None or whole_regions is not None:
            return ("point", (None, p.x, p.y))
        if g is None:
            return "on a grid that is not carried over"
        label = geo.label_at(p.x, p.y)
        if label not in geo:
            return f"in hex {label}, which lies partly outside the grid's area (our maps hold whole hexes only)"
        return ("hex", label)

    # ---- pieces ----
    by_gpid = {s.gpid: s for s in mod.slots if s.gpid}
    by_name: dict[str, SlotInfo] = {}
    for s in mod.slots:
        by_name.setdefault(s.basic_name or s.name, s)
    counts: dict[int, int] = {}
    for pieces in placed.values():
        per: dict[int, int] = {}
        for p in pieces:
            s = by_gpid.get(p.gpid) or by_name.get(p.name)
            if s is not None:
                per[id(s)] = per.get(id(s), 0) + 1
        for k, v in per.items():
            counts[k] = max(counts.get(k, 0), v)
    formations = {s: re.sub(r"[^A-Z0-9]", "", side_ids[s].upper())[:12] or f"S{i}" for i, s in enumerate(sides, 1)}
    if len(set(formations.values())) < len(formations):
        formations = {s: f"S{i}" for i, s in enumerate(sides, 1)}
    units, markers = [], []
    uid_taken: set[str] = set()
    mid_taken: set[str] = set()
    refs: dict[int, tuple[str, str]] = {}  # slot -> ("unit" | "marker", id)
    arts: dict[int, tuple[PieceArt, list[str]]] = {}  # slot -> its art, and its faces' files in the game's folder
    art_left: dict[str, list[str]] = {}  # what of a piece's art is not carried -> the pieces
    sided = {id(s): _side_of(s, sides) for s in mod.slots}
    if not any(side and counts.get(id(s), 0) <= 1 for s in mod.slots for side in [sided[id(s)]]):
        # a game needs a unit: the first piece no setup places twice becomes one, of the first side
        first = next((s for s in mod.slots if counts.get(id(s), 0) <= 1), None)
        if first is not None:
            sided[id(first)] = sides[0]
            note(f"units: no palette piece names a roster side; the first piece, {first.basic_name or first.name!r}, "
                 f"is made a unit of {sides[0]} because a game needs one, and every other piece is a marker")
    for i, s in enumerate(mod.slots, 1):
        name = (s.basic_name or s.name or f"Piece {i}").strip()[:200] or f"Piece {i}"
        side = sided[id(s)]
        placed_n = counts.get(id(s), 0)
        pa = piece_art(s, mod.prototypes)
        files = [f for f in (images.file(i) for i in pa.faces) if f] if images is not None else []
        if len(files) < len(pa.faces):
            files = files[:1] if pa.faces and images.by_image.get(pa.faces[0]) else []  # a back without its front: none
        arts[id(s)] = (pa, files)
        for i in pa.left:
            art_left.setdefault(i, []).append(name)
        if side and placed_n <= 1:
            # our build names a unit's piece "NAME (FORMATION)": a module of ours imported again keeps its name
            base = name[:-len(f" ({formations[side]})")] if name.endswith(f" ({formations[side]})") else name
            uid = _unique(slug(base), uid_taken)
            unit = {"id": uid, "name": base, "short": base[:10].strip() or "?", "formation": formations[side],
                    "type": "piece", "steps": 2 if len(files) == 2 else 1, **rec}
            if files:
                unit["image"] = _art_face(files[0])
            if len(files) == 2:
                unit["image_reduced"] = _art_face(files[1])
            units.append(unit)
            refs[id(s)] = ("unit", uid)
            out.names[name] = f"{base} ({formations[side]})"
        else:
            mid = _unique(slug(name), mid_taken)
            count = max(1, placed_n)
            if count > 99:
                note(f"piece {name!r}: a setup places it {count} times; a marker is at most 99")
                count = 99
            face = {"text": name[:14], "colour": COLOURS[sides.index(side) % len(COLOURS)] if side else "#e0e0e0"}
            if side:
                face["side"] = side_ids[side]
            faces = [{**face, "image": _art_face(f)} for f in files] or [face]
            markers.append({"id": mid, "name": name, "count": count, "faces": faces, **rec})
            refs[id(s)] = ("marker", mid)
            out.names[name] = name
            if side and placed_n > 1:
                note(f"piece {name!r} ({side}): a setup places it {placed_n} times, so it is a marker "
                     "(a unit is one counter)")
    if not units:  # no palette piece at all (or every one placed many times): one the module does not have
        note("units: the module has no piece that can be a unit; a placeholder unit (not in the module) is added "
             "because a game needs one")
        units.append({"id": "placeholder", "name": "Placeholder", "short": "Placeh.",
                      "formation": formations[sides[0]], "type": "piece", "steps": 1, **rec})
    traits_left = sorted({t.prefix.rstrip(";") for s in mod.slots for t in s.traits[:-1] if t.prefix != "prototype;"}
                         | {t.prefix.rstrip(";") for ts in mod.prototypes.values() for t in ts[:-1]})
    drawn = [(s.basic_name or s.name) for s in mod.slots if not arts[id(s)][1]]
    if drawn:
        shown = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in Counter(drawn).items())
        note(f"piece art: {len(drawn)} palette slot(s) name no image the module holds, so hexforge draws their faces "
             f"from their names: {shown[:600]}")
    if images is not None and images.missing:
        note(f"piece art: {len(images.missing)} image(s) the pieces name are not image files of the module (missing, "
             "or drawn by VASSAL from its Game Piece Image layouts), so there is nothing to copy: "
             f"{', '.join(images.missing[:20])}{'...' if len(images.missing) > 20 else ''}")
    if images is not None and images.converted:
        note(f"piece art: {len(images.converted)} image(s) are not PNG files; each is carried as a PNG of the same "
             f"pixels: {', '.join(images.converted[:20])}{'...' if len(images.converted) > 20 else ''}")
    for image, who in art_left.items():
        shown = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in Counter(who).items())
        note(f"piece art: image {image!r} (a Layer drawn over the face, a further level or a mask) is not carried: "
             f"a face here is one image; pieces: {shown[:300]}")
    if traits_left:
        note(f"piece traits ({', '.join(traits_left[:20])}{'...' if len(traits_left) > 20 else ''}): "
             "behaviour is the builder's own (flip, report, delete...), not the module's")

    # ---- draw piles, with the pieces each starts a new game with ----
    decks_of = {om["id"]: om for om, _ in other_maps}
    main_decks: list[dict] = []
    for d in mod.decks:
        on_main = main is not None and d.map == main.map
        if not on_main and d.map not in decks_of:
            note(f"map {d.map!r}: draw pile {d.name!r} is not carried over (its map is not); its pieces are in the palette")
            continue
        board_w, board_h = (w, h) if on_main else (decks_of[d.map]["board"]["width"], decks_of[d.map]["board"]["height"])
        bw, bh = max(40, d.width + 16), max(40, d.height + 16)
        x, y = max(0, min(d.x - bw // 2, board_w - bw)), max(0, min(d.y - bh // 2, board_h - bh))
        slots = [by_gpid[g] for g in d.gpids if g in by_gpid]
        pieces = [refs[id(s)][1] for s in slots]
        if len(pieces) < len(d.gpids):
            note(f"draw pile {d.name!r}: {len(d.gpids) - len(pieces)} of its slots have no piece; left out")
        deck = {"name": d.name[:200] or "Draw pile", "origin": [x, y], "box": [bw, bh], "shuffle": d.shuffle,
                **({"pieces": pieces} if pieces else {})}
        (main_decks if on_main else decks_of[d.map].setdefault("decks", [])).append(deck)
        if (x + bw // 2, y + bh // 2) != (d.x, d.y):
            note(f"draw pile {d.name!r}: moved onto its board (its centre was at {d.x}, {d.y})")
        if on_main and d.board and d.board != main.board.name or not on_main and d.board not in ("", decks_of[d.map]["board"]["name"]):
            note(f"draw pile {d.name!r}: its board {d.board!r} is not carried over; it stands on the map's board")
    if main_decks:
        map_yaml["decks"] = main_decks

    # ---- scenarios ----
    scenarios: dict[str, dict] = {}
    sc_taken: set[str] = set()
    for setup in mod.setups:
        if setup.file is None:
            note(f"setup {setup.name!r}: starts from no saved game; nothing to carry over")
            continue
        pieces = placed.get(setup.file)
        if pieces is None:
            continue
        us, ms, used_units = [], [], set()
        left: dict[str, list[str]] = {}  # why -> the pieces left out for it
        for p in pieces:
            s = by_gpid.get(p.gpid) or by_name.get(p.name)
            if s is None:
                left.setdefault("with no palette slot", []).append(p.name)
                continue
            where = locate(p)
            if isinstance(where, str):
                left.setdefault(where, []).append(p.name)
                continue
            kind, ref = refs[id(s)]
            pa, files = arts[id(s)]
            back = len(files) == 2 and flipped(list(p.layers), pa.flip)
            if where[0] == "point":
                on, x, y = where[1]
                spot = {"map": on, "at": [x, y]} if on is not None else {"at": [x, y]}
            elif where[0] == "hex":
                spot = {"hex": where[1]}
            else:
                spot = {"track": tracks[where[1]][0], "box": tracks[where[1]][1]}
            if kind == "unit":
                used_units.add(ref)
                us.append({"unit": ref, **spot, **({"reduced": True} if back else {})})
            else:
                ms.append({"marker": ref, **spot, **({"face": 2} if back else {})})
        for why, names in left.items():
            shown = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in Counter(names).items())
            note(f"setup {setup.name!r}: {len(names)} piece(s) {why}; left out: {shown}")
        sid = _unique(slug(setup.name), sc_taken)
        scenarios[f"scenarios/{sid}.yaml"] = {"name": setup.name[:200] or sid, **rec, "units": us, "markers": ms}

    if not scenarios:  # a game needs a scenario: the board with nothing on it
        note("scenarios: the module has no predefined setup with a saved game; an empty one ('Empty board') "
             "is added because a game needs one")
        scenarios["scenarios/empty-board.yaml"] = {"name": "Empty board", **rec}
    out.files = {
        "game.yaml": {
            "title": mod.title[:200] or "Imported game", "version": re.sub(r"[^A-Za-z0-9 ._-]", "", mod.version)[:40] or "1.0",
            "description": f"Imported from the VASSAL module {src}.", "rulebook": "none",
            "sides": [{"id": side_ids[s], "name": s} for s in sides],
            "nationalities": [{"id": side_ids[s], "name": s, "side": side_ids[s],
                               "colour": COLOURS[i % len(COLOURS)], "text": "#000000"} for i, s in enumerate(sides)],
            "counter": {"inches": 0.5, "pixels": 60, **rec},
            "turns": {"first": 1, "last": 10, "provenance": "reconstructed",
                      "reason": f"{reason}, which gives no turns: the first ten"},
        },
        "terrain.yaml": {"hex_terrain": [{"id": "clear", "name": "Clear", "colour": "#e8e0c0", **rec}],
                         "hexside_default_cost": 1},
        "map.yaml": map_yaml,
        "map-terrain.yaml": {**rec, "hexes": {}},
        "units.yaml": {
            "unit_types": [{"id": "piece", "name": "Piece", "symbol": "infantry"}],
            "faces": {"full": {"left": "", "right": ""}, "reduced": {"left": "", "right": ""}},
            "formations": [{"id": formations[s], "name": f"{s} pieces", "nationality": side_ids[s],
                            "stripe": "#404040", **rec} for s in sides],
            "units": units,
        },
        "markers.yaml": {"markers": markers},
        **scenarios,
    }
    note("terrain: a module holds no terrain data; every hex is Clear")
    note("unit types: a module's pieces have none; every unit is of type 'piece' (drawn with the infantry symbol)")
    return out
