"""Every source file starts with the `# yaml-language-server: $schema=` line of its kind (issue 16).

The line is a path relative to the file, so it must lead, from where the file lies, to the schema
`hexforge schema` writes for the file's kind.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.model import geofit
from builder.model.json_schema import (SCHEMA_LINE, kind_of, mark_sources, schema_files, schema_line,
                                       with_schema_line)

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
FILES = sorted(SOURCES.glob("*/**/*.yaml"))


def _rel(path: Path) -> str:
    return "/".join(path.relative_to(SOURCES).parts[1:])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SOURCES)))
def test_every_source_file_names_the_schema_of_its_kind(path):
    rel = _rel(path)
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    kind = kind_of(rel)
    if kind is None:  # geography.yaml, the only file no model reads, and releases.yaml, written by
        # `hexforge release` (not a source of the build: json_schema.py, beside PIECE_MAP)
        assert path.name in ("geography.yaml", "releases.yaml")
        assert not first.startswith(SCHEMA_LINE)
        return
    assert first.startswith(SCHEMA_LINE), f"{rel}: first line is {first!r}"
    target = (path.parent / first.removeprefix(SCHEMA_LINE)).resolve()
    assert target == ROOT / "generated" / "schema" / f"{kind.name}.schema.json"
    assert target.name in schema_files()


def test_the_games_have_files_of_every_kind():
    """The check above sees files of all kinds, in subfolders too (scenarios/, tables/)."""
    kinds = {kind_of(_rel(p)).name for p in FILES if kind_of(_rel(p))}
    assert kinds == {"game", "terrain", "map", "map-terrain", "units", "markers", "scenario", "table", "rules", "events"}


def test_with_schema_line_adds_replaces_and_keeps_the_rest():
    body = "# a comment\ntitle: X\n"
    added = with_schema_line(body, "scenarios/a.yaml")
    assert added == "# yaml-language-server: $schema=../../../generated/schema/scenario.schema.json\n" + body
    assert with_schema_line(added, "scenarios/a.yaml") == added
    stale = "# yaml-language-server: $schema=../old/place.json\n" + body
    assert with_schema_line(stale, "units.yaml") == \
        "# yaml-language-server: $schema=../../generated/schema/units.schema.json\n" + body
    assert with_schema_line(body, "geography.yaml") == body
    assert schema_line("geography.yaml") is None


def test_mark_sources_fixes_missing_and_stale_lines_once(tmp_path):
    shutil.copytree(SOURCES / "bravery-in-the-sand", tmp_path / "g")
    units, table = tmp_path / "g" / "units.yaml", next((tmp_path / "g" / "tables").glob("*.yaml"))
    original = units.read_text(encoding="utf-8")
    units.write_text(original.split("\n", 1)[1], encoding="utf-8")  # no line
    table.write_text("# yaml-language-server: $schema=x.json\n" + table.read_text(encoding="utf-8").split("\n", 1)[1],
                     encoding="utf-8")
    assert sorted(mark_sources(tmp_path)) == sorted([units, table])
    assert units.read_text(encoding="utf-8") == original
    assert table.read_text(encoding="utf-8").startswith(schema_line("tables/" + table.name) + "\n")
    assert mark_sources(tmp_path) == []


def test_fit_map_output_carries_the_line():
    assert geofit.dump({"provenance": "reconstructed"}).split("\n", 1)[0] == schema_line("map-terrain.yaml")
