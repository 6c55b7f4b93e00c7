"""`hexforge audit GAME DIR --cluster` (issue 36, validators/batch_cluster.py): a batch on a Dask
cluster gives the same reports as a local batch, written as each file finishes, and a worker
that dies loses no report."""
from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("distributed")

import builder.paths  # noqa: E402
from builder.model import load_game  # noqa: E402
from tests.conftest import SLUG  # noqa: E402
from validators import batch, batch_cluster  # noqa: E402
from validators.budget import OutOfTime  # noqa: E402
from validators.cli import app  # noqa: E402
from validators.replay.writer import LogWriter  # noqa: E402

runner = CliRunner()
FILES = 200


def _log(vmod: Path, path: Path, rounds: int, early: bool) -> None:
    """`rounds` marches up and down the Via Balbia with dice; `early`: a unit moves before its
    chit is drawn (rule 5.2), a violation."""
    w = LogWriter(vmod)
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.turn(1, "Activations")
    if not early:
        w.move("chit-15pz#1", "Activation 8")
    for i in range(rounds):
        w.move("15pz-8pz-1", ("0607", "0608")[i % 2])
        w.roll("Axis dice", [1 + i % 6, 1 + (i * 5) % 6], "Axis")
    w.write(path)


@pytest.fixture(scope="module")
def archive(built, tmp_path_factory):
    """(root, folder of 200 logs: clean ones and ones with a violation, of several lengths, and one
    empty file)."""
    root, _, _ = built
    vmod = root / "generated" / SLUG / f"{SLUG}.vmod"
    kinds = tmp_path_factory.mktemp("kinds")
    variants = []
    for n, (rounds, early) in enumerate([(3, False), (3, True), (20, False), (20, True), (60, False)]):
        variants.append(kinds / f"v{n}.vlog")
        _log(vmod, variants[-1], rounds, early)
    folder = tmp_path_factory.mktemp("archive")
    for i in range(FILES - 1):
        shutil.copy(variants[i % len(variants)], folder / f"match-{i:03d}.vlog")
    (folder / "match-empty.vlog").write_bytes(b"")
    return root, folder


def _reports(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def local(archive, tmp_path_factory):
    """(the command's result, its reports' folder) of the archive audited by a local batch, --jobs 2."""
    root, folder = archive
    out = tmp_path_factory.mktemp("local") / "reports"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", root)
        result = runner.invoke(app, ["audit", SLUG, str(folder), "--jobs", "2", "--format", "json", "--out", str(out)])
    return result, out


def test_a_cluster_batch_reports_what_a_local_batch_does(archive, local, tmp_path, monkeypatch):
    root, folder = archive
    local, local_reports = local
    monkeypatch.setattr(builder.paths, "ROOT", root)
    on_cluster = runner.invoke(app, ["audit", SLUG, str(folder), "--cluster", "local", "--jobs", "2",
                                     "--format", "json", "--out", str(tmp_path / "cluster")])
    assert local.exit_code == on_cluster.exit_code == 2  # the empty file
    assert "Traceback" not in on_cluster.stdout + on_cluster.stderr
    assert on_cluster.stdout == local.stdout  # the summary: every file, its counts and report
    reports = _reports(tmp_path / "cluster")
    assert len(reports) == FILES - 1 and reports == _reports(local_reports)
    assert on_cluster.stderr.splitlines() == local.stderr.splitlines() == [f"{folder / 'match-empty.vlog'}: empty file"]


def test_a_worker_killed_mid_batch_loses_no_report(archive, local, tmp_path):
    from distributed import Client, LocalCluster

    root, folder = archive
    game = load_game(root / "sources" / SLUG, plain=True)
    files = sorted(folder.glob("*.vlog"))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)
        victim = next(iter(pids.values()))
        seen = []

        def done(o):
            seen.append(o)
            if len(seen) == 20:  # a fifth of the way in: the other files are queued or running
                os.kill(victim, signal.SIGKILL)

        got = batch_cluster.run("local", game, files, done=done, out_dir=tmp_path, fmt="json", client=client,
                                chunk=1)
        assert victim not in client.run(os.getpid).values()  # that worker did die
    assert len(seen) == FILES
    assert batch.summary_json(SLUG, got) == local[0].stdout  # every report, as the local batch's
    assert _reports(tmp_path) == _reports(local[1])


def test_files_behind_a_url_are_read_by_the_workers(archive):
    root, folder = archive
    game = load_game(root / "sources" / SLUG, plain=True)
    items = batch_cluster.collect([Path(f"file://{folder}")])  # as typer hands it over: file:/...
    assert items == [f"file://{p}" for p in sorted(folder.glob("*.vlog"))]
    from validators.audit import module_grids
    from validators.kernel.selection import Selection

    state = (game, module_grids(game), Selection(), 0, None)
    by_url = batch_cluster._audit_chunk(state, items[:3])
    by_path = [batch.audit_one(game, p, module_grids(game)) for p in sorted(folder.glob("*.vlog"))[:3]]
    assert [o.path for o in by_url] == items[:3]
    for u, p in zip(by_url, by_path):
        assert (u.report.to_json() | {"log": None}) == (p.report.to_json() | {"log": None})


def test_a_thread_past_its_cpu_budget_is_stopped_and_one_within_it_is_not():
    caught = []

    def endless():
        try:
            with batch_cluster.thread_cpu_budget(0.3):
                while True:
                    pass
        except OutOfTime:
            caught.append("stopped")

    def short():
        with batch_cluster.thread_cpu_budget(0.3):
            sum(range(1000))
        time.sleep(0.5)  # past the budget in wall time: nothing fires after the block
        caught.append("finished")

    threads = [threading.Thread(target=endless), threading.Thread(target=short)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(caught) == ["finished", "stopped"]


def test_no_scheduler_at_the_address_is_one_line(archive, monkeypatch):
    root, folder = archive
    monkeypatch.setattr(builder.paths, "ROOT", root)
    monkeypatch.setattr(batch_cluster, "_CONNECT_TIMEOUT", "1s")
    result = runner.invoke(app, ["audit", SLUG, str(folder), "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("--cluster tcp://127.0.0.1:9: cannot reach a scheduler")


def test_reports_take_the_names_a_local_batch_gives_them():
    """Files of one name in several folders: x.vlog.txt, x.vlog.2.txt... counted over the readable
    ones only, as batch.write_reports counts them."""
    names = ["a/x.vlog", "b/x.vlog", "c/x.vlog", "d/y.vlog"]
    assert batch_cluster.report_names(names, [False, True, True, True], "json") == \
        [None, "x.vlog.json", "x.vlog.2.json", "y.vlog.json"]
    assert batch_cluster.report_names(["s3://b/k/x.vlog"], [True], "text") == ["x.vlog.txt"]
    assert batch_cluster.url_of(Path("s3://league/2026")) == "s3://league/2026"
    assert batch_cluster.url_of(Path("file:///srv/logs")) == "file:///srv/logs"
    assert batch_cluster.url_of(Path("/srv/logs")) is None
