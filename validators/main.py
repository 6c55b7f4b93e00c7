"""The `hexforge` console script: the commonest command, `hexforge audit GAME LOG` with at most
--format, --out and --timeout, runs here without typer; everything else goes to the typer app
(validators/cli.py).

Why: a short audit is mostly start-up, and importing typer (with click) cost each audit about
35 ms (issue 36).  This path only does what the typer command does for a well-formed call of one
file; whenever the call is anything else (another command or option, help, a directory, several
files, html, a duplicate option, a value the command would refuse, an unknown game, a game
with source problems, a report that cannot be written) it hands the whole command line to the
typer app untouched, which then answers exactly as before.  An unreadable log is answered
here, with the message and exit status the typer command gives.
"""
from __future__ import annotations

import gc
import re
import sys
from pathlib import Path

from validators.process_exit import flush_and_exit

_VALUED = ("--format", "--out", "--timeout")  # the options this path takes, each with a value
_OUT_FORMATS = {".txt": "text", ".json": "json"}  # --out extensions this path writes (html: typer's)
_SECONDS = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")  # a --timeout typer reads as the same float


def _call(argv: list[str]) -> tuple[str, Path, dict[str, str]] | None:
    """(game, log, options) of `audit GAME LOG [--format F] [--out P] [--timeout S]`, or None."""
    if len(argv) < 3 or argv[0] != "audit":
        return None
    positional: list[str] = []
    options: dict[str, str] = {}
    i = 1
    while i < len(argv):
        token = argv[i]
        if token.startswith("-"):
            name, eq, value = token.partition("=")
            if name not in _VALUED or name in options:
                return None
            if not eq:
                i += 1
                if i == len(argv):
                    return None
                value = argv[i]
            options[name] = value
        else:
            positional.append(token)
        i += 1
    if len(positional) != 2 or not positional[0] or not positional[1]:
        return None
    return positional[0], Path(positional[1]), options


def _fast_audit(argv: list[str]) -> int | None:
    """The audit's exit status when this path can answer the call, else None (nothing written)."""
    call = _call(argv)
    if call is None:
        return None
    game, log, options = call
    fmt = options.get("--format")
    out_path = Path(options["--out"]) if "--out" in options else None
    timeout = options.get("--timeout")
    if fmt is not None and fmt not in ("text", "json") or timeout is not None and not _SECONDS.fullmatch(timeout):
        return None
    if out_path is not None:
        implied = _OUT_FORMATS.get(out_path.suffix.lower())
        if implied is None or fmt is not None and fmt != implied or out_path.is_dir():
            return None
        fmt = implied
    if log.is_dir():
        return None
    from builder.paths import games, sources_dir

    if game not in games():
        return None
    from builder.model.cache import load_game

    try:
        g = load_game(sources_dir() / game, plain=True)
    except Exception as exc:
        from builder.model.problems import SourceError  # only then (its dataclass costs start-up)

        if isinstance(exc, SourceError):
            return None  # a game with source problems: the typer command reports them
        raise
    from validators.games import NoRules, rules_for

    try:
        rules_for(g)
    except NoRules:
        return None
    from builder.console import err
    from validators import batch
    from validators.budget import DEFAULT_SECONDS

    outcome = batch.audit_one(g, log, timeout=DEFAULT_SECONDS if timeout is None else float(timeout))
    if outcome.report is None:
        err.print(outcome.error, markup=False, emoji=False)
        return 2
    data = batch.render(g, outcome.report, fmt or "text")
    if out_path is not None:
        from builder.vassal.archive import write_atomic

        try:
            write_atomic(out_path, data)
        except OSError:
            return None  # the typer command says why, in its words
    for note in outcome.report.notes:
        err.print(note, markup=False, emoji=False)
    if out_path is None:
        sys.stdout.write(data.decode("utf-8"))
    return batch.exit_code([outcome])


def main() -> None:
    """The console script.  Ends with `os._exit` once the output is flushed (validators.cli.main
    says why).

    The cycle collector stays off for the audit of one file: its imports, model and report make
    no garbage a collection would find (the log's part runs paused anyway, reader.paused_gc), and
    its passes over start-up's objects cost each audit a few per cent (issue 36)."""
    gc.disable()
    try:
        code = _fast_audit(sys.argv[1:])
    except KeyboardInterrupt:
        code = 130
    if code is None:
        gc.enable()  # any other command runs as before
        from validators.cli import main as typer_main

        typer_main()  # ends the process
    flush_and_exit(code)


if __name__ == "__main__":  # python -m validators.main, as the benchmarks run it
    main()
