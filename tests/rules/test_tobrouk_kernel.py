"""Tobrouk 41-42 on the rules kernel: every rule of `RULES` runs alone and finds, in the planted
full game (tests/rules/test_tobrouk_full_game.py), exactly what it finds in the whole audit; no
rule reads another (what they share is a tracker)."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.test_tobrouk_full_game import play
from tests.rules.tobrouk_play import SLUG
from validators.audit import module_grids
from validators.games import rules_for
from validators.kernel.rule import Rule
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record


def _run(game, path, rules=None):
    auditor = rules_for(SLUG)
    if rules is not None:
        auditor = type("Alone", (auditor,), {"RULES": tuple(rules)})
    a = auditor(game, Replayer(read_record(path), module_grids(game)))
    made = [type(r) for r in a.rules]
    return made, a.run()


def _key(f):
    return f.step, f.rule, f.message


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
    whole = Counter(_key(f) for f in _run(game, path)[1])
    assert sum(whole.values()) >= 25 and whole == Counter(_key(f) for f in report.findings)
    parts: Counter = Counter()
    for rule in rules_for(SLUG).RULES:
        made, found = _run(game, path, [rule])
        assert made == [rule]
        assert {f.rule for f in found} <= set(rule.ids_in(game))
        parts.update(_key(f) for f in found)
    assert parts == whole  # no rule needs another to find what it finds, and none finds more alone
