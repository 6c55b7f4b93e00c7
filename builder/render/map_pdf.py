"""The map as vector PDF tiles at counter scale, for a print-and-play kit (issue 18).

Scale.  A printed hex must hold a printed counter with room to pick it up: the hex's width
across flats (the grid's `dy`, in board pixels) is set to the counter edge + HEX_MARGIN (3 mm,
our choice: the rulebooks give no printed hex size for these sources).  One board pixel is then
`scale` points, and the whole board (hexes, tracks, boxes) prints at that scale.

Tiles.  The board is cut into a grid of tiles, each the page's content box; neighbouring tiles
overlap by `overlap` (tile i starts at i * (content width - overlap)), the last tile of a row
or column ends exactly at the board's edge.  `tile_layout` is pure, so tests can measure it.
Registration crosses are anchored to the map in the middle of every overlap band, so the same
cross prints on both tiles of a seam; each page carries a small index of the tile grid with its
own tile filled.  Everything is drawn as vector paths and text (hex ids are in the text layer).

Symbols and legend.  Towns, forts, encampments, strategic rings, exits and hexside features
are the module's map symbols (builder/render/mapsymbols.py) redrawn as vector paths, and the
module's legend (builder/render/legend.py: the same rows, layout and place on the board, which
hides no land hex, track or name) is drawn on the map at that place, scaled with it, so it
prints on the tile(s) that cover it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from builder.model.game import Game
from builder.render import legend as legend_data
from builder.render import pdfsymbols
from builder.render.mapsymbols import is_town
from builder.render.pdfsymbols import encampment, exit_arrow, feature, fort, strategic_ring, town_dot
from builder.render.sheets import PAGE_NAMES, PAGES, PT_PER_MM, SCALE_BAR, _inches, _mm, _text_fit

HEX_MARGIN = 3.0 * PT_PER_MM  # hex across flats = counter edge + this
MARGIN = 8.0 * PT_PER_MM      # page margin around the tile
HEAD = 14.0 * PT_PER_MM       # band above the tile: title, scale, tile index
FOOT = 6.0 * PT_PER_MM        # band below: how to glue
CROSS = 3.0 * PT_PER_MM       # half arm of a registration cross
INK = "#2b2118"


@dataclass(frozen=True)
class PrintOptions:
    page: str          # a4 | letter
    overlap: float     # pt shared by neighbouring tiles


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x0: float          # map pt (origin: board top left, y down)
    y0: float
    w: float
    h: float
    page_size: tuple[float, float]

    @property
    def name(self) -> str:
        return f"{_row_name(self.row)}{self.col + 1}"


@dataclass(frozen=True)
class TileLayout:
    scale: float               # pt per board pixel
    width: float               # printed board, pt
    height: float
    content: tuple[float, float]  # tile content box, pt
    overlap: float
    nrows: int
    ncols: int
    tiles: tuple[Tile, ...]
    hex_flats: float           # the printed hex width across flats, pt
    legend: tuple = ()         # (panel rectangle in board pixels, legend.Layout): where the module's map has it


def _row_name(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"A{chr(ord('A') + i - 26)}"


def map_scale(game: Game) -> float:
    """Points per board pixel: a hex across flats = counter edge + HEX_MARGIN."""
    return (game.info.counter.inches * 72.0 + HEX_MARGIN) / game.map.grid.dy


def _count(total: float, box: float, overlap: float) -> int:
    return 1 if total <= box + 1e-6 else math.ceil((total - box) / (box - overlap) - 1e-9) + 1


def tile_layout(game: Game, o: PrintOptions) -> TileLayout:
    """Every tile of the board on pages of `o.page`, in the orientation that needs fewer pages."""
    s = map_scale(game)
    W, H = game.map.board.width * s, game.map.board.height * s
    best = None
    pw, ph = PAGES[o.page]
    for size in ((pw, ph), (ph, pw)):
        cw, ch = size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - HEAD - FOOT
        n = _count(W, cw, o.overlap) * _count(H, ch, o.overlap)
        if best is None or n < best[0]:
            best = (n, size, cw, ch)
    _, size, cw, ch = best
    ncols, nrows = _count(W, cw, o.overlap), _count(H, ch, o.overlap)
    tiles = []
    for r in range(nrows):
        for c in range(ncols):
            x0, y0 = c * (cw - o.overlap), r * (ch - o.overlap)
            tiles.append(Tile(r, c, x0, y0, min(cw, W - x0), min(ch, H - y0), size))
    lay = TileLayout(s, W, H, (cw, ch), o.overlap, nrows, ncols, tuple(tiles), game.map.grid.dy * s,
                     legend_data.place_legend(game, legend_data.legend_rows(game)))
    return replace(lay, tiles=tuple(t for t in tiles if _printed(game, lay, t)))


def _printed(game: Game, lay: TileLayout, t: Tile) -> bool:
    """Whether a tile shows anything but the board's background: a board shaped like Desert Fox's
    (Tunisia and Algeria north of the Libyan maps) leaves whole tiles empty, and those are not
    printed (the tile index shows the gap).  A scanned board prints whole."""
    if game.map.board.image:
        return True
    geo = game.geometry
    boxes = [[(x, y - 24), (x + w * len(tr.boxes), y + h + 18)] for tr in game.map.tracks
             for (x, y), (w, h) in [(tr.origin, tr.box)]]
    boxes += [[(x, y - 24), (x + w, y + h)] for d in game.map.decks for (x, y), (w, h) in [(d.origin, d.box)]]
    if lay.legend:
        (x0, y0, x1, y1), _ = lay.legend
        boxes.append([(x0, y0), (x1, y1)])
    return any(_visible(t, lay, b) for b in boxes) or any(_visible(t, lay, geo.outline(lb)) for lb in geo.labels)


def scale_text(game: Game, lay: TileLayout) -> str:
    c = game.info.counter.inches * 72.0
    return (f"scale: 1 hex = {_mm(lay.hex_flats)} across flats (counters {_inches(game.info.counter.inches)} "
            f"= {_mm(c)} + {_mm(HEX_MARGIN)}); print at 100 %")


# ---- drawing -----------------------------------------------------------------------------------
class _Pen:
    """Board pixels -> page points for one tile."""

    def __init__(self, lay: TileLayout, t: Tile):
        self.s = lay.scale
        self.left = MARGIN - t.x0
        self.top = t.page_size[1] - MARGIN - HEAD + t.y0

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.left + x * self.s, self.top - y * self.s


def _path(cv, pts):
    p = cv.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    p.close()
    return p


def _visible(t: Tile, lay: TileLayout, pts, pad: float = 0) -> bool:
    s = lay.scale
    xs, ys = [x * s for x, _ in pts], [y * s for _, y in pts]
    return (min(xs) - pad < t.x0 + t.w and max(xs) + pad > t.x0 and
            min(ys) - pad < t.y0 + t.h and max(ys) + pad > t.y0)


def _halo_text(cv, font: str, size: float, x: float, y: float, text: str, ink: str = INK, centred=True) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if centred:
        x -= stringWidth(text, font, size) / 2
    t = cv.beginText(x, y)
    t.setFont(font, size)
    t.setTextRenderMode(1)  # stroke only: a light halo under the letters
    cv.setStrokeColor("#f7f0dc")
    cv.setLineWidth(size / 5)
    t.textOut(text)
    t.setTextRenderMode(0)  # text state outlives BT/ET: back to filled letters
    cv.drawText(t)
    cv.setFillColor(ink)
    cv.setFont(font, size)
    cv.drawString(x, y, text)


def draw_tile(cv, game: Game, lay: TileLayout, t: Tile, fonts: tuple[str, str], title: str) -> None:
    """One map tile and its bands; the caller starts and ends the page."""
    regular, semibold = fonts
    ph = t.page_size[1]
    pen, s, geo = _Pen(lay, t), lay.scale, game.geometry
    bx, btop = MARGIN, ph - MARGIN - HEAD
    cv.saveState()
    clip = cv.beginPath()
    clip.rect(bx, btop - t.h, t.w, t.h)
    cv.clipPath(clip, stroke=0, fill=0)
    cv.setFillColor(game.map.board.background)
    cv.rect(bx, btop - t.h, t.w, t.h, stroke=0, fill=1)
    if game.map.board.image:  # the board's own art (a scan, issue 35): as the module shows it, nothing drawn over
        _scan(cv, game, lay, pen)
        _registration(cv, lay, t, pen)
        cv.restoreState()
        cv.setStrokeColor("#000000")
        cv.setLineWidth(0.3)
        cv.rect(bx, btop - t.h, t.w, t.h, stroke=1, fill=0)
        _bands(cv, game, lay, t, fonts, title)
        return
    kinds = game.hex_terrain_types
    shown = [lb for lb in geo.labels if _visible(t, lay, geo.outline(lb))]
    cv.setLineWidth(0.3)
    cv.setStrokeColor("#6b5a40")
    for lb in shown:
        cv.setFillColor(kinds[game.hex_terrain[lb]].colour)
        cv.drawPath(_path(cv, [pen(*p) for p in geo.outline(lb)]), stroke=1, fill=1)
    visible = set(shown)
    types = game.hexside_feature_types
    order = {"river": 0, "ridge": 1, "cliff": 2, "dashed": 3, "line": 4}
    feats = sorted(((order[types[f].style], a, b, types[f]) for (a, b), fs in game.hexside_features.items()
                    for f in fs if a in visible or b in visible), key=lambda x: (x[0], x[1], x[2], x[3].id))
    cv.setLineCap(1)
    for _, a, b, f in feats:
        if f.style in ("river", "ridge", "cliff"):
            for side, toward in geo.hexside_drawn(a, b):  # beside each hex where sections are drawn apart
                feature(cv, pen(*side.p1), pen(*side.p2), f, s, toward=pen(*toward))
        else:
            for p, q in geo.link(a, b):
                feature(cv, pen(*p), pen(*q), f, s)
    # towns, fortifications, strategic rings, names and exits: the symbols of the module's map
    for lb in shown:
        if is_town(game, game.hex_terrain[lb]):
            town_dot(cv, *pen(*geo.ideal_centre(lb)), 6 * s)
    flats = lay.hex_flats
    for p in game.map.places:
        if p.hex not in visible:
            continue
        bx_, by_ = geo.ideal_centre(p.hex)
        cx, cy = pen(bx_, by_)
        kind = kinds[game.hex_terrain[p.hex]]
        if kind.fortification == "fort":
            fort(cv, cx, cy, 15 * s)
        elif kind.fortification == "encampment":
            encampment(cv, cx, cy, 12 * s)
        if p.strategic:
            strategic_ring(cv, cx, cy, 34 * s)
        name = p.name + (f" ({p.vp} VP)" if p.vp > 1 else "")
        size = _text_fit(name, semibold, 6.0, 1.9 * flats)
        _halo_text(cv, semibold, size, cx, cy - flats * 0.28, name)
        if p.exit:
            exit_arrow(cv, *pen(bx_, by_ - 4), s, right=bx_ > game.map.board.width / 2)
    # hex ids at the top of every hex
    id_size = max(3.5, min(5.0, flats * 0.16))
    for lb in shown:
        cx, cy = pen(*geo.ideal_centre(lb))
        cv.setFillColor("#ffffff" if kinds[game.hex_terrain[lb]].prohibited else "#5a4a30")
        cv.setFont(regular, id_size)
        cv.drawCentredString(cx, cy + flats / 2 - id_size * 1.25, lb)
    _tracks(cv, game, lay, t, pen, fonts)
    _registration(cv, lay, t, pen)
    _legend(cv, game, lay, t, pen, fonts)  # over any cross: the seam keeps its other crosses
    cv.restoreState()
    # the cut frame of the tile
    cv.setStrokeColor("#000000")
    cv.setLineWidth(0.3)
    cv.rect(bx, btop - t.h, t.w, t.h, stroke=1, fill=0)
    _bands(cv, game, lay, t, fonts, title)


def _scan(cv, game: Game, lay: TileLayout, pen) -> None:
    """The board's art over the whole board (the page's clip keeps the tile): one image in the
    PDF, however many tiles show it."""
    from reportlab.lib.utils import ImageReader

    b = game.map.board
    x, y = pen(0, b.height)
    cv.drawImage(ImageReader(str(game.root / b.image)), x, y, b.width * lay.scale, b.height * lay.scale)


def _tracks(cv, game: Game, lay: TileLayout, t: Tile, pen, fonts) -> None:
    regular, semibold = fonts
    s = lay.scale
    for tr in game.map.tracks:
        x, y = tr.origin
        w, h = tr.box
        if not _visible(t, lay, [(x, y - 24), (x + w * len(tr.boxes), y + h + 18)]):
            continue
        if len(tr.boxes) > 2:
            cv.setFillColor(INK)
            cv.setFont(semibold, max(4, 12 * s))
            cv.drawString(*pen(x, y - 4), tr.name.upper())
        for box in tr.boxes:
            bx0, by0, bw, bh = game.track_box_rect(tr.id, box)
            px, py = pen(bx0, by0 + bh)
            cv.setFillColor("#efe6cf")
            cv.setStrokeColor(INK)
            cv.setLineWidth(0.6)
            cv.rect(px, py, bw * s, bh * s, stroke=1, fill=1)
            label = box if len(tr.boxes) > 2 else game.zone_name(tr.id, box)
            size = _text_fit(label, semibold, max(4, 11 * s), bw * s - 3)
            cv.setFillColor(INK)
            cv.setFont(semibold, size)
            cv.drawString(px + 1.5, py + bh * s - size - 1, label)
            cap = tr.captions.get(box)
            if cap:
                size = _text_fit(cap, regular, max(4, 10 * s), bw * s - 3)
                cv.setFont(regular, size)
                cv.drawCentredString(px + bw * s / 2, py + 2, cap)
    for deck in game.map.decks:
        (x, y), (w, h) = deck.origin, deck.box
        if not _visible(t, lay, [(x, y - 24), (x + w, y + h)]):
            continue
        px, py = pen(x, y + h)
        cv.setFillColor("#e9dfc6")
        cv.setStrokeColor(INK)
        cv.roundRect(px, py, w * s, h * s, 12 * s, stroke=1, fill=1)
        cv.setFillColor(INK)
        cv.setFont(semibold, max(4, 12 * s))
        cv.drawCentredString(px + w * s / 2, py + h * s + 2, deck.name.upper())


def _legend(cv, game: Game, lay: TileLayout, t: Tile, pen, fonts) -> None:
    (x0, y0, x1, y1), _ = lay.legend
    if _visible(t, lay, [(x0, y0), (x1, y1)]):
        pdfsymbols.legend(cv, game, lay.legend, lay.scale, pen, fonts)


def _cross(cv, x: float, y: float) -> None:
    cv.setStrokeColor("#000000")
    cv.setLineWidth(0.35)
    cv.line(x - CROSS, y, x + CROSS, y)
    cv.line(x, y - CROSS, x, y + CROSS)
    cv.circle(x, y, CROSS / 2.2, stroke=1, fill=0)


def registration_points(lay: TileLayout) -> list[tuple[float, float]]:
    """Map points (pt) of the crosses: the middle of each overlap band, at the middle of each tile."""
    cw, ch = lay.content
    pts = []
    for k in range(1, lay.ncols):
        x = k * (cw - lay.overlap) + lay.overlap / 2
        pts += [(x, r * (ch - lay.overlap) + min(ch, lay.height - r * (ch - lay.overlap)) / 2) for r in range(lay.nrows)]
    for k in range(1, lay.nrows):
        y = k * (ch - lay.overlap) + lay.overlap / 2
        pts += [(c * (cw - lay.overlap) + min(cw, lay.width - c * (cw - lay.overlap)) / 2, y) for c in range(lay.ncols)]
    return pts


def _registration(cv, lay: TileLayout, t: Tile, pen) -> None:
    for x, y in registration_points(lay):
        if t.x0 - CROSS <= x <= t.x0 + t.w + CROSS and t.y0 - CROSS <= y <= t.y0 + t.h + CROSS:
            _cross(cv, *pen(x / lay.scale, y / lay.scale))


def draw_index(cv, lay: TileLayout, x: float, y: float, w: float, h: float, here: Tile | None, font: str,
               game: Game | None = None) -> None:
    """The tile grid as a small diagram in (x, y, w, h) over a picture of `game`'s map (issue 35),
    `here` shaded; each tile named."""
    k = min(w / lay.width, h / lay.height)
    top = y + h
    if game is not None:  # one picture in the PDF for every page's index (reportlab keeps one copy)
        from reportlab.lib.utils import ImageReader

        from builder.render.thumbnail import thumbnail

        cv.drawImage(ImageReader(thumbnail(game)), x, top - lay.height * k, lay.width * k, lay.height * k)
    cv.setLineWidth(0.4)
    for t in lay.tiles:
        cv.saveState()
        cv.setStrokeColor("#000000")
        cv.setFillColor("#c9c0a8" if t == here else "#ffffff")
        if game is not None:  # the map shows through: the tile here shaded, the others framed
            cv.setFillAlpha(0.55)
        cv.rect(x + t.x0 * k, top - (t.y0 + t.h) * k, t.w * k, t.h * k, stroke=1, fill=int(game is None or t == here))
        cv.restoreState()
    for t in lay.tiles:
        size = max(3.5, min(9, t.h * k / 3))
        cx, cy = x + (t.x0 + t.w / 2) * k, top - (t.y0 + t.h / 2) * k - size / 3
        if game is not None:
            _halo_text(cv, font, size, cx, cy, t.name, "#000000")
        else:
            cv.setFillColor("#000000")
            cv.setFont(font, size)
            cv.drawCentredString(cx, cy, t.name)


def _bands(cv, game: Game, lay: TileLayout, t: Tile, fonts, title: str) -> None:
    regular, semibold = fonts
    pw, ph = t.page_size
    head_base = ph - MARGIN - 4.5 * PT_PER_MM
    index_w, index_h = 28 * PT_PER_MM, HEAD - 3 * PT_PER_MM
    draw_index(cv, lay, pw - MARGIN - index_w, ph - MARGIN - index_h, index_w, index_h, t, regular, game)
    cv.setFillColor("#000000")
    text = f"{title} - map tile {t.name} ({len(lay.tiles)} tiles, rows A-{_row_name(lay.nrows - 1)}, columns 1-{lay.ncols})"
    cv.setFont(semibold, _text_fit(text, semibold, 10, pw - 2 * MARGIN - index_w - 6))
    cv.drawString(MARGIN, head_base, text)
    text = scale_text(game, lay)
    cv.setFont(regular, _text_fit(text, regular, 7, pw - 2 * MARGIN - index_w - SCALE_BAR - 12))
    cv.drawString(MARGIN, head_base - 4.2 * PT_PER_MM, text)
    bar_r = pw - MARGIN - index_w - 6
    bar_l, base = bar_r - SCALE_BAR, head_base - 4.2 * PT_PER_MM
    cv.setLineWidth(0.5)
    cv.lines([(bar_l, base, bar_r, base), (bar_l, base - 2, bar_l, base + 2), (bar_r, base - 2, bar_r, base + 2)])
    cv.setFont(regular, 6)
    cv.drawCentredString((bar_l + bar_r) / 2, base + 2, "50 mm at 100 %")
    where = (f"map {round(t.x0 / PT_PER_MM, 1):g}-{round((t.x0 + t.w) / PT_PER_MM, 1):g} mm across, "
             f"{round(t.y0 / PT_PER_MM, 1):g}-{round((t.y0 + t.h) / PT_PER_MM, 1):g} mm down of "
             f"{round(lay.width / PT_PER_MM, 1):g} x {round(lay.height / PT_PER_MM, 1):g} mm")
    foot = (f"{where}  |  overlap {_mm(lay.overlap)}: cut the frame's left and top edges, lay the tile over its "
            f"neighbours so the crosses meet, glue  |  {PAGE_NAMES[next(k for k, v in PAGES.items() if set(v) == set(t.page_size))]}")
    cv.setFont(regular, _text_fit(foot, regular, 6.5, pw - 2 * MARGIN))
    cv.drawString(MARGIN, MARGIN + 1.5 * PT_PER_MM, foot)
