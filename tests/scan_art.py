"""Art a designer would bring (issue 35), drawn for the tests: a "scanned" hex map with its ids
printed, a PNG and an SVG counter picture.  The scan's hexes are drawn with hex arithmetic of
its own (flat-topped columns, odd columns half a hex down), not with hexforge's geometry, so
fit-grid is tested against a picture, as a designer's scan would be."""
from __future__ import annotations

import math
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from builder.render.fonts import font


def scan_centre(col: int, row: int, dx: float, dy: float, ox: float, oy: float) -> tuple[float, float]:
    """Centre of column `col`, row `row` (0-based) of the drawn map."""
    return ox + col * dx, oy + row * dy + (dy / 2 if col % 2 else 0)


def draw_scan(path: Path, size: tuple[int, int], cols: int, rows: int, dx: float, dy: float, ox: float, oy: float,
              terrain: dict[str, str] | None = None, road: list[str] = (), seed: int = 1,
              boxes: list[tuple[int, int, int, int, str]] = ()) -> None:
    """A map as a scan shows it: paper tone with grain, hexes in their terrain colours with the id
    (CCRR, from 0101 at the top left) printed at the top of each, a road, slightly blurred."""
    terrain = terrain or {}
    img = Image.new("RGB", size, "#efe4c8")
    d = ImageDraw.Draw(img)
    r = dx * 2 / 3  # flat-topped hex: centre to corner along the row
    ids = font("semibold", max(8, int(dy * 0.16)))
    for c in range(cols):
        for w in range(rows):
            cx, cy = scan_centre(c, w, dx, dy, ox, oy)
            label = f"{c + 1:02d}{w + 1:02d}"
            pts = [(cx + r * math.cos(math.radians(a)), cy + dy / 2 * math.sin(math.radians(a)) / math.sin(math.radians(60)))
                   for a in range(0, 360, 60)]
            d.polygon(pts, fill=terrain.get(label, "#e6d9b0"), outline="#5b4a2e", width=2)
            d.text((cx, cy - dy * 0.32), label, font=ids, fill="#4a3b22", anchor="mm")
    if road:
        pts = []
        for label in road:
            c, w = int(label[:2]) - 1, int(label[2:]) - 1
            pts.append(scan_centre(c, w, dx, dy, ox, oy))
        d.line(pts, fill="#a3261b", width=max(3, int(dy * 0.06)))
    for x, y, w, h, text in boxes:  # the printed track boxes
        d.rectangle([x, y, x + w, y + h], fill="#f7efd9", outline="#5b4a2e", width=2)
        d.text((x + 5, y + 4), text, font=font("semibold", 13), fill="#4a3b22")
    rnd = random.Random(seed)
    for _ in range(size[0] * size[1] // 40):  # the paper's grain
        x, y = rnd.randrange(size[0]), rnd.randrange(size[1])
        v = rnd.randrange(-18, 18)
        p = img.getpixel((x, y))
        img.putpixel((x, y), tuple(max(0, min(255, ch + v)) for ch in p))
    img.filter(ImageFilter.GaussianBlur(0.6)).save(path)


def draw_png_art(path: Path, colour: str = "#2f5d2f") -> None:
    """A counter picture: a soldier's helmet and rifle, on a transparent ground."""
    img = Image.new("RGBA", (240, 240), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.pieslice([50, 60, 190, 200], 180, 360, fill=colour)
    d.rectangle([40, 128, 200, 140], fill=colour)
    d.line([60, 200, 180, 40], fill="#3b2a1a", width=12)
    img.save(path)


SVG_TANK = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120" width="200" height="120">
  <rect x="20" y="60" width="160" height="40" rx="20" fill="#3d4a2a" stroke="#111" stroke-width="4"/>
  <rect x="60" y="35" width="80" height="30" rx="6" fill="#56663a" stroke="#111" stroke-width="4"/>
  <rect x="135" y="44" width="60" height="10" fill="#111"/>
  <circle cx="45" cy="80" r="10" fill="#222"/><circle cx="100" cy="80" r="10" fill="#222"/>
  <circle cx="155" cy="80" r="10" fill="#222"/>
</svg>
"""


def write_svg_art(path: Path) -> None:
    path.write_text(SVG_TANK, encoding="utf-8")
