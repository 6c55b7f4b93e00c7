"""Which rules an audit runs and reports: `hexforge audit --only 13.2 --skip 13.2.4`.

A number selects itself and every rule under it ("13.2" selects 13.2, 13.2.1, 13.2.4; "13.0"
all of section 13).  A rule object runs when one of the numbers it reports is selected and not
all of them are skipped; its findings are kept when their own number is selected and not skipped.
"""
from __future__ import annotations

from collections.abc import Iterable

from builder.record import FrozenRecord


def under(number: str, top: str) -> bool:
    """Whether rule `number` is `top` or one of its sub-rules ("13.2.4" under "13.2"); "13.0"
    stands for all of section 13."""
    if top.endswith(".0"):
        top = top[:-2]
    return number == top or number.startswith(top + ".")


class Selection(FrozenRecord):
    """Which rules an audit runs and reports (--only, --skip)."""

    __slots__ = _fields = ("only", "skip")

    def __init__(self, only: tuple[str, ...] = (), skip: tuple[str, ...] = ()):
        self._set_fields(only, skip)

    @classmethod
    def of(cls, only: Iterable[str] = (), skip: Iterable[str] = ()) -> Selection:
        return cls(tuple(x.strip() for x in only if x.strip()), tuple(x.strip() for x in skip if x.strip()))

    def __bool__(self) -> bool:
        return bool(self.only or self.skip)

    def reports(self, number: str) -> bool:
        """Whether a finding of this rule number is kept."""
        if self.only and not any(under(number, o) for o in self.only):
            return False
        return not any(under(number, s) for s in self.skip)

    def runs(self, numbers: Iterable[str]) -> bool:
        """Whether a rule object reporting `numbers` runs."""
        numbers = tuple(numbers)
        if self.only and not any(under(n, o) for n in numbers for o in self.only):
            return False
        return not numbers or not all(any(under(n, s) for s in self.skip) for n in numbers)
