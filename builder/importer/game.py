"""Import a module into sources/SLUG/: read it, compose the files, write them all at once.

The folder appears whole or not at all (written beside it, then renamed into place); an
existing game's folder is replaced only when asked (`force`).
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from builder.importer.archive import MAX_IMAGE, ImportFailed, ModuleArchive
from builder.importer.art import ArtFiles
from builder.importer.modulefile import read_module
from builder.importer.setups import placed_pieces
from builder.importer.sources import compose, slug as slugify

NOTES = "not-carried-over.txt"
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class ImportResult:
    dest: Path
    notes: list[str]
    names: dict[str, str]  # the module's piece name -> the rebuilt module's


def _dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def _art(data: bytes, size: tuple[int, int] | None) -> bytes:
    """The board's art as it is, or grown to `size` with a blank strip at the right and bottom."""
    import io

    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as img:
            if size is None or img.size == tuple(size):
                return data
            fmt = img.format or "PNG"
            grown = Image.new("RGB" if fmt == "JPEG" else img.mode, size, "white")
            grown.paste(img, (0, 0))
            buf = io.BytesIO()
            grown.save(buf, fmt, **({"quality": 95} if fmt == "JPEG" else {}))
            return buf.getvalue()
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImportFailed(f"the board's image cannot be read ({exc})") from None


def import_game(vmod: Path, sources: Path, slug: str | None = None, force: bool = False) -> ImportResult:
    """Raises ImportFailed (nothing written) with a one-line reason."""
    with ModuleArchive(vmod) as arc:
        return _import(arc, vmod, sources, slug, force)


def _import(arc: ModuleArchive, vmod: Path, sources: Path, slug: str | None, force: bool) -> ImportResult:
    mod = read_module(arc)
    slug = slug or slugify(vmod.stem)
    if not SLUG.match(slug):
        raise ImportFailed(f"{slug!r} is not a game slug (lower-case letters, digits and '-', at most 40)")
    dest = sources / slug
    if dest.exists() and not force:
        raise ImportFailed(f"sources/{slug} already exists; choose another slug, or --force to replace it")
    layouts: dict = {}  # the boards each map uses, as the first setup that says lays them out
    placed = {s.file: placed_pieces(arc, s.file, layouts) for s in mod.setups if s.file and arc.has(s.file)}
    missing = [s for s in mod.setups if s.file and not arc.has(s.file)]
    art = ArtFiles(arc)
    imported = compose(mod, placed, vmod.name, art, layouts)
    imported.notes[:0] = [f"setup {s.name!r}: its file {s.file!r} is not in the module; left out" for s in missing]
    sources.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{slug}.", dir=sources))
    try:
        head = f"# Imported by `hexforge import` from {vmod.name}; see {NOTES} for what was left out.\n"
        for rel, data in imported.files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(head + _dump(data), encoding="utf-8")
        if imported.art:
            (tmp / imported.art[0]).write_bytes(_art(arc.read(imported.art[1], MAX_IMAGE), imported.board_size))
        for name, data in art.files.items():  # the pieces' art, as the module holds it
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_bytes(data)
        for name, entry, size in imported.other_art:
            (tmp / name).write_bytes(_art(arc.read(entry, MAX_IMAGE), size))
        lines = [f"What `hexforge import` could not carry over from {vmod.name}, and why:", ""]
        (tmp / NOTES).write_text("\n".join(lines + [f"- {n}" for n in imported.notes]) + "\n", encoding="utf-8")
        os.chmod(tmp, 0o755)
        if dest.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{slug}.old.", dir=sources))
            os.replace(dest, old / slug)
            os.replace(tmp, dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ImportResult(dest, imported.notes, imported.names)
