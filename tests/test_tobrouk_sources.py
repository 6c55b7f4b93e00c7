"""Tobrouk 41-42: the sources say what the rulebook says.

Rule numbers are the rulebook's (../shared/seeds/002_bcc9c573f5128021.txt); "digest" is
../shared/docs/rules/seed_002_tobrouk.md.  The facts below are transcribed from the text: the
named hexes (digest 4.2), the adjacencies and hexside features it asserts, each scenario's
set-up lines (11.2f-h, 11.4e-h, 11.5g-j), the values that leak through the example of play
(10.A-C) and the cells of the missing tables it implies.  What the text does not give is
reconstructed, and must say so.
"""
from __future__ import annotations

import heapq
from collections import Counter

import pytest

from builder.model import geofit, load_game
from builder.model import schema as s
from builder.model.load import SourceError
from builder.paths import REPO as ROOT
from tests.conftest import loaded_game

GAME = ROOT / "sources" / "tobrouk-41-42"


def _game():
    return loaded_game(GAME.name)


def _units():
    return {u.id: u for u in _game().units}


def _side(uid: str) -> str:
    return _game().side_of_unit(_units()[uid]).id


def _table(name: str) -> dict:
    return _game().tables[name].data


# ---- the whole game -------------------------------------------------------------------------
def test_the_game_loads_with_every_cross_file_check():
    g = _game()
    assert set(g.scenarios) == {"gazala", "gazala-hypothetical", "crusader", "battleaxe"}
    assert [sd.id for sd in g.info.sides] == ["axis", "commonwealth"]
    assert g.info.counter.inches == 0.5 and g.info.counter.provenance == "reconstructed"
    assert (g.info.turns.last, g.info.turns.extension) == (6, True)  # 11.2a, 11.4a, 8.2


def test_dice_are_labelled_by_purpose_for_each_side():
    dice = {(d.side, d.name): d.dice for d in _game().info.dice}
    for side, label in (("axis", "Axis"), ("commonwealth", "Commonwealth")):
        assert dice[(side, f"{label} fire 1d6")] == 1  # 5.1
        assert dice[(side, f"{label} morale 2d6")] == 2  # 6.21
        assert dice[(side, f"{label} initiative 1d6")] == 1  # 2.1
    decl = {d.name: d.key for d in _game().info.declarations}
    assert {"Declare firer", "Declare target"} <= set(decl)
    assert len(set(decl.values())) == len(decl)


# ---- map: named hexes, grid, terrain --------------------------------------------------------
NAMED = {  # digest 4.2
    "Tobrouk": "2013", "Bardia": "1527", "Gazala": "2104", "El Mrassa": "2109", "Bir Lefa": "1510",
    "El Adem": "1612", "Bir el Gubi": "1014", "Bir Hakeim": "1106", "Knightsbridge": "1509", "Retima": "0911",
    "Halfaya Pass": "1028", "Sidi Rezegh": "1515", "Gambout": "1619", "Sidi Omar": "0923", "Hafid Crest": "1225",
    "Fort Capuzzo": "1227", "Solum": "1228", "Gasr el Arid": "1521", "Zaafran": "1618", "Bel Hamed": "1616",
    "El Duda": "1615", "Bir el Khireigat": "0726", "Eluet et Tamar": "1808",
}


def test_named_hexes_are_on_their_ids_and_on_land():
    g = _game()
    places = {p.name: p.hex for p in g.map.places}
    for name, hex_id in NAMED.items():
        assert places[name] == hex_id, name
        assert g.hex_terrain[hex_id] != "sea", name
    assert g.hex_terrain["2013"] == g.hex_terrain["1527"] == "city"  # UFT: Tobrouk or Bardia
    assert g.hex_terrain["1808"] == "hamlet"  # Hex Terrain Key
    for h in ("1030", "2402", "1717", "0807", "1120", "0920"):  # objectives and key examples
        assert h in g.geometry and g.hex_terrain[h] != "sea", h


def test_supply_edges_are_map_edges():
    g = _game()
    axis = ["1501", "1601", "1701", "1801", "1901", "2001"]  # 3.2a
    cw = _table("supply")["commonwealth_sources"]["edge_hexes"]  # 3.2b: "0430-0830"
    assert _table("supply")["axis_sources"]["edge_hexes"] == axis
    for h in axis:  # the west edge: no hex further west in the row
        assert h in g.geometry and f"{h[:2]}00" not in g.geometry
    assert [h[:2] for h in cw] == ["04", "05", "06", "07", "08"] and "0729" in cw  # 10.A: 0729 is an east-edge hex
    for h in cw:
        row, col = h[:2], int(h[2:])
        assert h in g.geometry and f"{row}{col + 1:02d}" not in g.geometry, h


ADJACENT = [  # every adjacency the text asserts (digest 4.1)
    ("1408", "1508"), ("1509", "1610"), ("1311", "1312"), ("1010", "1011"), ("0928", "0929"), ("1910", "2011"),
    ("1028", "1029"), ("1616", "1615"), ("1616", "1716"), ("2103", "2003"), ("2003", "1903"), ("2202", "2302"),
    ("1802", "1901"), ("1227", "1326"), ("1125", "1026"), ("1030", "1129"), ("1129", "1128"), ("1128", "1228"),
    ("2001", "2101"), ("1125", "1225"), ("1227", "1228"),
]


def test_the_grid_makes_every_adjacency_of_the_text_hold():
    geo = _game().geometry
    for a, b in ADJACENT:
        assert geo.adjacent(a, b), (a, b)
    # the other stagger would make these adjacent: odd rows lie half a hex east (odd-r)
    assert not geo.adjacent("1508", "1407") and not geo.adjacent("1610", "1511")
    assert geo.distance("0626", "0729") == 4  # 10.A: "three hexes between" the HQ and 0729
    assert geo.distance("0726", "0824") == 3  # 10.B: 11 Hussars pay 3 x 1/2 MP
    assert geo.distance("0727", "1125") == 4  # 10.B: the XXX Corps CG's move with 5 MP
    assert not geo.adjacent("1028", "1129")  # 10.A: Halfaya reaches the road only by 1128 or 1029
    rows = {label[:2] for label in geo.labels}
    assert min(rows) == "01" and max(rows) == "24"


def _features(a: str, b: str) -> frozenset[str]:
    return _game().hexside_features.get(tuple(sorted((a, b))), frozenset())


def test_hexside_features_of_the_keys_and_the_example():
    assert "mines-light" in _features("1408", "1508")  # Hexside Terrain Key
    assert "mines-heavy" in _features("1509", "1610")
    assert "wadi" in _features("1311", "1312")
    assert "crest" in _features("1010", "1011")
    assert "escarpment" in _features("1910", "2011")
    assert "cliff" in _features("0928", "0929")
    assert {"mines-heavy", "pass"} <= _features("1028", "1029")  # 11.5c, Halfaya Pass
    assert "cliff" in _features("1028", "1128") and "pass" not in _features("1028", "1128")  # 10.A: impassable
    assert "crest" in _features("1125", "1225")  # 10.C: the crest modifier on fire from 1125
    assert not {"crest", "escarpment", "wadi"} & _features("1225", "1226")  # 10.B: the air strike is not across it
    assert "escarpment" in _features("1227", "1228")  # 10.C: 201 Gd's shot up to Capuzzo
    assert {"mines-heavy", "camp"} & set().union(*(_features("1527", n) for n in _game().geometry.neighbours("1527")))


def test_cliff_blocks_and_the_pass_opens():
    types = _game().hexside_feature_types
    assert types["cliff"].prohibited and types["pass"].cost is not None  # a costed feature opens a prohibited side


def _road() -> dict[str, set[str]]:
    links: dict[str, set[str]] = {}
    for path in _game().map_terrain.hexside_paths["road"]:
        for a, b in zip(path.hexes, path.hexes[1:]):
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def test_via_balbia_runs_from_2402_to_1030_through_the_hexes_of_the_text():
    road = _road()
    via = next(p.hexes for p in _game().map_terrain.hexside_paths["road"] if p.name == "Via Balbia")
    assert via[0] == "2402" and via[-1] == "1030"  # 3.2a, 3.2b
    for h in ("1717", "1619", "1227", "1228", "2013"):  # road key, 10.A (AK HQ on the road; Capuzzo supplied by it)
        assert h in via, h
    assert via[-4:] == ["1228", "1128", "1129", "1030"]  # 10.B: 201 Gd, three road hexes from 1030 to Sollum
    assert "1028" not in road  # Halfaya is off the road (10.A)


def test_fit_map_reproduces_the_committed_terrain():
    m = _game()
    data, errors = geofit.reconstruct(m, geofit.load_geography(GAME))
    assert geofit.dump(data) == (GAME / "map-terrain.yaml").read_text(encoding="utf-8")
    assert max(errors.values()) < 2.0


def test_tobrouk_is_a_port_inside_its_fortified_camp():
    g = _game()
    camp = _table("minefields")["tobrouk_fortified_camp"]
    assert "2013" in camp and all(g.geometry.distance("2013", h) <= 2 for h in camp)
    assert any(g.hex_terrain[n] == "sea" for n in g.geometry.neighbours("2013"))
    perimeter = {side for run in g.map_terrain.hexside_runs["camp"] for side in run.hexsides}
    inside = set(camp)
    for side in perimeter:  # the perimeter separates the camp from the rest
        a, b = side.split("/")
        assert (a in inside) != (b in inside), side


# ---- movement costs: the example's moves are legal --------------------------------------------
def _cost(cls: str, a: str, b: str) -> float | None:
    """MP for a unit of movement class `cls` to enter b from a (None: prohibited)."""
    g, tec = _game(), _table("terrain-effects")
    feats = _features(a, b)
    if "cliff" in feats and not feats & {"pass"}:
        return None
    along = "road" if "road" in feats else "track" if "track" in feats else None
    terrain = g.hex_terrain[b]
    if terrain == "sea":
        return None
    hex_cost = (tec["connected"][along] if along else tec["hex"][terrain])["mp"][cls]
    return hex_cost + sum(tec["hexside"][f]["mp"][cls] for f in feats if f in tec["hexside"]
                          and "mp" in tec["hexside"][f])


def _cheapest(cls: str, start: str, goal: str) -> float:
    geo = _game().geometry
    best, todo = {start: 0.0}, [(0.0, start)]
    while todo:
        c, h = heapq.heappop(todo)
        if h == goal:
            return c
        for n in geo.neighbours(h):
            step = _cost(cls, h, n)
            if step is not None and c + step < best.get(n, 1e9):
                best[n] = c + step
                heapq.heappush(todo, (c + step, n))
    return float("inf")


def test_the_example_moves_fit_the_reconstructed_costs():
    zoc = _table("movement")["enter_enemy_zoc"]["mp"]
    assert _cheapest("recon", "0726", "0824") + zoc <= 5  # 10.B: 11 Hussars
    road = 3 * _table("terrain-effects")["connected"]["road"]["mp"]["motorised"]
    assert road == 0.75 and _cheapest("motorised", "1030", "1228") == road  # 10.B: 201 Gd by the road
    assert _cheapest("cg", "0727", "1125") + zoc <= 5  # 10.B: the XXX Corps CG
    tec = _table("terrain-effects")
    assert tec["hex"]["clear"]["mp"]["motorised"] == 1  # Q&A 4
    assert tec["hexside"]["mines-heavy"]["mp"]["motorised"] == 5  # Q&A 4
    for row in (tec["hex"]["clear"]["mp"], tec["connected"]["track"]["mp"], tec["connected"]["road"]["mp"]):
        # 4.2a-b: CG the higher, recon the lower of motorised and mechanised
        assert row["cg"] == max(row["motorised"], row["mechanised"])
        assert row["recon"] == min(row["motorised"], row["mechanised"])


# ---- counters -------------------------------------------------------------------------------
def test_values_the_text_gives():
    u = _units()
    assert (u["7-7ar"].strength, u["7-7ar"].ap, u["7-7ar"].weapon, u["7-7ar"].armoured) == (6, 8, "C", True)  # 9.3c', 10.C
    b4 = u["4-7ar"]
    assert (b4.ap, b4.weapon, b4.fragile, b4.counter_set) == (9, "C", True, "crusader")  # 10.C
    sg = u["sg-7ar"]
    assert (sg.ap, sg.weapon, sg.armoured) == (2, "B", False)  # 10.C
    lw = u["606-lw"]
    assert (lw.weapon, lw.at_reduced, lw.armoured, lw.type) == ("A", 6, False, "artillery")  # 10.C: column 8 = AT + 2
    gd = u["22-grd"]
    assert (gd.at, gd.mode) == (3, "motorised")  # 10.B-C
    mc = u["15-15pz"]
    assert mc.ap_reduced == 5 and mc.morale_reduced <= 10 and not mc.armoured  # 10.B: a modified 11 fails
    pj = u["33pzjag-15pz"]
    assert pj.ap_reduced == 1 and pj.armoured  # 10.C
    assert u["hq-xxx"].range == 9  # 10.A
    assert u["104-21pz"].strength == 4  # 9.3c': 3 steps at the start of Crusader, one down
    assert all((u[f"air-cw-{i}"].ap, u[f"air-cw-{i}"].at) == (5, 3) for i in (1, 2, 3))  # 10.B
    assert u["61-trento"].mode == u["62-trento"].mode == "foot"  # Q&A 12
    assert {u[x].mode for x in ("33-15pz", "155-21pz", "190-90le")} == {"motorised"}  # Q&A 12
    assert (u["lrdg"].steps, u["lrdg"].strength, u["lrdg"].mode) == (1, 1, "motorised")  # 12.4
    assert u["51-trieste"].fragile  # 1.31a'
    assert u["22-1ar"].fragile and not u["22-1ar"].fragile_reduced  # 11.1g


def test_the_recon_units_of_q_and_a_13_are_recon():
    recon = {"4huss-1ar", "11huss-7ar", "oasis-grp", "recce-50", "recce-70", "recce-1sa", "recce-2sa", "recce-nz",
             "recce-4ind", "recce-5ind", "33a-15pz", "3a-21pz", "580-90le", "nc-ariete", "nj-littorio"}
    u = _units()
    assert {x for x, unit in u.items() if unit.type == "recon"} == recon
    assert all(u[x].armoured and not u[x].fragile for x in recon)  # recon: armoured, never fragile (4.41a')


def test_replacement_counters_chain_down_to_one_step():
    u = _units()
    for unit in u.values():
        if unit.strength is None:
            continue
        assert unit.steps == (2 if unit.strength > 1 else 1), unit.id
        nxt = unit.replaced_by
        if nxt is not None:  # 6.1d: the weaker counter carries the next two steps
            assert u[nxt].strength == unit.strength - 2 and u[nxt].short == unit.short, unit.id
        else:
            assert unit.strength <= 2, unit.id
    assert [u[x].strength for x in ("7-7ar", "7-7ar-2", "7-7ar-3")] == [6, 4, 2]


def test_every_unit_is_reconstructed_with_a_reason():
    for unit in _game().units:
        assert unit.provenance == "reconstructed" and unit.reason, unit.id
    for f in _game().units_file.formations:
        assert f.provenance == "reconstructed", f.id


def test_missing_tables_are_marked_reconstructed():
    for name in ("fire", "initiative", "maneuver", "terrain-effects", "minefields"):
        assert _game().tables[name].provenance == "reconstructed", name
    for f in _game().terrain.hexside_features:
        if f.cost is not None or f.prohibited:
            assert f.provenance == "reconstructed", f.id
    assert _game().map.grid.provenance == _game().map_terrain.provenance == "reconstructed"


# ---- the reconstructed tables agree with every cell the text implies ---------------------------
def _fire(column: int, die: int) -> str:
    data = _table("fire")
    column = min(max(column, 1), 12)
    i = 0 if die <= 0 else min(die, 7)
    return data["results"][str(column)][i]


def test_fire_table_gives_every_result_of_the_example():
    for shot in _table("fire")["checks"]:
        if "die" in shot:
            assert _fire(shot["column"], shot["die"] + shot["drm"]) == shot["result"], shot["shot"]
        else:  # the die is not printed: some roll of 1d6 must give the printed result
            assert any(_fire(shot["column"], d + shot["drm"]) == shot["result"] for d in range(1, 7)), shot["shot"]
    results = _table("fire")["results"]
    assert {r for row in results.values() for r in row} == {"-", "T", "T1", "T2"}  # 6.1


def test_initiative_and_maneuver_tables_hold_the_known_cells():
    init = _table("initiative")["columns"]
    assert init["0"][3] == "-" and init["3A"][5] == "C"  # VV35 erratum; 2.25 RKB
    assert Counter(init["0"])["A"] == Counter(init["0"])["C"]  # the erratum made column 0 even
    man = _table("maneuver")

    def cell(col: str, row: int):
        if row > man["max_row"][col]:
            return "Int"
        return min(10, max(1, row + man["reactive_offset"][col]))

    for known in man["known_cells"]:
        assert cell(known["column"], known["row"]) == known["result"], known


# ---- scenarios ------------------------------------------------------------------------------
# Each line of a set-up card: (units, hexes the text gives, mark).  Mark "" = on that hex;
# "#" = that hex or next to it (11.1d); "*" = approach march, up to 8 hexes (11.1a); "camp" = in
# the Tobrouk Fortified Camp; "bardia5" = within 5 hexes of Bardia 1527; "box" = off the map.
GAZALA = [
    (["200-15", "361-15"], ["2202", "2302"], ""), (["hecker"], ["2402"], ""),
    (["85-sabratha", "86-sabratha"], ["2001", "2101"], ""), (["61-trento", "62-trento"], ["1802", "1901"], ""),
    (["19-brescia", "20-brescia"], ["1702"], ""), (["27-pavia", "28-pavia"], ["1603"], ""),
    (["65-trieste", "66-trieste", "51-trieste"], ["1502"], "*"),
    (["132-ariete", "8bers-ariete", "at-ariete", "nc-ariete"], ["1402"], "*"),
    (["a-8-21pz", "b-8-21pz", "104-21pz", "39pzjag-21pz", "155-21pz", "3a-21pz"], ["1401"], "*"),
    (["a-5-15pz", "b-5-15pz", "15-15pz", "33pzjag-15pz", "33-15pz", "33a-15pz"], ["1301"], "*"),
    (["155-90le", "190-90le", "580-90le", "288-90le"], ["1201"], "*"),
    (["hq-pza", "605-pzjag", "606-lw", "afrika-lw", "hq-xxi", "tanks-xxi", "hq-x", "tanks-x", "hq-xx", "hq-ak"], [], "nohex"),
    (["1-1sa", "2-1sa", "3-1sa"], ["2103", "2003", "1903"], ""), (["recce-1sa"], ["1904"], ""),
    (["69-50", "150-50", "151-50"], ["1804", "1605", "1505"], ""), (["recce-50", "1-atbr"], ["1506"], ""),
    (["32-atbr"], ["1906"], ""), (["hq-xiii"], ["1512"], ""), (["1-ffl"], ["1106"], ""), (["22-1ar"], ["1508"], ""),
    (["sg-1ar", "22-grd-g"], ["1509"], ""), (["2-1ar", "4huss-1ar"], ["1510"], ""),
    (["4-7ar-g", "11huss-7ar"], ["1211"], ""), (["sg-7ar-g"], ["1111"], ""), (["7-7ar"], ["1112"], ""),
    (["29-indbr"], ["1014"], ""), (["3-indbr"], ["0907"], ""), (["hq-xxx"], ["1313"], ""),
    (["hq-viii", "4-2sa", "6-2sa", "recce-2sa", "1-rtr", "6-rtr", "9-indbr"], [], "camp"),
    (["5-5ind", "7-5ind", "11-5ind", "recce-5ind"], [], "bardia5"),
    (["air-axis-1", "air-axis-2", "air-axis-3", "air-cw-1", "air-cw-2", "air-cw-3"], [], "box"),  # 11.2e
]
CRUSADER = [
    (["19-brescia", "20-brescia"], ["2110", "2010"], ""), (["61-trento", "62-trento"], ["1910", "1811"], ""),
    (["39-bologna", "40-bologna"], ["1712", "1713"], ""), (["27-pavia", "28-pavia"], ["1711", "1612"], ""),
    (["hq-x", "tanks-x", "hq-xx"], [], "nohex"), (["155-90le"], ["1814"], ""),
    (["132-ariete", "8bers-ariete", "at-ariete"], ["1014"], ""), (["66-trieste", "51-trieste"], ["1106"], ""),
    (["65-trieste"], ["0911"], ""), (["3a-21pz"], ["1022"], ""), (["33a-15pz"], ["1120"], ""), (["580-90le"], ["1218"], ""),
    (["det-104-21pz", "afrika-lw", "605-pzjag"], ["1028"], ""), (["det-90le", "190-90le"], ["1527"], ""),
    (["a-5-15pz", "b-5-15pz", "15-15pz", "33pzjag-15pz", "606-lw", "hq-ak"], ["1521"], "#"),
    (["a-8-21pz", "b-8-21pz", "104-21pz", "39pzjag-21pz"], ["1619"], "#"),
    (["288-90le"], ["1618"], ""), (["15-savona", "16-savona"], ["0923", "0926"], ""), (["nc-ariete"], ["0925"], ""),
    (["4-nz", "5-nz", "6-nz", "recce-nz", "maori-nz"], ["0729"], "*"), (["11-4ind"], ["1030"], ""),
    (["5-4ind", "7-4ind", "recce-4ind", "1-atbr"], ["0830"], "*"), (["hq-xiii", "hq-xxx"], [], "nohex"),
    (["4-7ar", "22-grd"], ["0630"], "*"), (["7-7ar", "sg-7ar"], ["0430"], "*"),
    (["1-1sa", "5-1sa", "recce-1sa"], ["0529"], ""), (["oasis-grp", "hq-viii"], ["0329"], "*"),
    (["14-70", "16-70", "23-70", "recce-70", "32-atbr", "1-rtr", "4-rtr", "1-pol", "hq-tobrouk"], [], "camp"),
    (["4-2sa", "6-2sa", "recce-2sa"], [], "box"),  # 11.4i: in reserve
    (["air-axis-1", "air-axis-2", "air-cw-1", "air-cw-2", "air-cw-3"], [], "box"),  # 11.4k
]
BATTLEAXE = [
    (["det-104-21pz", "afrika-lw"], ["1028"], ""),
    (["a-8-21pz-2", "b-8-21pz-2", "3a-21pz"], ["1616"], "#"), (["a-5-15pz-2", "b-5-15pz-2", "hq-ak"], ["1619"], "#"),
    (["33pzjag-15pz", "15-15pz"], ["1227"], ""), (["33-15pz"], ["0923"], ""), (["606-lw"], ["1225"], ""),
    (["62-trento"], ["1527"], ""),
    (["11-4ind", "recce-4ind", "22-grd"], ["1030"], ""), (["11huss-7ar"], ["0726"], ""), (["hq-xxx"], ["0726"], "#"),
    (["4-7ar", "7-7ar", "sg-7ar"], [], "box"),  # in the XXX Corps CG (11.5j, 10.b)
    (["5-4ind", "7-4ind", "air-cw-1", "air-cw-2"], [], "box"),  # 11.5l reserve, 11.5k
]
CARDS = {"gazala": GAZALA, "gazala-hypothetical": GAZALA, "crusader": CRUSADER, "battleaxe": BATTLEAXE}
REDUCED = {  # "-1 step": reduced face; "-2 steps": the weaker counter (11.4e, 11.4g, 11.5g)
    "crusader": {"155-90le", "a-5-15pz", "b-5-15pz", "606-lw", "a-8-21pz", "b-8-21pz", "104-21pz"},
    "battleaxe": {"afrika-lw", "33pzjag-15pz", "15-15pz", "606-lw"},
}


@pytest.mark.parametrize("sid", sorted(CARDS))
def test_every_unit_of_the_card_is_set_up_where_the_text_puts_it(sid):
    g = _game()
    sc = g.scenarios[sid]
    placed = {u.unit: u for u in sc.units}
    card = CARDS[sid]
    listed = [uid for units, _, _ in card for uid in units]
    assert len(listed) == len(set(listed))
    assert set(placed) == set(listed)  # every unit of the card, and nothing else
    camp = set(_table("minefields")["tobrouk_fortified_camp"])
    geo = g.geometry
    for units, hexes, mark in card:
        for uid in units:
            where = placed[uid].hex
            if mark == "box":
                assert where is None, uid
                continue
            assert where is not None, uid
            if mark == "":
                assert where in hexes, (uid, where)
            elif mark == "#":
                assert any(geo.distance(where, h) <= 1 for h in hexes), (uid, where)
            elif mark == "*":
                assert any(geo.distance(where, h) <= 8 for h in hexes), (uid, where)
            elif mark == "camp":
                assert where in camp, (uid, where)
            elif mark == "bardia5":
                assert geo.distance(where, "1527") <= 5 and where not in camp, (uid, where)
    for units, hexes, mark in card:  # a line of several hexes has one unit in each
        if mark == "" and len(hexes) > 1 and len(units) == len(hexes):
            assert sorted(placed[u].hex for u in units) == sorted(hexes), units
    assert {u for u, p in placed.items() if p.reduced} == REDUCED.get(sid, set())


def test_unit_counts_per_scenario():
    counts = {sid: Counter(_side(u.unit) for u in _game().scenarios[sid].units) for sid in CARDS}
    assert counts["battleaxe"] == {"axis": 13, "commonwealth": 12}
    assert counts["crusader"] == {"axis": 42, "commonwealth": 36}
    assert counts["gazala"] == counts["gazala-hypothetical"] == {"axis": 47, "commonwealth": 38}
    air = {sid: Counter(_side(u.unit) for u in _game().scenarios[sid].units if u.unit.startswith("air-")) for sid in CARDS}
    assert air["gazala"] == {"axis": 3, "commonwealth": 3}  # 11.2e
    assert air["crusader"] == {"axis": 2, "commonwealth": 3}  # 11.4k
    assert air["battleaxe"] == {"commonwealth": 2}  # 11.5k


def test_counter_sets_match_the_scenarios():
    """11.1f: a yellow-circle counter never appears in 1941, a red-square one never in 1942."""
    u = _units()
    for sid in CARDS:
        sc = _game().scenarios[sid]
        ids = [x.unit for x in sc.units] + [i for r in sc.reinforcements for i in r.units]
        wrong = "crusader" if sid.startswith("gazala") else "gazala"
        assert not [i for i in ids if u[i].counter_set == wrong], sid


def test_battleaxe_stays_on_the_east_half():
    sc = _game().scenarios["battleaxe"]
    hexes = [u.hex for u in sc.units if u.hex] + [m.hex for m in sc.markers if m.hex]
    assert hexes and all(int(h[2:]) >= 14 for h in hexes)  # 11.5b: to hexrow xx14


def test_littorio_arrives_on_turn_4_at_2402():
    for sid in ("gazala", "gazala-hypothetical"):
        (r,) = _game().scenarios[sid].reinforcements
        assert (r.turn, r.hex, sorted(r.units)) == (4, "2402", ["12bers-littorio", "133-littorio", "nj-littorio"])  # 11.2g


def test_iv_marker_starts_on_the_scenarios_box():
    start = {sid: next(m.box for m in _game().scenarios[sid].markers if m.marker == "iv") for sid in CARDS}
    assert start == {"gazala": "0 Gazala", "gazala-hypothetical": "0 Gazala", "crusader": "0 Crusader",
                     "battleaxe": "0 Crusader"}  # charts page; Q&A 11a


def test_special_rules_and_options():
    rules = _table("scenario-rules")
    assert (rules["battleaxe"]["last_turn"], rules["gazala"]["last_turn"], rules["crusader"]["last_turn"]) == (2, 6, 6)
    assert rules["gazala"]["initiative_turn_1"] == "axis" and rules["crusader"]["initiative_turn_1"] == "commonwealth"
    assert rules["battleaxe"]["loss_thresholds"] == [2, 4, 6] and rules["battleaxe"]["area_from_column"] == 14
    assert rules["gazala-hypothetical"]["without"] == ["11.2i", "11.2j"]  # 11.3a
    switches = _table("optional")["switches"]
    assert set(switches) == {"fog_of_war", "group_hecker", "rommel", "lrdg", "afrika_korps_morale"}
    assert not any(sw["default"] for sw in switches.values())
    victory = _table("victory")
    assert all(len(set(v)) == 9 for v in victory["objectives"].values())  # 9.4
    assert victory["objectives"]["blue"][4] == "1225"  # Hafid Crest (11.5d)
    mines = _table("minefields")["runs"]
    assert mines["battleaxe"] == ["Halfaya Pass minefield", "Bardia perimeter minefield"]  # 11.5c
    names = {run.name for runs in _game().map_terrain.hexside_runs.values() for run in runs}
    assert {n for v in mines.values() for n in v} <= names


def test_reconstructed_placements_are_marked():
    for sid, sc in _game().scenarios.items():
        assert sc.provenance == "reconstructed" and sc.reason, sid


def test_a_face_prints_ap_at_morale_weapon_and_steps():
    from builder.render.counters import face_extras, face_values

    g, u = _game(), _units()
    assert face_values(g, u["7-7ar"], False) == ("8", "6")
    assert face_extras(g, u["7-7ar"], False) == ("9", "C", "VI")
    assert face_extras(g, u["7-7ar"], True)[2] == "V"
    assert face_values(g, u["hq-xxx"], False) == ("", "9")  # an HQ prints its range
    assert face_extras(g, u["hq-xxx"], False) == ("", "", "")


INFANTRY, ARMOURED = {"infantry", "motor-infantry", "engineer"}, {"tank", "tank-destroyer", "recon"}


def _stack_ok(units: list[s.Unit]) -> bool:
    """7.1: 2 infantry + 1 other of at most 2 steps, or 1 infantry + 1 armoured + 1 other of at most
    2 steps (any slot may stay empty); the 'other' is never a tank, two tank units never stack (10.a)."""
    from itertools import permutations

    def fits(u: s.Unit, slot: str) -> bool:
        if slot == "inf":
            return u.type in INFANTRY
        if slot == "arm":
            return u.type in ARMOURED
        return u.type != "tank" and (u.strength or 1) <= 2

    for slots in (("inf", "inf", "other"), ("inf", "arm", "other")):
        if len(units) <= 3 and any(all(fits(u, sl) for u, sl in zip(units, order))
                                   for order in permutations(slots, len(units))):
            return True
    return False


@pytest.mark.parametrize("sid", sorted(CARDS))
def test_set_up_stacks_respect_7_1(sid):
    u, sc = _units(), _game().scenarios[sid]
    by_hex: dict[str, list[s.Unit]] = {}
    for p in sc.units:
        unit = u[p.unit]
        if p.hex and unit.type not in ("hq", "air", "leader"):  # HQs do not count (7.1)
            if p.reduced and unit.strength:  # the reduced face has one step fewer
                unit = unit.model_copy(update={"strength": unit.strength - 1})
            by_hex.setdefault(p.hex, []).append(unit)
    bad = {h: [x.id for x in us] for h, us in by_hex.items() if not _stack_ok(us)}
    assert not bad


def test_the_stacking_check_can_refuse():
    u = _units()
    assert not _stack_ok([u["a-8-21pz"], u["b-8-21pz"]])  # 10.a: two tank units
    assert not _stack_ok([u["b-8-21pz"], u["155-21pz"], u["3a-21pz"]])  # armour with two others, no infantry
    assert _stack_ok([u["a-8-21pz"], u["104-21pz"], u["39pzjag-21pz"]])


@pytest.mark.parametrize("sid", sorted(CARDS))
def test_every_combat_unit_starts_entrenched(sid):
    """11.1c: units begin entrenched - one Entrenched marker per combat unit on the map, in its hex."""
    u, sc = _units(), _game().scenarios[sid]
    units = Counter(p.hex for p in sc.units if p.hex and u[p.unit].type not in ("hq", "air", "leader"))
    markers = Counter(m.hex for m in sc.markers if m.marker == "entrenched")
    assert units and markers == units


def test_hexside_points_put_the_feature_on_exactly_that_hexside():
    """geography.yaml HEX/HEX points (geofit): a run through consecutive named hexsides holds them
    and nothing else; a one-hexside run holds that hexside."""
    runs = {r.name: r.hexsides for rs in _game().map_terrain.hexside_runs.values() for r in rs}
    assert runs["Halfaya Pass minefield"] == runs["Halfaya Pass"] == ["1028/1029"]  # 11.5c
    assert sorted(runs["Sollum - Halfaya cliff"]) == sorted(
        ["1127/1228", "1127/1128", "1028/1128", "1028/1029", "0928/1029", "0928/0929", "0829/0929", "0829/0830"])


def test_a_broken_counter_reference_is_one_clear_problem(tmp_path):
    import shutil

    root = tmp_path / "tobrouk-41-42"
    shutil.copytree(GAME, root)
    units = root / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace("replaced_by: \"7-7ar-2\",", "replaced_by: \"7-7ar-9\","), encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        load_game(root)
    (problem,) = exc.value.problems
    assert "unknown unit '7-7ar-9'" in str(problem) and "units.yaml" in str(problem)
