"""`hexforge audit` used wrongly gets one clear line and exit 2; the report format follows --out.

The format of one log's report is --format, else the --out file's extension (.txt, .json,
.html, .htm), else text; a --format that contradicts a known extension is refused.  A batch
--out must be a directory: a path naming a file (existing, or with an extension) is refused.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from tests.conftest import SLUG
from validators.cli import app
from validators.replay.writer import LogWriter

runner = CliRunner()


@pytest.fixture(scope="module")
def root(built, tmp_path_factory) -> Path:
    """The scratch root of the built module, with one log holding a violation (rule 5.2)."""
    root, _, _ = built
    w = LogWriter(root / "generated" / SLUG / f"{SLUG}.vmod")
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.turn(1, "Activations")
    w.move("15pz-8pz-1", "0607")  # before its chit is drawn: rule 5.2
    logs = root / "logs"
    logs.mkdir(exist_ok=True)
    w.write(logs / "bad.vlog")
    return root


@pytest.fixture
def audit(root, monkeypatch):
    monkeypatch.setattr(builder.paths, "ROOT", root)

    def invoke(*args: str, game: str = SLUG):
        result = runner.invoke(app, ["audit", game, *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "Traceback" not in result.stdout + result.stderr
        return result
    return invoke


def refused(result, *fragments: str) -> str:
    """The one line of a refusal (exit 2, nothing on stdout)."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert not result.stdout
    assert all(f in lines[0] for f in fragments), lines[0]
    return lines[0]


# ---- a game with no rules module -------------------------------------------------------------------
def test_a_game_with_no_rules_module_names_the_games_that_can_be_audited(audit, root, tmp_path, monkeypatch):
    # a game of its own root: the shared build root keeps only the real games
    shutil.copytree(root / "sources" / SLUG, tmp_path / "sources" / SLUG)
    mine = shutil.copytree(root / "sources" / SLUG, tmp_path / "sources" / "my-desert-game") / "game.yaml"
    text = mine.read_text(encoding="utf-8")
    assert "\nrules: " in text  # the copy loses its game.yaml 'rules:' entry
    mine.write_text("".join(l for l in text.splitlines(keepends=True) if not l.startswith("rules: ")), encoding="utf-8")
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    line = refused(audit(root / "logs" / "bad.vlog", game="my-desert-game"),
                   "my-desert-game: no rules module, its logs cannot be audited")
    assert line.endswith("games that can be audited: " + SLUG)


# ---- the format follows --out --------------------------------------------------------------------------
@pytest.mark.parametrize("name, check", [
    ("report.html", lambda text: text.lstrip().lower().startswith("<!doctype html")),
    ("report.HTM", lambda text: text.lstrip().lower().startswith("<!doctype html")),
    ("report.json", lambda text: json.loads(text)["summary"] is not None),
    ("report.txt", lambda text: "rule 5.2" in text and not text.lstrip().startswith(("{", "<"))),
    ("report", lambda text: "rule 5.2" in text and not text.lstrip().startswith(("{", "<"))),
])
def test_out_without_format_takes_the_format_of_its_extension(audit, root, tmp_path, name, check):
    out = tmp_path / name
    result = audit(root / "logs" / "bad.vlog", "--out", out)
    assert result.exit_code == 1, result.stderr  # the log has a violation
    assert check(out.read_text(encoding="utf-8"))


def test_format_decides_for_a_file_without_an_extension(audit, root, tmp_path):
    out = tmp_path / "report"
    assert audit(root / "logs" / "bad.vlog", "--out", out, "--format", "json").exit_code == 1
    assert json.loads(out.read_text(encoding="utf-8"))["violations"]


@pytest.mark.parametrize("name", ["report.pdf", "report.out"])
def test_an_extension_that_is_no_report_format_is_refused(audit, root, tmp_path, name):
    out = tmp_path / name  # a .pdf holding text would not open
    for extra in ([], ["--format", "text"]):
        refused(audit(root / "logs" / "bad.vlog", "--out", out, *extra),
                f"--out {out}: {out.suffix} is not a report format", ".txt, .json, .html, .htm file")
    assert not out.exists()


def test_format_that_contradicts_the_extension_is_refused(audit, root, tmp_path):
    out = tmp_path / "report.html"
    refused(audit(root / "logs" / "bad.vlog", "--out", out, "--format", "json"),
            f"--out {out}: the extension asks for html but --format is json", "name a .json file")
    assert not out.exists()


def test_an_explicit_format_that_agrees_with_the_extension(audit, root, tmp_path):
    out = tmp_path / "report.htm"
    assert audit(root / "logs" / "bad.vlog", "--out", out, "--format", "html").exit_code == 1
    assert out.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_one_log_out_to_a_directory_is_refused(audit, root, tmp_path):
    refused(audit(root / "logs" / "bad.vlog", "--out", tmp_path), f"--out {tmp_path}: is a directory")


# ---- a batch --out names a directory -------------------------------------------------------------------
def test_a_batch_out_naming_an_existing_file_is_refused(audit, root, tmp_path):
    out = tmp_path / "reports"
    out.write_text("keep me")
    refused(audit(root / "logs", "--out", out), f"--out {out}: names a file")
    assert out.read_text() == "keep me"


@pytest.mark.parametrize("name", ["reports.html", "summary.json", "out.txt"])
def test_a_batch_out_with_a_file_extension_is_refused(audit, root, tmp_path, name):
    out = tmp_path / name
    refused(audit(root / "logs", "--out", out), f"--out {out}: names a file",
            "create the directory first")
    assert not out.exists()


def test_a_batch_out_directory_is_created_and_an_existing_dotted_one_is_used(audit, root, tmp_path):
    fresh = tmp_path / "reports"
    assert audit(root / "logs", "--out", fresh, "--format", "html").exit_code == 1
    assert (fresh / "bad.vlog.html").is_file()
    dotted = tmp_path / "reports.v2"
    dotted.mkdir()
    assert audit(root / "logs", "--out", dotted).exit_code == 1
    assert (dotted / "bad.vlog.txt").is_file()
