"""Build one game: load the sources, render, write the module, the map and the counter sheets atomically.

Nothing is written unless the sources load without a problem and every output is ready.  A build
redoes only what changed since the last one (builder/incremental.py): with nothing changed it
loads nothing and writes nothing; otherwise each counter face, the board and the sheets come from
the build store when their inputs and code are the same, and the outputs are byte-identical to a
clean build's.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from builder import incremental
from builder.paths import generated_dir, sources_dir


@dataclass(frozen=True)
class BuildResult:
    slug: str
    outputs: list[Path]
    # parts made afresh by kind ("faces", "board", "sheets", "module"); empty: nothing changed
    made: dict[str, int] = field(default_factory=dict)

    @property
    def up_to_date(self) -> bool:
        return not self.made


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


def build_game(slug: str, root: Path | None = None, step: Callable[[str], None] = lambda _: None,
               force: bool = False, note: Callable[[str], None] = _stderr) -> BuildResult:
    """Raises SourceError (nothing written) when the sources have problems.  `force`: build every
    part afresh (the store is still refreshed); `note` is told of a build cache it ignores."""
    out = generated_dir(root) / slug
    outputs = [out / f"{slug}.vmod", out / "map.png", out / f"{slug}-counters.pdf"]
    cache = generated_dir(root) / ".cache" / "build" / slug
    use = incremental.enabled() and not force
    game_dir = sources_dir(root) / slug
    step("sources")
    key = incremental.key_of(game_dir)  # None: a file that cannot be read (the load reports it)
    if use and key and incremental.up_to_date(cache / "state.json", key, outputs, note):
        return BuildResult(slug, outputs)
    store = incremental.Store(cache, note, fresh=force) if incremental.enabled() else _NoStore()
    made = _build(slug, game_dir, outputs, store, step)
    if key and incremental.enabled():
        incremental.record(cache / "state.json", key, outputs, note)
    return BuildResult(slug, outputs, made)


class _NoStore:
    """Every part made afresh, nothing kept (HEXFORGE_BUILD_CACHE=off)."""

    def __init__(self) -> None:
        self.made: dict[str, int] = {}

    def get(self, kind: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        self.made[kind] = self.made.get(kind, 0) + 1
        return make()

    def save(self) -> None:
        pass


def _build(slug: str, game_dir: Path, outputs: list[Path], store, step: Callable[[str], None]) -> dict[str, int]:
    from builder.geometry.roundtrip import require_round_trip
    from builder.model import SourceError, load_game
    from builder.model.load import SourceProblem
    from builder.release import released_fingerprint
    from builder.render.sheets import SheetError, render_sheets, sheet_options
    from builder.vassal.archive import write_atomic
    from builder.vassal.module import build_vmod

    game = load_game(game_dir)
    require_round_trip(game)  # every hex id leads VASSAL back to its own hex, or nothing is built
    released_fingerprint(game)  # a released version's map never changes under it (builder/release.py)
    try:
        sheet = sheet_options(game)  # the print settings of game.yaml
    except SheetError as exc:
        raise SourceError([SourceProblem(f"sources/{slug}/game.yaml", 1, 1, str(exc), "see `hexforge sheets --help`")])
    face_png, board_png_of, sheets_key = _parts(game, sheet, game_dir, store)
    vmod, board_png = build_vmod(game, step, face_png, board_png_of)
    # the counter sheet PDF after the module, not beside it: drawn at once with the board they
    # peaked at 442 MB for Desert Fox, one after the other under 400 (issue 35), for 1.5 s of CPU
    step("counter sheets")
    pdf_bytes = store.get("sheets", sheets_key, lambda: render_sheets(game, sheet))
    step("write")
    for path, data in zip(outputs, (vmod, board_png, pdf_bytes)):
        if not _same(path, data):  # an output already as built is left as it is, its time too
            write_atomic(path, data)
    store.save()
    return {**store.made, "module": 1}


def _same(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _parts(game, sheet, game_dir: Path, store):
    """The store's lookups of a game's parts: a face's PNG, the board's PNG, the sheets' key.

    A part's key is its code (builder/incremental.code_digest, and the source of the module's
    functions that encode it) and what it reads of the model (see builder/incremental.py)."""
    import inspect

    from builder.render.counters import FaceArt
    from builder.vassal import module

    encode = inspect.getsource(module.png).encode() + incremental.art_digest(game_dir)  # the PNG encoder, art files
    px = game.info.counter.pixels
    faces = incremental.digest(incremental.code_digest("builder.render.counters") + encode, game.info,
                               game.unit_types, game.units_file.faces, game.units_file.formations, px)
    chits = {c.id: c for c in game.chits}
    units = {u.id: u for u in game.units}

    def subject(a: FaceArt):
        return {"unit": units, "leader": game.leaders, "marker": game.markers, "chit": chits}[a.kind].get(a.ref)

    def face_png(a: FaceArt, make: Callable[[], bytes]) -> bytes:
        return store.get("faces", incremental.digest(faces, a, subject(a)), make)

    b = game.map.board
    art = (game_dir / b.image).read_bytes() if b.image and (game_dir / b.image).is_file() else None
    board_code = incremental.code_digest("builder.render.mapimage") + encode + b"".join(
        inspect.getsource(f).encode() for f in (module.map_png, module.setup_labels))
    board = incremental.digest(board_code, game.info, game.terrain, game.map, game.map_terrain,
                               game.units_file.formations, module.setup_labels(game), art)

    def board_png_of(make: Callable[[], bytes]) -> bytes:
        return store.get("board", board, make)

    sheets = incremental.digest(incremental.code_digest("builder.render.sheets"),
                                incremental.sources_digest(game_dir), sheet)
    return face_png, board_png_of, sheets
