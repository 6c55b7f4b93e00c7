"""Writing Tobrouk 41-42 logs for the rules tests: the module's LogWriter, plus what a Tobrouk
player does that the shared writer has no step for - dragging a marker from the piece palette
(an AddPiece of the palette's piece, prototypes expanded, dropped on a hex) and setting the turn
tracker to the second "Combat" phase (E: the phase list names two phases alike)."""
from __future__ import annotations

from pathlib import Path

from builder.vassal.sequence import join
from tests.rules.palette import PaletteWriter
from validators.audit import audit_file, module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.replay.writer import Cmd
from validators.vlog.reader import read_record

SLUG = "tobrouk-41-42"
PLAYERS = {"Axis": ("axis-user", "Ax"), "Commonwealth": ("cw-user", "Cw")}
PHASES = {"A": 0, "B": 1, "C": 2, "D": 3, "E": 4, "F": 5}


class TobroukWriter(PaletteWriter):
    """A LogWriter over the Tobrouk module: phases by letter (A-F), markers from the palette."""

    def __init__(self, game, vmod: Path, setup: str) -> None:
        super().__init__(game, vmod, setup=setup, players=PLAYERS)
        self._phase_letter: str | None = None

    def phase(self, turn: int, letter: str) -> Cmd:
        """The turn tracker set to (turn, phase letter)."""
        self._phase_letter = letter
        return self.turn(turn, letter)

    def _turn_encode(self, turn, phase):
        if phase in PHASES:
            counter, lst, phases = self._levels()
            active = ",".join(["true"] * len(phases))
            sub = join([PHASES[phase], 0, 0, active], ";")
            level = join([turn, 0, counter.get("loop", "false"), counter.get("loopLimit", "-1"), sub], ";")
            return join([0, level], "|")
        return super()._turn_encode(turn, phase)

    def fire(self, firer: str, target: str, die: int, *, side: str, coordinated: bool = False) -> None:
        """Declare firer, (Coordinated fire,) Declare target, then the side's fire die."""
        self.declare(firer, "Declare firer")
        if coordinated:
            self.declare(firer, "Coordinated fire")
        self.declare(target, "Declare target")
        self.roll(f"{side} fire 1d6", [die], side)


SETUP_RULE = "11.1"  # the set-up check (validators/games/tobrouk_41_42/setup.py)


def audit(game, vmod: Path, script, path: Path, setup: str = "battleaxe.vsav", auditor: bool = False,
          setup_check: bool = False):
    """Write a log from `script(w)` and audit it: its violations, or the auditor after the run.

    Most rules tests arrange their position by moving units before the turn tracker first moves
    (set-up adjustments that the card does not allow); their set-up findings (11.1) are left out
    unless `setup_check`."""
    w = TobroukWriter(game, vmod, setup)
    script(w)
    w.write(path)
    if auditor:
        a = rules_for(SLUG)(game, Replayer(read_record(path), module_grids(game)))
        a.run()
        return a
    return [f for f in audit_file(game, path).findings
            if f.kind == "violation" and (setup_check or f.rule != SETUP_RULE)]


def player(tobrouk_module, tmp_path: Path, only: set[str] | None = None):
    """The `play` fixture of a rules test file: `play(script, setup=..., auditor=...)` audits a
    scripted log; with `only`, just the findings of those rules."""
    game, vmod = tobrouk_module

    def play(script, setup: str = "battleaxe.vsav", auditor: bool = False):
        found = audit(game, vmod, script, tmp_path / "game.vlog", setup=setup, auditor=auditor)
        return found if auditor or only is None else [f for f in found if f.rule in only]
    return play


def rules(findings) -> list[str]:
    return [f.rule for f in findings]
