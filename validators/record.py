"""A plain slotted record: equal when of one type with equal fields, shown with its fields, as
a dataclass with `eq` would be, but written out rather than made by `dataclass`.

Why: `dataclass` generates each method's source and compiles it when the module is imported;
for the classes an audit imports that was a tenth of a short audit's start-up (issue 36).  A
subclass lists its fields in `__slots__` and sets them in its own `__init__`.
"""
from __future__ import annotations


class Record:
    """The base of a plain slotted record (see the module docstring)."""

    __slots__ = ()
    __hash__ = None  # compared by value, never a key (as a dataclass with eq and not frozen)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.__slots__)})"


class FrozenRecord(Record):
    """A plain slotted record that cannot be changed once made, and so can be a key: hashed by its
    fields, as a dataclass with `frozen` is.  A subclass sets its fields with `object.__setattr__`
    in its own `__init__`."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in self.__slots__))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of {type(self).__name__} (read-only)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of {type(self).__name__} (read-only)")
