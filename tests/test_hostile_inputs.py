"""Hostile inputs to `hexforge audit` (issue 6): every bad file gives exit code 2 and one
stderr line that names it and says what is wrong, and a batch run goes on to the next file.

The corpus is generated here at run time (nothing large is committed): broken and lying
zips, zip bombs, odd entry names, bad text, wrong obfuscation, a 50 MB single line.
"""
from __future__ import annotations

import io
import json
import shutil
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.vassal.savefile import obfuscate
from tests.conftest import NO_REALDATA, REALDATA, SLUG
from validators.cli import app
from validators.vlog import container
from validators.replay.writer import LogWriter

REAL = REALDATA
KASSALA = REAL / "engine-logs" / "kassala-3.7.vlog"
MB = 1024 * 1024
runner = CliRunner()


# ---- crafting zips -----------------------------------------------------------------------------
def zip_of(entries: list[tuple[str, bytes]], level: int = 6) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buf.getvalue()


def raw_zip(name: bytes, stream: bytes, *, size: int, crc: int = 0, method: int = 8, flags: int = 0) -> bytes:
    """One entry, every header field as given (sizes and CRC may lie)."""
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, 0, 0x21, crc, len(stream), size, len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, method, 0, 0x21, crc, len(stream), size,
                          len(name), 0, 0, 0, 0, 0, 0)
    body = local + name + stream
    cd = central + name
    return body + cd + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), len(body), 0)


def deflated(data: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zeros_bomb(total: int) -> bytes:
    """A raw deflate stream of `total` zero bytes, made without holding them in memory."""
    c, chunk = zlib.compressobj(1, zlib.DEFLATED, -15), bytes(MB)
    return b"".join(c.compress(chunk) for _ in range(total // MB)) + c.flush()


def with_key(vcsk: bytes, key: str) -> bytes:
    return vcsk[:5] + key.encode() + vcsk[7:]


# ---- the corpus: name -> (make(dir, text) -> bytes | None, expected reason) --------------------------
# `text` is the plain command text of a good log; a maker returning None made the file itself.
def _module_zip(d, text):
    return zip_of([("buildFile.xml", b"<VASSAL.build.GameModule/>"), ("moduledata", b"<data/>")])


def _nul_name(d, text):
    return raw_zip(b"savedGame\x00.txt", deflated(text.encode()), size=len(text.encode()),
                   crc=zlib.crc32(text.encode()))


def _directory(d, text):
    (d / "folder.vlog").mkdir()


def _encrypted(d, text):
    raw = text.encode()
    return raw_zip(b"savedGame", deflated(raw), size=len(raw), crc=zlib.crc32(raw), flags=1)


def _bad_stream(d, text):
    raw = text.encode()
    return raw_zip(b"savedGame", b"\xff" * 64 + deflated(raw), size=len(raw), crc=zlib.crc32(raw))


ESC = "\x1b"
MODULEDATA = [b""]  # the built module's moduledata (the `logs` fixture sets it)


def _flood(unit: bytes, count: int, head: bytes = b"begin_save\x1bend_save") -> bytes:
    """A savedGame of `head` and `count` repeats of `unit`, compressed without holding it whole."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = unit * max(1, MB // len(unit))
    stream = c.compress(head) + b"".join(c.compress(block) for _ in range(count // (MB // len(unit))))
    rest = unit * (count % (MB // len(unit)))
    stream += c.compress(rest) + c.flush()
    size = len(head) + len(unit) * count
    crc = zlib.crc32(head)
    for _ in range(count // (MB // len(unit))):
        crc = zlib.crc32(block, crc)
    return raw_zip(b"savedGame", stream, size=size, crc=zlib.crc32(rest, crc))


def _deep_piece(d, text):
    """A log whose one step adds a piece of 400 nested traits (each level re-reads the rest)."""
    from builder.vassal.pieces import Trait, add_piece, basic_piece

    piece = add_piece("p1", [Trait("emb2;Step;x", "1")] * 400 + [basic_piece("a.png", "deep")])
    raw = (text + ESC + "LOG\t" + piece).encode()
    return zip_of([("savedGame", raw), ("moduledata", MODULEDATA[0])])  # our module's: read past its checks


CASES = {
    "truncated-zip": (lambda d, text: zip_of([("savedGame", obfuscate(text))])[:300], "broken zip"),
    "missing-savedGame": (lambda d, text: zip_of([("moduledata", b"<data/>")]), "no savedGame entry"),
    "wrong-case-savedGame": (lambda d, text: zip_of([("SavedGame", text.encode())]), "no savedGame entry"),
    "savedGame-not-a-log": (lambda d, text: zip_of([("savedGame", b"\x89PNG\r\n\x1a\n" + bytes(64))]),
                            "not UTF-8"),
    "savedGame-plain-junk": (lambda d, text: zip_of([("savedGame", b"hello world")]),
                             "does not start with begin_save"),
    "truncated-text": (lambda d, text: zip_of([("savedGame", text[: len(text) // 3].encode())]), "no end_save"),
    "module-not-log": (_module_zip, "a VASSAL module, not a save or log"),
    "bomb-declared": (lambda d, text: raw_zip(b"savedGame", deflated(b"begin_save"), size=0xF000_0000),
                      f"savedGame declares {0xF000_0000} bytes (limit {container.MAX_TEXT}): refused"),
    "bomb-inflates": (lambda d, text: raw_zip(b"savedGame", zeros_bomb(300 * MB), size=1000),
                      "savedGame inflates past its declared 1000 bytes: refused (zip bomb?)"),
    "dotdot-name": (lambda d, text: zip_of([("../savedGame", text.encode())]), "no savedGame entry"),
    "absolute-name": (lambda d, text: zip_of([("/savedGame", text.encode())]), "no savedGame entry"),
    "nul-in-name": (_nul_name, "no savedGame entry"),
    "non-utf8": (lambda d, text: zip_of([("savedGame", b"begin_save\x1b\xff\xfe\xfd")]), "not UTF-8 (byte 11)"),
    "garbage-50MB-line": (lambda d, text: zip_of([("savedGame", b"garbage!" * (50 * MB // 8))], level=1),
                          "does not start with begin_save"),
    "wrong-key-not-utf8": (lambda d, text: zip_of([("savedGame", with_key(obfuscate(text, 0x5A), "a5"))]),
                           "not UTF-8 (byte 0) after !VCSK key a5 (wrong key?)"),
    "wrong-key-ascii": (lambda d, text: zip_of([("savedGame", with_key(obfuscate(text, 0x5A), "5b"))]),
                        "does not start with begin_save after !VCSK key 5b (wrong key?)"),
    "broken-vcsk-hex": (lambda d, text: zip_of([("savedGame", b"!VCSK5a3" + b"zz" * 8)]),
                        "broken !VCSK obfuscation"),
    "vobs-key-0": (lambda d, text: b"VOBS" + bytes(range(256)), "VOBS key byte is 0 (VASSAL never writes it): refused"),
    "vobs-in-zip-wrong-key": (lambda d, text: zip_of([("savedGame", b"VOBS\x01\x02" + text.encode()[:100])]),
                              "savedGame: command text does not start with begin_save after VOBS key 01 (wrong key?)"),
    "empty": (lambda d, text: b"", "empty file"),
    "not-a-zip": (lambda d, text: b"GIF89a" + bytes(100), "not a VASSAL save or log"),
    "encrypted-entry": (_encrypted, "savedGame entry is encrypted: cannot read"),
    "corrupt-deflate": (_bad_stream, "broken savedGame entry"),
    "unknown-method": (lambda d, text: raw_zip(b"savedGame", b"abc", size=3, method=99), "broken savedGame entry"),
    "directory": (_directory, "no .vlog or .vsav file in it"),
    # issue 32: a small file asking for unbounded work is refused before the work
    "escape-flood-200MB": (lambda d, text: _flood(ESC.encode(), 200 * MB, b""),
                           f"savedGame declares {200 * MB} bytes (limit {container.MAX_TEXT}): refused"),
    "command-flood": (lambda d, text: _flood(ESC.encode(), 2_500_000),
                      "holds 2,500,002 commands (limit 2,000,000): refused"),
    "chat-flood": (lambda d, text: _flood(b"\x1bLOG\tCHAT<a> - x", 600_000),
                   "holds 600,000 logged steps (limit 500,000): refused"),
    "deep-piece": (_deep_piece, "a piece nests more than 300 traits: refused"),
}


def make(kind: str, d: Path, text: str) -> Path:
    maker, _ = CASES[kind]
    data = maker(d, text)
    if data is None:
        return d / "folder.vlog"
    path = d / f"{kind}.vlog"
    path.write_bytes(data)
    return path


# ---- fixtures ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def logs(built, tmp_path_factory):
    """Three good logs (clean, with a violation, the campaign save) and a good log's text."""
    root, _, zf = built
    vmod = root / "generated" / SLUG / f"{SLUG}.vmod"
    d = tmp_path_factory.mktemp("good")
    clean, bad = LogWriter(vmod), LogWriter(vmod)
    for w in (clean, bad):
        w.turn(1, "Chits into the mug")
        w.move("chit-15pz#1", "Mug")
        w.move("chit-7a", "Mug")
        w.turn(1, "Activations")
    clean.move("chit-15pz#1", "Activation 8")
    bad.move("15pz-8pz-1", "0607")  # before its chit is drawn: rule 5.2
    clean.write(d / "a-clean.vlog")
    bad.write(d / "b-violation.vlog")
    (d / "c-campaign.vsav").write_bytes(zf.read("campaign.vsav"))
    MODULEDATA[0] = zf.read("moduledata")
    return root, [d / "a-clean.vlog", d / "b-violation.vlog", d / "c-campaign.vsav"], clean.text()


@pytest.fixture
def cli(logs, monkeypatch):
    monkeypatch.setattr(builder.paths, "ROOT", logs[0])

    def invoke(*args: str):
        result = runner.invoke(app, ["audit", SLUG, *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "Traceback" not in result.stdout + result.stderr
        return result
    return invoke


def one_error_line(result, path: Path, reason: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:") and reason in lines[0], lines[0]


# ---- one hostile file at a time -------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_hostile_file_exits_2_with_one_line(kind, cli, logs, tmp_path):
    path = make(kind, tmp_path, logs[2])
    one_error_line(cli(path), path, CASES[kind][1])


def test_a_log_of_another_game(cli):
    if not KASSALA.is_file():
        pytest.skip(NO_REALDATA)
    one_error_line(cli(KASSALA), KASSALA, "a log of module 'Kassala', not 'Bravery in the Sand'")


def test_a_savedGame_over_the_limit_is_refused_on_its_declared_size(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(container, "MAX_TEXT", MB)
    honest = tmp_path / "honest-2MB.vlog"
    honest.write_bytes(zip_of([("savedGame", b"begin_save" + bytes(2 * MB))], level=1))
    one_error_line(cli(honest), honest, f"savedGame declares {2 * MB + 10} bytes (limit {MB}): refused")
    bare = tmp_path / "bare-2MB.vlog"
    bare.write_bytes(b"begin_save" + bytes(2 * MB))
    one_error_line(cli(bare), bare, f"larger than {MB} bytes: refused")


def test_a_50MB_chat_line_in_a_good_log_is_read(cli, logs, tmp_path):
    """A real (plain-text) savedGame whose one chat line is 50 MB: audited, not refused."""
    root = logs[0]
    w = LogWriter(root / "generated" / SLUG / f"{SLUG}.vmod")
    w.chat("Axis", "x" * (50 * MB))
    path = tmp_path / "big-chat.vlog"
    path.write_bytes(zip_of([("savedGame", w.text().encode()), ("moduledata", w.moduledata)], level=1))
    result = cli(path)
    assert result.exit_code == 0, result.stderr
    assert "1 steps" in result.stdout and "0 violation(s)" in result.stdout


# ---- batches ---------------------------------------------------------------------------------------
def test_a_batch_reports_every_file_and_goes_on(cli, logs, tmp_path):
    d = tmp_path / "mixed"
    d.mkdir()
    bad = {make(kind, d, logs[2]).name: reason for kind, (_, reason) in CASES.items() if kind != "directory"}
    bad["folder.vlog"] = "is a directory, not a save or log"
    (d / "folder.vlog").mkdir()
    if KASSALA.is_file():
        shutil.copy(KASSALA, d / "kassala.vlog")
        bad["kassala.vlog"] = "a log of module 'Kassala'"
    for good in logs[1]:
        shutil.copy(good, d / good.name)
    (d / "notes.txt").write_text("not a log: ignored")
    out = tmp_path / "reports"
    result = cli(d, "--out", out, "--jobs", "2")
    assert result.exit_code == 2
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:-1]}
    assert sorted(rows) == sorted(str(d / n) for n in [*bad, "a-clean.vlog", "b-violation.vlog", "c-campaign.vsav"])
    for name, reason in bad.items():
        status = rows[str(d / name)].split("  unreadable: ", 1)[1]
        assert reason in f"{d / name}: {status}", (name, status)
    assert rows[str(d / "a-clean.vlog")].split()[1:] == ["5", "0", "0", "ok"]
    assert rows[str(d / "b-violation.vlog")].split()[1:] == ["5", "1", "0", "violations"]
    assert rows[str(d / "c-campaign.vsav")].split()[-1] == "ok"
    assert result.stdout.splitlines()[-1] == f"{len(rows)} file(s): 2 ok, 1 with violations, {len(bad)} unreadable"
    errors = result.stderr.splitlines()
    assert sorted(line.split(":")[0] for line in errors) == sorted(str(d / n) for n in bad)
    assert sorted(p.name for p in out.iterdir()) == ["a-clean.vlog.txt", "b-violation.vlog.txt", "c-campaign.vsav.txt"]


def test_batch_json_and_exit_codes(cli, logs, tmp_path):
    clean, violation, campaign = logs[1]
    assert cli(clean, campaign).exit_code == 0
    result = cli(clean, violation, "--format", "json", "--out", tmp_path / "r", "--jobs", "1")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert [(f["file"], f["status"], f["violations"]) for f in doc["files"]] == \
        [(str(clean), "ok", 0), (str(violation), "violations", 1)]
    assert doc["totals"] == {"files": 2, "ok": 1, "violations": 1, "unreadable": 0} and doc["exit_code"] == 1
    assert doc["files"][1]["report"]["violations"][0]["rule"] == "5.2"
    written = json.loads((tmp_path / "r" / "b-violation.vlog.json").read_text())
    assert written == doc["files"][1]["report"]
    empty = tmp_path / "empty.vlog"
    empty.write_bytes(b"")
    doc = json.loads(cli(clean, empty, "--format", "json").stdout)
    assert doc["files"][1] == {"file": str(empty), "status": "unreadable", "reason": "empty file"}
    assert doc["exit_code"] == 2


def test_a_file_past_its_cpu_budget_is_reported_and_the_batch_goes_on(cli, logs, tmp_path, monkeypatch):
    """--timeout is CPU time, so the outcome does not depend on the machine's speed or load."""
    from validators import batch

    clean, violation, _ = logs[1]
    real = batch.audit_file

    def endless_for_one(game, path, *args):
        while path == violation:  # a file whose audit never ends
            pass
        return real(game, path, *args)

    monkeypatch.setattr(batch, "audit_file", endless_for_one)
    one_error_line(cli(violation, "--timeout", "0.5"), violation, "used its 0.5 s of CPU (--timeout) before the audit "
                   "ended: not audited")
    result = cli(violation, clean, "--timeout", "0.5", "--jobs", "1")
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] == "2 file(s): 1 ok, 0 with violations, 1 unreadable"


@pytest.mark.parametrize("kind", ["command-flood", "chat-flood", "deep-piece"])
def test_log_dump_shares_the_limits(kind, logs, tmp_path, monkeypatch):
    """`log dump` reads with the same reader (its lines are written as the log is read): the
    same files are refused with the same one line, exit 2, whether the limit is met before the
    first line or by a step the replay reaches."""
    monkeypatch.setattr(builder.paths, "ROOT", logs[0])
    path = make(kind, tmp_path, logs[2])
    result = runner.invoke(app, ["log", "dump", str(path), "--format", "json"])
    assert result.exit_code == 2 and "Traceback" not in result.stdout + result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}:") and CASES[kind][1] in line
