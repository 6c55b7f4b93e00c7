"""Desert Fox Deluxe: the ten scenarios (24.0-33.0) as the text gives them, and as the module sets them up.

Rule numbers are the rulebook's (../shared/seeds/004_e25a106a192fc80d.txt); "digest" is
../shared/docs/rules/seed_004_desert_fox.md.  The expected facts below are transcribed from the
text (the at-start cards of digest 5.0, the set-up tables of 26.1-26.2 and 30.1-30.2, the header
of every scenario).  The piece counts and places are computed from the scenario files read as
plain YAML, and compared with the set-up the built module saves, read back by the log reader and
named by the module's own grids (validators.vlog.modulegrid, which matches the real engine).
"""
from __future__ import annotations

import io
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import pytest
import yaml

from builder.model import load_game
from builder.model.problems import SourceError
from builder.paths import REPO as ROOT
from tests.conftest import loaded_game
from validators.replay.board import Board
from validators.vlog.modulegrid import read_module_grids
from validators.vlog.reader import read_record

GAME = ROOT / "sources" / "desert-fox-deluxe"
SCENARIOS = sorted((GAME / "scenarios").glob("*.yaml"))


def _raw(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _by_rule() -> dict[str, tuple[str, dict]]:
    """'24.0' -> (scenario id, the file as plain YAML)."""
    out = {}
    for p in SCENARIOS:
        raw = _raw(p)
        out[raw["rule"]] = (p.stem, raw)
    return out


def _placed(raw: dict) -> dict[str, str]:
    """unit -> hex or 'track/box' of the set-up (plain YAML)."""
    return {u["unit"]: u.get("hex") or f"{u['track']}/{u['box']}" for u in raw.get("units", [])}


def _values(unit) -> str:
    return f"{unit.cs}{unit.cf_suffix}-{unit.morale}-{unit.ma}"


@pytest.fixture(scope="module")
def module_zip() -> zipfile.ZipFile:
    from builder.vassal.module import build_vmod

    data, _png = build_vmod(loaded_game(GAME.name), lambda what: None)
    return zipfile.ZipFile(io.BytesIO(data))


@pytest.fixture(scope="module")
def saved(module_zip, tmp_path_factory):
    """scenario id -> [(UnitId or MarkerId, kind, location name, Step level)] of its saved set-up."""
    z = module_zip
    maps = read_module_grids(z.read("buildFile.xml"), {n: z.read(n) for n in z.namelist() if n.startswith("images/map")})
    grid = maps["Main Map"]
    out = {}
    root = tmp_path_factory.mktemp("dfd")
    for p in SCENARIOS:
        path = root / f"{p.stem}.vsav"
        path.write_bytes(z.read(f"{p.stem}.vsav"))
        board = Board()
        for c in read_record(path).setup:
            board.apply(c)
        pieces = []
        for piece in board.on_map():
            props = piece.properties()
            if piece.map != "Main Map" or props.get("Kind") not in ("unit", "marker"):
                continue
            ref = props.get("UnitId") or props.get("MarkerId")
            pieces.append((ref, props["Kind"], grid.location(piece.x, piece.y), piece.layer_level("Step")))
        out[p.stem] = pieces
    return out


# ---- the ten scenarios and their headers (digest 1, Scenarios) ---------------------------------
HEADERS = {  # rule: (first GT, phase, last GT, initiative, surprise, maps)
    "24.0": (4, "VI", 9, "axis", False, "CW"),
    "25.0": (4, "VI", 11, "axis", False, "CLSW"),
    "26.0": (10, "XII", 14, "axis", True, "CW"),
    "27.0": (10, "XII", 29, "axis", True, "CW"),
    "28.0": (1, "VI", 33, "axis", False, "LSCW"),
    "29.0": (30, "VI", 31, "allied", False, "AT"),
    "30.0": (31, "XII", 33, "axis", False, "LS"),
    "31.0": (30, "VI", 36, "allied", False, "ATLS"),
    "32.0": (10, "XII", 38, "axis", True, "ATLSCW"),
    "33.0": (1, "II", 38, "axis", False, "ATLSCW"),
}


def test_all_ten_scenarios_with_the_header_the_text_gives():
    scen = _by_rule()
    assert sorted(scen) == sorted(HEADERS)
    for rule, (first, phase, last, side, surprise, maps) in HEADERS.items():
        raw = scen[rule][1]
        got = (raw["first_turn"], raw["start_phase"], raw["last_turn"], raw["initiative"], bool(raw.get("surprise")),
               "".join(sorted(raw["maps"])))
        assert got == (first, phase, last, side, surprise, "".join(sorted(maps))), rule


def test_the_turn_and_end_markers_stand_on_the_first_and_last_turn(saved):
    for sid, raw in ((s, r) for s, r in _by_rule().values()):
        where = {ref: loc for ref, kind, loc, _ in saved[sid] if kind == "marker" and ref in ("gt", "es")}
        assert where == {"gt": f"GT {raw['first_turn']}", "es": f"GT {raw['last_turn']}"}, sid


def test_victory_hexes_the_text_names():
    scen = _by_rule()
    hexes = {rule: {h for v in raw.get("victory", []) for h in v.get("hexes", [])} for rule, (_, raw) in scen.items()}
    assert {"C2331", "C0701", "W2104"} <= hexes["24.0"]  # 24.3
    assert hexes["25.0"] == {"L2817"}  # 25.3 Tripoli
    assert {"C0701", "W2134"} <= hexes["27.0"]  # 27.3 the primary road
    assert hexes["29.0"] == {"T6017"}  # 29.3 Tunis
    assert hexes["30.0"] == {"L2909"}  # 30.3
    for rule in ("28.0", "31.0", "32.0", "33.0"):  # 28.3: a base in a port of capacity 3+ not in an Allied ZOC
        assert any("capacity three" in v["text"] for v in scen[rule][1]["victory"]), rule
    g = loaded_game(GAME.name)
    for h in set().union(*hexes.values()):
        assert h in g.geometry, h


# ---- the at-start cards of digest 5.0 --------------------------------------------------------
AXC2_HEXES = {"tobruk-it": "C2331", "axis-base-2": "C2331", "axis-msu-1": "C2331", "axis-dump-1": "C2331",
              "kufra-garrison": "oasis/Kufra", "barce-garrison": "C2410", "bardia-garrison": "W2104",
              "benghazi-garrison": "C2308", "giarabub-w2002": "W0303", "giarabub-w0303": "W0303", "jalo-garrison": "C0117"}
AXC2_VALUES = {"tobruk-it": "3-3-0", "barce-garrison": "3-3-0", "bardia-garrison": "3-3-0", "benghazi-garrison": "3-3-0",
               "giarabub-w2002": "2L-3-0", "giarabub-w0303": "0L-3-0", "jalo-garrison": "0L-3-0", "kufra-garrison": "0L-3-0",
               "62-mmrirca": "7-3-14", "63-cirene": "7-3-14", "4-ccnn": "7-2-14", "1-libyan": "6-3-14",
               "axis-base-2": "0-2-0", "axis-msu-1": "0-2-14", "axis-dump-1": "0-2-0"}
AXC2_DIVISIONS = ["62-mmrirca", "63-cirene", "4-ccnn", "1-libyan"]
ALC2_W2118 = ["22-bde", "allied-base-1", "allied-msu-1"]
ALC2_NEAR = ["wdf-bde", "4-lt-arm", "7-sg", "11-huss", "7-rtr", "5-ind-bg", "11-ind-bg", "cih"]


def test_axc2_at_start_maps_c_and_w_as_printed():
    """AXC-2 in every scenario that sets it up: 24.1 and 25.1 (divisions within 8 of Tobruk),
    28.1 and 33.1 (as printed: within 4)."""
    g = loaded_game(GAME.name)
    units = {u.id: u for u in g.units}
    for uid, values in AXC2_VALUES.items():
        assert _values(units[uid]) == values, uid
    scen = _by_rule()
    for rule, within in (("24.0", 8), ("25.0", 8), ("28.0", 4), ("33.0", 4)):
        raw = scen[rule][1]
        placed = _placed(raw)
        for uid, where in AXC2_HEXES.items():
            assert placed[uid] == where, (rule, uid)
        for uid in AXC2_DIVISIONS:
            assert g.geometry.distance("C2331", placed[uid]) <= within, (rule, uid)
        # the three items printed "2" on or adjacent to C2331: Fort Level 2 markers (digest 11.17)
        forts = [m["hex"] for m in raw["markers"] if m["marker"] == "fort-2"]
        assert len(forts) == 3 and all(g.geometry.distance("C2331", h) <= 1 for h in forts), rule
        assert placed["axis-base-2"] == "C2331"


def test_alc2_at_start_map_w_as_the_text_gives_it():
    g = loaded_game(GAME.name)
    scen = _by_rule()
    for rule in ("24.0", "25.0", "28.0", "33.0"):
        raw = scen[rule][1]
        placed = _placed(raw)
        assert all(placed[u] == "W2118" for u in ALC2_W2118), rule
        assert all(g.geometry.distance("W2118", placed[u]) <= 3 for u in ALC2_NEAR), rule
        assert placed["alexandria"] == "W2232", rule
        assert {"marker": "railhead", "hex": "W2118"} in raw["markers"], rule


def test_alc5_met_levant():
    """ALC-5: Royals 1R-2-28 and 7 Ind BG 5-2-14 in box 0 of MET Levant; 24.2/25.2 use only 7 Ind
    BG, within 3 hexes of W2118."""
    g = loaded_game(GAME.name)
    units = {u.id: u for u in g.units}
    assert _values(units["royals"]) == "1R-2-28" and _values(units["7-ind-bg"]) == "5-2-14"
    scen = _by_rule()
    for rule in ("28.0", "33.0"):
        placed = _placed(scen[rule][1])
        assert placed["royals"] == placed["7-ind-bg"] == "met-levant/0", rule
    for rule in ("24.0", "25.0"):
        placed = _placed(scen[rule][1])
        assert "royals" not in placed and g.geometry.distance("W2118", placed["7-ind-bg"]) <= 3, rule
        assert "royals" not in {u for r in scen[rule][1].get("reinforcements", []) for u in r["units"]}, rule


def test_the_25_aus_bg_erratum():
    units = {u.id: u for u in loaded_game(GAME.name).units}
    assert units["25-aus-bg"].cs == 5  # 2.5


# ---- the set-ups the text lists in full ----------------------------------------------------
SONNENBLUME_ALLIED = {  # 26.2 = 27.2
    "kdg": "C0603", "2-sg": "C0803", "3-lt-arm": "C0804", "26-aus-bg": "C2331", "tobruk-al": "C2331",
    "22-bde": "W2118", "3-ind": "W2118", "13-corps": "W2118", "alexandria": "W2232",
    "11-huss": "offmap/NRV", "18-aus-bg": "offmap/NRV", "9-aus-cav": "offmap/NRV", "polish": "offmap/NRV",
    "4-lt-arm": "allied-boxes/Allied Refit", "7-lt-arm": "allied-boxes/Allied Refit", "7-sg": "allied-boxes/Allied Refit",
    "1-tank": "allied-boxes/Allied Refit", "32-tank": "allied-boxes/Allied Refit", "30-corps": "allied-boxes/Allied Refit",
}
GARRISONS = ["tobruk-it", "barce-garrison", "bardia-garrison", "benghazi-garrison", "giarabub-w2002", "giarabub-w0303",
             "jalo-garrison", "kufra-garrison"]


def test_desert_fox_is_sonnenblume_with_27_1():
    scen = _by_rule()
    sonnenblume, desert_fox = _placed(scen["26.0"][1]), _placed(scen["27.0"][1])
    for uid, where in SONNENBLUME_ALLIED.items():
        assert sonnenblume[uid] == desert_fox[uid] == where, uid
    assert all(desert_fox[u] == "axis-boxes/Axis Destroyed" for u in GARRISONS)  # 27.1 a)
    assert {u for u, w in desert_fox.items() if w == "axis-boxes/Axis Upgrade"} == {"102-trento", "ragg-102", "61-sirte", "62-mmrirca"}
    german = {"kasta", "5-pz", "stab-200", "3-aufkl", "605-pzjg", "i-18-flk", "300-oasis"}  # 26.1 C0702
    assert {u for u, w in desert_fox.items() if w == "C0702"} == german
    arrivals = {(r["turn"], u) for r in scen["27.0"][1]["reinforcements"] for u in r["units"]}
    for uid in ("17-pavia", "25-bolgna", "55-savona", "102-trn-ap", "i-sahara", "ii-sahara"):
        assert (11, uid) in arrivals, uid  # 27.1 GT 11
    for uid in ("libya-air", "7-ber", "ragg-xxi", "31-gaust"):
        assert (12, uid) in arrivals, uid  # 27.1 GT 12
    for uid in ("125-rgt", "kg-125", "382-rgt", "kg-382", "433-rgt", "kg-433", "164-aufkl", "220-art", "afrika-r"):
        assert (27, uid) in arrivals, uid  # 27.1 GT 27 (AXC-18)
    for uid in ("7-ind-bg", "11-ind-bg", "cih", "1-sa-bg", "2-sa-bg", "5-sa-bg", "3-sa-rec"):
        assert (12, uid) in arrivals, uid  # 27.2 AOI Campaign
    assert max(t for t, _ in arrivals) <= 29


TRAIL_GROUPS = [5, 4, 4, 3, 3, 3, 2, 3]  # 30.1: steps arriving of each group


def test_trail_of_the_fox_as_30_1_and_30_2_list_it():
    scen = _by_rule()
    raw = scen["30.0"][1]
    placed = _placed(raw)
    assert {u for u, w in placed.items() if w == "L2817"} >= {"san-mrco", "axis-base-3", "axis-msu-1"}
    assert sum(1 for u, w in placed.items() if w == "L2817" and u.startswith("axis-dump")) == 3
    assert placed["tunisia"] == "L2909"
    g = loaded_game(GAME.name)
    for uid in ("80-laspzia", "50-imper", "10-bers", "re-lodi", "136-137", "557-558"):
        assert g.geometry.distance("L2817", placed[uid]) <= 3, uid
    for uid in ("16-pistoia", "31-cent", "5-ber", "monfrro", "131-cel"):
        assert g.geometry.distance("S0931", placed[uid]) <= 3, uid
    assert placed["i-sahara"] == placed["ii-sahara"] == "oasis/Gadamis"
    assert Counter(w for w in placed.values() if w.startswith("axis-boxes/"))["axis-boxes/Axis Refit"] == 11
    assert Counter(w for w in placed.values() if w.startswith("axis-boxes/"))["axis-boxes/Axis Destroyed"] == 16
    groups = [r for r in raw["reinforcements"] if r.get("steps")]
    assert [r["steps"] for r in groups] == TRAIL_GROUPS
    units = {u.id: u for u in g.units}
    for r in groups:
        assert sum(units[u].steps for u in r["units"]) >= r["steps"]
    allied = {u for r in raw["reinforcements"] if r["turn"] == 33 for u in r["units"] if not u.startswith("axis-")}
    assert {"202-group", "205-group", "eighth", "201-gds", "8-arm", "23-arm", "1-tank", "1-ff", "2-ff", "remy"} == allied
    depleted = {u for r in raw["reinforcements"] if r.get("reduced") for u in r["units"]}
    assert depleted == {"ramcke", "1-ff", "2-ff", "remy"}  # 30.1, 30.2: (depleted)


def test_tunisian_campaign_moves_30_1_units_to_beurat_and_sirte():
    placed = _placed(_by_rule()["31.0"][1])
    assert all(placed[u] == "L1633" for u in ("31-cent", "5-ber", "monfrro", "131-cel"))  # 31.1
    assert placed["16-pistoia"] == "S1410"
    arrivals = {(r["turn"], u) for r in _by_rule()["31.0"][1]["reinforcements"] for u in r["units"]}
    assert {(34, u) for u in ("167-bde", "168-bde", "169-bde", "56-spt")} <= arrivals  # 31.2


def test_fox_killed_and_oconnors_war_withdrawals():
    scen = _by_rule()
    for rule in ("24.0", "25.0"):
        w = {x["turn"]: set(x["units"]) for x in scen[rule][1]["withdrawals"]}
        assert w == {8: {"5-ind-bg", "7-ind-bg", "11-ind-bg", "cih"},
                     9: {"4-nz-bg", "6-nz-bg", "16-aus-bg", "17-aus-bg", "19-aus-bg", "6-aus-cav"}}, rule


def test_reconstructed_entries_say_why():
    """Every entry a lost card supplies is marked, with a reason (README: reconstructed data)."""
    for p in SCENARIOS:
        raw = _raw(p)
        for entry in [*raw.get("units", []), *raw.get("reinforcements", [])]:
            if entry.get("provenance") == "reconstructed":
                assert entry.get("reason"), (p.name, entry)
    for rule in ("28.0", "29.0", "32.0", "33.0"):
        raw = _by_rule()[rule][1]
        assert raw.get("provenance") == "reconstructed" and raw.get("reason"), rule


# ---- the module: piece counts and places -------------------------------------------------
def _expected_pieces(raw: dict, units_raw: dict, tracks: dict) -> list[tuple[str, str, str, int]]:
    """(ref, kind, location name, Step level) the card asks for, from the plain YAML."""
    out = []
    for f in raw.get("formations", []):
        out += [(u["id"], "unit", f["hex"], 1) for u in units_raw["units"] if u["formation"] == f["formation"]]

    def where(item):
        if item.get("hex"):
            return item["hex"]
        return tracks[item["track"]].format(box=item["box"])

    for u in raw.get("units", []):
        out.append((u["unit"], "unit", where(u), 2 if u.get("reduced") else 1))
    for r in raw.get("reinforcements", []):
        out += [(uid, "unit", f"GT {r['turn']}", 2 if r.get("reduced") else 1) for uid in r["units"]]
    for m in raw.get("markers", []):
        out.append((m["marker"], "marker", where(m), 0))
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_piece_of_the_card_is_saved_on_its_hex_or_box(path, saved):
    g = loaded_game(GAME.name)
    units_raw = _raw(GAME / "units.yaml")
    tracks = {t["id"]: t["zone_format"].replace("{track}", t["name"]) for t in _raw(GAME / "map.yaml")["tracks"]}
    raw = _raw(path)
    expected = _expected_pieces(raw, units_raw, tracks)
    got = saved[path.stem]
    assert len(got) == len(expected)  # the piece count
    canon = getattr(g.geometry, "canonical", lambda h: h)  # S0734 is shown as C0701 (2.1, S34 = C01)
    want = Counter((ref, kind, canon(loc)) for ref, kind, loc, _ in expected)
    have = Counter((ref, kind, loc) for ref, kind, loc, _ in got)
    assert have == want
    # every piece lies on a hex of the map or in a box: none off the board or between zones
    zones = {fmt.format(box=b) for t in _raw(GAME / "map.yaml")["tracks"] for b in t["boxes"]
             for fmt in [tracks[t["id"]]]}
    assert all(loc in g.geometry or loc in zones for _, _, loc, _ in got)
    # reduced pieces show their reduced face
    reduced = Counter(ref for ref, kind, _, level in expected if kind == "unit" and level == 2)
    assert Counter(ref for ref, kind, _, level in got if kind == "unit" and level == 2) == reduced


def test_piece_counts_of_the_ten_scenarios(saved):
    """Units on the map, in boxes and waiting on the turn track, and markers, per scenario."""
    counts = {sid: len(pieces) for sid, pieces in saved.items()}
    for sid, raw in _by_rule().values():
        n = len(raw.get("units", [])) + sum(len(r["units"]) for r in raw.get("reinforcements", [])) + len(raw.get("markers", []))
        assert counts[sid] == n, sid
    assert len(counts) == 10 and min(counts.values()) > 40


def test_help_lists_the_reconstructed_set_up_entries(module_zip):
    page = module_zip.read("help/reconstructed.html").decode()
    reasons = {e["reason"] for p in SCENARIOS for e in [*_raw(p).get("units", []), *_raw(p).get("reinforcements", [])]
               if e.get("provenance") == "reconstructed"}
    assert reasons and all(r.replace("'", "&#x27;").replace('"', "&quot;") in page for r in reasons)


# ---- bad input: one clear line, no traceback ----------------------------------------------
def _broken(tmp_path: Path, name: str, old: str, new: str) -> list[str]:
    src = tmp_path / GAME.name
    shutil.copytree(GAME, src)
    path = src / "scenarios" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        load_game(src)
    return [str(p) for p in exc.value.problems]


def test_an_unknown_initiative_side_is_a_problem(tmp_path):
    problems = _broken(tmp_path, "desert-fox.yaml", "initiative: axis", "initiative: axsi")
    assert any("unknown side 'axsi'" in p and "desert-fox.yaml" in p for p in problems)


def test_more_arriving_steps_than_the_group_has_is_a_problem(tmp_path):
    problems = _broken(tmp_path, "trail-of-the-fox.yaml", "steps: 5,", "steps: 40,")
    assert any("40 steps arrive, but the units have" in p for p in problems)


def test_a_one_step_unit_cannot_arrive_depleted(tmp_path):
    problems = _broken(tmp_path, "trail-of-the-fox.yaml", "units: [1-ff, 2-ff, remy]", "units: [1-ff, 2-ff, remy, chad]")
    assert any("chad has one step" in p for p in problems)


def test_a_victory_hex_off_the_map_is_a_problem(tmp_path):
    problems = _broken(tmp_path, "run-for-tunis.yaml", "hexes: [T6017]", "hexes: [T9917]")
    assert any("T9917" in p and "not on the map" in p for p in problems)


def test_a_garrison_stands_in_the_place_it_is_named_for():
    """15.8: a garrison holds its town; every card that sets one up on the map puts it in the hex
    the map names for its town (the Giarabub 2L garrison, printed at W2002 next to Sollum, is read
    as standing at Giarabub: digest 11.16, the scenario files' `reason`)."""
    game = load_game(GAME, plain=True)
    place = {p.name: p.hex for p in game.map.places}
    garrisons = {u.id: u.short for u in game.units if u.type == "garrison"}
    checked = 0
    for path in SCENARIOS:
        for u in _raw(path).get("units", []):
            town = garrisons.get(u["unit"])
            if town in place and u.get("hex"):
                assert u["hex"] == place[town], (path.name, u["unit"], u["hex"], town, place[town])
                checked += 1
    assert checked >= 20  # Tobruk, Barce, Bardia, Benghazi, Giarabub twice and Jalo on the cards that have them
