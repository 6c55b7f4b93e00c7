"""A validated game model kept on disk, so that `hexforge audit` and each batch worker skip the
YAML parse, the schema validation and the cross-file checks (issue 15).

The cache is a pickle of the `Game` that `load._load_game` built from the same bytes: it is used
only when its key matches, and the key covers everything the model is made from, namely every
file under the game's folder (names and bytes), the code that builds the model (builder/model,
builder/geometry and builder/record.py: names, sizes and modification times, the test Python's
import itself makes before it runs a module's byte code, so that a key never reads the code:
issue 36), the Python and pydantic versions, and the folder's path (the model records it).  A
stale, truncated or corrupt file is ignored, the game is loaded afresh and the file rewritten
(atomically); a game with source problems is never cached, so its problems are reported on every
run.  Beside it the cache keeps the model's plain copy (`load_game(root, plain=True)`,
plain.py), which an audit reads without pydantic.

Where: `generated/.cache/models/<slug>.model.pickle` (and `.plain.pickle`) for a game in the
project's `sources/`; other folders (tests' copies) are not cached.  HEXFORGE_MODEL_CACHE=off
turns the cache off; HEXFORGE_MODEL_CACHE=DIR keeps it in DIR for any folder.  The file is
trusted as far as the project's own generated/ folder is (pickle runs code): a file someone else
can write must not be used as a cache directory.
"""
from __future__ import annotations

import importlib.util
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

from builder.paths import inside

# hashlib's own BLAKE2, taken without importing hashlib, whose import loads OpenSSL: 2-3 ms of every
# audit (issue 36)
try:
    from _blake2 import blake2b as _blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b as _blake2b

MAGIC = b"hexforge-model-cache 2\n"  # 2: BLAKE2b keys and digests (1: sha256)


def _hasher():
    """The hash of the keys and of the payload digests: BLAKE2b, 32 bytes (64 hex digits)."""
    return _blake2b(digest_size=32)


def digest(payload: bytes) -> bytes:
    """The digest a cache file holds of its payload (a truncated or altered file is refused)."""
    h = _hasher()
    h.update(payload)
    return h.hexdigest().encode()
_CODE = ("model", "geometry")  # builder/ subpackages whose code shapes the cached objects
_RECORD = "record.py"  # and the base of their records (how they pickle)


def _files(top: str, suffix: str = "") -> list[tuple[str, bool]]:
    """(path, is a link) of each file under the folder `top` whose name ends with `suffix`,
    sorted; no __pycache__, no folder entered through a link (as `Path.rglob`).  Read with
    `os.scandir`: no Path objects and no stat calls, as every audit computes a key (issue 36)."""
    found: list[tuple[str, bool]] = []
    folders = [top]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        folders.append(e.path)
                elif e.name.endswith(suffix):
                    if e.is_symlink():
                        found.append((e.path, True))
                    elif e.is_file(follow_symlinks=False):
                        found.append((e.path, False))
    found.sort()
    return found


def _feed(h, base: Path, paths: list[tuple[str, bool]]) -> None:
    """Each file's name under `base` and its bytes; a link stands by its target's name when
    the target lies outside `base` (never read), and is left out when it names no file."""
    cut = len(str(base)) + 1
    for path, link in paths:
        if link:  # a folder entered through a link is never listed (_files)
            p = Path(path)
            if not p.is_file():
                continue
            data = p.read_bytes() if inside(base, p) else str(p.resolve()).encode()
        else:
            with open(path, "rb") as f:
                data = f.read()
        h.update(path[cut:].encode() + b"\0")
        h.update(len(data).to_bytes(8, "little") + data)


def _feed_code(h, base: Path, paths: list[tuple[str, bool]]) -> None:
    """Each code file's name under `base`, size and modification time (nanoseconds): what
    Python's import checks, more finely, before it trusts the byte code of that very file."""
    cut = len(str(base)) + 1
    for path, _ in paths:
        st = os.stat(path)
        h.update(f"{path[cut:]}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())


def cache_key(root: Path, code: tuple[Path, ...] = ()) -> bytes:
    """BLAKE2b of what the model is made from (see the module docstring), and of the files
    `code` (the code of an artefact derived from the model, see `cached`)."""
    h = _hasher()
    h.update(f"{sys.version}\0{root}\0{root.resolve()}\0".encode())
    h.update(_pydantic_version() + b"\0")
    builder = Path(__file__).resolve().parents[1]
    for sub in _CODE:
        _feed_code(h, builder, _files(str(builder / sub), ".py"))
    _feed_code(h, builder, [(str(builder / _RECORD), False)])
    for path in code:
        if path.is_dir():
            _feed_code(h, path.parent, _files(str(path), ".py"))
        else:
            _feed_code(h, path.parent.parent, [(str(path), False)])
    h.update(b"\0sources\0")
    _feed(h, root, _files(str(root)))
    return h.hexdigest().encode()


def _pydantic_version() -> bytes:
    """pydantic's version file, read without importing pydantic (an audit never imports it)."""
    spec = importlib.util.find_spec("pydantic")
    if spec is None or spec.origin is None:
        return b"no pydantic"
    return (Path(spec.origin).parent / "version.py").read_bytes()


def cache_file(root: Path, name: str = "model") -> Path | None:
    """Where `name` (the model, or an artefact made from it) of the game in `root` is cached,
    or None when it is not."""
    setting = os.environ.get("HEXFORGE_MODEL_CACHE", "")
    if setting.lower() in ("off", "0", "no"):
        return None
    if setting:
        return Path(setting) / f"{root.name}.{name}.pickle"
    from builder.paths import generated_dir, sources_dir

    try:
        if root.resolve().parent != sources_dir().resolve():
            return None
    except OSError:
        return None
    return generated_dir() / ".cache" / "models" / f"{root.name}.{name}.pickle"


def read_cached(path: Path, key: bytes):
    """The cached model if the file is whole and its key is `key`, else None (never raises)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(MAGIC)
    if not data.startswith(MAGIC) or data[head:head + 64] != key or len(data) < head + 128:
        return None
    stored, payload = data[head + 64:head + 128], data[head + 128:]
    if digest(payload) != stored:
        return None  # truncated or altered
    try:
        return pickle.loads(payload)
    except Exception:  # noqa: BLE001 - an unreadable cache is rebuilt, never trusted
        return None


def write_cached(path: Path, key: bytes, game) -> None:
    """Best effort: a cache that cannot be written only costs the next run a fresh load."""
    from builder.vassal.archive import write_atomic

    try:
        payload = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
        write_atomic(path, MAGIC + key + digest(payload) + payload)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass


def cached(root: Path, name: str, make: Callable[[], object], code: tuple[Path, ...] = ()):
    """`make()`, or what it returned last time for the same bytes of the game in `root` and of
    the model code and `code` (files or folders of the code that `make` runs)."""
    path = cache_file(root, name) if root.is_dir() else None
    if path is None:
        return make()
    try:
        key = cache_key(root, code)
    except OSError:  # a file that cannot be read: the fresh load reports it, or does without it
        return make()
    value = read_cached(path, key)
    if value is not None:
        return value
    value = make()  # raises (SourceError for the model) on any problem: nothing is cached then
    write_cached(path, key, value)
    return value


def load_game(root: Path, plain: bool = False):
    """Load and check every source file of the game in `root` (sources/<slug>); a game checked
    before from the same bytes comes from the cache.  `plain`: the model as read-only records
    (plain.py), for code that only reads it: read from the cache, it needs no pydantic."""
    if plain:
        from builder.model.plain import plain_game

        make = lambda: plain_game(load_game(root))  # the copy of the (cached) model
    else:
        make = lambda: _fresh(root)
    game = cached(root, "plain" if plain else "model", make)
    if getattr(game, "slug", None) != root.name:  # not this game's model: never trusted
        game = make()
    return game


def _fresh(root: Path):
    """The game read from YAML and validated (the loader and pydantic are imported only here)."""
    from builder.model.load import _load_game

    return _load_game(root)
