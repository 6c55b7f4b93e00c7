"""Every terrain the board prints is in its legend, the impassable ones too (issue 35: sea and
lake were left out of every legend)."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.model import load_game
from builder.paths import games
from builder.render.legend import legend_rows

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("slug", games(ROOT))
def test_every_prohibited_terrain_in_use_has_a_legend_row(slug):
    game = load_game(ROOT / "sources" / slug)
    used = set(game.hex_terrain.values())
    texts = [r.text for r in legend_rows(game)]
    for t in game.terrain.hex_terrain:
        if t.prohibited and t.id in used:
            assert any(x.startswith(f"{t.name} (prohibited") for x in texts), (t.name, texts)


def _terrain_rows_missing(game) -> list[str]:
    texts = [r.text for r in legend_rows(game)]
    used, ground = set(game.hex_terrain.values()), game.map.default_terrain
    names = [f"{t.name} hexside" if t.id == ground else t.name for t in game.terrain.hex_terrain if t.id in used]
    return [n for n in names if not any(x == n or x.startswith(f"{n} (") for x in texts)]


@pytest.mark.parametrize("slug", games(ROOT))
def test_every_terrain_in_use_has_a_legend_row(slug):
    """Each hex terrain the board prints is named by a legend row (the ground by its hexside's)."""
    assert _terrain_rows_missing(load_game(ROOT / "sources" / slug)) == []


def test_every_terrain_of_a_new_game_has_a_legend_row(tmp_path):
    from builder.new_game import new_game

    assert _terrain_rows_missing(load_game(new_game("demo", tmp_path / "sources"))) == []
