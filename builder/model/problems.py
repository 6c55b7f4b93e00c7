"""Problems found in a game's sources, each at its file:line:column with a hint.

Shared by the loader (`load.py`) and the cross-file checks (`references.py`,
`scenario_checks.py`), which the loader runs: kept apart so that none of them imports another
in a circle.  The words of schema problems are in `schema_words.py`, which needs the schema:
this module does not, so that `SourceError` costs an audit no pydantic import (issue 15).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

if TYPE_CHECKING:
    from builder.model.yamlsource import Loc, Located


@dataclass(frozen=True)
class SourceProblem:
    """One problem in a source file, at its line and column."""

    file: str
    line: int
    column: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{self.file}:{self.line}:{self.column}: {self.message}{hint}"


class SourceError(Exception):
    """The sources of a game have problems; `problems` lists all of them."""

    def __init__(self, problems: list[SourceProblem]):
        super().__init__(f"{len(problems)} problem(s) in the sources")
        self.problems = sorted(set(problems), key=lambda p: (p.file, p.line, p.column, p.message))


def did_you_mean(word: str, choices, none: str = "") -> str:
    """A 'did you mean …' hint, or a list of what is allowed when nothing is close.

    With nothing to choose from, `none` says what to do instead (never an empty list)."""
    choices = sorted({str(c) for c in choices})
    if not choices:
        return none or "there is nothing of this kind to name yet: define one first"
    import difflib  # only when a name is wrong (an audit never imports it)

    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    if len(choices) <= 12:
        return "expected one of: " + ", ".join(choices)
    return ""


class Collector:
    """Gathers problems against located files."""

    def __init__(self) -> None:
        self.problems: list[SourceProblem] = []

    def at(self, doc: Located, loc: Loc, message: str, hint: str = "") -> None:
        m = doc.mark(loc)
        self.problems.append(SourceProblem(m.file, m.line, m.column, message, hint))

    def at_key(self, doc: Located, loc: Loc, message: str, hint: str = "") -> None:
        """A problem with the key itself (unknown, misspelt), not with the value under it."""
        m = doc.key_mark(loc)
        self.problems.append(SourceProblem(m.file, m.line, m.column, message, hint))

    def file(self, name: str, message: str, hint: str = "") -> None:
        self.problems.append(SourceProblem(name, 1, 1, message, hint))


_NAMED = re.compile(r"^(?:unknown [a-z ]+|no table) '([^']*)'")


def cross_file(found: list[SourceProblem], schema: list[SourceProblem], unchecked: set[str]) -> list[SourceProblem]:
    """The cross-file problems to show beside the schema problems of the same run: not a second
    report where a schema problem already stands (a hex id with a '/' is also off the map), nor
    `unknown formation 'X'` when X's own entry was left out for a schema problem of its own."""
    taken = {(p.file, p.line, p.column) for p in schema}
    out = []
    for p in found:
        named = _NAMED.match(p.message)
        if (p.file, p.line, p.column) in taken or (named and named.group(1) in unchecked):
            continue
        out.append(p)
    return out
