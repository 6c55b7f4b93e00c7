"""A save or log as steps: the starting position, then one step per logged user action.

VASSAL writes a log as `begin_save … end_save` (the position when logging began) followed by
one top-level `LOG` node per action, whose nested nodes are that action's sub-commands
(§4.8).  We keep each action whole as one `Step`, skip the literal `LOG\\tnull` entries
VASSAL writes for commands with no encoder, and mark undo steps.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from builder.vassal.savefile import ESC, MAX_DEPTH, CommandTreeError
from builder.vassal.sequence import split
from builder.record import FrozenRecord, Record
from validators.vlog.commands import Command, UndoMarker, Unknown, parse
from validators.vlog.container import LogFormatError, SavedGame, read_saved_game

LOG = "LOG\t"
LOG_NULL = LOG + "null"  # a command with no encoder (skipped, counted)
# Work a small file may ask for, bounded far above real logs (the largest we hold: 591 commands,
# 107 steps; our own benchmarks write 100,000 steps): a zip of a few KB can hold millions of
# empty commands (issue 32).  Past a limit the file is refused with one line, before the work.
MAX_COMMANDS = 2_000_000
MAX_STEPS = 500_000


class Step(Record):
    """One logged action; read, never changed (plain slots: ten thousand of them are made per
    long log, and a frozen record costs several times as much to make)."""

    __slots__ = ("index", "commands", "null_entries", "is_undo")

    def __init__(self, index: int, commands: tuple[Command, ...], null_entries: int, is_undo: bool = False):
        self.index = index  # 1-based position among the logged steps
        self.commands = commands
        self.null_entries = null_entries  # LOG\tnull entries skipped, as VASSAL skips them
        self.is_undo = is_undo  # the step undoes an earlier one (an UNDO start marker)


class GameRecord(FrozenRecord):
    _fields = __slots__ = ("source", "setup", "steps", "unknown")

    def __init__(self, source: SavedGame, setup: tuple[Command, ...], steps: tuple[Step, ...],
                 unknown: tuple[str, ...] = ()):
        self._set_fields(source, setup, steps, unknown)

    @property
    def is_log(self) -> bool:
        return bool(self.steps)


def _leaves(cmd: str, out: list[str], depth: int = 0) -> bool:
    """Append the leaf commands of `savefile.decode_tree(cmd)` to `out`, depth first, without
    building the tree; True when `cmd` is itself a leaf.  Raises CommandTreeError past
    MAX_DEPTH levels, exactly where decode_tree does."""
    if ESC not in cmd and not (len(cmd) > 1 and cmd[0] == "'" and cmd[-1] == "'"):
        out.append(cmd)  # no delimiter and no quotes to strip: split would give [cmd] (fast path)
        return True
    toks = split(cmd, ESC)
    if len(toks) == 1 and toks[0] == cmd:
        out.append(cmd)
        return True
    if depth >= MAX_DEPTH:
        raise CommandTreeError(f"command text nested deeper than {MAX_DEPTH} levels")
    for t in toks:
        if ESC not in t and not (len(t) > 1 and t[0] == "'" and t[-1] == "'"):
            out.append(t)  # a leaf: the first test of the call below, without the call
        else:
            _leaves(t, out, depth + 1)
    return False


def _step(index: int, node_leaves: list[str]) -> Step:
    cmds: list[Command] = []
    nulls = 0
    undo = False  # an UNDO start marker among the commands: the step undoes an earlier one
    for leaf in node_leaves:
        if leaf == LOG_NULL:  # most leaves of a real step (issue 36: the parse's hot loop)
            nulls += 1
        elif leaf[:4] == LOG and ESC not in leaf and leaf[4:5] != "'":
            if len(leaf) > 4:  # one command (nearly every leaf); an empty one is VASSAL's null command
                c = parse(leaf[4:])
                cmds.append(c)
                if type(c) is UndoMarker and c.start:  # the step undoes an earlier one
                    undo = True
        else:
            if not leaf.startswith(LOG):
                texts = [leaf]  # pre-3.x or hand-written logs: accept the bare command
            else:
                texts = []
                _leaves(leaf[4:], texts)  # sub-commands, or a payload in quotes
            for text in texts:
                if text:  # an empty leaf is VASSAL's null command: nothing to keep
                    c = parse(text)
                    cmds.append(c)
                    if type(c) is UndoMarker and c.start:
                        undo = True
    return Step(index, tuple(cmds), nulls, undo)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cycle collector while building or walking a long log.

    A log becomes millions of small objects; the collector would rescan them again and
    again (a 100k-step log took twice as long).  They hold no reference cycles, so reference
    counting frees them (tests/test_audit_memory.py: an audit leaves none behind).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse_record(saved: SavedGame) -> GameRecord:
    try:
        with paused_gc():
            return _parse_record(saved)
    except CommandTreeError as exc:  # a nesting bomb, in the text or in one step's payload
        raise LogFormatError(f"{saved.path}: {exc}") from None


_MARKS = "\x00\x01\x02\x03\ufffe\uffff"  # stand-ins for an escaped ESC: characters a log should never hold


def _top_nodes(text: str) -> list[tuple[bool, list[str]]]:
    """The top-level nodes of `decode_tree(text)`, each as (is a leaf, its leaves).  The raw
    text of each node is dropped on return, as decode_tree drops it.

    Why it is written this way: a log is a top level of steps, each a node of LOG leaves, and
    splitting it level by level (`_top_nodes_by_level`) was a third of the decode.  Here a
    character the text lacks stands in for every escaped ESC; the top level is then one
    `str.split` at ESC, and a node's leaves one `split` at the stand-in.  A node where that
    would not give decode_tree's leaves (an ESC escaped twice: nested deeper; a quote, which a
    token may be wrapped in) is read the general way, from its top-level token."""
    mark = next((c for c in _MARKS if c not in text), None)
    if mark is None or ESC not in text or text[:1] == "'":
        return _top_nodes_by_level(text)
    deeper = "\\" + mark  # an ESC escaped twice, once the stand-in is in
    nodes: list[tuple[bool, list[str]]] = []
    for node in text.replace("\\" + ESC, mark).split(ESC):
        if "'" in node or deeper in node:
            token = node.replace(mark, ESC)
            if len(token) > 1 and token[0] == "'" and token[-1] == "'":
                token = token[1:-1]
            out: list[str] = []
            nodes.append((_leaves(token, out, 1), out))
        elif mark in node:
            nodes.append((False, node.split(mark)))
        else:
            nodes.append((True, [node]))
    return nodes


def _top_nodes_by_level(text: str) -> list[tuple[bool, list[str]]]:
    """`_top_nodes` the general way: the top level split, then each node split in turn."""
    if ESC not in text and not (len(text) > 1 and text[0] == "'" and text[-1] == "'"):
        return [(True, [text])]
    toks = split(text, ESC)
    if len(toks) == 1 and toks[0] == text:
        return [(True, [text])]
    nodes: list[tuple[bool, list[str]]] = []
    for t in toks:
        out: list[str] = []
        nodes.append((_leaves(t, out, 1), out))
    return nodes


def _parse_record(saved: SavedGame) -> GameRecord:
    commands = saved.text.count(ESC) + 1  # every command but the first follows a separator
    if commands > MAX_COMMANDS:
        raise LogFormatError(f"{saved.path}: holds {commands:,} commands (limit {MAX_COMMANDS:,}): refused")
    nodes = _top_nodes(saved.text)
    if not nodes or not (nodes[0][0] and nodes[0][1][0] == "begin_save"):
        raise LogFormatError(f"{saved.path}: command text does not start with begin_save")
    end = next((i for i, (leaf, out) in enumerate(nodes) if leaf and out[0] == "end_save"), None)
    if end is None:
        raise LogFormatError(f"{saved.path}: no end_save (truncated?)")
    if len(nodes) - end - 1 > MAX_STEPS:
        raise LogFormatError(f"{saved.path}: holds {len(nodes) - end - 1:,} logged steps (limit {MAX_STEPS:,}): refused")
    setup = tuple(parse(leaf) for _, out in nodes[: end + 1] for leaf in out)
    steps = tuple(_step(i, out) for i, (_, out) in enumerate(nodes[end + 1:], start=1))
    unknown = [c.text for c in setup if isinstance(c, Unknown)]
    unknown += [c.text for s in steps for c in s.commands if isinstance(c, Unknown)]
    return GameRecord(saved, setup, steps, tuple(unknown))


def read_record(path: Path) -> GameRecord:
    """Read a .vsav/.vlog.  Raises LogFormatError with a one-line reason."""
    return parse_record(read_saved_game(path))
