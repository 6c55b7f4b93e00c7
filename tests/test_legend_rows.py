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
