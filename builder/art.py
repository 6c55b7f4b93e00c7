"""A designer's own art in the sources (issue 35): counter faces (PNG or SVG) and a board's scan.

A file named by the sources is read only from inside the game's folder (builder.paths.inside),
only up to MAX_ART bytes, and must decode as the image its name says; `art_problem` says what is
wrong in one line, which the loader reports at the file:line that names it.  SVG is drawn by
CairoSVG (PyPI `cairosvg`, maintained by Kozea, the authors of WeasyPrint), imported only when a
game has an SVG face: it needs the cairo library (libcairo2, on every Linux desktop and in
Debian/Ubuntu images), so a game of PNG art builds without it.  CairoSVG's safe mode reads no
file and no URL an SVG refers to (only `data:` URLs) and no XML entity.
"""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image

from builder.paths import inside

MAX_ART = 64 * 1024 * 1024  # bytes of one art file; an 8000 x 8000 scan compresses far below it
MAX_PIXELS = 8000 * 8000


class ArtError(ValueError):
    """An art file that cannot be used; the message says which and why, in one line."""


def _read(root: Path, rel: str) -> bytes:
    path = root / rel
    if not inside(root, path):
        raise ArtError(f"{rel} lies outside the game's folder")
    if not path.is_file():
        raise ArtError(f"{rel}: no such file in the game's folder")
    if path.stat().st_size > MAX_ART:
        raise ArtError(f"{rel} is larger than {MAX_ART // (1024 * 1024)} MB")
    return path.read_bytes()


def _svg_png(data: bytes, size: tuple[int, int] | None, rel: str) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # no cairosvg, or no cairo library under it
        raise ArtError(f"{rel}: SVG art needs CairoSVG and the cairo library ({exc.__class__.__name__}: "
                       f"{str(exc).splitlines()[0][:120]})") from None
    try:
        w, h = size or (None, None)
        return cairosvg.svg2png(bytestring=data, output_width=w, output_height=h)
    except Exception as exc:  # noqa: BLE001 - any parse or drawing failure of a bad file is the file's problem
        raise ArtError(f"{rel} is not an SVG image CairoSVG can draw ({exc.__class__.__name__}: "
                       f"{str(exc).splitlines()[0][:120] if str(exc) else ''})") from None


def _decode(data: bytes, rel: str) -> Image.Image:
    try:
        img = Image.open(io.BytesIO(data))
        if img.width * img.height > MAX_PIXELS:
            raise ArtError(f"{rel} is {img.width} x {img.height} px, more than {MAX_PIXELS} pixels")
        img.load()
    except ArtError:
        raise
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ArtError(f"{rel} is not an image ({exc})") from None
    return img


def is_svg(rel: str) -> bool:
    return rel.lower().endswith(".svg")


def art_problem(root: Path, rel: str, decode: bool = True) -> str | None:
    """What keeps the art file `rel` (relative to the game's folder `root`) from use, or None.
    `decode=False` (a board's scan, up to 8000 px a side) checks the file's structure without
    decoding its pixels."""
    try:
        if decode or is_svg(rel):
            _image(root, rel, (16, 16) if is_svg(rel) else None)
        else:
            data = _read(root, rel)
            try:
                with Image.open(io.BytesIO(data)) as img:
                    if img.width * img.height > MAX_PIXELS:
                        raise ArtError(f"{rel} is {img.width} x {img.height} px, more than {MAX_PIXELS} pixels")
                    img.verify()
            except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
                raise ArtError(f"{rel} is not an image ({exc})") from None
    except ArtError as exc:
        return str(exc)
    return None


def _image(root: Path, rel: str, size: tuple[int, int] | None) -> Image.Image:
    data = _read(root, rel)
    if is_svg(rel):
        return _decode(_svg_png(data, size, rel), rel)
    return _decode(data, rel)


@lru_cache(maxsize=256)
def _fitted(root: Path, rel: str, mtime: float, w: int, h: int, trim: bool) -> Image.Image:
    if is_svg(rel):  # drawn at the size it is shown, never scaled up from a small raster
        probe = _image(root, rel, (256, 256)).convert("RGBA")
        box = probe.getchannel("A").getbbox() if trim else None
        sw, sh = (box[2] - box[0], box[3] - box[1]) if box else probe.size
        k = min(w / sw, h / sh)
        art = _image(root, rel, (max(1, round(probe.width * k)), max(1, round(probe.height * k)))).convert("RGBA")
        if box:
            art = art.crop(tuple(round(v * k) for v in box))
    else:
        art = _image(root, rel, None).convert("RGBA")
        box = art.getchannel("A").getbbox() if trim else None
        if box:
            art = art.crop(box)
        k = min(w / art.width, h / art.height)
        art = art.resize((max(1, round(art.width * k)), max(1, round(art.height * k))), Image.LANCZOS)
    out = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    out.paste(art, ((w - art.width) // 2, (h - art.height) // 2), art)
    return out


def art_in(root: Path, rel: str, size: tuple[int, int], trim: bool = False) -> Image.Image:
    """The art as an RGBA picture of `size`: the whole picture (`trim`: its transparent margins
    cut off), as large as fits, centred; an image of another shape is not cut. Raises ArtError."""
    path = root / rel
    mtime = path.stat().st_mtime if path.is_file() else 0.0
    return _fitted(root, rel, mtime, max(1, size[0]), max(1, size[1]), trim).copy()


def fitted_art(root: Path, rel: str, px: int, background: str) -> Image.Image:
    """The art as a px x px RGB square on `background` (see `art_in`). Raises ArtError."""
    out = Image.new("RGB", (px, px), background)
    art = art_in(root, rel, (px, px))
    out.paste(art, (0, 0), art)
    return out
