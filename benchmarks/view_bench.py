"""`hexforge view` of a long match: the page's size, the time to write it, and in Chromium the
time to open it and to jump to any step (issue 34's targets: under 8 MB, under one second).

Run: .venv/bin/python benchmarks/view_bench.py [--steps 2000] [--jumps 20] [--logs DIR]

Writes a Desert Fox log of --steps steps (rules_bench.desert_fox_log: Fox Killed, units stepping
out and back each phase, combat rolls, the tracker walking every phase) with the module it was
written with, audits it, writes the page, then, when Debian's chromium is there (Playwright
pointed at it; nothing is downloaded), opens the page afresh --runs times and jumps to --jumps
steps spread over the match.  "open" is the browser's own count from navigation start to the
end of the load event (the page's script has drawn step 0 by then: it runs inline); "jump" is
from the slider's input event to the next frame after it (the counters moved and laid out).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

JUMP = """async (n) => {
  const s = document.getElementById('slider');
  const t0 = performance.now();
  s.value = n; s.dispatchEvent(new Event('input'));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t0;
}"""
OPEN = "() => performance.getEntriesByType('navigation')[0].loadEventEnd"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--jumps", type=int, default=20)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--logs", type=Path, help="keep the log, module and page here (written once)")
    args = ap.parse_args()
    folder = args.logs or Path(tempfile.mkdtemp(prefix="view-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"desert-fox-deluxe-{args.steps}.vlog"
    if not log.exists():
        from rules_bench import log_of

        log_of(folder, "desert-fox-deluxe", args.steps)
    from builder.model import load_game
    from validators.audit import audit_file
    from validators.view.module_art import ModuleArt
    from validators.view.page import page_data, render

    game = load_game(ROOT / "sources" / "desert-fox-deluxe")
    t0 = time.perf_counter()
    report = audit_file(game, log)
    t1 = time.perf_counter()
    data = page_data(log, ModuleArt(log.with_suffix(".vmod")), report, game)
    page = render(data, f"{log.name} - {game.info.title}").encode("utf-8")
    t2 = time.perf_counter()
    html = log.with_suffix(".html")
    html.write_bytes(page)
    images = sum(len(u) for u in data["images"] if u) + sum(len(b["image"] or "") for m in data["maps"] for b in m["boards"])
    print(f"log: {log} ({len(data['steps'])} steps, {len(data['start'])} counters at the start, "
          f"{len(data['findings'])} findings)")
    print(f"page: {len(page) / 1e6:.2f} MB ({images / 1e6:.2f} MB of images as data: URIs, "
          f"{(len(page) - images) / 1e6:.2f} MB the rest); audit {t1 - t0:.1f} s, page written in {t2 - t1:.1f} s")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        print("no chromium: open and jump times not measured")
        return
    from playwright.sync_api import sync_playwright

    opens, jumps = [], []
    n = len(data["steps"])
    targets = [round(n * (k + 0.5) / args.jumps) for k in range(args.jumps)]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        for _ in range(args.runs):
            tab = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.goto(html.as_uri(), wait_until="load")
            opens.append(tab.evaluate(OPEN))
            for target in targets:
                jumps.append(tab.evaluate(JUMP, target))
                assert tab.get_attribute("#hexforge-view", "data-current-step") == str(target)
            assert not errors, errors
            tab.close()
        browser.close()
    print(f"chromium ({exe}): open median {statistics.median(opens):.0f} ms (max {max(opens):.0f}) over "
          f"{args.runs} runs; jump median {statistics.median(jumps):.0f} ms (max {max(jumps):.0f}) over "
          f"{len(jumps)} jumps")


if __name__ == "__main__":
    main()
