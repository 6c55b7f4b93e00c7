"""What a source file still says when it breaks its schema, so that one `check` goes on.

A schema problem (an over-long `short`, a colour without '#') used to stop the loader before
the cross-file checks, so a renamed formation showed only on the next run (issue 16).  Here
the file's data is rebuilt around its problems, without validation: a wrong value is kept as
written when it has the right kind (a too-long text, an out-of-range number, an unquoted hex
id as its written text), else the field's default stands in; an entry that cannot be rebuilt
(a required value missing or of the wrong kind) is left out, and its `id` remembered so that
references to it are not reported as unknown.  The result only feeds the cross-file checks:
nothing is built from a file with problems.

Also here: what the models declare at a place in a file (`declared`, `field_name`), which the
messages use to say what a value should look like.
"""
from __future__ import annotations

from functools import lru_cache
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

from builder.model.yamlsource import Loc

_PLAIN = (str, int, float, bool)


def members(kind) -> list:
    """A type with its Annotated metadata, unions and Optional opened up."""
    if get_origin(kind) is Annotated:
        return members(get_args(kind)[0]) + list(kind.__metadata__)
    if get_origin(kind) in (Union, UnionType):
        return [m for member in get_args(kind) for m in members(member)]
    return [kind]


def _field_type(model: type[BaseModel], name: str):
    field = model.model_fields[name]
    return Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation


def _step(kinds: list, step) -> tuple[list, str | None]:
    """The types one step below `kinds` (a field, a list item, a mapping value or key), and the
    field name when the step names a field of a model."""
    below: list = []
    name = None
    for kind in (m for k in kinds for m in members(k)):
        if isinstance(kind, type) and issubclass(kind, BaseModel) and step in kind.model_fields:
            below.append(_field_type(kind, step))
            name = step
        elif get_origin(kind) in (list, tuple) and isinstance(step, int):
            args = [a for a in get_args(kind) if a is not Ellipsis]
            below += args[step:step + 1] if get_origin(kind) is tuple and len(args) > 1 else args[:1]
        elif get_origin(kind) is dict and get_args(kind):
            below.append(get_args(kind)[0 if step == "[key]" else 1])
    return below, name


def declared(model: type[BaseModel], loc: Loc) -> list:
    """What the models declare at `loc` (types and constraints), to tell a hex id from a name."""
    found: list = [model]
    for step in loc:
        found, _ = _step(found, step)
    return [m for k in found for m in members(k)]


def field_name(model: type[BaseModel], loc: Loc) -> str:
    """The key an author sees nearest to `loc`: the last model field on the way ('' at the top)."""
    found: list = [model]
    name = ""
    for step in loc:
        found, named = _step(found, step)
        name = named or name
    return name


def fields_at(model: type[BaseModel], loc: Loc) -> list[str]:
    """The keys the models allow in the mapping at `loc`."""
    return sorted({f for k in declared(model, loc) if isinstance(k, type) and issubclass(k, BaseModel)
                   for f in k.model_fields})


class _Unusable(Exception):
    """This value cannot stand in for what the model needs here."""


@lru_cache(maxsize=None)
def _adapter(kind) -> TypeAdapter:
    return TypeAdapter(kind)


def _valid(kind, raw):
    try:
        adapter = _adapter(kind)
    except TypeError:  # an unhashable annotation: no cache
        adapter = TypeAdapter(kind)
    return adapter.validate_python(raw)


class _Salvage:
    def __init__(self, bad: set[Loc], numbers: dict[Loc, str]):
        self.bad, self.numbers = bad, numbers
        self.above_bad = {b[:i] for b in bad for i in range(len(b) + 1)}  # every place with a problem under it
        self.dropped: set[str] = set()

    def broken_under(self, loc: Loc) -> bool:
        return loc in self.above_bad

    def build(self, kind, raw, loc: Loc):
        if not self.broken_under(loc):
            try:
                return _valid(kind, raw)
            except ValidationError:  # valid in its file but not alone: rebuild it as broken
                pass
        kinds = members(kind)
        model = next((k for k in kinds if isinstance(k, type) and issubclass(k, BaseModel)), None)
        if model is not None and isinstance(raw, dict):
            return self.model(model, raw, loc)
        for k in kinds:
            if get_origin(k) is list and isinstance(raw, list):
                item = get_args(k)[0] if get_args(k) else Any
                out = []
                for i, x in enumerate(raw):
                    try:
                        out.append(self.build(item, x, loc + (i,)))
                    except _Unusable:
                        self.drop(x)
                return out
            if get_origin(k) is dict and isinstance(raw, dict) and get_args(k):
                value_kind = get_args(k)[1]
                out = {}
                for key, value in raw.items():
                    if (loc + (key, "[key]")) in self.bad and not isinstance(key, str):
                        continue  # a key YAML read as a number: its entry is left out
                    try:
                        out[key] = self.build(value_kind, value, loc + (key,))
                    except _Unusable:
                        continue
                return out
        return self.leaf(kinds, raw, loc)

    def model(self, model: type[BaseModel], raw: dict, loc: Loc):
        values = {}
        for name, field in model.model_fields.items():
            if name in raw:
                try:
                    values[name] = self.build(_field_type(model, name), raw[name], loc + (name,))
                except _Unusable:
                    # A wrong `hex:` is not "no hex" (that would send a set-up entry to a track
                    # box): an entry of a list whose optional value cannot stand is left out.
                    if field.is_required() or (field.default is None and loc and isinstance(loc[-1], int)):
                        raise
            elif field.is_required():
                raise _Unusable
        return model.model_construct(**values)  # extra keys are left out; validators do not run

    def leaf(self, kinds: list, raw, loc: Loc):
        """A wrong plain value: kept when it has the kind the model wants, else unusable."""
        plain = {k for k in kinds if k in _PLAIN}
        literals = {a for k in kinds if get_origin(k) is Literal for a in get_args(k)}
        if not isinstance(raw, bool) and any(type(raw) is type(a) for a in literals):
            return raw  # level: E stays E, not a default that would read as "no level"
        if isinstance(raw, bool):
            if bool in plain:
                return raw
        elif isinstance(raw, str) and str in plain:
            return raw  # too long, a bad pattern: the cross-file checks still compare it
        elif isinstance(raw, (int, float)) and str in plain and loc in self.numbers:
            return self.numbers[loc]  # hex: 0605 (read as a number) meant '0605'
        elif isinstance(raw, int) and int in plain:
            return raw
        elif isinstance(raw, (int, float)) and float in plain:
            return float(raw)
        raise _Unusable

    def drop(self, raw) -> None:
        if isinstance(raw, dict) and isinstance(raw.get("id"), (str, int)) and not isinstance(raw.get("id"), bool):
            self.dropped.add(str(raw["id"]))


def salvage(model: type[BaseModel], data, bad: set[Loc], numbers: dict[Loc, str]) -> tuple[Any, set[str]]:
    """(the file's model rebuilt around the problems at `bad`, or None; ids of entries left out)."""
    s = _Salvage(bad, numbers)
    try:
        return s.build(model, data if data is not None else {}, ()), s.dropped
    except _Unusable:
        return None, s.dropped
