"""The map's drawn symbols (hexside features, fortifications, exit arrows, hex swatches).

One set of drawing functions serves the board and its legend, so the key shows exactly what
the map prints.  Coordinates are board pixels; the image is drawn `SS` times larger.
"""
from __future__ import annotations

import math
from functools import lru_cache

from PIL import ImageDraw, ImageFont
from shapely.geometry import Polygon, box

from builder.model import schema as s
from builder.model.game import Game
from builder.render.fonts import fit, font

SS = 2
GRID_INK = "#8a7a5a"
INK = "#2b2116"
RED = "#b0281e"
ID_CLEAR = 1.5  # between a hex id's letters and its hex's outline (half the outline's width and a pixel)


def id_font() -> ImageFont.FreeTypeFont:
    """The hex ids' font (supersampled)."""
    return font("semibold", 10 * SS)


def id_offset(game: Game) -> float:
    """How far above its hex's centre every hex id is centred: a flat-topped hex's id 9 pixels
    under the top edge, a pointy-topped one's at 3/8 of the row; lower where the widest id would
    cross the outline there (Desert Fox's 50-pixel hexes)."""
    g, geo = game.map.grid, game.geometry
    k = 3 * g.dy / 8 if g.sideways else g.dy / 2 - 9
    if not geo.labels:
        return k
    x0, y0, x1, y1 = _ids_box(tuple(geo.labels))
    first = geo.labels[0]
    cx, cy = geo.ideal_centre(first)
    inside = Polygon([(x - cx, y - cy) for x, y in geo.outline(first)]).buffer(-ID_CLEAR, join_style="mitre")
    while k > 0 and not inside.contains(box(x0, y0 - k, x1, y1 - k)):
        k -= 0.25
    return k


@lru_cache(maxsize=8)
def _ids_box(labels: tuple[str, ...]) -> tuple[float, float, float, float]:
    """The box every one of `labels` fits in, centred on (0, 0) in board pixels, with the half
    pixel a text may move to land on whole supersampled pixels."""
    f = id_font()
    boxes = [f.getbbox(label, anchor="mm") for label in set(labels)]
    snap = 1 / SS
    return (min(b[0] for b in boxes) / SS - snap, min(b[1] for b in boxes) / SS - snap,
            max(b[2] for b in boxes) / SS + snap, max(b[3] for b in boxes) / SS + snap)


def sc(pt):
    """A board point in the supersampled image."""
    return (pt[0] * SS, pt[1] * SS)


def feature_line(d: ImageDraw.ImageDraw, a, b, f: s.HexsideFeature, centre_a=None) -> None:
    """A hexside feature: cliffs, ridges and rivers along the segment a-b (a hexside);
    roads and tracks (line, dashed) from a to b (centre to centre)."""
    side = type("Side", (), {"p1": a, "p2": b})
    if f.style == "river":
        river(d, side, f)
    elif f.style == "ridge":
        ridge(d, side, f)
    elif f.style == "cliff":
        cliff(d, side, centre_a if centre_a is not None else (a[0], a[1] - 10), f)
    elif f.style == "dashed":
        dashed(d, a, b, f.colour, f.width)
    else:
        d.line([sc(a), sc(b)], fill=f.colour, width=int(f.width * SS))
        for p in (a, b):
            r = f.width * SS / 2
            d.ellipse([p[0] * SS - r, p[1] * SS - r, p[0] * SS + r, p[1] * SS + r], fill=f.colour)


def cliff(d, side, centre_a, f) -> None:
    """A heavy line with teeth pointing toward hex a."""
    (x1, y1), (x2, y2) = side.p1, side.p2
    d.line([sc(side.p1), sc(side.p2)], fill=f.colour, width=int(f.width * SS))
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    cx, cy = centre_a
    if (cx - x1) * nx + (cy - y1) * ny < 0:
        nx, ny = -nx, -ny
    for k in range(1, 6):
        t = k / 6
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        d.line([sc((px, py)), sc((px + nx * 6, py + ny * 6))], fill=f.colour, width=int(2 * SS))


def ridge(d, side, f) -> None:
    """A line with short hachures on both sides (a crest crossed either way)."""
    (x1, y1), (x2, y2) = side.p1, side.p2
    d.line([sc(side.p1), sc(side.p2)], fill=f.colour, width=int(f.width * SS))
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    for k in range(1, 6):
        t, s_ = k / 6, 5 if k % 2 else -5
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        d.line([sc((px, py)), sc((px + nx * s_, py + ny * s_))], fill=f.colour, width=int(2 * SS))


def river(d, side, f) -> None:
    """A wavy line along the hexside."""
    (x1, y1), (x2, y2) = side.p1, side.p2
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    pts = []
    for k in range(25):
        t = k / 24
        w = 2.5 * math.sin(t * 2 * math.pi * 2)
        pts.append(sc((x1 + (x2 - x1) * t + nx * w, y1 + (y2 - y1) * t + ny * w)))
    d.line(pts, fill=f.colour, width=int(f.width * SS), joint="curve")


def edge_reach(f: s.HexsideFeature) -> float:
    """How far the main line of a feature drawn on the hexside (cliff, ridge, river) reaches to
    either side of it: half its width, and a river's wave (the teeth and hachures reach further,
    and are left out where an id is: hexids.Gapped)."""
    return f.width / 2 + (2.5 if f.style == "river" else 0)


def dashed(d, a, b, colour, width) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    dash, gap = 9.0, 6.0
    t = 0.0
    while t < length:
        t2 = min(length, t + dash)
        p = (x1 + (x2 - x1) * t / length, y1 + (y2 - y1) * t / length)
        q = (x1 + (x2 - x1) * t2 / length, y1 + (y2 - y1) * t2 / length)
        d.line([sc(p), sc(q)], fill=colour, width=int(width * SS))
        t += dash + gap


def fort(d, cx, cy, r) -> None:
    pts = []
    for k in range(10):
        ang = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append(((cx + rr * math.cos(ang)) * SS, (cy + rr * math.sin(ang)) * SS))
    d.polygon(pts, fill=INK)


def encampment(d, cx, cy, r) -> None:
    d.rectangle([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], outline=INK, width=3 * SS)
    for k in range(-1, 2):
        x = cx + k * r * 0.6
        d.line([(x * SS, (cy - r - 4) * SS), (x * SS, (cy - r) * SS)], fill=INK, width=2 * SS)


def strategic_ring(d, cx, cy, r) -> None:
    """The red ring around a strategic hex."""
    d.ellipse([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], outline=RED, width=2 * SS)


def town_dot(d, cx, cy, r=6) -> None:
    """A village or town: terrain that looks like the open ground around it, so it needs a mark."""
    d.ellipse([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], fill=INK)


def is_town(game: Game, terrain_id: str) -> bool:
    """A terrain of the ground's colour that is neither the ground itself, a fortification nor sea."""
    t, ground = game.hex_terrain_types[terrain_id], game.hex_terrain_types[game.map.default_terrain]
    return t.id != ground.id and t.colour == ground.colour and not t.fortification and not t.prohibited


def exit_arrow(d, cx: float, cy: float, right: bool) -> None:
    """An arrow pointing off the board's side edge (exit hexes)."""
    k = 1 if right else -1
    x0, x1 = cx - 14 * k, cx + 10 * k
    d.line([(x0 * SS, cy * SS), (x1 * SS, cy * SS)], fill=RED, width=4 * SS)
    d.polygon([((x1 + 8 * k) * SS, cy * SS), (x1 * SS, (cy - 7) * SS), (x1 * SS, (cy + 7) * SS)], fill=RED)


def hex_shape(game: Game, cx: float, cy: float, height: float) -> list[tuple[float, float]]:
    """A hex of the map's own orientation, `height` pixels tall, centred on (cx, cy)."""
    if game.map.grid.sideways:  # pointy top: point to point is twice the radius
        angles, r = [90 + 60 * k for k in range(6)], height / 2
    else:  # flat top: flat to flat is sqrt(3) times the radius
        angles, r = [60 * k for k in range(6)], height / math.sqrt(3)
    return [(cx + r * math.cos(math.radians(a)), cy - r * math.sin(math.radians(a))) for a in angles]


def outlined(d, pts, fill: str | None = None, ink: str = GRID_INK) -> None:
    """A polygon with an SS-wide outline.  The outline is drawn as a closed line: Pillow draws a
    wide polygon outline through a mask of the whole picture, which on a large board made every
    hex cost a full-size allocation (a 3680 x 2960 map took over a minute)."""
    if fill is not None:
        d.polygon(pts, fill=fill)
    d.line(list(pts) + [pts[0], pts[1]], fill=ink, width=SS, joint="curve")


def hex_swatch(d, game: Game, cx: float, cy: float, height: float, colour: str) -> None:
    outlined(d, [sc(p) for p in hex_shape(game, cx, cy, height)], colour)


def _label_text(p: s.Place) -> str:
    return p.name + (f" ({p.vp} VP)" if p.vp > 1 else "")


def place_label(game: Game, p: s.Place) -> tuple[tuple[float, float], str, ImageFont.FreeTypeFont]:
    """Where a place's name is printed (centre, board pixels), the text, and its (supersampled) font.
    Two places side by side on a row (Desert Fox Deluxe: Marble Arch S0931, Ras es Ali S0932)
    share the space between them: a name that would cross its neighbour's is set smaller."""
    cx, cy = game.geometry.ideal_centre(p.hex)
    name = _label_text(p)
    g = game.map.grid  # 21 px below the centre, or less on small hexes: above the id of the hex underneath
    below = (g.dx if g.sideways else g.dy) - id_offset(game)  # where that id is centred (mapimage._hex_ids)
    width = 90 * SS
    f = fit(name, "bold", 13 * SS, width)
    for q in game.map.places:
        qx, qy = game.geometry.ideal_centre(q.hex)
        gap = abs(qx - cx) * SS
        if q is p or abs(qy - cy) > 1 or not 0 < gap < width:
            continue
        other = fit(_label_text(q), "bold", 13 * SS, width)
        if (f.getlength(name) + other.getlength(_label_text(q))) / 2 > gap - 6 * SS:
            f = fit(name, "bold", 13 * SS, min(f.getlength(name), gap - 6 * SS))
    return (cx, cy + min(21, below - 11.5)), name, f
