"""The validated model as plain read-only records, for code that only reads it (the audit).

pydantic is for validating the sources; once they are valid, a reader needs only the values.
Importing pydantic and creating the schema's classes is about a fifth of a 10,000-step audit
(issue 15), so the model cache also keeps this copy (`load_game(root, plain=True)`), and an
audit that finds it starts without pydantic.

A record copies one schema model: the same class name, the same fields and computed fields as
attributes, equality and hash by class name and values (as the frozen models compare), and no
assignment.  It has none of pydantic's methods (`model_dump` ...): the validators never call
them.  The rules tests run on this copy, and `tests/test_plain_model.py` compares it with the
model value by value and audits an engine log of every game on both.
"""
from __future__ import annotations

_CLASSES: dict[tuple[str, tuple[str, ...]], type] = {}
_SETTERS: dict[type, tuple] = {}  # a record class -> the `__set__` of each of its fields' slots, in order


class Record:
    """A frozen record of one schema model (see the module docstring)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only (a copy of the validated model)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only (a copy of the validated model)")

    def _values(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"

    def __reduce__(self):
        return _record, (type(self).__name__, self._fields, self._values())


def record_class(name: str, fields: tuple[str, ...]) -> type:
    """The record class for a schema model called `name` with these fields (made once a process)."""
    cls = _CLASSES.get((name, fields))
    if cls is None:
        cls = _CLASSES[(name, fields)] = type(name, (Record,), {"__slots__": fields, "_fields": fields,
                                                               "__module__": __name__})
    return cls


def _record(name: str, fields: tuple[str, ...], values: tuple) -> Record:
    """A record from its pickled form (`Record.__reduce__`).

    Each field is set through its slot's own `__set__` (assignment is refused): an audit's model
    load makes a thousand or two records of a dozen fields, and `object.__setattr__` looked
    each slot up by name again (a third of the load; issue 29)."""
    cls = record_class(name, fields)
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = tuple(cls.__dict__[f].__set__ for f in fields)
    rec = object.__new__(cls)
    for set_field, v in zip(setters, values):
        set_field(rec, v)
    return rec


def plain(value: object, _seen: dict[int, tuple[object, object]] | None = None) -> object:
    """`value` with every pydantic model in it, however deep in lists, tuples, dicts and sets,
    copied as a record; other values as they are (a shared model stays shared)."""
    seen = {} if _seen is None else _seen
    if id(value) in seen:
        return seen[id(value)][1]
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        names = tuple(fields) + tuple(type(value).model_computed_fields)
        out = _record(type(value).__name__, names, tuple(plain(getattr(value, n), seen) for n in names))
    elif isinstance(value, list):
        out = [plain(v, seen) for v in value]
    elif isinstance(value, tuple):
        out = tuple(plain(v, seen) for v in value)
    elif isinstance(value, dict):
        out = {plain(k, seen): plain(v, seen) for k, v in value.items()}
    elif isinstance(value, (set, frozenset)):
        out = type(value)(plain(v, seen) for v in value)
    else:
        return value
    seen[id(value)] = (value, out)  # the original kept alive, so that its id is never reused
    return out


def plain_game(game):
    """`game` (a `Game`) with every model in it copied as records (`plain`)."""
    seen: dict[int, tuple[object, object]] = {}
    return game.replace(**{f: plain(getattr(game, f), seen) for f in game._fields})
