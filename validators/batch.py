"""Audit many logs at once: in parallel on all cores, one outcome per file, one summary.

A file that cannot be read never stops the batch: its outcome carries the one-line reason.
The game is loaded once per worker process (inherited when the pool forks, else loaded by
the initializer).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from builder.model import load_game
from builder.model.game import Game
from builder.vassal.archive import write_atomic
from validators.audit import audit_file, module_grids
from validators.budget import DEFAULT_SECONDS, OutOfTime, cpu_budget
from validators.findings import AuditReport
from validators.games import rules_for
from validators.kernel.selection import Selection
from builder.record import Record
from validators.report import dumps
from validators.vlog.container import LogFormatError
from validators.written_with import ModuleId

PATTERNS = ("*.vlog", "*.vsav")
EXTENSIONS = {"text": "txt", "json": "json", "html": "html"}


class Outcome(Record):
    """What became of one file of a batch: its report, or why it has none."""

    __slots__ = ("path", "report", "error")

    def __init__(self, path: str, report: AuditReport | None = None, error: str | None = None):
        self.path, self.report = path, report
        self.error = error  # one line, starting with the path

    @property
    def status(self) -> str:
        if self.report is None:
            return "unreadable"
        return "violations" if self.report.violations else "ok"

    @property
    def reason(self) -> str:
        """The error without the leading file name."""
        e = self.error or ""
        return e[len(self.path):].lstrip(":").strip() if e.startswith(self.path) else e


def one_line(text: str) -> str:
    return " ".join(text.split("\n")).replace("\r", " ")


def audit_one(game: Game, path: Path, grids=None, selection: Selection = Selection(),
              timeout: float = DEFAULT_SECONDS, module: ModuleId | None = None) -> Outcome:
    """Audit one file within `timeout` CPU seconds (0: no limit); every failure becomes an
    outcome with a one-line reason, never a raise."""
    try:
        with cpu_budget(timeout):
            return Outcome(str(path), report=audit_file(game, path, grids, selection, module))
    except OutOfTime:
        return Outcome(str(path), error=f"{path}: used its {timeout:g} s of CPU (--timeout) before the audit "
                                        "ended: not audited")
    except LogFormatError as exc:
        text = one_line(str(exc))
        return Outcome(str(path), error=text if text.startswith(str(path)) else f"{path}: {text}")
    except RecursionError:
        return Outcome(str(path), error=f"{path}: commands nested too deeply: cannot read")
    except Exception as exc:  # noqa: BLE001 - a batch goes on; the reason is reported
        return Outcome(str(path), error=one_line(f"{path}: internal error ({type(exc).__name__}: {exc})"))


def collect(paths: Iterable[Path], recursive: bool = False) -> list[Path | Outcome]:
    """The files to audit, in order, without repeats: each file as given, each directory's
    *.vlog and *.vsav sorted.  A directory with none of them is an outcome (unreadable)."""
    items: list[Path | Outcome] = []
    seen: set[str] = set()
    for p in paths:
        if p.is_dir():
            found = sorted({f for pat in PATTERNS for f in (p.rglob(pat) if recursive else p.glob(pat))})
            if not found:
                items.append(Outcome(str(p), error=f"{p}: a directory with no .vlog or .vsav file in it"))
        else:
            found = [p]
        for f in found:
            key = os.path.realpath(f)
            if key not in seen:
                seen.add(key)
                items.append(f)
    return items


_WORKER: dict = {}


def _prime(game_dir: str, game: Game | None = None, selection: Selection = Selection(),
           timeout: float = DEFAULT_SECONDS, module: tuple[dict, ModuleId] | None = None) -> None:
    """Per-process state, prepared once: the game, its module grids and its rules module.

    Done in the parent before the pool forks, so workers start with all of it (with another
    start method the initializer does it once per worker, never once per log).
    """
    if _WORKER.get("dir") != game_dir:
        g = game or load_game(Path(game_dir), plain=True)
        _WORKER.update(dir=game_dir, game=g, grids=module_grids(g))
        try:
            rules_for(g)  # imports the game's rules package (tens of ms), not once per worker's first log
        except KeyError:
            pass  # no rules module: each file's outcome says so
    _WORKER["selection"], _WORKER["timeout"] = selection, timeout
    _WORKER["module"] = module  # (grids, id) of the --module a batch is read with, or None


def _work(path: str) -> Outcome:
    grids, module = _WORKER["module"] or (_WORKER["grids"], None)
    return audit_one(_WORKER["game"], Path(path), grids, _WORKER["selection"], _WORKER["timeout"], module)


def _work_chunk(paths: list[str]) -> list[Outcome]:
    return [_work(p) for p in paths]


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run(game_dir: Path, game: Game, files: list[Path], jobs: int = 0,
        done: Callable[[Outcome], None] = lambda o: None, selection: Selection = Selection(),
        timeout: float = DEFAULT_SECONDS, module: tuple[dict, ModuleId] | None = None) -> list[Outcome]:
    """Audit `files` on `jobs` processes (0: all cores), each within `timeout` CPU seconds;
    outcomes in the order of `files`."""
    _prime(str(game_dir), game, selection, timeout, module)
    jobs = min(jobs or cores(), len(files))
    results: dict[int, Outcome] = {}
    if jobs <= 1:
        for i, f in enumerate(files):
            results[i] = _work(str(f))
            done(results[i])
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed  # a batch only

        # Files go out in small chunks: one round trip per file cost about as much as a short
        # log's audit, and a big last chunk left the other workers idle at the end.
        size = max(1, min(4, len(files) // (jobs * 16)))
        chunks = [list(range(i, min(i + size, len(files)))) for i in range(0, len(files), size)]
        with ProcessPoolExecutor(max_workers=jobs, initializer=_prime,
                                 initargs=(str(game_dir), None, selection, timeout, module)) as pool:
            futures = {pool.submit(_work_chunk, [str(files[i]) for i in chunk]): chunk for chunk in chunks}
            for fut in as_completed(futures):
                chunk = futures[fut]
                try:
                    outcomes = fut.result()
                except Exception as exc:  # noqa: BLE001 - a worker that died (killed, out of memory)
                    outcomes = [Outcome(str(files[i]), error=f"{files[i]}: worker failed ({type(exc).__name__})")
                                for i in chunk]
                for i, outcome in zip(chunk, outcomes):
                    results[i] = outcome
                    done(outcome)
    return [results[i] for i in range(len(files))]


def exit_code(outcomes: list[Outcome]) -> int:
    """2 if any file was unreadable, else 1 if any had violations, else 0."""
    statuses = {o.status for o in outcomes}
    return 2 if "unreadable" in statuses else 1 if "violations" in statuses else 0


def render(game: Game, report: AuditReport, fmt: str, art=None) -> bytes:
    """The report in `fmt`; html is the page of `hexforge view` with the findings in it, drawn
    with `art` (the module's ModuleArt: validators/view/module_art.py)."""
    from validators.report import as_json, as_text

    if fmt == "html":
        from validators.view.page import report_page

        return report_page(report, art, game).encode("utf-8")  # the log replayed again, step by step
    return (as_json(report) if fmt == "json" else as_text(report)).encode("utf-8")


def write_reports(game: Game, outcomes: list[Outcome], fmt: str, out_dir: Path, art=None) -> None:
    """Each readable file's report as DIR/<file name>.<txt|json|html>, written atomically."""
    used: set[str] = set()
    for o in outcomes:
        if o.report is None:
            continue
        base, ext, n = Path(o.path).name, EXTENSIONS[fmt], 1
        name = f"{base}.{ext}"
        while name in used:
            n += 1
            name = f"{base}.{n}.{ext}"
        used.add(name)
        write_atomic(out_dir / name, render(game, o.report, fmt, art))


def _counts(o: Outcome) -> tuple[int, int, int] | None:
    if o.report is None:
        return None
    r = o.report
    return r.summary.steps, len(r.violations), len(r.findings) - len(r.violations)


def totals(outcomes: list[Outcome]) -> dict[str, int]:
    return {"files": len(outcomes), **{s: sum(o.status == s for o in outcomes) for s in ("ok", "violations", "unreadable")}}


def summary_text(outcomes: list[Outcome]) -> str:
    rows = [("file", "steps", "violations", "events", "status")]
    for o in outcomes:
        c = _counts(o)
        nums = tuple(str(x) for x in c) if c else ("-", "-", "-")
        rows.append((o.path, *nums, f"unreadable: {o.reason}" if c is None else o.status))
    width = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"{r[0]:<{width[0]}}  {r[1]:>{width[1]}}  {r[2]:>{width[2]}}  {r[3]:>{width[3]}}  {r[4]}" for r in rows]
    t = totals(outcomes)
    lines.append(f"{t['files']} file(s): {t['ok']} ok, {t['violations']} with violations, {t['unreadable']} unreadable")
    return "\n".join(lines) + "\n"


def summary_json(game: str, outcomes: list[Outcome]) -> str:
    files = []
    for o in outcomes:
        c = _counts(o)
        entry = {"file": o.path, "status": o.status}
        if c is None:
            entry["reason"] = o.reason
        else:
            entry.update(steps=c[0], violations=c[1], events=c[2], report=o.report.to_json())
        files.append(entry)
    doc = {"game": game, "files": files, "totals": totals(outcomes), "exit_code": exit_code(outcomes)}
    return dumps(doc)  # json.dumps(doc, indent=2, ensure_ascii=False) + "\n", byte for byte
