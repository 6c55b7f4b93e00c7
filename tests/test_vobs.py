"""VASSAL's binary `VOBS` obfuscation (main line after 3.8.0-beta1, vassal-formats.md "VOBS").

The three real engine logs are re-encoded here by a helper that follows the format on its own
(it shares no code with the reader): `VOBS`, one key byte, every UTF-8 byte XORed with it.
They must replay to the same pieces and hexes as the originals; hostile variants give exit 2
and one line.
"""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from builder.vassal.savefile import Deobfuscator, ObfuscationError, deobfuscate, obfuscate
from validators.cli import app
from validators.replay.replayer import Replayer
from validators.vlog.container import LogFormatError, read_saved_game
from validators.vlog.modulegrid import read_module_grids
from validators.vlog.reader import read_record
from tests.conftest import NO_REALDATA, REALDATA

REAL = REALDATA
ENGINE = REAL / "engine-logs"
LOGS = {  # log -> (build file of its module, board sizes), as tests/test_replay_board.py reads them
    "kassala-3.7": ("engine-logs/kassala-numbered.buildFile.xml", {"Kassala": (5000, 5000)}),
    "ragnarok-3.7": ("ragnarok/buildFile.xml", {"Map": (3300, 2450)}),
    "ragnarok-3.8": ("ragnarok/buildFile.xml", {"Map": (3300, 2450)}),
}
pytestmark = pytest.mark.skipif(not ENGINE.is_dir(), reason=NO_REALDATA)
runner = CliRunner()


def vobs(text: bytes, key: int) -> bytes:
    """The format, written independently of the reader: header, raw key byte, XORed bytes."""
    return b"VOBS" + bytes([key]) + bytes(b ^ key for b in text)


def vcsk_text(raw: bytes) -> bytes:
    """The plain bytes of a `!VCSK` entry (hex pairs XORed with the key in hex after the header)."""
    assert raw.startswith(b"!VCSK")
    key = int(raw[5:7], 16)
    return bytes(b ^ key for b in bytes.fromhex(raw[7:].decode("ascii")))


def reencode(src: Path, dest: Path, key: int) -> Path:
    """The same zip with its savedGame re-encoded as VOBS; every other entry unchanged."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            data = z.read(info)
            out.writestr(info.filename, vobs(vcsk_text(data), key) if info.filename == "savedGame" else data)
    return dest


def final_board(path: Path, log: str) -> list[tuple[str, str | None, str, str]]:
    build, sizes = LOGS[log]
    replayer = Replayer(read_record(path), read_module_grids((REAL / build).read_bytes(), board_sizes=sizes))
    for _ in replayer.steps():
        pass
    return sorted((p.name, p.map, f"{p.x},{p.y}", replayer.piece_where(p).label) for p in replayer.board.on_map())


@pytest.mark.parametrize("log", sorted(LOGS))
@pytest.mark.parametrize("key", [0x01, 0x5A, 0xA5, 0xFF])
def test_engine_logs_as_vobs_replay_like_the_originals(log, key, tmp_path):
    original = ENGINE / f"{log}.vlog"
    again = reencode(original, tmp_path / f"{log}.vlog", key)
    assert zipfile.ZipFile(again).read("savedGame")[:5] == b"VOBS" + bytes([key])
    assert read_saved_game(again).text == read_saved_game(original).text
    board = final_board(again, log)
    assert board == final_board(original, log)
    expected = json.loads((ENGINE / f"{log}.expected.json").read_text())["pieces_after_log"]
    assert sorted((n, m, pos) for n, m, pos, _ in board) == sorted((e["name"], e["map"], e["pos"]) for e in expected)
    assert len(read_record(again).steps) == json.loads((ENGINE / f"{log}.expected.json").read_text())["log_steps"]


def test_vobs_is_half_the_size_of_vcsk():
    text = read_saved_game(ENGINE / "ragnarok-3.7.vlog").text.encode("utf-8")
    assert len(vobs(text, 7)) == len(text) + 5 and len(obfuscate(text.decode("utf-8"))) == 2 * len(text) + 7


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6, 7, 64, 1 << 20])
def test_the_stream_decoder_gives_the_same_text_whatever_the_chunks(size):
    text = read_saved_game(ENGINE / "kassala-3.7.vlog").text
    raw = text.encode("utf-8")
    for data in (vobs(raw, 0x3C), obfuscate(text, 0x3C), raw):
        d = Deobfuscator()
        out = b"".join(d.feed(data[i:i + size]) for i in range(0, len(data), size)) + d.close()
        assert out.decode("utf-8") == text
        assert d.kind == ("VOBS" if data[:4] == b"VOBS" else "!VCSK" if data[:1] == b"!" else "plain")


PROPS = settings(derandomize=True, database=None, deadline=None, max_examples=300)


@PROPS
@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1), st.integers(1, 255))
def test_any_text_reads_back_from_vobs(text, key):
    assert deobfuscate(vobs(text.encode("utf-8"), key)) == text


def _decode(parts: list[bytes]):
    d = Deobfuscator()
    try:
        return b"".join(d.feed(p) for p in parts) + d.close()
    except ObfuscationError as exc:
        return str(exc)


@PROPS
@given(st.one_of(st.binary(max_size=40),
                 st.builds(lambda h, b: h + b, st.sampled_from([b"VOBS", b"VOBS\x00", b"VOBS\x07", b"!VCSK", b"!VCSK5a",
                                                                b"VOB", b"!VC"]), st.binary(max_size=30)),
                 st.builds(lambda b: b"!VCSK5a" + b.hex().encode(), st.binary(max_size=30))),
       st.lists(st.integers(0, 12), max_size=8))
def test_the_chunks_never_change_the_result(data, cuts):
    """Fed in any pieces, the stream decoder gives what it gives for the whole input, error included."""
    points = sorted({min(c, len(data)) for c in cuts})
    parts = [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]
    assert _decode(parts) == _decode([data])


def test_input_shorter_than_a_header_is_plain_text_as_vassal_reads_it():
    assert deobfuscate(b"VOB") == "VOB" and deobfuscate(b"!VCS") == "!VCS" and deobfuscate(b"") == ""


@pytest.mark.parametrize("raw,reason", [
    (b"VOBS", "VOBS header with no key byte (truncated)"),
    (b"VOBS\x00" + b"begin_save", "VOBS key byte is 0 (VASSAL never writes it): refused"),
    (b"VOBS\x2a", "VOBS header with no data after it (truncated)"),
    (b"!VCSK5", "broken !VCSK header (no two hex digits of key)"),
    (b"!VCSK5a3", "broken !VCSK obfuscation (odd number of hex digits: truncated?)"),
    (b"!VCSK5a 3b", "broken !VCSK obfuscation (not hex pairs)"),
])
def test_broken_headers_are_refused_by_name(raw, reason):
    with pytest.raises(ObfuscationError, match=reason.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        deobfuscate(raw)


# ---- hostile VOBS files through the command line: exit 2, one line ------------------------------------
def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _good() -> bytes:
    return read_saved_game(ENGINE / "kassala-3.7.vlog").text.encode("utf-8")


HOSTILE = {
    "key-0": (lambda: _zip({"savedGame": b"VOBS\x00" + _good()}), "savedGame: VOBS key byte is 0"),
    "truncated-header": (lambda: _zip({"savedGame": b"VOBS"}), "savedGame: VOBS header with no key byte (truncated)"),
    "header-no-data": (lambda: _zip({"savedGame": b"VOBS\x5a"}), "savedGame: VOBS header with no data after it"),
    "bare-header-no-data": (lambda: b"VOBS\x5a", "VOBS header with no data after it"),
    "wrong-key-not-utf8": (lambda: _zip({"savedGame": b"VOBS\xda" + vobs(_good(), 0x5A)[5:]}),
                           "savedGame: command text is not UTF-8 (byte 0) after VOBS key da (wrong key?)"),
    "wrong-key-ascii": (lambda: _zip({"savedGame": b"VOBS\x5b" + vobs(_good(), 0x5A)[5:]}),
                        "does not start with begin_save after VOBS key 5b (wrong key?)"),
    "truncated-mid-character": (lambda: _zip({"savedGame": vobs(_good()[:-1] + "é".encode()[:1], 0x11)}),
                                "command text is not UTF-8"),
    "bomb-inflates": (lambda: _bomb(), "savedGame inflates past its declared 100 bytes: refused (zip bomb?)"),
}


def _bomb() -> bytes:
    """A VOBS savedGame whose deflate stream gives 20 MB while its headers say 100 bytes."""
    import struct
    import zlib

    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    stream = c.compress(b"VOBS\x5a") + b"".join(c.compress(bytes(1 << 20)) for _ in range(20)) + c.flush()
    name = b"savedGame"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, 0, len(stream), 100, len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, 0, len(stream), 100,
                          len(name), 0, 0, 0, 0, 0, 0)
    body, cd = local + name + stream, central + name
    return body + cd + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), len(body), 0)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_vobs_files_give_exit_2_and_one_line(kind, tmp_path):
    make, reason = HOSTILE[kind]
    path = tmp_path / f"{kind}.vlog"
    path.write_bytes(make())
    with pytest.raises(LogFormatError) as exc:
        read_saved_game(path)
    assert reason in str(exc.value) and "\n" not in str(exc.value)
    result = runner.invoke(app, ["log", "dump", str(path)])
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}:") and reason in lines[0], lines


def test_a_game_log_as_vobs_audits_like_the_original(built, game, tmp_path):
    """Our own game's log, re-encoded as the main line writes it: the same findings, step for step."""
    from tests.conftest import SLUG
    from validators.audit import audit_file
    from validators.replay.writer import LogWriter

    w = LogWriter(built[0] / "generated" / SLUG / f"{SLUG}.vmod")
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.turn(1, "Activations")
    w.move("15pz-8pz-1", "0607")  # before its chit is drawn: rule 5.2
    original = tmp_path / "original.vlog"
    w.write(original)
    again = reencode(original, tmp_path / "vobs.vlog", 0xC3)
    findings = [(f.step, f.rule, f.message) for f in audit_file(game, original).violations]
    assert findings and findings == [(f.step, f.rule, f.message) for f in audit_file(game, again).violations]
