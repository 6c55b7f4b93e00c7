"""The plain model (builder/model/plain.py): every value of the validated model, as read-only
records; an audit reads it from the cache without importing pydantic, and finds what it finds
on the validated model."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from builder.model import load_game
from builder.model.plain import Record, plain_game
from builder.paths import REPO as ROOT, games
from validators.audit import audit_file
from validators.report import as_json

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
LOGS = {"bits-all-actions": "bravery-in-the-sand", "bits-double-back-over-ma": "bravery-in-the-sand",
        "wdf-stack-drag": "western-desert-force", "tobrouk-legal": "tobrouk-41-42",
        "sh-events": "slouch-hats-and-eggshells", "dfd-trail-of-the-fox-packed-planted": "desert-fox-deluxe"}


def _dump(value):
    """A record as model_dump gives a model: dicts of its fields, all the way down."""
    if isinstance(value, Record):
        return {f: _dump(getattr(value, f)) for f in value._fields}
    if isinstance(value, (list, tuple)):
        return type(value)(_dump(v) for v in value)
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


def _model_dump(value):
    if hasattr(value, "model_dump"):
        return value.model_dump()
    if isinstance(value, dict):
        return {k: _model_dump(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("slug", games(ROOT))
def test_every_value_of_the_model_is_in_its_plain_copy(slug):
    game = load_game(ROOT / "sources" / slug)
    copy = load_game(ROOT / "sources" / slug, plain=True)
    checked = 0
    for f in game._fields:
        value = getattr(game, f)
        if f in ("root", "slug", "geometry"):
            assert getattr(copy, f) == value
            continue
        assert _dump(getattr(copy, f)) == _model_dump(value), f
        checked += value is not None
    assert checked >= 8
    assert copy.unit_types.keys() == game.unit_types.keys() and copy.places.keys() == game.places.keys()
    assert not any(hasattr(v, "model_dump") for v in (copy.info, copy.map, *copy.units))
    assert pickle.loads(pickle.dumps(copy)).units == copy.units


def test_records_compare_by_value_and_refuse_assignment():
    a = plain_game(load_game(ROOT / "sources" / "bravery-in-the-sand"))
    b = plain_game(load_game(ROOT / "sources" / "bravery-in-the-sand"))
    assert a.info.sides[0] is not b.info.sides[0]
    assert a.info.sides[0] == b.info.sides[0] and hash(a.info.sides[0]) == hash(b.info.sides[0])
    assert a.info.sides[0] != a.info.sides[1]
    assert a.units[0].strength_roman == load_game(ROOT / "sources" / "bravery-in-the-sand").units[0].strength_roman
    with pytest.raises(AttributeError, match="read-only"):
        a.units[0].strength = 9
    with pytest.raises(AttributeError):
        a.units[0].model_dump()


@pytest.mark.parametrize("log", sorted(LOGS))
def test_an_audit_finds_the_same_on_both_forms(log):
    root = ROOT / "sources" / LOGS[log]
    on_model = json.loads(as_json(audit_file(load_game(root), ENGINE / f"{log}.vlog")))
    on_plain = json.loads(as_json(audit_file(load_game(root, plain=True), ENGINE / f"{log}.vlog")))
    assert on_plain == on_model
    assert on_model["steps"] > 0


AUDIT = """import sys
from validators.cli import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
print("pydantic imported:", "pydantic" in sys.modules, file=sys.stderr)
"""


def test_an_audit_from_the_cache_never_imports_pydantic(tmp_path):
    """Nor does the command line: typer 0.29 imports pydantic to coerce arguments, and
    pyproject.toml holds typer below it."""
    env = {**os.environ, "HEXFORGE_MODEL_CACHE": str(tmp_path)}
    args = [sys.executable, "-c", AUDIT, "audit", "bravery-in-the-sand", str(ENGINE / "bits-all-actions.vlog"),
            "--format", "json"]
    first = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    again = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert first.stderr.splitlines()[-1] == "pydantic imported: True"  # the cache was filled: a fresh load
    assert again.stderr.splitlines()[-1] == "pydantic imported: False", again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    assert [v["rule"] for v in json.loads(again.stdout)["violations"]] == ["7.2.3", "7.2.3"]
