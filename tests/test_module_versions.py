"""Which module wrote a log (issue 33): every module carries the fingerprint of its geometry, a
released version's geometry never changes, and a log written on another geometry is refused
with one line unless the module that wrote it is named (--module), which then reads it to the
same findings as the same play on today's module."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.build import build_game
from builder.model import SourceError, load_game
from builder.release import record
from builder.vassal.fingerprint import fingerprint_in, geometry_fingerprint
from tests.conftest import SLUG, copy_sources
from validators.cli import app
from validators.replay.writer import LogWriter

runner = CliRunner()


def play(vmod: Path, out: Path) -> Path:
    """The same short match on any build: two chits into the Mug, then 8th Panzer moved before
    its chit is drawn (rule 5.2), by hex id, as a player drags it."""
    w = LogWriter(vmod)
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.move("chit-7a", "Mug")
    w.turn(1, "Activations")
    w.move("15pz-8pz-1", "0607")
    w.write(out)
    return out


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """A workspace where 1.0 was released, then the map's grid moved and 1.1 was built; the
    same match played on each (paths: root, old module, new module, old log, new log)."""
    root = tmp_path_factory.mktemp("releases")
    game_dir = copy_sources(root)
    old = build_game(SLUG, root).outputs[0]
    assert record(load_game(game_dir), old).new
    old_log = play(root / "generated" / SLUG / "releases" / "1.0.vmod", root / "old.vlog")
    text = (game_dir / "map.yaml").read_text(encoding="utf-8")
    (game_dir / "map.yaml").write_text(text.replace("  x0: 80 ", "  x0: 76 "), encoding="utf-8")
    with pytest.raises(SourceError) as refused:
        build_game(SLUG, root)  # the map changed under 1.0
    game_yaml = (game_dir / "game.yaml").read_text(encoding="utf-8")
    (game_dir / "game.yaml").write_text(game_yaml.replace('version: "1.0"', 'version: "1.1"'), encoding="utf-8")
    new = build_game(SLUG, root).outputs[0]
    new_log = play(new, root / "new.vlog")
    return root, old, new, old_log, new_log, refused.value


def audit(root: Path, monkeypatch, *args) -> tuple[int, str, str]:
    monkeypatch.setattr(builder.paths, "ROOT", root)
    result = runner.invoke(app, ["audit", SLUG, *map(str, args), "--format", "json"])
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def test_the_module_and_its_logs_carry_the_geometry(built):
    root, _, zf = built
    fingerprint = geometry_fingerprint(load_game(root / "sources" / SLUG))
    assert f"<extra1>geometry:{fingerprint}</extra1>" in zf.read("moduledata").decode()
    assert f'ModuleOther1="geometry:{fingerprint}"' in zf.read("buildFile.xml").decode()
    with zipfile.ZipFile(play(root / "generated" / SLUG / f"{SLUG}.vmod", root / "x.vlog")) as log:
        assert fingerprint_in(log.read("moduledata").decode().split("<extra1>")[1].split("</extra1>")[0]) == fingerprint


def test_a_released_geometry_cannot_change_under_its_version(releases):
    refused = releases[5]
    (problem,) = refused.problems
    assert problem.file.endswith("game.yaml") and "the map's geometry changed since release 1.0" in problem.message
    assert "raise `version` in game.yaml" in problem.hint and "releases/1.0.vmod" in problem.hint


def test_a_log_of_an_earlier_release_is_refused_with_both_versions_and_the_fix(releases, monkeypatch):
    root, old, new, old_log, _, _ = releases
    code, out, err = audit(root, monkeypatch, old_log)
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    kept = root / "generated" / SLUG / "releases" / "1.0.vmod"
    assert line.startswith(f"{old_log}: written by Bravery in the Sand 1.0 (geometry ")
    assert "but this build is 1.1 (geometry " in line and line.endswith(f"audit it with --module {kept}")


def test_the_module_that_wrote_it_reads_it_to_the_same_findings(releases, monkeypatch):
    import json

    root, _, _, old_log, new_log, _ = releases
    kept = root / "generated" / SLUG / "releases" / "1.0.vmod"
    code_old, out_old, _ = audit(root, monkeypatch, old_log, "--module", kept)
    code_new, out_new, _ = audit(root, monkeypatch, new_log)
    found = [(v["step"], v["rule"], v["piece"], v["from"], v["to"]) for v in json.loads(out_old)["violations"]]
    assert code_old == code_new == 1 and found
    assert found == [(v["step"], v["rule"], v["piece"], v["from"], v["to"]) for v in json.loads(out_new)["violations"]]


def test_a_log_with_no_geometry_recorded_needs_the_module_named(releases, monkeypatch, tmp_path):
    root, _, new, _, new_log, _ = releases
    bare = tmp_path / "bare.vlog"
    with zipfile.ZipFile(new_log) as src, zipfile.ZipFile(bare, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "moduledata":
                meta = data.decode()
                data = (meta.split("<extra1>")[0] + "<extra1/>" + meta.split("</extra1>")[1]).encode()
            dst.writestr(info.filename, data)
    code, _, err = audit(root, monkeypatch, bare)
    assert code == 2 and "with no geometry recorded" in err and "nothing says the log was played on this map" in err
    assert audit(root, monkeypatch, bare, "--module", new)[0] == 1  # named: read with it


def test_log_dump_of_the_game_refuses_another_geometry_too(releases, monkeypatch):
    root, _, _, old_log, new_log, _ = releases
    monkeypatch.setattr(builder.paths, "ROOT", root)
    result = runner.invoke(app, ["log", "dump", str(old_log), "--game", SLUG])
    assert result.exit_code == 2 and "written by Bravery in the Sand 1.0 (geometry" in result.stderr
    assert runner.invoke(app, ["log", "dump", str(new_log), "--game", SLUG]).exit_code == 0
    kept = root / "generated" / SLUG / "releases" / "1.0.vmod"
    assert runner.invoke(app, ["log", "dump", str(old_log), "--module", str(kept)]).exit_code == 0


# -- a log the real engine wrote on an earlier build of this repository's module ----------------
ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
WDF = "western-desert-force"


def wdf_audit(*args) -> tuple[int, str, str]:
    result = runner.invoke(app, ["audit", WDF, *map(str, args), "--format", "json"])
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def test_an_engine_log_of_an_older_commits_module_is_refused_and_read_with_that_module():
    """tests/fixtures/engine/wdf-older-build.json played by the real engine on today's Western Desert
    Force module and on the module commit 5258733 built (before the off-map tracks moved down; kept
    as wdf-5258733.vmod, its board art flattened to one colour: only the board's size decides where a
    logged position lands).  That build recorded no geometry: the audit refuses its log, and reads
    it with --module to the findings of the same play on today's module."""
    import json

    today, older = ENGINE / "wdf-older-build-today.vlog", ENGINE / "wdf-older-build-5258733.vlog"
    code, out, err = wdf_audit(older)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "written by Western Desert Force 1.0 with no geometry recorded" in err and "--module" in err

    def found(text):
        return [(v["step"], v["rule"], v["piece"], v["from"], v["to"], v["message"]) for v in json.loads(text)["violations"]]
    code_new, out_new, _ = wdf_audit(today)
    code_old, out_old, _ = wdf_audit(older, "--module", ENGINE / "wdf-5258733.vmod")
    assert code_new == code_old == 1
    assert found(out_old) == found(out_new) == [  # the planted act: Babini's 6 MP with Supply Poor's MA 5
        (29, "9.6", "Babini Special Armoured Brigade (IT TRP)", "2710", "2716",
         "cost 6 MP via 2710-2711-2712-2713-2714-2715-2716 > allowance 5 (MA 6; Supply Poor -1: 5) (reconstructed table)")]


def test_the_older_log_read_with_todays_geometry_would_be_wrong():
    """Why the refusal: today's geometry reads the Axis Supply Level marker, put in "Supply Poor" on
    the older build, as standing in hex 1530, which reports a legal level as wrong (7.5) and misses
    the planted move (9.6)."""
    from validators.audit import make_auditor, module_grids
    from validators.replay.replayer import Replayer
    from validators.vlog.reader import read_record

    game = load_game(Path(builder.paths.ROOT) / "sources" / WDF, plain=True)
    auditor = make_auditor(game, Replayer(read_record(ENGINE / "wdf-older-build-5258733.vlog"), module_grids(game)))
    assert [(f.step, f.rule) for f in auditor.run()] == [(25, "7.5")]
    assert "the marker is in 1530" in auditor.findings[0].message


# -- Desert Fox's board packed (issue 35): the engine logs of the staircase board ---------------
DFD = "desert-fox-deluxe"
DFD_01 = ENGINE / "dfd-0.1.vmod"  # release 0.1's module: buildFile and moduledata, board images flattened


def test_the_staircase_board_is_recorded_as_release_0_1_and_the_packed_one_is_another_version():
    from builder.release import released
    from validators.written_with import module_id

    game = load_game(Path(builder.paths.ROOT) / "sources" / DFD)
    (r01,) = [r for r in released(game.root) if r.version == "0.1"]
    assert module_id(DFD_01).fingerprint == r01.geometry != geometry_fingerprint(game)
    assert game.info.version != "0.1"


@pytest.mark.parametrize("log", sorted(p.stem for p in ENGINE.glob("dfd-*.vlog")
                                       if zipfile.ZipFile(p).read("moduledata").find(b"<version>0.1<") >= 0))
def test_a_desert_fox_log_of_the_staircase_board_is_refused_and_read_with_its_module(log):
    """Every engine log written on 0.1 is refused without --module, in one line naming both
    versions and the fix; with --module dfd-0.1.vmod it is audited to the findings
    tests/rules/test_engine_logs.py pins (those of the same logs on the staircase board)."""
    import json

    from tests.rules.test_engine_logs import engine_audit

    path = ENGINE / f"{log}.vlog"
    result = runner.invoke(app, ["audit", DFD, str(path), "--format", "json"])
    assert result.exit_code == 2 and result.stdout == "" and len(result.stderr.splitlines()) == 1
    fingerprint = geometry_fingerprint(load_game(Path(builder.paths.ROOT) / "sources" / DFD))
    assert (f"written by Desert Fox Deluxe 0.1 (geometry 4e54007759bceb81), but this build is 0.2 (geometry "
            f"{fingerprint}): its positions would be read on another map; audit it with --module") in result.stderr
    result = runner.invoke(app, ["audit", DFD, str(path), "--module", str(DFD_01), "--format", "json"])
    assert "Traceback" not in result.stdout + result.stderr
    found = [(v["step"], v["rule"], v["message"]) for v in json.loads(result.stdout)["violations"]]
    assert found == [(f.step, f.rule, f.message) for f in engine_audit(DFD, path).violations]
    assert result.exit_code == (1 if found else 0)
