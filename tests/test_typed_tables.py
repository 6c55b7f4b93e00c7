"""Typed tables (issue 29): a table says what it is (`kind:`), and the tables every game has
share one shape (schema.TABLES), which the loader checks at file:line and the readers find by
kind, whatever the file is called."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.model import SourceError, load_game
from builder.model import schema as s
from builder.model.json_schema import schema_files
from builder.paths import ROOT, games

SOURCES = ROOT / "sources"


@pytest.mark.parametrize("slug", games())
def test_every_games_tables_of_a_kind_have_its_shape(slug):
    game = load_game(SOURCES / slug)
    kinds = {t.kind for t in game.tables.values() if t.kind}
    assert "sequence" in kinds
    # Bravery in the Sand: unlimited stacking (6.3), and its costs are terrain.yaml's (no chart)
    assert ("stacking" in kinds) == ("terrain-effects" in kinds) == (slug != "bravery-in-the-sand")
    for name, t in game.tables.items():
        if t.kind:
            assert isinstance(t.typed, s.TABLE_DATA[t.kind]), name
            assert game.table(t.kind) is t and game.table_name(t.kind) == name
        else:
            assert t.typed is None
    assert [p.name for p in game.table("sequence").typed.phases] == [p["name"] for p in game.table("sequence").data["phases"]]


def test_a_table_is_found_by_its_kind_not_its_file_name(tmp_path: Path):
    game_dir = tmp_path / "sources" / "western-desert-force"
    shutil.copytree(SOURCES / "western-desert-force", game_dir)
    (game_dir / "tables" / "stacking.yaml").rename(game_dir / "tables" / "points-a-hex.yaml")
    game_yaml = game_dir / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("table: stacking}", "table: points-a-hex}"))
    game = load_game(game_dir)
    assert game.table_name("stacking") == "points-a-hex" and game.table("stacking").typed.stacking.limit == 4


def test_the_set_up_checks_read_the_terrain_chart_by_its_kind(tmp_path: Path):
    """Western Desert Force 11.1: only recon enters the Qattara Depression, whatever the chart's file is called."""
    game_dir = tmp_path / "sources" / "western-desert-force"
    shutil.copytree(SOURCES / "western-desert-force", game_dir)
    (game_dir / "tables" / "terrain-effects.yaml").rename(game_dir / "tables" / "tec.yaml")
    game_yaml = game_dir / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("table: terrain-effects}", "table: tec}"))
    card = game_dir / "scenarios" / "campaign.yaml"
    card.write_text(card.read_text().replace('{unit: 4ind-7, hex: "5110"}', '{unit: 4ind-7, hex: "4720"}'))
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    (p,) = info.value.problems
    assert "4ind-7 may not stand in 4720: Qattara Depression is prohibited to other units (tables/tec.yaml, rule 11.1)" \
        in p.message


def test_every_chart_costs_what_its_game_reads(tmp_path: Path):
    """The one shape holds each game's costs: Desert Fox's road per class and along-track costs, Tobrouk's
    road and track rates, the kernel chart's columns (Western Desert Force, Slouch Hats)."""
    fox = load_game(SOURCES / "desert-fox-deluxe").table("terrain-effects").typed
    assert fox.connected["road"].mp == {"foot": 0.5, "motorized": 0.25, "mechanized": 1}
    assert fox.hex["sand-sea"].mp["mechanized"] == "along-track" and fox.hex["desert"].track == 1
    assert fox.movement_classes["mechanized"] == ["mechanized"]
    tob = load_game(SOURCES / "tobrouk-41-42").table("terrain-effects").typed
    assert tob.connected["road"].mp["motorised"] == 0.25 and tob.hexside["cliff"].prohibited
    assert set(tob.hex) == {"clear", "difficult", "hamlet", "city"}  # road and track are rates, not terrain
    for slug in ("western-desert-force", "slouch-hats-and-eggshells"):
        from validators.kernel.movement import TerrainChart

        game = load_game(SOURCES / slug)
        chart = TerrainChart(game)
        assert chart.classes == game.table("terrain-effects").typed.movement_classes


def test_two_tables_of_one_kind_are_one_problem(tmp_path: Path):
    game_dir = tmp_path / "sources" / "western-desert-force"
    shutil.copytree(SOURCES / "western-desert-force", game_dir)
    shutil.copy(game_dir / "tables" / "stacking.yaml", game_dir / "tables" / "stacking-again.yaml")
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    (p,) = info.value.problems
    assert p.file.endswith("tables/stacking.yaml") and p.line == 4
    assert "a second table of kind 'stacking': tables/stacking-again.yaml is one" in p.message


@pytest.mark.parametrize("old, new, line, fragment", [
    ("    limit: 4\n", "    limit: four\n", 13, "limit: 'four' is not a whole number"),
    ("      - {nationality: italian, size: XX, sp: 2}\n", "      - {nationality: italian, size: XX}\n", 16,
     "give the points as 'sp' (a unit) or 'sp_per_step'"),
    ("  stacking:\n", "  stackng:\n", 12, "unknown key 'stackng'"),
])
def test_a_malformed_stacking_table_is_one_problem_at_its_line(tmp_path: Path, old, new, line, fragment):
    """Not a traceback, nor a set-up check tripping over it: the table's own line and the fix."""
    game_dir = tmp_path / "sources" / "western-desert-force"
    shutil.copytree(SOURCES / "western-desert-force", game_dir)
    path = game_dir / "tables" / "stacking.yaml"
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    problems = info.value.problems
    assert [(p.file, p.line) for p in problems][:1] == [("sources/western-desert-force/tables/stacking.yaml", line)]
    assert fragment in problems[0].message  # the message names the fix (a hint where it is a key or a type)
    assert all(p.file.endswith("tables/stacking.yaml") for p in problems), problems


def test_the_json_schema_holds_each_kinds_shape():
    import json

    table = json.loads(schema_files()["table.schema.json"])
    branches = table["allOf"][0]["anyOf"]
    assert [b["properties"]["kind"].get("const") for b in branches] == [*s.TABLES, None]
    for kind, branch in zip(s.TABLES, branches):
        ref = branch["properties"]["data"]["$ref"].rsplit("/", 1)[-1]
        assert ref == s.TABLE_DATA[kind].__name__ and ref in table["$defs"]


def test_a_chart_in_an_old_shape_is_one_problem_with_the_fix(tmp_path: Path):
    """Desert Fox's hexsides once said `add:`; the one shape says `mp:`, and the loader says so at the line."""
    game_dir = tmp_path / "sources" / "desert-fox-deluxe"
    shutil.copytree(SOURCES / "desert-fox-deluxe", game_dir)
    path = game_dir / "tables" / "terrain-effects.yaml"
    text = path.read_text()
    old = "    wadi: {mp: 2, along_track: 1}\n"
    assert text.count(old) == 1
    path.write_text(text.replace(old, "    wadi: {add: 2, along_track: 1}\n"))
    line = text[: text.index(old)].count("\n") + 1
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    (p,) = info.value.problems
    assert (p.file, p.line) == ("sources/desert-fox-deluxe/tables/terrain-effects.yaml", line)
    assert "unknown key 'add'" in p.message and p.hint


@pytest.mark.parametrize("old, new, fragment", [
    ('road: {mp: "1/3", rule: "11.1"}', 'road: {mp: "a third", rule: "11.1"}', "mp: 'a third' is not an MP cost"),
    ("rough: {mp: {mot: 2, other: 1}", "rough: {mp: {mot: two, other: 1}", "'two' is not an MP cost"),
    ("ridge: {mp: {mot: 2, other: 1}", "ridge: {mp: {mot: 2, other: one}", "mp: column 'other': 'one' is not an MP cost"),
])
def test_a_wrong_cost_is_one_problem_saying_what_to_write(tmp_path: Path, old, new, fragment):
    """A cost may be a number, a fraction or one per column: a wrong one is one problem, not one per reading."""
    game_dir = tmp_path / "sources" / "western-desert-force"
    shutil.copytree(SOURCES / "western-desert-force", game_dir)
    path = game_dir / "tables" / "terrain-effects.yaml"
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    (p,) = info.value.problems
    assert p.file.endswith("tables/terrain-effects.yaml") and p.line == text[: text.index(old)].count("\n") + 1
    assert fragment in p.message and "a fraction in quotes ('1/3')" in p.message
