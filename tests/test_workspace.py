"""Where hexforge works (the current folder, as git does), and the command line's paper cuts:
each case once met by a newcomer (issue 32) answered with one line, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from validators.cli import app  # every command (builder.cli holds the build ones)
from builder.paths import REPO, find_root

runner = CliRunner()


def hexforge(cwd: Path, *args: str, root: str | None = None) -> subprocess.CompletedProcess:
    """The installed command run in `cwd`, with HEXFORGE_ROOT as given (unset by default)."""
    env = {k: v for k, v in os.environ.items() if k not in ("HEXFORGE_ROOT", "PYTHONPATH")}
    if root is not None:
        env["HEXFORGE_ROOT"] = root
    exe = Path(sys.executable).parent / "hexforge"
    return subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_the_workspace_is_the_nearest_folder_holding_sources(tmp_path, monkeypatch):
    monkeypatch.delenv("HEXFORGE_ROOT", raising=False)
    (tmp_path / "sources" / "demo" / "maps").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "sources" / "demo" / "maps")
    assert find_root() == tmp_path
    monkeypatch.setenv("HEXFORGE_ROOT", str(REPO))  # the variable still overrides
    assert find_root() == REPO


def test_an_empty_folder_is_its_own_workspace(tmp_path, monkeypatch):
    monkeypatch.delenv("HEXFORGE_ROOT", raising=False)
    monkeypatch.chdir(tmp_path)
    assert find_root() == tmp_path


def test_new_in_an_empty_folder_starts_there_and_never_writes_into_the_install(tmp_path):
    before = sorted(p.name for p in (REPO / "sources").iterdir())
    listed = hexforge(tmp_path, "list")
    assert listed.returncode == 0 and "no games in" in listed.stdout and "hexforge new" in listed.stdout
    made = hexforge(tmp_path, "new", "demo")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "sources" / "demo" / "game.yaml").is_file()
    assert sorted(p.name for p in (REPO / "sources").iterdir()) == before
    inside = hexforge(tmp_path / "sources" / "demo", "list")  # found from a folder below, as git finds .git
    assert inside.stdout.split() == ["demo"]


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("hexforge ")
    assert result.output.split()[1][0].isdigit() or "not installed" in result.output


@pytest.fixture
def demo(tmp_path, monkeypatch) -> Path:
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    assert runner.invoke(app, ["new", "demo"]).exit_code == 0
    return tmp_path / "sources" / "demo"


def test_fit_map_without_a_geography_is_one_problem(demo):
    result = runner.invoke(app, ["fit-map", "demo"])
    assert result.exit_code == 1 and (result.exception is None or isinstance(result.exception, SystemExit))
    assert "sources/demo/geography.yaml:1:1: missing source file geography.yaml" in result.output
    assert not (demo / "map-terrain.yaml.tmp").exists()


def test_fit_map_with_a_broken_geography_names_the_line(demo):
    (demo / "geography.yaml").write_text("anchors: 3\n", encoding="utf-8")
    result = runner.invoke(app, ["fit-map", "demo"])
    assert result.exit_code == 1 and "sources/demo/geography.yaml:" in result.output
    assert "Traceback" not in result.output


def test_schema_into_a_folder_that_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["schema", "--out", str(blocker / "schemas")])
    assert result.exit_code == 2 and "cannot write there" in result.output


@pytest.mark.parametrize("slug", builder.paths.games(REPO))
def test_rules_names_its_books_without_a_developers_path(slug, monkeypatch):
    monkeypatch.setattr(builder.paths, "ROOT", REPO)
    text = runner.invoke(app, ["rules", slug]).output
    assert text.split("\n")[1].startswith("from ") and " rule" in text.split("\n")[1]  # the book, by name
    assert "../" not in text and "/shared/" not in text and "/work/" not in text
