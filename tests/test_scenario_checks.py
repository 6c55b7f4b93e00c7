"""Scenario set-ups checked as the rules do (builder/model/scenario_checks.py).

Each case copies a game's real sources into a temporary root, changes one entry of its set-up
card with a single text replacement (as tests/test_broken_sources.py does) and checks the
problem `load_game` reports: its message, and the file:line of the changed entry.  The cases
that must load are the rules' own allowances (unlimited stacking in Bravery in the Sand 6.3,
the free battalion of Western Desert Force 9.2, reinforcements overstacking on their entry hex
7.7, a withdrawn unit returning, a hex the card lists as contested).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.cli import app
from builder.model import SourceError, SourceProblem, load_game
from builder.model.stacking import StackingTable

REPO = Path(__file__).resolve().parent.parent / "sources"
BITS, WDF = "bravery-in-the-sand", "western-desert-force"
CARD = "scenarios/campaign.yaml"


def copy(tmp_path: Path, slug: str) -> Path:
    dest = tmp_path / "sources" / slug
    shutil.copytree(REPO / slug, dest)
    return dest


@pytest.fixture
def bits(tmp_path: Path) -> Path:
    return copy(tmp_path, BITS)


@pytest.fixture
def wdf(tmp_path: Path) -> Path:
    return copy(tmp_path, WDF)


def edit(game_dir: Path, old: str, new: str, rel: str = CARD, at: str | None = None) -> int:
    """Replace the one `old` in `rel` by `new`; the line of `at` (default: of `new`) in the result."""
    path = game_dir / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {rel}"
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    at = new if at is None else at
    assert text.count(at) == 1, f"{at!r} occurs {text.count(at)} times in the changed {rel}"
    return text[: text.index(at)].count("\n") + 1


def problems(game_dir: Path) -> list[SourceProblem]:
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    return info.value.problems


def only(game_dir: Path, line: int, fragment: str, rel: str = CARD) -> SourceProblem:
    """The single problem of the sources: in `rel` at `line`, its message containing `fragment`."""
    found = problems(game_dir)
    listing = "\n".join(map(str, found))
    assert len(found) == 1, listing
    p = found[0]
    assert p.file == f"sources/{game_dir.name}/{rel}", listing
    assert p.line == line and p.column >= 1 and fragment in p.message, listing
    assert str(p).startswith(f"{p.file}:{line}:{p.column}: ")
    assert p.hint, "every scenario problem carries a hint"
    return p


def test_the_real_set_ups_pass(bits: Path, wdf: Path):
    assert load_game(bits).slug == BITS and load_game(wdf).slug == WDF


# ---- prohibited terrain ------------------------------------------------------------------------
def test_a_division_set_up_at_sea(bits: Path):
    line = edit(bits, '{formation: 15PZ, hex: "0608"}', '{formation: 15PZ, hex: "0707"}')
    p = only(bits, line, "may not stand in 0707: Sea is prohibited terrain (terrain.yaml, rule 2.2)")
    assert p.message.startswith("15pz-")  # names the division's units
    assert p.hint.startswith("the nearest hexes where they may stand: ")
    game = load_game(REPO / BITS)
    near = p.hint.split(": ", 1)[1].split(", ")
    assert near and all(game.hex_terrain[h] != "sea" for h in near)


def test_a_unit_set_up_at_sea(wdf: Path):
    line = edit(wdf, '{unit: 60sab, hex: "2806"}', '{unit: 60sab, hex: "1005"}')
    only(wdf, line, "60sab may not stand in 1005: Sea is prohibited terrain (terrain.yaml, rule 2.0)")


def test_the_terrain_chart_keeps_infantry_out_of_the_qattara_depression(wdf: Path):
    # 11.1: only recon units enter the Qattara Depression (tables/terrain-effects.yaml).
    line = edit(wdf, '{unit: 4ind-7, hex: "5110"}', '{unit: 4ind-7, hex: "4720"}')
    only(wdf, line, "4ind-7 may not stand in 4720: Qattara Depression is prohibited to other units "
                    "(tables/terrain-effects.yaml, rule 11.1)")


def test_a_recon_unit_may_start_in_the_qattara_depression(wdf: Path):
    edit(wdf, '{unit: 11h, hex: "4612"}', '{unit: 11h, hex: "4720"}')
    assert load_game(wdf)


def test_a_leader_takes_the_motorized_costs_of_the_chart(wdf: Path):
    # unit-classes.yaml `leader`: the motorized class, which has no Qattara cost (13.4, 11.1).
    line = edit(wdf, '{unit: oconnor, hex: "4612"}', '{unit: oconnor, hex: "4720"}')
    only(wdf, line, "oconnor may not stand in 4720: Qattara Depression is prohibited to mot units")


def test_reinforcements_entering_at_sea(wdf: Path):
    line = edit(wdf, '{turn: 8, hex: "1019", units: [25bol]}', '{turn: 8, hex: "1018", units: [25bol]}')
    only(wdf, line, "25bol may not stand in 1018: Sea is prohibited terrain")


def test_reinforcements_entering_off_the_map(wdf: Path):
    line = edit(wdf, '{turn: 8, hex: "1019", units: [25bol]}', '{turn: 8, hex: "0919", units: [25bol]}')
    only(wdf, line, "hex '0919' is not on the map")


# ---- stacking ----------------------------------------------------------------------------------
def test_over_the_stacking_limit_at_set_up(wdf: Path):
    # Bardia holds two Italian divisions (2 + 2 points); a third makes 6 > 4 (9.2, 3.0).
    line = edit(wdf, '{unit: 61sir, hex: "3408"}', '{unit: 61sir, hex: "4009"}')
    p = only(wdf, line, "4009 holds 6 stacking points of Axis units at set-up > 4 "
                        "(tables/stacking.yaml, rule 9.2): 1ccnn 2, 2ccnn 2, 61sir 2")
    assert "1 unit(s) with size II stack free" in p.message


def test_the_free_battalion_and_the_entry_that_breaks_the_limit(wdf: Path):
    # 4612: three brigades and the 11h battalion (free) = 3 points; the 7rtr battalion is the
    # second one, so it counts: 4 points, still legal.
    line = edit(wdf, '{unit: 7rtr, hex: "4611"}', '{unit: 7rtr, hex: "4612"}')
    assert load_game(wdf)
    # One more brigade (its entry comes before 7rtr's in the card): 5 points, reported at the
    # entry that takes the hex over the limit in the order of the card, 7rtr's.
    edit(wdf, '{unit: 4ind-5, hex: "4611"}', '{unit: 4ind-5, hex: "4612"}')
    p = only(wdf, line, "4612 holds 5 stacking points of Allied units at set-up > 4")
    # the count is the auditor's: the same StackingTable over the same unit attributes
    game = load_game(REPO / WDF)
    units = {u.id: u for u in game.units}
    table = StackingTable.from_data(game.table("stacking").data["stacking"])
    attrs = [{"nationality": game.formations[units[u].formation].nationality, "size": units[u].size,
              "type": units[u].type, "formation": units[u].formation}
             for u in ("7a-4arm", "7a-7arm", "7a-7sg", "11h", "7rtr", "4ind-5")]
    assert table.total(attrs) == 5 and "4ind-5 1" in p.message


def test_no_stacking_limit_where_the_rules_have_none(bits: Path):
    # Bravery in the Sand 6.3: unlimited stacking; four divisions in one hex is a legal set-up.
    for f, h in (("21PZ", "0510"), ("90LT", "0805"), ("TRN", "0903")):
        edit(bits, f'{{formation: {f}, hex: "{h}"}}', f'{{formation: {f}, hex: "0608"}}')
    assert load_game(bits)


def test_reinforcements_may_overstack_their_entry_hex(wdf: Path):
    # 7.7: the Axis Turn 5 arrival at 1019 is 15pz-15k 1, 15pz-33rec 1 (II), 17pav 2, 102trn 2:
    # 5 points with the battalion free, legal on the entry hex.
    assert load_game(wdf)
    # Without the table's 7.7 exemption the same arrival is over the limit.
    edit(wdf, '  reinforcement_overstack: {rule: "7.7"}\n', "", rel="tables/stacking.yaml", at="  stacking:\n")
    found = problems(wdf)
    listing = "\n".join(map(str, found))
    assert all("stacking points" in p.message and "on arriving on turn" in p.message for p in found), listing
    card = (wdf / CARD).read_text().split("\n")
    line = next(i for i, text in enumerate(card, 1) if text.startswith('  - {turn: 5, hex: "1019"'))
    p = next((p for p in found if p.line == line), None)
    assert p is not None, listing
    assert p.message.startswith("1019 holds 5 stacking points of Axis units on arriving on turn 5 > 4"), listing
    assert "17pav 2, 102trn 2" in p.message


def test_a_malformed_stacking_table_is_one_problem_at_its_line(wdf: Path):
    # The stacking table has one shape in every game (schema.StackingData): a misspelt key is
    # named at its line, with the fix, before any set-up is checked against it.
    line = edit(wdf, "    limit: 4\n", "    limt: 4\n", rel="tables/stacking.yaml")
    p = only(wdf, line, "unknown key 'limt'", rel="tables/stacking.yaml")
    assert "limit" in p.hint


# ---- units of both sides in one hex ------------------------------------------------------------
def test_both_sides_in_one_hex_at_set_up(bits: Path):
    line = edit(bits, '{formation: 7A, hex: "0505"}', '{formation: 7A, hex: "0608"}')
    first = (bits / CARD).read_text().split("\n").index('  - {formation: 15PZ, hex: "0608"}       # around Gambut') + 1
    p = only(bits, line, "0608 holds units of both sides at set-up: Commonwealth 7a-")
    assert "with Axis 15pz-" in p.message and p.message.endswith(f"(line {first})")
    assert "contested_hexes" in p.hint


def test_a_hex_the_card_lists_as_contested(bits: Path):
    edit(bits, '{formation: 7A, hex: "0505"}', '{formation: 7A, hex: "0608"}')
    edit(bits, "chits_to_owner: true\n", 'chits_to_owner: true\ncontested_hexes: ["0608"]\n')
    assert load_game(bits).scenarios["campaign"].contested_hexes == ["0608"]


def test_a_contested_hex_with_one_side_only(bits: Path):
    line = edit(bits, "chits_to_owner: true\n", 'chits_to_owner: true\ncontested_hexes: ["0505"]\n',
                at="contested_hexes")
    only(bits, line, "contested hex 0505 holds units of one side only")


def test_a_contested_hex_off_the_map(bits: Path):
    line = edit(bits, "chits_to_owner: true\n", 'chits_to_owner: true\ncontested_hexes: ["0599"]\n',
                at="contested_hexes")
    only(bits, line, "hex '0599' is not on the map")


def test_both_sides_arriving_on_one_hex(wdf: Path):
    line = edit(wdf, '{turn: 8, hex: "1019", units: [25bol]}', '{turn: 3, hex: "6508", units: [25bol]}')
    only(wdf, line, "6508 holds units of both sides on turn 3: Axis 25bol with Allied 2a-3arm, 2a-2sg, kdg")


# ---- a piece placed once -------------------------------------------------------------------------
def test_a_division_placed_twice(bits: Path):
    line = edit(bits, '  - {formation: 21PZ, hex: "0510"}', '  - {formation: 21PZ, hex: "0510"}\n  - {formation: 21PZ, hex: "0509"}',
                at='{formation: 21PZ, hex: "0509"}')
    p = only(bits, line, "placed twice: already by the entry at line")
    assert p.message.startswith("21pz-") and p.message.endswith(f"line {line - 1}")


def test_a_withdrawn_unit_may_return_but_not_arrive_twice(wdf: Path):
    # O'Connor is set up and withdrawn on Turn 21 (13.7).
    edit(wdf, '{turn: 23, hex: "6508", units: [10a-24arm]}', '{turn: 23, hex: "6508", units: [10a-24arm, oconnor]}')
    assert load_game(wdf)
    line = edit(wdf, '{turn: 20, hex: "6508", units: [23arm]}', '{turn: 20, hex: "6508", units: [23arm, oconnor]}')
    only(wdf, line, "oconnor placed twice: already by the entry at line")


# ---- the command line ----------------------------------------------------------------------------
def test_check_lists_every_scenario_problem_at_once(tmp_path: Path, bits: Path, monkeypatch: pytest.MonkeyPatch):
    sea = edit(bits, '{formation: 15PZ, hex: "0608"}', '{formation: 15PZ, hex: "0707"}')
    both = edit(bits, '{formation: 7A, hex: "0505"}', '{formation: 7A, hex: "0510"}')
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["check", BITS])
    assert result.exit_code == 1, result.output
    err = " ".join(result.stderr.split())
    assert f"sources/{BITS}/{CARD}:{sea}:" in err and "Sea is prohibited terrain" in err
    assert f"sources/{BITS}/{CARD}:{both}:" in err and "0510 holds units of both sides" in err
    assert "2 problem(s); nothing was written." in err


# ---- Desert Fox Deluxe: the shared stacking table with terrain limits and points per step -------
DFD, FOX = "desert-fox-deluxe", "scenarios/fox-killed.yaml"


@pytest.fixture
def dfd(tmp_path: Path) -> Path:
    return copy(tmp_path, DFD)


def test_desert_fox_a_city_takes_nine_points(dfd: Path):
    # Tobruk C2331 is a city (10.2: nine points): 64 Catanzaro (3) joins Tobruk's garrison there.
    edit(dfd, "{unit: 64-ctnzaro, hex: C2231}", "{unit: 64-ctnzaro, hex: C2331}", FOX)
    assert load_game(dfd)


def test_desert_fox_a_hex_listed_as_overstacked_must_be(dfd: Path):
    line = edit(dfd, "first_turn: 4\n", "first_turn: 4\noverstacked_hexes: [C2229]\n", FOX, at="overstacked_hexes")
    only(dfd, line, "hex C2229 is listed as overstacked but is not", FOX)


def test_desert_fox_points_come_from_the_table_in_every_games_shape():
    table = StackingTable.from_data({"limit": 6, "terrain_limits": {"city": 9}, "default_per_step": 1,
                                     "points": [{"nationality": "italian", "size": "XX", "sp": 3},
                                                {"type": "hq", "sp": 0}]})
    assert table.points_of({"nationality": "italian", "size": "XX", "steps": 2}) == 3
    assert table.points_of({"nationality": "german", "size": "III", "type": "tank", "steps": 2}) == 2
    assert table.points_of({"nationality": "german", "type": "hq", "steps": 2}) == 0
    assert (table.limit_in("city"), table.limit_in("desert"), table.limit_in(None)) == (9, 6, 6)
    assert table.over([{"steps": 2}] * 4, "desert") == 2 and table.over([{"steps": 2}] * 4, "city") == 0


# ---- every game: a unit on a prohibited hex, and an overstacked hex, at set-up ---------------------
# (Bravery in the Sand has no stacking limit, 6.3: test_no_stacking_limit_where_the_rules_have_none.)
AT_SEA = [
    (BITS, CARD, '{formation: 15PZ, hex: "0608"}', '{formation: 15PZ, hex: "0707"}',
     "may not stand in 0707: Sea is prohibited terrain (terrain.yaml, rule 2.2)"),
    (WDF, CARD, '{unit: 60sab, hex: "2806"}', '{unit: 60sab, hex: "1005"}',
     "60sab may not stand in 1005: Sea is prohibited terrain (terrain.yaml, rule 2.0)"),
    (DFD, FOX, "{unit: 4-lt-arm, hex: W2117}", "{unit: 4-lt-arm, hex: W2106}",
     "4-lt-arm may not stand in W2106: Sea is prohibited terrain"),
    ("slouch-hats-and-eggshells", "scenarios/exporter.yaml", '{unit: staffs-yeo, hex: "1925"}',
     '{unit: staffs-yeo, hex: "0100"}', "staffs-yeo may not stand in 0100: Sea is prohibited terrain (terrain.yaml, "
     "rule 10.62)"),
    ("tobrouk-41-42", "scenarios/battleaxe.yaml", '{unit: 11huss-7ar, hex: "0726"}', '{unit: 11huss-7ar, hex: "1229"}',
     "11huss-7ar may not stand in 1229: Sea is prohibited terrain"),
]
OVERSTACKED = [
    # Bardia holds two Italian divisions (2 + 2 points); a third makes 6 > 4 (9.2, 3.0).
    (WDF, CARD, '{unit: 61sir, hex: "3408"}', '{unit: 61sir, hex: "4009"}',
     "4009 holds 6 stacking points of Axis units at set-up > 4 (tables/stacking.yaml, rule 9.2): 1ccnn 2, 2ccnn 2, "
     "61sir 2"),
    # 62 Marmarica and 63 Cirene hold C2330 (3 + 3: 15.10 counts a division 3, even reduced); 64 Catanzaro: 9 > 6.
    (DFD, FOX, "{unit: 64-ctnzaro, hex: C2231}", "{unit: 64-ctnzaro, hex: C2330}",
     "C2330 holds 9 stacking points of Axis units at set-up > 6 (tables/stacking.yaml, rule 10.2): 62-mmrirca 3, "
     "63-cirene 3, 64-ctnzaro 3"),
    # 3.32: 7 points a hex; 25/7 Australian Brigade (3) joins 21/7 (3) and two 1-point units at Acre.
    ("slouch-hats-and-eggshells", "scenarios/exporter.yaml", '{unit: 25-7a, hex: "1824"}', '{unit: 25-7a, hex: "1526"}',
     "1526 holds 8 stacking points of Allied units at set-up > 7 (tables/stacking.yaml, rule 3.32): 21-7a 3, "
     "6cav-a 1, 2-4fd-a 1, 25-7a 3"),
    # 7.1: 1030 holds 4th Indian's 11 Bde, its recce and 22 Guards; the 11th Hussars make four units,
    # more than any combination has slots.
    ("tobrouk-41-42", "scenarios/battleaxe.yaml", '{unit: 11huss-7ar, hex: "0726"}', '{unit: 11huss-7ar, hex: "1030"}',
     "1030 holds 11-4ind, recce-4ind, 22-grd, 11huss-7ar of Commonwealth at set-up: no combination of "
     "tables/stacking.yaml fits (2 infantry + 1 other (other: at most 2 steps), or 1 infantry + 1 armoured + 1 other "
     "(other: at most 2 steps); never more than 1 tank)"),
]


@pytest.mark.parametrize("slug,card,old,new,fragment", AT_SEA, ids=[g[0] for g in AT_SEA])
def test_every_game_refuses_a_unit_set_up_at_sea(tmp_path: Path, slug, card, old, new, fragment):
    game_dir = copy(tmp_path, slug)
    only(game_dir, edit(game_dir, old, new, card), fragment, card)


@pytest.mark.parametrize("slug,card,old,new,fragment", OVERSTACKED, ids=[g[0] for g in OVERSTACKED])
def test_every_game_with_a_stacking_limit_refuses_an_overstacked_hex(tmp_path: Path, slug, card, old, new, fragment):
    game_dir = copy(tmp_path, slug)
    only(game_dir, edit(game_dir, old, new, card), fragment, card)


def test_stacking_combinations_fill_their_slots():
    from builder.model.stacking import StackingCombinations

    table = StackingCombinations.from_data({
        "combinations": [{"infantry": 2, "other": 1, "other_max_steps": 2},
                         {"infantry": 1, "armoured": 1, "other": 1, "other_max_steps": 2}],
        "kinds": {"infantry": {"type": ["infantry", "engineer"]}, "armoured": {"armoured": True}},
        "not_counted": ["hq"], "at_most": {"tank": 1}})
    inf, eng = {"type": "infantry", "steps": 3}, {"type": "engineer", "steps": 1}
    tank, small = {"type": "tank", "armoured": True, "steps": 3}, {"type": "artillery", "steps": 2}
    assert table.fits([inf, eng, small]) and table.fits([inf, tank, small]) and table.fits([tank, small])
    assert not table.fits([inf, inf, {"type": "artillery", "steps": 3}])  # the other slot takes 2 steps at most
    assert not table.fits([tank, tank]) and not table.fits([inf, inf, small, small])
    assert table.fits([inf, eng, small, {"type": "hq", "steps": 1}])  # HQs are not counted
