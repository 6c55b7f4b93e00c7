"""Western Desert Force's reconstructed map keeps the geography the rulebook relies on.

The map is fitted from real coordinates (geography.yaml -> map-terrain.yaml); these are the
facts the rules' examples state about it (7.11, 7.12, 7.32 Ex, 7.9 Ex, 8.3 Ex 1-3), and the
road zones of 7.12.  Only map files are read, so the tests hold while the rest of the game is
being written.
"""
from __future__ import annotations

from collections import deque
from functools import cache

import pytest
import yaml

import builder.paths
from builder.model import geofit
from builder.model import schema as s
from builder.model.load import load_map

ROOT = builder.paths.REPO / "sources" / "western-desert-force"
TOBRUK, ALEXANDRIA, AXIS_SOURCE = "3408", "6508", "1019"
RULEBOOK_ROAD = ("2306", "3209", "2809", "3309", "3409", "3510", "3609", "3709", "4009", "4110", "3109",
                 "1019", "6508", "1709")


@cache
def _map():
    return load_map(ROOT)


@cache
def _terrain() -> s.MapTerrainFile:
    return s.MapTerrainFile.model_validate(yaml.safe_load((ROOT / "map-terrain.yaml").read_text(encoding="utf-8")))


def _links(feature: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in _terrain().hexside_paths.get(feature, []):
        for a, b in zip(path.hexes, path.hexes[1:]):
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def _steps(links: dict[str, set[str]], a: str, b: str, avoid: set[str] = frozenset()) -> int | None:
    """Fewest hexes entered from a to b along the links (None: not connected)."""
    seen, todo = {a: 0}, deque([a])
    while todo:
        h = todo.popleft()
        for n in links.get(h, ()):
            if n not in seen and n not in avoid:
                seen[n] = seen[h] + 1
                todo.append(n)
    return seen.get(b)


def _sea() -> set[str]:
    return set(_terrain().hexes.get("sea", []))


def test_fit_map_reproduces_the_committed_terrain():
    """map-terrain.yaml is exactly what `hexforge fit-map` derives from geography.yaml."""
    data, errors = geofit.reconstruct(_map(), geofit.load_geography(ROOT))
    assert geofit.dump(data) == (ROOT / "map-terrain.yaml").read_text(encoding="utf-8")
    assert max(errors.values()) < 1.5  # every anchor within 1.5 hexes of the affine fit


def test_named_places_sit_where_the_fit_puts_them():
    """A place the rulebook does not locate is in the hex its real coordinates fall in."""
    m, geo = _map(), geofit.load_geography(ROOT)
    given = {p.name: p.hex for p in m.map.places}
    taken = set(given.values())
    for name, hex_id in geofit.landmark_hexes(m, geofit.fit(m, geo)[0], geo).items():
        assert given.get(name) == hex_id or (name not in given and hex_id in taken), name
    for name in ("Benghazi", "Derna", "Agedabia", "Mersa Matruh", "Sidi Barrani", "El Alamein", "Siwa"):
        assert name in given
    assert all(given[n] == h for n, h in {"Mechili": "2710", "Giarabub": "3819"}.items())  # 8.3 Ex 1, 3


def test_terrain_ids_are_the_agreed_ones():
    terrain = s.TerrainFile.model_validate(yaml.safe_load((ROOT / "terrain.yaml").read_text(encoding="utf-8")))
    hexes = [t.id for t in terrain.hex_terrain]
    sides = [f.id for f in terrain.hexside_features]
    assert hexes == ["clear", "sea", "city", "fortress", "town", "rough", "salt-marsh", "qattara", "mountain"]
    assert sides == ["road", "track", "escarpment", "ridge", "river"]
    assert set(_terrain().hexes) <= set(hexes)
    assert set(_terrain().hexside_paths) | set(_terrain().hexside_runs) <= set(sides)
    places = {p.name: p.terrain for p in _map().map.places}
    assert places["Alexandria"] == places["Benghazi"] == "city"
    assert places["Tobruk"] == places["Bardia"] == "fortress"  # 16.0
    assert {"qattara", "salt-marsh", "rough", "mountain"} <= set(_terrain().hexes)
    assert {"escarpment", "ridge", "river"} <= set(_terrain().hexside_runs)


def test_rulebook_hexes_are_land_on_the_road_and_tracks():
    road, track = _links("road"), _links("track")
    named = set(RULEBOOK_ROAD) | {"2710", "3819", "3617", "3117", "1908", TOBRUK}
    assert not named & _sea()
    assert not {p.hex for p in _map().map.places} & _sea()
    for h in RULEBOOK_ROAD:
        assert h in road, h
    for h in ("2710", "3819"):  # 8.3 Ex 1, 3
        assert h in track, h


def test_road_paths_of_the_examples():
    road = _links("road")
    assert _steps(road, "4110", ALEXANDRIA) is not None  # 8.3 Ex 1: Sollum's road to Alexandria
    assert _steps(road, "3709", ALEXANDRIA) is not None  # 7.32 Ex
    assert _steps(road, "1709", "3109") is not None  # 8.3 Ex 3: 1709's road runs to Gazala
    assert _steps(road, AXIS_SOURCE, ALEXANDRIA) is not None  # one road the length of the coast
    # 8.3 Ex 3: with Tobruk's zone of control on 3309 and 3409, no road leads past Tobruk
    zoc = set(_map().geometry.neighbours(TOBRUK))
    assert {"3309", "3409"} <= zoc
    assert zoc & set(road) == {"3309", "3409"}  # the road hexes its zone of control reaches
    assert _steps(road, "3109", "3609", avoid=zoc) is None
    assert {"3409", "3609"} <= road["3510"]  # 7.12: road hexes 3409, 3510 and 3609


def test_track_paths_of_the_examples():
    track = _links("track")
    zoc = set(_map().geometry.neighbours(TOBRUK))
    assert _steps(track, "3109", "3609", avoid=zoc) == 7  # 8.3 Ex 3: "the eight track hexes" (both ends)
    assert _steps(track, "1908", "2710") == 8  # 8.3 Ex 3: eight track hexes (four MP) from Barce
    assert _steps(track, "2710", "3609", avoid=zoc) == 10  # 8.3 Ex 3: then ten track hexes to 3609
    # 8.3 Ex 1: "10 track hexes" from 3819 to road hex 4110 lie between the two; 3819 is 11 hexes
    # from 4110 on the grid 7.9 Ex 1 and 7.12 require, so the track is as straight as it can be
    assert _steps(track, "4110", "3819") == 11 == _map().geometry.distance("4110", "3819")


def test_supply_distances_of_the_examples():
    geo = _map().geometry
    routes = set(_links("road")) | set(_links("track"))
    # 8.3 Ex 1: 3617 is three MP (three clear hexes) from track hex 3819, and no route is nearer
    assert geo.distance("3617", "3819") == 3
    assert min(geo.distance("3617", h) for h in routes) == 3
    kinds = {h: k for k, hexes in _terrain().hexes.items() for h in hexes}
    between = [h for h in geo.labels if geo.distance("3617", h) + geo.distance(h, "3819") == 3]
    assert all(kinds.get(h, "clear") == "clear" for h in between)
    # 8.3 Ex 2: 3117 is more than four MP from any road, track or supply source
    assert min(geo.distance("3117", h) for h in routes | {AXIS_SOURCE, ALEXANDRIA}) > 4


def test_tobruk_is_a_port_beside_the_road():
    geo = _map().geometry
    assert {"3309", "3409"} <= set(geo.neighbours(TOBRUK))  # 8.3 Ex 3
    assert set(geo.neighbours(TOBRUK)) & _sea()  # sea transfer port (9.7)
    cliffs = {side for run in _terrain().hexside_runs.get("escarpment", []) for side in run.hexsides}
    assert not {f"{TOBRUK}/3309", f"{TOBRUK}/3409"} & cliffs  # its zone of control reaches them (9.3)


# ---- road zones (7.12) --------------------------------------------------------------------
@cache
def _zones() -> dict[str, dict[str, list[str]]]:
    table = s.TableFile.model_validate(yaml.safe_load((ROOT / "tables" / "road-zones.yaml").read_text(encoding="utf-8")))
    assert table.rule == "7.12"
    return table.data


@pytest.mark.parametrize("side", ["axis", "allied"])
def test_every_road_hex_has_one_zone_per_side(side):
    zones = _zones()[side]
    assert list(zones) == list("ABCDEF")
    listed = [h for hexes in zones.values() for h in hexes]
    assert len(listed) == len(set(listed))  # no hex in two zones
    assert set(listed) == set(_links("road"))  # every road hex, and only road hexes
    road = _links("road")
    for letter, hexes in zones.items():  # each zone is one stretch of road
        inside = {h: road[h] & set(hexes) for h in hexes}
        assert _steps(inside, hexes[0], hexes[-1]) is not None, letter
        assert all(_steps(inside, hexes[0], h) is not None for h in hexes), letter


@pytest.mark.parametrize("side, source", [("axis", AXIS_SOURCE), ("allied", ALEXANDRIA)])
def test_zone_letters_run_away_from_the_supply_source(side, source):
    """Zone A holds the side's supply source; each later letter lies further along the road."""
    road = _links("road")
    zones = _zones()[side]
    assert source in zones["A"]
    nearest = [min(_steps(road, source, h) for h in zones[z]) for z in "ABCDEF"]
    assert nearest == sorted(nearest)


def test_zone_facts_of_the_rulebook():
    axis, allied = _zones()["axis"], _zones()["allied"]
    via_balbia = next(p.hexes for p in _terrain().hexside_paths["road"] if p.name == "Via Balbia")
    i, j = via_balbia.index("2306"), via_balbia.index("3209")
    assert set(axis["C"]) == set(via_balbia[i:j + 1])  # 7.12: Axis C, 2306 to 3209
    i, j = via_balbia.index("2809"), via_balbia.index("4009")
    assert set(via_balbia[i:j + 1]) <= set(allied["C"])  # 7.12: Allied C, 4009 to 2809
    assert {"3409", "3510", "3609", "3109", "3709"} <= set(allied["C"])  # 7.12, 7.32 Ex
    assert "4110" in allied["B"]  # 7.9 Ex 1
    assert allied["E"] and axis["B"]  # 6.2 Ex
    assert "3609" in axis["D"]  # choice, digest 11 #2: 7.12's range over 7.9 Ex 2
