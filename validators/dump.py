"""A save or log as a person reads it: one line per event, steps numbered."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from validators.replay.replayer import Added, Flipped, Moved, Removed, Replayer, Rolled, Said, TurnChanged
from validators.vlog.modulegrid import read_vmod_grids
from validators.vlog.reader import read_record


def dump_lines(path: Path, module: Path | None = None) -> Iterator[str]:
    record = read_record(path)
    grids = read_vmod_grids(module) if module else {}
    replayer = Replayer(record, grids)
    pieces = [p for p in replayer.board.pieces.values()]
    yield f"{path}: {len(pieces)} pieces at the start, {len(record.steps)} logged steps"
    for step, events in replayer.steps():
        for e in events:
            yield f"{step.index:5d}  {_describe(replayer, e)}"


def _loc(w) -> str:
    return w.label if w.label != "offboard" or w.map is None else f"{w.map} ({w.x},{w.y})"


def _describe(r: Replayer, e) -> str:
    if isinstance(e, Moved):
        return f"move  {e.piece.name}: {_loc(e.old)} -> {_loc(e.new)}"
    if isinstance(e, Flipped):
        return f"flip  {e.piece.name}: {e.layer} {e.old} -> {e.new} at {_loc(e.where)}"
    if isinstance(e, Added):
        return f"add   {e.piece.name} at {_loc(e.where)}"
    if isinstance(e, Removed):
        return f"del   {e.piece.name} from {_loc(e.where) if e.where else '?'}"
    if isinstance(e, Rolled):
        return f"dice  {e.button}: {','.join(map(str, e.dice))} ({e.player})"
    if isinstance(e, TurnChanged):
        return f"turn  {e.turn} phase #{e.phase_index}"
    if isinstance(e, Said):
        return f"chat  {e.text}"
    return repr(e)
