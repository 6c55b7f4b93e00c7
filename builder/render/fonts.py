"""Fonts shipped by a PyPI package, so every machine draws the same letters."""
from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from PIL import ImageFont

_FILES = {"regular": "SourceSansPro-Regular.ttf", "semibold": "SourceSansPro-Semibold.ttf",
          "bold": "SourceSansPro-Bold.ttf", "black": "SourceSansPro-Black.ttf"}


@lru_cache(maxsize=256)
def font(weight: str, size: int) -> ImageFont.FreeTypeFont:
    path = files("font_source_sans_pro") / "files" / _FILES[weight]
    return ImageFont.truetype(str(path), max(1, int(size)))


def fit(text: str, weight: str, size: int, max_width: float) -> ImageFont.FreeTypeFont:
    """The largest font up to `size` in which `text` fits `max_width` pixels."""
    while size > 4:
        f = font(weight, size)
        if f.getlength(text) <= max_width:
            return f
        size -= 1
    return font(weight, 4)
