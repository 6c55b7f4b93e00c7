"""A module's zip, opened with every read bounded: hostile input gets one line, never a traceback.

Only what the import reads is inflated (the build file, the board art, the set-up saves), each
entry at most its limit and never past its declared size (a zip bomb is refused as such).
"""
from __future__ import annotations

import zipfile
import zlib
from pathlib import Path, PurePosixPath

MAX_FILE = 1024 * 1024 * 1024  # a module's bytes; the largest library modules are a few hundred MB
MAX_ENTRIES = 50_000
MAX_BUILD = 64 * 1024 * 1024  # a build file's inflated bytes (real ones are well under 1 MB)
MAX_SAVE = 128 * 1024 * 1024  # a predefined setup's inflated bytes
MAX_IMAGE = 64 * 1024 * 1024  # a board image's bytes
CHUNK = 1 << 20
ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError, ValueError)


class ImportFailed(Exception):
    """The module cannot be imported; the message says why, in one line."""


class ModuleArchive:
    """The entries of a .vmod, read with limits."""

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        if not path.is_file():
            raise ImportFailed(f"{path}: no such file (a VASSAL module, .vmod, is a zip file)")
        if path.stat().st_size > MAX_FILE:
            raise ImportFailed(f"{path}: larger than {MAX_FILE} bytes: refused")
        try:
            with path.open("rb") as f:
                if f.read(2) != b"PK":
                    raise ImportFailed(f"{path}: not a VASSAL module (not a zip file)")
            self.zip = zipfile.ZipFile(path)
            infos = self.zip.infolist()
        except ImportFailed:
            raise
        except ERRORS as exc:
            raise ImportFailed(f"{path}: broken zip ({exc})") from None
        if len(infos) > MAX_ENTRIES:
            raise ImportFailed(f"{path}: {len(infos)} entries (limit {MAX_ENTRIES}): refused")
        for info in infos:
            p = PurePosixPath(info.orig_filename.replace("\\", "/"))
            if p.is_absolute() or ".." in p.parts or "\0" in info.orig_filename or (p.parts and ":" in p.parts[0]):
                raise ImportFailed(f"{path}: entry {info.orig_filename!r} points outside the module's folder: refused")
        self.entries = {i.orig_filename: i for i in infos}

    def close(self) -> None:
        self.zip.close()

    def __enter__(self) -> "ModuleArchive":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has(self, name: str) -> bool:
        return name in self.entries

    def image_size(self, name: str, limit: int) -> tuple[int, int] | None:
        """(width, height) of an image entry from its header alone (the pixels are inflated once,
        when the art is written), or None when it is missing, too large or no image."""
        from PIL import Image

        info = self.entries.get(name)
        if info is None or info.file_size > limit or info.flag_bits & 1 \
                or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            return None
        try:
            with self.zip.open(info) as f, Image.open(f) as im:
                return im.size
        except (*ERRORS, SyntaxError, Image.DecompressionBombError):
            return None

    def read(self, name: str, limit: int) -> bytes:
        """The entry's bytes; ImportFailed if it is missing, too large, or inflates past its size."""
        info = self.entries.get(name)
        if info is None:
            raise ImportFailed(f"{self.name}: no entry {name!r}")
        if info.file_size > limit:
            raise ImportFailed(f"{self.name}: {name} declares {info.file_size} bytes (limit {limit}): refused")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 1:
            raise ImportFailed(f"{self.name}: {name} is encrypted or compressed in a way VASSAL cannot read")
        out = bytearray()
        try:
            with self.zip.open(info) as f:
                while chunk := f.read(min(CHUNK, info.file_size + 1 - len(out))):
                    out += chunk
                    if len(out) > info.file_size:
                        raise ImportFailed(f"{self.name}: {name} inflates past its declared size: refused (zip bomb?)")
        except ImportFailed:
            raise
        except ERRORS as exc:
            raise ImportFailed(f"{self.name}: broken entry {name} ({exc})") from None
        return bytes(out)
