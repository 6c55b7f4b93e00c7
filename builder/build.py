"""Build one game: load the sources, render, write the module and the map atomically.

Nothing is written unless the sources load without a problem and every output is ready.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from builder.model import load_game
from builder.paths import generated_dir, sources_dir
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
    vmod, board_png = build_vmod(game, step)
    step("write")
    out = generated_dir(root) / slug
    outputs = [(out / f"{slug}.vmod", vmod), (out / "map.png", board_png)]
    for path, data in outputs:
        write_atomic(path, data)
    return BuildResult(slug, [p for p, _ in outputs])
