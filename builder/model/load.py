"""Read `sources/<game>/` into a `Game`, or report every problem with file:line:column.

Nothing is built while any problem remains: the caller gets a `SourceError` listing all of
them at once, each with a hint for the fix.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from types import UnionType
from typing import Annotated, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from builder.geometry import HexMap
from builder.geometry.javagrid import GridParams, NumberingParams
from builder.geometry.sections import SectionedHexMap, SectionParams
from builder.model import schema as s
from builder.model.game import Game
from builder.model.problems import Collector, SourceError, SourceProblem, did_you_mean  # noqa: F401 (re-exported)
from builder.model.yamlsource import Located, Loc, YamlProblem, load_located


_FIELDS = sorted({f for model in vars(s).values() if isinstance(model, type) and issubclass(model, BaseModel)
                  for f in model.model_fields})


def _validate(col: Collector, doc: Located, model: type[BaseModel]):
    try:
        return model.model_validate(doc.data if doc.data is not None else {})
    except ValidationError as exc:
        for err in exc.errors():
            loc = tuple(err["loc"])
            kind = err["type"]
            if kind == "extra_forbidden":
                col.at_key(doc, loc, f"unknown key {loc[-1]!r}", did_you_mean(loc[-1], _FIELDS))
            elif kind == "missing":
                col.at(doc, loc[:-1], f"missing key {loc[-1]!r}", f"add '{loc[-1]}:' here")
            elif kind == "literal_error":
                allowed = err.get("ctx", {}).get("expected", "")
                col.at(doc, loc, f"{'.'.join(map(str, loc))}: {err['input']!r} is not allowed",
                       did_you_mean(err["input"], [a.strip(" '") for a in str(allowed).replace(" or ", ",").split(",")]))
            else:
                where = ".".join(map(str, loc))
                message, hint = _in_words(err, doc.numbers.get(loc), model)
                message = f"{where}: {message}" if where else message
                if loc and loc[-1] == "[key]":  # a bad mapping key: point at the key, not its value
                    col.at_key(doc, loc[:-1], message, hint)
                else:
                    col.at(doc, loc, message, hint)
        return None


def _pattern(kind) -> str:
    return next(m.pattern for m in kind.__metadata__ if getattr(m, "pattern", None))


# What a value constrained by a regex must look like, said as an author would (not the regex).
_PATTERN_WORDS = {
    _pattern(s.Colour): ("is not a colour", "colours are #rrggbb: '#' and six hex digits, quoted ('#ead9ae')"),
    _pattern(s.HexId): ("is not a hex id", "hex ids are 2 to 8 letters, digits or '-', quoted ('0605')"),
    _pattern(s.Ident): ("is not an id", "ids start with a letter or digit, then letters, digits, spaces, '.', '_' or '-'"),
    _pattern(s.Length): ("is not a length", "write a length with its unit: 10mm, 0.5in, 1/16in, 12pt (or 0)"),
    _pattern(s.RuleNumber): ("is not a rule number", "rule numbers are like 7, 7.2 or 7.2.1, quoted ('7.2')"),
}


_HEX_ID, _COLOUR = s.HexId.__metadata__[0], s.Colour.__metadata__[0]


def _members(kind):
    """A type with its Annotated metadata, unions and Optional opened up."""
    if get_origin(kind) is Annotated:
        yield from _members(get_args(kind)[0])
        yield from kind.__metadata__
    elif get_origin(kind) in (Union, UnionType):
        for member in get_args(kind):
            yield from _members(member)
    else:
        yield kind


def _declared(model: type[BaseModel], loc: tuple) -> list:
    """What the models declare at `loc` (types and constraints), to tell a hex id from a name."""
    found: list = [model]
    for step in loc:
        below: list = []
        for kind in (m for k in found for m in _members(k)):
            if isinstance(kind, type) and issubclass(kind, BaseModel) and step in kind.model_fields:
                below += [kind.model_fields[step].annotation, *kind.model_fields[step].metadata]
            elif get_origin(kind) is list and isinstance(step, int):
                below += get_args(kind)[:1]
            elif get_origin(kind) is dict and get_args(kind):
                below.append(get_args(kind)[1])
        found = below
    return [m for k in found for m in _members(k)]


def _in_words(err, written: str | None, model: type[BaseModel]) -> tuple[str, str]:
    """A pydantic error as the author reads it: the value as written in the file and the fix."""
    kind, value = err["type"], err.get("input")
    if kind == "string_type" and written is not None:  # YAML read an unquoted id as a number
        what = "hex ids" if _HEX_ID in _declared(model, tuple(err["loc"])) else "text values"
        return f"{written} is read as a number, text is expected", f"quote {what}: '{written}'"
    if kind == "string_type" and value is None and _COLOUR in _declared(model, tuple(err["loc"])):
        return "no colour (an unquoted '#' starts a YAML comment)", "colours are #rrggbb, quoted: '#ead9ae'"
    if kind == "string_pattern_mismatch":
        words = _PATTERN_WORDS.get(err.get("ctx", {}).get("pattern"))
        if words:
            return f"{value!r} {words[0]}", words[1]
    return err["msg"], _hint_for(kind)


def _hint_for(kind: str) -> str:
    return {
        "string_pattern_mismatch": "check the spelling and format of this value",
        "int_parsing": "write a whole number",
        "float_parsing": "write a number",
        "bool_parsing": "write true or false",
        "list_type": "write a YAML list ('- item' lines or [a, b])",
        "dict_type": "write a YAML mapping ('key: value' lines)",
        "model_type": "write a YAML mapping ('key: value' lines)",
    }.get(kind, "")


def _read(col: Collector, root: Path, rel: str, model: type[BaseModel], docs: dict[str, Located]):
    path = root / rel
    display = f"sources/{root.name}/{rel}"
    if not path.is_file():
        col.file(display, f"missing source file {rel}", f"create {display}")
        return None
    try:
        doc = load_located(path, display)
    except YamlProblem as exc:
        col.problems.append(SourceProblem(exc.mark.file, exc.mark.line, exc.mark.column, exc.message, exc.hint))
        return None
    docs[rel] = doc
    return _validate(col, doc, model)


def _geometry(col: Collector, m: s.MapFile, doc: Located) -> HexMap | None:
    g, n = m.grid, m.numbering
    numbering = NumberingParams(n.first, n.sep, n.h_type, n.v_type, n.h_leading, n.v_leading,
                                n.h_off, n.v_off, n.h_descend, n.v_descend, n.stagger)
    grid = GridParams(g.dx, g.dy, g.x0, g.y0, g.sideways)
    if m.sections:  # map sections with ids of their own (schema.Section)
        sections = tuple(SectionParams(x.prefix, x.area, replace(numbering, h_off=x.h_off, v_off=x.v_off))
                         for x in m.sections)
        geo = SectionedHexMap(grid, numbering, (m.board.width, m.board.height), g.area, sections)
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


def load_game(root: Path) -> Game:
    """Load and check every source file of the game in `root` (sources/<slug>)."""
    from builder.model.references import check_references

    col = Collector()
    if not root.is_dir():
        raise SourceError([SourceProblem(str(root), 1, 1, "no such game folder", "see `hexforge list`")])
    docs: dict[str, Located] = {}
    files = {rel: _read(col, root, rel, model, docs) for rel, model in s.FILES.items()}
    scenarios = {p.stem: _read(col, root, f"scenarios/{p.name}", s.ScenarioFile, docs)
                 for p in sorted((root / "scenarios").glob("*.yaml"))}
    if not scenarios:
        col.file(f"sources/{root.name}/scenarios", "no scenario", "add scenarios/<name>.yaml")
    tables = {p.stem: _read(col, root, f"tables/{p.name}", s.TableFile, docs)
              for p in sorted((root / "tables").glob("*.yaml"))}
    rules = _read(col, root, "rules.yaml", s.RulesFile, docs) if (root / "rules.yaml").is_file() else None
    if rules is not None:
        _unique_rules(col, rules, docs["rules.yaml"])
    geo = _geometry(col, files["map.yaml"], docs["map.yaml"]) if files["map.yaml"] else None
    if col.problems or geo is None:
        raise SourceError(col.problems)
    game = Game(root.name, root, files["game.yaml"], files["terrain.yaml"], files["map.yaml"],
                files["map-terrain.yaml"], files["units.yaml"], files["markers.yaml"],
                scenarios, tables, geo, rules)
    check_references(col, game, docs)
    if col.problems:
        raise SourceError(col.problems)
    return game


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


def load_map(root: Path) -> MapOnly:
    col = Collector()
    docs: dict[str, Located] = {}
    m = _read(col, root, "map.yaml", s.MapFile, docs)
    geo = _geometry(col, m, docs["map.yaml"]) if m else None
    if col.problems or geo is None:
        raise SourceError(col.problems)
    return MapOnly(m, geo)
