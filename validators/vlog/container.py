"""Get the command text out of a .vsav/.vlog file, refusing hostile input with a clear reason.

A save or log is a zip whose `savedGame` entry holds the command text, obfuscated (`!VCSK` hex up
to 3.8.0-beta1, binary `VOBS` after it) or plain UTF-8 (vassal-formats.md §4.1-4.2, "VOBS").  A bare
`savedGame` text is accepted too.  The entry is inflated, size- and CRC-checked and decoded in one
streaming pass, never past its declared size.
"""
from __future__ import annotations

import copy
import io
import lzma
import zipfile
import zlib
from pathlib import Path

from builder.vassal.savefile import Deobfuscator, ObfuscationError
from builder.record import FrozenRecord

MAX_TEXT = 128 * 1024 * 1024  # largest savedGame we inflate (bytes); the largest real log's is 0.6 MB
ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, NotImplementedError, RuntimeError,
               ValueError)  # zipfile lets its decompressors' own errors (zlib, lzma) through
# Java's zip classes, so VASSAL, read and write only these; an LZMA entry's header can also demand
# a decompression dictionary of up to 4 GB from a file of a hundred bytes
ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


class LogFormatError(Exception):
    """The file cannot be read as a VASSAL save or log; the message says why in one line."""


class SavedGame(FrozenRecord):
    """A save or log's path, its decoded command text and its metadata (`save.*`, `module.*`)."""

    _fields = __slots__ = ("path", "text", "metadata")

    def __init__(self, path: str, text: str, metadata: dict[str, str]):
        self._set_fields(path, text, metadata)


def _metadata(z: zipfile.ZipFile) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry, prefix in (("savedata", "save"), ("moduledata", "module")):
        if entry in z.namelist() and z.getinfo(entry).file_size < 1_000_000:
            if z.getinfo(entry).compress_type not in ZIP_METHODS:
                raise LogFormatError(f"broken {entry} entry (zip compression method {z.getinfo(entry).compress_type}, "
                                     "not one VASSAL reads: stored, deflated)")
            try:
                fields = top_fields(z.read(entry))
            except ZIP_ERRORS as exc:
                raise LogFormatError(f"broken {entry} entry ({exc})") from None
            for tag, text in fields:
                out.setdefault(f"{prefix}.{tag}", text)
    return out


class _Refused(Exception):
    """A DOCTYPE in a save's small XML file: VASSAL never writes one."""


def top_fields(data: bytes) -> list[tuple[str, str]]:
    """(tag, text) of each child of the root that has text and no `lang` attribute, its text
    being what comes before its own first child (lxml's `.text`); [] for XML that is broken or
    declares a DOCTYPE (no DTD, so no entity can expand or reach outside: hostile input).

    Python's expat, not lxml: a log's two small XML files are all an audit parses, and lxml's
    import was the largest single one left (issue 15)."""
    import xml.parsers.expat

    fields: list[tuple[str, str]] = []
    depth, current, text, closed = 0, None, [], False

    def start(tag, attrs):
        nonlocal depth, current, text, closed
        depth += 1
        if depth == 2:
            current, text, closed = (tag if "lang" not in attrs else None), [], False
        elif depth == 3:
            closed = True  # the text lxml calls .text ends at the first child

    def end(tag):
        nonlocal depth, current
        if depth == 2 and current is not None and "".join(text):
            fields.append((current, "".join(text)))
        depth -= 1

    def chars(data):
        if depth == 2 and not closed:
            text.append(data)

    def child_node(*args):  # a comment or processing instruction ends .text, as a child does
        nonlocal closed
        if depth == 2:
            closed = True

    def refuse(*args):
        raise _Refused

    parser = xml.parsers.expat.ParserCreate()
    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, chars
    parser.CommentHandler = parser.ProcessingInstructionHandler = child_node
    parser.StartDoctypeDeclHandler = parser.EntityDeclHandler = refuse
    try:
        parser.Parse(data, True)
    except (xml.parsers.expat.ExpatError, _Refused, ValueError):
        return []
    return fields


CHUNK = 1 << 20  # bytes inflated and decoded at a time


def _text(chunks, where: str, probe=None) -> str:
    """Decode savedGame bytes (an iterable of chunks) to text in one pass: VOBS, !VCSK or plain,
    as the header says.  `probe(total, crc)` checks the raw bytes' size and CRC at the end."""
    d = Deobfuscator()
    out = bytearray()  # grows in place: amortised linear, one copy into the str below
    total, crc, broken = 0, 0, None
    for chunk in chunks:
        total += len(chunk)
        crc = zlib.crc32(chunk, crc)
        if broken is None:
            try:
                out += d.feed(chunk)
            except ObfuscationError as exc:
                broken = exc  # reported after the size and CRC: a corrupt entry is named as such
    if probe is not None:
        probe(total, crc)
    try:
        if broken is not None:
            raise broken
        out += d.close()
    except ObfuscationError as exc:
        raise LogFormatError(f"{where}: {exc}") from None
    key = f" after {d.kind} key {d.key:02x} (wrong key?)" if d.kind in ("VOBS", "!VCSK") else ""
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{where}: command text is not UTF-8 (byte {exc.start}){key}") from None
    if key and not text.startswith("begin_save"):
        raise LogFormatError(f"{where}: command text does not start with begin_save{key}")
    return text


def _decode(raw: bytes, where: str) -> str:
    view = memoryview(raw)
    return _text((bytes(view[i:i + CHUNK]) for i in range(0, len(raw), CHUNK)), where)


def _entry_chunks(f, limit: int):
    """The entry's inflated bytes, CHUNK at a time, at most `limit` bytes in all."""
    while limit > 0:
        chunk = f.read(min(CHUNK, limit))
        if not chunk:
            return
        limit -= len(chunk)
        yield chunk


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
        raise LogFormatError(f"{name}: not a VASSAL save or log (no zip, no !VCSK or VOBS header)")
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

    def check(total: int, crc: int) -> None:
        if total > info.file_size:
            raise LogFormatError(f"{name}: savedGame inflates past its declared {info.file_size} bytes: "
                                 "refused (zip bomb?)")
        if total < info.file_size or crc != info.CRC:
            raise LogFormatError(f"{name}: broken savedGame entry (bad size or CRC-32: truncated or corrupt)")

    try:
        with z.open(probe) as f:  # inflated, checked and decoded chunk by chunk
            text = _text(_entry_chunks(f, probe.file_size), f"{name}:savedGame", check)
    except ZIP_ERRORS as exc:
        raise LogFormatError(f"{name}: broken savedGame entry ({exc})") from None
    try:
        meta = _metadata(z)
    except LogFormatError as exc:
        raise LogFormatError(f"{name}: {exc}") from None
    return SavedGame(name, text, meta)
