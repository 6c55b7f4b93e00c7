"""Build one game: load the sources, render, write the module, the map and the counter sheets atomically.

Nothing is written unless the sources load without a problem and every output is ready.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from builder.geometry.roundtrip import require_round_trip
from builder.model import SourceError, load_game
from builder.model.load import SourceProblem
from builder.paths import generated_dir, sources_dir
from builder.release import released_fingerprint
from builder.render.sheets import SheetError, render_sheets, sheet_options
from builder.vassal.archive import write_atomic
from builder.vassal.module import build_vmod


@dataclass(frozen=True)
class BuildResult:
    slug: str
    outputs: list[Path]


def build_game(slug: str, root: Path | None = None, step: Callable[[str], None] = lambda _: None) -> BuildResult:
    """Raises SourceError (nothing written) when the sources have problems."""
    step("sources")
    game = load_game(sources_dir(root) / slug)
    require_round_trip(game)  # every hex id leads VASSAL back to its own hex, or nothing is built
    released_fingerprint(game)  # a released version's map never changes under it (builder/release.py)
    try:
        sheet = sheet_options(game)  # the print settings of game.yaml
    except SheetError as exc:
        raise SourceError([SourceProblem(f"sources/{slug}/game.yaml", 1, 1, str(exc), "see `hexforge sheets --help`")])
    vmod, board_png = build_vmod(game, step)
    # the counter sheet PDF after the module, not beside it: drawn at once with the board they
    # peaked at 442 MB for Desert Fox, one after the other under 400 (issue 35), for 1.5 s of CPU
    step("counter sheets")
    pdf_bytes = render_sheets(game, sheet)
    step("write")
    out = generated_dir(root) / slug
    outputs = [(out / f"{slug}.vmod", vmod), (out / "map.png", board_png),
               (out / f"{slug}-counters.pdf", pdf_bytes)]
    for path, data in outputs:
        write_atomic(path, data)
    return BuildResult(slug, [p for p, _ in outputs])
