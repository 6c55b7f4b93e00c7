"""Western Desert Force: the order of battle, markers and campaign set-up say what the rules say.

Rule numbers are the rulebook's (../shared/seeds/001_8688065313218c02.txt).  Most checks read
units.yaml, markers.yaml and scenarios/campaign.yaml through their schemas alone, so that they
test this data even while other parts of the game's sources are being written; one test loads
the whole game with every cross-file check.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

from builder.model import load_game
from builder.model import schema as s
from builder.model.load import SourceError, load_map
from builder.model.yamlsource import load_located
from builder.paths import REPO as ROOT

GAME = ROOT / "sources" / "western-desert-force"
ALLIED_ENTRY, AXIS_ENTRY = "6508", "1019"  # 7.7
STACK_LIMIT = 4  # 9.2


def _read(rel: str, model):
    return model.model_validate(load_located(GAME / rel, rel).data)


@pytest.fixture(scope="module")
def units() -> s.UnitsFile:
    return _read("units.yaml", s.UnitsFile)


@pytest.fixture(scope="module")
def markers() -> s.MarkersFile:
    return _read("markers.yaml", s.MarkersFile)


@pytest.fixture(scope="module")
def campaign() -> s.ScenarioFile:
    return _read("scenarios/campaign.yaml", s.ScenarioFile)


@pytest.fixture(scope="module")
def side_of(units) -> dict[str, str]:
    """Unit or leader id -> side, through the nationalities of game.yaml."""
    nat_side = {n["id"]: n["side"] for n in load_located(GAME / "game.yaml", "game.yaml").data["nationalities"]}
    formation_nat = {f.id: f.nationality for f in units.formations}
    out = {u.id: nat_side[formation_nat[u.formation]] for u in units.units}
    out.update({ld.id: nat_side[ld.nationality] for ld in units.leaders})
    return out


def _formation(units, fid: str) -> s.Formation:
    return next(f for f in units.formations if f.id == fid)


def _members(units, fid: str) -> list[s.Unit]:
    return [u for u in units.units if u.formation == fid]


def _stacking_points(units, unit: s.Unit) -> int:
    """9.2: an Italian division is 2 points, every other combat unit 1 (only XX pieces are divisions)."""
    italian = _formation(units, unit.formation).nationality == "italian"
    return 2 if italian and unit.size == "XX" else 1


# ---- the whole game ------------------------------------------------------------------------
def test_the_game_loads_with_every_cross_file_check():
    try:
        game = load_game(GAME)
    except SourceError as exc:
        pytest.fail("\n".join(map(str, exc.problems)))
    assert {u.id for u in game.units} >= {"21pz-5pz", "1sa-1"}
    assert set(game.scenarios) == {"campaign"}


# ---- units.yaml ------------------------------------------------------------------------------
def test_unit_types_are_the_four_the_rules_tell_apart(units):
    assert {(t.id, t.symbol) for t in units.unit_types} == {
        ("armor", "armor"), ("motorized", "motorized infantry"), ("recon", "recon"), ("infantry", "infantry")}
    assert units.faces.full.left == "{cs}" and units.faces.reduced.left == "{cs_reduced}"


def test_21st_panzer_division_has_five_units(units):  # 3.0
    members = _members(units, "21PZ")
    assert len(members) == 5
    assert _formation(units, "21PZ").division and _formation(units, "21PZ").nationality == "german"


def test_1st_south_african_division_is_three_full_strength_two_step_units_arriving_turn_6(units, campaign):  # 7.8 Ex
    members = _members(units, "1SA")
    assert len(members) == 3
    assert all(u.steps == 2 and u.cs_reduced is not None for u in members)
    assert _formation(units, "1SA").nationality == "commonwealth"
    arrivals = {uid: r.turn for r in campaign.reinforcements for uid in r.units}
    assert {arrivals[u.id] for u in members} == {6}


def test_british_armour_and_motor_brigades_show_no_parent_division(units):  # 10.51
    formations = {f.id: f for f in units.formations}
    brigades = [u for u in units.units if u.type in ("armor", "motorized") and u.size == "X"
                and formations[u.formation].nationality == "british"]
    assert len(brigades) >= 10
    assert all(not formations[u.formation].division for u in brigades)
    # the 7th Armoured Division of Compass, two armoured brigades and the support group, is the
    # "British armored division" stack of CS 12 of 10.13 Ex
    compass = {u.id: u for u in brigades if u.id in ("7a-4arm", "7a-7arm", "7a-7sg")}
    assert sorted(u.type for u in compass.values()) == ["armor", "armor", "motorized"]
    assert sum(u.cs for u in compass.values()) == 12


def test_commonwealth_and_other_allied_units_are_not_british(units):  # 10.51
    nats = {f.id: f.nationality for f in units.formations}
    for prefix, nat in (("4IND", "commonwealth"), ("6AUS", "commonwealth"), ("2NZ", "commonwealth"),
                        ("2SA", "commonwealth"), ("OTHER ALLIED", "other-allied")):
        assert nats[prefix] == nat


def test_italian_infantry_divisions_are_single_xx_pieces(units):  # 9.2, 10.5
    italian_divisions = [f for f in units.formations if f.nationality == "italian" and f.division]
    single = [f for f in italian_divisions if len(_members(units, f.id)) == 1]
    assert len(single) >= 15
    assert all(_members(units, f.id)[0].size == "XX" for f in single)
    # some Italian divisions have several pieces, but never more than three (10.5)
    assert {len(_members(units, f.id)) for f in italian_divisions} <= {1, 2, 3}


def test_every_unit_has_the_values_its_faces_print(units):
    names = Counter(u.name for u in units.units)
    assert [n for n, k in names.items() if k > 1] == []
    for u in units.units:
        assert u.cs is not None and u.cs >= 1 and u.ma >= 1 and u.size
        assert (u.cs_reduced is not None) == (u.steps == 2), u.id
        if u.steps == 2:
            assert 1 <= u.cs_reduced < u.cs, u.id
        assert u.provenance == "reconstructed" and u.reason, u.id


def test_leaders(units):  # 13.1, 13.7, 8.3 Ex 2
    leaders = {ld.id: ld for ld in units.leaders}
    assert [f.name for f in leaders["oconnor"].faces] == ["O'Connor", "Ritchie"]
    assert [f.name for f in leaders["montgomery"].faces] == ["Montgomery", "Lumsden"]
    assert leaders["rommel"].faces[0].name == "Rommel" and leaders["rommel"].faces[0].range == 6
    assert len(leaders["rommel"].faces) == 2
    assert Counter(ld.nationality for ld in units.leaders) == {"british": 2, "german": 1, "italian": 1}


# ---- the piece count -------------------------------------------------------------------------
def test_the_game_has_140_pieces(units, markers, side_of):  # 2.0
    marker_pieces = sum(m.count for m in markers.markers)
    assert (len(units.units), len(units.leaders), marker_pieces) == (110, 4, 26)
    assert len(units.units) + len(units.leaders) + marker_pieces == 140
    sides = Counter(side_of[u.id] for u in units.units)
    assert sides == {"allied": 64, "axis": 46}


def test_markers_named_by_the_rules(markers):
    by_id = {m.id: m for m in markers.markers}
    assert set(by_id) == {"depot-allied", "depot-axis", "ap-allied", "ap-axis", "asp", "game-turn", "ip",
                          "fortress-tobruk", "fortress-bardia", "supply-level", "naval-support"}
    assert by_id["depot-allied"].faces[1].text.endswith("MOVED")       # 7.12
    assert by_id["ap-axis"].faces[1].text == "MAJOR OFFENSIVE"          # 7.9
    assert [f.side for f in by_id["asp"].faces] == ["axis", "allied"]  # 6.1
    assert [f.text for f in by_id["ip"].faces] == ["IP-1", "IP-2"]     # 12.0
    assert by_id["fortress-bardia"].faces[1].text == "BARDIA DESTROYED"  # 16.1


# ---- scenarios/campaign.yaml -----------------------------------------------------------------
def test_every_unit_and_leader_is_set_up_or_scheduled_exactly_once(units, campaign):
    placed = Counter(u.unit for u in campaign.units)
    placed.update(uid for r in campaign.reinforcements for uid in r.units)
    everyone = {u.id for u in units.units} | {ld.id for ld in units.leaders}
    assert set(placed) == everyone
    assert [uid for uid, k in placed.items() if k != 1] == []


def test_reinforcements_enter_at_their_sides_supply_source(campaign, side_of):  # 7.7
    for r in campaign.reinforcements:
        sides = {side_of[uid] for uid in r.units}
        assert len(sides) == 1
        assert r.hex == (ALLIED_ENTRY if sides == {"allied"} else AXIS_ENTRY)
        assert 1 < r.turn <= 23


def test_leader_schedule(campaign):  # 13.7
    arrivals = {uid: r.turn for r in campaign.reinforcements for uid in r.units}
    assert arrivals["montgomery"] == 21 and arrivals["rommel"] == 3
    assert [(w.turn, w.units, w.rule) for w in campaign.withdrawals] == [(21, ["oconnor"], "13.7")]
    on_map = {u.unit for u in campaign.units}
    assert {"oconnor", "graziani"} <= on_map


def test_setup_hexes_are_on_the_map_and_on_land(campaign):
    geometry = load_map(GAME).geometry
    terrain = load_located(GAME / "terrain.yaml", "terrain.yaml").data["hex_terrain"]
    prohibited = {t["id"] for t in terrain if t.get("prohibited")}
    hexes = load_located(GAME / "map-terrain.yaml", "map-terrain.yaml").data.get("hexes", {})
    water = {h for kind, labels in hexes.items() if kind in prohibited for h in labels}
    assert "sea" in prohibited
    used = {u.hex for u in campaign.units if u.hex} | {m.hex for m in campaign.markers if m.hex}
    used |= {r.hex for r in campaign.reinforcements}
    assert used - set(geometry.labels) == set()
    assert used & water == set()


def test_setup_obeys_stacking(units, campaign, side_of):  # 3.0, 9.2
    by_id = {u.id: u for u in units.units}
    stacks: dict[str, list[s.Unit]] = defaultdict(list)
    for u in campaign.units:
        if u.hex and u.unit in by_id:  # leaders never count (9.2)
            stacks[u.hex].append(by_id[u.unit])
    assert sum(map(len, stacks.values())) == 25
    for hex_id, stack in stacks.items():
        assert len({side_of[u.id] for u in stack}) == 1, hex_id
        battalions = [u for u in stack if u.size == "II"]
        points = sum(_stacking_points(units, u) for u in stack) - (1 if battalions else 0)
        assert points <= STACK_LIMIT, (hex_id, points)


def test_no_allied_unit_starts_next_to_an_axis_unit(campaign, side_of, units):  # 3.1, 10.1
    geometry = load_map(GAME).geometry
    combat = {u.id for u in units.units}
    hexes = defaultdict(set)
    for u in campaign.units:
        if u.unit in combat:
            hexes[side_of[u.unit]].add(u.hex)
    for a in hexes["allied"]:
        assert not any(geometry.adjacent(a, b) for b in hexes["axis"]), a


def test_turn_1_conditions(campaign):  # 3.1, 16.1
    on = {(m.marker, m.track, m.box, m.face) for m in campaign.markers if m.track}
    assert ("ap-allied", "points", "4", 1) in on and ("ap-axis", "points", "2", 1) in on
    assert ("asp", "points", "4", 2) in on  # 4 ASP, Allied face up
    assert ("naval-support", "points", "4", 1) in on
    assert ("game-turn", "turn", "1", 1) in on
    assert ("fortress-tobruk", "fortress", "Tobruk", 1) in on and ("fortress-bardia", "fortress", "Bardia", 1) in on
    depots = {m.marker: m.hex for m in campaign.markers if m.marker.startswith("depot")}
    assert depots == {"depot-allied": "5110", "depot-axis": "4009"}
    assert Counter(m.marker for m in campaign.markers)["ip"] == 16


def test_depots_start_on_a_road_to_their_source_away_from_the_enemy(campaign, side_of, units):  # 7.11
    geometry = load_map(GAME).geometry
    paths = load_located(GAME / "map-terrain.yaml", "map-terrain.yaml").data["hexside_paths"]["road"]
    road: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        for a, b in zip(path["hexes"], path["hexes"][1:]):
            road[a].add(b)
            road[b].add(a)

    def reached(start: str) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in road[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    combat = {u.id for u in units.units}
    enemy_hexes = {"allied": set(), "axis": set()}
    for u in campaign.units:
        if u.unit in combat:
            enemy_hexes["axis" if side_of[u.unit] == "allied" else "allied"].add(u.hex)
    for marker, side, source in (("depot-allied", "allied", ALLIED_ENTRY), ("depot-axis", "axis", AXIS_ENTRY)):
        (hex_id,) = [m.hex for m in campaign.markers if m.marker == marker]
        assert hex_id in road and source in reached(hex_id), marker
        assert not any(geometry.adjacent(hex_id, e) for e in enemy_hexes[side]), marker
