"""YAML with positions: every value of a source file keeps the file:line:column it came from.

PyYAML forgets positions once it builds Python objects, and silently keeps the last of two
equal keys.  We compose the node tree ourselves so that any later problem (a schema error,
a bad reference) can name the exact place to fix.

A small file may ask for unbounded work (issue 32): `[` nested 100,000 deep crashes libyaml's
composer and takes minutes in its parser; nine levels of aliases ("billion laughs") expand to
a billion values.  So nesting and values are counted on libyaml's token stream first (linear,
stopped at the limit), and the values a file expands to through its aliases on the composed
graph.  The limits sit far above every real source (the deepest nests 5 levels, the largest
holds 8,414 values).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Loc = tuple[str | int, ...]
MAX_DEPTH = 64  # collections inside collections
MAX_VALUES = 250_000  # values a file holds or expands to, aliases repeated (the largest real one: 8,414)
_OPEN = (yaml.BlockSequenceStartToken, yaml.BlockMappingStartToken, yaml.FlowSequenceStartToken,
         yaml.FlowMappingStartToken)
_CLOSE = (yaml.BlockEndToken, yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)


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
    keys: dict[Loc, Mark] = field(default_factory=dict)  # position of the key naming each mapping value
    numbers: dict[Loc, str] = field(default_factory=dict)  # plain scalars YAML read as numbers, as written (0605)

    def mark(self, loc: Loc) -> Mark:
        """The position of the deepest known value on `loc` (the file start if none)."""
        loc = tuple(loc)
        while loc:
            if loc in self.marks:
                return self.marks[loc]
            loc = loc[:-1]
        return self.marks.get((), Mark(self.file, 1, 1))

    def key_mark(self, loc: Loc) -> Mark:
        """The position of the key that names `loc` (a value under it may start lines later)."""
        loc = tuple(loc)
        return self.keys[loc] if loc in self.keys else self.mark(loc)


def _mark(file: str, node: yaml.Node) -> Mark:
    return Mark(file, node.start_mark.line + 1, node.start_mark.column + 1)


def _convert(file: str, node: yaml.Node, loc: Loc, marks: dict[Loc, Mark], keys: dict[Loc, Mark],
             open_nodes: frozenset[int] = frozenset(), numbers: dict[Loc, str] | None = None) -> Any:
    marks[loc] = _mark(file, node)
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        if id(node) in open_nodes:
            raise YamlProblem(_mark(file, node), "invalid YAML: an alias refers to the collection that contains it",
                              "an '*alias' cannot repeat its own '&anchor' from inside it")
        open_nodes = open_nodes | {id(node)}
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = yaml.SafeLoader.construct_object(_SAFE, key_node, deep=True)
            if isinstance(key, (list, dict)):
                raise YamlProblem(_mark(file, key_node), "a key must be a plain value")
            if key in out:
                raise YamlProblem(_mark(file, key_node), f"duplicate key {key!r}",
                                  "each key may appear once in a mapping; remove or rename one")
            keys[loc + (key,)] = _mark(file, key_node)
            out[key] = _convert(file, value_node, loc + (key,), marks, keys, open_nodes, numbers)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(file, item, loc + (i,), marks, keys, open_nodes, numbers)
                for i, item in enumerate(node.value)]
    value = yaml.SafeLoader.construct_object(_SAFE, node, deep=True)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and numbers is not None:
        numbers[loc] = node.value  # `hex: 0605` is the octal 389: a message must quote what was written
    return value


_SAFE = yaml.SafeLoader("")
_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _too_big(text: str, display: str) -> None:
    """Raise a YamlProblem where collections first nest deeper than MAX_DEPTH (before any
    composer recurses into them), or where the file's values pass MAX_VALUES (before the
    composer builds them all: 1.7 million values took it 15 s).  A scanning error is left to
    the composer to explain."""
    depth = values = 0
    try:
        for token in yaml.scan(text, Loader=_FAST):
            if isinstance(token, yaml.ScalarToken):
                values += 1
                if values > MAX_VALUES:
                    m = token.start_mark
                    raise YamlProblem(Mark(display, m.line + 1, m.column + 1),
                                      f"the file holds more than {MAX_VALUES:,} values (the largest source of the "
                                      "five games holds 8,414)", "a game this large is beyond what hexforge builds")
            elif isinstance(token, _OPEN):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _deep(display, token.start_mark)
            elif isinstance(token, _CLOSE):
                depth -= 1
    except yaml.MarkedYAMLError as exc:  # libyaml stops at its own limit (1,000) before a key resolves
        if "nesting depth" in str(exc.problem) and exc.problem_mark is not None:
            raise _deep(display, exc.problem_mark) from None
    except yaml.YAMLError:
        return


def _children(node: yaml.Node) -> list[yaml.Node]:
    """A node's keys and values (mapping) or items (sequence); none for a scalar."""
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return node.value if isinstance(node, yaml.SequenceNode) else []


def _too_many(display: str, root: yaml.Node) -> None:
    """Raise a YamlProblem at the value whose aliases expand it past MAX_VALUES (counted on the
    composed graph, where an alias is the anchored node itself: linear in the file)."""
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key not in sizes:
            sizes[key] = 0  # an alias inside its own anchor counts nothing here; _convert refuses it
            sizes[key] = 1 + sum(size(c) for c in _children(node))
        return sizes[key]

    node = root
    if size(node) <= MAX_VALUES:
        return
    while True:  # down to the innermost value that alone is too big: where the aliases pile up
        big = next((c for c in _children(node) if sizes[id(c)] > MAX_VALUES), None)
        if big is None:
            break
        node = big
    raise YamlProblem(_mark(display, node), f"this value expands to {sizes[id(node)]:,} values through its "
                      f"aliases (at most {MAX_VALUES:,} in a file)",
                      "write the values out, or use fewer nested '*alias'es")


def _deep(display: str, m) -> YamlProblem:
    return YamlProblem(Mark(display, m.line + 1, m.column + 1), f"collections nested more than {MAX_DEPTH} deep",
                       "flatten the structure: no source needs more than a few levels")


def _compose(text: str) -> yaml.Node | None:
    """libyaml when it is there (10x faster); the Python parser explains errors in more detail."""
    try:
        return yaml.compose(text, Loader=_FAST)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


def load_located(path: Path, display: str) -> Located:
    """Parse one YAML file, keeping positions.  Raises YamlProblem."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", "replace")) + 1
        raise YamlProblem(Mark(display, before.count(b"\n") + 1, column),
                          f"not UTF-8 text ({exc.reason} at byte {exc.start})", "save the file as UTF-8") from None
    _too_big(text, display)
    try:
        node = _compose(text)
    except yaml.MarkedYAMLError as exc:
        m = exc.problem_mark or exc.context_mark
        message = f"invalid YAML: {exc.problem or exc.context}"
        hint = "check indentation, quoting and that every ':' is followed by a space"
        c = exc.context_mark
        if (c and exc.problem_mark and c.line != exc.problem_mark.line and exc.context
                and exc.context in ("while parsing a flow sequence", "while parsing a flow mapping",
                                "while scanning a quoted scalar")):
            # An unclosed bracket or quote is only noticed lines later: point at where it opens.
            opener = c.buffer[c.pointer] if c.buffer and c.pointer < len(c.buffer) else "bracket"
            message += f" at line {exc.problem_mark.line + 1}, in the {opener!r} opened here"
            hint = f"close the {opener!r}" + (" or separate its items with ','" if opener in "[{" else "")
            m = c
        mark = Mark(display, m.line + 1, m.column + 1) if m else Mark(display, 1, 1)
        raise YamlProblem(mark, message, hint) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(Mark(display, 1, 1), f"invalid YAML: {exc}") from None
    marks: dict[Loc, Mark] = {}
    keys: dict[Loc, Mark] = {}
    numbers: dict[Loc, str] = {}
    if node is None:
        return Located(display, None, {(): Mark(display, 1, 1)})
    _too_many(display, node)
    try:
        data = _convert(display, node, (), marks, keys, numbers=numbers)
    except yaml.constructor.ConstructorError as exc:
        m = exc.problem_mark
        raise YamlProblem(Mark(display, m.line + 1, m.column + 1), f"invalid YAML value: {exc.problem}") from None
    return Located(display, data, marks, keys, numbers)
