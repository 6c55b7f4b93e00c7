"""`hexforge log dump`: a log read like a game report (issue 17).

Hex ids and phase names from the game's own module (--game) or any module (--module), chat as
VASSAL's chat window shows it, undone steps listed and marked, a move shown once (not again as
the engine's report of it), and --format json for tools.
"""
from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

import builder.paths
from tests.conftest import NO_REALDATA, REALDATA, SLUG
from validators.cli import app
from validators.replay.writer import LogWriter

REAL = REALDATA
RAGNAROK = REAL / "engine-logs" / "ragnarok-3.8.vlog"
runner = CliRunner()
STEP = re.compile(r"^\s*(\d+)  (\S+(?: \S+)?)\s+(.*)$")


@pytest.fixture(scope="module")
def match(built, tmp_path_factory):
    """A short Bravery in the Sand log written as the engine writes it, with an undone move."""
    root, _, _ = built
    w = LogWriter(root / "generated" / SLUG / f"{SLUG}.vmod")
    w.turn(1, "Chits into the mug")                    # 1
    w.move("chit-15pz#1", "Mug")                       # 2
    w.turn(1, "Activations")                           # 3
    w.move("chit-15pz#1", "Activation 8")              # 4
    w.move("15pz-8pz-1", "0607")                       # 5, taken back by 6
    w.undo()                                           # 6
    w.move("15pz-8pz-1", "0606")                       # 7
    w.chat("Axis", "I attack <Tobruk> & Sidi Rezegh")  # 8
    w.roll("Axis dice", [5, 2], "Axis")                # 9
    path = tmp_path_factory.mktemp("dump") / "match.vlog"
    w.write(path)
    return root, path


@pytest.fixture
def cli(match, monkeypatch):
    monkeypatch.setattr(builder.paths, "ROOT", match[0])

    def invoke(*args: str):
        result = runner.invoke(app, ["log", "dump", *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "Traceback" not in result.stdout + result.stderr
        return result
    return invoke


def steps(stdout: str) -> dict[int, list[tuple[str, str]]]:
    out: dict[int, list[tuple[str, str]]] = {}
    for line in stdout.splitlines():
        m = STEP.match(line)
        if m:
            out.setdefault(int(m[1]), []).append((m[2], m[3]))
    return out


def test_a_log_reads_like_a_game_report(cli, match):
    result = cli(match[1], "--game", SLUG)
    assert result.exit_code == 0, result.stderr
    head = result.stdout.splitlines()[0]
    assert head.startswith(f"{match[1]} (Bravery in the Sand") and "9 logged steps, 1 undone" in head
    s = steps(result.stdout)
    assert s[1] == [("turn", "Turn 1: Chits into the mug")] and s[3] == [("turn", "Turn 1: Activations")]
    assert s[4] == [("move", "15PZ chit: Mug -> Activation 8")]
    unit = "8th Panzer Regiment (I. Abteilung) (15PZ)"
    assert s[5] == [("undone move", f"{unit}: 0608 -> 0607  [undone by step 6]")]
    assert s[6] == [("undo", "takes back step 5")]
    assert s[7] == [("move", f"{unit}: 0608 -> 0606")]  # the undo put it back on 0608
    assert s[8] == [("chat", "<Alice> - I attack <Tobruk> & Sidi Rezegh")]
    assert s[9] == [("dice", "Axis dice: 5, 2 (Alice)")]
    assert "&lt;" not in result.stdout and "&amp;" not in result.stdout and "phase #" not in result.stdout
    assert " moves " not in result.stdout and "Turn Updated" not in result.stdout  # the engine's own reports


def test_json_for_tools(cli, match):
    result = cli(match[1], "--game", SLUG, "--format", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["module"] == "Bravery in the Sand" and doc["steps"] == 9 and doc["undone_steps"] == [5]
    by_step = {s["step"]: s for s in doc["log"]}
    assert sorted(by_step) == list(range(1, 10))
    (move,) = by_step[5]["events"]
    assert by_step[5]["undone_by"] == 6 and move["kind"] == "move"
    assert (move["from"]["location"], move["to"]["location"]) == ("0608", "0607")
    assert by_step[6]["events"] == [{"kind": "undo", "text": "takes back step 5", "undoes": 5}]
    assert by_step[1]["events"][0]["phase"] == "Chits into the mug"
    assert by_step[9]["events"][0]["dice"] == [5, 2]


def test_without_a_module_pixels_stand_in_for_hexes(cli, match):
    result = cli(match[1])
    assert result.exit_code == 0, result.stderr
    s = steps(result.stdout)
    assert s[5][0][0] == "undone move" and re.search(r"Main Map \(\d+,\d+\) -> Main Map \(\d+,\d+\)", s[5][0][1])
    assert s[1] == [("turn", "Turn 1, phase 2 of the tracker")]


@pytest.mark.parametrize("args,reason", [
    (["--game", "no-such-game"], "unknown game 'no-such-game'"),
    (["--game", SLUG, "--module", "x.vmod"], "--game and --module: name one"),
    (["--module", "missing.vmod"], "--module missing.vmod: no such file"),
    (["--format", "xml"], "--format: unknown format 'xml'"),
])
def test_bad_options_give_exit_2_and_one_line(cli, match, args, reason):
    result = cli(match[1], *args)
    assert result.exit_code == 2 and result.stderr.splitlines() == [result.stderr.strip()]
    assert reason in result.stderr


def test_a_log_of_another_game(cli, match):
    if not RAGNAROK.is_file():
        pytest.skip(NO_REALDATA)
    result = cli(RAGNAROK, "--game", SLUG)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{RAGNAROK}: a log of module 'Ragnarok (SPI) 1981', not 'Bravery in the Sand'"


@pytest.mark.skipif(not RAGNAROK.is_file(), reason=NO_REALDATA)
def test_a_real_engine_log_with_its_module(tmp_path):
    """The engine's own 3.8.0-beta1 log: hex ids from the module, its reports dropped, the undo shown."""
    img = io.BytesIO()
    Image.new("L", (3300, 2450)).save(img, "JPEG")
    vmod = tmp_path / "ragnarok.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        z.write(REAL / "ragnarok" / "buildFile.xml", "buildFile.xml")
        z.write(REAL / "ragnarok" / "moduledata", "moduledata")
        z.writestr("images/map.jpg", img.getvalue())
    result = runner.invoke(app, ["log", "dump", str(RAGNAROK), "--module", str(vmod)])
    assert result.exit_code == 0, result.stderr
    s = steps(result.stdout)
    assert s[1] == [("move", "hero-odin: deployment (139,54) -> 0905")]
    assert s[6] == [("undone move", "unit-berserk: deployment (48,173) -> 1006  [undone by step 7]")]
    assert s[7] == [("undo", "takes back step 6")]
    assert s[8] == [("turn", "Turn 2")]  # the tracker's "Turn Updated" report is not repeated
    assert s[12] == [("add", "en-freyr at 1010")]  # nor "created in 1010"
    assert s[13] == [("move", "en-freyr: 1010 -> 1011")]
    assert s[4] == [("chat", "<Bob> - Odin is wounded")]


@pytest.mark.parametrize("module", [(), ("--game", SLUG)], ids=["no module", "its module"])
def test_a_flip_is_one_line_not_again_as_the_engines_report(cli, module):
    """The real engine reports a flip in the chat (the counter's Report Action); the dump shows
    the flip once, as it shows a move once."""
    log = Path(__file__).parent / "fixtures" / "engine" / "bits-all-actions.vlog"
    result = cli(log, *module)
    assert result.exit_code == 0, result.stderr
    s = steps(result.stdout)
    unit = "8th Panzer Regiment (I. Abteilung) (15PZ)"
    assert [k for k, _ in s[8]] == ["flip"] and s[8][0][1].startswith(f"{unit} (reduced): Step 1 -> 2 at ")
    assert [k for k, _ in s[9]] == ["flip"] and " becomes " not in result.stdout


def test_a_modules_own_report_formats_are_read_from_its_pieces(built):
    from validators.dump import read_module_view

    root, _, _ = built
    view = read_module_view(root / "generated" / SLUG / f"{SLUG}.vmod")
    assert any(p.match("* 0608: 8th Panzer (15PZ) becomes 8th Panzer (15PZ) (reduced) *") for p in view.flip_reports)
    assert not any(p.match("* Road march: 62 Marmarica Division from C2331") for p in view.flip_reports)
