"""Slouch Hats and Eggshells: the sources say what the rulebook says.

Rule numbers are the draft rulebook's (../shared/seeds/003_4a142580d0cb8783.txt); "digest" is
../shared/docs/rules/seed_003_slouch_hats.md.  The text prints procedures, not data: the facts
below are the few it gives (the named hexes of digest 4.3, the adjacencies and terrain of its
examples, the unit values its examples reveal, 23/6's arrival, the garrisons and events) and
the examples the reconstructed tables must reproduce (10.42, 10.53, 13.36).  Everything the
text does not give is reconstructed, and must say so.
"""
from __future__ import annotations

from collections import Counter

import re

import pytest
import yaml

from builder.model import geofit
from builder.model.stacking import StackingTable
from builder.paths import REPO as ROOT
from tests.conftest import loaded_game

GAME = ROOT / "sources" / "slouch-hats-and-eggshells"
RULEBOOK_HEXES = {"1519", "1520", "1302", "1200", "1108", "1305", "1311", "2723", "2724", "2925", "3026",
                  "1615", "1616", "1715", "2311", "2312", "2313", "2314", "2315"}


def _game():
    return loaded_game(GAME.name)


def _units():
    return {u.id: u for u in _game().units}


def _by_short():
    return {u.short: u for u in _game().units}


def _table(name: str) -> dict:
    return _game().tables[name].data


def _area_of(hex_id: str) -> str:
    return next(a for a, hexes in _table("areas")["hexes"].items() if hex_id in hexes)


# ---- the whole game -------------------------------------------------------------------------
def test_the_game_loads_with_both_scenarios_and_their_lengths():
    g = _game()
    assert set(g.scenarios) == {"exporter", "axis-intervene"}
    assert [sd.id for sd in g.info.sides] == ["axis", "allied"]
    assert (g.info.turns.first, g.info.turns.last) == (1, 8)
    turns = _table("victory")["scenario_turns"]
    assert (turns["exporter"]["last"], turns["axis-intervene"]["last"]) == (6, 8)  # 21.11, 21.21
    assert g.map.tracks[0].captions["6"] == "III July" and g.map.tracks[0].captions["8"] == "II August"


def test_nationality_colours_are_those_of_2_23():
    nats = _game().nationalities
    printed = {"australian": "Australian", "british": "British", "french": "French (Allied)", "german": "German",
               "indian": "Indian", "polish": "Polish", "vichy": "Vichy"}
    for nid, name in printed.items():
        n = nats[nid]
        assert n.name == name and n.rule == "2.23" and n.provenance == "rulebook"
    assert {nats[n].side for n in ("australian", "british", "french", "indian", "polish")} == {"allied"}
    assert {nats[n].side for n in ("german", "vichy")} == {"axis"}

    def lum(c):
        return sum(int(c[i:i + 2], 16) for i in (1, 3, 5))
    assert lum(nats["vichy"].colour) < lum(nats["french"].colour)  # dark blue vs light blue
    assert lum(nats["indian"].colour) < lum(nats["british"].colour) < lum(nats["australian"].colour)  # brown, light brown, tan
    assert len({n.colour for n in nats.values()}) == len(nats)
    assert all(n.provenance == "reconstructed" for nid, n in nats.items() if nid not in printed)


def test_dice_are_labelled_by_purpose_for_each_side():
    dice = {d.name: d for d in _game().info.dice}
    for side, label in (("axis", "Axis"), ("allied", "Allied")):
        for purpose in ("combat die", "naval transport die", "supply capture die", "air loss die", "1d6"):
            assert dice[f"{label} {purpose}"].side == side and dice[f"{label} {purpose}"].dice == 1
    assert dice["Allied Vichy Surrender die"].side == "allied"  # 18.3: the Allied player rolls
    names = {d.name for d in _game().info.declarations}
    assert {"Declare attacker", "Declare defender", "Artillery support", "Close air support", "Combat supply"} <= names
    assert len({d.key for d in _game().info.declarations}) == len(_game().info.declarations)


# ---- the map ----------------------------------------------------------------------------------
def test_the_hexes_the_text_names_are_on_their_ids():
    g = _game()
    assert g.places["1519"].name == "Beirut" and g.places["1520"].name == "Damour"  # 13.23, 13.36 examples
    assert g.places["1200"].exit  # 9.34: the railroad enters from the north edge
    sea = set(g.map_terrain.hexes["sea"])
    for h in RULEBOOK_HEXES:
        assert h in g.geometry and h not in sea, h
    assert min(int(lab[2:]) for lab in g.geometry.labels) == 0  # row 00 is the north edge (1200)
    assert g.geometry.centre("1200")[1] < g.geometry.centre("1302")[1]
    assert {p.hex for p in g.map.places if p.provenance == "rulebook"} <= RULEBOOK_HEXES
    for p in g.map.places:
        if p.hex not in RULEBOOK_HEXES:
            assert p.provenance == "reconstructed" and p.reason, p.name


def test_adjacencies_the_examples_assert():
    geo = _game().geometry
    path = ["2311", "2312", "2313", "2314", "2315"]  # 8.11 example
    assert all(geo.adjacent(a, b) for a, b in zip(path, path[1:]))
    assert geo.adjacent("1615", "1616") and geo.adjacent("1615", "1715")  # 10.53 example
    assert geo.adjacent("1519", "1520")
    assert geo.centre("1520")[1] > geo.centre("1519")[1]  # Damour lies south of Beirut


def test_terrain_holds_the_examples():
    g = _game()
    tec = _table("terrain-effects")
    cost = {k: v["mp"].get("all", v["mp"].get("foot")) for k, v in tec["hex"].items() if v["mp"]}
    steps = ["2312", "2313", "2314", "2315"]  # 8.11: 1, 1, 2, 2 MP; "spent all" of MA 6
    assert [cost[g.hex_terrain[h]] for h in steps] == [1, 1, 2, 2]
    assert sum(cost[g.hex_terrain[h]] for h in steps) == _by_short()["5(-)/4Ind"].ma
    route = ["2311"] + steps
    for a, b in zip(route, route[1:]):  # no road or hexside cost along the example's path
        assert not g.hexside_features.get(tuple(sorted((a, b))), frozenset()), (a, b)
    assert g.hex_terrain["1615"] == "mountain"  # 10.53: defense doubled for mountain
    assert tec["hex"]["mountain"]["defense"] == {"double": True, "not_for": ["armored"]}
    assert "wadi" in g.hexside_features[tuple(sorted(("1520", "1521")))]  # 13.36: attack across the wadi
    assert tec["hexside"]["wadi"]["defense"] == {"shift": -1, "all_attackers_across": True}  # 13.36 with 10.22
    kinds = {f.id: f for f in g.terrain.hexside_features}
    assert kinds["escarpment"].prohibited and kinds["swamp-side"].prohibited and kinds["lava-side"].prohibited  # 8.33-8.34


def test_the_map_reaches_from_palestine_to_aleppo_and_the_euphrates():
    g = _game()
    names = {p.name: p.hex for p in g.map.places}
    for name in ("Damascus", "Beirut", "Aleppo", "Palmyra", "Tripoli", "Haifa", "Abu Kamal"):
        assert name in names
    assert {"Lebanon", "Sanjak of Latakia"} <= set(_table("areas")["names"].values())
    runs = {r.name for rs in g.map_terrain.hexside_runs.values() for r in rs}
    assert {"Litani", "Euphrates", "Orontes", "Damour river"} <= runs
    mountains = set(g.map_terrain.hexes["mountain"])
    assert mountains and set(g.map_terrain.hexes["lava"])
    assert g.hex_terrain[names["Damascus"]] == "clear" and g.hex_terrain["1918"] == "clear"  # the Bekaa


def test_fit_map_reproduces_map_terrain():
    g = _game()
    data, _ = geofit.reconstruct(g, geofit.load_geography(GAME))
    assert data == yaml.safe_load((GAME / "map-terrain.yaml").read_text())


def test_map_areas_of_2_12():
    g = _game()
    areas = _table("areas")
    assert areas["friendly"] == {"syria": "axis", "lebanon": "axis", "latakia": "axis", "druze": "axis",
                                 "palestine": "allied", "transjordan": "allied", "iraq": "allied", "turkey": "neutral"}
    land = [h for h in g.geometry.labels if g.hex_terrain[h] != "sea"]
    listed = Counter(h for hexes in areas["hexes"].values() for h in hexes)
    assert set(listed) == set(land) and max(listed.values()) == 1  # every land hex in exactly one area
    assert _area_of("1519") == "lebanon" and _area_of("1302") == "turkey"  # 18.13b, 6.44b
    assert {_area_of(h) for h in ("1108", "1305", "1311")} == {"latakia"}  # 19.2, 20.22R
    assert {_area_of(h) for h in ("2723", "2724", "2925", "3026")} == {"druze"}
    assert _area_of(g.places["1527"].hex) == "palestine"


def test_holding_boxes_and_tracks():
    g = _game()
    assert g.tracks["holding"].boxes == ["Greece Holding Box", "Middle East Holding Box", "Iraq Holding Box"]  # 9.31
    assert set(g.tracks["losses"].boxes) == {"Axis Cadre", "Axis Eliminated", "Allied Cadre", "Allied Eliminated"}
    assert {"Axis Used This Segment", "Allied Available"} <= set(g.tracks["storage"].boxes)  # 6.13f
    assert g.tracks["port-beirut"].boxes[-1] == "6"  # 6.44a, 7.32: Beirut at capacity 6
    assert g.tracks["vp"].boxes[0] == "0" and "10" in g.tracks["vp"].boxes
    boxes = _table("supply")["holding_boxes"]
    assert boxes["Iraq Holding Box"]["port"] == 0 and boxes["Greece Holding Box"]["port"] == "unlimited"  # 7.36
    assert boxes["Greece Holding Box"]["entry"] == ["1200", "1302"]  # 9.34
    assert _table("supply")["sources"]["turkey"] == {"hex": "1302", "units": 8, "by_road": True, "rule": "6.44b"}
    assert g.map.decks == []  # the Special Event markers are the Events window's pool, not a map pile
    pool, = g.events.decks
    assert pool.name == "Special Events Pool" and len(pool.cards) == 18  # 20.11, 20.15: one cup, A-R


# ---- the units --------------------------------------------------------------------------------
def test_unit_values_the_examples_reveal():
    u = _by_short()
    a21, a25 = u["21/7A"], u["25/7A"]
    assert a21.attack + a25.attack == 6 and a21.steps == 2  # 10.53, 6.16
    assert {a21.formation, a25.formation} == {"7A"} and not (a21.light or a25.light)
    ind = u["5(-)/4Ind"]
    assert (ind.attack, ind.ma, ind.mountain, ind.light, ind.motorized) == (3, 6, True, False, False)  # 8.11, 10.52b, 10.53
    assert u["21/10 Ind"].mountain and u["141/6Geb"].mountain and u["143/6Geb"].mountain  # 10.52b
    assert u["5/1"].light and u["5/1"].attack_reduced == 1 and u["5/1"].steps == 2  # 10.53: the reduced 5/1 attacks with 1
    rsa, rtm = u["8RSA"], u["V-IRTM"]
    assert rsa.light and rsa.type == "cavalry" and rsa.defense == rsa.defense_reduced == 1
    assert not rtm.light and rtm.defense == rtm.defense_reduced == 1
    assert u["I-6REI"].stacking == 1 and not u["I-6REI"].motorized  # 9.57
    assert {u[x].type for x in ("1RSM", "4RST", "8RSA")} == {"cavalry"}  # 18.42b
    assert u["SK-F"].type == "commando" and _game().nationality_of_unit(u["SK-F"]).id == "german"  # 20.22C
    assert u["Lehr"].type == "infantry" and u["11 Cdo"].type == "commando"


def test_every_unit_the_digest_names_is_there_once():
    shorts = Counter(u.short for u in _game().units)
    for name in ("21/7A", "25/7A", "5(-)/4Ind", "21/10 Ind", "5/1", "23/6", "8RSA", "1RSM", "4RST", "V-IRTM",
                 "I-6REI", "RTA", "BdL", "141/6Geb", "143/6Geb", "SK-F", "Lehr", "Tk Arm", "Raiders", "Haifa Gar", "DCA"):
        assert shorts[name] == 1, name
    for kind, count in (("Alaw", 6), ("Druze", 6), ("CL", 3)):  # 19.2, 20.21 A/B/Q: Axis and Allied counters
        assert sum(n for s, n in shorts.items() if re.fullmatch(rf"\d {kind}", s)) == count, kind
    assert sum(1 for u in _game().units if u.type == "motorized-aa" and _game().nationality_of_unit(u).id == "german") >= 2
    assert len({u.id for u in _game().units}) == len(_game().units)


def test_every_reconstructed_item_is_marked():
    g = _game()
    for x in [*g.units, *g.units_file.formations]:
        assert x.provenance == "reconstructed" and x.reason, x
    for m in g.markers_file.markers:
        if m.id.startswith(("air-", "naval-", "msu-", "dump-", "large-dump-")) and m.id != "air-transport" \
                and m.id != "air-interdiction":
            assert m.provenance == "reconstructed" and m.reason, m.id
    for name in ("combat", "terrain-effects", "support-differential", "naval-transport", "capture", "supply",
                 "air-naval", "victory", "areas"):
        assert g.tables[name].provenance == "reconstructed" and g.tables[name].reason, name
    for sc in g.scenarios.values():
        assert sc.provenance == "reconstructed" and sc.reason
        for grp in sc.conditional_groups:
            assert grp.provenance == "reconstructed" and grp.reason
    assert g.map.grid.provenance == g.map.numbering.provenance == g.info.counter.provenance == "reconstructed"


def test_stacking_values_match_the_stacking_table():
    table = StackingTable.from_data(_table("stacking")["stacking"])
    assert table.limit == 7  # 3.32
    for u in _game().units:
        attrs = {"nationality": _game().formations[u.formation].nationality, "size": u.size, "type": u.type,
                 "formation": u.formation}
        assert table.points_of(attrs) == u.stacking, u.id


def test_faces_print_what_2_24_lists():
    from builder.render.counters import face_extras, face_values
    g, u = _game(), _by_short()
    assert face_values(g, u["21/7A"], False) == ("3-4", "5")
    assert face_values(g, u["6RCA"], False) == ("4-3", "[8]")  # motorized: MA in a box (2.24g)
    assert face_extras(g, u["2/4 Fd"], False) == ("", "R3", "1")  # artillery: range (2.24e), stacking (2.24h)
    assert face_values(g, u["2/4 Fd"], False)[0] == f"{u['2/4 Fd'].support}-{u['2/4 Fd'].defense}"


# ---- the tables hold the examples ------------------------------------------------------------------
def _column(attack: float, defense: float) -> str:
    crt = _table("combat")
    fits = [c for c in crt["columns"] if crt["ratios"][c] <= attack / defense + 1e-9]
    return fits[-1] if fits else crt["columns"][0]


def test_odds_round_in_the_defenders_favour():
    assert [_column(8, d) for d in (2, 3, 4, 5)] == ["4-1", "2-1", "2-1", "3-2"]  # 10.42
    crt = _table("combat")
    assert (crt["columns"][0], crt["columns"][-1], crt["max_net_shift"]) == ("1-4", "8-1", 3)  # 12.12, 10.42c
    assert all(len(r) == 6 for r in crt["results"].values()) and set(crt["results"]) == set(crt["columns"])
    assert any("D2R" in r for row in crt["results"].values() for r in row)  # 6.16 example


def test_the_light_unit_example_of_10_53():
    u = _by_short()
    light = any(x.light for x in (u["8RSA"], u["V-IRTM"], u["5/1"]))
    assert light

    def dbl(unit, value):
        return value * 2 if light and not unit.light else value
    defense = sum(dbl(x, x.defense) * 2 for x in (u["8RSA"], u["V-IRTM"]))  # mountain 1615 doubles both
    attackers = [(u["21/7A"], u["21/7A"].attack), (u["25/7A"], u["25/7A"].attack),
                 (u["5(-)/4Ind"], u["5(-)/4Ind"].attack), (u["5/1"], u["5/1"].attack_reduced)]
    attack = [dbl(x, v) * (2 if x.mountain else 1) for x, v in attackers]
    assert (sum(attack), defense) == (25, 6) and _column(sum(attack), defense) == "4-1"
    halved = sum(a // 2 for a in attack)  # 3.53: each unit halved without Attack Combat Supply
    assert _column(halved, defense) == _column(13, 6) == "2-1"


def test_support_differential_holds_the_13_36_example():
    rows = _table("support-differential")["differential"]

    def shift(att, dfn):
        d = abs(att - dfn)
        cols = next(r["columns"] for r in rows if r["min"] <= d <= r["max"])
        return cols if att >= dfn else -cols
    assert [shift(3, 0), shift(3, 1), shift(3, 4)] == [2, 1, -1]
    assert shift(3, 3) == 0 and shift(3, 2) == 1


def test_naval_transport_and_capture_tables_cover_every_roll():
    for name, lo, hi in (("naval-transport", -3, 10), ("capture", 1, 6)):
        rows = _table(name)["results"]
        for roll in range(lo, hi + 1):
            assert sum(1 for r in rows if r["min"] <= roll <= r["max"]) == 1, (name, roll)
    assert {r["result"] for r in _table("naval-transport")["results"]} == {"A", "D", "SD", "Sunk"}  # 7.24
    assert _table("naval-transport")["drm"]["axis_event_n_convoy"]["value"] == -4  # 20.22N


def test_sequence_of_play_of_4_21():
    phases = _table("sequence")["phases"]
    names = [p["name"] for p in phases]
    assert names[:6] == ["Turn Record", "Special Events", "Reinforcements", "Supply Status", "First Supply Conversion",
                         "Bombardment"]
    assert names[-2:] == ["Engineering", "Victory Determination"]
    segs = list(dict.fromkeys(p["segment"] for p in phases))
    assert segs == ["strategic", "1st-axis-operations", "1st-allied-operations", "inter-operational",
                    "2nd-axis-operations", "2nd-allied-operations", "recovery"]
    assert _table("sequence")["skip_on_turn_1"] == "1st-axis-operations"  # 21.11, 21.21
    assert len(set(names)) == len(names)


def test_events_a_to_r_for_both_sides():
    ev = _table("events")
    assert sorted(ev["allied"]) == sorted(ev["axis"]) == list("ABCDEFGHIJKLMNOPQR")
    assert ev["draws"]["turn_1"] == {"allied": 4, "axis": 3}  # 21.12a
    assert ev["rally_hexes"]["alawi"] == ["1108", "1305", "1311"] and ev["rally_hexes"]["druze"] == ["2723", "2724", "2925", "3026"]
    pool, = _game().events.decks  # one marker per letter, each with both sides' event (20.15)
    assert [c.id for c in pool.cards] == list("ABCDEFGHIJKLMNOPQR")
    assert all(ev["allied"][c.id]["name"] == c.events["allied"].title for c in pool.cards)


# ---- the scenarios ---------------------------------------------------------------------------------
def _placements(sc):
    out = [u.unit for u in sc.units]
    out += [uid for r in sc.reinforcements for uid in r.units]
    out += [uid for grp in sc.conditional_groups for uid in grp.units if uid not in {u.unit for u in sc.units}]
    return out


@pytest.mark.parametrize("name", ["exporter", "axis-intervene"])
def test_each_unit_is_placed_once(name):
    sc = _game().scenarios[name]
    counts = Counter(_placements(sc))
    assert counts and max(counts.values()) == 1, [u for u, n in counts.items() if n > 1]


def test_every_unit_is_used_by_some_scenario():
    used = set().union(*(set(_placements(sc)) for sc in _game().scenarios.values()))
    assert used == set(_units())


@pytest.mark.parametrize("name", ["exporter", "axis-intervene"])
def test_set_up_facts_of_the_text(name):
    g = _game()
    sc = g.scenarios[name]
    arrivals = {uid: r for r in sc.reinforcements for uid in r.units}
    assert arrivals["23-6"].turn == 3 and arrivals["23-6"].box == "Middle East Holding Box"  # 5.32 example
    placed = {u.unit: u for u in sc.units}
    assert placed["11cdo"].reduced and placed["11cdo"].box == "Middle East Holding Box"  # 20.21C
    assert placed["haifa-gar"].hex == g.places["1527"].hex and "haifa-gar" in sc.garrisons  # 20.21C(d)
    for uid, hexes in (("alawi-1", "1108"), ("alawi-2", "1305"), ("alawi-3", "1311")):
        assert placed[uid].hex == hexes and uid in sc.garrisons  # 19.21
    druze = {placed[f"druze-{i}"].hex for i in (1, 2, 3)}
    assert druze <= {"2723", "2724", "2925", "3026"} and {f"druze-{i}" for i in (1, 2, 3)} <= set(sc.garrisons)
    groups = {grp.event: grp for grp in sc.conditional_groups}
    assert groups["Axis Event C"].units == ["sk-f"] and groups["Axis Event C"].hex == "1900"  # Aleppo
    assert groups["Axis Event D"].first_turn == 3 and groups["Axis Event D"].hex in {"1200", "1302"}  # from III June
    assert groups["Axis Event G"].first_turn == 3 and groups["Axis Event I"].first_turn == 2
    last = _table("victory")["scenario_turns"][name]["last"]
    assert all(grp.last_turn == last for grp in sc.conditional_groups)
    for uid, p in placed.items():  # 21.12b: no Vichy unit in Iraq
        if p.hex and g.nationality_of_unit(_units()[uid]).id == "vichy":
            assert _area_of(p.hex) != "iraq", uid
    for p in placed.values():  # set-up sides stay in their own areas
        if p.hex:
            side = g.side_of_unit(_units()[p.unit]).id
            assert _table("areas")["friendly"][_area_of(p.hex)] == side, p.unit


def test_the_axis_intervene_adds_the_german_forces():
    ex, ai = (set(_placements(_game().scenarios[n])) for n in ("exporter", "axis-intervene"))
    assert {"141-6geb", "143-6geb", "flak-1", "flak-2"} <= ai - ex  # 10.51, 10.52b, 21.22b
    assert "sk-f" in ex and "sk-f" in ai  # 20.22C: even if not playing Scenario 2
