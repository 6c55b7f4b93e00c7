"""Incremental builds (issue 36, builder/incremental.py): a build redoes only the parts whose
inputs or code changed, and its outputs are byte-identical to a clean build of the same sources."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from builder import incremental
from builder.build import build_game
from builder.model import load_game
from builder.render.counters import all_faces
from tests.conftest import SLUG, copy_sources

UNIT = "15pz-8pz-1"


def _outputs(result) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in result.outputs}


def _change_one_unit(game_dir) -> None:
    """The unit's short name, as printed on its counter: its faces change, nothing else does."""
    path = game_dir / "units.yaml"
    text = path.read_text("utf-8")
    new, n = re.subn(rf'(- id: {UNIT}\n(?:    .*\n)*?    short: )"I/8 Pz"', r'\1"I/8 Pz."', text)
    assert n == 1
    path.write_text(new, "utf-8")


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """A scratch root built once (the store filled)."""
    root = tmp_path_factory.mktemp("incremental")
    copy_sources(root)
    result = build_game(SLUG, root=root)
    assert result.made["board"] == 1 and result.made["sheets"] == 1
    return root, result


def test_nothing_changed_nothing_rebuilt_nor_written(first):
    root, result = first
    stamps = {p: p.stat().st_mtime_ns for p in result.outputs}
    again = build_game(SLUG, root=root)
    assert again.up_to_date and again.made == {}
    assert {p: p.stat().st_mtime_ns for p in again.outputs} == stamps


def test_one_unit_changed_redraws_its_faces_the_module_and_sheets_not_the_board(first, tmp_path):
    root, result = first
    before = _outputs(result)
    _change_one_unit(root / "sources" / SLUG)
    after = build_game(SLUG, root=root)
    game = load_game(root / "sources" / SLUG)
    faces = [a for a in all_faces(game) if a.kind == "unit" and a.ref == UNIT]
    assert len(faces) >= 1
    assert after.made.get("faces") == len(faces)  # that unit's faces only
    assert "board" not in after.made
    assert after.made["sheets"] == 1 and after.made["module"] == 1
    built = _outputs(after)
    assert built[f"{SLUG}.vmod"] != before[f"{SLUG}.vmod"]
    assert built["map.png"] == before["map.png"]
    # the same sources built from scratch elsewhere, without a store: the same bytes
    copy_sources(tmp_path)
    _change_one_unit(tmp_path / "sources" / SLUG)
    clean = build_game(SLUG, root=tmp_path, force=True)
    assert _outputs(clean) == built
    assert clean.made["faces"] == len(all_faces(game))
    assert build_game(SLUG, root=tmp_path).up_to_date  # --force refreshed the record and the store
    assert (tmp_path / "generated" / ".cache" / "build" / SLUG / "faces.bin").is_file()


def test_a_corrupt_store_is_ignored_with_one_line(first, tmp_path):
    copy_sources(tmp_path)
    reference = _outputs(build_game(SLUG, root=tmp_path))
    store = tmp_path / "generated" / ".cache" / "build" / SLUG
    faces = (store / "faces.bin").read_bytes()
    (store / "faces.bin").write_bytes(faces[: len(faces) // 2])  # cut short
    (store / "board.bin").write_bytes(b"rubbish")
    (store / "state.json").write_text("{not json", "utf-8")
    lines: list[str] = []
    again = build_game(SLUG, root=tmp_path, note=lines.append)
    assert _outputs(again) == reference
    assert again.made["board"] == 1 and again.made["faces"] == len(all_faces(load_game(tmp_path / "sources" / SLUG)))
    assert len(lines) == 3 and all(line.startswith("build cache ") for line in lines), lines
    assert build_game(SLUG, root=tmp_path, note=lines.append).up_to_date and len(lines) == 3


def test_an_output_changed_by_hand_is_built_again(first, tmp_path):
    copy_sources(tmp_path)
    result = build_game(SLUG, root=tmp_path)
    reference = _outputs(result)
    result.outputs[1].write_bytes(b"not a png")
    again = build_game(SLUG, root=tmp_path)
    assert not again.up_to_date and "board" not in again.made  # the board came from the store
    assert _outputs(again) == reference


def test_the_code_of_a_part_is_what_it_imports():
    board = incremental.code_digest("builder.render.mapimage")
    assert board != incremental.code_digest("builder.render.counters")
    # the counters' code is in the sheets' (the sheets draw the faces), not in the board's
    seen = incremental._imports(incremental._module_file("builder.render.sheets"))
    assert "builder.render.counters" in seen


def test_cli_says_up_to_date(tmp_path, monkeypatch):
    from validators.cli import app

    copy_sources(tmp_path)
    monkeypatch.setenv("HEXFORGE_ROOT", str(tmp_path))
    monkeypatch.setattr("builder.paths.ROOT", tmp_path)
    runner = CliRunner()
    first = runner.invoke(app, ["build", SLUG])
    assert first.exit_code == 0 and f"{SLUG}: built" in first.stdout, first.output
    again = runner.invoke(app, ["build", SLUG])
    assert again.exit_code == 0 and f"{SLUG}: up to date" in again.stdout, again.output
    forced = runner.invoke(app, ["build", SLUG, "--force"])
    assert forced.exit_code == 0 and f"{SLUG}: built" in forced.stdout, forced.output


def test_print_kit_is_made_again_only_when_something_changed(tmp_path, monkeypatch):
    from validators.cli import app

    copy_sources(tmp_path)
    monkeypatch.setattr("builder.paths.ROOT", tmp_path)
    runner = CliRunner()
    assert runner.invoke(app, ["print", SLUG]).exit_code == 0
    kit = tmp_path / "generated" / SLUG / "print"
    stamps = {p.name: p.stat().st_mtime_ns for p in kit.iterdir()}
    again = runner.invoke(app, ["print", SLUG])
    assert again.exit_code == 0 and again.stdout.strip() == f"{SLUG}: print kit up to date"
    assert {p.name: p.stat().st_mtime_ns for p in kit.iterdir()} == stamps
    other = runner.invoke(app, ["print", SLUG, "--overlap", "12mm"])  # another option: made again
    assert other.exit_code == 0 and "wrote" in other.stdout
