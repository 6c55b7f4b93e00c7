"""The map board, drawn from the terrain data: hex fills, hexside features, names, tracks, legend.

Everything is placed with the same `HexMap` that writes VASSAL's grid, so a hex drawn at a
spot is the hex VASSAL names there.  Drawn at 2x and reduced for smooth lines, strip by strip (_Recorder).  Every text
goes through `fonts.draw_text` with the box it must stay in (tests measure them all).
"""
from __future__ import annotations

import zlib

import numpy as np
from PIL import Image, ImageDraw

from builder.model.game import Game
from builder.render.fonts import draw_text, fit, font, mark, wrap
from builder.render.hexids import Gapped, place_ids
from builder.render.legend import draw_legend, legend_rows, place_legend
from builder.render.mapsymbols import (GRID_INK, INK, SS, cliff, dashed, encampment, exit_arrow, feature_line, fort,
                                       id_font, is_town, outlined, place_label, ridge, river, sc,
                                       strategic_ring, town_dot)

BOX_FILL, BOX_INK, CAPTION_INK = "#fbf7ec", "#6a5a40", "#b0281e"


def _poly(points):
    return [sc(p) for p in points]


STRIP = 128  # board rows drawn at once (issue 35: the whole board at 2x held 800 MB for Desert Fox)
# ImageDraw truncates the position of a text, an ellipse or a wide line's end toward zero: one placed
# above a strip's top lands a pixel off, so a strip starts above each of those it draws (all are
# small; a line cut short of a hex id ends anywhere)
KINDS = ("text", "ellipse", "line")
MARGIN = 32  # supersampled rows drawn beyond a strip on each side: more than the reduction filter reaches


class _Recorder:
    """Stands for an ImageDraw while the board is drawn: keeps every drawing call, with the rows
    it can reach, to be drawn strip by strip (`_replay`); measuring calls go to a real ImageDraw.

    The board is drawn at 2x in strips and each strip reduced at once, so that the 2x board is
    never in memory whole; a strip is drawn with MARGIN rows more on each side and cut after the
    reduction, so the pixels are those of the whole board reduced at once."""

    def __init__(self) -> None:
        self._measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
        self.calls: list[tuple[float, float, str, tuple, dict]] = []

    def textbbox(self, *args, **kw):
        return self._measure.textbbox(*args, **kw)

    def textlength(self, *args, **kw):
        return self._measure.textlength(*args, **kw)

    def _keep(self, name: str, xy, kw: dict) -> None:
        ys = [v for i, v in enumerate(_flat(xy)) if i % 2]
        reach = kw.get("width", 1) + kw.get("stroke_width", 0) + kw.get("radius", 0) + 4 * SS
        if "font" in kw:
            reach += 2 * kw["font"].size
        self.calls.append((min(ys) - reach, max(ys) + reach, name, xy, kw))

    def __getattr__(self, name: str):
        if name not in ("ellipse", "line", "polygon", "rectangle", "rounded_rectangle", "text"):
            raise AttributeError(name)
        return lambda xy, *rest, **kw: self._keep(name, xy, dict(kw, **({"_rest": rest} if rest else {})))


def _flat(xy) -> list[float]:
    out: list[float] = []
    for v in xy:
        out.extend(v) if isinstance(v, (tuple, list)) else out.append(v)
    return out


def _shift(xy, dy: int):
    """`xy` in any of ImageDraw's forms (points, a flat list, a box, one point), moved up by dy."""
    if all(isinstance(v, (tuple, list)) for v in xy):
        return [(p[0], p[1] - dy) for p in xy]
    flat = list(xy)
    return [v - dy if i % 2 else v for i, v in enumerate(flat)]


def _strips(rec: _Recorder, width: int, height: int, background: str):
    """The recorded board drawn at SS strip by strip: (top row, the strip reduced to board pixels)."""
    for top in range(0, height, STRIP):
        bottom = min(height, top + STRIP)
        lo, hi = max(0, top * SS - MARGIN), min(height * SS, bottom * SS + MARGIN)
        calls = [c for c in rec.calls if c[1] >= lo and c[0] <= hi]
        # the strip starts above every text, ellipse and line it draws (KINDS)
        lo = max(0, min([lo] + [int(min(_flat(c[3])[1::2])) // SS * SS - SS for c in calls if c[2] in KINDS]))
        strip = Image.new("RGB", (width * SS, hi - lo), background)
        d = ImageDraw.Draw(strip)
        for y0, y1, name, xy, kw in calls:
            if True:
                kw = dict(kw)
                rest = kw.pop("_rest", ())
                getattr(d, name)(_shift(xy, lo), *rest, **kw)
        # reduced with its margins (the rows the filter reads), then cut: the rows the whole
        # board's reduction would make
        part = strip.resize((width, (hi - lo) // SS), Image.LANCZOS)
        del strip, d
        yield top, part.crop((0, top - lo // SS, width, bottom - lo // SS))


def _replay(rec: _Recorder, width: int, height: int, background: str) -> Image.Image:
    out = Image.new("RGB", (width, height), background)
    for top, part in _strips(rec, width, height, background):
        out.paste(part, (0, top))
    return out


def _chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")


def _png(rec: _Recorder, width: int, height: int, background: str) -> bytes:
    """The board as PNG bytes, written strip by strip (the whole board is never in memory):
    8-bit RGB, each row with PNG's Sub filter, zlib level 6."""
    z = zlib.compressobj(6)
    idat = bytearray()
    for _, part in _strips(rec, width, height, background):
        rows = np.asarray(part, dtype=np.uint8)
        sub = rows.copy()
        sub[:, 1:, :] -= rows[:, :-1, :]  # Sub: each byte less the byte of the pixel to its left (mod 256)
        lines = np.concatenate([np.ones((rows.shape[0], 1), np.uint8), sub.reshape(rows.shape[0], -1)], axis=1)
        idat += z.compress(lines.tobytes())
    idat += z.flush()
    head = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", head) + _chunk(b"IDAT", bytes(idat)) + _chunk(b"IEND", b"")


def render_map(game: Game, setup_labels: dict[str, list[str]] | None = None) -> Image.Image:
    """The board image; `setup_labels` prints division names in their set-up hexes (rule 3)."""
    b = game.map.board
    return _replay(_record(game, setup_labels), b.width, b.height, b.background)


def render_map_png(game: Game, setup_labels: dict[str, list[str]] | None = None) -> bytes:
    """render_map's image as PNG bytes, without the whole image in memory (the module's map.png)."""
    b = game.map.board
    return _png(_record(game, setup_labels), b.width, b.height, b.background)


def _record(game: Game, setup_labels) -> _Recorder:
    d = _Recorder()
    legend = place_legend(game, legend_rows(game))
    ids = place_ids(game, d, legend[0])
    _hexes(game, d)
    gapped = Gapped(d, [bbox for _, bbox in ids.values()])  # lines stop short of every hex id
    _hexsides(game, gapped)
    _places(game, d, gapped)
    _hex_ids(game, d, ids)
    if setup_labels:
        _setup_labels(game, d, setup_labels)
    _tracks(game, d)
    _decks(game, d)
    draw_legend(game, d, legend)
    return d


def _board_box(game: Game) -> tuple[float, float, float, float]:
    return (0, 0, game.map.board.width, game.map.board.height)


def _text(d, xy, text, f, fill, box, anchor="mm", **kw) -> None:
    """Text at `xy` that must stay inside `box`, both in board pixels (`f` is supersampled)."""
    draw_text(d, sc(xy), text, f, fill, tuple(v * SS for v in box), scale=SS, anchor=anchor, **kw)


def _hexes(game: Game, d: ImageDraw.ImageDraw) -> None:
    geo, kinds = game.geometry, game.hex_terrain_types
    for label in geo.labels:
        d.polygon(_poly(geo.outline(label)), fill=kinds[game.hex_terrain[label]].colour)
    for label in geo.labels:
        outlined(d, _poly(geo.outline(label)))


def _hexsides(game: Game, d: ImageDraw.ImageDraw) -> None:
    """Cliffs on the hexside itself; roads and tracks centre to centre across it."""
    geo, types = game.geometry, game.hexside_feature_types
    by_style = {"river": [], "ridge": [], "cliff": [], "dashed": [], "line": []}
    for (a, b), features in sorted(game.hexside_features.items()):
        for f in sorted(features):
            by_style[types[f].style].append((a, b, types[f]))
    # where two sections are drawn apart (sections.PlacedHexMap), a hexside is drawn beside each
    # hex and a road goes half way from each centre
    for a, b, f in by_style["river"]:
        for side, _ in geo.hexside_drawn(a, b):
            river(d, side, f)
    for a, b, f in by_style["ridge"]:
        for side, _ in geo.hexside_drawn(a, b):
            ridge(d, side, f)
    for a, b, f in by_style["cliff"]:
        for side, toward in geo.hexside_drawn(a, b):
            cliff(d, side, toward, f)
    for a, b, f in by_style["dashed"]:
        for p, q in geo.link(a, b):
            dashed(d, p, q, f.colour, f.width)
    for a, b, f in by_style["line"]:
        for p, q in geo.link(a, b):
            feature_line(d, p, q, f)


def _places(game: Game, d: ImageDraw.ImageDraw, lines) -> None:
    """Towns, fortifications, names and exits; strategic rings through `lines` (gapped at the ids)."""
    geo = game.geometry
    for label in geo.labels:
        if is_town(game, game.hex_terrain[label]):
            town_dot(d, *geo.ideal_centre(label))
    for p in game.map.places:
        cx, cy = geo.ideal_centre(p.hex)
        kind = game.hex_terrain_types[game.hex_terrain[p.hex]]
        if kind.fortification == "fort":
            fort(d, cx, cy, 15)
        elif kind.fortification == "encampment":
            encampment(d, cx, cy, 12)
        if p.strategic:
            strategic_ring(lines, cx, cy, 34)
        xy, name, f = place_label(game, p)
        _text(d, xy, name, f, INK, _board_box(game), stroke_width=2 * SS, stroke_fill="#f7f0dc")
        if p.exit:
            # a little above the centre, clear of the name under it and of the id above it
            exit_arrow(d, cx, cy - 2, right=cx > game.map.board.width / 2)


def _hex_ids(game: Game, d: ImageDraw.ImageDraw, ids) -> None:
    geo, f = game.geometry, id_font()
    for label, (xy, _) in ids.items():
        ink = "#ffffff" if game.hex_terrain_types[game.hex_terrain[label]].prohibited else "#5a4a30"
        xs, ys = zip(*geo.outline(label))
        _text(d, xy, label, f, ink, (min(xs), min(ys), max(xs), max(ys)))


def _setup_labels(game: Game, d: ImageDraw.ImageDraw, labels: dict[str, list[str]]) -> None:
    geo = game.geometry
    for hex_id, names in sorted(labels.items()):
        cx, cy = geo.ideal_centre(hex_id)
        for i, fid in enumerate(names):
            colour = game.formations[fid].stripe
            f = fit(fid, "bold", 11 * SS, 40 * SS)
            y = cy - 22 - i * 13 if game.places.get(hex_id) else cy + 2 + i * 13 - 6 * (len(names) - 1)
            w = f.getlength(fid) / SS + 8
            tag = (cx - w / 2, y - 6.5, cx + w / 2, y + 6.5)
            d.rounded_rectangle([v * SS for v in tag], radius=3 * SS, fill=colour, outline=INK, width=SS)
            lum = sum(int(colour[i:i + 2], 16) * k for i, k in ((1, 0.299), (3, 0.587), (5, 0.114)))
            _text(d, (cx, y), fid, f, "#000000" if lum > 140 else "#ffffff", tag)


def _caption_below(game: Game, track) -> bool:
    """A box's caption goes under the track when that strip is free (board, other tracks, cups)."""
    x, y = track.origin
    w, h = track.box
    strip = (x, y + h, x + w * len(track.boxes), y + h + 18)
    if strip[3] > game.map.board.height:
        return False
    others = [(t.origin[0], t.origin[1] - 24, t.origin[0] + t.box[0] * len(t.boxes), t.origin[1] + t.box[1])
              for t in game.map.tracks if t is not track]
    others += [(k.origin[0], k.origin[1] - 24, k.origin[0] + k.box[0], k.origin[1] + k.box[1]) for k in game.map.decks]
    return not any(a[0] < strip[2] and strip[0] < a[2] and a[1] < strip[3] and strip[1] < a[3] for a in others)


def _tracks(game: Game, d: ImageDraw.ImageDraw) -> None:
    for t in game.map.tracks:
        x, y = t.origin
        w, h = t.box
        if len(t.boxes) > 2:
            _text(d, (x, y - 4), t.name.upper(), font("bold", 13 * SS), INK,
                  (x, y - 24, x + w * len(t.boxes), y), anchor="ls")
        below = _caption_below(game, t)
        for box in t.boxes:
            bx, by, bw, bh = game.track_box_rect(t.id, box)
            rect = (bx, by, bx + bw, by + bh)
            d.rectangle([v * SS for v in rect], fill=BOX_FILL, outline=INK, width=2 * SS)
            mark("box", rect, text=game.zone_name(t.id, box))
            _box_label(d, box if len(t.boxes) > 2 else game.zone_name(t.id, box), rect)
            cap = t.captions.get(box)
            if cap:
                f = fit(cap, "semibold", 12 * SS, (bw - 8) * SS)
                if below:
                    _text(d, (bx + bw / 2, by + bh + 9), cap, f, CAPTION_INK, (bx, by + bh, bx + bw, by + bh + 18))
                else:  # printed in the box, under the piece that sits in its middle
                    _text(d, (bx + bw / 2, by + bh - 5), cap, f, CAPTION_INK, rect, anchor="ms")


def _box_label(d, text: str, rect) -> None:
    """A box's name in its top left corner, on two lines rather than in letters too small to read."""
    x0, y0, x1, _ = rect
    width = (x1 - x0 - 10) * SS
    f = fit(text, "semibold", 13 * SS, width)
    lines = [text]
    if f.size < 12 * SS and " " in text:
        f = font("semibold", 12 * SS)
        lines = wrap(text, f, width)
        f = min((fit(line, "semibold", 12 * SS, width) for line in lines), key=lambda g: g.size)
    for i, line in enumerate(lines):
        _text(d, (x0 + 5, y0 + 4 + i * 1.1 * f.size / SS), line, f, BOX_INK, rect, anchor="la")


def _decks(game: Game, d: ImageDraw.ImageDraw) -> None:
    """A draw cup: a rounded outline with its name (the pieces sit in the middle)."""
    for deck in game.map.decks:
        (x, y), (w, h) = deck.origin, deck.box
        d.rounded_rectangle([x * SS, y * SS, (x + w) * SS, (y + h) * SS], radius=18 * SS, fill="#e9dfc6",
                            outline=INK, width=3 * SS)
        mark("box", (x, y, x + w, y + h), text=deck.name)
        _text(d, (x + w / 2, y - 4), deck.name.upper(), font("bold", 13 * SS), INK, (x - 10, y - 24, x + w + 10, y),
              anchor="ms")
