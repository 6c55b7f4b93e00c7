"""The end of every `hexforge` process: flush what is left to say, then `os._exit` (validators.cli.main
says why: no interpreter teardown of a large audit's objects)."""
from __future__ import annotations

import os
import sys


def flush_and_exit(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (hexforge ... | head): nothing left to say
            pass
    os._exit(code)
