"""Unit types take any APP-6 land unit symbol with its modifiers, drawn by `military-symbol` (issue 35).

A `symbol:` is read into a SIDC when the sources load (a word the library does not know is one
problem at its file:line, with the fix), and drawn on the counter faces by
builder/render/unitsymbol.py: ten symbols the old hand-drawn set refused are drawn, each its own.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageChops

from builder.model import SourceError, app6, load_game
from builder.render import unitsymbol
from builder.render.counters import draw_unit

SLUG = "western-desert-force"
SOURCES = Path(__file__).resolve().parent.parent / "sources" / SLUG

# refused by the old `symbol:` (eleven hand-drawn values); each names something the rules of some game tell apart
ONCE_REFUSED = ["cavalry", "infantry + airborne", "infantry + mountain", "air defense", "supply", "naval",
                "armor + headquarters", "infantry + headquarters", "engineer + wheeled", "motorized recon",
                "Special Forces", "infantry + amphibious"]


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    dest = tmp_path / "sources" / SLUG
    shutil.copytree(SOURCES, dest)
    return dest


def _set_recon_symbol(game_dir: Path, value: str) -> int:
    path = game_dir / "units.yaml"
    text = path.read_text(encoding="utf-8")
    old = "{id: recon, name: Recon, symbol: recon}"
    assert text.count(old) == 1
    path.write_text(text.replace(old, "{id: recon, name: Recon, symbol: " + value + "}"), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


@pytest.mark.parametrize("value, fragment, near", [
    ("machine-gun", "'machine-gun' is not an APP-6 land unit icon", None),
    ("infantri", "'infantri' is not an APP-6 land unit icon", "did you mean 'infantry'"),
    ("infantry + airborn", "'airborn' (in 'infantry + airborn')", "'airborne'"),
    ("infantry + armor", "gives a second entity", None),
])
def test_an_unknown_symbol_is_one_problem_at_its_line_with_the_fix(game_dir, value, fragment, near):
    line = _set_recon_symbol(game_dir, value)
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    problems = [p for p in info.value.problems if p.line == line and p.file.endswith("units.yaml")]
    assert len(problems) == 1, info.value.problems
    p = problems[0]
    assert str(p).startswith(f"sources/{SLUG}/units.yaml:{line}:")
    assert fragment in p.message and "20-digit SIDC" in p.message and "after '+'" in p.message
    if near:
        assert near in p.message


def test_a_symbol_is_its_sidc_and_a_sidc_is_taken_as_it_is():
    assert app6.sidc("infantry") == "10031000001211000000"
    assert app6.sidc("Infantry + Airborne") == "10031000001211000001"  # modifier 2, code 01
    assert app6.sidc("armor + headquarters")[7] == "2"  # HQ/TF/dummy digit
    assert app6.sidc("infantry + battalion")[8:10] == "16"  # echelon amplifier
    assert app6.sidc("10031000001205000000") == app6.sidc("armor")
    with pytest.raises(app6.SymbolError, match="Context"):
        app6.sidc("12345678901234567890")


def _face(spec: str, n: int = 256) -> Image.Image:
    img = Image.new("RGB", (n, n), "#c8b88a")
    unitsymbol.draw(img, (n * 0.3, n * 0.3, n * 0.7, n * 0.54), app6.sidc(spec), "#000000", "#c8b88a", 6,
                    (0, 0, n, n * 0.62))
    return img


def test_ten_once_refused_symbols_are_drawn_each_its_own():
    empty = _face("headquarters").tobytes()
    drawn = {spec: _face(spec).tobytes() for spec in ONCE_REFUSED}
    assert all(d != empty for d in drawn.values())
    assert len(set(drawn.values())) == len(ONCE_REFUSED)  # no two alike


def test_a_modifier_draws_what_it_says():
    """The HQ staff hangs below the frame's left edge; airborne adds an arc inside the frame."""
    def ink_in(img, box):
        return int((np.asarray(img.crop(box).convert("L")) < 60).sum())
    n = 256
    below_left = (int(n * 0.28), int(n * 0.565), int(n * 0.36), int(n * 0.62))  # the frame ends at 0.54
    assert ink_in(_face("armor"), below_left) == 0 < ink_in(_face("armor + headquarters"), below_left)
    lower_middle = (int(n * 0.42), int(n * 0.46), int(n * 0.58), int(n * 0.52))
    assert ink_in(_face("infantry + airborne"), lower_middle) > ink_in(_face("infantry"), lower_middle)


def test_the_counter_face_changes_with_the_symbol_and_is_the_same_every_run(game_dir):
    game = load_game(game_dir)
    unit = next(u for u in game.units if u.type == "recon")
    before = draw_unit(game, unit, False, 64)
    assert draw_unit(game, unit, False, 64).tobytes() == before.tobytes()
    _set_recon_symbol(game_dir, "cavalry + mountain")
    after = draw_unit(load_game(game_dir), unit, False, 64)
    assert ImageChops.difference(before, after).getbbox() is not None


def test_drawing_in_threads_leaves_stdout_alone():
    """The library's complaints are caught by swapping sys.stdout, one thread at a time (the
    counter sheets draw their faces in a pool): stdout is the same object afterwards."""
    import sys
    from concurrent.futures import ThreadPoolExecutor
    before = sys.stdout
    specs = ["infantry + arctic", "armor + ski", "artillery + towed", "engineer + light", "supply + heavy",
             "cavalry + bicycle-equipped", "infantry + riverine", "recon + long range"]
    app6.sidc.cache_clear(), app6.svg.cache_clear(), unitsymbol.shapes.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        drawn = list(pool.map(_face, specs))
    assert sys.stdout is before
    assert len({img.tobytes() for img in drawn}) == len(specs)
