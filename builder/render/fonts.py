"""Fonts shipped by a PyPI package, so every machine draws the same letters.

Every text the map and the counters print goes through `draw_text` with the box it must stay
in; under `tracing()` each one is recorded with the box its letters really cover, so a test
can measure all of them at once instead of trusting each `fit` call.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

from PIL import ImageDraw, ImageFont

_FILES = {"regular": "SourceSansPro-Regular.ttf", "semibold": "SourceSansPro-Semibold.ttf",
          "bold": "SourceSansPro-Bold.ttf", "black": "SourceSansPro-Black.ttf"}

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


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


def wrap(text: str, f: ImageFont.FreeTypeFont, max_width: float, balance: bool = False) -> list[str]:
    """`text` broken at spaces into lines no wider than `max_width` (a single long word stays whole);
    `balance` evens the lines out (as many lines, the narrowest width that keeps that many)."""
    lines = _greedy(text, f, max_width)
    if balance and len(lines) > 1:
        phrases = text.split(", ")  # rather break after a comma, if that needs no more lines
        by_phrase = [", ".join(phrases[:k]) + "," for k in range(1, len(phrases))]
        for head in reversed(by_phrase):
            if f.getlength(head) <= max_width and len(_greedy(text[len(head):], f, max_width)) < len(lines):
                return [head] + _greedy(text[len(head):], f, max_width)
        lo, hi = max_width / len(lines), max_width
        while hi - lo > 1:
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if len(_greedy(text, f, mid)) <= len(lines) else (mid, hi)
        lines = _greedy(text, f, hi)
    return lines


def _greedy(text: str, f: ImageFont.FreeTypeFont, max_width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and f.getlength(f"{lines[-1]} {word}") <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


@dataclass(frozen=True)
class Mark:
    """One thing drawn, in the picture's final pixels: `bbox` what it covers, `box` where it must stay."""

    kind: str  # text | symbol | panel | band
    bbox: Rect
    box: Rect | None = None
    text: str = ""


_trace: ContextVar[list[Mark] | None] = ContextVar("hexforge_render_trace", default=None)


@contextmanager
def tracing():
    """Record every `Mark` drawn inside the block (tests only; drawing is unchanged)."""
    marks: list[Mark] = []
    token = _trace.set(marks)
    try:
        yield marks
    finally:
        _trace.reset(token)


def mark(kind: str, bbox: Rect, box: Rect | None = None, text: str = "", scale: float = 1) -> None:
    """Record a drawn shape when tracing; coordinates are divided by the supersampling `scale`."""
    marks = _trace.get()
    if marks is not None:
        marks.append(Mark(kind, tuple(v / scale for v in bbox),
                          None if box is None else tuple(v / scale for v in box), text))


def draw_text(d: ImageDraw.ImageDraw, xy, text: str, f: ImageFont.FreeTypeFont, fill: str, box: Rect,
              scale: float = 1, anchor: str = "mm", **kw) -> None:
    """`d.text`, recording the letters' real extent and the `box` they must stay inside."""
    d.text(xy, text, font=f, fill=fill, anchor=anchor, **kw)
    if _trace.get() is not None:
        bbox = d.textbbox(xy, text, font=f, anchor=anchor, stroke_width=kw.get("stroke_width", 0))
        mark("text", bbox, box, text, scale)
