"""A small picture of the whole board, for the print kit's tile index (issue 35).

The board's own art when it has one (a scan), else the hexes in their terrain colours, the
hexside features as lines and the track boxes: enough to find a tile on the map at a glance,
drawn in a fraction of the full map's time and memory (Desert Fox's board is 8,000 px wide).
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from builder.model.game import Game

MAX_SIDE = 1200  # px of the longer side: sharp at the kit's contents page, small in the PDF
_last: tuple[Game, Image.Image] | None = None


def thumbnail(game: Game) -> Image.Image:
    """The board reduced to MAX_SIDE px on its longer side (the last game's is kept)."""
    global _last
    if _last is not None and _last[0] is game:
        return _last[1]
    b = game.map.board
    k = MAX_SIDE / max(b.width, b.height)
    size = (max(1, round(b.width * k)), max(1, round(b.height * k)))
    if b.image:  # checked when the game loaded (references._art)
        with Image.open(game.root / b.image) as scan:
            scan.draft("RGB", size)  # a JPEG decodes at a fraction of its size
            img = scan.convert("RGB").resize(size, Image.LANCZOS)
    else:
        img = _drawn(game, k, size)
    _last = (game, img)
    return img


def _drawn(game: Game, k: float, size: tuple[int, int]) -> Image.Image:
    img = Image.new("RGB", size, game.map.board.background)
    d = ImageDraw.Draw(img)
    geo, kinds = game.geometry, game.hex_terrain_types
    for label in geo.labels:
        d.polygon([(x * k, y * k) for x, y in geo.outline(label)], fill=kinds[game.hex_terrain[label]].colour)
    types = game.hexside_feature_types
    for (a, b), fs in sorted(game.hexside_features.items()):
        for f in fs:
            if types[f].style in ("river", "ridge", "cliff"):
                for side, _ in geo.hexside_drawn(a, b):
                    d.line([(side.p1[0] * k, side.p1[1] * k), (side.p2[0] * k, side.p2[1] * k)], fill=types[f].colour, width=1)
            else:
                for (x0, y0), (x1, y1) in geo.link(a, b):
                    d.line([(x0 * k, y0 * k), (x1 * k, y1 * k)], fill=types[f].colour, width=1)
    for tr in game.map.tracks:
        for box in tr.boxes:
            x, y, w, h = game.track_box_rect(tr.id, box)
            d.rectangle([x * k, y * k, (x + w) * k, (y + h) * k], fill="#efe6cf", outline="#2b2118")
    return img
