"""The acceptance games' script state, shared by the Tobrouk, Slouch Hats and Desert Fox full
games: one script writes the legal game and, with `plant`, the same game with illegal acts, each
noted with the step at which the audit must find it."""
from __future__ import annotations

from validators.replay.writer import LogWriter


class PlantedGame:
    """The writer, whether illegal acts are planted, whether stacks are dragged whole, and what was
    planted as (step, rule)."""

    def __init__(self, w: LogWriter, plant: bool, drag: bool = False):
        self.w, self.plant, self.drag = w, plant, drag
        self.planted: list[tuple[int, str]] = []

    def step(self) -> int:
        return len(self.w.steps)

    def illegal(self, rule: str, action, later: int = 0) -> None:
        """Plant `action`; found at its own (last) step, or `later` steps after."""
        if self.plant:
            action()
            self.planted.append((self.step() + later, rule))

    def expect(self, rule: str) -> None:
        """A planted act found at the step just written (a phase end, a settled roll, a combat's close)."""
        if self.plant:
            self.planted.append((self.step(), rule))

    def group(self, refs: list[str], to: str) -> None:
        """Units moving together: one drag of their stack (drag), else one by one."""
        self.w.move_units(refs, to, whole_stacks=self.drag)


def audited(g: PlantedGame, game, tmp_path):
    """The script's log written (planted.vlog or legal.vlog) and its audit report."""
    from validators.audit import audit_file

    path = tmp_path / ("planted.vlog" if g.plant else "legal.vlog")
    g.w.write(path)
    return audit_file(game, path)


def assert_only_the_planted(g: PlantedGame, report, acts: int, rules: int) -> None:
    """At least `acts` planted acts of `rules` rules, each found at its step with its rule, and
    nothing else."""
    assert len(g.planted) >= acts and len({rule for _, rule in g.planted}) >= rules
    found = sorted((f.step, f.rule) for f in report.violations)
    assert found == sorted(g.planted), [(f.step, f.rule, f.message) for f in report.violations]
