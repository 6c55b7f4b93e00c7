"""Desert Fox Deluxe: the six maps (A, T, L, S, C, W) on one board say what the rulebook says.

Rule numbers are the rulebook's (../shared/seeds/004_e25a106a192fc80d.txt); "digest" is
../shared/docs/rules/seed_004_desert_fox.md.  The hex ids of Maps A, T, L and S below are every
id the text gives on those maps (digest 2.1, 4.2; Maps C and W: test_desert_fox_sources.py):
each must be a hex of its map, on land, and a named one must carry its name.  The edge
identities come from the text (El Agheila is C0701 in 24.0, 26.0 and 27.0 and S0734 in 25.0,
30.0 and 31.0, digest 2.1), the 23 road hexes from the Example of Play.
"""
from __future__ import annotations

import math
import re

import pytest

from builder.geometry import javagrid, roundtrip
from builder.model import SourceError, load_game
from builder.paths import REPO as ROOT
from tests.conftest import copy_sources, loaded_game

GAME = ROOT / "sources" / "desert-fox-deluxe"

# digest 4.2: every hex id the text gives on Maps A, T, L and S, with the place it names
NAMED = {
    "A6201": "Algiers",                   # 20.2.5, 22.7
    "A6111": "Torch East limit",          # 20.2.6: "on Map A from A6111 east"
    "T6017": "Tunis",                     # 20.2.6, 29.3
    "L2817": "Tripoli",                   # 25.3, 30.1, Example of Play
    "L2909": "Tunisia",                   # 30.1: the Italian 'Tunisia' unit; 30.3
    "L2624": "Homs",                      # Example of Play
    "L2429": "Misurata",                  # Example of Play
    "L1633": "Beurat",                    # Example of Play, 31.1
    "S1420": "Sirte",                     # Example of Play
    "S1410": "Sirte",                     # 31.1 (the text's other id for Sirte)
    "S0931": "Marble Arch",               # 30.1
    "S0932": "Ras es Ali",                # Example of Play
    "S0413": "Hon-Zella link",            # 16.2.1: the connection hex between the Hon and Zella boxes
}
UNNAMED = ["S0734", "S1030", "S1130", "S1325"]  # El Agheila (25.1, 30.x, 31.x); Example of Play


def _game():
    return loaded_game(GAME.name)


# ---- every id of the text on its place -------------------------------------------------------
def test_every_hex_id_of_the_text_is_a_hex_of_its_map_on_land():
    g = _game()
    geo = g.geometry
    for hex_id in [*NAMED, *UNNAMED]:
        assert hex_id in geo, hex_id
        label = geo.canonical(hex_id)
        assert g.hex_terrain[label] != "sea", hex_id
        lattice = geo.lattice_view  # where the maps lie in the game's one lattice (the board packs them)
        x, y = lattice.centre(hex_id)
        section = lattice.section_at(x, y)
        assert section is not None and hex_id[0] in {s.prefix for s in lattice.sections if s.contains(x, y)}, hex_id
        assert geo.label_at(*geo.centre(hex_id)) == label, hex_id  # the board names it by its label
    for hex_id, name in NAMED.items():
        assert g.places[hex_id].name.startswith(name), hex_id
    assert {"Algiers", "Tunis", "Tripoli"} <= {p.name for p in g.map.places if p.terrain == "city"}


def test_ids_are_map_letter_row_column_on_six_maps_from_west_to_east():
    g = _game()
    geo = g.geometry.lattice_view  # the maps as the coast lays them out (the board packs them: see below)
    assert sorted(s.prefix for s in g.map.sections) == sorted("ATLSCW")  # 2.2: six maps
    west = {p: min(geo.centre(h)[0] for h in geo.labels if h[0] == p) for p in "ATLSCW"}
    assert west["A"] < west["T"] < west["L"] < west["S"] < west["C"] < west["W"]  # 2.1: A, T, L, S, C, W
    for label in geo.labels:
        assert re.fullmatch(r"[ATLSCW](0[1-9]|[1-6][0-9])(0[1-9]|[12][0-9]|3[0-4])", label), label
    y = lambda h: geo.centre(h)[1]  # noqa: E731
    # rows are global and count from the south (digest 2.1): one row, one screen line, on every map
    assert y("L2817") == y("C2821") and y("L2624") == y("W2604")
    assert y("S1420") == y("C1407") and y("A6201") == y("T6217")
    assert y("S0413") > y("L1633") > y("L2817") > y("T6017") > y("A6201")  # Algiers two rows above Tunis
    x = lambda h: geo.centre(h)[0]  # noqa: E731
    assert x("A6201") < x("A6111") < x("T6017") < x("L2909") < x("L2817") < x("L2624") < x("L2429")
    assert x("L1633") < x("S1420") < x("S0931") < x("S0932") < x("S0734")


def test_map_sizes():
    geo = _game().geometry
    count = lambda p: sum(1 for h in geo.labels if h[0] == p)  # noqa: E731
    # S and L: 8.5 x 22 in, 15 rows of 34; T 38 rows of 26; A 19 rows of 25; C 30 x 33 (C34 = W01)
    assert count("L") == 15 * 34 and count("T") == 38 * 26 and count("C") == 30 * 33 and count("W") == 30 * 34
    assert count("S") == 15 * 34 - 15 and count("A") == 19 * 25 - 19  # S34 = C01, A25 = T01: shown once
    rows = lambda p: {int(h[1:3]) for h in geo.labels if h[0] == p}  # noqa: E731
    assert rows("S") == set(range(1, 16)) and rows("L") == set(range(16, 31))
    assert rows("T") == set(range(31, 69)) and rows("A") == set(range(50, 69))


# ---- edge identities -------------------------------------------------------------------------
def test_s34_is_c01_and_a25_is_t01():
    geo = _game().geometry
    assert geo.canonical("S0734") == "C0701"  # El Agheila: C0701 in 24/26/27, S0734 in 25/30/31
    assert geo.centre("S0734") == geo.centre("C0701")
    for row in range(1, 16):  # digest 2.1: S34 = C01, the whole edge
        s, c = f"S{row:02d}34", f"C{row:02d}01"
        assert s in geo and s not in geo.labels and geo.canonical(s) == c
        assert f"S{row:02d}35" not in geo  # 30.0: "on or east of Sxx34" - Sxx34 is Map S's east edge
        assert geo.adjacent(f"S{row:02d}33", c)
    for row in range(50, 69):
        assert geo.canonical(f"A{row}25") == f"T{row}01"
    assert set(geo.aliases.values()) == {f"C{r:02d}01" for r in range(1, 16)} | {f"T{r}01" for r in range(50, 69)}
    # the ids that join maps along a row: L16 is north of S15, T31 north of L30
    assert geo.adjacent("L1619", "S1501") or geo.adjacent("L1618", "S1501")
    assert geo.adjacent("T3118", "L3001") or geo.adjacent("T3119", "L3001")
    # a hex named by either id is one hex for every rule: distance 0, the same neighbours
    assert geo.distance("S0734", "C0701") == 0 and geo.neighbours("S0734") == geo.neighbours("C0701")


def test_vassal_sends_an_alias_to_its_hex_and_names_it_by_the_label():
    """In the lattice (maps side by side) VASSAL's Zone.getLocation of the later map's zone sends
    an alias to its hex; on the packed board Maps S and A are drawn apart from C and T, cut at
    the shared column, so the board shows the hex once, named by its label, and the alias is
    the sources' and the rules' (set-ups and the audit read S0734 as C0701)."""
    geo = _game().geometry
    lattice = geo.lattice_view
    for alias, label in geo.aliases.items():
        p = lattice.location_point(alias)
        assert p == lattice.centre(label) and lattice.label_at(*p) == label
        assert geo.label_at(*geo.centre(alias)) == label and geo.centre(alias) == geo.centre(label)


def test_the_log_reader_reads_the_six_zones_as_the_builder_names_them():
    from builder.vassal.buildfile import MAP_ID, build_xml, plan
    from validators.vlog.modulegrid import read_module_grids
    g = _game()
    xml = build_xml(plan(g, [], []))
    m = read_module_grids(xml, board_sizes={g.map.board.name: (g.map.board.width, g.map.board.height)})[MAP_ID]
    assert [h for h in g.geometry.labels if m.location(*g.geometry.centre(h)) != h] == []
    assert m.location(*g.geometry.centre("S0734")) == "C0701"


# ---- round trip ------------------------------------------------------------------------------
def test_every_hex_id_round_trips_through_the_zones():
    assert roundtrip.misses(_game().geometry) == []


def test_every_point_of_the_board_round_trips_as_the_engine_checks_it():
    """The real engine's HexIds check (../engine): every hex centre of the board outside a track
    box, the empty board between the maps included (the board's own grid), leads back to itself.
    Names of three-digit columns ("66100") would not: VASSAL reads them back as 661, 00."""
    g = _game()
    geo, gr = g.geometry, g.geometry.grid
    w, h = g.map.board.width, g.map.board.height
    boxes = [g.track_box_rect(t.id, b) for t in g.map.tracks for b in t.boxes]
    checked, bad = 0, []
    for nx in range(-1, int(h / gr.dx) + 2):
        for ny in range(-2, int(w / gr.dy) + 2):
            x, y = javagrid.raw_centre(gr, nx, ny)
            if not (0 <= x < w and 0 <= y < h) or any(bx <= x < bx + bw and by <= y < by + bh for bx, by, bw, bh in boxes):
                continue
            checked += 1
            name = geo.label_at(x, y)
            p = geo.location_point(name)
            if geo.label_at(*p) != name or geo.snap(*p) != (x, y):
                bad.append(name)
    assert checked > len(geo.labels) and bad == []


# ---- what the Example of Play and the scenarios measure --------------------------------------
def _road(g) -> list[str]:
    return next(p.hexes for p in g.map_terrain.hexside_paths["road"] if p.name == "Via Balbia (Tripolitania)")


def test_beurat_to_el_agheila_is_23_hexes_of_primary_road():
    g = _game()
    geo, road = g.geometry, _road(g)
    for a, b in zip(road, road[1:]):
        assert geo.adjacent(a, b), (a, b)
    leg = road[road.index("L1633"):]
    # Example of Play: Kasta and 3 Aufkl, Beurat (L1633) to El Agheila (C0701), 1 MP a primary road hex, 23 MP
    assert leg[-1] == "C0701" and len(leg) - 1 == 23
    # the road hexes the Example of Play moves along: Sirte, S1325 and S1130 (road march), Marble Arch
    for h in ("S1420", "S1325", "S1130", "S0931"):
        assert h in leg, h
    assert geo.distance("L1633", "C0701") == 23  # the road is straight: no shorter way across the desert
    assert road.index("L2817") < road.index("L2624") < road.index("L2429") < road.index("L1633")


def test_one_primary_road_from_algiers_to_the_nile():
    """22.7: Algiers on the primary road; 25.3/30.3/31.0: Tripoli, Tunis and the Tunisian
    frontier L2909 on it; 27.3: the primary road C0701 - W2134."""
    g = _game()
    geo = g.geometry
    links: dict[str, set[str]] = {}
    for p in g.map_terrain.hexside_paths["road"]:
        for a, b in zip(p.hexes, p.hexes[1:]):
            links.setdefault(geo.canonical(a), set()).add(geo.canonical(b))
            links.setdefault(geo.canonical(b), set()).add(geo.canonical(a))
    seen, todo = {"A6201"}, ["A6201"]
    while todo:
        for n in links.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    for h in ("T6017", "L2909", "L2817", "C0701", "C2331", "W2232", "W2134"):
        assert h in seen, h


def test_set_up_distances_the_cards_use():
    geo = _game().geometry
    # 30.1: units within 3 hexes of L2817 and of S0931 are set up on land hexes there
    g = _game()
    for centre in ("L2817", "S0931"):
        near = [h for h in geo.labels if geo.distance(h, centre) <= 3 and g.hex_terrain[h] != "sea"]
        assert len(near) >= 12, centre
    # 30.0: the Allies enter on Map S's east edge, which is Map C's west edge
    assert all(geo.canonical(f"S{r:02d}34").startswith("C") for r in range(1, 16))


# ---- terrain ---------------------------------------------------------------------------------
def test_the_new_maps_look_like_north_africa():
    g = _game()
    t = g.hex_terrain
    by_map = lambda p, kind: [h for h in g.geometry.labels if h[0] == p and t[h] == kind]  # noqa: E731
    for p in "ATLS":
        assert by_map(p, "sea"), p  # every map has its shore
    assert by_map("T", "mountain") and by_map("A", "mountain")  # the Dorsale, Kabylia and the Aures
    assert by_map("T", "marsh") and by_map("T", "sand-sea")  # the chotts, the Grand Erg Oriental
    assert by_map("L", "rough") and by_map("L", "marsh")  # Jebel Nefusa, the Tawurgha marsh
    assert by_map("T", "clear") and by_map("A", "clear")  # the temperate north (6.3)
    runs = g.map_terrain.hexside_runs
    assert any(r.name.startswith("Wadi Zigzaou") for r in runs["wadi"])  # the Mareth line
    assert any(r.name == "Jebel Nefusa escarpment" for r in runs["escarpment"])
    assert any(p.name.startswith("Algiers") for p in g.map_terrain.hexside_paths["railroad"])  # digest 4.1


def test_no_sea_hex_is_cut_off_from_the_sea():
    """The coast is one line: a sea hex lies in the open sea, never inland behind the road."""
    g = _game()
    geo = g.geometry
    sea = {h for h, kind in g.hex_terrain.items() if kind == "sea"}
    todo = [h for h in sea if len(geo.neighbours(h)) < 6]  # at a map's edge
    seen = set(todo)
    while todo:
        for n in geo.neighbours(todo.pop()):
            if n in sea and n not in seen:
                seen.add(n)
                todo.append(n)
    assert sea - seen == set()


def test_reconstructed_maps_say_so():
    g = _game()
    for s in g.map.sections:
        if s.prefix in "ATLS":
            assert s.provenance == "reconstructed" and s.reason, s.prefix
    for t in ("fna", "oasis"):
        assert g.tracks[t].provenance == "reconstructed" and g.tracks[t].reason, t
    assert {"Orleansville", "Oran", "Casablanca"} <= set(g.tracks["fna"].boxes) and len(g.tracks["fna"].boxes) == 7  # 22.7


def test_tracks_and_boxes_lie_off_the_maps():
    """Map D's tracks fill the empty board: no box covers a hex of any map."""
    g = _game()
    geo = g.geometry
    rects = [g.track_box_rect(t.id, b) for t in g.map.tracks for b in t.boxes]
    for h in geo.labels:
        xs, ys = zip(*geo.outline(h))
        for x, y, w, hh in rects:
            assert max(xs) <= x or min(xs) >= x + w or max(ys) <= y or min(ys) >= y + hh, h


def test_railroads_of_digest_4_1():
    """The Egyptian railroad built W2232-W2118 (the railhead of 24.0/26.0 at Mersa Matruh) and the
    rail line of Algeria and Tunisia, each one chain of adjacent hexes."""
    g = _game()
    rails = {p.name: p.hexes for p in g.map_terrain.hexside_paths["railroad"]}
    assert rails["Egyptian railroad"][0] == "W2232" and rails["Egyptian railroad"][-1] == "W2118"
    line = rails["Algiers - Constantine - Tunis railway"]
    assert line[0] == "A6201" and line[-1] == "T6017"
    for hexes in rails.values():
        assert all(g.geometry.adjacent(a, b) for a, b in zip(hexes, hexes[1:]))


def test_fit_map_goes_through_a_conic_projection():
    """Across 27 degrees of longitude the printed rows bend like parallels: the conic projection
    of geography.yaml fits the printed ids better than an affine fit of lon/lat, and the
    committed terrain is what `fit-map` writes."""
    from builder.model import geofit
    g = _game()
    geo = geofit.load_geography(GAME)
    assert geo.projection is not None
    _, conic = geofit.fit(g, geo)
    _, flat = geofit.fit(g, geo.model_copy(update={"projection": None}))
    assert max(conic.values()) < 3 < max(flat.values())
    # the projection itself: at one latitude a place far from the central meridian lies higher
    tunis, algiers = geo.projection((10.18, 36.8)), geo.projection((3.06, 36.8))
    assert algiers[1] > tunis[1] and algiers[0] < tunis[0]
    data, _ = geofit.reconstruct(g, geo)
    assert geofit.dump(data) == (GAME / "map-terrain.yaml").read_text(encoding="utf-8")


def test_a_set_up_check_sees_both_ids_of_a_hex_as_one_hex(tmp_path):
    """scenario_checks: an Axis unit at S0734 and an Allied unit at C0701 stand in one hex (units
    of both sides, refused unless the card lists the hex as contested, by either id)."""
    g = _game()
    root = copy_sources(tmp_path, GAME.name)
    sc = g.scenarios["trail-of-the-fox"]
    used = {x.unit for x in sc.units} | {u for r in sc.reinforcements for u in r.units} | \
           {u for w in sc.withdrawals for u in w.units}
    free = lambda side: next(u.id for u in g.units if u.id not in used and g.side_of_unit(u).id == side  # noqa: E731
                             and u.type not in ("base", "msu", "dump", "air", "fleet"))
    path = root / "scenarios" / "trail-of-the-fox.yaml"
    text = path.read_text(encoding="utf-8")
    planted = f"units:\n  - {{unit: {free('axis')}, hex: S0734}}\n  - {{unit: {free('allied')}, hex: C0701}}\n"
    path.write_text(text.replace("units:\n", planted, 1), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        load_game(root)
    assert any("C0701 holds units of both sides" in p.message for p in err.value.problems)
    path.write_text(text.replace("units:\n", "contested_hexes: [S0734]\n" + planted, 1), encoding="utf-8")
    load_game(root)  # the card says both sides are there: no problem


# ---- the packed board (issue 35) -------------------------------------------------------------
def test_the_board_packs_the_six_maps_in_half_the_staircase():
    """The staircase of the coast (8,000 x 3,045 px, mostly empty) is packed: each map moved by
    whole hexes (map.yaml `at`), none over another, the board at most half that area."""
    g = _game()
    geo, b = g.geometry, g.map.board
    assert b.width * b.height <= 8000 * 3045 / 2
    for h in geo.labels:
        xs, ys = zip(*geo.outline(h))
        assert 0 <= min(xs) and max(xs) <= b.width and 0 <= min(ys) and max(ys) <= b.height, h
    assert len({geo.centre(h) for h in geo.labels}) == len(geo.labels)  # one lattice: no hex drawn over another


def test_the_maps_drawn_apart_are_still_neighbours_where_the_coast_joins_them():
    """Moving a map on the board changes no neighbour and no distance: the rules count in the
    lattice (L16 north of S15, T31 north of L30, S34 = C01, A25 = T01, C33 beside W01)."""
    geo = _game().geometry
    lattice = geo.lattice_view
    assert lattice is not geo
    seams = [(a, b) for a in geo.labels for b in geo.neighbours(a) if a[0] != b[0]]
    assert {(a[0], b[0]) for a, b in seams} >= {("L", "S"), ("T", "L"), ("S", "C"), ("A", "T"), ("C", "W")}
    apart = [(a, b) for a, b in seams if not geo.joined(a, b)]
    assert apart and all(math.dist(geo.centre(a), geo.centre(b)) > 3 * geo.grid.dy for a, b in apart)
    for a, b in seams:
        assert b in lattice.neighbours(a) and math.dist(lattice.centre(a), lattice.centre(b)) < 2 * geo.grid.dy
    assert geo.distance("L2817", "C2331") == lattice.distance("L2817", "C2331")
    assert geo.distance("A6201", "W2232") == lattice.distance("A6201", "W2232")


def test_a_map_moved_off_the_lattice_or_left_uncut_is_refused(tmp_path):
    root = copy_sources(tmp_path, GAME.name)
    path = root / "map.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("at: [1751, 65]", "at: [1776, 65]"), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        load_game(root)
    assert any("moves map section S by (-1175, -2262) px: not a whole number of hexes" in p.message
               for p in err.value.problems)
    path.write_text(text.replace("at: [1751, 65], trim: [0, 20, 37, 67]", "at: [1751, 65], trim: [0, 20, 0, 67]"),
                    encoding="utf-8")
    with pytest.raises(SourceError) as err:
        load_game(root)
    (problem,) = err.value.problems
    assert problem.message.startswith("map section S is drawn with 15 hex points where none of its hexes is: S0134, ")
    assert "trim" in problem.hint
