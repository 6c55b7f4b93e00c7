"""Audit an archive of logs on a Dask cluster (`hexforge audit GAME DIR --cluster ADDRESS`, issue 36).

The same outcomes as a local batch (validators/batch.py: the same audit of each file, the same
one-line reasons), on as many machines as the cluster has: ADDRESS is a running scheduler
(`tcp://host:8786`) or `local`, a LocalCluster of `--jobs` worker processes on this machine.

- Files: local paths (each worker reads them: the folder must be where the workers see it, as
  on a shared file system) or any fsspec URL the workers can reach (`s3://league/2026/`,
  `file:///srv/logs/`); a folder or URL prefix stands for its *.vlog and *.vsav, sorted, as in
  a local batch.  The client lists the files; the workers read them.
- The game, its grids and the audit's options go to every worker once (scattered, replicated).
- Each report is written into --out DIR as its file finishes (atomically, under the name a local
  batch gives it); the caller's `done` sees each outcome as it arrives (the progress bar).
- A per-file CPU limit (--timeout) on the worker's thread: a file past it is reported as not
  audited, as in a local batch.
- A worker that dies (killed, out of memory, its machine lost) loses nothing: the scheduler gives
  its files to another worker (Dask reruns the tasks of a lost worker); a task that was running
  on more dying workers than Dask allows (`distributed.scheduler.allowed-failures`, 3) is
  reported as not audited, with the reason, and the batch goes on.
"""
from __future__ import annotations

import ctypes
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from validators.batch import EXTENSIONS, PATTERNS, Outcome, audit_one, cores, one_line, render
from validators.budget import OutOfTime

_CONNECT_TIMEOUT = "20s"  # to reach the scheduler
RETRIES = 3  # a task that raised (it never should: each file's failure is an outcome) is run again
_URL = re.compile(r"^([a-z][a-z0-9+.-]+):/")  # a URL, as typer's Path leaves it ("s3://b/x" -> "s3:/b/x")


# ---- the files -------------------------------------------------------------------------------

def url_of(p: Path | str) -> str | None:
    """The fsspec URL a command-line path names, or None for a local path."""
    text = str(p)
    m = _URL.match(text)
    if not m or len(m.group(1)) < 2:  # "C:/..." is a drive, not a protocol
        return None
    rest = text[m.end():].lstrip("/")
    return f"{m.group(1)}:///{rest}" if m.group(1) == "file" else f"{m.group(1)}://{rest}"


def collect(paths: list[Path], recursive: bool = False) -> list[Path | str | Outcome]:
    """As batch.collect, with URLs: a URL's files as URL strings, in order, without repeats."""
    from validators.batch import collect as collect_local

    items: list[Path | str | Outcome] = []
    seen: set[str] = set()
    for p in paths:
        url = url_of(p)
        if url is None:
            found = collect_local([p], recursive)
        else:
            found = _remote(url, recursive)
        for f in found:
            key = f.path if isinstance(f, Outcome) else os.path.realpath(f) if isinstance(f, Path) else f
            if key not in seen:
                seen.add(key)
                items.append(f)
    return items


def _remote(url: str, recursive: bool) -> list[str | Outcome]:
    import fsspec

    try:
        fs, root = fsspec.core.url_to_fs(url)
        if not fs.isdir(root):
            return [url]
        pattern = "**/*" if recursive else "*"
        found = sorted({f for pat in PATTERNS for f in fs.glob(f"{root.rstrip('/')}/{pattern}{pat[1:]}")})
    except Exception as exc:  # noqa: BLE001 - an unknown protocol, no network, no access: one line
        return [Outcome(url, error=one_line(f"{url}: cannot list ({type(exc).__name__}: {exc})"))]
    if not found:
        return [Outcome(url, error=f"{url}: a directory with no .vlog or .vsav file in it")]
    return [fs.unstrip_protocol(f) for f in found]


class _UrlFile:
    """What read_saved_game needs of a path, for a file behind an fsspec URL."""

    def __init__(self, url: str) -> None:
        import fsspec

        self.url = url
        self.fs, self.path = fsspec.core.url_to_fs(url)

    def __str__(self) -> str:
        return self.url

    __fspath__ = __str__

    def __format__(self, spec: str) -> str:
        return format(self.url, spec)

    def is_dir(self) -> bool:
        return self.fs.isdir(self.path)

    def open(self, mode: str = "rb"):
        try:
            return self.fs.open(self.path, mode)
        except OSError:
            raise
        except Exception as exc:  # noqa: BLE001 - a remote store's own errors read as "cannot read"
            raise OSError(0, f"{type(exc).__name__}: {exc}") from None


# ---- a CPU budget for a worker's thread ----------------------------------------------------------

@contextmanager
def thread_cpu_budget(seconds: float) -> Iterator[None]:
    """Raise OutOfTime in this thread once it has used `seconds` of CPU (0: none).

    A Dask worker runs tasks in threads, where the process timer of validators/budget.py cannot
    interrupt: a watchdog reads this thread's CPU clock and raises the exception in it."""
    if seconds <= 0 or not hasattr(time, "pthread_getcpuclockid"):
        yield
        return
    clock = time.pthread_getcpuclockid(threading.get_ident())
    tid = ctypes.c_ulong(threading.get_ident())
    start = time.clock_gettime(clock)
    lock, stop = threading.Lock(), threading.Event()
    armed = [True]

    def watch() -> None:
        while not stop.wait(0.05):
            if time.clock_gettime(clock) - start >= seconds:
                with lock:
                    if armed[0]:
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(tid, ctypes.py_object(OutOfTime))
                        armed[0] = False
                return

    dog = threading.Thread(target=watch, daemon=True)
    dog.start()
    try:
        yield
    finally:
        with lock:
            fired = not armed[0]
            armed[0] = False
        stop.set()
        if fired:  # raised after the block ended: never delivered outside it
            ctypes.pythonapi.PyThreadState_SetAsyncExc(tid, None)


# ---- on a worker ---------------------------------------------------------------------------------

def _audit_chunk(state, names: list[str]) -> list[Outcome]:
    """Audit `names` (paths or URLs) with the scattered `state`; never raises for a file."""
    game, grids, selection, timeout, module = state
    out = []
    for name in names:
        path = _UrlFile(name) if url_of(name) else Path(name)
        try:
            with thread_cpu_budget(timeout):  # audit_one's own timer works in a main thread only
                out.append(audit_one(game, path, grids, selection, timeout, module))
        except OutOfTime:  # fired between the audit's end and the budget's
            out.append(Outcome(name, error=f"{name}: used its {timeout:g} s of CPU (--timeout) before the audit "
                                           "ended: not audited"))
        except Exception as exc:  # noqa: BLE001 - e.g. an fsspec protocol the worker lacks
            out.append(Outcome(name, error=one_line(f"{name}: internal error ({type(exc).__name__}: {exc})")))
    return out


# ---- the client --------------------------------------------------------------------------------

class ClusterError(Exception):
    """No cluster to run on (Dask not installed, no scheduler at the address), or --out cannot be
    written: the one line to show."""


@contextmanager
def client_for(address: str, jobs: int = 0):
    """A Dask client of the scheduler at `address`, or of a LocalCluster of `jobs` processes
    (0: all cores) when `address` is `local`.  Raises ClusterError."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(f"--cluster {address}: Dask's distributed is not installed: "
                           "pip install 'hexforge[cluster]'") from None
    if address == "local":
        import dask

        # Dask's sampling profiler looks at every worker thread's stack 100 times a second: a
        # fifth more CPU per audit, for a dashboard no batch shows
        with dask.config.set({"distributed.worker.profile.enabled": False}), LocalCluster(n_workers=jobs or cores(), threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=40) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout=_CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as exc:  # no scheduler there (TimeoutError is an OSError)
        raise ClusterError(one_line(f"--cluster {address}: cannot reach a scheduler ({type(exc).__name__}: "
                                    f"{exc})")) from None
    with client:
        yield client


def report_names(names: list[str], readable: list[bool], fmt: str) -> list[str | None]:
    """Each file's report name in --out DIR, as batch.write_reports gives it (None: unreadable)."""
    used: set[str] = set()
    out: list[str | None] = []
    for name, ok in zip(names, readable):
        if not ok:
            out.append(None)
            continue
        base, ext, n = _base(name), EXTENSIONS[fmt], 1
        file = f"{base}.{ext}"
        while file in used:
            n += 1
            file = f"{base}.{n}.{ext}"
        used.add(file)
        out.append(file)
    return out


def _base(name: str) -> str:
    return name.rstrip("/").rsplit("/", 1)[-1] if url_of(name) else Path(name).name


def run(address: str, game, files: list[Path | str], jobs: int = 0,
        done: Callable[[Outcome], None] = lambda o: None, selection=None, timeout: float = 0,
        module=None, out_dir: Path | None = None, fmt: str = "text", art=None,
        client=None, chunk: int = 0) -> list[Outcome]:
    """Audit `files` on the cluster; outcomes in the order of `files`.  With `out_dir`, each
    readable file's report is written there in `fmt` as it arrives (see the module docstring)."""
    from builder.vassal.archive import write_atomic
    from validators.audit import module_grids
    from validators.kernel.selection import Selection

    names = [str(f) for f in files]
    if not names:
        return []
    if client is None:
        with client_for(address, jobs) as c:
            return run(address, game, files, jobs, done, selection, timeout, module, out_dir, fmt, art, c, chunk)
    from distributed import as_completed

    grids, mid = module or (module_grids(game), None)
    state = client.scatter((game, grids, selection or Selection(), timeout, mid), broadcast=True, hash=False)
    workers = max(1, sum(client.nthreads().values()))
    # a few files per task: one task each cost a fifth more CPU (scheduling, transfer); a lost
    # worker loses no more than one chunk per thread, run again elsewhere
    size = chunk or max(1, min(16, len(names) // (workers * 8)))
    chunks = [list(range(i, min(i + size, len(names)))) for i in range(0, len(names), size)]
    futures = {client.submit(_audit_chunk, state, [names[i] for i in c], pure=False, retries=RETRIES): c
               for c in chunks}
    provisional = report_names(names, [True] * len(names), fmt)  # every file's name if all were readable
    results: dict[int, Outcome] = {}
    for fut in as_completed(list(futures)):
        idx = futures[fut]
        try:
            outcomes = fut.result()
        except Exception as exc:  # noqa: BLE001 - KilledWorker: its workers died each time it ran
            outcomes = [Outcome(names[i], error=one_line(f"{names[i]}: its workers failed ({type(exc).__name__}: "
                                                         f"{exc}): not audited")) for i in idx]
        for i, o in zip(idx, outcomes):
            results[i] = o
            if out_dir is not None and o.report is not None:
                try:
                    write_atomic(out_dir / provisional[i], render(game, o.report, fmt, art))
                except OSError as exc:
                    raise ClusterError(f"--out {out_dir}: cannot write ({exc.strerror or exc})") from None
            done(o)
        fut.release()
    outcomes = [results[i] for i in range(len(names))]
    if out_dir is not None:  # an unreadable file frees its name for the next of the same name, as locally
        final = report_names(names, [o.report is not None for o in outcomes], fmt)
        for was, now in zip(provisional, final):
            if now is not None and was != now:
                try:
                    os.replace(out_dir / was, out_dir / now)
                except OSError as exc:
                    raise ClusterError(f"--out {out_dir}: cannot write ({exc.strerror or exc})") from None
    return outcomes
