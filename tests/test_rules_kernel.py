"""The rules kernel (validators/kernel): rules as registered objects, selected by number, run alone.

Desert Fox Deluxe is the game on the kernel these tests play: its planted full game (tests/rules/
test_desert_fox_full_game.py) is audited whole, rule by rule, and through `--only`/`--skip`.
"""
from __future__ import annotations

import json
import pytest
from typer.testing import CliRunner

from builder.model import load_game
from builder.paths import REPO as ROOT
from tests.rules.desert_fox_play import dfd_module  # noqa: F401 (the fixture)
from tests.rules.test_desert_fox_full_game import play
from validators.cli import app
from tests.rules.kernel_checks import key, run, whole_and_parts
from validators.games import rules_for
from validators.kernel.declarations import Declarations, pattern
from validators.kernel.engine import RulesAuditor
from validators.kernel.rule import Rule, Tracker, needed
from validators.kernel.selection import Selection, under

SLUG = "desert-fox-deluxe"
runner = CliRunner()


# -- declarations from game.yaml's report templates ------------------------------------------------
def test_a_template_reads_the_line_the_engine_writes():
    p = pattern("Combat: $PieceName$ attacks from $location$")
    m = p.match("* Combat: 21 Pz / 5 Pz attacks from C2331 *")
    assert (m["piecename"], m["location"]) == ("21 Pz / 5 Pz", "C2331")
    assert p.match("Combat: Babini attacks from W2006")["location"] == "W2006"
    assert p.match("Combat: Babini defends in W2006") is None
    m = pattern("Arrival: $PieceName$ rolls in $location$").match("Arrival: 9 Aus Div rolls in Allied GT 13 *")
    assert (m["piecename"], m["location"]) == ("9 Aus Div", "Allied GT 13")
    assert pattern("Fire (x+1): $PieceName$").match("Fire (x+1): 7 RTR")["piecename"] == "7 RTR"  # regex characters


def test_declarations_match_the_first_template_that_fits(dfd_module):  # noqa: F811
    game, _ = dfd_module
    d = Declarations(game.info.declarations)
    found = d.match("Road march: 7 RTR from W2006")
    assert (found[0].name, found[1], found[2]) == ("Road march", "7 RTR", "W2006")
    assert d.match("Axis combat 2d6 = 7") is None
    assert len(d.patterns) == len(game.info.declarations)


# -- selection by number ------------------------------------------------------------------------------
def test_a_number_selects_itself_and_the_rules_under_it():
    assert under("13.2.4", "13.2") and under("13.2", "13.2") and not under("13.21", "13.2")
    assert under("13.4.1", "13.0") and not under("4.1", "14.0")
    s = Selection.of(only=["13.2"], skip=["13.2.4"])
    assert [n for n in ("13.2", "13.2.1", "13.2.4", "13.1", "4.1") if s.reports(n)] == ["13.2", "13.2.1"]
    assert s.runs(("13.1", "13.2", "13.2.4")) and not s.runs(("4.1",))
    assert Selection.of(only=["13.2.1"]).runs(("13.2",)) is False  # 13.2 is not under 13.2.1...
    assert Selection.of(only=["13.2.1"]).runs(("13.2", "13.2.1"))  # ...but a rule reporting 13.2.1 runs
    assert not Selection.of(skip=["14"]).runs(("14.2", "14.6")) and Selection.of(skip=["14"]).runs(("4.1", "14.2"))
    assert not Selection() and Selection.of(skip=[" 4.1 "]).skip == ("4.1",)


# -- the registry ----------------------------------------------------------------------------------------
def test_trackers_come_once_each_after_what_they_need():
    class A(Tracker):
        pass

    class B(Tracker):
        needs = (A,)

    class R1(Rule):
        ids = ("1.1",)
        needs = (B, A)

    class R2(Rule):
        ids = ("1.2",)
        needs = (A,)
    assert needed([R1, R2]) == [A, B]

    class Loop(Tracker):
        pass
    Loop.needs = (Loop,)

    class R3(Rule):
        ids = ("1.3",)
        needs = (Loop,)
    with pytest.raises(ValueError, match="circle"):
        needed([R3])


def test_a_game_lists_rules_with_numbers_only():
    with pytest.raises(TypeError, match="not a Rule with ids"):
        type("Bad", (RulesAuditor,), {"RULES": (Tracker,)})

    class NoIds(Rule):
        pass
    with pytest.raises(TypeError):
        type("Bad", (RulesAuditor,), {"RULES": (NoIds,)})


def test_each_rule_says_where_it_is_written():
    auditor = rules_for(SLUG)
    codes = [r.code() for r in auditor.RULES]
    assert "validators/games/desert_fox_deluxe/stacking.py:Stacking" in codes
    game = load_game(ROOT / "sources" / SLUG, plain=True)
    assert len(set(codes)) == len(codes) and all(r.__doc__ and r.ids_in(game) for r in auditor.RULES)


# -- rules run alone -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def planted(dfd_module, tmp_path_factory):  # noqa: F811
    """(game, the planted Fox Killed log, its findings by the whole auditor)."""
    game, _ = dfd_module
    tmp = tmp_path_factory.mktemp("kernel")
    g, report = play(dfd_module, tmp, plant=True)
    return game, tmp / "planted.vlog", report


def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(planted):
    game, path, report = planted
    whole, parts = whole_and_parts(SLUG, game, path)
    assert sum(whole.values()) >= 25
    assert parts == whole  # no rule needs another to find what it finds, and none finds more alone


def test_only_and_skip_choose_the_rules_that_run(planted):
    game, path, report = planted
    made, found = run(SLUG, game, path, only=["10.3", "7"])
    assert {r.__name__ for r in made} == {"Stacking", "Reinforcements", "Withdrawals", "WithdrawalRefitPoints"}  # every rule with a 7.x id
    assert sorted({f.rule for f in found}) == ["10.3", "7.0", "7.1"]
    made, found = run(SLUG, game, path, skip=["4.1", "13"])
    assert "SequenceOfPlay" not in {r.__name__ for r in made}
    assert "Combat" in {r.__name__ for r in made}  # it also reports 14.x
    kept = [f for f in report.findings if not (f.rule == "4.1" or f.rule.startswith("13."))]
    assert sorted(map(key, found)) == sorted(map(key, kept))


def test_a_rule_that_reports_a_number_it_does_not_declare_is_caught(planted):
    game, path, _ = planted

    class Liar(Rule):
        """Reports every tracker move under a number it does not list."""

        ids = ("4.1",)

        def phase_started(self, pid: str) -> None:
            self.find("4.2", "not mine")
    assert RulesAuditor.strict  # tests/conftest.py
    with pytest.raises(AssertionError, match="4.2"):
        run(SLUG, game, path, [Liar])


def test_a_hook_is_called_only_in_the_phases_a_rule_acts_in(planted):
    game, path, _ = planted
    heard: dict[str, list] = {"every": [], "VI": []}

    class Every(Rule):
        """Hears every move and flip."""

        ids = ("4.1",)
        name = "every"

        def moved(self, e) -> None:
            unit = self.board.unit_of(e.piece) is not None
            heard[self.name].append((self.state.step, self.state.phase_id, e.piece.id, e.old.label, e.new.label, unit))

        def flipped(self, e) -> None:
            heard[self.name].append((self.state.step, self.state.phase_id, e.piece.id, "flip"))

    class InVI(Every):
        """Hears a unit's step from hex to hex only in Phase VI; other moves and flips in every phase."""

        acts_in = {"unit_step": ("VI",)}
        name = "VI"

    run(SLUG, game, path, [Every, InVI])
    hexes = game.geometry.ids

    def unit_step(h):
        return len(h) == 6 and h[5] and h[3] in hexes and h[4] in hexes

    steps = [h for h in heard["every"] if unit_step(h)]
    assert "VI" in {h[1] for h in steps} and {h[1] for h in steps} - {"VI"}  # units step in other phases too
    assert any(len(h) == 4 for h in heard["every"]) and any(len(h) == 6 and not unit_step(h) for h in heard["every"])
    assert heard["VI"] == [h for h in heard["every"] if not unit_step(h) or h[1] == "VI"]


def test_a_rule_that_restricts_a_hook_that_is_no_event_is_refused(planted):
    game, path, _ = planted

    class Odd(Rule):
        """Names a hook acts_in cannot restrict."""

        ids = ("4.1",)
        acts_in = {"phase_ended": ("VI",)}
    with pytest.raises(TypeError, match="phase_ended"):
        run(SLUG, game, path, [Odd])


def test_the_audit_command_takes_only_and_skip(planted):
    game, path, report = planted
    result = runner.invoke(app, ["audit", SLUG, str(path), "--format", "json", "--only", "14", "--skip", "14.2"])
    assert result.exit_code == 1, result.output
    rules = {v["rule"] for v in json.loads(result.output)["violations"]}
    want = {f.rule for f in report.violations if under(f.rule, "14") and f.rule != "14.2"}
    assert rules == want and want
    bad = runner.invoke(app, ["audit", SLUG, str(path), "--only", "99.9"])
    assert bad.exit_code == 2 and "--only 99.9: no such rule" in bad.output
    bad = runner.invoke(app, ["audit", SLUG, str(path), "--skip", "movement"])
    assert bad.exit_code == 2 and "not a rule number" in bad.output
