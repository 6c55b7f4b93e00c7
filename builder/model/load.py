"""Read `sources/<game>/` into a `Game`, or report every problem with file:line:column.

Nothing is built while any problem remains: the caller gets a `SourceError` listing all of
them at once, schema and cross-file alike, each with a hint for the fix.  A file with schema
problems is rebuilt around them (salvage.py) so that the cross-file checks still run on the
rest; only a file with nothing usable left skips the checks that read it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from builder.geometry import HexMap
from builder.geometry.javagrid import GridParams, NumberingParams
from builder.geometry.sections import PlacedHexMap, SectionedHexMap, SectionParams, lattice_shift, zone_numbering
from builder.model import schema as s
from builder.model.game import Game
from builder.model.problems import Collector, SourceError, SourceProblem, cross_file, did_you_mean
from builder.model.schema_words import schema_words
from builder.paths import inside

if TYPE_CHECKING:  # the YAML reader is imported by a fresh load only: a cached model needs none of it
    from builder.model.yamlsource import Loc, Located


@dataclass
class Broken:
    """What schema problems leave uncertain for the cross-file checks: the ids of entries left
    out (salvage.py) and, per file, where its problems are."""

    names: set[str] = field(default_factory=set)
    at: dict[str, set[Loc]] = field(default_factory=dict)


def _validate(col: Collector, doc: Located, model: type[BaseModel], broken: Broken):
    """The file's model; with schema problems, each reported and the model rebuilt around them
    (salvage.py) for the cross-file checks, or None when nothing usable is left."""
    from builder.model.salvage import declared, field_name, fields_at, salvage

    data = doc.data if doc.data is not None else {}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
    misspelt = {(tuple(e["loc"][:-1]), did_you_mean(e["loc"][-1], fields_at(model, tuple(e["loc"][:-1]))))
                for e in errors if e["type"] == "extra_forbidden"}
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "missing" and (loc[:-1], f"did you mean {loc[-1]!r}?") in misspelt:
            continue  # `titel:` is reported as unknown, with its fix: not also `title:` as missing
        key = loc and loc[-1] == "[key]"  # a bad mapping key: point at the key, not its value
        at = loc[:-1] if key else loc
        message, hint = schema_words(err, field_name(model, loc), doc.numbers.get(loc), declared(model, loc),
                                     fields_at(model, loc[:-1]))
        if err["type"] == "extra_forbidden" or key:
            col.at_key(doc, at, message, hint)
        elif err["type"] == "missing" and not isinstance(loc[-1], int):
            col.at(doc, loc[:-1], message, hint)
        else:
            col.at(doc, at, message, hint)
    bad = {tuple(e["loc"]) for e in errors}
    rebuilt, left_out = salvage(model, data, bad, doc.numbers)
    broken.names.update(left_out)
    broken.at[doc.file] = bad
    return rebuilt


def _read(col: Collector, root: Path, rel: str, model: type[BaseModel], docs: dict[str, Located],
          broken: Broken | None = None):
    """The file's model (rebuilt around its schema problems), or None when it is missing, not
    YAML, or has nothing usable left."""
    from builder.model.yamlsource import YamlProblem, load_located

    path = root / rel
    display = f"sources/{root.name}/{rel}"
    if path.exists() and not inside(root, path):
        col.file(display, f"{rel} is a link to a file outside the game's folder; it is not read",
                 f"copy the file into sources/{root.name}/ instead of linking to it")
        return None
    if not path.is_file():
        col.file(display, f"missing source file {rel}", f"create {display}")
        return None
    try:
        doc = load_located(path, display)
    except YamlProblem as exc:
        col.problems.append(SourceProblem(exc.mark.file, exc.mark.line, exc.mark.column, exc.message, exc.hint))
        return None
    docs[rel] = doc
    return _validate(col, doc, model, broken if broken is not None else Broken())


def _read_table(col: Collector, root: Path, rel: str, docs: dict[str, Located], broken: Broken):
    """A table; one of a known `kind` has its `data` checked against the kind's one shape, each
    problem at its line (None, as a file with nothing usable, when the data does not fit)."""
    table = _read(col, root, rel, s.TableFile, docs, broken)
    model = s.TABLES.get(table.kind or "") if table is not None else None
    if model is None:
        return table
    before = len(col.problems)
    _validate(col, docs[rel], model, Broken())
    return table if len(col.problems) == before else None


def _one_table_a_kind(col: Collector, tables: dict, docs: dict[str, Located]) -> None:
    """The readers find a table by its kind: two tables of one kind would leave one unread."""
    first: dict[str, str] = {}
    for name, t in tables.items():
        if t is None or t.kind is None:
            continue
        if t.kind in first:
            col.at(docs[f"tables/{name}.yaml"], ("kind",), f"a second table of kind {t.kind!r}: "
                   f"tables/{first[t.kind]}.yaml is one", "merge the two tables, or remove this one's `kind`")
        first.setdefault(t.kind, name)


def _geometry(col: Collector, m: s.MapFile, doc: Located) -> HexMap | None:
    g, n = m.grid, m.numbering
    numbering = NumberingParams(n.first, n.sep, n.h_type, n.v_type, n.h_leading, n.v_leading,
                                n.h_off, n.v_off, n.h_descend, n.v_descend, n.stagger)
    grid = GridParams(g.dx, g.dy, g.x0, g.y0, g.sideways)
    if m.sections:  # map sections with ids of their own (schema.Section)
        sections = tuple(SectionParams(x.prefix, x.area, numbering.replace(h_off=x.h_off, v_off=x.v_off))
                         for x in m.sections)
        geo = SectionedHexMap(grid, numbering, (m.board.width, m.board.height), g.area, sections)
        if any(x.at is not None or any(x.trim) for x in m.sections) or m.lattice is not None:
            geo = _placed(col, m, doc, grid, numbering, sections)
            if geo is None:
                return None
    else:
        geo = HexMap(grid, numbering, (m.board.width, m.board.height), g.area)
    try:
        if not geo.labels:
            col.at(doc, ("grid", "area"), "no hex lies inside the grid area", "enlarge 'area' or move x0/y0")
            return None
    except ValueError as exc:
        col.at(doc, ("numbering",), str(exc), "check the numbering offsets and 'stagger'")
        return None
    return geo


def _placed(col: Collector, m: s.MapFile, doc: Located, grid: GridParams, numbering: NumberingParams,
            sections: tuple[SectionParams, ...]) -> PlacedHexMap | None:
    """The board of sections drawn apart from their places in the lattice (Section.at/trim):
    each section's zone moved and cut, numbered so that every hex keeps its id."""
    lx, ly, lw, lh = m.lattice or m.grid.area
    lattice = SectionedHexMap(grid, numbering, (lx + lw, ly + lh), (lx, ly, lw, lh), sections)
    try:
        lattice.labels
    except ValueError as exc:
        col.at(doc, ("numbering",), str(exc), "check the numbering offsets and 'stagger'")
        return None
    zones, shifts, bad = [], [], 0
    for i, (x, sp) in enumerate(zip(m.sections, sections)):
        ax, ay, aw, ah = x.area
        bx, by = x.at or (ax, ay)
        shift = lattice_shift(grid, bx - ax, by - ay)
        if shift is None:
            step = (grid.dy, 2 * grid.dx) if grid.sideways else (2 * grid.dx, grid.dy)
            col.at(doc, ("sections", i, "at"), f"moves map section {x.prefix} by ({bx - ax}, {by - ay}) px: not a "
                   f"whole number of hexes", f"move it by a multiple of {step[0]:g} px across and {step[1]:g} px down")
            bad += 1
            continue
        left, top, right, bottom = x.trim
        area = (bx + left, by + top, aw - left - right, ah - top - bottom)
        zones.append(SectionParams(x.prefix, area, zone_numbering(lattice, sp, area, shift)))
        shifts.append((x.prefix, *shift))
    if bad:
        return None
    geo = PlacedHexMap(grid, numbering, (m.board.width, m.board.height), m.grid.area, tuple(zones),
                       lattice=lattice, shifts=tuple(shifts))
    misnamed = geo.misnamed()
    if misnamed:
        col.at(doc, ("sections",), f"{len(misnamed)} hexes are named otherwise where their section is drawn: "
               + ", ".join(f"{h} (named {n})" for h, n in misnamed[:8]), "move the sections (`at`) so that none is drawn over another")
    uncut = 0
    for i, z in enumerate(zones):  # a zone names only hexes drawn in it: no point of it stands for a hex drawn elsewhere
        stray = geo.stray_points(z)
        if stray:
            uncut += 1
            col.at(doc, ("sections", i), f"map section {z.prefix} is drawn with {len(stray)} hex points where none of "
                   f"its hexes is: {', '.join(stray[:8])}{' ...' if len(stray) > 8 else ''}",
                   "cut them off with `trim` (another section draws those hexes, or none does)")
    return None if misnamed or uncut else geo


_GRID_KEYS = {"board", "grid", "numbering", "sections", "lattice"}


def _map_geometry(col: Collector, m: s.MapFile | None, doc: Located | None, broken: Broken) -> HexMap | None:
    """The map's hexes, unless a schema problem touches what places them (a default standing in
    for a wrong `sideways` would put every hex id elsewhere: only the problem itself is shown)."""
    if m is None or doc is None or any(not loc or loc[0] in _GRID_KEYS for loc in broken.at.get(doc.file, ())):
        return None
    return _geometry(col, m, doc)


def _load_game(root: Path) -> Game:
    from builder.model.references import check_references

    col = Collector()
    if not root.is_dir():
        raise SourceError([SourceProblem(str(root), 1, 1, "no such game folder", "see `hexforge list`")])
    docs: dict[str, Located] = {}
    broken = Broken()
    _unknown_files(col, root)
    files = {rel: _read(col, root, rel, model, docs, broken) for rel, model in s.FILES.items()}
    scenarios = {p.stem: _read(col, root, f"scenarios/{p.name}", s.ScenarioFile, docs, broken)
                 for p in sorted((root / "scenarios").glob("*.yaml"))}
    if not scenarios:
        col.file(f"sources/{root.name}/scenarios", "no scenario", "add scenarios/<name>.yaml")
    tables = {p.stem: _read_table(col, root, f"tables/{p.name}", docs, broken)
              for p in sorted((root / "tables").glob("*.yaml"))}
    _one_table_a_kind(col, tables, docs)
    rules = _read(col, root, "rules.yaml", s.RulesFile, docs) if (root / "rules.yaml").is_file() else None
    if rules is not None:
        _unique_rules(col, rules, docs["rules.yaml"])
    events = _read(col, root, "events.yaml", s.EventsFile, docs) if (root / "events.yaml").is_file() else None
    geo = _map_geometry(col, files["map.yaml"], docs.get("map.yaml"), broken)
    # The cross-file checks run on what did load, even past schema problems (issue 16): a file
    # that failed as a whole skips only the checks that read it.
    failed = {rel for rel, m in files.items() if m is None} | ({"map.yaml"} if geo is None else set())
    failed |= {f"scenarios/{k}.yaml" for k, v in scenarios.items() if v is None}
    failed |= {f"tables/{k}.yaml" for k, v in tables.items() if v is None}
    failed |= {"events.yaml"} if events is None and (root / "events.yaml").is_file() else set()
    schema_problems = list(col.problems)
    game = Game(root.name, root, files["game.yaml"], files["terrain.yaml"], files["map.yaml"],
                files["map-terrain.yaml"], files["units.yaml"], files["markers.yaml"],
                {k: v for k, v in scenarios.items() if v is not None},
                {k: v for k, v in tables.items() if v is not None}, geo, rules, events)
    try:
        check_references(col, game, {rel: doc for rel, doc in docs.items() if rel not in failed}, failed)
        if events is not None and not failed & {"events.yaml", "game.yaml", "map.yaml"}:
            from builder.model.event_checks import check_events
            check_events(col, game, docs["events.yaml"])
    except (ArithmeticError, AttributeError, IndexError, KeyError, TypeError, ValueError):
        if not schema_problems:
            raise
        # A check tripped on a value kept as written past its schema problem: the problems
        # found so far stand, the rest wait for the next run.
    if col.problems:
        unchecked = broken.names | {k for k, v in tables.items() if v is None}  # names whose entry failed
        raise SourceError(schema_problems + cross_file(col.problems[len(schema_problems):], schema_problems, unchecked))
    return game


# The YAML files a game's folder may hold besides scenarios/*.yaml and tables/*.yaml.
KNOWN_FILES = (*s.FILES, "rules.yaml", "events.yaml", "geography.yaml", "releases.yaml")


def _unknown_files(col: Collector, root: Path) -> None:
    """A YAML file hexforge would not read is a problem, not silence: a misspelt `terrian.yaml`
    or a `scenarios/meeting.yml` would otherwise leave the game without what it says.
    Other files (art, notes) and hidden ones are left alone."""
    for path in sorted(root.iterdir()):
        if path.suffix in (".yaml", ".yml") and path.name not in KNOWN_FILES and not path.name.startswith("."):
            col.file(f"sources/{root.name}/{path.name}", f"{path.name} is not a source file hexforge reads",
                     f"{did_you_mean(path.stem + '.yaml', KNOWN_FILES)} (rename it, or move it out of the game's folder)")
    for folder in ("scenarios", "tables"):
        for path in sorted((root / folder).glob("*")) if (root / folder).is_dir() else []:
            if path.suffix != ".yaml" and not path.name.startswith("."):
                col.file(f"sources/{root.name}/{folder}/{path.name}", f"{folder}/ holds only .yaml files; "
                         f"{path.name} is not read", f"rename it to {path.stem}.yaml, or move it out of {folder}/")


def _unique_rules(col: Collector, rules: s.RulesFile, doc: Located) -> None:
    """rules.yaml (the optional catalogue): each rule number once."""
    first: dict[str, int] = {}
    for i, r in enumerate(rules.rules):
        if r.number in first:
            line = doc.mark(("rules", first[r.number], "number")).line
            col.at(doc, ("rules", i, "number"), f"rule {r.number} is catalogued twice", f"merge it with line {line}")
        first.setdefault(r.number, i)


@dataclass(frozen=True)
class MapOnly:
    """map.yaml and its geometry alone: what the map-fitting tool needs before the rest exists."""

    map: s.MapFile
    geometry: HexMap


def read_source(root: Path, rel: str, model: type[BaseModel]):
    """One source file of a game read and checked alone (a tool's input, e.g. geography.yaml):
    its model, or a SourceError naming file:line and the fix."""
    col = Collector()
    found = _read(col, root, rel, model, {})
    if col.problems or found is None:
        raise SourceError(col.problems)
    return found


def load_map(root: Path) -> MapOnly:
    col = Collector()
    docs: dict[str, Located] = {}
    broken = Broken()
    m = _read(col, root, "map.yaml", s.MapFile, docs, broken)
    geo = _map_geometry(col, m, docs.get("map.yaml"), broken)
    if col.problems or geo is None:
        raise SourceError(col.problems)
    return MapOnly(m, geo)
