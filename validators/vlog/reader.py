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
from dataclasses import dataclass, field
from pathlib import Path

from builder.vassal.savefile import CommandTreeError, decode_tree, leaves
from validators.vlog.commands import Command, Marker, UndoMarker, Unknown, parse
from validators.vlog.container import LogFormatError, SavedGame, read_saved_game

LOG = "LOG\t"


@dataclass(frozen=True)
class Step:
    index: int  # 1-based position among the logged steps
    commands: tuple[Command, ...]
    null_entries: int  # LOG\tnull entries skipped, as VASSAL skips them

    @property
    def is_undo(self) -> bool:
        return any(isinstance(c, UndoMarker) and c.start for c in self.commands)


@dataclass(frozen=True)
class GameRecord:
    source: SavedGame
    setup: tuple[Command, ...]
    steps: tuple[Step, ...]
    unknown: tuple[str, ...] = field(default=())

    @property
    def is_log(self) -> bool:
        return bool(self.steps)


def _step(index: int, node) -> Step:
    cmds: list[Command] = []
    nulls = 0
    for leaf in leaves(node):
        if not leaf.startswith(LOG):
            cmds.append(parse(leaf))  # pre-3.x or hand-written logs: accept the bare command
            continue
        payload = leaf[len(LOG):]
        if payload == "null":
            nulls += 1
            continue
        for inner in leaves(decode_tree(payload)):
            cmds.append(parse(inner))
    return Step(index, tuple(c for c in cmds if not (isinstance(c, Marker) and c.kind == "null")), nulls)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cycle collector while building or walking a long log.

    A log becomes millions of small objects; the collector would rescan them again and
    again (a 100k-step log took twice as long).  They hold no reference cycles.
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


def _parse_record(saved: SavedGame) -> GameRecord:
    tree = decode_tree(saved.text)
    top = tree if isinstance(tree, list) else [tree]
    if not top or top[0] != "begin_save":
        raise LogFormatError(f"{saved.path}: command text does not start with begin_save")
    try:
        end = top.index("end_save")
    except ValueError:
        raise LogFormatError(f"{saved.path}: no end_save (truncated?)") from None
    setup = tuple(parse(leaf) for node in top[: end + 1] for leaf in leaves(node))
    steps = tuple(_step(i, node) for i, node in enumerate(top[end + 1:], start=1))
    unknown = [c.text for c in setup if isinstance(c, Unknown)]
    unknown += [c.text for s in steps for c in s.commands if isinstance(c, Unknown)]
    return GameRecord(saved, setup, steps, tuple(unknown))


def read_record(path: Path) -> GameRecord:
    """Read a .vsav/.vlog.  Raises LogFormatError with a one-line reason."""
    return parse_record(read_saved_game(path))
