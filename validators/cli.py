"""`hexforge audit` and `hexforge log dump`, added to the builder's command line.

The console script starts here so that `builder` never imports `validators`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import typer

from builder.cli import _known, _report, app, err, out
from builder.model import SourceError, load_game
from builder.paths import sources_dir
from builder.vassal.archive import write_atomic
from validators.vlog.container import LogFormatError

log_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Read VASSAL saves and logs.")
app.add_typer(log_app, name="log")


@app.command()
def audit(game: str = typer.Argument(..., help="game slug (see `hexforge list`)"),
          log: Path = typer.Argument(..., help=".vlog or .vsav file"),
          fmt: str = typer.Option("text", "--format", help="text | json | html"),
          out_file: Path = typer.Option(None, "--out", help="write the report here instead of stdout")) -> None:
    """Report every illegal move in a log: exit 0 clean, 1 violations, 2 unreadable input."""
    from validators.audit import audit_file
    from validators.report import as_json, as_text

    if fmt not in ("text", "json", "html"):
        err.print(f"--format: unknown format {fmt!r}; use text, json or html", markup=False)
        raise typer.Exit(2)
    _known(game)
    try:
        g = load_game(sources_dir() / game)
    except SourceError as exc:
        _report(exc)
        raise typer.Exit(2)
    try:
        report = audit_file(g, log)
    except LogFormatError as exc:
        err.print(str(exc), markup=False)
        raise typer.Exit(2)
    if fmt == "html":
        from validators.report_html import as_html

        data = as_html(g, report).encode("utf-8")
    else:
        data = (as_json(report) if fmt == "json" else as_text(report)).encode("utf-8")
    if out_file:
        write_atomic(out_file, data)
    else:
        sys.stdout.write(data.decode("utf-8"))
    raise typer.Exit(1 if report.violations else 0)


@log_app.command("dump")
def dump(file: Path, module: Path = typer.Option(None, "--module", help="the .vmod, for hex labels")) -> None:
    """Print the steps of a save or log as a person reads them."""
    from validators.dump import dump_lines

    try:
        for line in dump_lines(file, module):
            out.print(line, markup=False)
    except LogFormatError as exc:
        err.print(str(exc), markup=False)
        raise typer.Exit(2)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
