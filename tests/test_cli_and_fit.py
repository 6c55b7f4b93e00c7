"""The command line, and the map reconstruction that produced map-terrain.yaml."""
from __future__ import annotations

from typer.testing import CliRunner

import builder.paths
from builder.cli import app
from builder.model import geofit
from builder.model.load import load_map
from tests.conftest import SLUG, copy_sources

runner = CliRunner()


def test_list_and_check(tmp_path, monkeypatch):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    assert runner.invoke(app, ["list"]).output.split() == [SLUG]
    result = runner.invoke(app, ["check", SLUG])
    assert result.exit_code == 0
    assert "126 hexes, 61 units in 21 formations, 23 markers, 18 chits, 1 scenario" in " ".join(result.output.split())


def test_build_all_writes_module_and_map(tmp_path, monkeypatch):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = runner.invoke(app, ["build", "--all"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "generated" / SLUG
    assert (out / f"{SLUG}.vmod").read_bytes()[:2] == b"PK"
    assert (out / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_unknown_game_is_a_clear_error(tmp_path, monkeypatch):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = runner.invoke(app, ["build", "no-such-game"])
    assert result.exit_code == 2 and "unknown game 'no-such-game'" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_fit_map_reproduces_the_committed_terrain(game):
    """map-terrain.yaml is exactly what `hexforge fit-map` derives from geography.yaml."""
    root = builder.paths.REPO / "sources" / SLUG
    data, errors = geofit.reconstruct(load_map(root), geofit.load_geography(root))
    assert geofit.dump(data) == (root / "map-terrain.yaml").read_text(encoding="utf-8")
    assert max(errors.values()) < 1.5  # every named place within 1.5 hexes of an affine fit


def test_reconstructed_map_keeps_the_rules_geography(game):
    """Facts the rules rely on: land where units must stand, routes to the exits (13.1.1.3)."""
    assert all(game.hex_terrain[h] != "sea" for h in ("0902", "0903", "0803", "0804", "0904"))
    assert game.hex_terrain["0905"] == "sea"  # Tobruk is a port
    route = {k for k, v in game.hexside_features.items() if v & {"road", "track"}}
    exits = [p.hex for p in game.map.places if p.name == "To Alexandria"]
    goals = {"0608", "0605", "0403"}
    for start in exits:
        seen, todo = {start}, [start]
        while todo:
            a = todo.pop()
            for b in game.geometry.neighbours(a):
                if b not in seen and tuple(sorted((a, b))) in route:
                    seen.add(b)
                    todo.append(b)
        assert seen & goals, start
    assert ("0313", "0413") in {k for k, v in game.hexside_features.items() if "cliff" in v}
