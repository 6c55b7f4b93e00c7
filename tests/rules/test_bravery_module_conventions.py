"""Bravery in the Sand as the module plays it: control markers lie under the units in their own
Game Piece Layer, and activation chits are masked (5.1.2).  Logs are written the way the real
engine writes them, then replayed and audited as a player's log would be."""
from __future__ import annotations

import pytest

from validators.audit import audit_file, module_grids
from validators.replay.board import Board
from validators.replay.replayer import Replayer
from validators.vlog import commands as vc
from validators.vlog.reader import read_record
from validators.replay.writer import LogWriter
from tests.conftest import SLUG
from tests.rules.test_bravery_rules import start

PANZER_15 = ["15pz-8pz-1", "15pz-8pz-2", "15pz-115sr", "15pz-33ar"]


@pytest.fixture
def vmod(built):
    return built[0] / "generated" / SLUG / f"{SLUG}.vmod"


def _replayed(path, game=None) -> Board:
    """The board after every command of the log, undo steps included, as the engine replays it;
    with the game, the board knows the module's Game Piece Layers as the audit's replayer does."""
    record = read_record(path)
    board = Replayer(record, module_grids(game)).board if game is not None else Board()
    for c in () if game is not None else record.setup:
        board.apply(c)
    for step in record.steps:
        for c in step.commands:
            board.apply(c)
    return board


def test_a_stack_drag_undone_comes_back_beside_its_control_marker(vmod, game, tmp_path):
    """The undo moves each unit back with no piece named underneath: the engine merges it with
    what stands there in its own layer only, so the marker keeps a stack of its own."""
    w = LogWriter(vmod)
    start(w)
    w.move("chit-15pz#1", "Activation 8")
    w.move("15pz-8pz-1", "0607", stack=True)
    w.undo()
    path = tmp_path / "undo.vlog"
    w.write(path)
    board = _replayed(path, game)
    control = board.pieces[w.piece("control@0608")]
    units = [board.pieces[w.piece(u)] for u in PANZER_15]
    assert {_hex(game, p) for p in units} == {"0608"} and len({p.stack for p in units}) == 1
    assert board.stacks[control.stack].children == [control.id]
    assert [f for f in audit_file(game, path).findings if f.kind == "violation"] == []


def _hex(game, p) -> str:
    return game.geometry.label_at(p.x, p.y)


def test_dragging_the_15pz_stack_out_of_gambut_leaves_its_control_marker(vmod, game, tmp_path):
    w = LogWriter(vmod)
    control = w.piece("control@0608")
    start(w)
    w.move("chit-15pz#1", "Activation 8")
    step = w.move("15pz-8pz-1", "0607", stack=True)
    moved = [c.text for c in _flat(step) if c.text and c.text.startswith("M/")]
    assert len(moved) == 4 and not any(f"M/{control}/" in t for t in moved)  # the units only
    path = tmp_path / "drag.vlog"
    w.write(path)
    board = _replayed(path)
    assert _hex(game, board.pieces[control]) == "0608"
    assert {_hex(game, board.pieces[w.piece(u)]) for u in PANZER_15} == {"0607"}
    findings = audit_file(game, path).findings
    assert [f for f in findings if f.kind == "violation"] == []


def test_units_dropped_on_a_control_marker_start_a_stack_of_their_own(vmod, game, tmp_path):
    """A drop on a hex holding only a marker of the lower layer never merges across layers: the
    engine makes a new Stack (`+/…/stack`) and names no piece underneath."""
    w = LogWriter(vmod)
    start(w)
    w.move("chit-15pz#1", "Activation 8")
    w.move("15pz-8pz-1", "0607", stack=True)
    step = w.move("15pz-8pz-1", "0608", stack=True)  # back onto the marker
    texts = [c.text for c in _flat(step) if c.text]
    moves = [vc.parse(t) for t in texts if t.startswith("M/")]
    assert moves[0].new_under is None and [m.new_under for m in moves[1:]] == [m.id for m in moves[:-1]]
    (stack,) = [vc.parse(t) for t in texts if t.startswith("+/")]
    assert stack.type == "stack" and stack.state.endswith("@@1")
    control = w.board.pieces[w.piece("control@0608")]
    assert w.board.stacks[control.stack].children == [control.id]


def test_masked_chits_are_followed_by_the_audit(vmod, game, tmp_path):
    """The log shows a masked chit as its mask (report "Activation chit", state owned by its side);
    the audit still knows which chit it is and which division it activates."""
    w = LogWriter(vmod)
    start(w)  # 15PZ and 7A chits into the mug, masked
    w.move("chit-15pz#1", "Activation 8")  # drawn: shown to both players
    w.move("21pz-5pz-1", "0509")  # not the drawn division
    path = tmp_path / "masked.vlog"
    w.write(path)
    record = read_record(path)
    chats = [c.text for s in record.steps for c in s.commands if isinstance(c, vc.Chat)]
    assert "* Activation chit moves Axis chits -> Mug *" in chats
    assert "* 15PZ chit moves Mug -> Activation 8 *" in chats
    chit = w.piece("chit-15pz#1")
    first = next(c for c in record.setup if isinstance(c, vc.AddPiece) and c.id == chit)
    assert first.state.startswith("Axis;false|0\t")  # the Mask's state: owned by the Axis side
    reveal = [c for s in record.steps for c in s.commands if isinstance(c, vc.ChangePiece) and c.id == chit]
    assert reveal and reveal[-1].new_state.startswith("null;\t")  # Deck.pieceRemoved: drawn face up
    assert "Kind,ChitId,Side,Formation" in first.type  # the chit's identity is in every log
    findings = [f for f in audit_file(game, path).findings if f.kind == "violation"]
    assert [f.rule for f in findings] == ["5.2.1"]


def _flat(c):
    yield c
    for s in c.subs:
        yield from _flat(s)


def test_a_chit_back_in_its_pool_is_masked_again_by_its_owner(vmod, tmp_path):
    w = LogWriter(vmod)
    start(w)
    w.move("chit-15pz#1", "Activation 8")
    w.move("chit-15pz#1", "Axis chits")
    w.mask("chit-15pz#1")
    chit = w.board.pieces[w.piece("chit-15pz#1")]
    assert chit.traits[0].state == "Axis;false|0" and w.reported_name(chit.id) == "Activation chit"
    w.mask("chit-15pz#1")
    assert w.board.pieces[chit.id].traits[0].state == "null;"
    with pytest.raises(ValueError, match="no mask"):
        w.mask("15pz-8pz-1")
