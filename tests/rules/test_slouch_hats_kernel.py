"""Slouch Hats and Eggshells on the rules kernel: its planted full game (test_slouch_hats_full_game.py)
audited whole and rule by rule, each rule run alone finding exactly what it finds in the whole."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.slouch_play import slouch_module  # noqa: F401 (the fixture)
from tests.rules.test_slouch_hats_full_game import play
from tests.rules.kernel_checks import key, run, whole_and_parts
from validators.games import rules_for

SLUG = "slouch-hats-and-eggshells"


@pytest.fixture(scope="module")
def planted(slouch_module, tmp_path_factory):  # noqa: F811
    """(game, the planted game's log, its report by the whole auditor)."""
    game, _ = slouch_module
    tmp = tmp_path_factory.mktemp("slouch-kernel")
    _, report = play(slouch_module, tmp, plant=True, drag=False)
    return game, tmp / "planted.vlog", report


def test_each_rule_is_registered_with_its_numbers_and_docstring():
    auditor = rules_for(SLUG)
    codes = [r.code() for r in auditor.RULES]
    assert "validators/games/slouch_hats_and_eggshells/combat.py:Combat" in codes
    assert len(set(codes)) == len(codes) and all(r.__doc__ for r in auditor.RULES)


def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(planted):
    game, path, report = planted
    whole, parts = whole_and_parts(SLUG, game, path)
    assert sum(whole.values()) >= 30 and whole == Counter(key(f) for f in report.findings)
    assert parts == whole  # no rule needs another to find what it finds, and none finds more alone


def test_only_and_skip_choose_the_rules_that_run(planted):
    game, path, report = planted
    made, found = run(SLUG, game, path, only=["20", "3.32"])
    assert {r.__name__ for r in made} == {"SpecialEvents", "Stacking"}
    assert sorted({f.rule for f in found}) == ["20.11", "20.12", "20.14", "20.16", "20.2", "3.32"]
    made, found = run(SLUG, game, path, skip=["4.2", "4.21", "21"])
    assert "SequenceOfPlay" not in {r.__name__ for r in made} and "Combat" in {r.__name__ for r in made}  # 4.21 too
    kept = [f for f in report.findings if f.rule not in ("4.2", "4.21") and not f.rule.startswith("21.")]
    assert sorted(map(key, found)) == sorted(map(key, kept))
