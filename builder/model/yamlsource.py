"""YAML with positions: every value of a source file keeps the file:line:column it came from.

PyYAML forgets positions once it builds Python objects, and silently keeps the last of two
equal keys.  We compose the node tree ourselves so that any later problem (a schema error,
a bad reference) can name the exact place to fix.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Mark:
    file: str
    line: int  # 1-based
    column: int  # 1-based


class YamlProblem(Exception):
    """A file that is not valid YAML, or has a duplicate key."""

    def __init__(self, mark: Mark, message: str, hint: str = ""):
        super().__init__(message)
        self.mark, self.message, self.hint = mark, message, hint


@dataclass
class Located:
    """A parsed file: plain data plus the position of every value by its path."""

    file: str
    data: Any
    marks: dict[Loc, Mark]

    def mark(self, loc: Loc) -> Mark:
        """The position of the deepest known value on `loc` (the file start if none)."""
        loc = tuple(loc)
        while loc:
            if loc in self.marks:
                return self.marks[loc]
            loc = loc[:-1]
        return self.marks.get((), Mark(self.file, 1, 1))


def _mark(file: str, node: yaml.Node) -> Mark:
    return Mark(file, node.start_mark.line + 1, node.start_mark.column + 1)


def _convert(file: str, node: yaml.Node, loc: Loc, marks: dict[Loc, Mark]) -> Any:
    marks[loc] = _mark(file, node)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = yaml.SafeLoader.construct_object(_SAFE, key_node, deep=True)
            if isinstance(key, (list, dict)):
                raise YamlProblem(_mark(file, key_node), "a key must be a plain value")
            if key in out:
                raise YamlProblem(_mark(file, key_node), f"duplicate key {key!r}",
                                  "each key may appear once in a mapping; remove or rename one")
            out[key] = _convert(file, value_node, loc + (key,), marks)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(file, item, loc + (i,), marks) for i, item in enumerate(node.value)]
    return yaml.SafeLoader.construct_object(_SAFE, node, deep=True)


_SAFE = yaml.SafeLoader("")


def load_located(path: Path, display: str) -> Located:
    """Parse one YAML file, keeping positions.  Raises YamlProblem."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlProblem(Mark(display, 1, 1), f"not UTF-8 text ({exc.reason} at byte {exc.start})",
                          "save the file as UTF-8") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        m = exc.problem_mark or exc.context_mark
        mark = Mark(display, m.line + 1, m.column + 1) if m else Mark(display, 1, 1)
        raise YamlProblem(mark, f"invalid YAML: {exc.problem or exc.context}",
                          "check indentation, quoting and that every ':' is followed by a space") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(Mark(display, 1, 1), f"invalid YAML: {exc}") from None
    marks: dict[Loc, Mark] = {}
    if node is None:
        return Located(display, None, {(): Mark(display, 1, 1)})
    try:
        data = _convert(display, node, (), marks)
    except yaml.constructor.ConstructorError as exc:
        m = exc.problem_mark
        raise YamlProblem(Mark(display, m.line + 1, m.column + 1), f"invalid YAML value: {exc.problem}") from None
    return Located(display, data, marks)
