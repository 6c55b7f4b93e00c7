"""Build times, in fresh processes, in a scratch copy of the repository's sources (generated/ is
left alone).

`--all` (issue 36, incremental builds), paired in each round: `hexforge build --all` cold (an
empty build store), the same with nothing changed, then with one unit of Desert Fox changed (its
faces, the module and the sheets are made again, not the board); wall and CPU seconds of each
command, its ratio to the cold one, and whether the outputs are byte-identical to the cold build's
(unchanged) or to a clean build of the changed sources (one unit).

Without `--all`: per game, cold (a fresh process: imports, fonts, first render) and warm (the
same build again in that process: from the build store), each against the smallest game's cold
build as baseline, with each game's board area (px, the board's width x height) and the build
process's peak resident memory (MB; issue 35: Desert Fox under 400 MB).

Run: .venv/bin/python benchmarks/build_bench.py [--all] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
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


def _hexforge(root: Path, *args: str) -> tuple[float, float]:
    """Wall and CPU seconds of one `hexforge` command in a fresh process, working in `root`."""
    env = {**os.environ, "HEXFORGE_ROOT": str(root)}
    before = os.times()
    t0 = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "hexforge"), *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def _outputs(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "generated").glob("*/*"))
            if p.is_file()}


def _change_one_unit(root: Path) -> None:
    path = root / "sources" / "desert-fox-deluxe" / "units.yaml"
    text = path.read_text("utf-8")
    path.write_text(text.replace('short: "', 'short: "x', 1), "utf-8")


def bench_all(repeat: int) -> None:
    rows: dict[str, list[tuple[float, float]]] = {"cold": [], "unchanged": [], "one unit": []}
    same = {"unchanged": True, "one unit": True}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            work, clean = Path(tmp) / "work", Path(tmp) / "clean"
            shutil.copytree(ROOT / "sources", work / "sources")
            rows["cold"].append(_hexforge(work, "build", "--all"))
            cold = _outputs(work)
            rows["unchanged"].append(_hexforge(work, "build", "--all"))
            same["unchanged"] &= _outputs(work) == cold
            _change_one_unit(work)
            rows["one unit"].append(_hexforge(work, "build", "--all"))
            shutil.copytree(work / "sources", clean / "sources")
            _hexforge(clean, "build", "desert-fox-deluxe", "--force")
            ours = {k: v for k, v in _outputs(work).items() if "desert-fox-deluxe" in k}
            same["one unit"] &= ours == _outputs(clean)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
    print(f"{'hexforge build --all':22} {'wall s':>7} {'cpu s':>7} {'wall/cold':>9}  byte-identical")
    for k, (wall, cpu) in med.items():
        print(f"{k:22} {wall:7.2f} {cpu:7.2f} {wall / med['cold'][0]:9.3f}  {same.get(k, '-')}")
    print(f"(median of {repeat} rounds, each: cold, unchanged, one Desert Fox unit changed; fresh processes)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--all", action="store_true", help="cold / unchanged / one unit changed `build --all`, paired")
    args = ap.parse_args()
    if args.all:
        bench_all(args.repeat)
        return
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
