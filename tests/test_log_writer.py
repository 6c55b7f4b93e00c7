"""The log writer: scripted logs read back, replay to the scripted positions, and are shaped
like the real VASSAL 3.7.26 engine's logs (engine-logs/ragnarok-3.7.vlog)."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from builder.vassal.pieces import unchain
from builder.vassal.savefile import decode_tree, deobfuscate
from validators.replay.board import Board
from validators.vlog import commands as vc
from validators.vlog.modulegrid import read_vmod_grids
from validators.vlog.reader import read_record
from validators.replay.writer import LogWriter, java_hash_order
from tests.conftest import REALDATA, needs_realdata

ENGINE = REALDATA / "engine-logs"
PLAYERS = {"Axis": ("axis-user", "Alice"), "Commonwealth": ("cw-user", "Bob")}
MOVE = re.compile(r"^\* (.+) moves (.+) -> (.+) \*$")
DICE = re.compile(r"^\*\*\* (.+) = ([\d,]+) \*\*\* &lt;(.+)&gt;$")


@pytest.fixture(scope="module")
def vmod(built, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("vmod") / "bravery-in-the-sand.vmod"
    path.write_bytes(built[1])
    return path


def script(vmod: Path) -> tuple[LogWriter, dict[str, str]]:
    """Twelve calls, one step each; returns the writer and the ids of the pieces it moved."""
    w = LogWriter(vmod, players=PLAYERS)
    ids = {r: w.piece(r) for r in ("15pz-8pz-1", "15pz-8pz-2", "15pz-115sr", "15pz-33ar", "control@0608",
                                   "chit-dak", "7a-7h")}
    w.move("15pz-8pz-1", "0607")                 # 1: out of its stack onto an empty hex
    w.move("15pz-115sr", "0808", stack=True)     # 2: the rest of the stack, two hexes away
    w.move("15pz-8pz-2", "0707")                 # 3: drop-off, the others stay at 0808
    w.flip("15pz-8pz-1")                         # 4: reduced
    w.roll("Axis dice", [3, 5, 6], "Axis")       # 5
    w.roll("Commonwealth 1d6", [4], "Commonwealth")  # 6
    w.chat("Commonwealth", "Tobruk holds")       # 7
    w.turn(1, "Chits into the mug")              # 8
    w.move("chit-dak", "Mug")                    # 9
    w.move("chit-dak", "Activation 8")           # 10: drawn from the Mug
    w.move("7a-7h", "0506")                      # 11
    w.undo()                                     # 12: takes 7a-7h back to 0505
    return w, ids


@pytest.fixture(scope="module")
def written(vmod, tmp_path_factory):
    w, ids = script(vmod)
    path = tmp_path_factory.mktemp("log") / "game.vlog"
    w.write(path)
    return path, ids


def replay(record, steps: int | None = None) -> Board:
    board = Board()
    for c in record.setup:
        board.apply(c)
    for step in record.steps[:steps]:
        for c in step.commands:
            board.apply(c)
    return board


def test_reads_back_one_step_per_call_with_no_unknown_commands(written):
    record = read_record(written[0])
    assert record.unknown == ()
    assert len(record.steps) == 12
    assert [s.is_undo for s in record.steps] == [False] * 11 + [True]
    assert all(s.null_entries >= 1 for s in record.steps if any(isinstance(c, vc.MovePiece) for c in s.commands)
               and not s.is_undo)
    players = [c for c in record.setup if isinstance(c, vc.PlayerJoin)]
    assert {(p.user, p.name, p.side) for p in players} == {(u, n, s) for s, (u, n) in PLAYERS.items()}
    assert any(isinstance(c, vc.Turn) and c.tracker == "TurnTracker0" for c in record.setup)


def test_beginning_state_is_the_engines_restore_command(written, game):
    """Pieces with their UniqueID, the Mug's empty deck, roster (twice, as registered), picker,
    SETUP_STACK, turn tracker, notes (twice): what the engine writes for this module."""
    record = read_record(written[0])
    shape = [c.kind if isinstance(c, vc.Marker) else type(c).__name__
             for c in record.setup if not isinstance(c, vc.AddPiece)]
    assert shape == ["begin_save", "null", "null", *["PlayerJoin"] * 4, "BoardPicker", "setup_stack", "Turn",
                     *["notes"] * 4, "end_save"]
    (deck,) = [c for c in record.setup if isinstance(c, vc.AddPiece) and c.type.startswith("deck;")]
    mug = game.map.decks[0]
    centre = (mug.origin[0] + mug.box[0] // 2, mug.origin[1] + mug.box[1] // 2)
    assert ";Mug;" in deck.type and deck.state == "Main Map;%d;%d;true" % centre  # face down
    units = [c for c in record.setup if isinstance(c, vc.AddPiece) and c.type.startswith("emb2;")]
    assert units and all(c.state.endswith(f";1;UniqueID;{c.id}") for c in units)


def test_replay_puts_every_piece_on_the_exact_pixel_of_its_destination(written, vmod, game):
    path, ids = written
    board = replay(read_record(path))
    grid = read_vmod_grids(vmod)["Main Map"]
    expected = {"15pz-8pz-1": "0607", "15pz-8pz-2": "0707", "15pz-115sr": "0808", "15pz-33ar": "0808",
                "control@0608": "0608", "7a-7h": "0505"}  # the control marker lies under the units: it stays
    for ref, label in expected.items():
        p = board.pieces[ids[ref]]
        assert (p.map, p.x, p.y) == ("Main Map", *game.geometry.centre(label)), ref
        assert grid.location(p.x, p.y) == label
    chit = board.pieces[ids["chit-dak"]]
    assert (chit.x, chit.y) == game.track_box_centre("activation", "8")
    assert grid.location(chit.x, chit.y) == "Activation 8"
    assert board.pieces[ids["15pz-8pz-1"]].layer_level("Step") == 2
    assert board.pieces[ids["15pz-8pz-1"]].name.endswith("(reduced)")
    stack = board.stacks[board.pieces[ids["15pz-115sr"]].stack]
    assert stack.children == [ids["15pz-115sr"], ids["15pz-33ar"]]
    control = board.pieces[ids["control@0608"]]
    assert board.stacks[control.stack].children == [control.id]  # alone in its layer's stack


def test_chat_move_reports_name_the_locations_of_the_moves(written, vmod):
    record = read_record(written[0])
    grid = read_vmod_grids(vmod)["Main Map"]
    reports = 0
    for step in record.steps:
        moves = [c for c in step.commands if isinstance(c, vc.MovePiece)]
        chats = [MOVE.match(c.text) for c in step.commands if isinstance(c, vc.Chat)]
        if not moves or step.is_undo:
            continue
        (report,) = chats
        assert report.group(2) == grid.location(moves[0].old_x, moves[0].old_y)
        assert report.group(3) == grid.location(moves[0].new_x, moves[0].new_y)
        reports += 1
    assert reports == 6
    texts = [c.text for s in record.steps for c in s.commands if isinstance(c, vc.Chat)]
    assert "* Activation chit moves Axis chits -> Mug *" in texts  # masked (5.1.2): the report hides it
    assert "* DAK chit moves Mug -> Activation 8 *" in texts  # drawn face up


def test_a_stack_move_chains_each_piece_under_the_previous_one(written):
    step = read_record(written[0]).steps[1]
    moves = [c for c in step.commands if isinstance(c, vc.MovePiece)]
    assert len(moves) == 3 and moves[0].new_under is None  # the three units; the control marker stays
    assert [m.new_under for m in moves[1:]] == [m.id for m in moves[:-1]]
    (new_stack,) = [c for c in step.commands if isinstance(c, vc.AddPiece)]
    assert new_stack.type == "stack" and new_stack.state.split(";")[3] == moves[0].id


def test_the_undone_step_is_gone_after_the_undo(written):
    record = read_record(written[0])
    # the BasicPiece state keeps the Old* properties: their restoring commands have no encoder
    def where(b):
        return {i: (p.map, p.x, p.y, [t.state for t in p.traits[:-1]]) for i, p in b.pieces.items()}
    assert where(replay(record, 12)) == where(replay(record, 10))
    assert where(replay(record, 11)) != where(replay(record, 10))
    undo = record.steps[11]
    assert isinstance(undo.commands[0], vc.UndoMarker) and undo.commands[0].start
    assert isinstance(undo.commands[-1], vc.UndoMarker) and not undo.commands[-1].start
    (chat,) = [c for c in undo.commands if isinstance(c, vc.Chat)]
    assert chat.text.startswith("* UNDO: * ") and chat.text.endswith(" moves 0505 -> 0506 *")


def test_dice_reports_parse_back_to_the_rolled_dice(written):
    record = read_record(written[0])
    rolls = []
    for step in record.steps[4:6]:
        (chat,) = [c for c in step.commands if isinstance(c, vc.Chat)]
        m = DICE.match(chat.text)
        rolls.append((m.group(1), [int(d) for d in m.group(2).split(",")], m.group(3)))
        props = {c.name: c.new for c in step.commands if isinstance(c, vc.PropertyChange)}
        assert props[m.group(1) + "_result"] == m.group(2) and {c.container for c in step.commands
                                                                 if isinstance(c, vc.PropertyChange)} == {"Module"}
    assert rolls == [("Axis dice", [3, 5, 6], "Alice"), ("Commonwealth 1d6", [4], "Bob")]
    first = {c.name: (c.old, c.new) for c in record.steps[4].commands if isinstance(c, vc.PropertyChange)}
    assert first == {"Axis dice_result": ("1", "3,5,6"), "Axis dice_total": ("0", "14"),
                     "Axis dice_keep": ("0", "3"), "Axis dice_summary": ("", "3 x1, 5 x1, 6 x1")}


def test_turn_step_is_the_trackers_report_then_its_state(written):
    (chat, turn) = read_record(written[0]).steps[7].commands
    assert chat.text == "* * &lt;Alice&gt; Turn Updated from Turn 1: Replacements to Turn 1: Chits into the mug"
    assert turn == vc.Turn("TurnTracker0", "0|1;0;false;-1;1\\;0\\;0\\;true,true,true,true,true")


def _kinds(step) -> list[str]:
    return [type(c).__name__ + (f":{c.type}" if isinstance(c, vc.AddPiece) else "") for c in step.commands]


@needs_realdata
def test_a_drag_and_its_undo_have_the_engines_structure(written):
    """Same command kinds in the same order as a real 3.7.26 drag onto an empty hex and its undo."""
    engine = read_record(ENGINE / "ragnarok-3.7.vlog")
    ours = read_record(written[0])
    drag = ["ChangePiece", "MovePiece", "AddPiece:stack", "Chat"]
    assert _kinds(engine.steps[0]) == drag == _kinds(ours.steps[0]) == _kinds(ours.steps[10])
    assert _kinds(engine.steps[6]) == _kinds(ours.steps[11])
    assert ours.steps[0].null_entries == 7  # OldX..OldDeckName, all new after the setup
    top = decode_tree(deobfuscate(zipfile.ZipFile(written[0]).read("savedGame")))
    first = top[top.index("end_save") + 1]
    assert first[0] == "LOG\tnull" and all(isinstance(t, str) and t.startswith("LOG\t") for t in first)


def test_flip_is_clicked_properties_then_the_change_with_its_report(written):
    step = read_record(written[0]).steps[3]
    assert step.null_entries == 2  # ClickedX, ClickedY
    change, chat = step.commands
    assert isinstance(change, vc.ChangePiece) and change.old_state != change.new_state
    assert chat.text == ("* 0607: 8th Panzer Regiment (I. Abteilung) (15PZ) becomes "
                         "8th Panzer Regiment (I. Abteilung) (15PZ) (reduced) *")


def test_same_script_gives_the_same_bytes(vmod, written, tmp_path):
    again = tmp_path / "again.vlog"
    script(vmod)[0].write(again)
    assert again.read_bytes() == written[0].read_bytes()
    z = zipfile.ZipFile(again)
    assert z.namelist() == ["savedGame", "savedata", "moduledata"]
    assert z.read("moduledata") == zipfile.ZipFile(vmod).read("moduledata")
    assert z.read("savedGame").startswith(b"!VCSK")


def test_references_and_bad_input(vmod):
    w = LogWriter(vmod, players=PLAYERS)
    assert w.piece("chit-dak#2") != w.piece("chit-dak") and w.piece("control@0605") == w.piece(w.piece("control@0605"))
    for bad in ("no-such-unit", "chit-dak#3", "control@0101"):
        with pytest.raises(KeyError):
            w.piece(bad)
    with pytest.raises(KeyError):
        w.move("7a-7h", "9999")
    with pytest.raises(ValueError):
        w.roll("Axis 1d6", [2, 3], "Axis")
    with pytest.raises(ValueError):
        w.undo()


def test_java_hash_order_matches_the_engines_property_order():
    """The persistent-property order of a real 3.7.26 state (ragnarok-3.7, step 1)."""
    inserted = ["UniqueID", *("OldX", "OldY", "OldMap", "OldBoard", "OldZone", "OldLocationName", "OldDeckName"),
                "ClickedX", "ClickedY"]
    assert java_hash_order(inserted) == ["OldZone", "ClickedX", "UniqueID", "OldLocationName", "OldDeckName",
                                         "ClickedY", "OldX", "OldY", "OldBoard", "OldMap"]


def test_undo_twice_takes_back_two_steps_and_undoes_a_flip(vmod):
    w = LogWriter(vmod, players=PLAYERS)
    unit = w.piece("7a-7h")
    before = w.state(unit)
    w.move("7a-7h", "0506")
    w.flip("7a-7h")
    assert w.board.pieces[unit].layer_level("Step") == 2
    w.undo()
    assert w.board.pieces[unit].layer_level("Step") == 1
    w.undo()
    p = w.board.pieces[unit]
    assert w.location(p.map, p.x, p.y) == "0505" and w.board.pieces[unit].traits[:-1] == unchain(
        p.type, before)[:-1]
    with pytest.raises(ValueError):
        w.undo()


def test_a_declaration_repeated_on_the_same_piece_is_headed_by_its_chat(wdf_module):
    """The click properties do not change the second time, so the engine's step is the Report
    chat itself (`Command.append` hands the head to the first real command)."""
    _, vmod = wdf_module
    w = LogWriter(vmod, players={"Allied": ("allied-user", "Bob"), "Axis": ("axis-user", "Alice")})
    w.declare("selby", "Declare attacker")
    w.declare("selby", "Declare attacker")
    first, second = w.steps[-2].log_text(), w.steps[-1].log_text()
    assert first.startswith("LOG\tnull") and second.startswith("LOG\tCHAT* ")
