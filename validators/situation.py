"""The counters on the map as they stood at a finding's step, for the HTML report's pictures.

The audit keeps no board history (a long log would hold thousands of boards), so the pictures
replay the record a second time and take a snapshot of the main map after each step that has a
finding, stopping after the last one.  Only the HTML report asks for this: the findings and
their JSON carry no snapshot.

A counter is drawn with the image VASSAL shows for it: the image of the outermost active Layer
level, else the BasicPiece image; those names are the files the module puts in `images/`, drawn
here from the game model by the same function as the .vmod (`builder/render/counters.draw_face`).
"""
from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from builder.model.game import Game
from builder.render.counters import all_faces, draw_face, draw_moved_flag
from builder.vassal.buildfile import MAP_ID
from builder.vassal.pieces import MOVED_IMAGE
from builder.vassal.sequence import split
from validators.findings import AuditReport
from validators.replay.board import Board, Piece
from validators.replay.replayer import Replayer
from validators.vlog.container import LogFormatError
from validators.vlog.reader import GameRecord, paused_gc, read_record


@dataclass(frozen=True)
class Counter:
    """One counter as drawn: its point on the map (the built module's map has no edge and one
    board, buildfile.py, so map pixels are board pixels), its image and its place in its stack."""

    x: int
    y: int
    image: str  # image file shown; "" when the piece shows none
    name: str  # the name VASSAL shows, the label of a counter whose image is not known
    level: int = 0  # 0: bottom of its stack (or alone)
    moved: bool = False  # shows the Mark When Moved flag (pieces.mark_moved)


Situation = tuple[Counter, ...]  # bottom counters first within each stack


def shown_image(p: Piece) -> str:
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
        images = split(t.fields[15], ",")
        if 0 < level <= len(images) and images[level - 1] and t.fields[12] != "true":
            return images[level - 1]
    basic = traits[-1]
    return basic.fields[2] if basic.prefix == "piece;" and len(basic.fields) > 2 else ""


def has_moved(p: Piece) -> bool:
    return any(t.prefix == "markmoved;" and t.state == "true" for t in p.traits)


def snapshot(board: Board, map_id: str = MAP_ID) -> Situation:
    """The counters on one map: each stack bottom first; of a draw pile only its top piece."""
    out: list[Counter] = []
    for p in board.pieces.values():
        if p.map != map_id:
            continue
        stack = board.stacks.get(p.stack or "")
        level = 0
        if stack is not None and p.id in stack.children:
            if stack.deck and p.id != stack.children[-1]:
                continue
            level = 0 if stack.deck else stack.children.index(p.id)
        out.append(Counter(p.x, p.y, shown_image(p), p.name, level, has_moved(p)))
    return tuple(sorted(out, key=lambda c: (c.y, c.x, c.level)))


def situations(record: GameRecord, steps: Iterable[int], map_id: str = MAP_ID) -> dict[int, Situation]:
    """Snapshots after each wanted step (0: the starting position), replayed as the audit does."""
    wanted = set(steps)
    if not wanted:
        return {}
    last = max(wanted)
    replayer = Replayer(record, {})  # hex labels are not needed: only pixels
    out: dict[int, Situation] = {}
    if 0 in wanted:
        out[0] = snapshot(replayer.board, map_id)
    with paused_gc():
        for step, _ in replayer.steps():
            if step.index in wanted:
                out[step.index] = snapshot(replayer.board, map_id)
            if step.index >= last:
                break
    return out


def situations_for(report: AuditReport) -> dict[int, Situation]:
    """The report's log read and replayed again; no pictures of counters (an empty answer) when
    it can no longer be read."""
    if not report.findings:
        return {}
    try:
        record = read_record(Path(str(report.log)))
    except (LogFormatError, OSError, RecursionError):
        return {}
    return situations(record, (f.step for f in report.findings))


_FACES: dict[int, tuple[weakref.ref, dict[str, object], dict[str, Image.Image | None]]] = {}


def face_image(game: Game, image: str) -> Image.Image | None:
    """The module's counter image of that file name (or its moved flag, RGBA), drawn once per
    process; None if the module has no such image (a piece of another module)."""
    entry = _FACES.get(id(game))
    if entry is None or entry[0]() is not game:
        entry = _FACES[id(game)] = (weakref.ref(game), {a.file: a for a in all_faces(game)}, {})
    _, arts, drawn = entry
    if image not in drawn:
        art = arts.get(image)
        if image == MOVED_IMAGE:
            drawn[image] = draw_moved_flag().convert("RGBA")
        else:
            drawn[image] = draw_face(game, art, game.info.counter.pixels).convert("RGB") if art else None
    return drawn[image]
