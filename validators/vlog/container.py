"""Get the command text out of a .vsav/.vlog file, refusing hostile input with a clear reason.

A save or log is a zip whose `savedGame` entry holds the obfuscated (`!VCSK`) or plain UTF-8
command text (vassal-formats.md §4.1-4.2).  A bare `savedGame` text is accepted too.
"""
from __future__ import annotations

import copy
import io
import lzma
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from builder.vassal.savefile import deobfuscate

MAX_TEXT = 256 * 1024 * 1024  # largest savedGame we inflate (bytes); real logs are a few MB
ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, NotImplementedError, RuntimeError,
               ValueError)  # zipfile lets its decompressors' own errors (zlib, lzma) through
# Java's zip classes, so VASSAL, read and write only these; an LZMA entry's header can also demand
# a decompression dictionary of up to 4 GB from a file of a hundred bytes
ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


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
            if z.getinfo(entry).compress_type not in ZIP_METHODS:
                raise LogFormatError(f"broken {entry} entry (zip compression method {z.getinfo(entry).compress_type}, "
                                     "not one VASSAL reads: stored, deflated)")
            try:
                root = etree.fromstring(z.read(entry), etree.XMLParser(resolve_entities=False, no_network=True))
            except etree.XMLSyntaxError:
                continue
            except ZIP_ERRORS as exc:
                raise LogFormatError(f"broken {entry} entry ({exc})") from None
            for child in root:
                if isinstance(child.tag, str) and child.text and not child.get("lang"):
                    out.setdefault(f"{prefix}.{child.tag}", child.text)
    return out


def _decode(raw: bytes, where: str) -> str:
    if raw.startswith(b"VOBS"):  # no such format in VASSAL 3.7/3.8 sources: refuse it by name
        raise LogFormatError(f"{where}: unsupported obfuscation 'VOBS' (not VASSAL's !VCSK): cannot read")
    vcsk = raw.startswith(b"!VCSK")
    key = f" after !VCSK key {raw[5:7].decode('ascii', 'replace')} (wrong key?)" if vcsk else ""
    try:
        text = deobfuscate(raw)
    except UnicodeDecodeError as exc:
        if exc.encoding == "ascii":
            raise LogFormatError(f"{where}: broken !VCSK obfuscation (not hex pairs)") from None
        raise LogFormatError(f"{where}: command text is not UTF-8 (byte {exc.start}){key}") from None
    except ValueError:
        raise LogFormatError(f"{where}: broken !VCSK obfuscation (not hex pairs)") from None
    if vcsk and not text.startswith("begin_save"):
        raise LogFormatError(f"{where}: command text does not start with begin_save{key}")
    return text


def read_saved_game(path: Path) -> SavedGame:
    """The decoded command text of a save or log.  Raises LogFormatError."""
    name = str(path)
    if path.is_dir():
        raise LogFormatError(f"{name}: is a directory, not a save or log")
    try:
        with path.open("rb") as f:
            data = f.read(MAX_TEXT + 1)  # capped: a huge file or a device never fills memory
    except OSError as exc:
        raise LogFormatError(f"{name}: cannot read ({exc.strerror})") from None
    if not data:
        raise LogFormatError(f"{name}: empty file")
    if len(data) > MAX_TEXT:
        raise LogFormatError(f"{name}: larger than {MAX_TEXT} bytes: refused")
    if not data.startswith(b"PK"):
        if data.startswith((b"!VCSK", b"begin_save", b"VOBS")):
            return SavedGame(name, _decode(data, name), {})
        raise LogFormatError(f"{name}: not a VASSAL save or log (no zip, no !VCSK header)")
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        names = z.namelist()
    except ZIP_ERRORS as exc:
        raise LogFormatError(f"{name}: broken zip ({exc})") from None
    # the exact stored name: zipfile cuts names at NUL, so "savedGame\0x" would pass for it
    found = [i for i in z.infolist() if i.orig_filename == "savedGame"]
    if not found:
        what = "a VASSAL module, not a save or log" if "buildFile.xml" in names or "buildFile" in names else "no savedGame entry"
        raise LogFormatError(f"{name}: {what}")
    info = found[-1]
    if info.file_size > MAX_TEXT:
        raise LogFormatError(f"{name}: savedGame declares {info.file_size} bytes (limit {MAX_TEXT}): refused")
    if info.compress_type not in ZIP_METHODS:
        raise LogFormatError(f"{name}: broken savedGame entry (zip compression method {info.compress_type}, "
                             "not one VASSAL reads: stored, deflated)")
    if info.flag_bits & 1:
        raise LogFormatError(f"{name}: savedGame entry is encrypted: cannot read")
    probe = copy.copy(info)  # read one byte past the declared size to catch an entry that inflates further
    probe.file_size = info.file_size + 1
    del probe.CRC  # checked below, on what we read
    try:
        with z.open(probe) as f:
            raw = f.read(probe.file_size)
    except ZIP_ERRORS as exc:
        raise LogFormatError(f"{name}: broken savedGame entry ({exc})") from None
    if len(raw) > info.file_size:
        raise LogFormatError(f"{name}: savedGame inflates past its declared {info.file_size} bytes: refused (zip bomb?)")
    if len(raw) < info.file_size or zlib.crc32(raw) != info.CRC:
        raise LogFormatError(f"{name}: broken savedGame entry (bad size or CRC-32: truncated or corrupt)")
    try:
        meta = _metadata(z)
    except LogFormatError as exc:
        raise LogFormatError(f"{name}: {exc}") from None
    return SavedGame(name, _decode(raw, f"{name}:savedGame"), meta)
