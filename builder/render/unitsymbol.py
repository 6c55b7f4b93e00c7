"""A unit type's APP-6 symbol drawn on a counter face (issue 35).

The library (`military-symbol`, builder/model/app6.py) gives each symbol as SVG in one frame of
reference: paths, circles and ellipses, filled or stroked in black, white and the frame's fill.
Here they are drawn with Pillow onto the face (supersampled like the rest of the face), so that
the module, the counter sheets and the print kit show the same pixels: the frame's rectangle
fitted to the face's symbol box, black as the face's ink, white as the paper behind the symbol,
the frame's own fill left out (the counter's colour shows through, as on printed counters), and
the strokes thickened to the face's line width.  Whatever the library draws beyond the frame (an
HQ staff, an echelon mark) is kept inside `clip`.  Curves are flattened into short straight
pieces, the same every run (the builds stay byte-identical).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from lxml import etree
from PIL import Image, ImageChops, ImageDraw

from builder.model import app6

_SVG = "{http://www.w3.org/2000/svg}"
_BLACK, _WHITE = "#000000", "#ffffff"
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _matrix(text: str | None):
    """An SVG transform as (a, b, c, d, e, f)."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(x) for x in _NUM.findall(args)]
        if name == "matrix":
            t = tuple(v)
        elif name == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            a = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) > 2 else (0, 0)
            c, s = math.cos(a), math.sin(a)
            t = (c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy)
        else:
            continue
        m = _compose(m, t)
    return m


def _compose(m, t):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = t
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _subpaths(d: str, m) -> list[tuple[list[tuple[float, float]], bool]]:
    """A path's pieces as point lists (curves flattened) and whether each is closed."""
    from svgpathtools import Line, parse_path
    out = []
    for sub in parse_path(d).continuous_subpaths():
        if not len(sub):
            continue
        pts = [sub[0].start]
        for seg in sub:
            steps = 1 if isinstance(seg, Line) else max(4, min(24, int(seg.length() / 1.5) + 1))
            pts += [seg.point(k / steps) for k in range(1, steps + 1)]
        out.append(([_apply(m, p.real, p.imag) for p in pts], sub.isclosed()))
    return out


def _ellipse(cx, cy, rx, ry, m):
    pts = [_apply(m, cx + rx * math.cos(2 * math.pi * k / 48), cy + ry * math.sin(2 * math.pi * k / 48)) for k in range(49)]
    return [(pts, True)]


@lru_cache(maxsize=None)
def shapes(code: str):
    """The SIDC's drawing: (frame box, [(pieces, fill, stroke, stroke width)]) in the library's units.

    `fill`/`stroke` are "ink" (black), "paper" (white) or None; the frame's fill is None."""
    root = etree.fromstring(app6.svg(code).encode())
    frame = None
    out = []

    def walk(el, m, style):
        if el.get("display") == "none" or el.get("opacity") in ("0", "0.0"):
            return
        m = _compose(m, _matrix(el.get("transform")))
        style = dict(style)
        for key in ("fill", "stroke", "stroke-width"):
            if el.get(key) is not None:
                style[key] = el.get(key)
        tag = etree.QName(el).localname
        if tag == "path":
            pieces = _subpaths(el.get("d"), m)
        elif tag == "circle":
            r = float(el.get("r"))
            pieces = _ellipse(float(el.get("cx", 0)), float(el.get("cy", 0)), r, r, m)
        elif tag == "ellipse":
            pieces = _ellipse(float(el.get("cx", 0)), float(el.get("cy", 0)), float(el.get("rx")), float(el.get("ry")), m)
        else:
            for child in el:
                if isinstance(child.tag, str):
                    walk(child, m, style)
            return
        if not pieces:
            return
        fill, stroke = (style.get("fill") or _BLACK).lower(), (style.get("stroke") or "none").lower()
        nonlocal frame
        if fill not in ("none", _BLACK, _WHITE):  # the frame's own fill: where the frame is
            xs = [x for pts, _ in pieces for x, _ in pts]
            ys = [y for pts, _ in pieces for _, y in pts]
            frame = frame or (min(xs), min(ys), max(xs), max(ys))
            fill = "none"
        role = {_BLACK: "ink", _WHITE: "paper"}
        out.append((pieces, role.get(fill), role.get(stroke), float(style.get("stroke-width", 1)) * abs(m[0])))

    walk(root, (1, 0, 0, 1, 0, 0), {})
    if frame is None:
        raise app6.SymbolError(f"symbol {code}: the library's drawing has no frame to fit on the counter")
    return frame, out


def draw(img: Image.Image, box, code: str, ink: str, paper: str, width: float, clip) -> None:
    """Draw SIDC `code` on `img` (RGB): its frame fitted inside `box` (x0, y0, x1, y1, centred, its
    proportions kept), its frame line `width` pixels wide, nothing outside `clip`."""
    (fx0, fy0, fx1, fy1), items = shapes(code)
    x0, y0, x1, y1 = box
    k = min((x1 - x0) / (fx1 - fx0), (y1 - y0) / (fy1 - fy0))
    ox = (x0 + x1) / 2 - k * (fx0 + fx1) / 2
    oy = (y0 + y1) / 2 - k * (fy0 + fy1) / 2
    frame_line = min(w for _, f, s, w in items if s) if any(s for _, _, s, _ in items) else 1.0
    thick = width / (frame_line * k)  # library units of line -> face pixels, the frame at `width`
    colour = {"ink": ink, "paper": paper}
    cx0, cy0, cx1, cy1 = (int(round(v)) for v in clip)
    size = (max(1, cx1 - cx0), max(1, cy1 - cy0))  # drawn in the clip's window only
    ox, oy = ox - cx0, oy - cy0
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    for pieces, fill, stroke, w in items:
        px = [([(ox + k * x, oy + k * y) for x, y in pts], closed) for pts, closed in pieces]
        if fill:
            mask = Image.new("1", size, 0)
            for pts, _ in px:  # even-odd: a piece inside another is a hole
                if len(pts) > 2:
                    one = Image.new("1", size, 0)
                    ImageDraw.Draw(one).polygon(pts, fill=1)
                    mask = ImageChops.logical_xor(mask, one)
            layer.paste(colour[fill], (0, 0), mask)
        if stroke:
            lw = max(1, round(w * k * thick))
            for pts, closed in px:
                line = pts + [pts[0], pts[1]] if closed and len(pts) > 1 else pts
                d.line(line, fill=colour[stroke], width=lw, joint="curve")
                for end in ((pts[0], pts[-1]) if not closed else ()):  # round caps, as the library asks
                    r = lw / 2
                    d.ellipse([end[0] - r, end[1] - r, end[0] + r, end[1] + r], fill=colour[stroke])
    img.paste(layer, (cx0, cy0), layer)
