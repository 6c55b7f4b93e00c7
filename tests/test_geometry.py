"""The one hex geometry: VASSAL's own arithmetic, checked against VASSAL's own results."""
from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from builder.geometry.javagrid import GridParams, NumberingParams, location_name, snap
from tests.conftest import REALDATA, needs_realdata


# The rulebook's ids (rules 3, 9.1, 13.1.2.2 and the To Tripoli hex).
RULEBOOK_IDS = {
    "Tobruk": "0904", "Bardia": "0612", "Halfaya Pass": "0313", "Sollum": "0413", "Bir el Gubi": "0403",
    "Gabr Saleh": "0308", "Bir Sheferzen": "0111", "Sidi Omar": "0211", "Fort Capuzzo": "0412",
    "Sidi Azeiz": "0511", "El Adem": "0604", "Sidi Rezegh": "0605", "Gambut": "0608", "To Tripoli": "0901",
}


def test_worked_example_of_the_format_notes():
    """vassal-formats.md §5.5, values checked there against VASSAL's Java code."""
    g, n = GridParams(64.5, 74.0, 37, 37, False), NumberingParams()
    assert location_name(g, n, 1600, 1200, 307, 410) == "0506"
    assert snap(g, 307, 410) == (295, 407)
    assert location_name(g, n, 1600, 1200, 359, 444) == "0607"
    assert snap(g, 340, 420) == (359, 444)
    assert location_name(g, n, 1600, 1200, 37, 37) == "0101"
    assert location_name(g, n, 1600, 1200, 101, 74) == "0202"


@needs_realdata
def test_real_engine_location_names_of_ragnarok():
    """Positions and names the real VASSAL 3.7.26 engine reported (engine-logs/*.expected.json).

    Ragnarok's hex grid is sideways with descending rows, inside a Zone whose bounding box
    gives the numbering its size: the hardest case of the numbering code.
    """
    expected = json.loads((REALDATA / "engine-logs" / "ragnarok-3.7.expected.json").read_text())
    g = GridParams(97.71978541535786, 112.39999999999895, 21, 24, True)
    n = NumberingParams(h_off=0, v_off=0, v_descend=True)
    zone_w, zone_h = 3081 - 12, 1760 - 34
    checked = 0
    for piece in expected["pieces_after_log"]:
        if piece["map"] == "Main Map" and piece["location"].isdigit():
            x, y = map(int, piece["pos"].split(","))
            assert location_name(g, n, zone_w, zone_h, x, y) == piece["location"], piece
            checked += 1
    assert checked >= 2


@needs_realdata
def test_real_engine_location_names_of_kassala():
    """Every piece the real engine left on Kassala's numbered hex grid (engine-logs)."""
    expected = json.loads((REALDATA / "engine-logs" / "kassala-3.7.expected.json").read_text())
    g = GridParams(227.90000000000052, 265.8999999999995, 51, 55, False)
    n = NumberingParams(h_off=0, v_off=0)
    pieces = [p for p in expected["pieces_after_log"] if p["map"] == "Main Map" and p["location"].isdigit()]
    assert len(pieces) >= 15
    for piece in pieces:
        x, y = map(int, piece["pos"].split(","))
        assert location_name(g, n, 10_000, 10_000, x, y) == piece["location"], piece
        assert snap(g, x, y) == (x, y) or location_name(g, n, 10_000, 10_000, *snap(g, x, y)) == piece["location"]


def test_every_hex_centre_maps_to_its_id_and_back(game):
    geo = game.geometry
    assert len(geo.labels) == 9 * 14
    for label in geo.labels:
        x, y = geo.centre(label)
        assert geo.label_at(x, y) == label
        assert geo.snap(x, y) == (x, y)
        assert geo.snap(x + 7, y - 5) == (x, y)  # a sloppy drop lands on the same hex


def test_the_named_hexes_have_the_rulebook_ids(game):
    by_name = {}
    for p in game.map.places:
        by_name.setdefault(p.name, []).append(p.hex)
    for name, hex_id in RULEBOOK_IDS.items():
        assert by_name[name] == [hex_id], name
        assert game.geometry.label_at(*game.geometry.centre(hex_id)) == hex_id
    assert len(by_name["To Alexandria"]) == 3
    assert len(RULEBOOK_IDS) + 1 == 15  # 13 strategic hexes, To Tripoli, To Alexandria
    assert sum(p.strategic for p in game.map.places) == 13
    assert sum(p.vp for p in game.map.places) == 14  # 13.2: Tobruk 2, the rest 1 -> a 7-7 tie is possible


def test_geography_order_of_the_numbering(game):
    """Rows count from the south, hexes in a row from the west (so the map reads like the real area)."""
    geo = game.geometry
    assert geo.centre("0904")[1] < geo.centre("0604")[1] < geo.centre("0111")[1]  # Tobruk north of El Adem
    assert geo.centre("0901")[0] < geo.centre("0904")[0] < geo.centre("0612")[0]  # west to east
    assert geo.centre("0313")[0] > geo.centre("0413")[0]  # Halfaya south-east of Sollum


def test_neighbours_are_symmetric_and_six_inside(game):
    geo = game.geometry
    for a in geo.labels:
        ns = geo.neighbours(a)
        assert all(a in geo.neighbours(b) for b in ns)
        assert len(ns) <= 6
        assert all(geo.distance(a, b) == 1 for b in ns)
    assert len(geo.neighbours("0505")) == 6


def test_distance_is_the_shortest_neighbour_walk(game):
    geo = game.geometry
    start = "0901"
    steps, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for a in frontier:
            for b in geo.neighbours(a):
                if b not in steps:
                    steps[b] = steps[a] + 1
                    nxt.append(b)
        frontier = nxt
    assert len(steps) == len(geo.labels)
    assert all(geo.distance(start, b) == d for b, d in steps.items())


def test_hexside_is_the_shared_edge(game):
    geo = game.geometry
    side = geo.hexside("0605", "0606")
    (ax, ay), (bx, by) = geo.ideal_centre("0605"), geo.ideal_centre("0606")
    mx, my = (side.p1[0] + side.p2[0]) / 2, (side.p1[1] + side.p2[1]) / 2
    assert math.isclose(mx, (ax + bx) / 2) and math.isclose(my, (ay + by) / 2)
    corners = geo.outline("0605")
    for p in (side.p1, side.p2):
        assert min(math.dist(p, c) for c in corners) < 0.01


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=40, max_value=1380), st.floats(min_value=40, max_value=780))
def test_snapping_lands_on_the_nearest_map_hex(game, x, y):
    geo = game.geometry
    cx, cy = geo.snap(x, y)
    label = geo.label_at(cx, cy)
    if label in geo:
        assert geo.centre(label) == (cx, cy)
        assert math.dist((x, y), (cx, cy)) <= 2 * game.map.grid.dx / 3 + 1.5


def test_float_rounding_is_java_float_arithmetic():
    """javagrid rounds each operation to float without numpy; numpy's float32 is the reference."""
    import random

    import numpy as np

    from builder.geometry.javagrid import _f32, _round_f32

    f = np.float32
    rng = random.Random(7)
    for _ in range(20000):
        a, b = f(rng.uniform(-5000, 5000)), f(rng.uniform(0.1, 300))
        assert _f32(float(a) - float(b)) == float(a - b) and _f32(float(a) * float(b)) == float(a * b)
        assert _f32(float(a) / float(b)) == float(a / b)
        v = rng.choice([rng.uniform(-1e4, 1e4), rng.randint(-999, 999) + 0.5])
        assert _round_f32(v) == int(np.floor(f(v) + f(0.5)))
