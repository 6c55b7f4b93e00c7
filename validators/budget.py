"""A CPU-time budget for one file's audit: a file may ask for more work than any real log
needs (issue 32), and a batch must go on to the next file.

CPU time, not wall-clock: a busy machine does not make a file run out, and a test that uses it
does not depend on the machine's speed.  POSIX's profiling timer (ITIMER_PROF) counts the
process's CPU time and interrupts the main thread when it runs out; elsewhere (no setitimer, or
not the main thread) the budget is not enforced.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

DEFAULT_SECONDS = 120.0  # a 10,000-step log audits in a few seconds; 100,000 steps in under a minute


class OutOfTime(BaseException):
    """The file's audit used up its CPU budget; a BaseException, so no reader's `except Exception`
    can swallow it and go on."""


def _expired(signum, frame):
    raise OutOfTime


@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Raise OutOfTime in the block once it has used `seconds` of CPU (0: no budget)."""
    if seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGPROF, _expired)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
