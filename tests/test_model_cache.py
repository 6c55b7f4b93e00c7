"""The validated game-model cache (builder/model/cache.py): used only for the same bytes, never
trusted when stale or damaged, and the model it gives back is the one a fresh load builds."""
from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from builder.model import SourceError, load_game
from builder.model import cache
from builder.model.load import _load_game
from builder.model.plain import plain_game
from builder.paths import REPO as ROOT

SLUG = "bravery-in-the-sand"


@pytest.fixture
def game_dir(tmp_path: Path, monkeypatch) -> Path:
    dest = tmp_path / "sources" / SLUG
    shutil.copytree(ROOT / "sources" / SLUG, dest)
    monkeypatch.setenv("HEXFORGE_MODEL_CACHE", str(tmp_path / "cache"))
    return dest


@pytest.fixture(params=["model", "plain"])
def kind(request) -> str:
    """Each cache test runs on the model and on its plain copy (builder/model/plain.py)."""
    return request.param


def _fresh(game_dir: Path, kind: str):
    game = _load_game(game_dir)
    return plain_game(game) if kind == "plain" else game


def _counting(monkeypatch) -> list[Path]:
    """Record every fresh load (YAML + validation + cross-file checks) that load_game does."""
    calls: list[Path] = []

    def fresh(root: Path):
        calls.append(root)
        return _load_game(root)

    monkeypatch.setattr("builder.model.load._load_game", fresh)
    return calls


def test_the_cached_model_equals_a_fresh_load(game_dir: Path, monkeypatch, kind: str):
    calls = _counting(monkeypatch)
    first = load_game(game_dir, kind == "plain")
    again = load_game(game_dir, kind == "plain")
    assert len(calls) == 1, "the second load must come from the cache"
    assert cache.cache_file(game_dir, kind).is_file()
    assert again is not first and again == _fresh(game_dir, kind)
    assert again.units == first.units and again.geometry.labels == first.geometry.labels
    assert again.unit_types == first.unit_types and again.root == game_dir


def test_a_changed_source_invalidates_the_cache(game_dir: Path, monkeypatch, kind: str):
    calls = _counting(monkeypatch)
    load_game(game_dir, kind == "plain")
    game_yaml = game_dir / "game.yaml"
    text = game_yaml.read_text()
    title = _load_game(game_dir).info.title
    game_yaml.write_text(text.replace(f"title: {title}", f"title: {title} (cached?)", 1))
    changed = load_game(game_dir, kind == "plain")
    assert len(calls) == 2
    assert changed.info.title == f"{title} (cached?)"


def test_a_source_broken_after_caching_is_reported_not_served_from_cache(game_dir: Path, monkeypatch, kind: str):
    load_game(game_dir, kind == "plain")
    (game_dir / "units.yaml").write_text("units: [\n")  # not YAML any more
    with pytest.raises(SourceError):
        load_game(game_dir, kind == "plain")
    with pytest.raises(SourceError):  # and nothing was cached for the broken bytes
        load_game(game_dir, kind == "plain")


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "other-key"])
def test_a_corrupt_cache_file_is_ignored_and_rebuilt(game_dir: Path, monkeypatch, damage: str, kind: str):
    load_game(game_dir, kind == "plain")
    path = cache.cache_file(game_dir, kind)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        path.write_bytes(data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])
    elif damage == "garbage":
        path.write_bytes(b"not a cache at all")
    elif damage == "empty":
        path.write_bytes(b"")
    else:  # a whole, well-formed file made for other bytes
        payload = pickle.dumps("not a game")
        path.write_bytes(cache.MAGIC + b"0" * 64 + cache.digest(payload) + payload)
    calls = _counting(monkeypatch)
    game = load_game(game_dir, kind == "plain")
    # a damaged model is rebuilt from the sources; a damaged plain copy from the (whole) cached model
    assert len(calls) == (1 if kind == "model" else 0)
    assert game == _fresh(game_dir, kind)
    assert cache.read_cached(path, cache.cache_key(game_dir)) == game  # rewritten whole


def test_a_whole_cache_file_of_another_game_is_not_trusted(game_dir: Path, monkeypatch):
    """Even with a matching key (as if forged), a payload that is not this game's model is
    not returned: the game is loaded afresh."""
    load_game(game_dir)
    path = cache.cache_file(game_dir)
    cache.write_cached(path, cache.cache_key(game_dir), {"slug": "something else"})
    calls = _counting(monkeypatch)
    assert load_game(game_dir).slug == SLUG
    assert len(calls) == 1


def test_the_cache_can_be_turned_off_and_copies_outside_sources_are_not_cached(game_dir: Path, monkeypatch):
    monkeypatch.setenv("HEXFORGE_MODEL_CACHE", "off")
    assert cache.cache_file(game_dir) is None
    monkeypatch.delenv("HEXFORGE_MODEL_CACHE")
    assert cache.cache_file(game_dir) is None  # a folder outside the project's sources/
    assert cache.cache_file(ROOT / "sources" / SLUG) == ROOT / "generated" / ".cache" / "models" / f"{SLUG}.model.pickle"


def test_module_grids_come_from_the_cache_and_equal_fresh_ones(game_dir: Path, monkeypatch):
    from validators import audit

    game = load_game(game_dir)
    fresh = audit._module_grids(game)
    assert audit.module_grids(game) == fresh  # computed and cached
    monkeypatch.setattr(audit, "_module_grids", lambda g: pytest.fail("grids not taken from the cache"))
    assert audit.module_grids(game) == fresh


def test_an_audit_with_a_warm_cache_imports_neither_the_module_builder_nor_the_renderers(game_dir: Path, tmp_path):
    """`hexforge audit` on a cached game: no YAML parse of the sources, no build file, no Pillow."""
    import os
    import subprocess
    import sys

    from validators.replay.writer import LogWriter

    vmod = ROOT / "generated" / SLUG / f"{SLUG}.vmod"
    if not vmod.is_file():
        pytest.skip("the module is not built (hexforge build bravery-in-the-sand)")
    log = tmp_path / "short.vlog"
    w = LogWriter(vmod)
    w.turn(1, "Chits into the mug")
    w.write(log)
    probe = ("import os, sys\n"  # main() ends with os._exit: look at the modules just before it
             "real_exit = os._exit\n"
             "os._exit = lambda code: (print('MODULES', ' '.join(sorted(sys.modules)), file=sys.stderr), real_exit(code))\n"
             "from validators.cli import main\n"
             f"sys.argv = ['hexforge', 'audit', {SLUG!r}, {str(log)!r}, '--format', 'json']\n"
             "main()\n")
    env = dict(os.environ, HEXFORGE_ROOT=str(game_dir.parents[1]), HEXFORGE_MODEL_CACHE="")
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT)
            for _ in range(2)]  # the first fills the cache
    assert all(r.returncode in (0, 1) for r in runs), runs[-1].stderr
    cold = runs[0].stderr.split("MODULES ")[-1].split()
    warm = runs[1].stderr.split("MODULES ")[-1].split()
    assert "builder.vassal.buildfile" in cold  # the probe does see a fresh load's imports
    for name in ("builder.vassal.buildfile", "builder.render.counters", "PIL.Image", "rich.progress"):
        assert name not in warm, f"{name} imported by an audit with a warm cache"
    assert runs[0].stdout == runs[1].stdout  # the same report, cached or not


def test_the_key_reads_files_inside_the_folder_and_only_the_name_of_a_link_leaving_it(game_dir: Path, tmp_path):
    """A source's bytes are in the key; a link leaving the folder stands by its target's name
    (its bytes are never read), also in a subfolder and through a linked subfolder."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.yaml").write_text("a: 1\n")
    (game_dir / "notes").mkdir()
    (game_dir / "notes" / "n.txt").write_text("one")
    (game_dir / "notes" / "link.yaml").symlink_to(outside / "secret.yaml")
    (game_dir / "linked").symlink_to(outside, target_is_directory=True)
    key = cache.cache_key(game_dir)
    (outside / "secret.yaml").write_text("a: 2\n")
    assert cache.cache_key(game_dir) == key
    (game_dir / "notes" / "n.txt").write_text("two")
    assert cache.cache_key(game_dir) != key
