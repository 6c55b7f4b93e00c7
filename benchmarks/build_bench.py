"""Build time per game: cold (a fresh process: imports, fonts, first render) and warm (the
same build again in that process), each against the smallest game's cold build as baseline;
with each game's board area (px, the board's width x height) and the build process's peak
resident memory (MB, both builds; issue 35: Desert Fox under 400 MB).

Run: .venv/bin/python benchmarks/build_bench.py [--repeat 3]
Writes into a scratch copy of the repository's sources, so generated/ is left alone.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ONE_BUILD = """
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from pathlib import Path
from builder.build import build_game
t1 = time.perf_counter()
build_game({slug!r}, root=Path({scratch!r}))
t2 = time.perf_counter()
build_game({slug!r}, root=Path({scratch!r}))
t3 = time.perf_counter()
import resource
from builder.model import load_game
b = load_game(Path({scratch!r}) / "sources" / {slug!r}).map.board
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"cold": t2 - t0, "imports": t1 - t0, "warm": t3 - t2, "peak_mb": peak, "area": b.width * b.height}}))
"""


def measure(slug: str, scratch: Path) -> dict:
    code = ONE_BUILD.format(root=str(ROOT), slug=slug, scratch=str(scratch))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from builder.paths import games

    slugs = games(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "sources", Path(tmp) / "sources")
        results = {s: [measure(s, Path(tmp)) for _ in range(args.repeat)] for s in slugs}
    keys = ("cold", "warm", "imports", "peak_mb", "area")
    med = {s: {k: statistics.median(r[k] for r in rs) for k in keys} for s, rs in results.items()}
    base = min(med.values(), key=lambda m: m["cold"])["cold"]
    print(f"{'game':28} {'cold s':>7} {'warm s':>7} {'imports s':>9} {'cold/baseline':>13} {'board Mpx':>9} {'peak MB':>7}")
    for s, m in med.items():
        print(f"{s:28} {m['cold']:7.2f} {m['warm']:7.2f} {m['imports']:9.2f} {m['cold'] / base:13.2f} "
              f"{m['area'] / 1e6:9.2f} {m['peak_mb']:7.0f}")
    print(f"(median of {args.repeat}; baseline: the smallest game's cold build, {base:.2f} s)")


if __name__ == "__main__":
    main()
