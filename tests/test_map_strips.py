"""The board is drawn at 2x strip by strip (issue 35: Desert Fox's whole 2x board held 800 MB):
the pixels are those of the whole board drawn and reduced at once, and no image near the 2x
board's size is ever made."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from builder.model import load_game
from builder.render import mapimage
from builder.render.mapsymbols import SS
from builder.vassal.module import map_png, setup_labels

SOURCES = Path(__file__).resolve().parent.parent / "sources"


@pytest.fixture(scope="module")
def game():
    return load_game(SOURCES / "bravery-in-the-sand")


def _whole(game) -> Image.Image:
    """The recorded board drawn on one 2x image and reduced at once (the way it was drawn before)."""
    b = game.map.board
    rec = mapimage._record(game, setup_labels(game))
    img = Image.new("RGB", (b.width * SS, b.height * SS), b.background)
    d = ImageDraw.Draw(img)
    for _, _, name, xy, kw in rec.calls:
        kw = dict(kw)
        rest = kw.pop("_rest", ())
        getattr(d, name)(xy, *rest, **kw)
    return img.resize((b.width, b.height), Image.LANCZOS)


def test_strips_give_the_pixels_of_the_whole_board(game):
    assert game.map.board.height > 2 * mapimage.STRIP  # several strips, so their seams are tested
    strips = mapimage.render_map(game, setup_labels(game))
    assert ImageChops.difference(strips, _whole(game)).getbbox() is None


def test_the_modules_png_is_the_board_image(game):
    png = Image.open(io.BytesIO(map_png(game)))
    assert png.mode == "RGB" and png.size == (game.map.board.width, game.map.board.height)
    assert ImageChops.difference(png, mapimage.render_map(game, setup_labels(game))).getbbox() is None
    assert map_png(game) == map_png(game)  # reproducible


def test_no_image_near_the_whole_2x_board_is_made(game, monkeypatch):
    made = []
    real = Image.new

    def new(mode, size, *args, **kw):
        made.append(size[0] * size[1])
        return real(mode, size, *args, **kw)
    monkeypatch.setattr(mapimage.Image, "new", new)
    map_png(game)
    b = game.map.board
    assert made and max(made) < b.width * b.height * SS * SS / 4  # a strip with its margins, never the board
