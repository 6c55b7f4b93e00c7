"""What every game's kernel test asks of its planted full game: the auditor run whole, with a
selection, or with some rules only, and each rule run alone finding exactly its share."""
from __future__ import annotations

from collections import Counter

from validators.audit import module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record


def run(slug: str, game, path, rules=None, **selection):
    """(the rule classes the auditor made, its findings) for the log at `path`."""
    auditor = rules_for(slug)
    if rules is not None:
        auditor = type("Alone", (auditor,), {"RULES": tuple(rules)})
    a = auditor(game, Replayer(read_record(path), module_grids(game)), **selection)
    made = [type(r) for r in a.rules]  # the run releases them (engine.py, _release)
    return made, a.run()


def key(f):
    return f.step, f.rule, f.message


def whole_and_parts(slug: str, game, path) -> tuple[Counter, Counter]:
    """The whole audit's findings, and the sum of each rule's run alone (each rule made alone and
    finding only numbers it declares)."""
    whole = Counter(key(f) for f in run(slug, game, path)[1])
    parts: Counter = Counter()
    for rule in rules_for(slug).RULES:
        made, found = run(slug, game, path, [rule])
        assert made == [rule]
        assert {f.rule for f in found} <= set(rule.ids_in(game))
        parts.update(key(f) for f in found)
    return whole, parts
