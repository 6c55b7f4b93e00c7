"""Plain records: what `@dataclass` (`Record`) and `@dataclass(frozen=True)` (`FrozenRecord`)
gave the classes an audit imports, written out once rather than generated for each class.

Why: `dataclass` generates each method's source and compiles it when the module is imported,
and imports inspect, ast and dis to do so; for the classes an audit imports that was about half
of a short audit's imports (issues 36 and 29).

`Record`: a subclass lists its fields in `__slots__` and sets them in its own `__init__`; it
compares equal to a record of its own type with equal fields and shows them in its repr, and is
never a key (as a dataclass with `eq` and not `frozen`).

`FrozenRecord`: a subclass names its fields, in the order its `__init__` takes them, in `_fields` (usually also
its `__slots__`; a class with cached properties adds "__dict__" to its slots), and its `__init__`
sets them with `self._set_fields(...)` (or, where speed counts, each with `object.__setattr__`,
as a frozen dataclass does).  It then compares equal to a record of its own type with equal
fields, hashes by them, shows them in its repr, refuses assignment, pickles and copies through
`__init__`, and `replace(**changes)` makes a changed copy (as `dataclasses.replace`).
"""
from __future__ import annotations


class Record:
    """The base of a plain slotted record that may change (see the module docstring)."""

    __slots__ = ()
    __hash__ = None  # compared by value, never a key (as a dataclass with eq and not frozen)
    _fields: tuple[str, ...] = ()  # what equality and repr read (see __init_subclass__)

    def __init_subclass__(cls, **kwargs) -> None:
        """A subclass's fields are its `__slots__`, unless it names them in `_fields`: a record
        whose slots also keep answers it worked out (a replayed piece's parsed traits) leaves those
        out of equality and repr."""
        super().__init_subclass__(**kwargs)
        if "_fields" not in cls.__dict__:
            cls._fields = getattr(cls, "__slots__", ())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"


class FrozenRecord(Record):
    """The base of a plain frozen record (see the module docstring); its subclasses name their
    `_fields`, in the order __init__ takes them."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a {type(self).__name__} (frozen)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a {type(self).__name__} (frozen)")

    def _set_fields(self, *values: object) -> None:
        """Set the fields, in `_fields` order (for __init__: assignment is refused)."""
        for name, value in zip(self._fields, values, strict=True):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple([getattr(self, f) for f in self._fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self):
        """Pickled (and copied) as its class and fields, made again by its own __init__; a record
        with a `__dict__` (cached properties) keeps it too: the model cache holds a map's worked-out
        hexes, which an audit would otherwise work out again."""
        state = getattr(self, "__dict__", None)
        return (type(self), self._values(), state) if state else (type(self), self._values())

    def replace(self, **changes: object):
        """A copy with some fields changed (as `dataclasses.replace`)."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return type(self)(*[changes[f] if f in changes else getattr(self, f) for f in self._fields])
