"""`hexforge schema`: a JSON Schema per kind of source file, which every real source file meets.

The schemas are checked with a small validator of the JSON Schema keywords pydantic writes
(`_check` below; a keyword it does not know fails the test rather than being skipped), and with
the `jsonschema` package too where it is installed.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.cli import app
from builder.model import schema as s
from builder.model.json_schema import KINDS, kind_of, schema_files
from builder.model.yamlsource import load_located

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"


def _rel(path: Path) -> str:
    """A source file's path inside its game folder (scenarios/campaign.yaml)."""
    return "/".join(path.relative_to(SOURCES).parts[1:])


SOURCE_FILES = sorted(p for p in SOURCES.glob("*/**/*.yaml") if kind_of(_rel(p)))  # geography.yaml has no kind
SCHEMAS = {name: json.loads(data) for name, data in schema_files().items()}

# The keywords `_check` understands; annotations it may ignore.
CHECKED = {"$ref", "anyOf", "allOf", "type", "properties", "required", "additionalProperties", "items", "enum", "const",
           "pattern", "minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum",
           "exclusiveMaximum", "propertyNames", "patternProperties",
           "prefixItems"}
ANNOTATIONS = {"title", "description", "default", "$defs", "$schema", "$id", "examples"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _check(value, schema: dict, root: dict, at: str = "") -> list[str]:
    """The places where `value` breaks `schema` (empty when it meets it)."""
    unknown = set(schema) - CHECKED - ANNOTATIONS
    assert not unknown, f"schema keyword(s) {unknown} at {at or '/'} are not checked by this test"
    if "$ref" in schema:
        target = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _check(value, target, root, at)
    if "anyOf" in schema:
        branches = [_check(value, b, root, at) for b in schema["anyOf"]]
        return [] if any(not b for b in branches) else min(branches, key=len)
    errors = [e for sub in schema.get("allOf", []) for e in _check(value, sub, root, at)]
    kind = schema.get("type")
    if kind == "integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "number":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = kind is None or isinstance(value, TYPES[kind])
    if not ok:
        return errors + [f"{at}: {value!r} is not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{at}: {value!r} not in {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{at}: {value!r} != {schema['const']!r}")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{at}: {value!r} does not match {schema['pattern']}")
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
            errors.append(f"{at}: length of {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value) \
                or ("exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]) \
                or ("exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]):
            errors.append(f"{at}: {value} out of range")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            errors.append(f"{at}: {len(value)} items")
        prefix = schema.get("prefixItems", [])
        errors += [e for i, (v, sub) in enumerate(zip(value, prefix)) for e in _check(v, sub, root, f"{at}/{i}")]
        if "items" in schema:
            errors += [e for i, v in enumerate(value[len(prefix):], len(prefix))
                       for e in _check(v, schema["items"], root, f"{at}/{i}")]
    if isinstance(value, dict):
        props = schema.get("properties", {})
        errors += [f"{at}: missing {k!r}" for k in schema.get("required", []) if k not in value]
        for k, v in value.items():
            if "propertyNames" in schema:
                errors += _check(k, schema["propertyNames"], root, f"{at}/{k}[key]")
            matched = [p for p in schema.get("patternProperties", {}) if re.search(p, str(k))]
            errors += [e for p in matched for e in _check(v, schema["patternProperties"][p], root, f"{at}/{k}")]
            if k in props:
                errors += _check(v, props[k], root, f"{at}/{k}")
            elif matched:
                pass
            elif schema.get("additionalProperties") is False:
                errors.append(f"{at}: unknown key {k!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += _check(v, schema["additionalProperties"], root, f"{at}/{k}")
    return errors


def _data(path: Path):
    return load_located(path, path.name).data or {}


def _schema_of(path: Path) -> dict:
    return SCHEMAS[f"{kind_of(_rel(path)).name}.schema.json"]


def test_every_kind_of_source_file_has_a_schema():
    assert [k.files for k in KINDS] == [*s.FILES, "scenarios/*.yaml", "tables/*.yaml", "rules.yaml", "events.yaml"]
    assert set(SCHEMAS) == {f"{k.name}.schema.json" for k in KINDS}
    for k in KINDS:
        schema = SCHEMAS[f"{k.name}.schema.json"]
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert set(schema["properties"]) == set(k.model.model_fields)
        assert schema["description"], k.files


def test_descriptions_come_from_docstrings_and_field_comments():
    game, scenario, rules = (SCHEMAS[f"{n}.schema.json"] for n in ("game", "scenario", "rules"))
    assert game["$defs"]["Chart"]["properties"]["table"]["description"] == "a file in tables/"  # a trailing comment
    assert "prints" not in game["$defs"]["Dice"]["properties"]["side"]["description"]
    assert "the log then shows who rolled" in game["$defs"]["Dice"]["properties"]["side"]["description"]
    assert "both sides together" in scenario["properties"]["contested_hexes"]["description"]  # a comment block above
    assert rules["$defs"]["RuleEntry"]["description"].startswith("One rule a log can show")  # a docstring
    assert "not checked" in rules["$defs"]["RuleEntry"]["properties"]["note"]["description"]


def test_the_sources_cover_every_kind_of_file():
    kinds = {kind_of(_rel(p)).name for p in SOURCE_FILES}
    assert kinds == {k.name for k in KINDS}
    assert len({p.relative_to(SOURCES).parts[0] for p in SOURCE_FILES}) >= 2


@pytest.mark.parametrize("path", SOURCE_FILES, ids=lambda p: str(p.relative_to(SOURCES)))
def test_each_real_source_file_meets_its_schema(path: Path):
    data, schema = _data(path), _schema_of(path)
    assert _check(data, schema, schema) == []
    kind = kind_of(_rel(path))
    kind.model.model_validate(data)  # and the model that built the schema agrees
    try:
        import jsonschema
    except ImportError:
        return
    jsonschema.Draft202012Validator.check_schema(schema)
    assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)] == []


@pytest.mark.parametrize("rel, old, new, why", [
    ("game.yaml", "title: Bravery in the Sand\n", "titel: Bravery in the Sand\n", "unknown key 'titel'"),
    ("terrain.yaml", '"#ead9ae"', '"#12345"', "does not match"),
    ("scenarios/campaign.yaml", '{formation: 15PZ, hex: "0608"}', "{formation: 15PZ, hex: 389}", "389 is not string"),
    ("units.yaml", "    level: A\n", "    level: E\n", "not in"),
])
def test_a_broken_source_file_breaks_its_schema(tmp_path: Path, rel: str, old: str, new: str, why: str):
    path = SOURCES / "bravery-in-the-sand" / rel
    text = path.read_text("utf-8")
    assert old in text
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace(old, new, 1), "utf-8")
    schema = _schema_of(path)
    assert any(why in e for e in _check(_data(broken), schema, schema))


def test_the_command_writes_every_schema_atomically_into_generated_schema(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "generated" / "schema"
    written = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert written == schema_files()  # every file, nothing else (no temporary left behind)
    assert "wrote 10 schemas" in result.stdout

    again = CliRunner().invoke(app, ["schema", "--out", str(tmp_path / "elsewhere")])
    assert again.exit_code == 0, again.output
    assert {p.name: p.read_bytes() for p in (tmp_path / "elsewhere").iterdir()} == written  # same bytes each run


def test_the_command_refuses_a_file_as_its_folder(tmp_path: Path):
    target = tmp_path / "a-file.json"
    target.write_text("{}")
    result = CliRunner().invoke(app, ["schema", "--out", str(target)])
    assert result.exit_code == 2
    assert "name a folder" in result.stderr
    assert target.read_text() == "{}"
