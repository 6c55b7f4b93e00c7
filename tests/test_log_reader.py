"""Reading real saves and logs written by VASSAL 3.2.17, 3.6 and 3.7/3.8 (shared/realdata)."""
from __future__ import annotations

import json
import zipfile

import pytest

from builder.vassal.pieces import unchain
from validators.vlog.commands import AddPiece, Chat, MovePiece, SpecialDice
from validators.vlog.container import LogFormatError
from validators.vlog.reader import read_record
from tests.conftest import REALDATA, needs_realdata

REAL = REALDATA
FILES = ["kassala/Default Setup.vsav", "ragnarok/ragnarok-start.vsav", "zxvt/5x5_startup.vlog",
         "engine-logs/kassala-3.7.vlog", "engine-logs/ragnarok-3.7.vlog", "engine-logs/ragnarok-3.8.vlog"]


@needs_realdata
@pytest.mark.parametrize("name", FILES)
def test_every_real_file_decodes_with_no_unknown_command(name):
    record = read_record(REAL / name)
    assert record.unknown == ()
    assert record.setup and record.setup[0].kind == "begin_save"


@needs_realdata
@pytest.mark.parametrize("log", ["kassala-3.7", "ragnarok-3.7", "ragnarok-3.8"])
def test_steps_and_null_entries_match_the_engine(log):
    expected = json.loads((REAL / "engine-logs" / f"{log}.expected.json").read_text())
    record = read_record(REAL / "engine-logs" / f"{log}.vlog")
    assert len(record.steps) == expected["log_steps"]
    assert sum(s.null_entries for s in record.steps) == expected["log_null_entries"]


@needs_realdata
def test_kassala_setup_has_23_pieces_on_the_map():
    record = read_record(REAL / "kassala" / "Default Setup.vsav")
    pieces = [c for c in record.setup if isinstance(c, AddPiece) and c.type != "stack"]
    on_map = [c for c in pieces if unchain(c.type, c.state)[-1].state.split(";")[0] == "Main Map"]
    assert len(on_map) == 23


@needs_realdata
def test_zxvt_steps_keep_a_creation_and_its_chat_report_together():
    record = read_record(REAL / "zxvt" / "5x5_startup.vlog")
    assert len(record.steps) == 6
    first = record.steps[0]
    assert isinstance(first.commands[0], AddPiece)
    chats = [c.text for c in first.commands if isinstance(c, Chat)]
    assert chats and "created in" in chats[0]


@needs_realdata
def test_dice_and_moves_are_typed():
    record = read_record(REAL / "engine-logs" / "ragnarok-3.7.vlog")
    kinds = {type(c) for s in record.steps for c in s.commands}
    assert {MovePiece, Chat, SpecialDice} <= kinds
    assert any(s.is_undo for s in record.steps)


def test_hostile_inputs_are_refused_with_one_line(tmp_path):
    cases = {
        "empty.vlog": b"",
        "text.vlog": b"hello world",
        "bad.vlog": b"PK\x03\x04 truncated",
        "badhex.vlog": b"!VCSK5azz",
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    with zipfile.ZipFile(tmp_path / "module.vlog", "w") as z:
        z.writestr("buildFile.xml", "<x/>")
    (tmp_path / "dir.vlog").mkdir()
    for p in sorted(tmp_path.iterdir()):
        with pytest.raises(LogFormatError) as exc:
            read_record(p)
        assert "\n" not in str(exc.value) and p.name in str(exc.value)
