"""Fuzz the save/log reader and the buildFile reader with mutated real files and generated ones.

Run (not in CI; a million inputs take several minutes on 2 cores):

    .venv/bin/python benchmarks/fuzz.py --inputs 1000000 [--seed 1] [--workers 2]

Re-run one input in-process (prints its traceback, `--out FILE` saves the input):

    .venv/bin/python benchmarks/fuzz.py --seed 1 --replay 123456

Every input is made from (seed, index) alone, so a run is reproducible and any input can be
re-made.  Four layers are fed:

* ``file``  whole real .vsav/.vlog files, mutated: byte flips, truncation, insertion and
  deletion, chunk duplication, zip header fields (sizes, CRCs, flags, methods, name bytes),
  rebuilt zips (renamed, missing, duplicated entries, other compression methods, the savedGame
  text recompressed after mutation) and broken ``!VCSK`` headers, keys and hex, and ``VOBS`` ones
  (key byte 0 or missing, cut headers, re-keyed bodies, a header on the other format's body).
* ``text``  command texts (slices of real logs and generated logs), mutated at the command
  level (fields, prefixes, ESC/TAB/backslash/quote games, huge numbers, deep nesting), then
  obfuscated and zipped (or written bare), so the deep parser and the replay get
  structured-but-wrong input.
* ``xml``   build files (real, trimmed to their maps, and generated), mutated attribute values,
  missing attributes, wrong nesting, entity tricks (XXE, billion laughs, quadratic blow-up),
  fed to ``read_module_grids`` with board images or sizes, then ``MapSpec.location`` is asked
  about points in, around and far outside the boards.
* ``vmod``  small modules (a build file and its board images), mutated like the saves, fed to
  ``read_vmod_grids``.

An input passes when the reader returns (and the replay or the location lookups run) or it
raises the typed error (``LogFormatError``, ``ModuleFormatError``) with a one-line message.
Anything else is a failure: the input and its traceback are saved under the crash directory.
An input using over ``--time-limit`` seconds of CPU (2 s; CPU, not wall-clock, so a busy
machine does not turn a slow input into a hang) is a hang; each worker's address space
is capped ``--memory-mb`` (1024 MB) above its size at start, so a runaway allocation is a
``MemoryError`` failure, and RSS growth over the run is reported.
"""
from __future__ import annotations

import argparse
import atexit
import io
import multiprocessing as mp
import os
import random
import re
import resource
import shutil
import signal
import struct
import sys
import tempfile
import time
import traceback
import warnings
import zipfile
import zlib
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from builder.vassal import pieces
from builder.vassal.pieces import Trait, chain, unchain
from builder.vassal.savefile import ESC, decode_tree
from builder.vassal.sequence import join, split
from validators.budget import OutOfTime, cpu_budget
from validators.replay.replayer import Replayer
from validators.vlog.container import LogFormatError
from validators.vlog.modulegrid import (
    ModuleFormatError,
    read_module_grids,
    read_vmod_grids,
)
from validators.vlog.reader import read_record

REAL = ROOT.parent / "shared" / "realdata"
SLUG = "bravery-in-the-sand"
TIME_LIMIT = 2.0
MEMORY_MB = 1024
RSS_GROWTH_MB = 256  # a worker whose resident memory grows more than this over the run fails
WORK = Path(tempfile.gettempdir()) / "hexforge-fuzz"
SECRET = "XXE-SECRET-51f0c3"  # the content of a local file that hostile XML tries to pull in
MAX_INPUT = 1 << 20  # mutators never grow an input past this

# save or log -> the build file it is replayed against
SAVES = {
    "kassala/Default Setup.vsav": "kassala/buildFile.xml",
    "ragnarok/ragnarok-start.vsav": "ragnarok/buildFile.xml",
    "zxvt/5x5_startup.vlog": "zxvt/buildFile",
    "engine-logs/kassala-3.7.vlog": "engine-logs/kassala-numbered.buildFile.xml",
    "engine-logs/ragnarok-3.7.vlog": "ragnarok/buildFile.xml",
    "engine-logs/ragnarok-3.8.vlog": "ragnarok/buildFile.xml",
}
BUILDS = ["kassala/buildFile.xml", "ragnarok/buildFile.xml", "zxvt/buildFile",
          "engine-logs/kassala-numbered.buildFile.xml"]
VMODS = ["hexcounters-template/jzhex-n-counters-template-v12-379.vmod"]

LAYERS = ("file", "text", "xml", "vmod", "harness")  # harness: the generator itself failed
LAYER_WEIGHTS = (0.30, 0.34, 0.30, 0.06)

# ---- interesting values ----------------------------------------------------------------------
NUMBERS = ["0", "-0", "-1", "1", "+7", "2147483647", "2147483648", "-2147483649", "9223372036854775808",
           "9" * 40, "1" + "0" * 309, "9" * 4300, "9" * 4301, "-" + "9" * 5000, "1e999", "-1e999", "NaN", "nan",
           "inf", "-Infinity", "1e-300", "0.0000001", "3.5", "0x1f", "1_000", "\u0661\u0662\u0663", " 12 ",
           "\uff11\uff12", "12abc", ""]
TOKENS = ["", "null", "true", "false", "@@-1", "\\", "'", "''", "'\\'", "\\'", ESC, "\\" + ESC, "\\\\" + ESC,
          "\t", "\\\t", ";", "\\;", "/", "\\/", ",", "|", "+", "\n", "\r\n", "\x00", "\x7f", "\u00e9",
          "\u65e5\u672c", "\U0001f3b2", "\u202e", "\ufeff", "<b>&amp;", "&lt;Alice&gt;", "Main Map", "offboard",
          "stack", "deck;", "LOG\t", "LOG\tnull", "begin_save", "end_save", "UNDO\ttrue", "UNDO\tfalse",
          "CHAT*** 2d6 = 3,4 *** &lt;Bob&gt;", "piece;;;a.png;A", "emb2;", "mark;", "$gridLocation$"]
PREFIXES = ["+/", "-/", "D/", "M/", "CHAT", "CHAT*", "PLAYER\t", "PYREMOVE\t", "MutableProperty\t",
            "GlobalProperty\t", "GlobalProperty\t;", "TURN", "TURNTurnTracker0\t", "SHOW_RESULTS\t", "NOTES\t",
            "PNOTES\t", "PNOTE\t", "SNOTE\t", "SETUP_STACK\t", "UNDO\t", "LOG\t", "LOG\tLOG\t", "Main MapBoardPicker\t",
            "BoardPicker\t", "begin_save", "end_save", "UNMASK\t", "DECK\t", "AUDIO\t", "X/", "", "\\", "'"]
BYTE_TOKENS = [b"\x1b", b"\\\x1b", b"\t", b"\\", b"'", b";", b"/", b",", b"null", b"-1", b"2147483648",
               b"9" * 30, b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"\x00", b"LOG\t", b"end_save", b"begin_save",
               b"+/", b"M/", b"PK\x03\x04", b"PK\x05\x06", b"!VCSK", b"<", b"&", b"]]>", b"\"", b"\r\n"]
INTERESTING_BYTES = [0, 1, 0x7F, 0x80, 0xFF, 0x1B, 0x09, 0x5C, 0x27, 0x3B, 0x2F, 0x2C, 0x0A, 0x0D, 0x22, 0x3C,
                     0x26, 0x30, 0x39]
XML_VALUES = ["abc", "", "-1", "0", "-0", "1", "0.5", "1e309", "-1e309", "NaN", "nan", "inf", "-inf", "Infinity",
              "9" * 400, "9" * 5000, "1e-300", "0.0000001", "2147483648", "-2147483649", "1,2", "&amp;", "&lt;",
              "&#65;", "&#x1F3B2;", "true", "false", "TRUE", "A", "N", "Z", "H", "V", "\u00e9\u65e5", "$name$",
              "$gridLocation$$row$$column$", "1_000", " 7 ", "\u0661\u0662", "12px", "3.0", "-64.0", "1e6", "1e7",
              "100000000"]
XML_TAGS = ["VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap", "VASSAL.build.module.PlayerHand",
            "VASSAL.build.module.map.BoardPicker", "VASSAL.build.module.map.boardPicker.Board",
            "VASSAL.build.module.map.boardPicker.board.HexGrid", "VASSAL.build.module.map.boardPicker.board.SquareGrid",
            "VASSAL.build.module.map.boardPicker.board.ZonedGrid",
            "VASSAL.build.module.map.boardPicker.board.mapgrid.Zone",
            "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering",
            "VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering",
            "VASSAL.build.module.map.DrawPile", "VASSAL.build.GameModule", "x:VASSAL.build.module.Map"]
GRID_ATTRS = {"dx": None, "dy": None, "x0": None, "y0": None, "sideways": ["true", "false"],
              "first": ["H", "V"], "sep": ["", "-", ",", "$"], "hType": ["N", "A"], "vType": ["N", "A"],
              "hLeading": None, "vLeading": None, "hOff": None, "vOff": None, "hDescend": ["true", "false"],
              "vDescend": ["true", "false"], "stagger": ["true", "false"],
              "locationFormat": ["$gridLocation$", "$name$ $row$-$column$", "$column$$row$", ""]}
INT_CHOICES = [0, -1, 1, 2, 26, 27, 100, 999, 1000, 5000, 10**6, 10**6 + 1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63,
               10**30, -(10**30), 10**4000, -(10**4000)]



# ---- seeds --------------------------------------------------------------------------------------
@dataclass
class Seeds:
    saves: list[tuple[str, bytes]] = field(default_factory=list)  # real saves/logs, whole files
    save_weights: list[float] = field(default_factory=list)
    entries: list[list[tuple[str, bytes]]] = field(default_factory=list)  # their zip entries
    texts: list[str] = field(default_factory=list)  # their decoded command texts
    trees: list = field(default_factory=list)  # ... and command trees
    grids_of: list[str] = field(default_factory=list)  # build file each save replays against
    grids: dict = field(default_factory=dict)  # build file name -> {map name: MapSpec}
    leaves: list[str] = field(default_factory=list)  # every real leaf command
    types: list[str] = field(default_factory=list)  # real piece types
    states: list[str] = field(default_factory=list)  # real piece states
    ids: list[str] = field(default_factory=list)  # real piece and stack ids
    maps: list[str] = field(default_factory=list)  # real map names
    builds: list[tuple[str, bytes]] = field(default_factory=list)  # real build files
    trimmed: list[tuple[str, bytes]] = field(default_factory=list)  # the same, maps only (small)
    vmods: list[tuple[str, bytes]] = field(default_factory=list)  # small synthetic modules, then real ones
    vmod_entries: list[list[tuple[str, bytes]]] = field(default_factory=list)
    images: list[bytes] = field(default_factory=list)  # board images, good and broken


def _png(w: int, h: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("P", (w, h)).save(buf, "PNG", optimize=False)
    return buf.getvalue()


def _png_header(w: int, h: int) -> bytes:
    """A PNG whose IHDR (with a correct CRC) declares w x h, and no pixels."""
    ihdr = struct.pack(">IIBBBBB", w & 0xFFFFFFFF, h & 0xFFFFFFFF, 8, 3, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def _image_seeds() -> list[bytes]:
    from PIL import Image

    gif, jpg = io.BytesIO(), io.BytesIO()
    Image.new("RGB", (40, 30)).save(gif, "GIF")
    Image.new("RGB", (33, 17)).save(jpg, "JPEG")
    good = _png(16, 12)
    return [good, _png(1, 1), gif.getvalue(), jpg.getvalue(), good[:20], good[:40], b"", b"\x89PNG\r\n\x1a\n",
            _png_header(0, 0), _png_header(2**31 - 1, 5), _png_header(100000, 100000), _png_header(5000000, 3),
            _png_header(0xFFFFFFFF, 0xFFFFFFFF), b"GIF89a\xff\xff\xff\xff", jpg.getvalue()[:200],
            b"BM" + b"\xff" * 60, b"not an image at all", b"\x00" * 64]


def _zip_entries(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def _trim(build: bytes) -> bytes:
    """The build file reduced to its maps (boards, grids, zones, numbering, draw piles)."""
    from lxml import etree

    keep = ("module.Map", "module.PrivateMap", "module.PlayerHand", "BoardPicker", "boardPicker.Board",
            "HexGrid", "SquareGrid", "ZonedGrid", "mapgrid.Zone", "Numbering", "DrawPile")
    root = etree.fromstring(build)
    out = etree.Element(root.tag, dict(root.attrib))

    def copy(src, dst):
        for c in src:
            if not isinstance(c.tag, str):
                continue
            if c.tag.endswith(keep):
                copy(c, etree.SubElement(dst, c.tag, dict(c.attrib)))
            else:
                copy(c, dst)

    copy(root, out)
    return etree.tostring(out, xml_declaration=True, encoding="UTF-8")


def _board_names(build: bytes) -> list[tuple[str, str]]:
    """(board name, image) of every Board in a build file, found by a cheap regex."""
    out = []
    for m in re.finditer(rb"<VASSAL\.build\.module\.map\.boardPicker\.Board\b([^>]*)>", build):
        attrs = dict(re.findall(rb'(\w+)="([^"]*)"', m.group(1)))
        out.append((attrs.get(b"name", b"").decode("utf-8", "replace"), attrs.get(b"image", b"").decode("utf-8", "replace")))
    return out[:20]


def _small_vmod(build: bytes, sizes: dict[str, tuple[int, int]], legacy: bool = False) -> bytes:
    entries = [("moduledata", b'<?xml version="1.0"?><data version="1"><version>1</version><name>Fuzz</name></data>'),
               ("buildFile" if legacy else "buildFile.xml", build)]
    for _, image in _board_names(build):
        if image and not any(n == f"images/{image}" for n, _ in entries):
            w, h = sizes.get(image, (300, 200))
            entries.append((f"images/{image}", _png(w, h)))
    return build_zip([(n, d, zipfile.ZIP_DEFLATED) for n, d in entries])


def _module_bytes() -> bytes | None:
    """Our own module: the built one in generated/, else built in memory from the sources."""
    built = ROOT / "generated" / SLUG / f"{SLUG}.vmod"
    if built.exists():
        return built.read_bytes()
    try:
        from builder.model import load_game
        from builder.vassal.module import build_vmod

        return build_vmod(load_game(ROOT / "sources" / SLUG))[0]
    except Exception as exc:  # noqa: BLE001 - the fuzz still runs on the real files
        print(f"fuzz: our module could not be built ({exc}); fuzzing the real files only", file=sys.stderr)
        return None


def load_seeds(module: bytes | None = None, real: Path = REAL) -> Seeds:
    """Read every seed file once (deterministic order).  `module`: our .vmod's bytes, if any."""
    from builder.vassal.savefile import deobfuscate, leaves

    S = Seeds()
    S.images = _image_seeds()
    build_bytes = {name: (real / name).read_bytes() for name in BUILDS}
    saves = [(name, (real / name).read_bytes(), SAVES[name]) for name in SAVES]
    module_entries: list[tuple[str, bytes]] = []
    if module is not None:
        module_entries = _zip_entries(module)
        me = dict(module_entries)
        build_bytes["module:buildFile.xml"] = me["buildFile.xml"]
        for n, d in module_entries:
            if n.endswith(".vsav"):
                saves.append((f"module:{n}", d, "module:buildFile.xml"))
    # the maps each save is replayed against: board sizes from the module's images when known
    for name, data in build_bytes.items():
        if name == "module:buildFile.xml":
            S.grids[name] = read_module_grids(data, dict(module_entries))
        else:
            sizes = {b: (1200, 1000) for b, _ in _board_names(data)}
            S.grids[name] = read_module_grids(data, board_sizes=sizes)
    for name, data, grid in saves:
        rec = read_record_bytes(data)
        text = rec.source.text
        S.saves.append((name, data))
        S.save_weights.append(1.0 / (1.0 + len(text) / 4000))
        S.entries.append(_zip_entries(data))
        S.texts.append(text)
        S.trees.append(decode_tree(text))
        S.grids_of.append(grid)
        for leaf in leaves(S.trees[-1]):
            inner = leaves(decode_tree(leaf[4:])) if leaf.startswith("LOG\t") else [leaf]
            S.leaves.extend(inner)
        assert deobfuscate(dict(S.entries[-1])["savedGame"]) == text
    ids, types, states = set(), set(), set()
    for leaf in S.leaves:
        if leaf.startswith("+/"):
            f = split(leaf[2:], "/")
            if len(f) >= 3:
                ids.add(f[0])
                (types if len(types) < 400 else set()).add(f[1])
                (states if len(states) < 400 else set()).add(f[2])
    S.ids, S.types, S.states = sorted(ids)[:300], sorted(types), sorted(states)
    S.maps = sorted({m for g in S.grids.values() for m in g}) + ["null", "Not A Map"]
    for name, data in build_bytes.items():
        S.builds.append((name, data))
        S.trimmed.append((name, _trim(data)))
    module_sizes = {}
    if module is not None:
        from PIL import Image

        me = dict(module_entries)
        for _, image in _board_names(me["buildFile.xml"]):
            if f"images/{image}" in me:
                module_sizes[image] = Image.open(io.BytesIO(me[f"images/{image}"])).size
    for i, (name, trimmed) in enumerate(S.trimmed):
        v = _small_vmod(trimmed, module_sizes if name.startswith("module:") else {}, legacy=(i % 3 == 2))
        S.vmods.append((f"small:{name}", v))
    for name in VMODS:
        S.vmods.append((name, (real / name).read_bytes()))
    S.vmod_entries = [_zip_entries(d) for _, d in S.vmods]
    return S


def read_record_bytes(data: bytes):
    path = _scratch() / "seed.vsav"
    path.write_bytes(data)
    return read_record(path)


_SCRATCH: Path | None = None


def _scratch() -> Path:
    """A private scratch directory of this process (in RAM when /dev/shm exists)."""
    global _SCRATCH
    if _SCRATCH is None or not _SCRATCH.exists() or _SCRATCH.name != f"w{os.getpid()}":
        base = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
        _SCRATCH = base / "hexforge-fuzz" / f"w{os.getpid()}"
        _SCRATCH.mkdir(parents=True, exist_ok=True)
    return _SCRATCH


def cleanup_scratch() -> None:
    global _SCRATCH
    if _SCRATCH is not None:
        shutil.rmtree(_SCRATCH, ignore_errors=True)
        _SCRATCH = None


# ---- byte-level mutators ----------------------------------------------------------------------
def _geom(rng: random.Random, p: float = 0.5, cap: int = 6) -> int:
    n = 1
    while n < cap and rng.random() < p:
        n += 1
    return n


def mutate_bytes(data: bytes, rng: random.Random, others: list[bytes] | None = None, rounds: int | None = None) -> bytes:
    b = bytearray(data)
    for _ in range(rounds or _geom(rng)):
        n = len(b)
        op = rng.randrange(12)
        if n == 0:
            op = 4
        if op == 0:  # bit flips
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(n)
                b[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # interesting bytes
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(n)] = rng.choice(INTERESTING_BYTES)
        elif op == 2:  # truncate
            del b[rng.randrange(n):]
        elif op == 3:  # delete a chunk
            i = rng.randrange(n)
            del b[i:i + rng.choice((1, 2, 4, 16, 64, rng.randint(1, max(1, n // 4))))]
        elif op == 4:  # insert random bytes or a token
            i = rng.randint(0, n)
            ins = rng.choice(BYTE_TOKENS) if rng.random() < 0.6 else rng.randbytes(rng.randint(1, 32))
            b[i:i] = ins
        elif op == 5:  # duplicate a chunk elsewhere
            i = rng.randrange(n)
            chunk = b[i:i + rng.randint(1, 256)]
            j = rng.randint(0, n)
            b[j:j] = chunk
        elif op == 6:  # repeat a chunk many times
            i = rng.randrange(n)
            chunk = bytes(b[i:i + rng.randint(1, 32)])
            b[i:i] = chunk * rng.choice((2, 10, 100, 1000))
        elif op == 7:  # overwrite a chunk with random bytes
            i = rng.randrange(n)
            k = min(n - i, rng.randint(1, 16))
            b[i:i + k] = rng.randbytes(k)
        elif op == 8 and others:  # splice with another seed
            o = rng.choice(others)
            if o:
                b = b[:rng.randint(0, n)] + o[rng.randrange(len(o)):]
        elif op == 9:  # arithmetic on a little-endian field
            size = rng.choice((1, 2, 4))
            if n >= size:
                i = rng.randrange(n - size + 1)
                v = int.from_bytes(b[i:i + size], "little")
                v = rng.choice((0, 1, (1 << 8 * size) - 1, v + rng.randint(-16, 16), v * 2, v ^ (1 << rng.randrange(8 * size))))
                b[i:i + size] = (v % (1 << 8 * size)).to_bytes(size, "little")
        elif op == 10:  # swap two chunks
            i, j = sorted((rng.randrange(n), rng.randrange(n)))
            k = min(rng.randint(1, 64), j - i)
            if k > 0:
                b[i:i + k], b[j:j + k] = b[j:j + k], b[i:i + k]
        else:  # replace a digit run with a wild number
            runs = [m.span() for m in re.finditer(rb"-?\d+", bytes(b[: 1 << 16]))]
            if runs:
                i, j = rng.choice(runs)
                b[i:j] = rng.choice(NUMBERS).encode("utf-8")
        if len(b) > MAX_INPUT:
            del b[MAX_INPUT:]
    return bytes(b)


# ---- zip level ----------------------------------------------------------------------------------
METHODS = [zipfile.ZIP_STORED] * 3 + [zipfile.ZIP_DEFLATED] * 6 + [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]


def build_zip(entries: list[tuple[str, bytes, int]]) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are on purpose
        with zipfile.ZipFile(buf, "w") as z:
            for name, data, method in entries:
                info = zipfile.ZipInfo(name, (2000, 1, 1, 0, 0, 0))
                info.compress_type = method
                z.writestr(info, data)
    return buf.getvalue()


_LOCAL = {"flags": (6, 2), "method": (8, 2), "crc": (14, 4), "csize": (18, 4), "usize": (22, 4),
          "namelen": (26, 2), "extralen": (28, 2)}
_CENTRAL = {"flags": (8, 2), "method": (10, 2), "crc": (16, 4), "csize": (20, 4), "usize": (24, 4),
            "namelen": (28, 2), "extralen": (30, 2), "commentlen": (32, 2), "offset": (42, 4)}
_EOCD = {"disk_entries": (8, 2), "entries": (10, 2), "cdsize": (12, 4), "cdoffset": (16, 4), "commentlen": (20, 2)}
_SIGS = ((b"PK\x03\x04", _LOCAL, 30), (b"PK\x01\x02", _CENTRAL, 46), (b"PK\x05\x06", _EOCD, None))


def patch_zip(data: bytes, rng: random.Random) -> bytes:
    """Change one or a few header fields of a zip: sizes, CRCs, flags, methods, offsets, name bytes."""
    b = bytearray(data)
    headers = [(m.start(), fields, name_at) for sig, fields, name_at in _SIGS
               for m in re.finditer(re.escape(sig), data)]
    if not headers:
        return mutate_bytes(data, rng)
    for _ in range(_geom(rng, 0.4, 4)):
        at, fields, name_at = rng.choice(headers)
        if name_at is not None and rng.random() < 0.2:  # the entry name's bytes
            nlen = int.from_bytes(b[at + fields["namelen"][0]: at + fields["namelen"][0] + 2], "little")
            s, e = at + name_at, at + name_at + nlen
            if e <= len(b) and nlen:
                new = rng.choice([b"../savedGame", b"/savedGame", b"savedGame\x00", b"savedgame", b"\xff\xfesavedGame",
                                  b"buildFile.xml", b"a/../buildFile.xml", b"images/../../x", b"", b"savedGame/"])
                if rng.random() < 0.5:  # same length, so offsets stay right
                    new = (new + bytes(b[s:e]))[:nlen].ljust(nlen, b"_")
                b[s:e] = new
                if len(new) != nlen:
                    b[at + fields["namelen"][0]: at + fields["namelen"][0] + 2] = (len(new) & 0xFFFF).to_bytes(2, "little")
                continue
        key = rng.choice(list(fields))
        off, size = fields[key]
        if at + off + size > len(b):
            continue
        old = int.from_bytes(b[at + off: at + off + size], "little")
        top = (1 << 8 * size) - 1
        if key == "flags":
            v = old | rng.choice((0x1, 0x8, 0x800, 0x40, 0x20, 0x2000, 0x1 | 0x40)) if rng.random() < 0.8 else rng.randrange(top + 1)
        elif key == "method":
            v = rng.choice((0, 8, 12, 14, 1, 6, 9, 93, 98, 99, top))
        else:
            v = rng.choice((0, 1, top, top - 1, old + 1, old - 1, old * 2, old // 2, rng.randrange(top + 1),
                            0x7FFFFFFF & top, old ^ (1 << rng.randrange(8 * size))))
        b[at + off: at + off + size] = (v % (top + 1)).to_bytes(size, "little")
    return bytes(b)


def obfuscate_bytes(raw: bytes, key: int) -> bytes:
    return b"!VCSK" + b"%02x" % key + raw.translate(bytes(i ^ key for i in range(256))).hex().encode("ascii")


def vobs_bytes(raw: bytes, key: int) -> bytes:
    """VASSAL's binary obfuscation after 3.8.0-beta1: VOBS, one raw key byte, the bytes XORed."""
    return b"VOBS" + bytes([key]) + raw.translate(bytes(i ^ key for i in range(256)))


def obfuscate_any(raw: bytes, key: int, rng: random.Random) -> bytes:
    return vobs_bytes(raw, key or 1) if rng.random() < 0.4 else obfuscate_bytes(raw, key)


def mutate_vobs(ob: bytes, rng: random.Random) -> bytes:
    op = rng.randrange(7)
    if op == 0:  # the key byte: 0 (never written), missing, or another
        return ob[:4] + rng.choice([b"\x00", b"", bytes([rng.randrange(256)]), b"\x00\x00"]) + ob[5:]
    if op == 1:  # the header
        return rng.choice([b"VOB", b"vobs", b"VOBSVOBS", b"\xef\xbb\xbfVOBS", b"!VOBS", b"VOBS!VCSK", b"V"]) + ob[4:]
    if op == 2:  # truncated: in the header, right after it, mid-character
        return ob[:rng.choice([0, 1, 3, 4, 5, 6, rng.randint(0, len(ob))])]
    if op == 3:  # re-keyed body
        return ob[:4] + bytes([rng.randrange(256)]) + ob[5:]
    if op == 4:  # a VOBS header on hex pairs, or a !VCSK header on raw bytes
        return (b"VOBS\x5a" + ob[5:].hex().encode()) if rng.random() < 0.5 else b"!VCSK5a" + ob[5:]
    if op == 5:  # the plain text behind a VOBS header (key 0 read as no key)
        return ob[:4] + b"\x00" + ob[5:].translate(bytes(i ^ ob[4] for i in range(256))) if len(ob) > 4 else ob
    return mutate_bytes(ob, rng)


def mutate_obfuscation(ob: bytes, rng: random.Random) -> bytes:
    if ob.startswith(b"VOBS"):
        return mutate_vobs(ob, rng)
    if rng.random() < 0.25:  # the same text as VASSAL's main line writes it, then broken
        try:
            raw = bytes.fromhex(ob[7:].decode("ascii"))
            key = int(ob[5:7], 16)
        except ValueError:
            return mutate_vobs(b"VOBS\x01" + ob, rng)
        return mutate_vobs(vobs_bytes(raw.translate(bytes(i ^ key for i in range(256))), rng.randrange(1, 256)), rng)
    op = rng.randrange(9)
    if op == 0:  # the key
        return ob[:5] + rng.choice([b"zz", b"5", b"", b"0x", b"-1", b"-f", b"+f", b" 5", b"FF", b"\xff\xfe", b"5a5"]) + ob[7:]
    if op == 1:  # odd number of hex digits
        i = rng.randrange(7, max(8, len(ob)))
        return ob[:i] + ob[i + 1:]
    if op == 2:  # a non-hex character
        i = rng.randint(7, len(ob))
        return ob[:i] + rng.choice([b"g", b" ", b"\n", b"\xc3\xa9", b"\x00", b"-", b"0x"]) + ob[i:]
    if op == 3:  # upper-case hex
        return ob[:7] + ob[7:].upper()
    if op == 4:  # the header
        return rng.choice([b"!VCSk", b"!VOBS", b"!VCS", b"VCSK", b"!!VCSK", b"\xef\xbb\xbf!VCSK"]) + ob[5:]
    if op == 5:  # re-keyed body: the XOR gives other bytes, usually not UTF-8
        return ob[:5] + b"%02x" % rng.randrange(256) + ob[7:]
    if op == 6:  # truncated mid-pair or mid-character
        return ob[:rng.randint(0, len(ob))]
    if op == 7:  # whitespace between pairs (bytes.fromhex accepts some)
        i = 7 + 2 * rng.randrange(max(1, (len(ob) - 7) // 2))
        return ob[:i] + b" " + ob[i:]
    return mutate_bytes(ob, rng)


def _names_variant(rng: random.Random, name: str) -> str:
    return rng.choice([name, name.lower(), name.upper(), "../" + name, "/" + name, name + "/", name + "\x00x",
                       "dir/" + name, name + " ", "\u00e9" + name, name + "." + name])


def mutate_zip_entries(entries: list[tuple[str, bytes]], rng: random.Random, main: str,
                       content: bytes | None = None) -> bytes:
    """Rebuild a zip with entry-level changes; `main` (savedGame or buildFile.xml) gets `content`."""
    out = []
    for name, data in entries:
        if name == main and content is not None:
            data = content
        out.append([name, data, rng.choice(METHODS) if rng.random() < 0.3 else zipfile.ZIP_DEFLATED])
    for _ in range(_geom(rng, 0.4, 4)):
        op = rng.randrange(8)
        if op == 0 and out:  # rename
            e = rng.choice(out)
            e[0] = _names_variant(rng, e[0])
        elif op == 1 and out:  # drop
            out.pop(rng.randrange(len(out)))
        elif op == 2 and out:  # duplicate (same name twice)
            e = rng.choice(out)
            out.insert(rng.randint(0, len(out)), [e[0], mutate_bytes(e[1], rng) if e[1] and rng.random() < 0.5 else e[1], e[2]])
        elif op == 3:  # a foreign entry
            out.insert(rng.randint(0, len(out)), [rng.choice(["buildFile.xml", "buildFile", "../../etc/x", "/abs",
                                                              "savedata", "moduledata", "a\\b", "images/x.png"]),
                                                  rng.choice([b"", b"<x/>", rng.randbytes(64), b"\x00" * 100000]),
                                                  rng.choice(METHODS)])
        elif op == 4 and out:  # mutate an entry's bytes (metadata XML, images)
            e = rng.choice(out)
            e[1] = mutate_bytes(e[1], rng)
        elif op == 5 and out:  # compression method
            rng.choice(out)[2] = rng.choice(METHODS)
        elif op == 6:  # reorder
            rng.shuffle(out)
        else:  # an empty main entry
            for e in out:
                if e[0] == main:
                    e[1] = b""
    return build_zip([(n, d, m) for n, d, m in out])


# ---- command level ------------------------------------------------------------------------------
def _value(S: Seeds, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(NUMBERS)
    if r < 0.6:
        return rng.choice(TOKENS)
    if r < 0.75 and S.ids:
        return rng.choice(S.ids)
    if r < 0.85:
        return rng.choice(S.maps)
    if r < 0.95:
        return str(rng.randint(-100, 3000))
    return "".join(rng.choice(TOKENS + ["x", "A", "7"]) for _ in range(rng.randint(1, 12)))


def _coord(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.7:
        return str(rng.randint(0, 2000))
    if r < 0.9:
        return rng.choice(NUMBERS)
    return str(rng.choice(INT_CHOICES))


def _dice_line(S: Seeds, rng: random.Random) -> str:
    results = ",".join(rng.choice(["1", "6", "-3", "0", "12", "9" * rng.choice((3, 30, 4300)), "x", ""])
                       for _ in range(rng.randint(1, 4)))
    lt, gt = ("&lt;", "&gt;") if rng.random() < 0.6 else ("<", ">")
    return f"{rng.choice(['**', '***', '*'])} {rng.choice(['2d6', '1d6', 'Axis dice', ' = ', ''])} = {results} *** {lt}{rng.choice(['Alice', '', '<', '&amp;'])}{gt}"


def _trait_chain(S: Seeds, rng: random.Random) -> tuple[str, str]:
    if S.types and rng.random() < 0.6:
        i = rng.randrange(len(S.types))
        typ, state = S.types[i], rng.choice(S.states) if S.states else ""
        if rng.random() < 0.5:
            traits = unchain(typ, state)
            for _ in range(_geom(rng)):
                t = rng.randrange(len(traits))
                f = split(traits[t].type, ";")
                if f:
                    f[rng.randrange(len(f))] = _value(S, rng)
                st = split(traits[t].state, ";")
                if rng.random() < 0.5 and st:
                    st[rng.randrange(len(st))] = _value(S, rng)
                traits[t] = Trait(join(f, ";"), join(st, ";"))
            if rng.random() < 0.2:
                traits = traits * rng.choice((2, 10))
            typ, state = chain(traits)
        return typ, state
    traits = [Trait(rng.choice(["emb2;", "mark;", "piece;", "prototype;", "report;", "x;", ""]) + _value(S, rng),
                    _value(S, rng)) for _ in range(rng.randint(1, 4))]
    traits.append(Trait("piece;;;" + _value(S, rng) + ";" + _value(S, rng),
                        join([rng.choice(S.maps), _coord(rng), _coord(rng), "", 0], ";")))
    return chain(traits)


def gen_command(S: Seeds, rng: random.Random) -> str:
    pid = rng.choice(S.ids) if S.ids and rng.random() < 0.7 else _value(S, rng)
    k = rng.randrange(16)
    if k < 3:
        if rng.random() < 0.4:  # a stack or a deck
            kids = [rng.choice(S.ids) if S.ids else "1" for _ in range(rng.randint(0, 4))]
            state = join([rng.choice(S.maps), _coord(rng), _coord(rng), *kids, "@@-1"], ";")
            if rng.random() < 0.3:
                return "+/" + join([pid, "deck;" + _value(S, rng), join([rng.choice(S.maps), _coord(rng), _coord(rng),
                                                                          "false", ",".join(kids)], ";")], "/")
            return "+/" + join([pid, "stack", state], "/")
        typ, state = _trait_chain(S, rng)
        return "+/" + join([pid, typ, state], "/")
    if k < 6:
        return "M/" + join([pid, rng.choice(S.maps), _coord(rng), _coord(rng), rng.choice(S.ids + ["null"]) if S.ids else "null",
                            rng.choice(S.maps), _coord(rng), _coord(rng), "null", _value(S, rng)][:rng.choice((10, 10, 10, 1, 4, 9))], "/")
    if k < 8:
        new = rng.choice(S.states) if S.states and rng.random() < 0.5 else _trait_chain(S, rng)[1]
        return "D/" + join([pid, new, rng.choice(S.states) if S.states and rng.random() < 0.5 else ""], "/")
    if k == 8:
        return "-/" + pid
    if k == 9:
        return "CHAT" + (_dice_line(S, rng) if rng.random() < 0.6 else _value(S, rng))
    if k == 10:
        levels = "|".join(join([_value(S, rng) for _ in range(rng.randint(0, 6))], ";") for _ in range(rng.randint(0, 4)))
        return join(["TURN" + rng.choice(["TurnTracker0", "", "X"]), levels], "\t")
    if k == 11:
        return rng.choice(["PLAYER\t", "PYREMOVE\t", "MutableProperty\t", "SHOW_RESULTS\t"]) + join(
            [_value(S, rng) for _ in range(rng.randint(0, 6))], "\t")
    if k == 12:
        return join(["GlobalProperty\t"] + [_value(S, rng) for _ in range(rng.randint(0, 4))], ";")
    if k == 13:
        return rng.choice(S.maps) + "BoardPicker\t" + join(
            [x for _ in range(rng.randint(0, 3)) for x in (_value(S, rng) + rng.choice(["", "/rev"]), _coord(rng), _coord(rng))], "\t")
    if k == 14:
        return rng.choice(["UNDO\ttrue", "UNDO\tfalse", "UNDO\t", "SETUP_STACK\t", "NOTES\tx", "begin_save", "end_save", ""])
    return rng.choice(PREFIXES) + _value(S, rng)


def mutate_command(S: Seeds, leaf: str, rng: random.Random) -> str:
    for _ in range(_geom(rng)):
        op = rng.randrange(9)
        if op < 3:  # one field
            d = "/" if leaf[:2] in ("+/", "-/", "D/", "M/") and rng.random() < 0.7 else rng.choice(["\t", ";", ",", "|", "/", ESC])
            body = leaf[2:] if d == "/" and leaf[:2] in ("+/", "D/", "M/") else leaf
            head = leaf[:2] if body is not leaf else ""
            toks = split(body, d)
            i = rng.randrange(len(toks))
            r = rng.random()
            if r < 0.5:
                toks[i] = _value(S, rng)
            elif r < 0.6:
                del toks[i:]
            elif r < 0.7:
                toks.insert(i, _value(S, rng))
            elif r < 0.8:
                toks.extend(_value(S, rng) for _ in range(rng.randint(1, 20)))
            elif r < 0.9 and ";" in toks[i]:  # a field inside the field
                sub = split(toks[i], ";")
                sub[rng.randrange(len(sub))] = _value(S, rng)
                toks[i] = join(sub, ";")
            else:
                toks[i] = toks[i] + _value(S, rng)
            leaf = head + (join(toks, d) if rng.random() < 0.7 else d.join(toks))
        elif op == 3:  # another prefix
            leaf = rng.choice(PREFIXES) + leaf[rng.randint(0, min(len(leaf), 16)):]
        elif op == 4:  # a token anywhere
            i = rng.randint(0, len(leaf))
            leaf = leaf[:i] + rng.choice(TOKENS) + leaf[i:]
        elif op == 5:  # a wild number
            runs = [m.span() for m in re.finditer(r"-?\d+", leaf[:20000])]
            if runs:
                i, j = rng.choice(runs)
                leaf = leaf[:i] + rng.choice(NUMBERS) + leaf[j:]
        elif op == 6:  # backslash and quote games: escape levels that do not match the nesting
            k = rng.choice((1, 2, 3, 8, 40, 200, 1500, 5000))
            i = rng.randint(0, len(leaf))
            leaf = leaf[:i] + rng.choice(["\\" * k + ESC, "\\" * k + "\t", "'" * k, "\\" * k, ESC * k]) + leaf[i:]
        elif op == 7:  # truncate
            leaf = leaf[:rng.randint(0, len(leaf))]
        else:  # repeat a chunk
            if leaf:
                i = rng.randrange(len(leaf))
                leaf = leaf[:i] + leaf[i:i + rng.randint(1, 40)] * rng.choice((2, 10, 200)) + leaf[i:]
        if len(leaf) > 200_000:
            leaf = leaf[:200_000]
    return leaf


def _copy(t):
    return t if isinstance(t, str) else [_copy(s) for s in t]


def encode_tree(t) -> str:
    return t if isinstance(t, str) else join([encode_tree(s) for s in t], ESC)


def _nodes(t, out, depth=0):
    """(parent list, index) of every node below the top."""
    if isinstance(t, list) and depth < 50:
        for i, s in enumerate(t):
            out.append((t, i))
            _nodes(s, out, depth + 1)
    return out


def _slice_real(S: Seeds, rng: random.Random):
    i = rng.choices(range(len(S.trees)), S.save_weights)[0]
    top = S.trees[i] if isinstance(S.trees[i], list) else [S.trees[i]]
    try:
        end = top.index("end_save")
    except ValueError:
        end = len(top) - 1
    setup, steps = top[1:end], top[end + 1:]
    setup = [s if isinstance(s, str) or rng.random() < 0.5 else s[:1] + rng.sample(s[1:], min(len(s) - 1, rng.randint(0, 12)))
             for s in setup if rng.random() < 0.7]
    if steps:
        a = rng.randrange(len(steps))
        steps = steps[a:a + rng.randint(0, 8)]
    return i, [top[0]] + _copy(setup) + ["end_save"] + _copy(steps)


def _log_step(S: Seeds, rng: random.Random):
    r = rng.random()
    if r < 0.15:
        return "LOG\tnull"
    if r < 0.25:
        return ["LOG\tUNDO\ttrue", "LOG\t" + gen_command(S, rng), "LOG\tUNDO\tfalse"]
    cmds = ["LOG\t" + (rng.choice(S.leaves) if S.leaves and rng.random() < 0.3 else gen_command(S, rng))
            for _ in range(rng.randint(1, 5))]
    if len(cmds) > 2 and rng.random() < 0.3:
        cmds[1] = [cmds[1], cmds.pop()]
    return cmds[0] if len(cmds) == 1 else cmds


def _synth_log(S: Seeds, rng: random.Random):
    adds = [gen_command(S, rng) if rng.random() < 0.5 else rng.choice(S.leaves) for _ in range(rng.randint(0, 10))]
    setup = ["", [""] + adds] + [gen_command(S, rng) for _ in range(rng.randint(0, 3))]
    return ["begin_save"] + setup + ["end_save"] + [_log_step(S, rng) for _ in range(rng.randint(0, 8))]


def mutate_tree(S: Seeds, tree, rng: random.Random):
    wrapped = False  # one deep wrap per tree keeps the generator itself within Python's stack
    for _ in range(_geom(rng, 0.6, 8)):
        nodes = _nodes(tree, [])
        if not nodes:
            return tree
        parent, i = rng.choice(nodes)
        op = rng.randrange(10)
        if op < 4:
            leaf_spots = [(p, j) for p, j in nodes if isinstance(p[j], str)] or nodes
            parent, i = rng.choice(leaf_spots)
            if isinstance(parent[i], str):
                leaf = parent[i]
                if leaf.startswith("LOG\t") and rng.random() < 0.8:
                    parent[i] = "LOG\t" + mutate_command(S, leaf[4:], rng)
                else:
                    parent[i] = mutate_command(S, leaf, rng)
        elif op == 4:
            parent.insert(i, "LOG\t" + gen_command(S, rng) if rng.random() < 0.7 else gen_command(S, rng))
        elif op == 5:
            del parent[i]
        elif op == 6:
            parent.insert(i, _copy(parent[i]))
        elif op == 7 and not wrapped:  # deep nesting: a node wrapped k levels down
            wrapped = True
            k = rng.choice((2, 5, 20, 32, 33, 40, 100, 250))
            node = parent[i]
            for _ in range(k):
                node = [rng.choice(["LOG\tCHAT x", "", "LOG\tnull"]), node]
            parent[i] = node
        elif op == 8:  # framing
            parent.insert(i, rng.choice(["end_save", "begin_save", "", "LOG\t", "LOG\tnull", "'", "\\"]))
        else:  # quote and escape the whole node, maybe many times over (each quote pair is a level)
            k = rng.choice((1, 1, 2, 50, 2000))
            parent[i] = rng.choice(["'", "\\", "''"]) * k + encode_tree(parent[i]) + rng.choice(["'", "", "\\"]) * k
    return tree


# ---- XML level ----------------------------------------------------------------------------------
_ATTR = re.compile(rb'(\s)([A-Za-z_:][-\w.:]*)="([^"]*)"')


def _xml_value(rng: random.Random, key: bytes) -> bytes:
    if key == b"path" and rng.random() < 0.7:
        pts = rng.choice(["a,b;1,2;;3", "1,2", "", ";", "0,0;100,0;100,100", "9" * 5000 + ",1;2,3;4,5",
                          ";".join(f"{rng.choice(INT_CHOICES[:12])},{rng.choice(INT_CHOICES[:12])}" for _ in range(rng.randint(1, 8))),
                          ";".join(f"{i},{i * i % 97}" for i in range(rng.choice((3, 100, 3000)))), "1,2,3;4", "-5,-5;1e3,2"])
        return pts.encode()
    if rng.random() < 0.15:
        return str(rng.choice(INT_CHOICES)).encode()
    if rng.random() < 0.1:
        return repr(rng.uniform(-1e6, 1e6)).encode()
    return rng.choice(XML_VALUES).encode("utf-8")


def mutate_xml_attrs(data: bytes, rng: random.Random) -> bytes:
    spans = list(_ATTR.finditer(data))
    if not spans:
        return data
    picks = sorted(rng.sample(spans, min(len(spans), _geom(rng, 0.6, 8))), key=lambda m: m.start(), reverse=True)
    b = data
    for m in picks:
        r = rng.random()
        if r < 0.7:
            b = b[:m.start(3)] + _xml_value(rng, m.group(2)) + b[m.end(3):]
        elif r < 0.85:  # attribute removed
            b = b[:m.start()] + b[m.end():]
        elif r < 0.93:  # attribute twice (not well-formed)
            b = b[:m.end()] + b" " + m.group(2) + b'="1"' + b[m.end():]
        else:  # renamed
            b = b[:m.start(2)] + rng.choice([b"dX", b"x", b"name", b"xmlns", b"xmlns:x", b"a:b"]) + b[m.end(2):]
    return b


def mutate_xml_tree(data: bytes, rng: random.Random) -> bytes:
    """Wrong nesting: elements moved, copied, dropped or renamed, attributes added."""
    from lxml import etree

    try:
        root = etree.fromstring(data)
    except etree.XMLSyntaxError:
        return data
    els = [e for e in root.iter() if isinstance(e.tag, str)]
    for _ in range(_geom(rng)):
        e = rng.choice(els)
        op = rng.randrange(6)
        if op == 0 and e is not root:  # moved under another element (maybe its own descendant: skipped)
            target = rng.choice(els)
            if target is not e and e not in target.iterancestors():
                target.append(e)
        elif op == 1 and e is not root:
            import copy

            rng.choice(els).append(copy.deepcopy(e))
        elif op == 2 and e is not root and e.getparent() is not None:
            e.getparent().remove(e)
            els = [x for x in root.iter() if isinstance(x.tag, str)]
        elif op == 3:
            e.tag = rng.choice(XML_TAGS).replace("x:", "")
        elif op == 4:
            key = rng.choice(list(GRID_ATTRS) + ["name", "mapName", "width", "height", "image", "path", "edgeWidth",
                                                 "owningBoard", "x", "y", "useParentGrid"])
            e.set(key, _xml_value(rng, key.encode()).decode("utf-8"))
        else:
            e.text = rng.choice(["", "text", "&", "\u00e9"])
    return etree.tostring(root)


def _gen_grid(rng: random.Random, depth: int = 0) -> str:
    kind = rng.choice(["HexGrid", "HexGrid", "SquareGrid", "RegionGrid"])
    attrs = {}
    for k, choices in GRID_ATTRS.items():
        if rng.random() < 0.7:
            if choices is None:
                v = (str(rng.choice([0, 1, 2, 5, 10, 50, 64, 72.5, 100])) if rng.random() < 0.7 else _xml_value(rng, k.encode()).decode())
            else:
                v = rng.choice(choices) if rng.random() < 0.8 else _xml_value(rng, k.encode()).decode()
            attrs[k] = v
    num = attrs.pop("locationFormat", "$gridLocation$")
    grid_attrs = {k: attrs.pop(k) for k in ("dx", "dy", "x0", "y0", "sideways") if k in attrs}
    numbering = ""
    if rng.random() < 0.8:
        nattr = " ".join(f'{k}="{_esc(v)}"' for k, v in attrs.items())
        numbering = f'<VASSAL.build.module.map.boardPicker.board.mapgrid.{kind}Numbering {nattr} locationFormat="{_esc(num)}"/>'
    gattr = " ".join(f'{k}="{_esc(v)}"' for k, v in grid_attrs.items())
    return f'<VASSAL.build.module.map.boardPicker.board.{kind} {gattr}>{numbering}</VASSAL.build.module.map.boardPicker.board.{kind}>'


def _esc(v: str) -> str:
    return v.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") if "&" not in v or not v.startswith("&") else v


def gen_build(rng: random.Random) -> bytes:
    """A generated build file: maps, boards, grids, zones, numbering and draw piles with wild attributes."""
    maps = []
    for m in range(rng.randint(1, 3)):
        boards = []
        for b in range(rng.randint(0, 3)):
            if rng.random() < 0.35:
                zones = []
                for z in range(rng.randint(0, 3)):
                    w, h = rng.choice([(100, 100), (500, 300), (0, 0), (10**6, 10**6), (2**31, 5)])
                    x, y = rng.randint(-50, 500), rng.randint(-50, 500)
                    path = f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}" if rng.random() < 0.8 else _xml_value(rng, b"path").decode()
                    inner = _gen_grid(rng) if rng.random() < 0.6 else ""
                    zones.append(f'<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Z{z}" path="{_esc(path)}" '
                                 f'locationFormat="{rng.choice(["$name$", "$gridLocation$", "$name$ $gridLocation$", ""])}" '
                                 f'useParentGrid="{rng.choice(["true", "false", "x"])}">{inner}</VASSAL.build.module.map.boardPicker.board.mapgrid.Zone>')
                grid = (f'<VASSAL.build.module.map.boardPicker.board.ZonedGrid>{"".join(zones)}'
                        f'{_gen_grid(rng) if rng.random() < 0.6 else ""}</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')
            else:
                grid = _gen_grid(rng) if rng.random() < 0.9 else ""
            size = rng.choice(["", 'width="1000" height="800"', 'width="-5" height="0"', f'width="{rng.choice(XML_VALUES)}"',
                               'width="2147483648" height="3"', 'width="1000000" height="1000000"'])
            boards.append(f'<VASSAL.build.module.map.boardPicker.Board name="B{b}" image="b{b}.png" {size}>{grid}'
                          f'</VASSAL.build.module.map.boardPicker.Board>')
        decks = "".join(f'<VASSAL.build.module.map.DrawPile name="D{d}" owningBoard="B{rng.randint(0, 3)}" '
                        f'x="{rng.choice([0, 10, -5, 10**6, "x"])}" y="{rng.choice([0, 20, 2**40])}"/>' for d in range(rng.randint(0, 2)))
        tag = rng.choice(XML_TAGS[:3])
        maps.append(f'<{tag} mapName="M{m}" edgeWidth="{rng.choice([0, 10, -10, "x", 10**7])}" edgeHeight="{rng.choice([0, 20, 2**31])}">'
                    f'<VASSAL.build.module.map.BoardPicker>{"".join(boards)}</VASSAL.build.module.map.BoardPicker>{decks}</{tag}>')
    return ('<?xml version="1.0" encoding="UTF-8"?><VASSAL.build.GameModule name="Gen">' + "".join(maps)
            + "</VASSAL.build.GameModule>").encode("utf-8")


def entity_trick(data: bytes, rng: random.Random) -> bytes:
    """Hostile DTDs: XXE (file, network, parameter entities), billion laughs, quadratic blow-up."""
    secret = WORK / "secret.txt"
    kind = rng.randrange(7)
    body = re.sub(rb"^<\?xml[^>]*\?>", b"", data)
    m = re.search(rb"<([A-Za-z_][-\w.:]*)", body)
    root_tag = m.group(1) if m else b"x"
    if kind == 0:  # billion laughs, used in an attribute or in content
        ents = ['<!ENTITY l0 "lol">'] + [f'<!ENTITY l{i} "{"".join(f"&l{i - 1};" for _ in range(10))}">' for i in range(1, 10)]
        dtd = "".join(ents)
        ref = "&l9;"
    elif kind == 1:  # XXE through a file entity
        dtd = f'<!ENTITY xxe SYSTEM "file://{secret}">'
        ref = "&xxe;"
    elif kind == 2:  # parameter entity pulling a file
        dtd = f'<!ENTITY % p SYSTEM "file://{secret}"> %p;'
        ref = "&p;"
    elif kind == 3:  # network entity (no_network must refuse it; the port is closed anyway)
        dtd = '<!ENTITY net SYSTEM "http://127.0.0.1:9/x.xml">'
        ref = "&net;"
    elif kind == 4:  # quadratic blow-up
        dtd = f'<!ENTITY a "{"a" * 20000}">'
        ref = "&a;" * rng.choice((10, 1000, 5000))
    elif kind == 5:  # external DTD subset
        return b'<?xml version="1.0"?><!DOCTYPE ' + root_tag + b' SYSTEM "file://' + str(secret).encode() + b'">' + body
    else:  # recursive entity
        dtd = '<!ENTITY r "&s;"><!ENTITY s "&r;">'
        ref = "&r;"
    doc = b'<?xml version="1.0"?><!DOCTYPE ' + root_tag + b" [" + dtd.encode() + b"]>" + body
    spans = list(_ATTR.finditer(doc, doc.find(b"]>")))
    if spans and rng.random() < 0.6:
        m = rng.choice([s for s in spans if s.group(2) in (b"mapName", b"name", b"dx", b"locationFormat")] or spans)
        return doc[:m.start(3)] + ref.encode() + doc[m.end(3):]
    i = doc.rfind(b"</")
    return doc[:i] + ref.encode() + doc[i:] if i > 0 else doc + ref.encode()


def deep_xml(rng: random.Random) -> bytes:
    """Deep nesting, many maps, or one map with many boards and draw piles."""
    k = rng.choice((100, 255, 256, 300, 5000))
    r = rng.random()
    if r < 0.4:
        return b"<a>" * k + b"</a>" * k
    if r < 0.6:
        return b"<VASSAL.build.GameModule>" + b'<VASSAL.build.module.Map mapName="m"/>' * rng.choice((10, 10000)) + b"</VASSAL.build.GameModule>"
    boards, decks = rng.choice(((50, 50), (300, 10), (2000, 200), (10, 3000)))
    grid = b'<VASSAL.build.module.map.boardPicker.board.HexGrid dx="10" dy="12"><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering hType="A" vType="A"/></VASSAL.build.module.map.boardPicker.board.HexGrid>'
    bs = b"".join(b'<VASSAL.build.module.map.boardPicker.Board name="b%d" width="%d" height="900">%s</VASSAL.build.module.map.boardPicker.Board>'
                  % (i, rng.choice((0, 500, 1000000)), grid) for i in range(boards))
    ds = b"".join(b'<VASSAL.build.module.map.DrawPile name="d%d" owningBoard="b%d" x="%d" y="5"/>' % (i, i % boards, i) for i in range(decks))
    return (b'<VASSAL.build.GameModule><VASSAL.build.module.Map mapName="Main Map"><VASSAL.build.module.map.BoardPicker>'
            + bs + b"</VASSAL.build.module.map.BoardPicker>" + ds + b"</VASSAL.build.module.Map></VASSAL.build.GameModule>")


# ---- inputs ---------------------------------------------------------------------------------------
@dataclass
class Case:
    layer: str
    data: bytes
    what: str  # how it was made, for the report
    grids: str = ""  # build file the save is replayed against
    images: dict = field(default_factory=dict)  # xml: "images/<name>" -> image seed index
    sizes: dict = field(default_factory=dict)  # xml: board name -> (w, h)
    probe: int = 0  # seed of the location points


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(f"hexforge-fuzz/{seed}/{index}")


def make_input(S: Seeds, seed: int, index: int) -> Case:
    rng = _rng(seed, index)
    layer = rng.choices(LAYERS[:4], LAYER_WEIGHTS)[0]
    return {"file": _file_case, "text": _text_case, "xml": _xml_case, "vmod": _vmod_case}[layer](S, rng)


def _file_case(S: Seeds, rng: random.Random) -> Case:
    i = rng.choices(range(len(S.saves)), S.save_weights)[0]
    name, data = S.saves[i]
    r = rng.random()
    if r < 0.35:
        what, out = "bytes", mutate_bytes(data, rng, [d for _, d in S.saves])
    elif r < 0.6:
        what, out = "zip-fields", patch_zip(data, rng)
    elif r < 0.85:
        entries = S.entries[i]
        saved = dict(entries)["savedGame"]
        c = rng.random()
        if c < 0.3:
            what, content = "zip-entries", None
        elif c < 0.6:  # obfuscated bytes mutated
            what, content = "zip-entries+obfuscated", mutate_obfuscation(saved, rng) if rng.random() < 0.5 else mutate_bytes(saved, rng)
        else:  # text mutated at the byte level, recompressed
            raw = mutate_bytes(S.texts[i].encode("utf-8"), rng)
            what, content = "zip-entries+text", obfuscate_any(raw, rng.randrange(256), rng) if rng.random() < 0.7 else raw
        out = mutate_zip_entries(entries, rng, "savedGame", content)
        if rng.random() < 0.25:  # and then damaged: the streams of other compression methods break too
            what, out = what + " +damage", patch_zip(out, rng) if rng.random() < 0.5 else mutate_bytes(out, rng)
    else:
        saved = dict(S.entries[i])["savedGame"]
        ob = mutate_obfuscation(saved, rng)
        what, out = "obfuscation", ob if rng.random() < 0.5 else build_zip([("savedGame", ob, zipfile.ZIP_DEFLATED)])
    return Case("file", out, f"{what} of {name}", grids=S.grids_of[i])


def _work_bomb(rng: random.Random) -> Case:
    """A small file asking for work past the reader's limits (issue 32): millions of empty
    commands, half a million steps, or a piece of hundreds of nested traits.  Compressed, each
    is a few KB; each must be refused, quickly."""
    from validators.vlog import reader

    kind = rng.choice(("commands", "steps", "piece"))
    head = "begin_save" + ESC + "end_save"
    if kind == "commands":
        text = head + ESC * (reader.MAX_COMMANDS + rng.randrange(1, 1000))
    elif kind == "steps":
        text = head + (ESC + "LOG\tnull") * (reader.MAX_STEPS + rng.randrange(1, 1000))
    else:
        depth = pieces.MAX_TRAITS + rng.randrange(1, 60)
        traits = [Trait(rng.choice(["emb2;Step;x", "mark;Side", "report;k;f"]), "1")] * depth
        text = head + ESC + "LOG\t" + pieces.add_piece("bomb", traits + [pieces.basic_piece("a.png", "bomb")])
    return Case("text", build_zip([("savedGame", text.encode(), zipfile.ZIP_DEFLATED)]), f"work bomb: {kind}")


def _text_case(S: Seeds, rng: random.Random) -> Case:
    if rng.random() < 0.004:
        return _work_bomb(rng)
    r = rng.random()
    if r < 0.45:
        i, tree = _slice_real(S, rng)
        what, grids = f"slice of {S.saves[i][0]}", S.grids_of[i]
    elif r < 0.9:
        tree = _synth_log(S, rng)
        what, grids = "generated log", rng.choice(S.grids_of)
    else:
        i = rng.choices(range(len(S.trees)), S.save_weights)[0]
        tree = _copy(S.trees[i])
        what, grids = f"whole {S.saves[i][0]}", S.grids_of[i]
    tree = mutate_tree(S, tree, rng)
    text = encode_tree(tree)
    raw = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.15:
        raw = mutate_bytes(raw, rng)
        what += " +bytes"
    form = rng.random()
    key = rng.randrange(256) if rng.random() < 0.5 else 0x5A
    if form < 0.55:
        ob = obfuscate_any(raw, key, rng)
        if rng.random() < 0.1:
            ob = mutate_obfuscation(ob, rng)
        entries = [("savedGame", ob)] + [e for e in rng.choice(S.entries) if e[0] != "savedGame"]
        data = build_zip([(n, d, zipfile.ZIP_DEFLATED) for n, d in entries])
        if rng.random() < 0.05:
            data = patch_zip(data, rng)
        what += ", zipped"
    elif form < 0.7:
        data = build_zip([("savedGame", raw, rng.choice(METHODS))])
        what += ", plain zipped"
    elif form < 0.9:
        data = obfuscate_any(raw, key, rng)
        what += ", bare " + data[:5].decode("ascii", "replace").rstrip("0123456789abcdef")
    else:
        data = raw
        what += ", bare text"
    return Case("text", data, what, grids=grids)


def _xml_extras(case: Case, S: Seeds, rng: random.Random) -> Case:
    boards = _board_names(case.data)
    if boards and rng.random() < 0.6:
        for _, image in boards:
            if image:
                case.images[f"images/{image}"] = rng.randrange(len(S.images))
    if boards and rng.random() < 0.4:
        for name, _ in boards:
            case.sizes[name] = rng.choice([(1200, 1000), (0, 0), (-5, 10), (1, 1), (750, 750), (10**6, 10**6),
                                           (10**6 + 1, 5), (2**31, 2**31), (10**40, 3)])
    case.probe = rng.randrange(1 << 30)
    return case


def _xml_case(S: Seeds, rng: random.Random) -> Case:
    r = rng.random()
    if r < 0.7:
        full = rng.random() < 0.15
        name, data = rng.choice(S.builds if full else S.trimmed)
        what = f"{'' if full else 'trimmed '}{name}"
        if r < 0.55:
            data = mutate_xml_attrs(data, rng)
            what = "attributes of " + what
        if rng.random() < 0.3 and not full:
            data = mutate_xml_tree(data, rng)
            what += " +nesting"
        if rng.random() < 0.15:
            data = mutate_bytes(data, rng)
            what += " +bytes"
    elif r < 0.88:
        data, what = gen_build(rng), "generated build file"
        if rng.random() < 0.3:
            data, what = mutate_xml_attrs(data, rng), what + " +attributes"
    elif r < 0.96:
        name, data = rng.choice(S.trimmed)
        data, what = entity_trick(data, rng), f"entities in {name}"
    else:
        data, what = deep_xml(rng), "deep or wide XML"
    return _xml_extras(Case("xml", data, what), S, rng)


def _vmod_case(S: Seeds, rng: random.Random) -> Case:
    i = rng.randrange(len(S.vmods)) if rng.random() < 0.1 else rng.randrange(len(S.vmods) - len(VMODS))
    name, data = S.vmods[i]
    entries = S.vmod_entries[i]
    main = "buildFile.xml" if any(n == "buildFile.xml" for n, _ in entries) else "buildFile"
    r = rng.random()
    if r < 0.3:
        what, out = "bytes", mutate_bytes(data, rng)
    elif r < 0.55:
        what, out = "zip-fields", patch_zip(data, rng)
    else:
        build = dict(entries)[main]
        if rng.random() < 0.5:
            build = mutate_xml_attrs(build, rng) if len(build) < 100_000 else build
        if rng.random() < 0.3:  # the board images swapped for broken ones
            entries = [(n, S.images[rng.randrange(len(S.images))] if n.startswith("images/") else d) for n, d in entries]
        what, out = "zip-entries", mutate_zip_entries(entries, rng, main, build)
        if rng.random() < 0.25:
            what, out = what + " +damage", patch_zip(out, rng) if rng.random() < 0.5 else mutate_bytes(out, rng)
    case = Case("vmod", out, f"{what} of {name}")
    case.probe = rng.randrange(1 << 30)
    return case


# ---- running one input ------------------------------------------------------------------------------
class Failure(Exception):
    """An input broke a rule that is not an exception of the reader (a wrong kind of result)."""


def _typed(exc: LogFormatError) -> None:
    msg = str(exc)
    if "\n" in msg or "\r" in msg or not msg.strip():
        raise Failure(f"{type(exc).__name__} message is not one line: {msg[:200]!r}")


def _points(spec, rng: random.Random) -> list[tuple[int, int]]:
    pts = []
    for bname in spec._in_use():
        b = spec.boards[bname]
        ox, oy = spec.origin(bname)
        w, h = b.size
        for _ in range(3):
            pts.append((ox + rng.randint(min(0, w), max(0, w)), oy + rng.randint(min(0, h), max(0, h))))
    for name, board, dx, dy in spec.decks[:2]:
        pts.append((dx, dy))
    for _ in range(4):
        pts.append((rng.choice(INT_CHOICES) * rng.choice((1, -1)), rng.choice(INT_CHOICES)))
    pts.append((rng.randint(-10**7, 10**7), rng.randint(-10**7, 10**7)))
    return pts


def _probe_grids(grids, seed: int) -> None:
    if not isinstance(grids, dict):
        raise Failure(f"grids are a {type(grids).__name__}, not a dict")
    rng = random.Random(seed)
    for spec in list(grids.values())[:8]:
        if rng.random() < 0.3 and spec.boards:
            spec.placement = {n: (rng.choice((0, 1, -1, 10**30)), rng.choice((0, 1, 2))) for n in list(spec.boards)[:4]}
        names = [spec.name] + [d[0] for d in spec.decks] + list(spec.boards)
        for x, y in _points(spec, rng):
            loc = spec.location(x, y)
            if not isinstance(loc, str):
                raise Failure(f"location({x}, {y}) is a {type(loc).__name__}, not a str")
            names.append(loc)
        if any(SECRET in n for n in names if isinstance(n, str)):
            raise Failure("XXE: the content of a local file got into the maps")


def _replay(record, grids) -> None:
    replayer = Replayer(record, grids)
    for _step, _events in replayer.steps():
        pass
    for p in list(replayer.board.pieces.values())[:60]:
        _ = p.name, p.properties()


def run_case(S: Seeds, case: Case) -> str:
    """Feed one input to its reader.  Returns "ok" or "refused"; anything else raises."""
    if case.layer == "harness":
        raise Failure(case.what)
    scratch = _scratch()
    if case.layer in ("file", "text"):
        path = scratch / "input.vlog"
        path.write_bytes(case.data)
        try:
            record = read_record(path)
            _replay(record, S.grids.get(case.grids, {}))  # a step may be refused too (a piece too deep)
        except LogFormatError as exc:
            _typed(exc)
            return "refused"
        return "ok"
    if case.layer == "xml":
        images = {k: S.images[v] for k, v in case.images.items()} or None
        try:
            grids = read_module_grids(case.data, images=images, board_sizes=case.sizes or None)
        except ModuleFormatError as exc:
            _typed(exc)
            return "refused"
        _probe_grids(grids, case.probe)
        return "ok"
    path = scratch / "input.vmod"
    path.write_bytes(case.data)
    try:
        grids = read_vmod_grids(path)
    except ModuleFormatError as exc:
        _typed(exc)
        return "refused"
    _probe_grids(grids, case.probe)
    return "ok"


# ---- statistics -------------------------------------------------------------------------------------
@dataclass
class Stats:
    inputs: int = 0
    by_layer: dict = field(default_factory=dict)  # layer -> {"ok": n, "refused": n, "failed": n}
    signatures: dict = field(default_factory=dict)  # failure signature -> count
    failures: list = field(default_factory=list)  # first few: dict(index, layer, kind, signature, what)
    hangs: int = 0
    memory: int = 0
    crashes: int = 0
    slowest: float = 0.0
    slowest_index: int = -1
    slowest_what: str = ""
    busy: float = 0.0  # CPU seconds spent inside inputs
    peak_rss_mb: float = 0.0
    rss_growth_mb: float = 0.0

    @property
    def failed(self) -> int:
        return self.crashes + self.hangs + self.memory

    def merge(self, o: Stats) -> None:
        self.inputs += o.inputs
        for layer, counts in o.by_layer.items():
            mine = self.by_layer.setdefault(layer, {"ok": 0, "refused": 0, "failed": 0})
            for k, v in counts.items():
                mine[k] += v
        for sig, n in o.signatures.items():
            self.signatures[sig] = self.signatures.get(sig, 0) + n
        self.failures += o.failures[: max(0, 200 - len(self.failures))]
        self.hangs += o.hangs
        self.memory += o.memory
        self.crashes += o.crashes
        if o.slowest > self.slowest:
            self.slowest, self.slowest_index, self.slowest_what = o.slowest, o.slowest_index, o.slowest_what
        self.busy += o.busy
        self.peak_rss_mb = max(self.peak_rss_mb, o.peak_rss_mb)
        self.rss_growth_mb = max(self.rss_growth_mb, o.rss_growth_mb)


def _signature(kind: str, tb) -> str:
    frames = traceback.extract_tb(tb) if tb is not None else []
    ours = [f for f in frames if str(ROOT) in f.filename and not f.filename.endswith("fuzz.py")]
    f = (ours or frames or [None])[-1]
    where = f"{Path(f.filename).relative_to(ROOT) if str(ROOT) in f.filename else Path(f.filename).name}:{f.lineno}" if f else "?"
    return f"{kind} at {where}"



def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check_one(S: Seeds, seed: int, index: int, stats: Stats, time_limit: float = TIME_LIMIT,
              crash_dir: Path | None = None, saved: dict | None = None) -> str:
    """Make input `index`, run it under the time limit, record the outcome in `stats`."""
    try:
        case = make_input(S, seed, index)
    except Exception as exc:  # noqa: BLE001 - a bug of the generator, not of a reader: reported all the same
        case = Case("harness", b"", f"make_input failed: {type(exc).__name__}: {exc}"[:300])
    counts = stats.by_layer.setdefault(case.layer, {"ok": 0, "refused": 0, "failed": 0})
    kind, exc_info = None, None
    t0 = time.process_time()
    try:
        with cpu_budget(time_limit):  # the audit's own per-file CPU budget (validators/budget.py)
            outcome = run_case(S, case)
    except OutOfTime:
        kind, exc_info = "hang", sys.exc_info()
    except MemoryError:
        kind, exc_info = "memory", sys.exc_info()
    except Exception:  # noqa: BLE001 - every other exception is what the fuzzer looks for
        kind, exc_info = "crash", sys.exc_info()
    elapsed = time.process_time() - t0
    if kind is None and elapsed > time_limit > 0:
        kind = "hang"
    stats.inputs += 1
    stats.busy += elapsed
    if elapsed > stats.slowest:
        stats.slowest, stats.slowest_index, stats.slowest_what = elapsed, index, f"{case.layer}: {case.what}"
    if kind is None:
        counts[outcome] += 1
        return outcome
    counts["failed"] += 1
    setattr(stats, {"hang": "hangs", "memory": "memory", "crash": "crashes"}[kind],
            getattr(stats, {"hang": "hangs", "memory": "memory", "crash": "crashes"}[kind]) + 1)
    exc = exc_info[1] if exc_info else None
    sig = _signature(kind if exc is None or kind != "crash" else type(exc).__name__, exc_info[2] if exc_info else None)
    if kind == "hang" and exc is None:
        sig = f"hang ({elapsed:.2f} s) in {case.layer}"
    stats.signatures[sig] = stats.signatures.get(sig, 0) + 1
    if len(stats.failures) < 200:
        stats.failures.append({"index": index, "layer": case.layer, "kind": kind, "signature": sig,
                               "what": case.what, "seconds": round(elapsed, 3),
                               "error": f"{type(exc).__name__}: {str(exc)[:300]}" if exc else ""})
    if crash_dir is not None:
        saved = {} if saved is None else saved
        if saved.get(sig, 0) < 3:
            saved[sig] = saved.get(sig, 0) + 1
            save_crash(crash_dir, seed, index, case, sig, exc_info, elapsed)
    return kind


def save_crash(crash_dir: Path, seed: int, index: int, case: Case, sig: str, exc_info, elapsed: float) -> None:
    crash_dir.mkdir(parents=True, exist_ok=True)
    stem = crash_dir / f"{case.layer}-s{seed}-{index}"
    stem.with_suffix(".bin").write_bytes(case.data)
    tb = "".join(traceback.format_exception(*exc_info)) if exc_info else "(no exception: over the time limit)\n"
    stem.with_suffix(".txt").write_text(
        f"{sig}\ninput #{index} (seed {seed}), layer {case.layer}: {case.what}\n{elapsed:.3f} s\n"
        f"replay: .venv/bin/python benchmarks/fuzz.py --seed {seed} --replay {index}\n"
        f"grids={case.grids!r} images={case.images!r} sizes={case.sizes!r} probe={case.probe}\n\n{tb}",
        encoding="utf-8")


def warm_up(S: Seeds) -> None:
    """Run the real seeds once, so lazy imports and caches do not count against the first input."""
    for name, data in S.saves[:2]:
        run_case(S, Case("file", data, "warm-up", grids=S.grids_of[0]))
    run_case(S, Case("xml", S.trimmed[0][1], "warm-up"))
    run_case(S, Case("vmod", S.vmods[0][1], "warm-up"))


def run_range(S: Seeds, seed: int, start: int, stop: int, time_limit: float = TIME_LIMIT,
              crash_dir: Path | None = None) -> Stats:
    """In-process run of inputs [start, stop) (what the CI test calls)."""
    stats = Stats()
    saved: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(start, stop):
            check_one(S, seed, i, stats, time_limit, crash_dir, saved)
    stats.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return stats


# ---- parallel driver --------------------------------------------------------------------------------
def _secret_file() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "secret.txt").write_text(SECRET + "\n")


def _limit_memory(mb: int) -> None:
    with open("/proc/self/statm") as f:
        vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    soft = vm + mb * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _worker(S: Seeds, seed: int, conn, cur, time_limit: float, memory_mb: int, crash_dir: Path) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warnings.simplefilter("ignore")
    warm_up(S)
    _limit_memory(memory_mb)
    base_rss = _rss_mb()
    saved: dict = {}
    while True:
        task = conn.recv()
        if task is None:
            break
        start, stop = task
        stats = Stats()
        cur[2], cur[3] = start, stop
        for i in range(start, stop):
            cur[0], cur[1] = i, time.time()
            check_one(S, seed, i, stats, time_limit, crash_dir, saved)
        cur[0] = -1
        stats.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        stats.rss_growth_mb = _rss_mb() - base_rss
        conn.send((start, stop, stats))
    cleanup_scratch()


def fuzz(S: Seeds, inputs: int, seed: int = 1, workers: int = 2, start: int = 0, chunk: int = 200,
         time_limit: float = TIME_LIMIT, memory_mb: int = MEMORY_MB, crash_dir: Path = WORK / "crashes",
         progress_every: float = 10.0) -> Stats:
    """Inputs [start, start + inputs) on `workers` processes.  A worker stuck in one input past
    5x the time limit (in C code the alarm cannot interrupt) is killed, the input counted as a
    hang, and a fresh worker takes over the rest of its chunk."""
    ctx = mp.get_context("fork")
    total = Stats()
    todo = [(a, min(a + chunk, start + inputs)) for a in range(start, start + inputs, chunk)]
    todo.reverse()
    procs: dict = {}  # conn -> (process, shared [index, started, chunk start, chunk stop], task)

    def spawn():
        parent, child = ctx.Pipe()
        cur = ctx.Array("d", [-1.0, 0.0, 0.0, 0.0], lock=False)
        p = ctx.Process(target=_worker, args=(S, seed, child, cur, time_limit, memory_mb, crash_dir), daemon=True)
        p.start()
        child.close()
        procs[parent] = [p, cur, None]
        feed(parent)

    def feed(conn):
        procs[conn][2] = todo.pop() if todo else None
        try:
            conn.send(procs[conn][2])
        except OSError:  # the worker died after its last report: the check below takes its task back
            pass

    t0 = last = time.time()
    for _ in range(workers):
        spawn()
    while any(v[2] is not None for v in procs.values()):
        for conn in wait([c for c, v in procs.items() if v[2] is not None], timeout=0.5):
            try:
                _, _, stats = conn.recv()
            except (EOFError, OSError):
                continue  # the process died: handled below
            total.merge(stats)
            feed(conn)
        now = time.time()
        for conn, (p, cur, task) in list(procs.items()):
            if task is None:
                continue
            stuck = cur[0] >= 0 and now - cur[1] > 5 * time_limit
            if stuck or not p.is_alive():
                index = int(cur[0]) if cur[0] >= 0 else task[0]
                p.kill()
                p.join()
                conn.close()
                del procs[conn]
                hung = Stats(inputs=1, hangs=1 if stuck else 0, crashes=0 if stuck else 1)
                try:
                    case = make_input(S, seed, index)
                except Exception as exc:  # noqa: BLE001
                    case = Case("harness", b"", f"make_input failed: {exc}"[:300])
                sig = (f"hang (killed after {now - cur[1]:.1f} s) in {case.layer}" if stuck
                       else f"worker died (exit code {p.exitcode}) in {case.layer}")
                hung.by_layer[case.layer] = {"ok": 0, "refused": 0, "failed": 1}
                hung.signatures[sig] = 1
                hung.failures.append({"index": index, "layer": case.layer, "kind": "hang" if stuck else "crash",
                                      "signature": sig, "what": case.what, "seconds": round(now - cur[1], 3), "error": ""})
                if stuck and now - cur[1] > hung.slowest:
                    hung.slowest, hung.slowest_index, hung.slowest_what = now - cur[1], index, f"{case.layer}: {case.what}"
                save_crash(crash_dir, seed, index, case, sig, None, now - cur[1])
                total.merge(hung)
                if index + 1 < task[1]:
                    todo.append((index + 1, task[1]))
                if task[0] < index:
                    todo.append((task[0], index))  # redone: the dead worker's results for these are lost
                spawn()
        if now - last >= progress_every:
            last = now
            rate = total.inputs / (now - t0)
            print(f"[{now - t0:7.0f} s] {total.inputs:>9,}/{inputs:,} inputs  {rate:,.0f}/s  failures {total.failed}"
                  f" (hangs {total.hangs})  slowest {total.slowest:.3f} s", flush=True)
    for conn, (p, _, _) in procs.items():
        p.join(timeout=5)
        if p.is_alive():
            p.kill()
    return total


def report(total: Stats, seconds: float, seed: int, workers: int, crash_dir: Path | None) -> str:
    lines = [(f"fuzz: {total.inputs:,} inputs (seed {seed}) in {seconds:.1f} s on {workers} worker(s), "
              f"{total.inputs / max(seconds, 1e-9):,.0f} inputs/s")]
    for layer in LAYERS:
        c = total.by_layer.get(layer)
        if c:
            lines.append(f"  {layer:5s} {sum(c.values()):>9,}  returned {c['ok']:>8,}  refused (typed error) "
                         f"{c['refused']:>8,}  failed {c['failed']:,}")
    lines.append(f"  failures: {total.failed} (crashes {total.crashes}, hangs {total.hangs}, memory {total.memory})")
    for sig, n in sorted(total.signatures.items(), key=lambda kv: -kv[1]):
        lines.append(f"    {n:>7,} x {sig}")
    if total.failures:
        f = total.failures[0]
        lines.append(f"  first failure: input #{f['index']} ({f['layer']}: {f['what']}) {f['error']}")
        if crash_dir:
            lines.append(f"  inputs and tracebacks saved in {crash_dir}")
    lines.append(f"  slowest input: {total.slowest:.3f} s, #{total.slowest_index} ({total.slowest_what})")
    lines.append(f"  mean time per input: {1000 * total.busy / max(total.inputs, 1):.2f} ms; peak worker RSS "
                 f"{total.peak_rss_mb:.0f} MB, largest RSS growth over the run {total.rss_growth_mb:.0f} MB")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--time-limit", type=float, default=TIME_LIMIT, help="CPU seconds; inputs using more are hangs")
    ap.add_argument("--memory-mb", type=int, default=MEMORY_MB, help="address-space cap above a worker's start")
    ap.add_argument("--crash-dir", type=Path, default=WORK / "crashes")
    ap.add_argument("--replay", type=int, default=None, help="re-run this one input and show its traceback")
    ap.add_argument("--out", type=Path, default=None, help="with --replay: save the input here")
    args = ap.parse_args(argv)

    _secret_file()
    atexit.register(cleanup_scratch)
    t = time.time()
    S = load_seeds(_module_bytes())
    print(f"fuzz: seeds loaded in {time.time() - t:.1f} s: {len(S.saves)} saves/logs, {len(S.builds)} build files, "
          f"{len(S.vmods)} modules, {len(S.leaves)} real commands", flush=True)
    if args.replay is not None:
        case = make_input(S, args.seed, args.replay)
        print(f"input #{args.replay}: layer {case.layer}, {case.what}, {len(case.data)} bytes")
        if args.out:
            args.out.write_bytes(case.data)
        t = time.perf_counter()
        try:
            print("outcome:", run_case(S, case))  # a failure shows its traceback
        finally:
            print(f"{time.perf_counter() - t:.3f} s")
        return 0
    if args.crash_dir.exists():
        shutil.rmtree(args.crash_dir)
    t = time.time()
    total = fuzz(S, args.inputs, args.seed, args.workers, args.start, time_limit=args.time_limit,
                 memory_mb=args.memory_mb, crash_dir=args.crash_dir)
    growth = total.rss_growth_mb > RSS_GROWTH_MB
    print(report(total, time.time() - t, args.seed, args.workers, args.crash_dir if total.failed else None))
    if growth:
        print(f"  FAIL: a worker's RSS grew {total.rss_growth_mb:.0f} MB (limit {RSS_GROWTH_MB} MB)")
    return 1 if total.failed or growth else 0


if __name__ == "__main__":
    sys.exit(main())
