"""The map's legend: the game's title, its scale line, and a key row for every symbol the board
prints, each row drawn with that symbol (no row without one).

The panel goes where it hides nothing a player uses: no land hex, track, draw cup or place
name.  Of the layouts (title above one to three key columns, or a banner with the title at
its left) and the spots where one fits, a spot that hides no hex at all wins (the margin
under the tracks), then the one nearest the board's top right corner, as on most published
maps.  It follows the hex grid, so a change of grid moves the legend instead of hiding hexes.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np
from PIL import Image, ImageDraw

from builder.model.game import Game
from builder.render.fonts import Rect, draw_text, fit, font, mark, wrap
from builder.render.mapsymbols import (GRID_INK, INK, SS, encampment, exit_arrow, feature_line, fort, hex_swatch, outlined,
                                       is_town, place_label, sc, strategic_ring, town_dot)

FILL, EDGE = "#f4ecd8", "#1d3047"
PAD, ROW_H, SYMBOL_W, SYMBOL_H, GAP = 14, 22, 40, 18, 22
EDGE_MARGIN = 12   # from the board's edge
CLEAR = 8          # from anything the legend must not hide
Q = 4              # board pixels per cell of the placement mask


@dataclass(frozen=True)
class Row:
    """One key entry: the text and the function drawing its symbol in the cell whose left middle is (x, y)."""

    text: str
    symbol: Callable[[ImageDraw.ImageDraw, float, float], None]


def _rule(text: str, *parts) -> str:
    extra = ", ".join(p for p in parts if p)
    return f"{text} ({extra})" if extra else text


def legend_rows(game: Game) -> list[Row]:
    """Every symbol the board prints: hexside features, the plain hexside, the hex terrains in use
    (fortifications, towns, coloured ones and the prohibited ones, sea or lake), then strategic and
    exit hexes if the map has any."""
    rows = []
    for f in game.terrain.hexside_features:
        cost = "prohibited" if f.prohibited else None if f.cost is None else f"{f.cost:g} MP"
        rows.append(Row(_rule(f.name, cost, f.rule), partial(_feature_symbol, f=f)))
    ground = game.hex_terrain_types[game.map.default_terrain]
    rows.append(Row(_rule(f"{ground.name} hexside", f"{game.terrain.hexside_default_cost:g} MP",
                          game.terrain.hexside_default_rule), partial(_plain_hexside, game=game, colour=ground.colour)))
    used = set(game.hex_terrain.values())
    for t in game.terrain.hex_terrain:
        if t.id not in used:
            continue
        if t.prohibited:  # sea, lake: printed, so explained (issue 35)
            rows.append(Row(_rule(t.name, "prohibited", t.rule), partial(_terrain_symbol, game=game, colour=t.colour)))
            continue
        if t.fortification:
            draw = fort if t.fortification == "fort" else encampment
            rows.append(Row(_rule(t.name, t.rule), partial(_centred_symbol, draw=draw,
                                                           r=9 if t.fortification == "fort" else 7)))
        elif is_town(game, t.id):
            rows.append(Row(_rule(t.name, t.rule), _town_symbol))
        elif t.colour != ground.colour:
            rows.append(Row(_rule(t.name, t.rule), partial(_terrain_symbol, game=game, colour=t.colour)))
    if any(p.strategic for p in game.map.places):
        rows.append(Row("Strategic hex", _strategic_symbol))
    if any(p.exit for p in game.map.places):
        rows.append(Row("Map exit", _exit_symbol))
    return rows


def _feature_symbol(d, x, y, f) -> None:
    feature_line(d, (x + 3, y), (x + SYMBOL_W - 3, y), f, centre_a=(x + SYMBOL_W / 2, y + 10))


def _centred_symbol(d, x, y, draw, r) -> None:
    draw(d, x + SYMBOL_W / 2, y + (2 if draw is encampment else 0), r)


def _strategic_symbol(d, x, y) -> None:
    strategic_ring(d, x + SYMBOL_W / 2, y, SYMBOL_H / 2)


def _town_symbol(d, x, y) -> None:
    town_dot(d, x + SYMBOL_W / 2, y, 5)


def _exit_symbol(d, x, y) -> None:
    exit_arrow(d, x + SYMBOL_W / 2 - 4, y, right=True)


def _terrain_symbol(d, x, y, game, colour) -> None:
    hex_swatch(d, game, x + SYMBOL_W / 2, y, SYMBOL_H, colour)


def _plain_hexside(d, x, y, game, colour) -> None:
    """Two hexes of the ground colour with the plain hexside between them, as the grid draws it."""
    geo = game.geometry
    pair = None
    for a in geo.labels:
        ax, ay = geo.ideal_centre(a)
        best = max((b for b in geo.neighbours(a) if geo.joined(a, b)), key=lambda b: (abs(geo.ideal_centre(b)[0] - ax), b),
                   default=None)
        if best is not None:
            pair = (a, best)
            break
    if pair is None:  # a one-hex map: a single hex
        hex_swatch(d, game, x + SYMBOL_W / 2, y, SYMBOL_H, colour)
        return
    shapes = [geo.outline(h) for h in pair]
    xs = [p[0] for s_ in shapes for p in s_]
    ys = [p[1] for s_ in shapes for p in s_]
    k = min((SYMBOL_W - 4) / (max(xs) - min(xs)), SYMBOL_H / (max(ys) - min(ys)))
    ox, oy = x + SYMBOL_W / 2 - k * (max(xs) + min(xs)) / 2, y - k * (max(ys) + min(ys)) / 2

    def put(p):
        return sc((ox + k * p[0], oy + k * p[1]))

    for s_ in shapes:
        outlined(d, [put(p) for p in s_], colour)
    side = geo.hexside(*pair)
    d.line([put(side.p1), put(side.p2)], fill=INK, width=SS)


# ---- layout --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """A legend's shape: `banner` puts the title block left of the key, otherwise above it."""

    width: float
    height: float
    columns: int
    banner: bool
    title_size: int
    title_width: float  # of the title block
    subtitle: list[str]
    column_width: float


def _subtitle(game: Game) -> str:
    """The description's first sentence: the operation and its dates."""
    first = re.split(r"(?<=[a-z0-9)])\. ", game.info.description.strip(), maxsplit=1)[0]
    return first.rstrip(".")


def _layout(game: Game, rows: list[Row], columns: int, banner: bool) -> Layout:
    text_font = font("semibold", 13 * SS)
    col_w = SYMBOL_W + 10 + max(text_font.getlength(r.text) for r in rows) / SS
    per_col = math.ceil(len(rows) / columns)
    key_w = columns * col_w + (columns - 1) * GAP
    key_h = per_col * ROW_H - (ROW_H - SYMBOL_H)
    title, sub_font = game.info.title.upper(), font("semibold", 15 * SS)
    if banner:  # the title at full size; the subtitle on one line unless much wider than the title
        natural = font("black", 34 * SS).getlength(title) / SS
        title_w = max(natural, min(sub_font.getlength(_subtitle(game)) / SS, 1.25 * natural), 240)
    else:
        title_w = max(key_w, 300)
    title_size = fit(title, "black", 34 * SS, title_w * SS).size
    subtitle = wrap(_subtitle(game), sub_font, title_w * SS, balance=True)
    title_h = title_size / SS + 8 + 20 * len(subtitle)
    if banner:
        return Layout(title_w + 2 * GAP + key_w + 2 * PAD, max(title_h, key_h) + 2 * PAD, columns, True,
                      title_size, title_w, subtitle, col_w)
    return Layout(title_w + 2 * PAD, title_h + 8 + key_h + 2 * PAD, columns, False, title_size, title_w, subtitle,
                  col_w)


def _layouts(game: Game, rows: list[Row]) -> list[Layout]:
    stacked = [_layout(game, rows, c, False) for c in range(1, min(3, len(rows)) + 1)]
    return stacked + [_layout(game, rows, c, True) for c in range(2, min(4, len(rows)) + 1)]


def _masks(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Two grids of Q x Q board pixels: what the legend must leave visible (land hexes, tracks,
    cups, names), and every hex (the legend had better hide none, sea included)."""
    b = game.map.board
    size = (math.ceil(b.width / Q) + 1, math.ceil(b.height / Q) + 1)
    blocked, hexes = Image.new("L", size, 0), Image.new("L", size, 0)
    d, dh = ImageDraw.Draw(blocked), ImageDraw.Draw(hexes)

    def rect(x0, y0, x1, y1):
        d.rectangle([x0 / Q, y0 / Q, x1 / Q, y1 / Q], fill=255)

    for label in game.geometry.labels:
        pts = [(px / Q, py / Q) for px, py in game.geometry.outline(label)]
        dh.polygon(pts, fill=255, outline=255)
        if not game.hex_terrain_types[game.hex_terrain[label]].prohibited:
            d.polygon(pts, fill=255, outline=255)
    for t in game.map.tracks:
        x, y = t.origin
        w, h = t.box
        rect(x, y - 24, x + w * len(t.boxes), y + h + 20)
    for deck in game.map.decks:
        (x, y), (w, h) = deck.origin, deck.box
        rect(x, y - 24, x + w, y + h)
    for p in game.map.places:
        (cx, cy), name, f = place_label(game, p)
        x0, y0, x1, y1 = f.getbbox(name, anchor="mm", stroke_width=2 * SS)
        rect(cx + x0 / SS, cy + y0 / SS, cx + x1 / SS, cy + y1 / SS)
    return tuple((np.asarray(m) > 0).astype(np.int32) for m in (blocked, hexes))


def _window_sums(mask: np.ndarray, w: int, h: int) -> np.ndarray:
    """The sum of `mask` over every w x h window (summed-area table)."""
    ii = np.pad(mask.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    return ii[h:, w:] - ii[:-h, w:] - ii[h:, :-w] + ii[:-h, :-w]


def place_legend(game: Game, rows: list[Row]) -> tuple[Rect, Layout]:
    """The panel's rectangle (board pixels) and layout.  It must hide no land hex, track, cup or
    name; then it had better hide no hex at all (the margin under the tracks); then the spot
    nearest the board's top right corner wins, and the fewest key columns."""
    b = game.map.board
    blocked, hexes = _masks(game)
    best = None
    for n, lay in enumerate(_layouts(game, rows)):
        w = math.ceil((lay.width + 2 * CLEAR) / Q)
        h = math.ceil((lay.height + 2 * CLEAR) / Q)
        if w >= blocked.shape[1] or h >= blocked.shape[0]:
            continue
        ys, xs = np.nonzero(_window_sums(blocked, w, h) == 0)
        px, py = xs * Q + CLEAR, ys * Q + CLEAR  # the panel's top left corner for each free window
        inside = ((px >= EDGE_MARGIN) & (py >= EDGE_MARGIN) & (px + lay.width <= b.width - EDGE_MARGIN)
                  & (py + lay.height <= b.height - EDGE_MARGIN))
        if not inside.any():
            continue
        ys, xs, px, py = ys[inside], xs[inside], px[inside], py[inside]
        over_hex = _window_sums(hexes, w, h)[ys, xs] > 0
        dist = np.hypot(b.width - EDGE_MARGIN - (px + lay.width), py - EDGE_MARGIN)
        order = np.lexsort((dist, over_hex))  # stable: the first of equals, so builds repeat
        i = int(order[0])
        key = (bool(over_hex[i]), float(dist[i]), n)
        if best is None or key < best[0]:
            best = (key, (float(px[i]), float(py[i]), float(px[i] + lay.width), float(py[i] + lay.height)), lay)
    if best is None:  # nowhere clear: the top right corner, and the tests will say so
        lay = _layouts(game, rows)[0]
        x1 = b.width - EDGE_MARGIN
        return (x1 - lay.width, EDGE_MARGIN, x1, EDGE_MARGIN + lay.height), lay
    return best[1], best[2]


# ---- drawing -------------------------------------------------------------------------------
def draw_legend(game: Game, d: ImageDraw.ImageDraw, placed: tuple[Rect, Layout] | None = None) -> Rect:
    """Draw the legend panel on the board (supersampled by SS); returns its rectangle in board pixels.
    `placed`: place_legend's answer, when the caller has it already."""
    rows = legend_rows(game)
    panel, lay = placed or place_legend(game, rows)
    x0, y0, x1, y1 = panel
    d.rounded_rectangle([v * SS for v in panel], radius=10 * SS, fill=FILL, outline=EDGE, width=2 * SS)
    mark("panel", tuple(v * SS for v in panel), scale=SS)
    inner = tuple(v * SS for v in (x0 + PAD / 2, y0 + PAD / 2, x1 - PAD / 2, y1 - PAD / 2))
    title = game.info.title.upper()
    cx = x0 + PAD + lay.title_width / 2
    y = y0 + PAD
    if lay.banner:  # the title block centred in the height of the panel
        y += (y1 - y0 - 2 * PAD - (lay.title_size / SS + 8 + 20 * len(lay.subtitle))) / 2
    draw_text(d, (cx * SS, y * SS), title, font("black", lay.title_size), EDGE, inner, scale=SS, anchor="ma")
    y += lay.title_size / SS + 8
    sub_font = font("semibold", 15 * SS)
    for line in lay.subtitle:
        draw_text(d, (cx * SS, y * SS), line, sub_font, EDGE, inner, scale=SS, anchor="ma")
        y += 20
    if lay.banner:
        sx = x0 + PAD + lay.title_width + GAP
        d.line([(sx * SS, (y0 + PAD) * SS), (sx * SS, (y1 - PAD) * SS)], fill=EDGE, width=SS)
        kx0, ky0 = sx + GAP, y0 + PAD + SYMBOL_H / 2
    else:
        kx0, ky0 = x0 + PAD, y + 8 + SYMBOL_H / 2
    per_col = math.ceil(len(rows) / lay.columns)
    text_font = font("semibold", 13 * SS)
    for i, row in enumerate(rows):
        col, k = divmod(i, per_col)
        kx, ky = kx0 + col * (lay.column_width + GAP), ky0 + k * ROW_H
        row.symbol(d, kx, ky)
        mark("symbol", ((kx * SS), (ky - SYMBOL_H / 2) * SS, (kx + SYMBOL_W) * SS, (ky + SYMBOL_H / 2) * SS),
             text=row.text, scale=SS)
        draw_text(d, ((kx + SYMBOL_W + 10) * SS, ky * SS), row.text, text_font, EDGE, inner, scale=SS, anchor="lm")
    return panel
