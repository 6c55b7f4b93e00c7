"""JSON Schema for every kind of source file, written from the pydantic models (`hexforge schema`).

Editors (through yaml-language-server) complete and check keys as an author types, from the
same models `check` validates with, so the two never disagree. Descriptions come from the
models' docstrings (pydantic takes those) and from the `# comment` a field carries on its line
or on the comment lines right above it in schema.py (pydantic cannot see comments, so we read
them from the source here).
"""
from __future__ import annotations

import ast
import inspect
import io
import json
import tokenize
from dataclasses import dataclass

from pydantic import BaseModel

from builder.model import schema as s

DIALECT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True)
class SourceKind:
    """One kind of source file: the model that reads it and the files it matches."""

    name: str  # the schema file is <name>.schema.json
    model: type[BaseModel]
    files: str  # path pattern inside sources/<game>/
    about: str  # the description when the model has no docstring


KINDS: tuple[SourceKind, ...] = (
    SourceKind("game", s.GameFile, "game.yaml", "Title, sides, nationalities, counters, turns, dice, menu commands and charts."),
    SourceKind("terrain", s.TerrainFile, "terrain.yaml", "Hex terrain types and hexside features, with movement costs and rules."),
    SourceKind("map", s.MapFile, "map.yaml", "The board, the VASSAL hex grid and numbering, places, tracks, boxes and draw cups."),
    SourceKind("map-terrain", s.MapTerrainFile, "map-terrain.yaml", "Terrain per hex and hexside: hex lists, hex paths and hexside runs."),
    SourceKind("units", s.UnitsFile, "units.yaml", "Unit types, formations, units and leaders."),
    SourceKind("markers", s.MarkersFile, "markers.yaml", "Markers and special chits."),
    SourceKind("scenario", s.ScenarioFile, "scenarios/*.yaml", "A set-up card: placements, reinforcements and withdrawals."),
    SourceKind("table", s.TableFile, "tables/*.yaml", "A rules table."),
    SourceKind("rules", s.RulesFile, "rules.yaml", "The catalogue of the rules a log can show."),
    SourceKind("events", s.EventsFile, "events.yaml", "Event decks or pools, hidden hands and the played area."),
)

# Written by a command, not a source of the build (as releases.yaml): `hexforge map-pieces` writes
# its schema beside the others when it writes a map.
PIECE_MAP = SourceKind("piece-map", s.PieceMapFile, "piece-maps/*.yaml",
                       "Another module's pieces and locations as ours (hexforge map-pieces).")


def field_comments(module=s) -> dict[str, dict[str, str]]:
    """{class name: {field: comment}} from the `# …` on a field's line or the lines just above."""
    source = inspect.getsource(module)
    comments: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string.lstrip("#").strip()
    lines = source.splitlines()
    found: dict[str, dict[str, str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
                continue
            text = comments.get(item.end_lineno) if item.end_lineno in comments and \
                not lines[item.end_lineno - 1].lstrip().startswith("#") else None
            if text is None:  # a comment block right above the field
                above, n = [], item.lineno - 1
                while n in comments and lines[n - 1].lstrip().startswith("#"):
                    above.insert(0, comments[n])
                    n -= 1
                text = " ".join(above) or None
            if text and not text.startswith("noqa"):
                found.setdefault(node.name, {})[item.target.id] = text
    return found


def _describe(schema: dict, model: type[BaseModel], comments: dict[str, dict[str, str]]) -> None:
    """Give each property its field comment when pydantic found no description for it."""
    classes = {c.__name__: c for c in vars(s).values() if isinstance(c, type) and issubclass(c, BaseModel)}
    for name, definition in [(model.__name__, schema), *schema.get("$defs", {}).items()]:
        cls = classes.get(name)
        if cls is None:
            continue
        notes = {f: c for klass in reversed(cls.__mro__) for f, c in comments.get(klass.__name__, {}).items()}
        for field, prop in definition.get("properties", {}).items():
            if field in notes and "description" not in prop:
                prop["description"] = notes[field]


def _tables_schema() -> dict:
    """A table: `data` of its kind's one shape (schema.TABLES), or free for a table of no kind."""
    schema = s.TableFile.model_json_schema()
    branches = []
    for kind, model in s.TABLES.items():
        typed = model.model_json_schema()
        schema.setdefault("$defs", {}).update(typed.get("$defs", {}))
        branches.append({"properties": {"kind": {"const": kind}, "data": typed["properties"]["data"]},
                         "required": ["kind"]})
    branches.append({"properties": {"kind": {"type": "null"}}})
    schema["allOf"] = [{"anyOf": branches}]
    return schema


def schema_for(kind: SourceKind, comments: dict[str, dict[str, str]] | None = None) -> dict:
    """The JSON Schema (draft 2020-12) of one kind of source file."""
    schema = _tables_schema() if kind.model is s.TableFile else kind.model.model_json_schema()
    _describe(schema, kind.model, field_comments() if comments is None else comments)
    own_doc = kind.model.__doc__ and kind.model.__doc__ is not BaseModel.__doc__
    schema.setdefault("description", kind.about if not own_doc else schema.get("description", kind.about))
    schema["title"] = f"hexforge {kind.files}"
    return {"$schema": DIALECT, "$id": f"{kind.name}.schema.json", **schema}


def schema_files() -> dict[str, bytes]:
    """{file name: bytes} for every kind: stable bytes, so a rerun changes nothing."""
    comments = field_comments()
    return {f"{k.name}.schema.json": (json.dumps(schema_for(k, comments), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
            for k in KINDS}


def kind_of(rel: str) -> SourceKind | None:
    """The kind of the source file at `rel` (a path inside sources/<game>/), or None."""
    from fnmatch import fnmatchcase
    return next((k for k in KINDS if fnmatchcase(rel, k.files)), None)


# ---- the `# yaml-language-server: $schema=` line every source file starts with ------------------
SCHEMA_LINE = "# yaml-language-server: $schema="


def schema_line(rel: str) -> str | None:
    """The first line of the source file at `rel` (inside sources/<game>/): a path relative to the
    file, to generated/schema/<kind>.schema.json, so the link holds wherever the repository lives.
    None for a file of no kind (geography.yaml)."""
    kind = kind_of(rel)
    if kind is None:
        return None
    up = "../" * (rel.count("/") + 2)  # out of the file's folder, the game folder and sources/
    return f"{SCHEMA_LINE}{up}generated/schema/{kind.name}.schema.json"


def with_schema_line(text: str, rel: str) -> str:
    """`text` starting with its schema line: an old schema line is replaced, else one is added."""
    line = schema_line(rel)
    if line is None:
        return text
    first, nl, rest = text.partition("\n")
    if first.startswith(SCHEMA_LINE):
        return line + nl + rest if nl else line + "\n"
    return line + "\n" + text


def mark_sources(sources, game: str | None = None) -> list:
    """Give every source file of every game (or of one) its schema line; the files changed.

    Only the first line is touched, so comments, quoting and order stay as the author left them.
    """
    from pathlib import Path

    from builder.vassal.archive import write_atomic

    sources = Path(sources)
    changed = []
    for folder in sorted(p for p in sources.iterdir() if (p / "game.yaml").is_file() and game in (None, p.name)):
        for path in sorted(folder.rglob("*.yaml")):
            rel = path.relative_to(folder).as_posix()
            text = path.read_text(encoding="utf-8")
            new = with_schema_line(text, rel)
            if new != text:
                write_atomic(path, new.encode("utf-8"))
                changed.append(path)
    return changed
