"""Audit speed and memory on generated logs, against a plain decode of the same file.

Run: .venv/bin/python benchmarks/audit_bench.py [--steps 10000 ...]
Writes a log of N steps with the test log writer (units of two divisions marching up and
down the Via Balbia, dice, turn changes), then reports, for each size: the seconds of a plain
decode (read + parse the file), the seconds of the full audit, steps per second, and the peak
resident memory of the audit, each measured in a fresh process.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SLUG = "bravery-in-the-sand"


def make_log(path: Path, steps: int) -> None:
    from validators.vlog.writer import LogWriter

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


def measure(kind: str, log: Path) -> dict:
    """Run one measurement in a fresh process: {seconds, peak_mb}."""
    code = f"""
import json, resource, sys, time
sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
t0 = time.perf_counter()
if {kind!r} == "decode":
    from validators.vlog.reader import read_record
    read_record(Path({str(log)!r}))
else:
    from builder.model import load_game
    from validators.audit import audit_file
    game = load_game(Path({str(ROOT / 'sources' / SLUG)!r}))
    t0 = time.perf_counter()
    audit_file(game, Path({str(log)!r}))
print(json.dumps({{"seconds": time.perf_counter() - t0,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def batch(tmp: Path, logs: int, steps: int) -> None:
    """`hexforge audit GAME DIR` over many logs on all cores, against decoding them one by one."""
    folder = tmp / "batch"
    folder.mkdir()
    make_log(folder / "game-000.vlog", steps)
    data = (folder / "game-000.vlog").read_bytes()
    for i in range(1, logs):
        (folder / f"game-{i:03d}.vlog").write_bytes(data)
    decode = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
from validators.vlog.reader import read_record
t0 = time.perf_counter()
for p in sorted(Path({str(folder)!r}).glob("*.vlog")):
    read_record(p)
print(time.perf_counter() - t0)
"""
    t_decode = float(subprocess.run([sys.executable, "-c", decode], capture_output=True, text=True,
                                    check=True).stdout)
    times = {}
    for jobs in (1, 0):
        cmd = [sys.executable, "-m", "validators.cli", "audit", SLUG, str(folder), "--format", "json"]
        cmd += ["--jobs", str(jobs)] if jobs else []
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        times[jobs] = time.perf_counter() - t0
    print(f"batch of {logs} logs x {steps} steps: decode one by one {t_decode:.2f} s; audit with 1 worker "
          f"{times[1]:.2f} s; on all cores {times[0]:.2f} s ({times[1] / times[0]:.1f}x faster, "
          f"{times[0] / t_decode:.1f}x the plain decode)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--batch", type=int, default=200, help="logs in the batch run (0: skip it)")
    ap.add_argument("--batch-steps", type=int, default=500)
    args = ap.parse_args()
    if not (ROOT / "generated" / SLUG / f"{SLUG}.vmod").exists():
        subprocess.run([sys.executable, "-m", "validators.cli", "build", SLUG], check=True, cwd=ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'steps':>7} {'decode s':>9} {'audit s':>8} {'audit/decode':>12} {'steps/s':>9} {'peak MB':>8}")
        times = {}
        for n in args.steps:
            log = Path(tmp) / f"{n}.vlog"
            make_log(log, n)
            dec, aud = measure("decode", log), measure("audit", log)
            times[n] = aud["seconds"]
            print(f"{n:7d} {dec['seconds']:9.3f} {aud['seconds']:8.3f} {aud['seconds'] / dec['seconds']:12.1f} "
                  f"{n / aud['seconds']:9.0f} {aud['peak_mb']:8.1f}")
        if 10000 in times and 100000 in times:
            print(f"100k/10k audit time: {times[100000] / times[10000]:.1f}x (linear: 10x)")
        if args.batch:
            batch(Path(tmp), args.batch, args.batch_steps)


if __name__ == "__main__":
    main()
