"""A validated game model kept on disk, so that `hexforge audit` and each batch worker skip the
YAML parse, the schema validation and the cross-file checks (issue 15).

The cache is a pickle of the `Game` that `load._load_game` built from the same bytes: it is used
only when its key matches, and the key covers everything the model is made from, namely every
file under the game's folder (names and bytes), the code that builds the model (builder/model
and builder/geometry, names and bytes), the Python and pydantic versions, and the
folder's path (the model records it).  A stale, truncated or corrupt file is ignored, the game
is loaded afresh and the file rewritten (atomically); a game with source problems is never
cached, so its problems are reported on every run.  Beside it the cache keeps the model's
plain copy (`load_game(root, plain=True)`, plain.py), which an audit reads without pydantic.

Where: `generated/.cache/models/<slug>.model.pickle` (and `.plain.pickle`) for a game in the
project's `sources/`; other folders (tests' copies) are not cached.  HEXFORGE_MODEL_CACHE=off
turns the cache off; HEXFORGE_MODEL_CACHE=DIR keeps it in DIR for any folder.  The file is
trusted as far as the project's own generated/ folder is (pickle runs code): a file someone else
can write must not be used as a cache directory.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

from builder.paths import inside

MAGIC = b"hexforge-model-cache 1\n"
_CODE = ("model", "geometry")  # builder/ subpackages whose code shapes the cached objects


def _feed(h, base: Path, files) -> None:
    real_base = str(base.resolve())  # once, not per file: every audit computes a key (issue 36)
    for p in sorted(files):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(base)).encode() + b"\0")
            # a link leaving the folder is never read: its target's name stands for it (load refuses it)
            data = p.read_bytes() if _within(real_base, base, p) else str(p.resolve()).encode()
            h.update(len(data).to_bytes(8, "little") + data)


def _within(real_base: str, base: Path, path: Path) -> bool:
    """`builder.paths.inside(base, path)`, `base` resolved once by the caller: a path written
    under the resolved folder, with no link among its parts below it, lies inside it (a look at
    those parts only, not a resolve of the whole path for every file)."""
    s = str(path)
    if s.startswith(real_base + os.sep):
        here = real_base
        for part in s[len(real_base) + 1:].split(os.sep):
            here = f"{here}{os.sep}{part}"
            if part in ("", ".", "..") or os.path.islink(here):
                return inside(base, path)
        return True
    return inside(base, path)


def cache_key(root: Path, code: tuple[Path, ...] = ()) -> bytes:
    """sha256 of what the model is made from (see the module docstring), and of the files
    `code` (the code of an artefact derived from the model, see `cached`)."""
    h = hashlib.sha256()
    h.update(f"{sys.version}\0{root}\0{root.resolve()}\0".encode())
    h.update(_pydantic_version() + b"\0")
    builder = Path(__file__).resolve().parents[1]
    for sub in _CODE:
        _feed(h, builder, (builder / sub).rglob("*.py"))
    for path in code:
        base = path if path.is_dir() else path.parent
        _feed(h, base.parent, base.rglob("*.py") if path.is_dir() else [path])
    h.update(b"\0sources\0")
    _feed(h, root, root.rglob("*"))
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
    digest, payload = data[head + 64:head + 128], data[head + 128:]
    if hashlib.sha256(payload).hexdigest().encode() != digest:
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
        write_atomic(path, MAGIC + key + hashlib.sha256(payload).hexdigest().encode() + payload)
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
