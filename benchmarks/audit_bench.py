"""Audit speed and memory on generated logs: the audit against a plain decode of the same file
and against the previous release's audit, then a batch figure on one and on all cores.

Run: .venv/bin/python benchmarks/audit_bench.py [--steps 1000 10000 100000] [--runs 5]
     [--baseline REV] [--vsavdump PATH] [--logs DIR]

Writes logs of N steps with the test log writer (units of two divisions marching up and down
the Via Balbia, dice, turn changes).  Every figure is a whole process started afresh, as a user
runs it (start-up and imports included): the median wall time of --runs runs after one
warm-up, the median CPU seconds (user + system: steadier than wall time on a loaded machine)
and the median peak resident memory of those runs; ratios are of CPU times.  Rows:

- python: `python -c pass`, the interpreter's own start-up;
- decode: this tree's reader only (`read_record`), no replay, no rules: the interpreter, the
  reader's imports and the decode of the file (issue 36's floor: a 1,000-step audit within 2x
  of it);
- vsavdump: pywargame's `vsavdump.py` (a bare decode and print), when --vsavdump names it
  (pywargame 0.8 needs Python >= 3.12: install it into a separate venv, not the project's, e.g.
  `python3.12 -m venv /tmp/vpw && /tmp/vpw/bin/pip install pywargame==0.8.0`, then
  `--vsavdump /tmp/vpw/bin/vsavdump.py`; its venv's python is found beside it);
- audit: `hexforge audit GAME LOG --format json`;
- no cache: the same audit with the model cache off (HEXFORGE_MODEL_CACHE=off: the game is
  read from YAML and validated, as before issue 15's cache; builder/model/cache.py);
- previous: the same command from the previous release (--baseline, a git revision, taken
  out with `git archive` into a temporary directory and run with the same interpreter).

The rows of one size run in turn (A B C A B C ...), so that the machine's drift falls on all of
them; the ratios are medians of the run-by-run CPU ratios.

Both trees are byte-compiled first (`compileall`), as an installed package is and as any tree
is after its first run: a machine with PYTHONDONTWRITEBYTECODE set (this one) would otherwise
compile every module of the project again in every process.

The batch is `hexforge audit GAME DIR --format json` over --batch copies of a --batch-steps
log, with --jobs 1 and on all cores, reported as seconds and logs per second.
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SLUG = "bravery-in-the-sand"
BASELINE = "62e5d06"  # the last commit before issue 15 (no release is tagged)
DECODE = "import sys; from pathlib import Path; from validators.vlog.reader import read_record; read_record(Path(sys.argv[1]))"


def make_log(path: Path, steps: int) -> None:
    from validators.replay.writer import LogWriter

    w = LogWriter(ROOT / "generated" / SLUG / f"{SLUG}.vmod")
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.turn(1, "Activations")
    w.move("chit-15pz#1", "Activation 8")
    units = ["15pz-8pz-1", "15pz-8pz-2", "15pz-115sr", "15pz-33ar"]
    route = ["0607", "0608"]
    i = 0
    while len(w.steps) < steps:
        for u in units:
            w.move(u, route[i % 2])
        w.roll("Axis dice", [1 + (i % 6), 1 + ((i * 5) % 6)], "Axis")
        i += 1
    w.write(path)


def log_of(folder: Path, steps: int) -> Path:
    """The log of `steps` steps in `folder`, written unless already there (--logs keeps them)."""
    path = folder / f"bench-{steps}.vlog"
    if not path.exists():  # in a child: Linux counts the parent's size at fork in each child's peak RSS
        code = f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import audit_bench; " \
               f"audit_bench.make_log(__import__('pathlib').Path({str(path)!r}), {steps})"
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    return path


def run_once(cmd: list[str], root: Path, extra_env: dict[str, str] | None = None) -> tuple[float, float, float, int]:
    """One fresh process: (wall seconds, CPU seconds, peak resident MB, exit status)."""
    env = dict(os.environ, PYTHONPATH=str(root), **(extra_env or {}))
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


def measure(cmd: list[str], root: Path, runs: int) -> dict | None:
    """Median wall seconds and peak MB of `runs` runs after one warm-up; None if it failed
    (exit status 2 or more: the audit exits 1 when it finds violations)."""
    return measure_paired({"x": (cmd, root, None)}, runs)["x"]


def measure_paired(rows: dict[str, tuple[list[str], Path, dict | None]], runs: int) -> dict[str, dict | None]:
    """Each row's command run in turn (A B C A B C ...: a drift in the machine's speed falls on
    every row alike), one warm-up each (it also fills the model cache); per row the medians of
    wall and CPU seconds and peak MB, and the CPU seconds of every run for paired ratios."""
    for cmd, root, env in rows.values():
        run_once(cmd, root, env)
    got: dict[str, list | None] = {name: [] for name in rows}
    for _ in range(runs):
        for name, (cmd, root, env) in rows.items():
            if got[name] is None:
                continue
            wall, cpu, peak, code = run_once(cmd, root, env)
            got[name] = None if code >= 2 or code < 0 else got[name] + [(wall, cpu, peak)]
    out: dict[str, dict | None] = {}
    for name, rs in got.items():
        if not rs:
            out[name] = None
            continue
        walls, cpus, peaks = zip(*rs)
        out[name] = {"s": statistics.median(walls), "cpu": statistics.median(cpus), "mb": statistics.median(peaks),
                     "min": min(walls), "max": max(walls), "cpus": list(cpus), "walls": list(walls)}
    return out


def paired(a: dict | None, b: dict | None, key: str = "cpus") -> float | None:
    """Median of the run-by-run ratios a/b (runs taken in turn, see measure_paired)."""
    if not a or not b:
        return None
    return statistics.median(x / y for x, y in zip(a[key], b[key]))


def baseline_tree(rev: str, into: Path) -> Path | None:
    """The previous release's files, from git (no work tree is touched)."""
    try:
        data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def compile_tree(root: Path) -> None:
    """Byte-code for the project's packages (see the module docstring)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "builder", "validators"], cwd=root,
                   stdout=subprocess.DEVNULL, check=False)


def entry(root: Path) -> str:
    """The module the console script `hexforge` runs in `root`'s tree (validators.main since
    2026-11-27; before, validators.cli): the command a user runs."""
    return "validators.main" if (root / "validators" / "main.py").is_file() else "validators.cli"


def audit_cmd(target: Path, root: Path = ROOT) -> list[str]:
    return [sys.executable, "-m", entry(root), "audit", SLUG, str(target), "--format", "json"]


def fmt(m: dict | None) -> str:
    return f"{m['s']:8.3f} {m['cpu']:7.3f} {m['mb']:7.1f}" if m else f"{'failed':>8} {'':7} {'':7}"


def sizes(args, tmp: Path, logs: Path, base: Path | None) -> None:
    print(f"{'steps':>7} {'row':<9} {'median s':>8} {'cpu s':>7} {'peak MB':>7}  {'x decode':>8} {'x previous':>10}  "
          "runs min-max s   (ratios: medians of paired CPU ratios)")
    audit_cpu: dict[int, float] = {}
    for n in args.steps:
        log = log_of(logs, n)
        cmds = {"python": ([sys.executable, "-c", "pass"], ROOT, None),  # the interpreter alone
                "decode": ([sys.executable, "-c", DECODE, str(log)], ROOT, None)}
        if args.vsavdump:
            cmds["vsavdump"] = ([args.vsavdump_python, args.vsavdump, str(log)], ROOT, None)
        cmds["audit"] = (audit_cmd(log), ROOT, None)
        cmds["no cache"] = (audit_cmd(log), ROOT, {"HEXFORGE_MODEL_CACHE": "off"})  # the game loaded from YAML
        if base:
            cmds["previous"] = (audit_cmd(log, base), base, None)
        rows = measure_paired(cmds, args.runs)
        for name, m in rows.items():
            r_dec, r_prev = paired(m, rows["decode"]), paired(m, rows.get("previous"))
            vs_dec = f"{r_dec:8.2f}" if r_dec else f"{'':8}"
            vs_prev = f"{r_prev:10.2f}" if r_prev else f"{'':10}"
            spread = f"  {m['min']:.3f}-{m['max']:.3f}" if m else ""
            print(f"{n:7d} {name:<9} {fmt(m)}  {vs_dec} {vs_prev}{spread}")
        if rows["audit"]:
            audit_cpu[n] = rows["audit"]["cpu"]
    if 10000 in audit_cpu and 100000 in audit_cpu:
        print(f"100k / 10k audit CPU time: {audit_cpu[100000] / audit_cpu[10000]:.1f}x (linear: 10x)")
    if not args.vsavdump:
        print("vsavdump: pywargame not given (--vsavdump PATH/vsavdump.py; it needs Python >= 3.12): row left out")


def batch(args, tmp: Path, logs: Path, base: Path | None) -> None:
    folder = tmp / "batch"
    folder.mkdir()
    data = log_of(logs, args.batch_steps).read_bytes()
    for i in range(args.batch):
        (folder / f"game-{i:03d}.vlog").write_bytes(data)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"batch of {args.batch} logs x {args.batch_steps} steps ({cores} cores):")
    for name, root in [("audit", ROOT)] + ([("previous", base)] if base else []):
        figures = measure_paired({jobs: (audit_cmd(folder, root) + ["--jobs", str(jobs)], root, None) for jobs in (1, cores)},
                                 args.batch_runs)
        one, all_ = figures[1], figures[cores]
        if one and all_:
            print(f"  {name:<9} 1 core {one['s']:6.2f} s ({args.batch / one['s']:5.1f} logs/s, cpu {one['cpu']:.2f} s); "
                  f"{cores} cores {all_['s']:6.2f} s ({args.batch / all_['s']:5.1f} logs/s, cpu {all_['cpu']:.2f} s): "
                  f"{paired(one, all_, 'walls'):.2f}x (paired wall ratio; on a loaded machine it follows the load)")
        else:
            print(f"  {name:<9} failed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--runs", type=int, default=5, help="counted runs of each command (median quoted)")
    ap.add_argument("--baseline", default=BASELINE, help="git revision of the previous release ('': none)")
    ap.add_argument("--vsavdump", default=shutil.which("vsavdump.py"), help="pywargame's vsavdump.py")
    ap.add_argument("--vsavdump-python", default=None, help="the interpreter of its venv (default: beside it)")
    ap.add_argument("--logs", type=Path, default=None, help="keep the generated logs here and reuse them")
    ap.add_argument("--batch", type=int, default=200, help="logs in the batch run (0: skip it)")
    ap.add_argument("--batch-steps", type=int, default=500)
    ap.add_argument("--batch-runs", type=int, default=3)
    args = ap.parse_args()
    if args.vsavdump and not args.vsavdump_python:
        beside = Path(args.vsavdump).parent / "python"
        args.vsavdump_python = str(beside) if beside.exists() else sys.executable
    if not (ROOT / "generated" / SLUG / f"{SLUG}.vmod").exists():
        subprocess.run([sys.executable, "-m", "validators.cli", "build", SLUG], check=True, cwd=ROOT)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        logs = args.logs or tmp / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        base = baseline_tree(args.baseline, tmp / "previous") if args.baseline else None
        if args.baseline and base is None:
            print(f"previous release {args.baseline!r}: not found in git; its rows are left out")
        for tree in [ROOT] + ([base] if base else []):
            compile_tree(tree)
        print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        sizes(args, tmp, logs, base)
        if args.batch:
            batch(args, tmp, logs, base)
        print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
