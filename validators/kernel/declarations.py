"""Declarations read back from the log, by the `report:` templates game.yaml gives them.

A declaration is a unit menu command whose only effect is a line in the log ("Declare
attacker" reports "Combat: $PieceName$ attacks from $location$").  The template says what the
line looks like, so no game writes a pattern of its own: each `$Property$` becomes a group,
and the engine's chat decoration ("* ... *") is allowed around the line.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from builder.record import FrozenRecord
from validators.replay.board import Piece

_PROPERTY = re.compile(r"\$(\w+)\$")


class Declared(FrozenRecord):
    """A declaration made on a unit: which one (game.yaml's `name`), the unit, where it was (the
    location the line names: a hex id, or a box's name) and the rule game.yaml gives it."""

    __slots__ = _fields = ("name", "piece", "where", "rule")

    def __init__(self, name: str, piece: Piece, where: str, rule: str):
        self._set_fields(name, piece, where, rule)


def pattern(template: str) -> re.Pattern:
    """The regular expression of a report template: $PieceName$ -> (?P<piecename>.+?)."""
    out, at, seen = [r"^\*?\s*"], 0, set()
    for m in _PROPERTY.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        name = m[1].lower()
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = m.end()
    out.append(re.escape(template[at:]) + r"\s*\*?$")
    return re.compile("".join(out))


class Declarations:
    """Matches a chat line against every declaration's template."""

    def __init__(self, declarations: Iterable):
        # (declaration, its expression): each expression compiled only when a line first holds
        # its needle (compiling them all cost every audit's start-up; most logs use a few)
        self.patterns: list[tuple[object, re.Pattern | None]] = [(d, None) for d in declarations
                                                                 if "$PieceName$" in d.report]
        # the longest literal part of each template: a line without it cannot match (most chat
        # lines are dice reports and talk, so the expressions are seldom run)
        self.needles = [max(_PROPERTY.split(d.report)[::2], key=len).strip() for d, _ in self.patterns]
        # any needle at all, in one search: most lines have none and are answered by it alone
        self._any = re.compile("|".join(re.escape(n) for n in self.needles))

    def match(self, text: str) -> tuple[object, str, str] | None:
        """(the declaration, the piece's name, the location) of a line, or None."""
        line = text.strip()
        if not self._any.search(line):
            return None
        for i, ((d, p), needle) in enumerate(zip(self.patterns, self.needles)):
            if needle not in line:
                continue
            if p is None:
                p = pattern(d.report)
                self.patterns[i] = (d, p)
            m = p.match(line)
            if m:
                return d, m["piecename"], m.groupdict().get("location") or ""
        return None
