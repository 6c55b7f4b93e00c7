"""Tobrouk 41-42 on the rules kernel: every rule of `RULES` runs alone and finds, in the planted
full game (tests/rules/test_tobrouk_full_game.py), exactly what it finds in the whole audit; no
rule reads another (what they share is a tracker)."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.test_tobrouk_full_game import play
from tests.rules.tobrouk_play import SLUG
from tests.rules.kernel_checks import key, whole_and_parts
from validators.games import rules_for
from validators.kernel.rule import Rule


def test_every_rule_is_a_documented_rule_with_numbers(tobrouk_module):
    game, _ = tobrouk_module
    rules = rules_for(SLUG).RULES
    assert len(rules) >= 15 and all(issubclass(r, Rule) and r.__doc__ and r.ids_in(game) for r in rules)
    codes = [r.code() for r in rules]
    assert len(set(codes)) == len(codes) and all(c.startswith("validators/games/tobrouk_41_42/") for c in codes)


@pytest.mark.parametrize("drag", [False, True], ids=["one by one", "stack drags"])
def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(tobrouk_module, tmp_path, drag):
    game, _ = tobrouk_module
    g, report = play(tobrouk_module, tmp_path, plant=True, drag=drag)
    path = tmp_path / "planted.vlog"
    whole, parts = whole_and_parts(SLUG, game, path)
    assert sum(whole.values()) >= 25 and whole == Counter(key(f) for f in report.findings)
    assert parts == whole  # no rule needs another to find what it finds, and none finds more alone
