"""The match as the page steps through it: the counters at the start, then per logged step only
what changed (a 2,000-step log would otherwise carry 2,000 boards), with the step's log lines,
its moves and the turn and phase.

Steps are replayed in log order as VASSAL plays a log back and as `hexforge log dump` lists them
(validators/dump.py): a step later undone is shown, and its undo step restores the board.
A counter is a row [piece, map, x, y, offset, z, image, name, location] of indices into the
tables (`pieces`, `maps`, `images`, `names`, `locations`); `offset` is its place in its stack
as VASSAL draws it shifted (0 in a draw pile, where the pieces lie on each other), `z` its
place from the bottom.  A masked piece's row goes on with [owner, mask image, mask name] (the
owner a name in `names`): what the other sides see of it; an invisible one's with [owner, -1, -1]:
the other sides see nothing there.
"""
from __future__ import annotations

from pathlib import Path

from builder.vassal.sequence import split
from validators.dump import _turn, _turn_text, line_text, replay_lines
from validators.replay.board import Board
from validators.replay.replayer import Replayer
from validators.view.module_art import ModuleArt
from validators.vlog.reader import paused_gc, read_record


class _Table:
    """Strings (or ids) interned as small integers, in first-seen order."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, value: str) -> int:
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.index)
        return found

    def items(self) -> list[str]:
        return list(self.index)


def match_frames(log: Path, art: ModuleArt) -> dict:
    """The page's data for one log: the tables, `start` (rows of the counters before step 1),
    `steps` (per step: `d` changed rows, `[piece]` for a counter gone from the maps; `l` its
    log lines; `m` its moves as [map, x1, y1, x2, y2]; `t` the turn and phase after it) and the
    header facts.  Raises LogFormatError (one line) when the log cannot be read."""
    record = read_record(log)
    replayer = Replayer(record, art.grids)
    pieces, maps, images, names, locations = _Table(), _Table(), _Table(), _Table(), _Table()
    for m in art.maps:
        maps(m.name)
    looks: dict[tuple[str, str], tuple[int, int]] = {}  # (type, state) -> (image, name)

    def snapshot(board: Board) -> dict[int, tuple]:
        out: dict[int, tuple] = {}
        for p in board.pieces.values():
            if p.map is None:
                continue
            look = looks.get((p.type, p.state))
            if look is None:
                look = looks[(p.type, p.state)] = (images(_shown_image(p)), names(p.name), *_mask(p, images, names))
            stack = board.stacks.get(p.stack or "")
            z = stack.children.index(p.id) if stack is not None and p.id in stack.children else 0
            offset = 0 if stack is None or stack.deck else z
            pid = pieces(p.id)
            out[pid] = (pid, maps(p.map), p.x, p.y, offset, z, *look[:2], locations(replayer.where(p.map, p.x, p.y).label),
                        *look[2:])
        return out

    start_turn = _turn(replayer.initial_turn, art.view)
    with paused_gc():
        current = snapshot(replayer.board)
        start = sorted(current.values())
        steps: list[dict] = []
        for line in replay_lines(record, replayer, art.view):
            if not steps or steps[-1]["n"] != line.step:
                now = snapshot(replayer.board)
                delta = [list(row) for pid, row in now.items() if current.get(pid) != row]
                delta += [[pid] for pid in current if pid not in now]
                current = now
                steps.append({"n": line.step, "d": sorted(delta), "l": []})
            step = steps[-1]
            step["l"].append([line_text(line), line.kind, 1 if line.undone_by else 0])
            if line.kind == "turn":
                step["t"] = _turn_text(line.data)
            elif line.kind == "move":
                a, b = line.data["from"], line.data["to"]
                if a and b and a.get("map") is not None and a.get("map") == b.get("map"):
                    step.setdefault("m", []).append([maps(a["map"]), a["x"], a["y"], b["x"], b["y"]])
    for i, step in enumerate(steps, 1):
        assert step.pop("n") == i, "steps are numbered 1, 2, ... in log order"
    return {"pieces": pieces.items(), "maps": maps.items(), "images": images.items(), "names": names.items(),
            "locations": locations.items(), "start": [list(r) for r in start], "steps": steps,
            "start_turn": _turn_text(start_turn) if start_turn["turn"] is not None else "",
            "module": record.source.metadata.get("module.name") or art.view.name or "",
            "undo_count": sum(1 for s in record.steps if s.is_undo)}


def _mask(p, images: _Table, names: _Table) -> tuple[int, ...]:
    """(owner, image, name) of the Mask (`obs;`, vassal-formats.md 3.14) that hides the piece, or
    (owner, -1, -1) of the Invisible trait (`hide;`, 3.15) that hides it whole; () when it is shown.
    The state's first field names who masked or hid it (`null`: nobody); the outermost trait counts."""
    for t in p.traits:
        if t.prefix in ("obs;", "hide;"):
            owner = split(t.state, ";")[0]
            if not owner or owner == "null":
                continue
            if t.prefix == "hide;":
                return names(owner), -1, -1
            if len(t.fields) > 4:
                return names(owner), images(t.fields[1]), names(t.fields[4] or "?")
    return ()


def _shown_image(p) -> str:
    """The image on top: the outermost Layer (`emb2;`) whose active level has an image and is not
    drawn underneath the piece, else the BasicPiece's image."""
    traits = p.traits
    for t in traits[:-1]:
        if t.prefix != "emb2;" or len(t.fields) < 16:
            continue
        try:
            level = int(t.state)
        except ValueError:
            continue
        layer_images = split(t.fields[15], ",")
        if 0 < level <= len(layer_images) and layer_images[level - 1] and t.fields[12] != "true":
            return layer_images[level - 1]
    basic = traits[-1]
    return basic.fields[2] if basic.prefix == "piece;" and len(basic.fields) > 2 else ""


def board_at(frames: dict, step: int) -> dict[str, tuple]:
    """piece id -> (map, x, y, location, name) after `step` (0: the start), from the page's data: what
    the page shows, for tests and tools."""
    rows = {r[0]: r for r in frames["start"]}
    for s in frames["steps"][:step]:
        for r in s["d"]:
            if len(r) == 1:
                rows.pop(r[0], None)
            else:
                rows[r[0]] = r
    maps = [m["name"] if isinstance(m, dict) else m for m in frames["maps"]]
    return {frames["pieces"][r[0]]: (maps[r[1]], r[2], r[3], frames["locations"][r[8]],
                                 frames["names"][r[7]]) for r in rows.values()}

