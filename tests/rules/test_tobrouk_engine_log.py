"""Tobrouk 41-42 as the real engine logs it (issue 10, "real play first"): the legal game of
test_tobrouk_full_game.py, played through VASSAL 3.7.26's own player code
(tests/fixtures/engine/tobrouk-legal.vlog, its script beside it), audits clean and ends on the board
the test's writer reaches.

Where the engine's log differs in shape from the writer's: a marker dragged from the palette is
an AddPiece headed by its old-location properties, with the drop's move nested under it; and the
module has no Delete trait, so the T and T1 markers the writer deletes were dragged to the
Markers box instead (they end there, not gone).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.model import load_game
from builder.paths import REPO as ROOT
from tests.rules.test_tobrouk_full_game import play
from validators.audit import audit_file, module_grids
from validators.replay.replayer import Replayer
from validators.vlog.reader import read_record

LOG = Path(__file__).resolve().parents[1] / "fixtures" / "engine" / "tobrouk-legal.vlog"
SLUG = "tobrouk-41-42"


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "sources" / SLUG, plain=True)


def end_board(game, path: Path) -> dict[str, tuple[str, str]]:
    """Piece id -> (its name, where it stands) once every step of the log is replayed."""
    r = Replayer(read_record(path), module_grids(game))
    for _ in r.steps():
        pass
    return {pid: (p.name, r.piece_where(p).label) for pid, p in r.board.pieces.items()}


def test_the_engine_written_legal_game_has_no_finding(game):
    report = audit_file(game, LOG)
    assert [(f.step, f.rule, f.message) for f in report.findings] == []
    assert report.summary.last_turn == 3 and report.summary.steps == 60


def test_the_engine_ends_on_the_board_the_writer_reaches(game, tobrouk_module, tmp_path):
    play(tobrouk_module, tmp_path, plant=False, drag=False)
    writer = end_board(game, tmp_path / "legal.vlog")
    engine = end_board(game, LOG)
    # the set-up's pieces keep their ids in both logs: each ends on the same hex or box, same face
    moved = {pid for pid in writer if pid in engine}
    assert {pid: engine[pid] for pid in moved} == {pid: writer[pid] for pid in moved}
    assert len(moved) > 40
    # the writer deleted the two hit markers it placed; the engine's (ids of its own) were dragged off
    assert set(writer) - moved == set()
    extra = sorted(engine[pid] for pid in set(engine) - moved)
    assert extra == [("Morale test T", "Markers"), ("Test and 1 loss T1", "Markers")]
