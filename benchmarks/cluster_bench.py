"""A batch on a Dask cluster against the same batch on a local process pool (issue 36).

Writes --logs copies of a generated log of --steps steps (audit_bench's writer: units marching up
and down the Via Balbia, dice) and audits the folder as fresh `hexforge audit` processes, in
turn, --rounds times:

- jobs:    `hexforge audit GAME DIR --jobs N --format json --out R1`
- cluster: `hexforge audit GAME DIR --cluster local --jobs N --format json --out R2` (a
           LocalCluster of N worker processes, started and stopped inside the command)
- with --scheduler ADDRESS, also `--cluster ADDRESS` (workers started by hand; see README)

It prints each one's median wall and CPU seconds (the command and every process it started),
their paired wall ratio, whether the reports are byte-identical to the local batch's, and the
CPU seconds per log of the local batch, from which the cost of a million logs follows.

Run: .venv/bin/python benchmarks/cluster_bench.py [--logs 200] [--steps 1000] [--jobs 2] [--rounds 3]
Needs the game built (`hexforge build bravery-in-the-sand`) and `pip install -e '.[cluster]'`.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
SLUG = "bravery-in-the-sand"


def run(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (the process and all it waited for) of one fresh `hexforge` command."""
    before = os.times()
    t0 = time.perf_counter()
    code = subprocess.run([str(Path(sys.executable).parent / "hexforge"), *args], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t0
    after = os.times()
    if code >= 2:
        raise SystemExit(f"hexforge {' '.join(args)}: exit {code}")
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def reports(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", type=int, default=200)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scheduler", help="also a running scheduler's address (tcp://host:8786)")
    args = ap.parse_args()
    import audit_bench

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        one = audit_bench.log_of(tmp, args.steps)
        folder = tmp / "archive"
        folder.mkdir()
        for i in range(args.logs):
            shutil.copy(one, folder / f"match-{i:05d}.vlog")
        base = ["audit", SLUG, str(folder), "--format", "json", "--jobs", str(args.jobs)]
        rows = {"jobs": [], "cluster local": []} | ({f"cluster {args.scheduler}": []} if args.scheduler else {})
        same = {k: True for k in rows}
        for r in range(args.rounds):
            for name in rows:
                out = tmp / f"r-{r}-{name.replace(' ', '_').replace('/', '_').replace(':', '_')}"
                extra = [] if name == "jobs" else ["--cluster", name.split(" ", 1)[1]]
                rows[name].append(run([*base, *extra, "--out", str(out)]))
            first = reports(tmp / f"r-{r}-jobs")
            for name in rows:
                out = tmp / f"r-{r}-{name.replace(' ', '_').replace('/', '_').replace(':', '_')}"
                same[name] &= reports(out) == first and len(first) == args.logs
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
    ratios = {k: statistics.median(w / j for (w, _), (j, _) in zip(v, rows["jobs"])) for k, v in rows.items()}
    print(f"{args.logs} logs x {args.steps} steps, {args.jobs} workers, median of {args.rounds} rounds (fresh processes)")
    print(f"{'':24} {'wall s':>7} {'cpu s':>7} {'logs/s':>7} {'wall/jobs':>9}  reports identical")
    for k, (wall, cpu) in med.items():
        print(f"{k:24} {wall:7.2f} {cpu:7.2f} {args.logs / wall:7.1f} {ratios[k]:9.2f}  {same[k]}")
    per_log = med["jobs"][1] / args.logs
    print(f"CPU per log (local batch, start-up shared): {per_log * 1000:.1f} ms; a million such logs: "
          f"{per_log * 1e6 / 3600:.0f} core-hours")


if __name__ == "__main__":
    main()
