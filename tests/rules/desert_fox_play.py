"""Writing Desert Fox Deluxe logs for the rules tests: the module's LogWriter, plus what a Desert
Fox player does that the shared writer has no step for - setting the turn tracker to a phase by
its Roman numeral (tables/sequence.yaml), dragging a marker (Disrupted, Fort) from the piece
palette onto a hex, declaring a combat and rolling its dice."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.palette import PaletteWriter
from validators.audit import audit_file, module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.replay.writer import Cmd
from validators.vlog.reader import read_record

SLUG = "desert-fox-deluxe"
PLAYERS = {"Axis": ("axis-user", "Ax"), "Allied": ("allied-user", "Al")}
SETUP_RULE = "3.1"  # the set-up check (validators/games/desert_fox_deluxe/setup.py)


@pytest.fixture(scope="session")
def dfd_module(tmp_path_factory):
    """(game, path of its .vmod) of Desert Fox Deluxe, built once for all its rules tests (the game
    as the plain model an audit runs on)."""
    from builder.model import load_game
    from builder.model.plain import plain_game
    from builder.vassal.module import build_vmod

    game = load_game(Path(__file__).resolve().parents[2] / "sources" / SLUG)
    path = tmp_path_factory.mktemp("dfd") / f"{SLUG}.vmod"
    path.write_bytes(build_vmod(game)[0])
    return plain_game(game), path


class FoxWriter(PaletteWriter):
    """A LogWriter over the Desert Fox module: phases by Roman numeral, markers from the palette."""

    def __init__(self, game, vmod: Path, setup: str, *, tracker_from_setup: bool = False) -> None:
        """tracker_from_setup False: the tracker starts at GT 1, not where the card's setup saved it, so
        moves before the first tracker move are the set-up (the tests arrange positions so)."""
        super().__init__(game, vmod, setup=setup, players=PLAYERS, tracker_from_setup=tracker_from_setup)
        self._names = {p["id"]: p["name"] for p in game.tables["sequence"].data["phases"]}

    def _places(self, map_id: str) -> dict[str, tuple[int, int]]:
        """The shared writer's drop points, plus every hex of the game: the module's map sections
        are zones with grids of their own, which the shared writer does not number."""
        out = super()._places(map_id)
        spec = self.maps[map_id]
        if map_id == "Main Map":
            ox, oy = spec.origin(next(iter(spec.boards)))
            geometry = self.game.geometry
            for label in geometry.labels:
                x, y = geometry.centre(label)
                out.setdefault(label, (ox + x, oy + y))
        return out

    def phase(self, turn: int, roman: str) -> Cmd:
        """The turn tracker set to (GT, phase I-XX)."""
        return self.turn(turn, self._names[roman])

    def combat(self, attackers: list[str], targets: list[str], dice: list[int], *, side: str) -> None:
        """Declare attacker on each attacker, Declare target on each defender, then the 2d6."""
        for a in attackers:
            self.declare(a, "Declare attacker")
        for t in targets:
            self.declare(t, "Declare target")
        self.roll(f"{side} combat 2d6", dice, side)


def audit(game, vmod: Path, script, path: Path, setup: str = "fox-killed.vsav", auditor: bool = False,
          setup_check: bool = False, events: bool = False):
    """Write a log from `script(w)` and audit it: its violations (and events), or the auditor.

    Tests that arrange a position by moving units before the turn tracker first moves leave the
    set-up findings (3.1) out unless `setup_check`."""
    w = FoxWriter(game, vmod, setup)
    script(w)
    w.write(path)
    if auditor:
        a = rules_for(SLUG)(game, Replayer(read_record(path), module_grids(game)))
        a.run()
        return a
    kinds = ("violation", "event") if events else ("violation",)
    return [f for f in audit_file(game, path).findings
            if f.kind in kinds and (setup_check or f.rule != SETUP_RULE)]


def rules(findings) -> list[str]:
    return [f.rule for f in findings]
