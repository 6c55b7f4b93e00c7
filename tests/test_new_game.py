"""`hexforge new`: the starter game checks, builds and is audited by the generic rules; `--from`
copies a game; an existing slug is refused (issue 16)."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.model import load_game
from builder.model.json_schema import schema_line
from builder.new_game import starter_files
from tests.conftest import SLUG, copy_sources
from validators.cli import app
from validators.games import rules_for
from validators.kernel.movement import crossing
from validators.replay.writer import LogWriter

runner = CliRunner()
PLAYERS = {"Blue": ("blue-user", "Alice"), "Red": ("red-user", "Bob")}


def hexforge(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """(root, game, vmod) of `hexforge new demo` then `hexforge build demo` in a scratch root."""
    root = tmp_path_factory.mktemp("new")
    mp = pytest.MonkeyPatch()
    mp.setattr(builder.paths, "ROOT", root)
    try:
        made = hexforge("new", "demo")
        assert made.exit_code == 0, made.stderr
        checked = hexforge("check", "demo")
        assert checked.exit_code == 0, checked.stderr
        assert "20 hexes, 4 units in 2 formations" in checked.stdout
        built = hexforge("build", "demo")
        assert built.exit_code == 0, built.stderr
    finally:
        mp.undo()
    vmod = root / "generated" / "demo" / "demo.vmod"
    assert vmod.is_file()
    return root, load_game(root / "sources" / "demo"), vmod


def audit(root: Path, log: Path):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", root)
        return hexforge("audit", "demo", str(log))


def violations(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("step ")]


def test_the_starter_is_small_and_complete(demo):
    _, game, _ = demo
    assert len(game.sides) == 2 and len(game.scenarios) == 1 and game.tables
    assert sorted(game.side_of_unit(u).id for u in game.units) == ["blue", "blue", "red", "red"]
    assert game.info.rules == "validators.kernel.generic"
    assert rules_for(game).__module__ == "validators.kernel.generic"
    for rel in starter_files("Demo"):
        first = (game.root / rel).read_text(encoding="utf-8").split("\n", 1)[0]
        assert first == schema_line(rel)


def test_a_legal_and_an_illegal_move(demo, tmp_path):
    root, game, vmod = demo
    w = LogWriter(vmod, setup="meeting.vsav", players=PLAYERS)
    w.move("blue-armor", "0202")
    w.move("blue-armor", "0302")      # two road hexsides: 1 MP of its 3 - legal
    w.move("blue-infantry", "0203")
    w.move("blue-infantry", "0303")   # 2 MP of 2 - legal
    w.move("blue-infantry", "0403")   # a third MP: over its MA
    w.write(tmp_path / "game.vlog")
    result = audit(root, tmp_path / "game.vlog")
    assert result.exit_code == 1, result.stdout
    found = violations(result.stdout)
    assert len(found) == 1, result.stdout
    assert "Blue Infantry spends 3 MP this turn, more than its MA of 2" in found[0] and "0303 -> 0403" in found[0]


def test_the_allowance_starts_again_each_turn_and_an_undone_move_costs_nothing(demo, tmp_path):
    root, game, vmod = demo
    w = LogWriter(vmod, setup="meeting.vsav", players=PLAYERS)
    w.move("blue-infantry", "0203")
    w.move("blue-infantry", "0303")   # 2 MP: the whole MA
    w.turn(2, "Move")
    w.move("blue-infantry", "0403")
    w.move("blue-infantry", "0503")   # 2 MP again in turn 2
    w.undo()
    w.move("blue-infantry", "0402")   # the undone move is left out: still 2 MP
    w.write(tmp_path / "clean.vlog")
    result = audit(root, tmp_path / "clean.vlog")
    assert result.exit_code == 0, result.stdout
    assert violations(result.stdout) == []


def test_a_prohibited_hex_cannot_be_entered(demo, tmp_path):
    root, game, vmod = demo
    assert crossing(game, "0403", "0404").cost is None  # the lake, next to 0403
    w = LogWriter(vmod, setup="meeting.vsav", players=PLAYERS)
    w.move("red-infantry", "0403")
    w.move("red-infantry", "0404")
    w.write(tmp_path / "lake.vlog")
    found = violations(audit(root, tmp_path / "lake.vlog").stdout)
    assert len(found) == 1 and "rule 2:" in found[0] and "lake cannot be entered" in found[0], found


def test_an_existing_slug_is_refused_and_nothing_changes(demo):
    root, _, _ = demo
    before = {p: p.read_bytes() for p in (root / "sources").rglob("*") if p.is_file()}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", root)
        for args, fragment in ((["new", "demo"], "sources/demo already exists"),
                               (["new", "Bad Slug"], "is not a game slug"),
                               (["new", "other", "--from", "nope"], "--from 'nope': no such game; games: demo")):
            result = hexforge(*args)
            assert result.exit_code == 2 and not result.stdout
            assert result.stderr.count("\n") == 1 and fragment in result.stderr, result.stderr
    assert {p: p.read_bytes() for p in (root / "sources").rglob("*") if p.is_file()} == before


def test_from_copies_a_game_with_its_rules(tmp_path, monkeypatch):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = hexforge("new", "my-crusader", "--from", SLUG)
    assert result.exit_code == 0, result.stderr
    src, dst = tmp_path / "sources" / SLUG, tmp_path / "sources" / "my-crusader"
    files = sorted(p.relative_to(src) for p in src.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(dst) for p in dst.rglob("*") if p.is_file())
    assert all((src / f).read_bytes() == (dst / f).read_bytes() for f in files)
    assert hexforge("check", "my-crusader").exit_code == 0
    assert rules_for("my-crusader") is rules_for(SLUG)
