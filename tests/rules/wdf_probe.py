"""Western Desert Force audits whose facts a test reads after the replay: the engine lets go of
its rules and trackers once a run is over, so a probe rule, last in the list, keeps them."""
from __future__ import annotations

from pathlib import Path

from validators.audit import module_grids
from validators.games import rules_for
from validators.kernel.rule import Rule
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record


class Probed:
    """The findings of an audit, and the attributes of its trackers and rules as the run left them."""

    def __init__(self, findings, parts):
        self.findings, self._parts = findings, parts

    def __getattr__(self, name: str):
        for p in self._parts:
            if name in vars(p) or hasattr(type(p), name):
                return getattr(p, name)
        raise AttributeError(name)


def audited(game, path: Path, slug: str = "western-desert-force") -> Probed:
    auditor = rules_for(slug)
    kept: list = []

    class Probe(Rule):
        ids = ("8.1",)

        def finish(self) -> None:
            kept.extend([*self.board._trackers.values(), *self.board.rules])

    probed = type("Probed", (auditor,), {"RULES": auditor.RULES + (Probe,)})
    findings = probed(game, Replayer(read_record(path), module_grids(game))).run()
    return Probed(findings, kept)
