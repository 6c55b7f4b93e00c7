"""Bravery in the Sand on the rules kernel: every rule of its planted full game (test_bravery_full_game.py)
run alone finds exactly what it finds in the whole audit, and `--only` runs just the rules asked for."""
from __future__ import annotations

import pytest

from tests.rules.test_bravery_full_game import play
from tests.rules.kernel_checks import run, whole_and_parts
from validators.games import rules_for

from tests.conftest import SLUG


@pytest.fixture(scope="module")
def planted(built, game, tmp_path_factory):
    g, path = play(built, tmp_path_factory.mktemp("bravery-kernel"), plant=True)
    return game, path, g.planted


def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(planted):
    game, path, planted_moves = planted
    whole, parts = whole_and_parts(SLUG, game, path)
    assert sorted((s, r) for s, r, _ in whole) == sorted(planted_moves)
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
    made, found = run(SLUG, game, path, only=["7.2", "12"])
    assert {r.__name__ for r in made} == {"Damage", "Control"}
    assert sorted((f.step, f.rule) for f in found) == sorted((s, r) for s, r in planted_moves
                                                             if r.startswith(("7.2.", "12.")))
