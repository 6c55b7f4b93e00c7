"""Bravery in the Sand on the rules kernel: every rule of its planted full game (test_bravery_full_game.py)
run alone finds exactly what it finds in the whole audit, and `--only` runs just the rules asked for."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.test_bravery_full_game import play
from validators.audit import module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record

from tests.conftest import SLUG


@pytest.fixture(scope="module")
def planted(built, game, tmp_path_factory):
    g, path = play(built, tmp_path_factory.mktemp("bravery-kernel"), plant=True)
    return game, path, g.planted


def _run(game, path, rules=None, **selection):
    auditor = rules_for(SLUG)
    if rules is not None:
        auditor = type("Alone", (auditor,), {"RULES": tuple(rules)})
    a = auditor(game, Replayer(read_record(path), module_grids(game)), **selection)
    made = [type(r) for r in a.rules]
    return made, a.run()


def _key(f):
    return f.step, f.rule, f.message


def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(planted):
    game, path, planted_moves = planted
    whole = Counter(_key(f) for f in _run(game, path)[1])
    assert sorted((s, r) for s, r, _ in whole) == sorted(planted_moves)
    parts: Counter = Counter()
    for rule in rules_for(SLUG).RULES:
        made, found = _run(game, path, [rule])
        assert made == [rule]
        assert {f.rule for f in found} <= set(rule.ids_in(game))
        parts.update(_key(f) for f in found)
    assert parts == whole


def test_each_rule_says_what_it_checks(game):
    rules = rules_for(SLUG).RULES
    codes = [r.code() for r in rules]
    assert "validators/games/bravery_in_the_sand/movement.py:Movement" in codes and len(set(codes)) == len(codes)
    assert all(r.__doc__ and r.ids_in(game) for r in rules)
    assert {"2.2", "6.1.4"} <= set(rules_for(SLUG).RULES[codes.index(
        "validators/games/bravery_in_the_sand/movement.py:Movement")].ids_in(game))  # the terrain's own rules


def test_only_runs_the_rules_asked_for(planted):
    game, path, planted_moves = planted
    made, found = _run(game, path, only=["7.2", "12"])
    assert {r.__name__ for r in made} == {"Damage", "Control"}
    assert sorted((f.step, f.rule) for f in found) == sorted((s, r) for s, r in planted_moves
                                                             if r.startswith(("7.2.", "12.")))
