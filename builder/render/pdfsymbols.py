"""The module's map symbols and legend as vector paths, for the printed map (issue 18).

builder/render/mapsymbols.py draws the symbols in pixels for the module's map.png and
builder/render/legend.py its legend; here the same shapes, sizes (board pixels times the print
scale `s`) and legend rows are drawn on a reportlab canvas, so the printed map shows what the
module shows and its key explains it.  Page points have y up; `toward` and centres are page
points too.
"""
from __future__ import annotations

import math

from builder.model.game import Game
from builder.render import legend as legend_data
from builder.render.mapsymbols import RED, hex_shape
from builder.render.sheets import _text_fit

INK = "#2b2118"


def _path(cv, pts):
    p = cv.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    p.close()
    return p


def feature(cv, a, b, f, s: float, toward=None) -> None:
    """A hexside feature between page points a and b: along the hexside (river: wavy, ridge:
    hachured, cliff: teeth toward `toward`) or centre to centre (line, dashed)."""
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1) or 1
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    cv.setStrokeColor(f.colour)
    cv.setLineWidth(max(0.6, f.width * s))
    if f.style == "river":
        p = cv.beginPath()
        for k in range(25):
            u = k / 24
            w = 2.5 * s * math.sin(u * 4 * math.pi)
            (p.moveTo if k == 0 else p.lineTo)(x1 + (x2 - x1) * u + nx * w, y1 + (y2 - y1) * u + ny * w)
        cv.drawPath(p, stroke=1, fill=0)
        return
    if f.style == "dashed":
        cv.setDash(9 * s, 6 * s)
    cv.line(x1, y1, x2, y2)
    cv.setDash()
    if f.style in ("ridge", "cliff"):
        if f.style == "cliff" and toward is not None and (toward[0] - x1) * nx + (toward[1] - y1) * ny < 0:
            nx, ny = -nx, -ny
        cv.setLineWidth(max(0.4, 2 * s))
        for k in range(1, 6):
            u, d = k / 6, (6 if f.style == "cliff" else 5 if k % 2 else -5) * s
            px, py = x1 + (x2 - x1) * u, y1 + (y2 - y1) * u
            cv.line(px, py, px + nx * d, py + ny * d)


def fort(cv, cx, cy, r) -> None:
    """A star (mapsymbols.fort)."""
    p = cv.beginPath()
    for k in range(10):
        ang = math.pi / 2 - k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        (p.moveTo if k == 0 else p.lineTo)(cx + rr * math.cos(ang), cy + rr * math.sin(ang))
    p.close()
    cv.setFillColor(INK)
    cv.drawPath(p, stroke=0, fill=1)


def encampment(cv, cx, cy, r) -> None:
    """A square with three posts on top (mapsymbols.encampment)."""
    cv.setStrokeColor(INK)
    cv.setLineWidth(r / 4)
    cv.rect(cx - r, cy - r, 2 * r, 2 * r, stroke=1, fill=0)
    cv.setLineWidth(r / 6)
    for k in (-1, 0, 1):
        cv.line(cx + k * r * 0.6, cy + r, cx + k * r * 0.6, cy + r * 1.33)


def town_dot(cv, cx, cy, r) -> None:
    cv.setFillColor(INK)
    cv.circle(cx, cy, r, stroke=0, fill=1)


def strategic_ring(cv, cx, cy, r) -> None:
    cv.setStrokeColor(RED)
    cv.setLineWidth(max(0.6, r / 17))
    cv.circle(cx, cy, r, stroke=1, fill=0)


def exit_arrow(cv, cx, cy, s: float, right: bool) -> None:
    """An arrow off the board's side edge (mapsymbols.exit_arrow)."""
    k = 1 if right else -1
    x0, x1 = cx - 14 * s * k, cx + 10 * s * k
    cv.setStrokeColor(RED)
    cv.setFillColor(RED)
    cv.setLineWidth(4 * s)
    cv.line(x0, cy, x1, cy)
    p = cv.beginPath()
    p.moveTo(x1 + 8 * s * k, cy)
    p.lineTo(x1, cy - 7 * s)
    p.lineTo(x1, cy + 7 * s)
    p.close()
    cv.drawPath(p, stroke=0, fill=1)


def _swatch(cv, game: Game, cx, cy, h, colour, s: float) -> None:
    pts = [(cx + (x - cx), cy - (y - cy)) for x, y in hex_shape(game, cx, cy, h)]
    cv.setFillColor(colour)
    cv.setStrokeColor("#8a7a5a")
    cv.setLineWidth(max(0.3, s))
    cv.drawPath(_path(cv, pts), stroke=1, fill=1)


def _key_symbol(cv, game: Game, row, x: float, y: float, s: float) -> None:
    """The symbol of a legend row in its cell, whose left middle is page point (x, y)."""
    L = legend_data
    fn = getattr(row.symbol, "func", row.symbol)
    kw = getattr(row.symbol, "keywords", {})
    w, h = L.SYMBOL_W * s, L.SYMBOL_H * s
    if fn is L._feature_symbol:
        feature(cv, (x + 3 * s, y), (x + w - 3 * s, y), kw["f"], s, toward=(x + w / 2, y - 10 * s))
    elif fn is L._centred_symbol:
        if kw["draw"] is L.fort:
            fort(cv, x + w / 2, y, kw["r"] * s)
        else:
            encampment(cv, x + w / 2, y - 2 * s, kw["r"] * s)
    elif fn is L._strategic_symbol:
        strategic_ring(cv, x + w / 2, y, h / 2)
    elif fn is L._town_symbol:
        town_dot(cv, x + w / 2, y, 5 * s)
    elif fn is L._exit_symbol:
        exit_arrow(cv, x + w / 2 - 4 * s, y, s, right=True)
    elif fn is L._terrain_symbol:
        _swatch(cv, game, x + w / 2, y, h, kw["colour"], s)
    elif fn is L._plain_hexside:  # two hexes of the ground with the plain hexside between them
        _swatch(cv, game, x + w / 2 - h * 0.45, y, h, kw["colour"], s)
        _swatch(cv, game, x + w / 2 + h * 0.45, y, h, kw["colour"], s)


def legend(cv, game: Game, placed, s: float, pen, fonts) -> None:
    """The module's legend (legend.py: its rows, and `placed` = place_legend's rectangle and
    layout in board pixels) drawn as vectors; `pen` maps board pixels to page points, `s` is
    points per board pixel."""
    regular, semibold = fonts
    L = legend_data
    rows = L.legend_rows(game)
    (x0, y0, x1, y1), ll = placed
    px, py = pen(x0, y1)
    cv.setFillColor(L.FILL)
    cv.setStrokeColor(L.EDGE)
    cv.setLineWidth(2 * s)
    cv.roundRect(px, py, (x1 - x0) * s, (y1 - y0) * s, 10 * s, stroke=1, fill=1)
    title = game.info.title.upper()
    cx = x0 + L.PAD + ll.title_width / 2
    y = y0 + L.PAD
    if ll.banner:
        y += (y1 - y0 - 2 * L.PAD - (ll.title_size / L.SS + 8 + 20 * len(ll.subtitle))) / 2
    cv.setFillColor(L.EDGE)
    size = _text_fit(title, semibold, ll.title_size / L.SS * s, ll.title_width * s)
    cv.setFont(semibold, size)
    tx, ty = pen(cx, y)
    cv.drawCentredString(tx, ty - size * 0.8, title)
    y += ll.title_size / L.SS + 8
    for line in ll.subtitle:
        size = _text_fit(line, semibold, 15 * s, ll.title_width * s)
        cv.setFont(semibold, size)
        tx, ty = pen(cx, y)
        cv.drawCentredString(tx, ty - size * 0.8, line)
        y += 20
    if ll.banner:
        sx = x0 + L.PAD + ll.title_width + L.GAP
        cv.setLineWidth(s)
        cv.line(*pen(sx, y0 + L.PAD), *pen(sx, y1 - L.PAD))
        kx0, ky0 = sx + L.GAP, y0 + L.PAD + L.SYMBOL_H / 2
    else:
        kx0, ky0 = x0 + L.PAD, y + 8 + L.SYMBOL_H / 2
    per_col = math.ceil(len(rows) / ll.columns)
    for i, row in enumerate(rows):
        col, k = divmod(i, per_col)
        kx, ky = kx0 + col * (ll.column_width + L.GAP), ky0 + k * L.ROW_H
        _key_symbol(cv, game, row, *pen(kx, ky), s)
        size = _text_fit(row.text, semibold, 13 * s, (ll.column_width - L.SYMBOL_W - 10) * s)
        cv.setFillColor(L.EDGE)
        cv.setFont(semibold, size)
        tx, ty = pen(kx + L.SYMBOL_W + 10, ky)
        cv.drawString(tx, ty - size * 0.35, row.text)
