"""The map board, drawn from the terrain data: hex fills, hexside features, names, tracks.

Everything is placed with the same `HexMap` that writes VASSAL's grid, so a hex drawn at a
spot is the hex VASSAL names there.  Drawn at 2x and reduced for smooth lines.
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from builder.model.game import Game
from builder.render.fonts import fit, font

SS = 2
GRID_INK = "#8a7a5a"
INK = "#2b2116"


def _s(pt):
    return (pt[0] * SS, pt[1] * SS)


def _poly(points):
    return [_s(p) for p in points]


def render_map(game: Game, setup_labels: dict[str, list[str]] | None = None) -> Image.Image:
    """The board image; `setup_labels` prints division names in their set-up hexes (rule 3)."""
    b = game.map.board
    img = Image.new("RGB", (b.width * SS, b.height * SS), b.background)
    d = ImageDraw.Draw(img)
    _hexes(game, d)
    _hexsides(game, d)
    _places(game, d)
    _hex_ids(game, d)
    if setup_labels:
        _setup_labels(game, d, setup_labels)
    _tracks(game, d)
    _decks(game, d)
    _cartouche(game, d)
    return img.resize((b.width, b.height), Image.LANCZOS)


def _hexes(game: Game, d: ImageDraw.ImageDraw) -> None:
    geo, kinds = game.geometry, game.hex_terrain_types
    for label in geo.labels:
        d.polygon(_poly(geo.outline(label)), fill=kinds[game.hex_terrain[label]].colour)
    for label in geo.labels:
        d.polygon(_poly(geo.outline(label)), outline=GRID_INK, width=SS)


def _hexsides(game: Game, d: ImageDraw.ImageDraw) -> None:
    """Cliffs on the hexside itself; roads and tracks centre to centre across it."""
    geo, types = game.geometry, game.hexside_feature_types
    by_style = {"river": [], "ridge": [], "cliff": [], "dashed": [], "line": []}
    for (a, b), features in sorted(game.hexside_features.items()):
        for f in sorted(features):
            by_style[types[f].style].append((a, b, types[f]))
    for a, b, f in by_style["river"]:
        _river(d, geo.hexside(a, b), f)
    for a, b, f in by_style["ridge"]:
        _ridge(d, geo.hexside(a, b), f)
    for a, b, f in by_style["cliff"]:
        _cliff(d, geo.hexside(a, b), geo.ideal_centre(a), f)
    for a, b, f in by_style["dashed"]:
        _dashed(d, geo.ideal_centre(a), geo.ideal_centre(b), f.colour, f.width)
    for a, b, f in by_style["line"]:
        pa, pb = geo.ideal_centre(a), geo.ideal_centre(b)
        d.line([_s(pa), _s(pb)], fill=f.colour, width=int(f.width * SS))
        for p in (pa, pb):
            r = f.width * SS / 2
            d.ellipse([p[0] * SS - r, p[1] * SS - r, p[0] * SS + r, p[1] * SS + r], fill=f.colour)


def _cliff(d, side, centre_a, f) -> None:
    """A heavy line with teeth pointing down-slope (toward hex a's side is arbitrary: both)."""
    (x1, y1), (x2, y2) = side.p1, side.p2
    d.line([_s(side.p1), _s(side.p2)], fill=f.colour, width=int(f.width * SS))
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    cx, cy = centre_a
    if (cx - x1) * nx + (cy - y1) * ny < 0:
        nx, ny = -nx, -ny
    for k in range(1, 6):
        t = k / 6
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        d.line([_s((px, py)), _s((px + nx * 6, py + ny * 6))], fill=f.colour, width=int(2 * SS))


def _ridge(d, side, f) -> None:
    """A line with short hachures on both sides (a crest crossed either way)."""
    (x1, y1), (x2, y2) = side.p1, side.p2
    d.line([_s(side.p1), _s(side.p2)], fill=f.colour, width=int(f.width * SS))
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    for k in range(1, 6):
        t, s = k / 6, 5 if k % 2 else -5
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        d.line([_s((px, py)), _s((px + nx * s, py + ny * s))], fill=f.colour, width=int(2 * SS))


def _river(d, side, f) -> None:
    """A wavy line along the hexside."""
    (x1, y1), (x2, y2) = side.p1, side.p2
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    pts = []
    for k in range(25):
        t = k / 24
        w = 2.5 * math.sin(t * 2 * math.pi * 2)
        pts.append(_s((x1 + (x2 - x1) * t + nx * w, y1 + (y2 - y1) * t + ny * w)))
    d.line(pts, fill=f.colour, width=int(f.width * SS), joint="curve")


def _dashed(d, a, b, colour, width) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    dash, gap = 9.0, 6.0
    t = 0.0
    while t < length:
        t2 = min(length, t + dash)
        p = (x1 + (x2 - x1) * t / length, y1 + (y2 - y1) * t / length)
        q = (x1 + (x2 - x1) * t2 / length, y1 + (y2 - y1) * t2 / length)
        d.line([_s(p), _s(q)], fill=colour, width=int(width * SS))
        t += dash + gap


def _places(game: Game, d: ImageDraw.ImageDraw) -> None:
    geo = game.geometry
    for p in game.map.places:
        cx, cy = geo.ideal_centre(p.hex)
        kind = game.hex_terrain_types[game.hex_terrain[p.hex]]
        if kind.fortification == "fort":
            _fort(d, cx, cy, 15)
        elif kind.fortification == "encampment":
            _encampment(d, cx, cy, 12)
        elif p.strategic:
            r = 6
            d.ellipse([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], fill=INK)
        if p.strategic:
            r = 34
            d.ellipse([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], outline="#b0281e", width=2 * SS)
        name = p.name + (f" ({p.vp} VP)" if p.vp > 1 else "")
        f = fit(name, "bold", 13 * SS, 90 * SS)
        _halo_text(d, (cx * SS, (cy + 21) * SS), name, f, INK)
        if p.exit:
            _exit_arrow(d, game, cx, cy - 4)


def _exit_arrow(d, game: Game, cx: float, cy: float) -> None:
    """An arrow pointing off the nearer side edge of the board (exit hexes)."""
    right = cx > game.map.board.width / 2
    k = 1 if right else -1
    x0, x1 = cx - 14 * k, cx + 10 * k
    d.line([(x0 * SS, cy * SS), (x1 * SS, cy * SS)], fill="#b0281e", width=4 * SS)
    d.polygon([((x1 + 8 * k) * SS, cy * SS), (x1 * SS, (cy - 7) * SS), (x1 * SS, (cy + 7) * SS)], fill="#b0281e")


def _fort(d, cx, cy, r) -> None:
    pts = []
    for k in range(10):
        ang = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append(((cx + rr * math.cos(ang)) * SS, (cy + rr * math.sin(ang)) * SS))
    d.polygon(pts, fill=INK)


def _encampment(d, cx, cy, r) -> None:
    d.rectangle([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], outline=INK, width=3 * SS)
    for k in range(-1, 2):
        x = cx + k * r * 0.6
        d.line([(x * SS, (cy - r - 4) * SS), (x * SS, (cy - r) * SS)], fill=INK, width=2 * SS)


def _halo_text(d, xy, text, f, fill) -> None:
    d.text(xy, text, font=f, fill=fill, anchor="mm", stroke_width=2 * SS, stroke_fill="#f7f0dc")


def _hex_ids(game: Game, d: ImageDraw.ImageDraw) -> None:
    geo = game.geometry
    f = font("semibold", 10 * SS)
    top = 3 * game.map.grid.dy / 8 if game.map.grid.sideways else game.map.grid.dy / 2 - 9
    for label in geo.labels:
        cx, cy = geo.ideal_centre(label)
        ink = "#ffffff" if game.hex_terrain_types[game.hex_terrain[label]].prohibited else "#5a4a30"
        d.text((cx * SS, (cy - top) * SS), label, font=f, fill=ink, anchor="mm")


def _setup_labels(game: Game, d: ImageDraw.ImageDraw, labels: dict[str, list[str]]) -> None:
    geo = game.geometry
    for hex_id, names in sorted(labels.items()):
        cx, cy = geo.ideal_centre(hex_id)
        for i, fid in enumerate(names):
            colour = game.formations[fid].stripe
            f = fit(fid, "bold", 11 * SS, 40 * SS)
            y = cy - 22 - i * 13 if game.places.get(hex_id) else cy + 2 + i * 13 - 6 * (len(names) - 1)
            w = f.getlength(fid) / SS + 8
            d.rounded_rectangle([(cx - w / 2) * SS, (y - 6) * SS, (cx + w / 2) * SS, (y + 6) * SS], radius=3 * SS,
                                fill=colour, outline=INK, width=SS)
            lum = sum(int(colour[i:i + 2], 16) * k for i, k in ((1, 0.299), (3, 0.587), (5, 0.114)))
            d.text((cx * SS, y * SS), fid, font=f, fill="#000000" if lum > 140 else "#ffffff", anchor="mm")


def _tracks(game: Game, d: ImageDraw.ImageDraw) -> None:
    for t in game.map.tracks:
        x, y = t.origin
        w, h = t.box
        d.text((x * SS, (y - 4) * SS), t.name.upper() if len(t.boxes) > 2 else "", font=font("bold", 13 * SS),
               fill=INK, anchor="ls")
        for box in t.boxes:
            bx, by, bw, bh = game.track_box_rect(t.id, box)
            d.rectangle([bx * SS, by * SS, (bx + bw) * SS, (by + bh) * SS], fill="#fbf7ec", outline=INK, width=2 * SS)
            text = box if len(t.boxes) > 2 else game.zone_name(t.id, box)
            d.text(((bx + 5) * SS, (by + 4) * SS), text, font=fit(text, "semibold", 13 * SS, (bw - 10) * SS),
                   fill="#6a5a40", anchor="la")
            cap = t.captions.get(box)
            if cap:
                d.text(((bx + bw / 2) * SS, (by + bh + 9) * SS), cap, font=fit(cap, "semibold", 11 * SS, bw * SS),
                       fill="#b0281e", anchor="mm")


def _decks(game: Game, d: ImageDraw.ImageDraw) -> None:
    """A draw cup: a rounded outline with its name (the pieces sit in the middle)."""
    for deck in game.map.decks:
        (x, y), (w, h) = deck.origin, deck.box
        d.rounded_rectangle([x * SS, y * SS, (x + w) * SS, (y + h) * SS], radius=18 * SS, fill="#e9dfc6",
                            outline=INK, width=3 * SS)
        d.text(((x + w / 2) * SS, (y - 4) * SS), deck.name.upper(), font=font("bold", 13 * SS), fill=INK, anchor="ms")


def _cartouche(game: Game, d: ImageDraw.ImageDraw) -> None:
    """Title and terrain key on a panel in the top right corner of the board."""
    b = game.map.board
    x1, y1 = b.width - 30, 34
    d.rounded_rectangle([(x1 - 330) * SS, (y1 - 14) * SS, (x1 + 14) * SS, (y1 + 222) * SS], radius=10 * SS,
                        fill="#f4ecd8", outline="#1d3047", width=2 * SS)
    title = game.info.title.upper()
    d.text(((x1 - 8) * SS, y1 * SS), title, font=fit(title, "black", 34 * SS, 315 * SS), fill="#1d3047", anchor="ra")
    sub = "Operation Crusader  20 Nov - 3 Dec 1941" if "Crusader" in game.info.description else game.info.description[:60]
    d.text(((x1 - 8) * SS, (y1 + 44) * SS), sub, font=font("semibold", 15 * SS), fill="#1d3047", anchor="ra")
    ky = y1 + 76
    kx = x1 - 300
    for f in game.terrain.hexside_features:
        if f.style in ("ridge", "river"):
            side = type("Side", (), {"p1": (kx, ky), "p2": (kx + 40, ky)})
            (_ridge if f.style == "ridge" else _river)(d, side, f)
        elif f.style == "cliff":
            d.line([(kx * SS, ky * SS), ((kx + 40) * SS, ky * SS)], fill=f.colour, width=int(f.width * SS))
            for k in range(1, 5):
                d.line([((kx + 8 * k) * SS, ky * SS), ((kx + 8 * k) * SS, (ky + 6) * SS)], fill=f.colour, width=2 * SS)
        elif f.style == "dashed":
            _dashed(d, (kx, ky), (kx + 40, ky), f.colour, f.width)
        else:
            d.line([(kx * SS, ky * SS), ((kx + 40) * SS, ky * SS)], fill=f.colour, width=int(f.width * SS))
        cost = "prohibited" if f.prohibited else None if f.cost is None else f"{f.cost:g} MP"
        d.text(((kx + 50) * SS, ky * SS), f"{f.name} ({', '.join(filter(None, (cost, f.rule)))})",
               font=font("semibold", 13 * SS), fill="#1d3047", anchor="lm")
        ky += 20
    ground = game.hex_terrain_types[game.map.default_terrain]
    d.text(((kx + 50) * SS, ky * SS), f"{ground.name} hexside ({game.terrain.hexside_default_cost:g} MP, "
           f"{game.terrain.hexside_default_rule})", font=font("semibold", 13 * SS), fill="#1d3047", anchor="lm")
    ky += 24
    forts = [t for t in game.terrain.hex_terrain if t.fortification]
    for i, t in enumerate(forts[:2]):
        x = kx + 120 * i
        (_fort(d, x + 20, ky, 9) if t.fortification == "fort" else _encampment(d, x + 20, ky, 7))
        label = f"{t.name} ({t.rule.split('.')[0]})" if t.rule else t.name
        d.text(((x + 50) * SS, ky * SS), label, font=font("semibold", 13 * SS), fill="#1d3047", anchor="lm")
    _terrain_key(game, d, kx, max(ky, y1 + 222) + 34)  # below the panel


def _terrain_key(game: Game, d: ImageDraw.ImageDraw, kx: float, ky: float) -> None:
    """Swatches of the hex terrains drawn in their own colour (none for a one-colour map)."""
    ground = game.hex_terrain_types[game.map.default_terrain].colour
    kinds = [t for t in game.terrain.hex_terrain
             if t.colour != ground and not t.prohibited and not t.fortification]
    b = game.map.board
    if kinds:
        d.rounded_rectangle([(kx - 16) * SS, (ky - 14) * SS, (b.width - 16) * SS, (ky + 20 * len(kinds)) * SS],
                            radius=10 * SS, fill="#f4ecd8", outline="#1d3047", width=2 * SS)
    for t in kinds:
        d.rectangle([kx * SS, (ky - 7) * SS, (kx + 40) * SS, (ky + 7) * SS], fill=t.colour, outline=GRID_INK, width=SS)
        d.text(((kx + 50) * SS, ky * SS), f"{t.name} ({t.rule})" if t.rule else t.name,
               font=font("semibold", 13 * SS), fill="#1d3047", anchor="lm")
        ky += 20
