"""Western Desert Force on the rules kernel: every rule of the package, run alone over the planted
full game (test_wdf_full_game.py), finds exactly what it finds in the whole audit."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.test_wdf_full_game import play
from validators.audit import module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record

SLUG = "western-desert-force"


@pytest.fixture(scope="module")
def planted(wdf_module, tmp_path_factory):
    game, _ = wdf_module
    tmp = tmp_path_factory.mktemp("wdf-kernel")
    play(wdf_module, tmp, plant=True)
    return game, tmp / "planted.vlog"


def _run(game, path, rules=None):
    auditor = rules_for(SLUG)
    if rules is not None:
        auditor = type("Alone", (auditor,), {"RULES": tuple(rules)})
    a = auditor(game, Replayer(read_record(path), module_grids(game)))
    made = [type(r) for r in a.rules]
    return made, a.run()


def _key(f):
    return f.step, f.rule, f.message


def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(planted):
    game, path = planted
    whole = Counter(_key(f) for f in _run(game, path)[1])
    assert sum(whole.values()) >= 25
    parts: Counter = Counter()
    for rule in rules_for(SLUG).RULES:
        made, found = _run(game, path, [rule])
        assert made == [rule]
        assert {f.rule for f in found} <= set(rule.ids)
        parts.update(_key(f) for f in found)
    assert parts == whole  # no rule needs another to find what it finds, and none finds more alone
