"""Another maker's module of one of our games (issue 33): `hexforge map-pieces` reads its pieces
and hex numbering as ours, and `audit --module VMOD --pieces MAP` audits the logs written on it
to the same findings as the same play on our module.

tests/fixtures/engine/bits-other.vmod is our Bravery in the Sand module rewritten as another maker
would have made it (tests/fixtures/other-module/make_other_module.py: other names, no UnitId/Side/
ChitId properties, plain art, columns by letters from J); bits-other-*.vlog and bits-own-*.vlog are
the same scripts played by the real VASSAL 3.7.26 on it and on ours."""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from builder.model import load_game
from builder.model.schema import PieceMapFile
from builder.paths import REPO as ROOT
from validators.audit import audit_file, module_grids
from validators.cli import app
from validators.othermodule.locations import GeometryMismatch, by_geometry
from validators.othermodule.make import make_piece_map
from validators.othermodule.ours import our_id, our_slots
from validators.othermodule.piecemap import identity, load, renamed
from validators.othermodule.slots import read_vmod_slots
from validators.view.page import read_data
from validators.vlog.modulegrid import read_module_grids, read_vmod_grids
from validators.written_with import module_id

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
OTHER = ENGINE / "bits-other.vmod"
MAP = ENGINE / "bits-other.pieces.yaml"
SLUG = "bravery-in-the-sand"
runner = CliRunner()


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "sources" / SLUG, plain=True)


@pytest.fixture(scope="module")
def made(game):
    return make_piece_map(game, OTHER)


def test_their_pieces_are_matched_to_ours(game, made):
    """The other module kept our slots' gpids, so each of their slots is known to be one of ours:
    every match agrees with it, and the one not matched ("Ctrl", our Control marker: no word in
    common) is left for the user with its closest guess."""
    m, said = made
    truth = {s.gpid: our_id(s) for s in our_slots(game)}
    theirs, _ = read_vmod_slots(OTHER)
    assert len(m.pieces) == len(theirs) == 80 and said == []
    wrong = [(p.name, p.ours, truth[p.gpid]) for p in m.pieces if p.ours is not None and p.ours != truth[p.gpid]]
    assert wrong == []
    left = [p for p in m.pieces if p.ours is None]
    assert [p.name for p in left] == ["Ctrl"] and truth[left[0].gpid] == "control"
    units = [p for p in m.pieces if truth[p.gpid] in {u.id for u in game.units}]
    assert units and all(p.ours and p.score >= 0.8 for p in units)  # "15 Pz / 8 Pz 1" is 15pz-8pz-1


def test_their_hexes_are_ours_by_geometry(game, made):
    """Their numbering (letters from J for our column 00: P07 is our 0607) worked out from the
    boards alone; names both modules share (the Mug, the boxes) need no entry."""
    locations = made[0].locations
    hexes = {k: v for k, v in locations.items() if v in game.geometry}
    assert len(hexes) >= 100
    for theirs, ours in hexes.items():
        col, row = re.fullmatch(r"([A-Z])(\d\d)", theirs).groups()
        assert ours == f"{ord(col) - ord('J'):02d}{row}", (theirs, ours)
    assert "Mug" not in locations and "Activation 8" not in locations


def _scanned_at(k: float):
    """Their map as a scan at another resolution: board, grid and boxes scaled by k."""
    xml = zipfile.ZipFile(OTHER).read("buildFile.xml").decode()

    def grid(m):
        return re.sub(r'\b(dx|dy|x0|y0)="([\d.]+)"', lambda a: f'{a.group(1)}="{float(a.group(2)) * k:g}"', m.group(0))

    def path(m):
        return 'path="' + ";".join(",".join(str(round(int(v) * k)) for v in p.split(","))
                                   for p in m.group(1).split(";")) + '"'

    xml = re.sub(r"<VASSAL\.build\.module\.map\.boardPicker\.board\.HexGrid [^>]*>", grid, xml)
    xml = re.sub(r'path="([\d,;]+)"', path, xml)
    (w, h), = (b.size for b in read_vmod_grids(OTHER)["Main Map"].boards.values())
    return read_module_grids(xml.encode(), board_sizes={"Crusader": (round(w * k), round(h * k))})["Main Map"]


@pytest.mark.parametrize("k", [1.5, 0.75])
def test_their_hexes_are_found_on_a_scan_at_another_resolution(game, made, k):
    assert by_geometry(_scanned_at(k), module_grids(game)["Main Map"]) == made[0].locations


def test_another_print_is_refused_not_guessed(game):
    theirs = _scanned_at(1.0)
    theirs.boards["Crusader"] = theirs.boards["Crusader"].replace(size=(1440, 800))
    with pytest.raises(GeometryMismatch, match="not the same print"):
        by_geometry(theirs, module_grids(game)["Main Map"])


def test_the_committed_map_is_what_map_pieces_writes(game, made):
    assert PieceMapFile.model_validate(yaml.safe_load(MAP.read_text())) == made[0]


def _through_map(game, log: str):
    m = load(MAP, game)
    return audit_file(game, ENGINE / f"{log}.vlog", renamed(read_vmod_grids(OTHER), m),
                      module=module_id(OTHER).replace(pieces=identity(m, game)))


def _seen(report):
    return [(f.step, f.rule, f.piece, f.from_hex, f.to_hex, f.message) for f in report.violations]


@pytest.mark.parametrize("play, expected", [
    ("legal", []),  # stack dragged to and fro, a drag undone, a unit pulled out of the stack
    ("planted", [(11, "6.2", "0607")] * 4),  # the stack's seventh road hexside: 3.5 MP > MA 3
])
def test_a_log_of_their_module_audits_as_the_same_play_on_ours(game, play, expected):
    ours = audit_file(game, ENGINE / f"bits-own-{play}.vlog")
    theirs = _through_map(game, f"bits-other-{play}")
    assert [(f.step, f.rule, f.to_hex) for f in ours.violations] == expected
    assert _seen(theirs) == _seen(ours)
    assert theirs.notes == ("piece 'Ctrl' (slot 64) is not in the piece map: ignored by the rules",)
    assert ours.notes == ()


def test_without_the_map_their_log_is_refused_or_seen_without_units(game):
    """Read as our own module's log it is refused (no geometry recorded); read with their module
    but no piece map, no piece is a unit and the planted move goes unseen."""
    r = runner.invoke(app, ["audit", SLUG, str(ENGINE / "bits-other-planted.vlog")])
    assert r.exit_code == 2 and "no geometry recorded" in r.output
    r = runner.invoke(app, ["audit", SLUG, str(ENGINE / "bits-other-planted.vlog"), "--module", str(OTHER)])
    assert r.exit_code == 0 and "0 violation(s)" in r.output


def test_audit_with_pieces_on_the_command_line():
    r = runner.invoke(app, ["audit", SLUG, str(ENGINE / "bits-other-planted.vlog"), "--module", str(OTHER),
                            "--pieces", str(MAP)])
    assert r.exit_code == 1
    assert r.output.count("rule 6.2") == 4 and "[Axis 8th Panzer Regiment (I. Abteilung) (15PZ), 0608 -> 0607]" in r.output
    # named once in the report and once on stderr, however many Control markers the log has
    assert r.stdout.count("'Ctrl'") == 1 and r.stderr.count("'Ctrl'") == 1
    assert "note: piece 'Ctrl' (slot 64) is not in the piece map: ignored by the rules" in r.stdout


def test_the_unmatched_pieces_are_in_the_json_and_html_reports_too(tmp_path):
    """The notes of a piece map's left-out pieces are part of the report in every format."""
    args = ["audit", SLUG, str(ENGINE / "bits-other-planted.vlog"), "--module", str(OTHER), "--pieces", str(MAP)]
    r = runner.invoke(app, [*args, "--format", "json"])
    doc = json.loads(r.stdout)
    assert doc["notes"] == ["piece 'Ctrl' (slot 64) is not in the piece map: ignored by the rules"]
    assert len(doc["violations"]) == 4
    r = runner.invoke(app, [*args, "--out", str(tmp_path / "r.html")])
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert read_data(page)["notes"] == doc["notes"]
    assert "<ul id=\"notes\"><li>piece &#x27;Ctrl&#x27; (slot 64) is not in the piece map" in page
    ours = runner.invoke(app, ["audit", SLUG, str(ENGINE / "bits-own-planted.vlog"), "--format", "json"])
    assert "notes" not in json.loads(ours.stdout)  # no piece map, nothing left out: the report as before


def test_view_with_pieces_draws_their_log_with_our_findings(game, tmp_path):
    """`view GAME LOG --module VMOD --pieces MAP` (as `audit --pieces`): their module draws the page,
    the findings are the audit's through the piece map, the unmatched pieces noted."""
    out = tmp_path / "v.html"
    r = runner.invoke(app, ["view", SLUG, str(ENGINE / "bits-other-planted.vlog"), "--module", str(OTHER),
                            "--pieces", str(MAP), "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = read_data(out.read_text(encoding="utf-8"))
    theirs = _through_map(game, "bits-other-planted")
    assert [(f["step"], f["rule"], f["message"]) for f in data["findings"]] == [
        (f.step, f.rule, f.message) for f in theirs.findings]
    assert [(f["step"], f["rule"]) for f in data["findings"] if f["kind"] == "violation"] == [(11, "6.2")] * 4
    assert data["notes"] == list(theirs.notes) and "'Ctrl'" in r.stderr
    without = runner.invoke(app, ["view", SLUG, str(ENGINE / "bits-other-planted.vlog"), "--module", str(OTHER),
                                  "--out", str(out)])
    seen = read_data(out.read_text(encoding="utf-8"))  # no piece map: no unit, the planted move unseen
    assert without.exit_code == 0 and not any(f["rule"] == "6.2" for f in seen["findings"]) and "notes" not in seen
    refused = runner.invoke(app, ["view", SLUG, str(ENGINE / "bits-other-planted.vlog"), "--pieces", str(MAP)])
    assert refused.exit_code == 2 and "--pieces" in refused.stderr and "Traceback" not in refused.output


def test_map_pieces_writes_a_map_the_audit_reads(tmp_path):
    out = tmp_path / "m.yaml"
    r = runner.invoke(app, ["map-pieces", SLUG, str(OTHER), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "79 of 80 pieces matched" in r.output and "1 left for you" in r.output
    text = out.read_text()
    assert text.startswith("# yaml-language-server: $schema=") and "ours: null" in text
    r = runner.invoke(app, ["audit", SLUG, str(ENGINE / "bits-other-legal.vlog"), "--module", str(OTHER),
                            "--pieces", str(out)])
    assert r.exit_code == 0 and "0 violation(s)" in r.output


def _one_line_exit_2(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1, r.output
    return lines[0]


def test_bad_input_gets_one_line(tmp_path):
    log = str(ENGINE / "bits-other-legal.vlog")
    broken = tmp_path / "broken.vmod"
    broken.write_bytes(b"not a zip")
    assert "not a readable module" in _one_line_exit_2(["map-pieces", SLUG, str(broken)])
    assert "not a readable module" in _one_line_exit_2(["audit", SLUG, log, "--module", str(broken), "--pieces", str(MAP)])
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(MAP.read_text().replace("ours: 15pz-8pz-1", "ours: 15pz-8pz-9"))
    line = _one_line_exit_2(["audit", SLUG, log, "--module", str(OTHER), "--pieces", str(unknown)])
    assert "'15pz-8pz-9', not a unit, leader, marker or chit of Bravery in the Sand" in line
    other_game = tmp_path / "other-game.yaml"
    other_game.write_text(MAP.read_text().replace(f"game: {SLUG}", "game: tobrouk-41-42"))
    assert "not 'bravery-in-the-sand'" in _one_line_exit_2(["audit", SLUG, log, "--module", str(OTHER),
                                                            "--pieces", str(other_game)])
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("game: [\n")
    assert "--pieces" in _one_line_exit_2(["audit", SLUG, log, "--module", str(OTHER), "--pieces", str(bad_yaml)])
    assert "--module" in _one_line_exit_2(["audit", SLUG, log, "--pieces", str(MAP)])


def test_a_piece_with_no_marker_properties_is_named_by_the_map(game):
    """The seam: a piece of theirs carries our properties and name in the replay, its own traits
    untouched."""
    from validators.replay.replayer import Replayer
    from validators.vlog.reader import read_record

    m = load(MAP, game)
    rp = Replayer(read_record(ENGINE / "bits-other-legal.vlog"), renamed(read_vmod_grids(OTHER), m), identity(m, game))
    p = next(p for p in rp.board.pieces.values() if p.traits[-1].fields[3:4] == ["15 Pz / 8 Pz 1"])
    assert p.properties()["UnitId"] == "15pz-8pz-1" and p.properties()["Side"] == "Axis"
    assert p.properties()["Army"] == "DAK" and p.name == "8th Panzer Regiment (I. Abteilung) (15PZ)"
    assert rp.piece_where(p).label == "0608"
