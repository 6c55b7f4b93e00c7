"""Incremental builds (issue 36): each output is made again only when what it is made from changed.

Two levels, both keyed by sha256 digests:

- the whole game: every file of `sources/<slug>/` (names and bytes), every file of hexforge's
  `builder/` code, Python's and the libraries' versions.  When that digest is the one the last
  build recorded and every output still has the size and modification time that build left, the
  build is done: nothing is loaded, drawn or written (`build --all` costs the program's start).
- each part, when the game must be built: a counter face (the unit, leader, marker or chit it
  draws, the game-wide settings a face reads, the counters' code), the board (map, terrain,
  map-terrain, formations and set-up labels, the board's art, the map's code) and the counter
  sheets (every source, the print options, the sheets' code).  A part whose digest is in the
  store is taken from it byte for byte; the module archive is assembled again from the parts.
  So a change to one unit draws that unit's faces again, the module and the sheets, not the board.

"The code" of a part is its module and every `builder` module it imports, transitively (read
from the import statements, without importing anything).  The store is `generated/.cache/build/
<slug>/` (one file per kind of part, each with its own sha256, written atomically); a file that
cannot be read, is cut short or altered is ignored with one line and the part is made afresh.
`HEXFORGE_BUILD_CACHE=off` (or `hexforge build --force`) builds everything from scratch.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, is_dataclass
from functools import lru_cache
from pathlib import Path

from builder.paths import inside
from builder.record import FrozenRecord

BUILDER = Path(__file__).resolve().parent
MAGIC = b"hexforge-build-cache 1\n"
# libraries whose output enters the files (PNG and PDF encoders, fonts, the model's validation)
LIBRARIES = ("pillow", "reportlab", "pydantic", "pydantic-core", "numpy", "lxml", "shapely", "pyyaml",
             "font-source-sans-pro")


def enabled() -> bool:
    return os.environ.get("HEXFORGE_BUILD_CACHE", "").lower() not in ("off", "0", "no")


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


# ---- digests ---------------------------------------------------------------------------------

def _feed_files(h, base: Path, files: Iterable[Path]) -> None:
    for p in sorted(files):
        if p.is_file() and "__pycache__" not in p.parts:
            # a link leaving the folder is never read: its target's name stands for it (load refuses it)
            data = p.read_bytes() if inside(base, p) else str(p.resolve()).encode()
            h.update(str(p.relative_to(base)).encode() + b"\0" + len(data).to_bytes(8, "little") + data)


@lru_cache(maxsize=1)
def _environment() -> bytes:
    """Python's version and the installed versions of the libraries the outputs depend on."""
    from importlib.metadata import PackageNotFoundError, version

    parts = [sys.version]
    for lib in LIBRARIES:
        try:
            parts.append(f"{lib}={version(lib)}")
        except PackageNotFoundError:
            parts.append(f"{lib}=none")
    return "\0".join(parts).encode()


@lru_cache(maxsize=1)
def _all_code() -> bytes:
    """Every file of builder/: its code and any data file beside it."""
    h = hashlib.sha256()
    _feed_files(h, BUILDER, BUILDER.rglob("*"))
    return h.digest()


@lru_cache(maxsize=1)
def _assets() -> bytes:
    """builder/'s files that are not Python (none today: a symbol or texture file would be one):
    in every part's code, as no import statement names them."""
    h = hashlib.sha256()
    _feed_files(h, BUILDER, (p for p in BUILDER.rglob("*") if p.suffix not in (".py", ".pyc")))
    return h.digest()


def sources_digest(game_dir: Path) -> bytes:
    """sha256 of every file of the game's folder, names and bytes."""
    h = hashlib.sha256()
    _feed_files(h, game_dir, game_dir.rglob("*"))
    return h.digest()


def art_digest(game_dir: Path) -> bytes:
    """sha256 of the game folder's files that are not YAML (art a renderer may read beside the
    model): in the key of every face and of the board."""
    h = hashlib.sha256()
    _feed_files(h, game_dir, (p for p in game_dir.rglob("*") if p.suffix not in (".yaml", ".yml")))
    return h.digest()


def game_key(sources: bytes, *options: str) -> str:
    """The whole game's digest: its sources' digest, all of builder's code, the environment, and
    the command's `options`."""
    return hashlib.sha256(_environment() + b"\0" + _all_code() + b"\0" + sources + b"\0"
                          + "\0".join(options).encode()).hexdigest()


def key_of(game_dir: Path, *options: str) -> str | None:
    """game_key of the game in `game_dir`, or None when its files cannot all be read."""
    try:
        return game_key(sources_digest(game_dir), *options) if game_dir.is_dir() else None
    except OSError:
        return None


def _module_file(name: str) -> Path | None:
    rel = name.split(".")[1:]
    if not rel:
        return BUILDER / "__init__.py"
    for cand in (BUILDER.joinpath(*rel).with_suffix(".py"), BUILDER.joinpath(*rel, "__init__.py")):
        if cand.is_file():
            return cand
    return None


@lru_cache(maxsize=None)
def _imports(path: Path) -> tuple[str, ...]:
    """The builder modules `path` imports (anywhere in it, functions included)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "builder"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] == "builder":
            found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names]  # `from builder.render import fonts`
    return tuple(found)


@lru_cache(maxsize=None)
def code_digest(*modules: str) -> bytes:
    """sha256 of the files of `modules` and of every builder module they import, transitively
    (a package's __init__ included)."""
    seen: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # a module's packages run their __init__ first
            sub = ".".join(parts[:i])
            path = _module_file(sub)
            if path is not None and sub not in seen:
                seen[sub] = path
                todo += _imports(path)
    h = hashlib.sha256(_assets())
    _feed_files(h, BUILDER, seen.values())
    return h.digest()


def _canon(x):
    """A value as JSON-able data in one order whatever the process (sets sorted, models dumped)."""
    if hasattr(x, "model_dump"):
        x = x.model_dump(mode="python")
    elif is_dataclass(x) and not isinstance(x, type):
        x = asdict(x)
    elif isinstance(x, FrozenRecord):  # a record (ChitSpec) as asdict gave it when it was a dataclass
        x = {f: getattr(x, f) for f in x._fields}
    if isinstance(x, dict):
        return [[_canon(k), _canon(v)] for k, v in sorted(x.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted((_canon(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, bytes):
        return hashlib.sha256(x).hexdigest()
    return repr(x) if not isinstance(x, Path) else str(x)


def digest(code: bytes, *inputs) -> bytes:
    """The key of a part: its code's digest and its inputs, canonical."""
    data = json.dumps(_canon(list(inputs)), sort_keys=True, separators=(",", ":"), default=str).encode()
    return hashlib.sha256(_environment() + b"\0" + code + b"\0" + data).hexdigest().encode()


# ---- the store -------------------------------------------------------------------------------

def pack(entries: dict[bytes, bytes]) -> bytes:
    body = b"".join(k + len(v).to_bytes(8, "little") + v for k, v in sorted(entries.items()))
    return MAGIC + hashlib.sha256(body).hexdigest().encode() + body


def unpack(data: bytes) -> dict[bytes, bytes]:
    """Raises ValueError when `data` is not a whole store file."""
    head = len(MAGIC)
    if not data.startswith(MAGIC) or len(data) < head + 64:
        raise ValueError("not a build cache file")
    body = data[head + 64:]
    if hashlib.sha256(body).hexdigest().encode() != data[head:head + 64]:
        raise ValueError("cut short or altered")
    out, i = {}, 0
    while i < len(body):
        if i + 72 > len(body):
            raise ValueError("cut short")
        key, n = body[i:i + 64], int.from_bytes(body[i + 64:i + 72], "little")
        out[key] = body[i + 72:i + 72 + n]
        i += 72 + n
    return out


class Store:
    """The parts of one game's last build, kind by kind (faces, board, sheets)."""

    def __init__(self, folder: Path, note: Callable[[str], None] = _stderr, fresh: bool = False) -> None:
        self.folder, self.note, self.fresh = folder, note, fresh  # fresh: every part made again (--force)
        self.old: dict[str, dict[bytes, bytes]] = {}
        self.new: dict[str, dict[bytes, bytes]] = {}
        self.made: dict[str, int] = {}  # parts made afresh, by kind (what the build redid)
        self.kept: dict[str, int] = {}

    def _load(self, kind: str) -> dict[bytes, bytes]:
        if kind not in self.old and self.fresh:
            self.old[kind] = {}
        if kind not in self.old:
            path = self.folder / f"{kind}.bin"
            try:
                self.old[kind] = unpack(path.read_bytes())
            except FileNotFoundError:
                self.old[kind] = {}
            except (OSError, ValueError) as exc:
                self.note(f"build cache {path}: {exc}; ignored, its parts are made afresh")
                self.old[kind] = {}
        return self.old[kind]

    def get(self, kind: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        """The part `key` of `kind` from the store, or `make()` (then stored)."""
        data = self._load(kind).get(key)
        if data is None:
            data = make()
            self.made[kind] = self.made.get(kind, 0) + 1
        else:
            self.kept[kind] = self.kept.get(kind, 0) + 1
        self.new.setdefault(kind, {})[key] = data
        return data

    def save(self) -> None:
        """Each kind used by this build, with only the parts it used (best effort)."""
        from builder.vassal.archive import write_atomic

        for kind, entries in self.new.items():
            if entries != self.old.get(kind):
                try:
                    write_atomic(self.folder / f"{kind}.bin", pack(entries))
                except OSError as exc:
                    self.note(f"build cache {self.folder}: cannot write ({exc}); the next build makes it afresh")


# ---- the whole game --------------------------------------------------------------------------

def _stamp(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def up_to_date(state: Path, key: str, outputs: list[Path], note: Callable[[str], None] = _stderr) -> bool:
    """Whether the last build recorded `key` and left every output as it is now."""
    try:
        recorded = json.loads(state.read_text("utf-8"))
        if not isinstance(recorded, dict) or not isinstance(recorded.get("outputs"), dict):
            raise ValueError("not a build record")
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:  # json's errors are ValueErrors
        note(f"build cache {state}: unreadable ({exc}); ignored, the game is built")
        return False
    return recorded.get("key") == key and all(recorded["outputs"].get(p.name) == _stamp(p) for p in outputs)


def record(state: Path, key: str, outputs: list[Path], note: Callable[[str], None] = _stderr) -> None:
    from builder.vassal.archive import write_atomic

    doc = {"key": key, "outputs": {p.name: _stamp(p) for p in outputs}}
    try:
        write_atomic(state, (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode())
    except OSError as exc:
        note(f"build cache {state}: cannot write ({exc}); the next build makes everything afresh")
