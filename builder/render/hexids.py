"""Hex ids no line hides (issue 35: a Desert Fox track ran through L2616 and escarpment teeth
through L2108, Bravery's strategic rings through the ids of their own hexes).

An id sits near the top of its hex, inside its outline (`mapsymbols.id_offset`), a little lower
where a cliff, ridge or river runs along that side, so that the line stays whole (`place_ids`);
every line drawn over the hexes (the teeth of those, roads and tracks centre to centre, strategic
rings) stops `GAP` pixels short of every id, as printed maps break a road around a number.  A halo
would cover what lies next to an id (a place name just above the id of the hex underneath);
a gap removes only the line's own ink.  Coordinates are board pixels; the board is drawn `SS`
times larger.
"""
from __future__ import annotations

import math
from collections import defaultdict

from shapely.geometry import LineString, box
from shapely.ops import unary_union

from builder.model.game import Game
from builder.render.fonts import Rect
from builder.render.mapsymbols import SS, edge_reach, id_font, id_offset, sc

GAP = 2.0    # between an id's letters and the ink of a line stopped short of it
SPECK = 1.5  # a piece of line shorter than this, left by the gaps, is not drawn
CELL = 64    # board pixels a side of the buckets the ids are found in
RING_STEPS = 120  # segments of a ring that is drawn with a gap


def place_ids(game: Game, d, legend: Rect) -> dict[str, tuple[tuple[float, float], Rect]]:
    """Every hex id's centre and the box its letters cover (board pixels), measured as `d` draws
    them; but for the ids the `legend` panel would cover, whole or in part (of sea hexes, which
    the legend may hide): the panel hides those whole, rather than cut one in two at its edge."""
    geo, f, top = game.geometry, id_font(), id_offset(game)
    x0, y0, x1, y1 = legend
    edges = _edge_lines(game)
    out = {}
    for label in geo.labels:
        cx, cy = geo.ideal_centre(label)
        bbox = tuple(v / SS for v in d.textbbox(sc((cx, cy - top)), label, font=f, anchor="mm"))
        if bbox[0] < x1 + GAP and x0 - GAP < bbox[2] and bbox[1] < y1 + GAP and y0 - GAP < bbox[3]:
            continue
        drop = _drop_below(bbox, edges.get(label), top / 2)
        if drop:
            bbox = tuple(v / SS for v in d.textbbox(sc((cx, cy - top + drop)), label, font=f, anchor="mm"))
        out[label] = (cx, cy - top + drop), bbox
    return out


def _edge_lines(game: Game) -> dict[str, object]:
    """For each hex with a cliff, ridge or river on one of its sides: the ink of those main lines."""
    geo, types = game.geometry, game.hexside_feature_types
    bands: dict[str, list] = {}
    for (a, b), features in game.hexside_features.items():
        for fid in features:
            f = types[fid]
            if f.style in ("cliff", "ridge", "river"):
                side = geo.hexside(a, b)
                band = LineString([side.p1, side.p2]).buffer(edge_reach(f), cap_style="flat")
                for h in (a, b):
                    bands.setdefault(h, []).append(band)
    return {h: unary_union(v) for h, v in bands.items()}


def _drop_below(bbox, lines, most: float) -> float:
    """How far to lower a hex id so that it clears the main lines on its hex's sides by GAP
    (the line stays whole; its teeth are gapped): 0 when it does already, or when it cannot
    within `most` pixels (the line is gapped there too)."""
    if lines is None:
        return 0.0
    drop = 0.0
    while drop <= most:
        # a half pixel more: the text lands on whole supersampled pixels
        moved = box(bbox[0], bbox[1] + drop, bbox[2], bbox[3] + drop)
        if not moved.buffer(GAP + 0.5, join_style="mitre").intersects(lines):  # as Gapped pads it
            return drop
        drop += 0.25
    return 0.0


class Gapped:
    """Stands for the drawing while lines are drawn over the hexes: a line (or a ring's outline)
    that would come within GAP of a hex id is drawn in pieces that stop short of it; a line that
    comes near no id is drawn as it was given, and every other call goes through unchanged."""

    def __init__(self, d, ids: list[Rect]) -> None:
        self._d = d
        self._ids = ids
        self._cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, (x0, y0, x1, y1) in enumerate(ids):
            for key in _cells(x0 - GAP, y0 - GAP, x1 + GAP, y1 + GAP):
                self._cells[key].append(i)

    def __getattr__(self, name: str):
        return getattr(self._d, name)

    def _near(self, pts, pad: float) -> list[Rect]:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        found = {i for key in _cells(min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
                 for i in self._cells.get(key, ())}
        return [(x0 - pad, y0 - pad, x1 + pad, y1 + pad) for x0, y0, x1, y1 in (self._ids[i] for i in sorted(found))]

    def line(self, xy, **kw) -> None:
        pts = _points(xy)
        # the ink of a line of width w lies within w/2 of its centre line (square ends: no further
        # along than across), so a centre line kept out of the id grown by GAP + w/2 leaves GAP
        pad = GAP + kw.get("width", 1) / SS / 2
        near = self._near(pts, pad)
        pieces = visible_pieces(pts, near) if near else [pts]
        if pieces == [pts]:
            self._d.line(xy, **kw)
            return
        for piece in pieces:
            self._d.line([(x * SS, y * SS) for x, y in piece], **kw)

    def ellipse(self, xy, **kw) -> None:
        """A filled ellipse goes through (no line); a ring that comes near an id is drawn as the
        middle circle of its outline, a closed line, gapped like any line."""
        (x0, y0), (x1, y1) = _points(xy)
        width = kw.get("width", 1)
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - width / SS / 2
        ring = [(cx + r * math.cos(2 * math.pi * k / RING_STEPS), cy + r * math.sin(2 * math.pi * k / RING_STEPS))
                for k in range(RING_STEPS + 1)]
        pad = GAP + width / SS / 2
        near = self._near(ring, pad) if kw.get("fill") is None and kw.get("outline") else []
        pieces = visible_pieces(ring, near) if near else [ring]
        if pieces == [ring]:
            self._d.ellipse(xy, **kw)
            return
        for piece in pieces:
            self._d.line([(x * SS, y * SS) for x, y in piece], fill=kw["outline"], width=width, joint="curve")


def _cells(x0: float, y0: float, x1: float, y1: float):
    for i in range(math.floor(x0 / CELL), math.floor(x1 / CELL) + 1):
        for j in range(math.floor(y0 / CELL), math.floor(y1 / CELL) + 1):
            yield i, j


def _points(xy) -> list[tuple[float, float]]:
    """ImageDraw's `xy` (points or a flat list, supersampled) as board points."""
    if all(isinstance(v, (tuple, list)) for v in xy):
        return [(p[0] / SS, p[1] / SS) for p in xy]
    flat = list(xy)
    return [(flat[i] / SS, flat[i + 1] / SS) for i in range(0, len(flat), 2)]


def _hidden(p, q, r: Rect) -> tuple[float, float] | None:
    """The part (t0, t1) of the segment p-q inside the rectangle r, or None (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - r[0]), (dx, r[2] - p[0]), (-dy, p[1] - r[1]), (dy, r[3] - p[1])):
        if pk == 0:
            if qk < 0:
                return None
        elif pk < 0:
            t0 = max(t0, qk / pk)
        else:
            t1 = min(t1, qk / pk)
    return (t0, t1) if t0 < t1 else None


def _visible(p, q, rects: list[Rect]) -> list[tuple[float, float]]:
    """The parts of the segment p-q outside every rectangle, as (t0, t1) in order."""
    hidden = sorted(h for h in (_hidden(p, q, r) for r in rects) if h)
    out, t = [], 0.0
    for a, b in hidden:
        if a > t:
            out.append((t, a))
        t = max(t, b)
    if t < 1.0:
        out.append((t, 1.0))
    return out


def visible_pieces(pts: list[tuple[float, float]], rects: list[Rect]) -> list[list[tuple[float, float]]]:
    """The polyline `pts` with every part inside a rectangle taken out: the pieces left, each a
    polyline (its joints kept), none shorter than SPECK."""
    if not any(_hidden(p, q, r) for p, q in zip(pts, pts[1:]) for r in rects):
        return [pts]
    pieces: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []

    def close():
        if len(cur) > 1 and sum(math.dist(a, b) for a, b in zip(cur, cur[1:])) >= SPECK:
            pieces.append(cur)

    for p, q in zip(pts, pts[1:]):
        parts = _visible(p, q, rects)
        if not parts:
            close()
            cur = []
        for a, b in parts:
            at = [(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t) for t in (a, b)]
            if a > 0 or not cur:
                close()
                cur = [p if a == 0 else at[0]]
            cur.append(q if b == 1 else at[1])
            if b < 1:
                close()
                cur = []
    close()
    return pieces
