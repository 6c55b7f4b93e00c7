"""The rules catalogue (sources/<game>/rules.yaml, `hexforge rules`) and the rule texts the
audit reports print beside each finding's number.

The catalogue must stay true to the code: every rule number the game's validators can report is
in it (collected from the validator code and the tables it reads, not from a list kept by hand),
every test it names exists, and the README's coverage table is what `hexforge rules` counts.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import builder.paths
from builder.model import SourceError, load_game
from builder.model.schema import RULE_STATUSES
from builder.paths import REPO as ROOT
from validators import catalogue
from validators.audit import audit_file
from validators.cli import app
from validators.findings import Finding
from validators.games import GAMES
from validators.report import as_json, as_text
from validators.replay.writer import LogWriter
from tests.conftest import SLUG, copy_sources

runner = CliRunner()
RULE = re.compile(r"^[0-9]{1,2}(\.[0-9]{1,2})*$")
CATALOGUED = [slug for slug in GAMES if (ROOT / "sources" / slug / "rules.yaml").is_file()]


def raw(slug: str) -> dict:
    """rules.yaml as plain YAML, read apart from the loader under test."""
    return yaml.safe_load((ROOT / "sources" / slug / "rules.yaml").read_text(encoding="utf-8"))


# ---- what the validators can report ----------------------------------------------------------
def _constants(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes (prose, where "7.3.5" is a reference, not a finding)."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def rules_in_code(source: str) -> set[str]:
    """Rule numbers a validator module can report.

    - whatever rule-shaped strings the first argument of `find` (or of a method that hands its
      own parameter to `find`, such as `_once`) holds: literals, both arms of `x if c else y`,
      the default of `rule or "6.1"` and `get("rule", "8.3")`;
    - every dotted rule-shaped string anywhere else in the code (docstrings aside): rule numbers
      travel in variables and returned tuples (`return "9.7", why, ()`), and a dotted string in a
      rules module is a rule number.
    """
    tree = ast.parse(source)
    wrappers = {"find"}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in fn.args.args}
            for call in ast.walk(fn):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "find"
                        and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id in params):
                    wrappers.add(fn.name)
    out = set()
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in wrappers and call.args:
            out |= {c for c in _constants(call.args[0]) if RULE.match(c)}
    docs = _docstrings(tree)
    out |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs and "." in n.value and RULE.match(n.value)}
    return out


def rules_in_data(data) -> set[str]:
    """Rule numbers under `rule:` (or `..._rule:`) keys of a source's data: the validators report
    them as they read them (a list such as "10.3, 10.31" gives both)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if (str(k) == "rule" or str(k).endswith("_rule")) and isinstance(v, (str, int, float)):
                out |= {r.strip() for r in str(v).split(",") if RULE.match(r.strip())}
            out |= rules_in_data(v)
    elif isinstance(data, list):
        for v in data:
            out |= rules_in_data(v)
    return out


def registry(slug: str) -> tuple:
    """The rule classes of a game on the rules kernel (validators/kernel/engine.py), else ()."""
    from validators.games import rules_for
    from validators.kernel.engine import RulesAuditor

    auditor = rules_for(slug)
    return auditor.RULES if issubclass(auditor, RulesAuditor) else ()


def reportable(slug: str) -> set[str]:
    """Every rule number the game's validators can report: the ids of its registered rules (a
    game on the rules kernel; the test suite's strict audits hold every finding to them), else
    what its code passes to `find`, the terrain (path search reports the rule of the terrain that
    blocks) and the data of the rules tables."""
    package = ROOT / "validators" / "games" / slug.replace("-", "_")
    rules = registry(slug)
    if rules:  # a rule's findings carry only its ids, whatever numbers its tables hold
        return {n for r in rules for n in r.ids}
    found = set().union(*(rules_in_code(p.read_text(encoding="utf-8")) for p in sorted(package.glob("*.py"))))
    src = ROOT / "sources" / slug
    found |= rules_in_data(yaml.safe_load((src / "terrain.yaml").read_text(encoding="utf-8")))
    for table in sorted((src / "tables").glob("*.yaml")):
        found |= rules_in_data(yaml.safe_load(table.read_text(encoding="utf-8")).get("data"))
    return found


def test_the_collector_finds_rules_however_the_code_passes_them():
    code = '''
class X:
    def a(self, c, direct):
        self.find("6", "the stack cannot divide")
        self.find(direct.rule or "6.1", "prohibited")
        self.find(self.elim.get("rule", "8.3"), "attrition")
        rule = "9.32" if c else "10.26"
        self.find(rule, "retreat")
    def b(self):
        """Rule 7.3.5 is prose here."""
        return "9.7", "a sea transfer", ()
    def _once(self, c, rule, message):
        self.find(rule, message)
    def c(self, x):
        self._once(x, "10.24", "refund")
        return x.count("6") + len("0.5e3")
'''
    assert rules_in_code(code) == {"6", "6.1", "8.3", "9.32", "10.26", "9.7", "10.24"}


@pytest.mark.parametrize("slug", CATALOGUED)
def test_every_rule_the_validators_can_report_is_catalogued(slug):
    found = reportable(slug)
    assert len(found) >= 25  # the collector sees the game's rules, not nothing
    numbers = {r["number"] for r in raw(slug)["rules"]}
    assert sorted(found - numbers, key=lambda r: [int(x) for x in r.split(".")]) == []


@pytest.mark.parametrize("slug", [s for s in CATALOGUED if registry(s)])
def test_every_audited_or_partly_rule_of_a_kernel_game_names_its_code(slug):
    doc = json.loads(catalogue.as_json(load_game(ROOT / "sources" / slug, plain=True)))
    missing = [r["number"] for r in doc["rules"] if r["status"] in ("audited", "partly") and not r["code"]]
    assert missing == []
    for r in doc["rules"]:
        for ref in r["code"]:
            path, _, name = ref.partition(":")
            assert f"class {name}(" in (ROOT / path).read_text(encoding="utf-8"), ref
        if r["status"] in ("not audited", "not checkable"):
            assert r["code"] == [], r["number"]  # nothing claims to check what the catalogue says is not


def test_every_game_with_a_rules_module_has_a_catalogue():
    assert CATALOGUED == list(GAMES)


# ---- the tests it names --------------------------------------------------------------------
def node_ids() -> set[str]:
    """pytest node ids of every test function (module level, or a method of a Test class)."""
    out = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for n in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"):
                out.add(f"{rel}::{n.name}")
            elif isinstance(n, ast.ClassDef) and n.name.startswith("Test"):
                out |= {f"{rel}::{n.name}::{m.name}" for m in n.body
                        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test")}
    return out


@pytest.mark.parametrize("slug", CATALOGUED)
def test_every_test_the_catalogue_names_exists(slug):
    known = node_ids()
    assert "tests/test_rules_catalogue.py::test_every_test_the_catalogue_names_exists" in known
    named = [t for r in raw(slug)["rules"] for t in r.get("tests", [])]
    assert named and [t for t in named if t not in known] == []


@pytest.mark.parametrize("slug", CATALOGUED)
def test_statuses_notes_and_numbers(slug):
    rules = raw(slug)["rules"]
    assert {r["status"] for r in rules} <= set(RULE_STATUSES)
    assert [r["number"] for r in rules if r["status"] != "audited" and not r.get("note")] == []
    numbers = [r["number"] for r in rules]
    assert len(numbers) == len(set(numbers))
    assert all(RULE.match(n) for n in numbers)


# ---- bad catalogues are problems with file:line ---------------------------------------------
def _broken(tmp_path, old: str, new: str) -> list[str]:
    src = copy_sources(tmp_path)
    path = src / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SourceError) as exc:
        load_game(src)
    return [str(p) for p in exc.value.problems]


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_unknown_status_points_at_its_line(tmp_path):
    text = (ROOT / "sources" / SLUG / "rules.yaml").read_text(encoding="utf-8")
    line = _line_of(text, "    status: audited")
    problems = _broken(tmp_path, "    status: audited\n", "    status: audit\n")
    assert len(problems) == 1
    assert problems[0].startswith(f"sources/{SLUG}/rules.yaml:{line}:")
    assert "'audit' is not allowed" in problems[0] and "did you mean 'audited'" in problems[0]


def test_a_rule_not_fully_audited_needs_a_note(tmp_path):
    problems = _broken(tmp_path, "    note: a permission; no play can break it\n", "")
    assert len(problems) == 1 and "needs a one-line 'note'" in problems[0]
    assert problems[0].startswith(f"sources/{SLUG}/rules.yaml:")


def test_a_rule_catalogued_twice_names_both_lines(tmp_path):
    text = (ROOT / "sources" / SLUG / "rules.yaml").read_text(encoding="utf-8")
    first, second = _line_of(text, 'number: "6.1"'), _line_of(text, 'number: "6.2"')
    problems = _broken(tmp_path, 'number: "6.2"', 'number: "6.1"')
    assert problems == [f"sources/{SLUG}/rules.yaml:{second}:13: rule 6.1 is catalogued twice "
                        f"(hint: merge it with line {first})"]


# ---- hexforge rules --------------------------------------------------------------------------
@pytest.mark.parametrize("slug", CATALOGUED)
def test_rules_command_text(slug):
    result = runner.invoke(app, ["rules", slug])
    assert result.exit_code == 0, result.output
    rules = raw(slug)["rules"]
    lines = result.output.splitlines()
    tally = {s: sum(r["status"] == s for r in rules) for s in RULE_STATUSES}
    assert lines[0] == (f"{load_game(ROOT / 'sources' / slug).info.title}: {len(rules)} rules a log can show ("
                        + ", ".join(f"{catalogue.LABELS[s]} {n}" for s, n in tally.items()) + ")")
    blocks: list[list[str]] = []  # one per rule: its head line, then its indented lines
    for line in lines[3:]:
        if line.startswith(" "):
            blocks[-1].append(line.strip())
        else:
            blocks.append([line])
    assert len(blocks) == len(rules)
    for block, r in zip(blocks, rules):
        number, rest = block[0].split(None, 1)
        assert (number, rest.split(":")[0]) == (r["number"], catalogue.LABELS[r["status"]])
        assert r["title"] in rest and block[1] == r["text"]
        assert [x[len("test: "):] for x in block if x.startswith("test: ")] == r.get("tests", [])
        assert (f"note: {r.get('note')}" in block) == bool(r.get("note"))


@pytest.mark.parametrize("slug", CATALOGUED)
def test_rules_command_json(slug):
    result = runner.invoke(app, ["rules", slug, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    rules = raw(slug)["rules"]
    assert doc["game"] == slug
    assert [(r["number"], r["status"], r["text"], r["tests"]) for r in doc["rules"]] == \
        [(r["number"], r["status"], r["text"], r.get("tests", [])) for r in rules]
    assert all(isinstance(r["code"], list) for r in doc["rules"])
    assert doc["counts"] == {s: sum(r["status"] == s for r in rules) for s in RULE_STATUSES}
    assert sum(doc["counts"].values()) == len(rules)


def test_rules_command_bad_format_and_unknown_game():
    bad = runner.invoke(app, ["rules", SLUG, "--format", "html"])
    assert bad.exit_code == 2 and "--format: unknown format 'html'; use text or json" in bad.output
    unknown = runner.invoke(app, ["rules", "no-such-game"])
    assert unknown.exit_code == 2 and "unknown game 'no-such-game'" in unknown.output


def test_a_game_with_no_catalogue_is_one_clear_line(tmp_path, monkeypatch):
    (copy_sources(tmp_path) / "rules.yaml").unlink()
    copy_sources(tmp_path, "western-desert-force")
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = runner.invoke(app, ["rules", SLUG])
    assert result.exit_code == 2
    assert result.output == (f"{SLUG}: no rules catalogue (sources/{SLUG}/rules.yaml); games with one: "
                             "western-desert-force\n")
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_the_readme_states_each_games_coverage():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for slug in CATALOGUED:
        rules = raw(slug)["rules"]
        tally = [sum(r["status"] == s for r in rules) for s in RULE_STATUSES]
        row = f"| `{slug}` | {len(rules)} | " + " | ".join(map(str, tally)) + " |"
        assert row in readme, row


# ---- the rule's text beside its number in the audit reports ---------------------------------
@pytest.fixture(scope="module")
def report(built, game, tmp_path_factory):
    """A real audit of a log with one finding (rule 5.2: a unit moved before its chit was drawn)."""
    root, _, _ = built
    w = LogWriter(root / "generated" / SLUG / f"{SLUG}.vmod")
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.turn(1, "Activations")
    w.move("15pz-8pz-1", "0607")
    path = tmp_path_factory.mktemp("catalogue") / "early.vlog"
    w.write(path)
    return audit_file(game, path)


def text_of(rule: str) -> str:
    return next(r["text"] for r in raw(SLUG)["rules"] if r["number"] == rule)


def test_the_audit_gives_each_finding_its_rule_text(report):
    assert [(f.rule, f.rule_text) for f in report.findings] == [("5.2", text_of("5.2"))]


def test_text_report_prints_the_rule_under_its_finding(report):
    lines = as_text(report).splitlines()
    i = next(i for i, line in enumerate(lines) if ": rule 5.2: " in line)
    assert lines[i + 1] == f"    5.2: {text_of('5.2')}"


def test_json_report_has_the_rule_text(report):
    doc = json.loads(as_json(report))
    assert [(v["rule"], v["rule_text"]) for v in doc["violations"]] == [("5.2", text_of("5.2"))]


def test_html_report_shows_the_rule_text_with_the_finding(built, game, report):
    from validators.view.module_art import ModuleArt
    from validators.view.page import read_data, report_page

    page = report_page(report, ModuleArt(built[0] / "generated" / SLUG / f"{SLUG}.vmod"), game)
    (finding,) = read_data(page)["findings"]
    assert finding["rule"] == "5.2" and finding["text"] == text_of("5.2")


def test_a_rule_outside_the_catalogue_gets_no_text(game):
    odd = Finding(1, 1, "Axis", "x", "0607", "0606", "99.9", "not a rule of this game")
    known = Finding(2, 1, "Axis", "x", "0607", "0606", "6.2", "too far")
    assert [f.rule_text for f in catalogue.with_rule_texts(game, [odd, known])] == [None, text_of("6.2")]
    assert catalogue.rule_text(game, "99.9") is None and catalogue.rule_text(game, "6") == text_of("6")
