"""Get the command text out of a .vsav/.vlog file, refusing hostile input with a clear reason.

A save or log is a zip whose `savedGame` entry holds the obfuscated (`!VCSK`) or plain UTF-8
command text (vassal-formats.md §4.1-4.2).  A bare `savedGame` text is accepted too.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from builder.vassal.savefile import deobfuscate

MAX_TEXT = 256 * 1024 * 1024  # largest savedGame we inflate (bytes); real logs are a few MB


class LogFormatError(Exception):
    """The file cannot be read as a VASSAL save or log; the message says why in one line."""


@dataclass(frozen=True)
class SavedGame:
    path: str
    text: str
    metadata: dict[str, str]


def _metadata(z: zipfile.ZipFile) -> dict[str, str]:
    from lxml import etree

    out: dict[str, str] = {}
    for entry, prefix in (("savedata", "save"), ("moduledata", "module")):
        if entry in z.namelist() and z.getinfo(entry).file_size < 1_000_000:
            try:
                root = etree.fromstring(z.read(entry), etree.XMLParser(resolve_entities=False, no_network=True))
            except etree.XMLSyntaxError:
                continue
            for child in root:
                if isinstance(child.tag, str) and child.text and not child.get("lang"):
                    out.setdefault(f"{prefix}.{child.tag}", child.text)
    return out


def _decode(raw: bytes, where: str) -> str:
    try:
        return deobfuscate(raw)
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{where}: command text is not UTF-8 (byte {exc.start})") from None
    except ValueError:
        raise LogFormatError(f"{where}: broken !VCSK obfuscation (not hex pairs)") from None


def read_saved_game(path: Path) -> SavedGame:
    """The decoded command text of a save or log.  Raises LogFormatError."""
    name = str(path)
    if path.is_dir():
        raise LogFormatError(f"{name}: is a directory, not a save or log")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LogFormatError(f"{name}: cannot read ({exc.strerror})") from None
    if not data:
        raise LogFormatError(f"{name}: empty file")
    if not data.startswith(b"PK"):
        if data.startswith(b"!VCSK") or data.startswith(b"begin_save"):
            return SavedGame(name, _decode(data, name), {})
        raise LogFormatError(f"{name}: not a VASSAL save or log (no zip, no !VCSK header)")
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        names = z.namelist()
    except (zipfile.BadZipFile, ValueError) as exc:
        raise LogFormatError(f"{name}: broken zip ({exc})") from None
    if "savedGame" not in names:
        what = "a VASSAL module, not a save or log" if "buildFile.xml" in names or "buildFile" in names else "no savedGame entry"
        raise LogFormatError(f"{name}: {what}")
    info = z.getinfo("savedGame")
    if info.file_size > MAX_TEXT:
        raise LogFormatError(f"{name}: savedGame declares {info.file_size} bytes (limit {MAX_TEXT}): refused")
    try:
        with z.open(info) as f:
            raw = f.read(MAX_TEXT + 1)
    except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise LogFormatError(f"{name}: broken savedGame entry ({exc})") from None
    if len(raw) > MAX_TEXT:
        raise LogFormatError(f"{name}: savedGame inflates past {MAX_TEXT} bytes: refused (zip bomb?)")
    return SavedGame(name, _decode(raw, f"{name}:savedGame"), _metadata(z))
