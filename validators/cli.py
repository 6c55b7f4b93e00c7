"""`hexforge audit` and `hexforge log dump`, added to the builder's command line.

The console script starts here so that `builder` never imports `validators`.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from builder.cli import app, err, load_known, out
from builder.paths import sources_dir
from validators.budget import DEFAULT_SECONDS
from validators.process_exit import flush_and_exit
from builder.vassal.archive import write_atomic
from validators.vlog.container import LogFormatError

log_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Read VASSAL saves and logs.")
app.add_typer(log_app, name="log")


AUDIT_HELP = (
    "Report every illegal move in a log, or audit many logs in parallel.\n\n"
    "One file: its report on stdout (or --out FILE); exit 0 clean, 1 violations, 2 unreadable.\n\n"
    "Several files or a directory (its *.vlog and *.vsav, sorted): one summary table (one JSON document "
    "with --format json), each report also written into --out DIR; an unreadable file is listed with "
    "its reason and the batch goes on. Batch exit code: 2 if any file was unreadable, else 1 if any had "
    "violations, else 0.")


@app.command(help=AUDIT_HELP)
def audit(game: str = typer.Argument(..., help="game slug (see `hexforge list`)"),
          paths: list[Path] = typer.Argument(..., help=".vlog/.vsav files, or directories of them"),
          fmt: str | None = typer.Option(None, "--format", help="text | json | html (default: the --out file's "
                                  "extension .txt, .json, .html or .htm, else text)"),
          out_path: Path = typer.Option(None, "--out", help="one file: write the report here; "
                                        "several: write each report into this directory"),
          recursive: bool = typer.Option(False, "--recursive", "-r", help="look into subdirectories too"),
          jobs: int = typer.Option(0, "--jobs", "-j", help="worker processes for a batch (0: all cores)"),
          only: list[str] = typer.Option([], "--only", help="audit only this rule and the rules under it "
                                         "(13.2 takes in 13.2.1); repeatable"),
          skip: list[str] = typer.Option([], "--skip", help="leave this rule and the rules under it out; "
                                         "repeatable"),
          timeout: float = typer.Option(DEFAULT_SECONDS, "--timeout", help="CPU seconds a file may take; a file "
                                        "past it is reported as not audited and the batch goes on (0: no limit)",
                                        min=0),
          module: Path = typer.Option(None, "--module", help="the .vmod the logs were written with (an earlier "
                                      "release: generated/GAME/releases/VERSION.vmod): its map reads their "
                                      "positions"),
          pieces: Path = typer.Option(None, "--pieces", help="with --module, another maker's module of this game: "
                                      "the piece map (`hexforge map-pieces`) that reads its pieces and locations "
                                      "as ours"),
          cluster: str = typer.Option(None, "--cluster", help="audit the files on a Dask cluster: a scheduler's "
                                      "address (tcp://host:8786) or 'local' (--jobs processes here); files may be "
                                      "fsspec URLs the workers reach (see README)")) -> None:
    """Audit one log, or many in parallel (see AUDIT_HELP)."""
    from validators import batch
    from validators.games import NoRules, rules_for

    if fmt is not None and fmt not in batch.EXTENSIONS:
        err.print(f"--format: unknown format {fmt!r}; use text, json or html", markup=False)
        raise typer.Exit(2)
    g = load_known(game, problems_exit=2, plain=True)
    try:
        rules_for(g)  # the game.yaml 'rules:' entry names the package
    except NoRules as exc:
        err.print(str(exc), markup=False, emoji=False)
        raise typer.Exit(2)
    selection = _selection(g, only, skip)
    if pieces is not None and module is None:
        err.print("--pieces: name the module the logs were written with too (--module VMOD)", markup=False)
        raise typer.Exit(2)
    written_with = _written_with(module, pieces, g)
    if len(paths) == 1 and not paths[0].is_dir() and cluster is None:
        fmt = _report_format(fmt, out_path)
        art = _page_art(game, module) if fmt == "html" else None
        grids, mid = written_with or (None, None)
        outcome = batch.audit_one(g, paths[0], grids, selection, timeout, mid)
        if outcome.report is None:
            err.print(outcome.error, markup=False, emoji=False)
            raise typer.Exit(2)
        for note in outcome.report.notes:
            err.print(note, markup=False, emoji=False)
        data = batch.render(g, outcome.report, fmt, art)
        if out_path:
            _write(lambda: write_atomic(out_path, data), out_path)
        else:
            sys.stdout.write(data.decode("utf-8"))
        raise typer.Exit(batch.exit_code([outcome]))
    fmt = fmt or "text"
    art = _page_art(game, module) if fmt == "html" and out_path else None
    if out_path and (out_path.exists() and not out_path.is_dir() or not out_path.exists() and out_path.suffix):
        err.print(f"--out {out_path}: names a file; several logs write one report each into a directory "
                  "(create the directory first if its name has a dot)", markup=False, emoji=False)
        raise typer.Exit(2)
    if cluster is not None:  # validators/batch_cluster.py: files may be URLs, reports written as they come
        from validators import batch_cluster
    items = batch_cluster.collect(paths, recursive) if cluster is not None else batch.collect(paths, recursive)
    files = [i for i in items if not isinstance(i, batch.Outcome)]
    for i in items:
        if isinstance(i, batch.Outcome):  # a directory with nothing to audit
            err.print(i.error, markup=False, emoji=False)
    with _progress(len(files)) as advance:

        def done(o: batch.Outcome) -> None:
            advance()
            if o.error:
                err.print(o.error, markup=False, emoji=False)
            for note in o.report.notes if o.report else ():
                err.print(f"{o.path}: {note}", markup=False, emoji=False)

        if cluster is not None:
            try:
                audited = iter(batch_cluster.run(cluster, g, files, jobs, done, selection, timeout, written_with,
                                                 out_path, fmt, art))
            except batch_cluster.ClusterError as exc:  # no scheduler, or --out not writable: one line
                err.print(str(exc), markup=False, emoji=False)
                raise typer.Exit(2)
        else:
            audited = iter(batch.run(sources_dir() / game, g, files, jobs, done, selection, timeout, written_with))
    outcomes = [i if isinstance(i, batch.Outcome) else next(audited) for i in items]
    if out_path and cluster is None:
        _write(lambda: batch.write_reports(g, outcomes, fmt, out_path, art), out_path)
    sys.stdout.write(batch.summary_json(game, outcomes) if fmt == "json" else batch.summary_text(outcomes))
    raise typer.Exit(batch.exit_code(outcomes))


def _page_art(game: str, module: Path | None):
    """The art an html report is drawn with: the module the logs were written with (--module), else
    the game's build; one line and exit 2 when there is none to read."""
    from builder.paths import generated_dir
    from validators.batch import one_line
    from validators.view.module_art import ModuleArt
    from validators.vlog.modulegrid import ModuleFormatError

    module = module or generated_dir() / game / f"{game}.vmod"
    if not module.is_file():
        err.print(f"{module}: not built yet; run `hexforge build {game}` first (an html report draws the match "
                  "with the module)", markup=False, emoji=False)
        raise typer.Exit(2)
    try:
        return ModuleArt(module)
    except (ModuleFormatError, LogFormatError, OSError) as exc:
        err.print(one_line(f"{module}: {exc}"), markup=False, emoji=False)
        raise typer.Exit(2)


VIEW_HELP = (
    "Write one self-contained HTML page that steps through a log: the maps with the counters as they "
    "stood, VCR buttons, a slider and keys (arrows, Home/End, n/p for the next or previous finding), the "
    "log beside the map and the audit's findings; #step=N in its address opens at that step.\n\n"
    "hexforge view GAME LOG: the game's build draws it and the log is audited. hexforge view --module VMOD "
    "LOG: a log of any module, drawn with that module, without findings. GAME with --module: the log is "
    "audited as `audit --module` does (an earlier release).")


@app.command(help=VIEW_HELP)
def view(game: str = typer.Argument(..., help="game slug (see `hexforge list`), or the log with --module"),
         log: Path = typer.Argument(None, help="the .vlog or .vsav"),
         out_path: Path = typer.Option(None, "--out", help="the page (default: the log's name with .html)"),
         module: Path = typer.Option(None, "--module", help="the .vmod the log was written with"),
         pieces: Path = typer.Option(None, "--pieces", help="with GAME and --module, another maker's module of "
                                     "this game: the piece map (`hexforge map-pieces`) that reads its pieces and "
                                     "locations as ours (as `audit --pieces`)")) -> None:
    """The match as one HTML page (see VIEW_HELP); exit 2 when the log or module cannot be read."""
    from builder.paths import generated_dir
    from validators import batch
    from validators.view.module_art import ModuleArt
    from validators.view.page import page_data, render
    from validators.vlog.modulegrid import ModuleFormatError

    g = report = None
    if log is None:
        if module is None:
            err.print("name a game and a log (or --module VMOD and a log)", markup=False)
            raise typer.Exit(2)
        log = Path(game)
    else:
        g = load_known(game, problems_exit=2)
    if pieces is not None and (module is None or g is None):
        err.print("--pieces: name the game and the module the log was written with (GAME LOG --module VMOD)",
                  markup=False)
        raise typer.Exit(2)
    if not log.is_file():
        err.print(f"{log}: no such file", markup=False, emoji=False)
        raise typer.Exit(2)
    if module is None:
        module = generated_dir() / game / f"{game}.vmod"
        if not module.is_file():
            err.print(f"{module}: not built yet; run `hexforge build {game}` first", markup=False, emoji=False)
            raise typer.Exit(2)
        written_with = None
    else:
        written_with = _written_with(module, pieces, g)
    try:
        art = ModuleArt(module)
        if g is not None:
            grids, mid = written_with or (None, None)
            outcome = batch.audit_one(g, log, grids, timeout=0, module=mid)
            if outcome.report is None:
                err.print(outcome.error, markup=False, emoji=False)
                raise typer.Exit(2)
            report = outcome.report
            for note in report.notes:
                err.print(note, markup=False, emoji=False)
        # with --pieces the page draws their board, where our hexes' outlines do not fall: findings unoutlined
        data = page_data(log, art, report, g if pieces is None else None)
    except (ModuleFormatError, LogFormatError) as exc:
        err.print(str(exc) if str(exc).startswith(str(log)) else f"{log}: {exc}", markup=False, emoji=False)
        raise typer.Exit(2)
    except RecursionError:
        err.print(f"{log}: commands nested too deeply: cannot read", markup=False, emoji=False)
        raise typer.Exit(2)
    except OSError as exc:
        err.print(f"{log}: cannot read ({exc.strerror or exc})", markup=False, emoji=False)
        raise typer.Exit(2)
    title = f"{log.name} - {g.info.title if g is not None else data['module'] or module.name}"
    out_path = out_path or log.with_suffix(".html")
    _write(lambda: write_atomic(out_path, render(data, title).encode("utf-8")), out_path)
    found = f", {len(report.findings)} finding(s)" if report is not None else ", not audited"
    out.print(f"{out_path}: {len(data['steps'])} steps{found}", markup=False, emoji=False)


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on a terminal; elsewhere (a pipe, a file, CI) none, and rich's progress
    module is not imported: a batch's start-up runs on one core before the workers start."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("audit"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err.console, transient=True) as progress:
        task = progress.add_task("audit", total=total)
        yield lambda: progress.advance(task)


def _selection(game, only: list[str], skip: list[str]):
    """--only/--skip as a Selection; a number that is no rule of the game's catalogue is refused
    (a typo would otherwise silence the whole audit)."""
    import re

    from validators.catalogue import entries
    from validators.kernel.selection import Selection, under

    known = entries(game)
    for option, numbers in (("--only", only), ("--skip", skip)):
        for n in numbers:
            if not re.fullmatch(r"[0-9]+(\.[0-9]+)*[a-z]?", n.strip()):
                err.print(f"{option} {n!r}: not a rule number (e.g. 13.2)", markup=False, emoji=False)
                raise typer.Exit(2)
            if known and not any(under(k, n.strip()) or under(n.strip(), k) for k in known):
                err.print(f"{option} {n}: no such rule in the {game.info.title} catalogue (`hexforge rules "
                          f"{game.slug}` lists them)", markup=False, emoji=False)
                raise typer.Exit(2)
    return Selection.of(only, skip)


def _written_with(module: Path | None, pieces: Path | None = None, game=None):
    """(grids, ModuleId) of the --module the logs were written with, or None; with --pieces its
    locations and pieces read as ours.  Exit 2 when either cannot be read."""
    if module is None:
        return None
    from validators.written_with import module_id
    from validators.vlog.container import LogFormatError
    from validators.vlog.modulegrid import ModuleFormatError, read_vmod_grids

    for option, path in (("--module", module), ("--pieces", pieces)):
        if path is not None and not path.is_file():
            err.print(f"{option} {path}: no such file", markup=False, emoji=False)
            raise typer.Exit(2)
    try:
        grids, mid = read_vmod_grids(module), module_id(module)
    except (ModuleFormatError, LogFormatError) as exc:
        err.print(str(exc), markup=False, emoji=False)
        raise typer.Exit(2)
    if pieces is None:
        return grids, mid
    from validators.othermodule.piecemap import PieceMapError, identity, load, renamed

    try:
        m = load(pieces, game)
    except PieceMapError as exc:
        err.print(str(exc), markup=False, emoji=False)
        raise typer.Exit(2)
    return renamed(grids, m), mid.replace(pieces=identity(m, game))


@app.command("map-pieces")
def map_pieces(game: str = typer.Argument(..., help="game slug (see `hexforge list`)"),
               vmod: Path = typer.Argument(..., help="another module of the game (e.g. the VASSAL library's)"),
               out_path: Path = typer.Option(None, "--out", help="the piece map to write (default: "
                                             "sources/GAME/piece-maps/VMOD-NAME.yaml)")) -> None:
    """Write the piece map of another module of GAME: its pieces as our units and markers (matched by
    name, side, strength and formation, with a score; the unmatched listed for you to fill in) and its
    location names as ours (by geometry), for `audit GAME LOG --module VMOD --pieces MAP`."""
    from builder.paths import generated_dir
    from validators.othermodule.make import make_piece_map
    from validators.othermodule.piecemap import dump, piece_map_schema
    from validators.vlog.modulegrid import ModuleFormatError

    g = load_known(game, problems_exit=2, plain=True)
    if not vmod.is_file():
        err.print(f"{vmod}: no such file", markup=False, emoji=False)
        raise typer.Exit(2)
    try:
        m, said = make_piece_map(g, vmod)
    except ModuleFormatError as exc:
        err.print(str(exc), markup=False, emoji=False)
        raise typer.Exit(2)
    out_path = out_path or sources_dir() / game / "piece-maps" / f"{vmod.stem}.yaml"
    text = dump(m, out_path, generated_dir())
    out_path.parent.mkdir(parents=True, exist_ok=True)
    _write(lambda: write_atomic(out_path, text.encode("utf-8")), out_path)
    schema = generated_dir() / "schema" / "piece-map.schema.json"
    schema.parent.mkdir(parents=True, exist_ok=True)
    _write(lambda: write_atomic(schema, piece_map_schema()), schema)
    for line in said:
        err.print(line, markup=False, emoji=False)
    matched = sum(p.ours is not None for p in m.pieces)
    unsure = sum(p.ours is not None and p.score < 0.8 for p in m.pieces)
    out.print(f"{out_path}: {matched} of {len(m.pieces)} pieces matched ({unsure} below 0.8: check them), "
              f"{len(m.pieces) - matched} left for you (ours: null), {len(m.locations)} locations renamed",
              markup=False, emoji=False)


# The report format an --out file's extension asks for (`hexforge audit GAME LOG --out x.html`).
OUT_FORMATS = {".txt": "text", ".json": "json", ".html": "html", ".htm": "html"}


def _report_format(fmt: str | None, out_path: Path | None) -> str:
    """The format of one log's report: --format, else the --out extension, else text.

    Refused rather than guessed: an extension that is no report format (--out r.pdf would hold
    text), and an explicit --format that contradicts the extension (--format json --out x.html).
    A file named without an extension takes --format (text by default).
    """
    from validators.batch import EXTENSIONS

    if out_path is not None and out_path.is_dir():
        err.print(f"--out {out_path}: is a directory; one log writes one report file (name a file)",
                  markup=False, emoji=False)
        raise typer.Exit(2)
    suffix = out_path.suffix.lower() if out_path is not None else ""
    if suffix and suffix not in OUT_FORMATS:
        err.print(f"--out {out_path}: {suffix} is not a report format; name a "
                  f"{', '.join(OUT_FORMATS)} file", markup=False, emoji=False)
        raise typer.Exit(2)
    implied = OUT_FORMATS.get(suffix)
    if fmt is not None and implied is not None and fmt != implied:
        err.print(f"--out {out_path}: the extension asks for {implied} but --format is {fmt}; drop --format "
                  f"or name a .{EXTENSIONS[fmt]} file", markup=False, emoji=False)
        raise typer.Exit(2)
    return fmt or implied or "text"


def _write(action, where: Path) -> None:
    try:
        action()
    except OSError as exc:
        err.print(f"--out {where}: cannot write ({exc.strerror or exc})", markup=False, emoji=False)
        raise typer.Exit(2)


@app.command("rules")
def rules(game: str = typer.Argument(..., help="game slug (see `hexforge list`)"),
          fmt: str = typer.Option("text", "--format", help="text | json")) -> None:
    """The rules a log can show, each marked audited, partly, not audited or not checkable from a
    log, with the tests that cover it (sources/GAME/rules.yaml)."""
    from builder.paths import games
    from validators import catalogue

    if fmt not in ("text", "json"):
        err.print(f"--format: unknown format {fmt!r}; use text or json", markup=False)
        raise typer.Exit(2)
    g = load_known(game, problems_exit=2, plain=True)
    if g.rules is None:
        have = [slug for slug in games() if (sources_dir() / slug / "rules.yaml").is_file()]
        err.print(f"{game}: no rules catalogue (sources/{game}/rules.yaml); games with one: "
                  f"{', '.join(have) or 'none'}", markup=False, emoji=False)
        raise typer.Exit(2)
    sys.stdout.write(catalogue.as_json(g) if fmt == "json" else catalogue.as_text(g))


@log_app.command("dump")
def dump(file: Path = typer.Argument(..., help="a .vlog or .vsav"),
         game: str = typer.Option(None, "--game", help="the game whose built module names hexes and phases"),
         module: Path = typer.Option(None, "--module", help="any .vmod, for hex labels, phase names and reports"),
         fmt: str = typer.Option("text", "--format", help="text | json")) -> None:
    """Print the steps of a save or log as a person reads them: moves with hex ids, dice, chat,
    turn and phase, undone steps marked (exit 2 when the file or module cannot be read)."""
    from builder.paths import games, generated_dir
    from validators.dump import as_json, as_text, dump as read_dump, read_module_view

    if fmt not in ("text", "json"):
        err.print(f"--format: unknown format {fmt!r}; use text or json", markup=False)
        raise typer.Exit(2)
    if game and module:
        err.print("--game and --module: name one (--game uses generated/GAME/GAME.vmod)", markup=False)
        raise typer.Exit(2)
    expect = None
    if game:
        if game not in games():
            err.print(f"unknown game {game!r}; games: {', '.join(games()) or 'none'}", markup=False)
            raise typer.Exit(2)
        module = generated_dir() / game / f"{game}.vmod"
        if not module.is_file():
            err.print(f"{module}: not built yet; run `hexforge build {game}` first", markup=False)
            raise typer.Exit(2)
    if module is not None and not module.is_file():
        err.print(f"--module {module}: no such file", markup=False)
        raise typer.Exit(2)
    try:
        if game:
            expect = read_module_view(module).name or None
        head, lines = read_dump(file, module, expect, expect_geometry=bool(game))
        if fmt == "json":  # written as the log is read: a long log is never held as text
            for chunk in as_json(head, lines):
                sys.stdout.write(chunk)
        else:
            for line in as_text(head, lines):
                out.print(line, markup=False, emoji=False)
    except LogFormatError as exc:  # also from a step the replay cannot read, after the lines before it
        sys.stdout.flush()
        err.print(str(exc) if str(exc).startswith(str(file)) else f"{file}: {exc}", markup=False, emoji=False)
        raise typer.Exit(2)


def main() -> None:
    """The console script.  Ends with `os._exit` once the output is flushed: a long audit leaves
    millions of small objects, and freeing them one by one at interpreter exit took a tenth of
    a second for nothing (issue 15; mypy ends the same way)."""
    try:
        app()
        code = 0
    except SystemExit as exc:  # typer ends every command with one
        code = exc.code
    except KeyboardInterrupt:
        code = 130
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): the message to stderr, status 1
        print(code, file=sys.stderr)
        code = 1
    flush_and_exit(code)


if __name__ == "__main__":  # python -m validators.cli, as the benchmarks run it
    main()
