"""The `hexforge` command: a thin shell over the library (parse, call, report, exit code)."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import typer

from builder.console import err, out
from builder.model import SourceError, load_game
from builder.paths import games, sources_dir

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Build VASSAL modules and counter sheets from declarative wargame sources.")


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"hexforge {version('hexforge')}")
        except PackageNotFoundError:  # run from a checkout that was never installed
            print("hexforge (not installed: no version)")
        raise typer.Exit()


@app.callback()
def _options(show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                               help="Print hexforge's version and exit.")) -> None:
    """Build VASSAL modules and counter sheets from declarative wargame sources."""


def _report(exc: SourceError) -> None:
    for p in exc.problems:
        err.print(str(p), markup=False)
    err.print(f"{len(exc.problems)} problem(s); nothing was written.", markup=False)


def _known(slug: str) -> None:
    if slug not in games():
        err.print(f"unknown game {slug!r}; games: {', '.join(games()) or 'none'}", markup=False)
        raise typer.Exit(2)


def load_known(game: str, problems_exit: int, plain: bool = False):
    """The game's model (`plain`: as read-only records, see builder/model/plain.py), or its
    source problems printed and the command ended."""
    _known(game)
    try:
        return load_game(sources_dir() / game, plain)
    except SourceError as exc:
        _report(exc)
        raise typer.Exit(problems_exit)


def _slugs(game: str | None, all_games: bool) -> list[str]:
    """The games a command works on: one named game, or every game with --all."""
    slugs = games() if all_games else [game] if game else []
    if not slugs:
        err.print("name a game or use --all", markup=False)
        raise typer.Exit(2)
    for slug in slugs:
        _known(slug)
    return slugs


@app.command("list")
def list_games() -> None:
    """The games found in sources/."""
    slugs = games()
    if not slugs:
        out.print(f"no games in {sources_dir()}; start one with: hexforge new my-game", markup=False)
    for slug in slugs:
        out.print(slug, markup=False)


@app.command()
def check(game: str) -> None:
    """Load and validate a game's sources; print a summary or every problem."""
    g = load_known(game, problems_exit=1)
    from builder.geometry.roundtrip import require_round_trip

    try:  # every hex id must lead VASSAL back to its own hex (builder/geometry/roundtrip.py)
        require_round_trip(g)
    except SourceError as exc:
        _report(exc)
        raise typer.Exit(1)
    reconstructed = sum(x.provenance == "reconstructed" for x in [*g.units, *g.units_file.formations, *g.map.places])
    out.print(f"{g.info.title}: {len(g.geometry.labels)} hexes, {len(g.units)} units in "
              f"{len(g.formations)} formations, {sum(m.count for m in g.markers.values())} markers, "
              f"{sum(c.count for c in g.chits)} chits, {len(g.scenarios)} scenario(s) "
              f"({reconstructed} reconstructed items)", markup=False)


@app.command()
def build(game: str = typer.Argument(None, help="game slug (see `hexforge list`)"),
          all_games: bool = typer.Option(False, "--all", help="build every game"),
          force: bool = typer.Option(False, "--force", help="make every part afresh, not from the build cache")) -> None:
    """Write generated/<game>/<game>.vmod, map.png and the counter sheets (only what changed since the last build)."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from builder.build import build_game  # here, not at the top: `hexforge audit` never renders (issue 15)
    from builder.vassal.images import MissingImages

    slugs = _slugs(game, all_games)
    failed = False
    for slug in slugs:
        t0 = time.perf_counter()
        try:
            with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                          console=err.console, transient=True, disable=not err.is_terminal) as progress:
                task = progress.add_task(f"{slug}: sources")
                result = build_game(slug, step=lambda what: progress.update(task, description=f"{slug}: {what}"),
                                    force=force, note=lambda line: err.print(line, markup=False, emoji=False))
        except SourceError as exc:
            _report(exc)
            failed = True
            continue
        except MissingImages as exc:  # the build's own check (builder/vassal/images.py): nothing written
            err.print(f"{slug}: nothing written: {exc} (a bug in hexforge: please report it)", markup=False)
            failed = True
            continue
        files = ", ".join(str(p.relative_to(Path.cwd())) if p.is_relative_to(Path.cwd()) else str(p) for p in result.outputs)
        if result.up_to_date:
            out.print(f"{slug}: up to date ({files})", markup=False)
        else:
            out.print(f"{slug}: built {files} in {time.perf_counter() - t0:.2f} s", markup=False)
    if failed:
        raise typer.Exit(1)


@app.command()
def sheets(game: str = typer.Argument(None, help="game slug (see `hexforge list`)"),
           all_games: bool = typer.Option(False, "--all", help="every game"),
           page: str = typer.Option(None, "--page", help="a4 | letter (default: game.yaml print.page)"),
           margin: str = typer.Option(None, "--margin", help="page margin, e.g. 10mm or 0.5in (default: game.yaml)"),
           bleed: str = typer.Option(None, "--bleed", help="art past each cut line, e.g. 1/16in or 1.5mm; 0: none"),
           layout: str = typer.Option("duplex", "--layout", help="duplex (backs on the next page) | fold"),
           dpi: int = typer.Option(300, "--dpi", help="counter art resolution, 300 to 1200")) -> None:
    """Write generated/<game>/<game>-counters.pdf: print-ready counter sheets, fronts and backs."""
    from builder.paths import generated_dir
    from builder.render.sheets import SheetError, render_sheets, sheet_options
    from builder.vassal.archive import write_atomic

    slugs = _slugs(game, all_games)
    failed = False
    for slug in slugs:
        t0 = time.perf_counter()
        try:
            g = load_game(sources_dir() / slug)
        except SourceError as exc:
            _report(exc)
            failed = True
            continue
        try:
            opts = sheet_options(g, page=page, margin=margin, bleed=bleed, layout=layout, dpi=dpi)
        except SheetError as exc:
            err.print(f"{slug}: {exc}", markup=False)
            raise typer.Exit(2)
        path = generated_dir() / slug / f"{slug}-counters.pdf"
        write_atomic(path, render_sheets(g, opts))
        shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
        out.print(f"{slug}: wrote {shown} ({opts.page}, {opts.layout}) in {time.perf_counter() - t0:.2f} s", markup=False)
    if failed:
        raise typer.Exit(1)


@app.command("print")
def print_kit(game: str = typer.Argument(..., help="game slug (see `hexforge list`)"),
              page: str = typer.Option(None, "--page", help="a4 | letter (default: game.yaml print.page)"),
              overlap: str = typer.Option("10mm", "--overlap", help="map tiles' overlap, e.g. 10mm or 0.5in")) -> None:
    """Write generated/<game>/print/: map.pdf (tiled at counter scale), setup-cards.pdf, aids.pdf and kit.pdf
    (nothing when neither the sources, the code nor the options changed since the last kit)."""
    from builder import incremental
    from builder.paths import generated_dir
    from builder.render.printkit import FILES, print_options, render_kit, write_kit
    from builder.render.sheets import SheetError

    t0 = time.perf_counter()
    _known(game)
    note = lambda line: err.print(line, markup=False, emoji=False)  # noqa: E731
    state = generated_dir() / ".cache" / "build" / game / "print.json"
    key = incremental.key_of(sources_dir() / game, "print", str(page), overlap)
    kit_files = [generated_dir() / game / "print" / name for name in FILES]
    if key and incremental.enabled() and incremental.up_to_date(state, key, kit_files, note):
        out.print(f"{game}: print kit up to date", markup=False)
        return
    g = load_known(game, problems_exit=1)
    try:
        opts = print_options(page, overlap, g)
    except SheetError as exc:
        err.print(f"{game}: {exc}", markup=False)
        raise typer.Exit(2)
    kit = render_kit(g, opts)
    paths = write_kit(kit, generated_dir() / game / "print")
    if key and incremental.enabled():
        incremental.record(state, key, paths, note)
    shown = ", ".join(str(p.relative_to(Path.cwd())) if p.is_relative_to(Path.cwd()) else str(p) for p in paths)
    out.print(f"{game}: wrote {shown} ({len(kit.layout.tiles)} map tiles, {len(kit.cards)} set-up cards, "
              f"{kit.aid_pages} aid pages, {kit.sheet_pages} sheet pages) in {time.perf_counter() - t0:.2f} s", markup=False)


@app.command("fit-map")
def fit_map(game: str) -> None:
    """Reconstruct map-terrain.yaml from geography.yaml (see builder/model/geofit.py)."""
    from builder.model import geofit
    from builder.model.load import load_map
    from builder.vassal.archive import write_atomic

    _known(game)
    root = sources_dir() / game
    try:
        m, geo = load_map(root), geofit.load_geography(root)
    except SourceError as exc:
        _report(exc)
        raise typer.Exit(1)
    data, errors = geofit.reconstruct(m, geo)
    for name, e in sorted(errors.items(), key=lambda kv: -kv[1]):
        out.print(f"  {name}: affine fit off by {e:.2f} hex", markup=False)
    given = {p.name: p.hex for p in m.map.places}
    for name, hex_id in geofit.landmark_hexes(m, geofit.fit(m, geo)[0], geo).items():
        note = "" if given.get(name, hex_id) == hex_id else f" (map.yaml says {given[name]})"
        out.print(f"  {name}: falls in {hex_id or 'no hex (off the map)'}{note}", markup=False)
    write_atomic(root / "map-terrain.yaml", geofit.dump(data).encode("utf-8"))
    out.print(f"wrote {root / 'map-terrain.yaml'}", markup=False)


@app.command("fit-grid")
def fit_grid_cmd(game: str = typer.Argument(..., help="game slug (see `hexforge list`)"),
                 hexes: list[str] = typer.Argument(None, help="HEX=X,Y: a hex id and its centre's pixel position on "
                                                              "the board's image (three or more)"),
                 points: Path = typer.Option(None, "--points", help="a YAML file mapping each hex id to its centre as a list x, y; instead of or "
                                                                    "beside HEX=X,Y"),
                 orientation: str = typer.Option("auto", "--orientation",
                                                 help="auto (the better fit) | upright (columns of hexes) | sideways (rows)"),
                 area: str = typer.Option(None, "--area", help="X,Y,W,H: the part of the board with hexes (default: all)"),
                 dry_run: bool = typer.Option(False, "--dry-run", help="print the fit, write nothing")) -> None:
    """Fit map.yaml's hex grid to the board's scan from three or more known hex centres (and set
    the board's size to the scan's); every hex id is checked to round-trip in VASSAL."""
    from builder.fitgrid import FitError, fit_map, parse_points, read_points
    from builder.vassal.archive import write_atomic

    _known(game)
    root = sources_dir() / game
    try:
        if orientation not in ("auto", "upright", "sideways"):
            raise FitError(f"--orientation {orientation!r}: use auto, upright or sideways")
        box = None
        if area is not None:
            parts = area.split(",")
            if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
                raise FitError(f"--area {area!r}: give X,Y,W,H in whole pixels")
            box = tuple(int(p) for p in parts)
        known = (read_points(points) if points else []) + parse_points(hexes or [])
        result = fit_map(root, known, None if orientation == "auto" else orientation == "sideways", box)
    except SourceError as exc:
        _report(exc)
        raise typer.Exit(1)
    except FitError as exc:
        err.print(f"fit-grid: {exc}; nothing was written.", markup=False)
        raise typer.Exit(1)
    f, g = result.fit, result.fit.grid
    out.print(f"{game}: {'sideways' if g.sideways else 'upright'} hexes, dx {g.dx:.2f} dy {g.dy:.2f} px, origin {g.x0},{g.y0}; "
              f"board {result.board[0]} x {result.board[1]}, {f.hexes} hexes; off by {f.rms:.1f} px rms, at most "
              f"{f.worst[1]:.1f} px ({f.worst[0]}); every hex id round-trips", markup=False)
    if dry_run:
        return
    write_atomic(root / "map.yaml", result.text.encode("utf-8"))
    out.print(f"wrote {root / 'map.yaml'} (run `hexforge check {game}`: map-terrain.yaml and the scenarios name hexes "
              f"of the new grid)", markup=False)


@app.command("schema")
def schema(out_dir: Path = typer.Option(None, "--out", help="folder to write into (default: generated/schema/)")) -> None:
    """Write a JSON Schema per kind of source file, for editors to complete and check keys."""
    from builder.model.json_schema import KINDS, schema_files
    from builder.paths import generated_dir
    from builder.vassal.archive import write_atomic

    folder = out_dir if out_dir is not None else generated_dir() / "schema"
    if folder.exists() and not folder.is_dir():
        err.print(f"--out {folder} is a file; name a folder", markup=False)
        raise typer.Exit(2)
    try:
        for name, data in schema_files().items():
            write_atomic(folder / name, data)
    except OSError as exc:
        err.print(f"--out {folder}: cannot write there ({exc.strerror or exc}); name a folder you may write to",
                  markup=False)
        raise typer.Exit(2)
    shown = folder.relative_to(Path.cwd()) if folder.is_absolute() and folder.is_relative_to(Path.cwd()) else folder
    out.print(f"wrote {len(KINDS)} schemas to {shown}/: " + ", ".join(f"{k.name} ({k.files})" for k in KINDS), markup=False)


@app.command("release")
def release_cmd(game: str) -> None:
    """Build GAME and record its version as released (sources/GAME/releases.yaml, with the
    fingerprint of its map's geometry); the module is kept as generated/GAME/releases/VERSION.vmod
    for `audit --module`."""
    from builder.build import build_game
    from builder.release import record

    _known(game)
    try:
        built = build_game(game)  # refuses a map changed under a released version
        r = record(load_game(sources_dir() / game), built.outputs[0])
    except SourceError as exc:
        _report(exc)
        raise typer.Exit(1)
    if r.new:
        out.print(f"released {game} {r.version} (geometry {r.geometry}); kept {r.kept}", markup=False)
    else:
        out.print(f"{game} {r.version} was already released (geometry {r.geometry}); nothing recorded; "
                  f"raise `version` in game.yaml to release a new one", markup=False)


@app.command("new")
def new(slug: str = typer.Argument(..., help="the new game's slug: lower-case letters, digits and '-'"),
        from_game: str = typer.Option(None, "--from", help="copy this existing game instead of the starter")) -> None:
    """Start a game in sources/SLUG: a small complete starter game, or a copy of another game."""
    from builder.new_game import NewGameError, new_game

    try:
        dest = new_game(slug, sources_dir(), from_game)
    except NewGameError as exc:
        err.print(str(exc), markup=False)
        raise typer.Exit(2)
    what = f"a copy of {from_game}" if from_game else "the starter game"
    out.print(f"wrote {what} to {dest}; next: hexforge check {slug}, hexforge build {slug}", markup=False)


@app.command("import")
def import_cmd(vmod: Path = typer.Argument(..., help="a VASSAL module (.vmod)"),
               slug: str = typer.Argument(None, help="the new game's slug (default: from the file's name)"),
               force: bool = typer.Option(False, "--force", help="replace sources/SLUG if it exists")) -> None:
    """Write sources/SLUG from any VASSAL module: map, hex grid and numbering, board art, pieces,
    set-ups as scenarios; what cannot be carried over is printed and written to the game's folder."""
    from builder.importer.archive import ImportFailed
    from builder.importer.game import NOTES, import_game

    try:
        r = import_game(vmod, sources_dir(), slug, force)
    except ImportFailed as exc:
        err.print(f"import: {exc}", markup=False)
        raise typer.Exit(2)
    for n in r.notes:
        out.print(f"  not carried over: {n}", markup=False)
    out.print(f"wrote {r.dest} ({len(r.notes)} item(s) not carried over: {r.dest / NOTES}); "
              f"next: hexforge build {r.dest.name}", markup=False)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
