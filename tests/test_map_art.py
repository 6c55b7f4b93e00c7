"""Map and counter art (issue 20), measured on what is really drawn.

Every text the map, its legend and the counters print is recorded with the box it must stay in
(`fonts.tracing`), and its extent is measured with the same font it is drawn with; so these
checks cover every label at once, not a chosen few.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from shapely.geometry import Polygon, box

from builder.model import load_game
from builder.render.counters import all_faces, draw_face
from builder.render.fonts import tracing
from builder.render.legend import FILL, legend_rows
from builder.render.mapimage import render_map
from builder.vassal.module import setup_labels
from tests.conftest import ROOT

GAMES = sorted(p.parent.name for p in (ROOT / "sources").glob("*/game.yaml"))
TOL = 0.5  # pixels: rounding of the supersampled drawing


def _within(inner, outer, tol=TOL) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def _overlap(a, b, tol=TOL) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


@pytest.fixture(scope="module", params=GAMES)
def drawn_map(request):
    game = load_game(ROOT / "sources" / request.param)
    with tracing() as marks:
        img = render_map(game, setup_labels(game))
    return game, np.asarray(img).astype(int), marks


@pytest.fixture(scope="module", params=GAMES)
def drawn_faces(request):
    """(game, [(face, marks)]) for every face at the module's size."""
    game = load_game(ROOT / "sources" / request.param)
    out = []
    for art in all_faces(game):
        with tracing() as marks:
            draw_face(game, art, game.info.counter.pixels)
        out.append((art, marks))
    return game, out


def _kind(marks, kind):
    return [m for m in marks if m.kind == kind]


# ---- the map ---------------------------------------------------------------------------------
def _legend_texts(marks):
    """(the legend's texts, the texts it hides): the legend is drawn last, over the board."""
    i = next(k for k, m in enumerate(marks) if m.kind == "panel")
    panel = marks[i]
    legend = [m for m in marks[i:] if m.kind == "text"]
    hidden = [m for m in marks[:i] if m.kind == "text" and _overlap(m.bbox, panel.bbox, tol=0)]
    return legend, hidden


def test_every_map_text_fits_its_box(drawn_map):
    game, img, marks = drawn_map
    texts = _kind(marks, "text")
    assert len(texts) > len(game.geometry.labels)  # at least every hex id went through the check
    bad = [f"{m.text!r}: {tuple(round(v) for v in m.bbox)} outside {tuple(round(v) for v in m.box)}"
           for m in texts if not _within(m.bbox, m.box)]
    assert not bad, "\n".join(bad)


def test_no_map_text_crosses_a_box_edge_or_another_text(drawn_map):
    game, img, marks = drawn_map
    legend, hidden = _legend_texts(marks)
    visible = [m for m in _kind(marks, "text") if m not in hidden]
    for m in visible:  # a text is in a box or clear of it (the month of a turn box, a track's title)
        for b in _kind(marks, "box"):
            assert _within(m.bbox, b.bbox) or not _overlap(m.bbox, b.bbox), f"{m.text!r} crosses the edge of {b.text}"
    hits = [(a.text, b.text) for a, b in combinations(visible, 2) if _overlap(a.bbox, b.bbox, tol=1)]
    assert not hits, hits


def test_every_legend_row_shows_its_symbol(drawn_map):
    game, img, marks = drawn_map
    symbols = _kind(marks, "symbol")
    assert [m.text for m in symbols] == [r.text for r in legend_rows(game)]
    assert any("hexside" in m.text for m in symbols)  # the plain-hexside row is there, with its symbol
    fill = np.array([int(FILL[i:i + 2], 16) for i in (1, 3, 5)])
    for m in symbols:
        x0, y0, x1, y1 = (round(v) for v in m.bbox)
        cell = img[y0:y1, x0:x1]
        ink = (np.abs(cell - fill).sum(axis=2) > 60).sum()
        assert ink >= 20, f"legend row {m.text!r} has no symbol ({ink} inked pixels)"
    texts, _ = _legend_texts(marks)
    for m in symbols:  # each symbol has its text on the same line, to its right
        assert any(t.text == m.text and abs((t.bbox[1] + t.bbox[3]) / 2 - (m.bbox[1] + m.bbox[3]) / 2) < 3
                   and t.bbox[0] > m.bbox[2] for t in texts), m.text


def test_legend_hides_no_land_hex_track_or_name(drawn_map):
    game, img, marks = drawn_map
    (panel,) = _kind(marks, "panel")
    b = game.map.board
    assert _within(panel.bbox, (0, 0, b.width, b.height), tol=0)
    rect = box(*panel.bbox)
    land = [h for h in game.geometry.labels if not game.hex_terrain_types[game.hex_terrain[h]].prohibited]
    covered = [h for h in land if Polygon(game.geometry.outline(h)).intersection(rect).area > 0]
    assert not covered, f"the legend covers land hexes {covered}"
    assert not [m.text for m in _kind(marks, "box") if _overlap(m.bbox, panel.bbox, tol=0)]
    names = {p.name for p in game.map.places}
    assert not [m.text for m in _kind(marks, "text") if m.text.split(" (")[0] in names
                and _overlap(m.bbox, panel.bbox, tol=0)]


def test_map_has_no_empty_strip_at_the_bottom(drawn_map):
    game, img, marks = drawn_map
    lowest = max(m.bbox[3] for m in marks if m.kind in ("box", "text", "panel"))
    assert game.map.board.height - lowest <= 60, f"{game.map.board.height - lowest:.0f} px empty under the tracks"


# ---- the counters ----------------------------------------------------------------------------
def test_every_counter_text_fits_and_stands_alone(drawn_faces):
    game, faces = drawn_faces
    for art, marks in faces:
        texts = _kind(marks, "text")
        assert texts, art.file
        for m in texts:
            assert _within(m.bbox, m.box), f"{art.file}: {m.text!r} {m.bbox} outside {m.box}"
        for a, b in combinations(texts, 2):
            assert not _overlap(a.bbox, b.bbox), f"{art.file}: {a.text!r} overlaps {b.text!r}"


def test_reduced_band_crosses_no_text(drawn_faces):
    game, faces = drawn_faces
    reduced = [(art, marks) for art, marks in faces if art.kind == "unit" and art.face == 2]
    assert reduced
    for art, marks in reduced:
        (band,) = _kind(marks, "band")
        for m in _kind(marks, "text"):
            assert not _overlap(m.bbox, band.bbox, tol=0), f"{art.file}: the band crosses {m.text!r}"
    assert not [art.file for art, marks in faces if art.face == 1 and _kind(marks, "band")]


def test_bravery_counters_carry_unit_size_marks():
    game = load_game(ROOT / "sources" / "bravery-in-the-sand")
    sizes = {u.id: u.size for u in game.units}
    assert all(sizes.values()), [u for u, s in sizes.items() if not s]
    assert {"II", "III", "X"} <= set(sizes.values())
    for u in game.units[:5] + game.units[-5:]:
        for art in [a for a in all_faces(game) if a.ref == u.id]:
            with tracing() as marks:
                draw_face(game, art, game.info.counter.pixels)
            assert u.size in [m.text for m in _kind(marks, "text")], art.file


@pytest.mark.parametrize("slug", GAMES)
def test_the_about_screen_texts_fit_their_frame(slug):
    """VASSAL shows about.png when the module opens: the title shrinks and the subtitle wraps
    rather than run past the frame (the Western Desert Force subtitle was cut at both ends)."""
    from builder.vassal.module import _about

    with tracing() as marks:
        _about(load_game(ROOT / "sources" / slug))
    texts = [m for m in marks if m.kind == "text"]
    assert len(texts) >= 3
    for m in texts:
        x0, y0, x1, y1 = m.box
        assert x0 - TOL <= m.bbox[0] and m.bbox[2] <= x1 + TOL and y0 - TOL <= m.bbox[1] and m.bbox[3] <= y1 + TOL, m
