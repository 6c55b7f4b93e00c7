"""No hex id hidden (issue 35: Desert Fox's dashed tracks and escarpments ran through L2616 and
L2108, Bravery's strategic rings through the ids of their hexes).

Measured on the board's own drawing: every call the map makes (`mapimage._record`) is turned
into the ink it lays (a line's segments at their width, a ring, a filled shape), and every hex
id's box, as the text trace measures it, must keep clear of all of it but the hex fills under
it; texts against texts are test_map_art's check.  The one exception: the legend panel may hide
sea hexes, and an id it would cover, whole or in part, is left out rather than cut in two.
"""
from __future__ import annotations

import pytest
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union
from shapely.strtree import STRtree

from builder.model import load_game
from builder.new_game import new_game
from builder.render import mapimage
from builder.render.fonts import tracing
from builder.render.hexids import visible_pieces
from builder.render.mapsymbols import SS
from builder.vassal.module import setup_labels
from tests.conftest import ROOT

GAMES = sorted(p.parent.name for p in (ROOT / "sources").glob("*/game.yaml"))
CLEAR = 1.0  # board pixels: no ink this near an id's letters


def _points(xy) -> list[tuple[float, float]]:
    if all(isinstance(v, (tuple, list)) for v in xy):
        return [(p[0] / SS, p[1] / SS) for p in xy]
    flat = list(xy)
    return [(flat[i] / SS, flat[i + 1] / SS) for i in range(0, len(flat), 2)]


def _ink(name: str, xy, kw: dict):
    """What one drawing call inks, in board pixels (None for a text)."""
    w = kw.get("width", 1) / SS
    pts = _points(xy)
    if name == "text":
        return None
    if name == "line":  # square-ended segments; round joints where the line asks for them
        parts = [LineString([a, b]).buffer(w / 2, cap_style="flat") for a, b in zip(pts, pts[1:]) if a != b]
        if kw.get("joint") == "curve":
            parts += [Point(p).buffer(w / 2) for p in pts[1:-1]]
        return unary_union(parts) if parts else None
    if name == "polygon":
        shape = Polygon(pts)
        return shape.buffer(w / 2) if kw.get("outline") else shape
    if name == "ellipse":
        (x0, y0), (x1, y1) = pts
        centre, r = Point((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0) / 2
        return centre.buffer(r) if kw.get("fill") is not None else centre.buffer(r).difference(centre.buffer(r - w))
    if name in ("rectangle", "rounded_rectangle"):
        (x0, y0), (x1, y1) = pts
        return box(x0, y0, x1, y1)
    raise AssertionError(f"a drawing call this test does not know: {name}")


def id_report(game, calls, marks) -> tuple[dict[str, list[str]], list[str], list[str]]:
    """({hex id: the calls whose ink comes within CLEAR of it}, the ids not drawn, the ids drawn
    outside their hex's outline) for the board drawn by `calls`, its texts traced in `marks`."""
    geo = game.geometry
    labels = set(geo.labels)
    ids = {m.text: m.bbox for m in marks if m.kind == "text" and m.text in labels}
    fills = {tuple(geo.outline(h)) for h in geo.labels}
    shapes = []
    for _, _, name, xy, kw in calls:
        if name == "polygon" and kw.get("fill") is not None and not kw.get("outline") and tuple(_points(xy)) in fills:
            continue  # a hex's fill: the ground the id is printed on
        ink = _ink(name, xy, kw)
        if ink is not None and not ink.is_empty:
            shapes.append((ink, f"{name} {kw.get('fill') or kw.get('outline')} from {_points(xy)[0]}"))
    tree = STRtree([s for s, _ in shapes])
    hidden = {}
    for label, bbox in ids.items():
        zone = box(*bbox).buffer(CLEAR)
        near = [shapes[i][1] for i in tree.query(zone) if shapes[i][0].intersection(zone).area > 0.01]
        if near:
            hidden[label] = near
    outside = [h for h, b in ids.items() if not Polygon(geo.outline(h)).contains(box(*b))]
    return hidden, sorted(labels - set(ids)), outside


def _drawn(game):
    with tracing() as marks:
        rec = mapimage._record(game, setup_labels(game))
    return rec.calls, marks


def _check(game):
    calls, marks = _drawn(game)
    hidden, missing, outside = id_report(game, calls, marks)
    assert not hidden, f"{len(hidden)} hex ids hidden, e.g. {dict(list(sorted(hidden.items()))[:5])}"
    assert not outside, f"ids printed across their hex's outline: {outside[:10]}"
    (panel,) = [m.bbox for m in marks if m.kind == "panel"]
    for h in missing:  # only the legend leaves an id out, and only a sea hex's
        assert Polygon(game.geometry.outline(h)).intersects(box(*panel)), f"{h}: no id, and no legend over it"
        assert game.hex_terrain_types[game.hex_terrain[h]].prohibited, h
    return calls, marks


@pytest.mark.parametrize("slug", GAMES)
def test_no_hex_id_is_hidden(slug):
    _check(load_game(ROOT / "sources" / slug))


def test_no_hex_id_is_hidden_on_a_new_game(tmp_path):
    _check(load_game(new_game("demo", tmp_path / "sources")))


def test_the_check_sees_a_line_over_an_id():
    """The check fails where it should: a line planted across one id, and Desert Fox drawn with
    its lines ungapped (as before issue 35's fix), where the dashed track ran through L2616 and
    the escarpment's teeth through L2108."""
    game = load_game(ROOT / "sources" / "bravery-in-the-sand")
    calls, marks = _drawn(game)
    (x0, y0, x1, y1) = next(m.bbox for m in marks if m.text == "0308")
    planted = calls + [(0, 0, "line", [(x0 * SS - 4, y1 * SS), (x1 * SS + 4, y0 * SS)], {"fill": "#000000", "width": SS})]
    assert list(id_report(game, planted, marks)[0]) == ["0308"]
    game = load_game(ROOT / "sources" / "desert-fox-deluxe")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mapimage, "Gapped", lambda d, ids: d)
        hidden, _, _ = id_report(game, *_drawn(game))
    assert {"L2616", "L2108"} <= set(hidden)


def test_a_line_is_gapped_around_a_box_and_kept_whole_elsewhere():
    line = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    assert visible_pieces(line, [(20, 20, 30, 30)]) == [line]  # nowhere near: the very same line
    assert visible_pieces(line, [(4, -1, 6, 1)]) == [[(0.0, 0.0), (4.0, 0.0)],
                                                     [(6.0, 0.0), (10.0, 0.0), (10.0, 10.0)]]
    assert visible_pieces(line, [(9, -1, 11, 1)]) == [[(0.0, 0.0), (9.0, 0.0)], [(10.0, 1.0), (10.0, 10.0)]]
    assert visible_pieces(line, [(-1, -1, 11, 11)]) == []
    assert visible_pieces(line[:2], [(-1, -1, 4, 1), (5, -1, 11, 1)]) == []  # a speck is not drawn
