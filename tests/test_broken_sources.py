"""Broken source files: each problem is reported at the right file:line, and nothing is written.

Every case copies sources/bravery-in-the-sand into a temporary root, breaks one thing with a
single text replacement and checks the problem list that `load_game` raises.  The expected
line is the line where the replaced text begins in the broken file, unless the case names a
snippet of the broken file (`at`) whose line is where the problem belongs (a missing key is
reported at its parent mapping, a bad path step at the second hex of the pair, ...).
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import get_args, get_origin

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

import builder.paths
from builder.build import build_game
from builder.cli import app
from builder.model import SourceError, SourceProblem, load_game
from builder.model import schema
from builder.model.problems import did_you_mean
from builder.model.schema_words import PATTERN_WORDS
from builder.model.salvage import members

SLUG = "bravery-in-the-sand"
REPO_SOURCES = Path(__file__).resolve().parent.parent / "sources" / SLUG


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    """A private copy of the game's sources under tmp_path/sources/<slug>."""
    dest = tmp_path / "sources" / SLUG
    shutil.copytree(REPO_SOURCES, dest)
    return dest


def break_file(game_dir: Path, rel: str, old: str, new: str | bytes, at: str | None = None) -> int:
    """Replace the one occurrence of `old` in `rel` by `new`; return the expected problem line.

    That is the 1-based line where the replaced text begins in the broken file, or, with `at`,
    the line where the (unique) snippet `at` begins in the broken file.
    """
    path = game_dir / rel
    data = path.read_bytes()
    old_b = old.encode("utf-8")
    new_b = new if isinstance(new, bytes) else new.encode("utf-8")
    assert data.count(old_b) == 1, f"{old!r} occurs {data.count(old_b)} times in {rel}"
    start = data.index(old_b)
    broken = data.replace(old_b, new_b, 1)
    path.write_bytes(broken)
    if at is not None:
        at_b = at.encode("utf-8")
        assert broken.count(at_b) == 1, f"{at!r} occurs {broken.count(at_b)} times in the broken {rel}"
        start = broken.index(at_b)
    return broken[:start].count(b"\n") + 1


def problems_of(game_dir: Path) -> list[SourceProblem]:
    with pytest.raises(SourceError) as info:
        load_game(game_dir)
    problems = info.value.problems
    assert problems, "a SourceError must list at least one problem"
    assert all(isinstance(p, SourceProblem) for p in problems)
    return problems


def find(problems: list[SourceProblem], rel: str, line: int, fragment: str) -> SourceProblem:
    """The problem in `rel` at `line` whose message contains `fragment` (fails with the full list)."""
    for p in problems:
        if p.file.endswith(f"{SLUG}/{rel}") and p.line == line and fragment in p.message:
            return p
    listing = "\n".join(f"  {p}" for p in problems)
    pytest.fail(f"no problem '{fragment}' at {rel}:{line}; got:\n{listing}")


@dataclass(frozen=True)
class Case:
    id: str
    file: str
    old: str
    new: str | bytes
    fragment: str
    hint: str | None = None  # a fragment the hint must contain
    at: str | None = None  # a snippet of the broken file where the problem belongs

    def param(self):
        return pytest.param(self, id=self.id)


CASES = [
    # ---- not YAML at all -----------------------------------------------------------------
    Case("yaml-bad-indentation", "map.yaml", "  dy: 96 ", "   dy: 96 ", "invalid YAML", hint="indentation"),
    Case("yaml-unclosed-bracket", "map.yaml", "area: [20, 20, 1400, 785]", "area: [20, 20, 1400, 785",
         "expected ',' or ']'"),
    Case("yaml-duplicate-key", "units.yaml", '    short: "I/8 Pz"\n', '    short: "I/8 Pz"\n    short: "I/8"\n',
         "duplicate key 'short'", hint="each key may appear once", at='    short: "I/8"\n'),
    Case("yaml-unclosed-quote", "scenarios/campaign.yaml", "{marker: rommel, track: spare, box: Markers}",
         '{marker: rommel, track: spare, box: "Markers}', "invalid YAML", hint="close the '\"'",
         at='"Markers}'),
    Case("yaml-recursive-alias", "game.yaml", "title: Bravery in the Sand\n", "title: &t [*t]\n",
         "an alias refers to the collection that contains it"),
    Case("not-utf8", "game.yaml", "title: Bravery in the Sand\n", b"title: Bravoure dans le d\xe9sert\n", "not UTF-8",
         hint="UTF-8"),
    # ---- schema: keys, types and allowed values -----------------------------------------
    Case("unknown-key-typo", "game.yaml", "title: Bravery in the Sand\n", "titel: Bravery in the Sand\n",
         "unknown key 'titel'", hint="did you mean 'title'"),
    Case("unknown-key-over-a-block", "game.yaml", "counter:\n", "countr:\n", "unknown key 'countr'",
         hint="did you mean 'counter'"),
    Case("missing-required-key", "terrain.yaml", 'hexside_default_cost: 2        # rule 6.1.3: desert hexside\n', "",
         "missing key 'hexside_default_cost'", hint="add 'hexside_default_cost:'", at="hex_terrain:\n"),
    Case("strength-level-not-A-D", "units.yaml", 'short: "I/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: A',
         'short: "I/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: E', "'E' is not allowed",
         hint="A, B, C, D", at="level: E"),
    Case("movement-not-a-number", "units.yaml", 'short: "II/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: A\n    ma: 3',
         'short: "II/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: A\n    ma: three', "ma: 'three' is not a whole number",
         hint="whole number", at="ma: three"),
    Case("bad-colour", "terrain.yaml", '{id: desert, name: Desert, colour: "#ead9ae"',
         '{id: desert, name: Desert, colour: "#12345"', "colour: '#12345' is not a colour",
         hint="colours are #rrggbb"),
    Case("unquoted-colour-is-a-comment", "map.yaml", '  background: "#f4ecd8"', "  background: #f4ecd8",
         "an unquoted '#' starts a YAML comment",
         hint="colours are #rrggbb, quoted"),
    # YAML reads an unquoted 0605 as the octal number 389, and 1205 as 1205: the message quotes
    # what the file says, not the number.
    Case("unquoted-octal-hex-id", "scenarios/campaign.yaml", '{marker: control, hex: "0605", face: 1}',
         "{marker: control, hex: 0605, face: 1}", "0605 is read as a number", hint="quote hex ids: '0605'"),
    Case("unquoted-hex-id-in-a-list", "map-terrain.yaml", "  - '0414'\n", "  - 1205\n", "1205 is read as a number",
         hint="quote hex ids: '1205'"),
    Case("unquoted-number-as-a-name", "game.yaml", "title: Bravery in the Sand\n", "title: 1941\n",
         "1941 is read as a number", hint="quote text values: '1941'"),
    Case("bad-hex-id-pattern", "scenarios/campaign.yaml", '{formation: 15PZ, hex: "0608"}',
         '{formation: 15PZ, hex: "06/08"}', "'06/08' is not a hex id", hint="hex ids are"),
    Case("reconstructed-without-reason", "map.yaml",
         "exit: true, provenance: reconstructed, reason: the coast road leaves the map east of Halfaya Pass}",
         "exit: true, provenance: reconstructed}", "needs a one-line 'reason'", at='{hex: "0314"'),
    Case("marker-face-out-of-range", "scenarios/campaign.yaml", "{marker: rommel, track: spare, box: Markers}",
         "{marker: rommel, track: spare, box: Markers, face: 3}", "face: 3 is more than 2",
         hint="from 1 to 2"),
    # ---- references between files ---------------------------------------------------------
    Case("unit-formation-typo", "units.yaml", 'short: "I/8 Pz"\n    formation: "15PZ"',
         'short: "I/8 Pz"\n    formation: "15PX"', "unknown formation '15PX'", hint="did you mean '15PZ'",
         at='formation: "15PX"'),
    Case("duplicate-unit-id", "units.yaml", "- id: 15pz-8pz-2", "- id: 15pz-8pz-1", "duplicate unit id '15pz-8pz-1'"),
    Case("scenario-hex-off-map", "scenarios/campaign.yaml", '{formation: 15PZ, hex: "0608"}',
         '{formation: 15PZ, hex: "0999"}', "hex '0999' is not on the map"),
    Case("scenario-unknown-formation", "scenarios/campaign.yaml", "{formation: 21PZ,", "{formation: 21PX,",
         "unknown formation '21PX'", hint="did you mean '21PZ'"),
    Case("scenario-unknown-unit", "scenarios/campaign.yaml", "markers:\n  # rule 3: Commonwealth control",
         'units:\n  - {unit: 15pz-115sx, hex: "0608"}\nmarkers:\n  # rule 3: Commonwealth control',
         "unknown unit '15pz-115sx'", hint="did you mean '15pz-115sr'", at="{unit: 15pz-115sx"),
    Case("marker-face-beyond-its-faces", "scenarios/campaign.yaml", "{marker: rommel, track: spare, box: Markers}",
         "{marker: rommel, track: spare, box: Markers, face: 2}", "marker rommel has 1 face(s)",
         hint="use face 1, its only face"),
    Case("place-unknown-terrain", "map.yaml", '{hex: "0904", name: Tobruk, terrain: fort,',
         '{hex: "0904", name: Tobruk, terrain: frot,', "unknown terrain 'frot'", hint="did you mean 'fort'"),
    Case("road-path-not-adjacent", "map-terrain.yaml", "- '0802'", "- '0302'", "0801 and 0302 are not adjacent"),
    Case("map-terrain-unknown-terrain-key", "map-terrain.yaml", "  sea:\n", "  sae:\n", "unknown terrain 'sae'",
         hint="did you mean 'sea'"),
    Case("hexside-run-not-a-hexside", "map-terrain.yaml", "- '0605/0705'\n    - '0606/0705'\n  - name: Sidi Rezegh escarpment (northern)",
         "- '0605/0709'\n    - '0606/0705'\n  - name: Sidi Rezegh escarpment (northern)", "0605/0709 is not a hexside"),
    Case("formation-unknown-nationality", "units.yaml", '- id: "15PZ"\n    name: "15th Panzer Division"\n    nationality: german',
         '- id: "15PZ"\n    name: "15th Panzer Division"\n    nationality: germn', "unknown nationality 'germn'",
         hint="did you mean 'german'", at="nationality: germn"),
    Case("nationality-unknown-side", "game.yaml", "{id: italian, name: Italian, side: axis,",
         "{id: italian, name: Italian, side: axsi,", "unknown side 'axsi'", hint="did you mean 'axis'"),
    Case("dice-unknown-side", "game.yaml", "{name: Axis 1d6, side: axis,", "{name: Axis 1d6, side: axes,",
         "unknown side 'axes'", hint="did you mean 'axis'"),
    Case("chart-unknown-table", "game.yaml", "{name: Combat Summary, table: combat}",
         "{name: Combat Summary, table: combt}", "no table 'combt' in tables/", hint="did you mean 'combat'"),
    Case("grid-area-holds-no-hex", "map.yaml", "area: [20, 20, 1400, 785]", "area: [20, 20, 40, 40]",
         "no hex lies inside the grid area", hint="enlarge 'area'"),
    Case("track-caption-unknown-box", "map.yaml", '"14": "Turn 7 / Ext."', '"15": "Turn 7 / Ext."',
         "no box '15' on track activation", hint="did you mean"),
    Case("scenario-unknown-track", "scenarios/campaign.yaml", "{marker: game-turn, track: turn, box: \"1\"}",
         "{marker: game-turn, track: trun, box: \"1\"}", "unknown track 'trun'", hint="did you mean 'turn'"),
    Case("scenario-unknown-box", "scenarios/campaign.yaml", "{marker: game-turn, track: turn, box: \"1\"}",
         "{marker: game-turn, track: turn, box: \"0\"}", "no box '0' on track turn"),
    Case("chit-unknown-nationality", "markers.yaml", "    nationality: german\n    stripe: \"#f0c419\"",
         "    nationality: germam\n    stripe: \"#f0c419\"", "unknown nationality 'germam'",
         hint="did you mean 'german'", at="nationality: germam"),
    Case("wrong-type-boolean", "map.yaml", "  sideways: true\n", "  sideways: maybe\n", "sideways: 'maybe' is not true or false",
         hint="true or false"),
    Case("scenario-wrong-type", "scenarios/campaign.yaml", "first_turn: 1", "first_turn: one", "first_turn: 'one' is not a whole number",
         hint="whole number"),
    # ---- a table of a known kind: its data has the kind's one shape (schema.SequenceData ...) ----
    Case("table-unknown-kind", "tables/sequence.yaml", "kind: sequence\n", "kind: sequense\n", "kind: 'sequense' is not allowed",
         hint="did you mean 'sequence'"),
    Case("table-phase-key-typo", "tables/sequence.yaml", '{name: Replacements, rule: "11"}', '{nme: Replacements, rule: "11"}',
         "unknown key 'nme'", hint="did you mean 'name'", at="nme"),
    Case("table-phase-player-not-first-or-second", "tables/sequence.yaml", '{name: Activations, rule: "5.2"}',
         '{name: Activations, player: third, rule: "5.2"}', "player: 'third' is not allowed", hint="first, second",
         at="third"),
]


# A pydantic path (units.1.ma, grid.sideways) where the file's own key should be.
INTERNAL_PATH = re.compile(r"\b[a-z_]+\.\d+\b|^[a-z_]+\.[a-z_]+:")


def in_words(problems: list[SourceProblem]) -> None:
    """Every message in the words of the file, every hint a whole sentence."""
    for p in problems:
        assert not INTERNAL_PATH.search(p.message), p
        assert not p.hint.rstrip().endswith("expected one of:"), p


@pytest.mark.parametrize("case", [c.param() for c in CASES])
def test_broken_source_is_reported_at_its_line(game_dir: Path, case: Case):
    line = break_file(game_dir, case.file, case.old, case.new, case.at)
    problems = problems_of(game_dir)
    problem = find(problems, case.file, line, case.fragment)
    in_words(problems)
    assert problem.file == f"sources/{SLUG}/{case.file}"
    assert problem.column >= 1
    assert str(problem).startswith(f"sources/{SLUG}/{case.file}:{line}:{problem.column}: ")
    if case.hint is not None:
        assert case.hint in problem.hint, f"hint {problem.hint!r} lacks {case.hint!r}"


def test_missing_source_file_is_reported_at_its_first_line(game_dir: Path):
    (game_dir / "markers.yaml").unlink()
    problem = find(problems_of(game_dir), "markers.yaml", 1, "missing source file")
    assert (problem.line, problem.column) == (1, 1)
    assert str(problem).startswith(f"sources/{SLUG}/markers.yaml:1:1: missing source file")


def test_no_tables_folder_says_what_to_add_not_an_empty_list(game_dir: Path):
    shutil.rmtree(game_dir / "tables")
    problems = problems_of(game_dir)
    line = (game_dir / "game.yaml").read_text("utf-8").splitlines().index("  - {name: Combat Summary, table: combat}") + 1
    problem = find(problems, "game.yaml", line, "no table 'combat' in tables/")
    assert "add tables/combat.yaml" in problem.hint
    assert not [p for p in problems if p.hint.rstrip().endswith(("expected one of:", "expected one of: "))]


def test_a_hint_never_lists_nothing():
    assert did_you_mean("x", []) and "expected one of" not in did_you_mean("x", [])
    assert did_you_mean("x", [], "add one") == "add one"
    assert did_you_mean("combt", ["combat"]) == "did you mean 'combat'?"
    assert did_you_mean("zz", ["a", "b"]) == "expected one of: a, b"


def _patterns(kind, seen: set) -> set[str]:
    found = set()
    for m in members(kind):
        if isinstance(getattr(m, "pattern", None), str):
            found.add(m.pattern)
        if isinstance(m, type) and issubclass(m, BaseModel) and m not in seen:
            seen.add(m)
            for f in m.model_fields.values():
                found |= _patterns(f.annotation, seen) | {p for x in f.metadata for p in _patterns(x, seen)}
        if get_origin(m) in (list, dict, tuple):
            found |= {p for a in get_args(m) for p in _patterns(a, seen)}
    return found


def test_every_pattern_of_the_schema_is_said_in_words():
    # A value that breaks a pattern is told what it should look like, never shown the regex.
    seen: set = set()
    patterns = {p for model in vars(schema).values() if isinstance(model, type) and issubclass(model, BaseModel)
                for p in _patterns(model, seen)}
    assert len(patterns) >= 10
    assert sorted(patterns - set(PATTERN_WORDS)) == []


def test_the_unchanged_sources_load(game_dir: Path):
    """The baseline: without a mutation the copy loads, so every failure above is the mutation's."""
    game = load_game(game_dir)
    assert game.slug == SLUG


# ---- the command line ------------------------------------------------------------------------
@pytest.fixture
def cli_root(tmp_path: Path, game_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    return tmp_path


def _stderr(result) -> str:
    # typer >= 0.15 (and click >= 8.2) keep stderr apart from stdout; `output` mixes both.
    return result.stderr


def _flat(text: str) -> str:
    # Tolerate the console wrapping a long message over several lines.
    return " ".join(text.split())


def test_problems_in_several_files_are_all_reported_at_once(cli_root: Path, game_dir: Path):
    # Both are cross-file problems, found in the same pass (schema problems stop the loader
    # before the cross-file checks, whose input they would make meaningless).
    units_line = break_file(game_dir, "units.yaml", 'short: "I/8 Pz"\n    formation: "15PZ"',
                            'short: "I/8 Pz"\n    formation: "15PX"', at='formation: "15PX"')
    scenario_line = break_file(game_dir, "scenarios/campaign.yaml", '{formation: 15PZ, hex: "0608"}',
                               '{formation: 15PZ, hex: "0999"}')

    problems = problems_of(game_dir)
    assert len(problems) == 2, "\n".join(map(str, problems))
    find(problems, "units.yaml", units_line, "unknown formation '15PX'")
    find(problems, "scenarios/campaign.yaml", scenario_line, "hex '0999' is not on the map")

    result = CliRunner().invoke(app, ["check", SLUG])
    assert result.exit_code == 1, result.output
    err = _flat(_stderr(result))
    assert f"sources/{SLUG}/units.yaml:{units_line}:" in err
    assert f"sources/{SLUG}/scenarios/campaign.yaml:{scenario_line}:" in err
    assert f"{len(problems)} problem(s); nothing was written." in err
    assert not (cli_root / "generated").exists()


def test_schema_and_cross_file_problems_are_reported_in_one_run(cli_root: Path, game_dir: Path):
    # Issue 16: a renamed formation and an over-long `short` took two runs.  The formation 15PZ
    # is renamed 15PZD in its own entry (its units and the scenario still say 15PZ), and one of
    # its units gets a `short` longer than the 10 characters a counter prints.
    renamed = break_file(game_dir, "units.yaml", '  - id: "15PZ"\n', '  - id: "15PZD"\n')
    short = break_file(game_dir, "units.yaml", 'short: "I/8 Pz"\n', 'short: "I/8 Panzer Rgt"\n')
    text = (game_dir / "units.yaml").read_text("utf-8").splitlines()
    members = [i + 1 for i, line in enumerate(text) if line == '    formation: "15PZ"']
    assert len(members) == 4 and members[0] == short + 1  # the over-long short is on one of them
    scenario = break_file(game_dir, "scenarios/campaign.yaml", '{formation: 15PZ, hex: "0608"}',
                          '{formation: 15PZ, hex: "0608"}')

    problems = problems_of(game_dir)
    in_words(problems)
    schema = find(problems, "units.yaml", short, "short: 'I/8 Panzer Rgt' has 14 characters, at most 10 fit")
    assert "shorten it to 10 characters" in schema.hint
    for line in members:  # the unit with the schema problem is still checked against the formations
        assert "did you mean '15PZD'" in find(problems, "units.yaml", line, "unknown formation '15PZ'").hint
    find(problems, "scenarios/campaign.yaml", scenario, "unknown formation '15PZ'")
    assert len(problems) == 6, "\n".join(map(str, problems))
    assert renamed not in {p.line for p in problems}  # the renamed entry itself is valid

    result = CliRunner().invoke(app, ["check", SLUG])
    assert result.exit_code == 1, result.output
    err = _flat(_stderr(result))
    assert f"sources/{SLUG}/units.yaml:{short}:" in err and "at most 10 fit" in err
    assert f"sources/{SLUG}/units.yaml:{members[1]}:" in err
    assert f"sources/{SLUG}/scenarios/campaign.yaml:{scenario}:" in err
    assert "6 problem(s); nothing was written." in err
    assert not (cli_root / "generated").exists()


def test_a_file_that_fails_skips_only_the_checks_that_read_it(game_dir: Path):
    # markers.yaml is not YAML: the unit and scenario checks that need its markers wait, but the
    # map's checks still run and find the unknown terrain in map.yaml.
    yaml_line = break_file(game_dir, "markers.yaml", "markers:\n", "markers: [\n")
    terrain = break_file(game_dir, "map.yaml", '{hex: "0904", name: Tobruk, terrain: fort,',
                         '{hex: "0904", name: Tobruk, terrain: frot,')
    problems = problems_of(game_dir)
    find(problems, "markers.yaml", yaml_line + 1, "invalid YAML")  # the '[' is left open
    find(problems, "map.yaml", terrain, "unknown terrain 'frot'")
    assert len(problems) == 2, "\n".join(map(str, problems))


def test_an_entry_left_out_is_not_reported_again_as_unknown(game_dir: Path):
    # A formation whose `stripe` is no colour is reported once: its units and the scenario,
    # which name it, are not also told that 15PZ is unknown.
    line = break_file(game_dir, "units.yaml", '  - id: "15PZ"\n    name: "15th Panzer Division"\n    nationality: german\n    stripe: "#b22222"\n',
                      '  - id: "15PZ"\n    name: "15th Panzer Division"\n    nationality: german\n    stripe: [red]\n',
                      at="stripe: [red]")
    problems = problems_of(game_dir)
    find(problems, "units.yaml", line, "stripe")
    assert not [p for p in problems if "15PZ" in p.message], "\n".join(map(str, problems))


# One wrong value, one problem: what stands in for it while the cross-file checks run (the value
# as written, else the key's default, else the entry left out) must not be reported again.
ONE_PROBLEM = [
    Case("level-kept-as-written", "units.yaml", 'short: "I/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: A',
         'short: "I/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: E', "level: 'E' is not allowed",
         at="level: E"),
    Case("ma-default", "units.yaml", 'short: "II/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: A\n    ma: 3',
         'short: "II/8 Pz"\n    formation: "15PZ"\n    type: armor\n    size: "II"\n    level: A\n    ma: three',
         "ma: 'three' is not a whole number", at="ma: three"),
    Case("grid-not-guessed", "map.yaml", "  sideways: true\n", "  sideways: maybe\n", "is not true or false"),
    Case("entry-with-a-wrong-hex-left-out", "scenarios/campaign.yaml", '{marker: control, hex: "0605", face: 1}',
         "{marker: control, hex: [0605], face: 1}", "hex: a list is not a hex id", at="[0605]"),
    Case("unquoted-hex-read-as-written", "scenarios/campaign.yaml", '{marker: control, hex: "0605", face: 1}',
         "{marker: control, hex: 0605, face: 1}", "0605 is read as a number", at="0605,"),
    Case("hexside-without-a-slash", "map-terrain.yaml", "- '0605/0705'\n    - '0606/0705'\n  - name: Sidi Rezegh escarpment (northern)",
         "- '0605-0705'\n    - '0606/0705'\n  - name: Sidi Rezegh escarpment (northern)", "'0605-0705' is not a hexside"),
]


@pytest.mark.parametrize("case", [c.param() for c in ONE_PROBLEM])
def test_one_wrong_value_is_one_problem(game_dir: Path, case: Case):
    line = break_file(game_dir, case.file, case.old, case.new, case.at)
    problems = problems_of(game_dir)
    find(problems, case.file, line, case.fragment)
    in_words(problems)
    assert len(problems) == 1, "\n".join(map(str, problems))


def test_failed_build_exits_1_prints_file_line_and_writes_nothing(cli_root: Path, game_dir: Path):
    line = break_file(game_dir, "scenarios/campaign.yaml", '{formation: 15PZ, hex: "0608"}',
                      '{formation: 15PZ, hex: "0999"}')
    result = CliRunner().invoke(app, ["build", SLUG])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    err = _flat(_stderr(result))
    assert f"sources/{SLUG}/scenarios/campaign.yaml:{line}:" in err
    assert "hex '0999' is not on the map" in err
    assert "nothing was written" in err
    assert "built" not in result.stdout
    assert not (cli_root / "generated" / SLUG).exists()
    assert not (cli_root / "generated").exists()


def test_failed_build_leaves_the_previous_outputs_byte_identical(tmp_path: Path, game_dir: Path):
    result = build_game(SLUG, root=tmp_path)
    out = tmp_path / "generated" / SLUG
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert {f"{SLUG}.vmod", "map.png"} <= set(before) == {p.name for p in result.outputs}
    assert all(before.values())

    break_file(game_dir, "units.yaml", 'short: "I/8 Pz"\n    formation: "15PZ"', 'short: "I/8 Pz"\n    formation: "15PX"')
    with pytest.raises(SourceError) as info:
        build_game(SLUG, root=tmp_path)
    assert any("unknown formation '15PX'" in p.message for p in info.value.problems)

    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert after == before  # same files (no temporaries left behind), same bytes


@pytest.mark.parametrize("rename,message,hint", [
    ("terrain.yaml:terrian.yaml", "terrian.yaml is not a source file hexforge reads", "did you mean 'terrain.yaml'?"),
    ("scenarios/{first}:scenarios/{stem}.yml", "scenarios/ holds only .yaml files; {stem}.yml is not read",
     "rename it to {stem}.yaml"),
])
def test_a_source_file_hexforge_would_not_read_is_named(game_dir: Path, rename, message, hint):
    """A misspelt or mis-suffixed file is reported by name, never silently ignored."""
    first = sorted((game_dir / "scenarios").glob("*.yaml"))[0]
    old, new = (part.format(first=first.name, stem=first.stem) for part in rename.split(":"))
    (game_dir / old).rename(game_dir / new)
    with pytest.raises(SourceError) as exc:
        load_game(game_dir)
    found = [p for p in exc.value.problems if p.file == f"sources/{SLUG}/{new}"]
    assert len(found) == 1, exc.value.problems
    assert found[0].message == message.format(stem=first.stem) and hint.format(stem=first.stem) in found[0].hint


def test_art_and_notes_beside_the_sources_are_left_alone(game_dir: Path):
    (game_dir / "notes.txt").write_text("to do", encoding="utf-8")
    (game_dir / ".editor.yaml").write_text("x: 1", encoding="utf-8")
    assert load_game(game_dir).slug == SLUG


# ---- work a small file may ask for (issue 32) ---------------------------------------------------
LAUGHS = "\n".join(["lol:", "  a: &a [x, x, x, x, x, x, x, x, x, x]"] +
                   [f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]" for i in range(8)]) + "\n"


@pytest.mark.parametrize("text,line,message", [
    (LAUGHS, 7, "this value expands to 1,111,111 values through its aliases (at most 250,000 in a file)"),
    ("x: [" + "1, " * 300_000 + "]\n", 1, "the file holds more than 250,000 values (the largest source of the five "
     "games holds 8,414)"),
    ("x: " + "[" * 100_000 + "]" * 100_000 + "\n", 1, "collections nested more than 64 deep"),
    ("- " * 100_000 + "x\n", 1, "collections nested more than 64 deep"),
    ("".join(" " * i + f"k{i}:\n" for i in range(100)) + " " * 100 + "v\n", 65, "collections nested more than 64 deep"),
], ids=["billion laughs under a key no schema reads", "300,000 values", "brackets", "dashes", "indentation"])
def test_a_source_asking_for_unbounded_work_is_one_problem(game_dir: Path, text, line, message):
    """Nine levels of aliases expand to a billion values; `[` nested 100,000 deep crashes libyaml's
    composer: each is refused at its line before any of that work is done."""
    path = game_dir / "markers.yaml"
    path.write_text(path.read_text(encoding="utf-8") + LAUGHS if text is LAUGHS else text, encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        load_game(game_dir)
    (found,) = [p for p in exc.value.problems if p.file == f"sources/{SLUG}/markers.yaml"]
    extra = path.read_text(encoding="utf-8").count("\n") - LAUGHS.count("\n") if text is LAUGHS else 0
    assert (found.message, found.line) == (message, line + extra)


def test_a_source_linking_outside_the_game_is_refused_unread(game_dir: Path, tmp_path: Path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2-do-not-print\n", encoding="utf-8")
    scenario = sorted((game_dir / "scenarios").glob("*.yaml"))[0]
    scenario.unlink()
    scenario.symlink_to(secret)
    with pytest.raises(SourceError) as exc:
        load_game(game_dir)
    text = "\n".join(str(p) for p in exc.value.problems)
    assert f"scenarios/{scenario.name} is a link to a file outside the game's folder; it is not read" in text
    assert "hunter2" not in text and "password" not in text
