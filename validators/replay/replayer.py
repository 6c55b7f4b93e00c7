"""From logged commands to game events: who moved what from where to where, flips, dice.

The replayer applies each effective step to a `Board` and describes what changed in terms a
rules module reads: `Moved`, `Flipped`, `Added`, `Removed`, `Rolled`, `TurnChanged`, `Said`.
Steps undone in the log (VASSAL 3.6.7+ undo markers) are treated as never made: the undone
step and the undo step are both left out, which leaves the same board.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from builder.vassal.sequence import split
from builder.record import FrozenRecord, Record
from validators.replay.board import Board, Piece
from validators.vlog.commands import AddPiece, ChangePiece, Chat, MovePiece, RemovePiece, Turn
from validators.vlog.modulegrid import OFFBOARD, MapSpec
from validators.vlog.reader import GameRecord, Step

_DICE = re.compile(r"^\*{2,3} (?P<name>.+?) = (?P<result>-?\d{1,9}(?:,-?\d{1,9})*) \*\*\*\s*(?:<|&lt;)(?P<player>.*?)(?:>|&gt;)\s*$")


class Where(FrozenRecord):
    """Where a piece stands: its map, point and the name there (hex, zone or deck)."""

    _fields = __slots__ = ("map", "x", "y", "label")

    def __init__(self, map: str | None, x: int, y: int, label: str):
        setattr_ = object.__setattr__  # made at every move: the fields set directly (builder/record.py)
        setattr_(self, "map", map)
        setattr_(self, "x", x)
        setattr_(self, "y", y)
        setattr_(self, "label", label)  # a hex label, zone or deck name, or "offboard"


class Moved(Record):
    """A piece dragged or sent from one place to another."""

    __slots__ = ("piece", "old", "new", "player")

    def __init__(self, piece: Piece, old: Where, new: Where, player: str | None):
        self.piece, self.old, self.new, self.player = piece, old, new, player


class Flipped(Record):
    """A piece turned to another level of one of its layers (a flip, a step loss ...)."""

    __slots__ = ("piece", "layer", "old", "new", "where")

    def __init__(self, piece: Piece, layer: str, old: int, new: int, where: Where):
        self.piece, self.layer, self.old, self.new, self.where = piece, layer, old, new, where


class Added(Record):
    """A piece added to the game (an AddPiece command), where it stands."""

    __slots__ = ("piece", "where")

    def __init__(self, piece: Piece, where: Where):
        self.piece, self.where = piece, where


class Removed(Record):
    """A piece removed from the game (a RemovePiece command), where it stood."""

    __slots__ = ("piece", "where")

    def __init__(self, piece: Piece, where: Where):
        self.piece, self.where = piece, where


class Rolled(Record):
    """A roll of the dice, as the chat reports it."""

    __slots__ = ("button", "dice", "player")

    def __init__(self, button: str, dice: tuple[int, ...], player: str):
        self.button, self.dice, self.player = button, dice, player


class TurnChanged(Record):
    """The turn counter changed: the new turn and phase index (None where not known)."""

    __slots__ = ("turn", "phase_index")

    def __init__(self, turn: int | None, phase_index: int | None):
        self.turn, self.phase_index = turn, phase_index


class Said(Record):
    """A line of chat that is not a dice report."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


Event = Moved | Flipped | Added | Removed | Rolled | TurnChanged | Said
# Events are plain slotted records, read and never changed: a long log makes one per move, so a
# frozen dataclass would cost several times as much to make (issue 15).


def _unescape(text: str) -> str:
    """`html.unescape`, importing html only for a text with an entity (issue 36: start-up)."""
    if "&" not in text:
        return text
    import html

    return html.unescape(text)


def parse_dice(chat: str) -> Rolled | None:
    if chat[:2] != "**" and chat[:1] != "&":  # neither a dice line nor one HTML-escaped (most chat)
        return None
    m = _DICE.match(_unescape(chat) if "&lt;" not in chat else chat)
    if not m:
        return None
    return Rolled(m["name"], tuple(int(x) for x in m["result"].split(",")), _unescape(m["player"]))


def parse_turn_state(state: str) -> TurnChanged:
    """TURN state: currentLevel | level1 (current;sub;loop;limit;sublevel...) (§4.6)."""
    levels = split(state, "|")
    if len(levels) < 2:
        return TurnChanged(None, None)
    top = split(levels[1], ";")
    try:
        turn = int(top[0])
    except (ValueError, IndexError):
        turn = None
    phase = None
    if len(top) > 4 and top[4]:
        try:
            phase = int(split(top[4], ";")[0])
        except ValueError:
            phase = None
    return TurnChanged(turn, phase)


def effective_steps(record: GameRecord) -> list[Step]:
    """The steps that count: every undo retracts the latest step not yet retracted."""
    done: list[Step] = []
    for step in record.steps:
        if step.is_undo:
            if done:
                done.pop()
        else:
            done.append(step)
    return done


class Replayer:
    def __init__(self, record: GameRecord, grids: dict[str, MapSpec], identify: Callable[[Piece], None] | None = None):
        """`identify` reads another module's pieces as ours (validators/replay/identity.py)."""
        self.record, self.grids = record, grids
        self.board = Board()
        self.board.identify = identify
        self.board.layers = {name: spec.layers for name, spec in grids.items() if spec.layers}
        self._where: dict[tuple[str | None, int, int], Where] = {}
        self.initial_turn = TurnChanged(None, None)
        for c in record.setup:
            self.board.apply(c)
            if isinstance(c, Turn):
                self.initial_turn = parse_turn_state(c.state)

    def where(self, map_id: str | None, x: int, y: int) -> Where:
        key = (map_id, x, y)
        found = self._where.get(key)
        if found is None:
            spec = self.grids.get(map_id or "")
            found = self._where[key] = Where(map_id, x, y, spec.location(x, y) if spec else OFFBOARD)
        return found

    def piece_where(self, p: Piece) -> Where:
        return self.where(p.map, p.x, p.y)

    def steps(self) -> Iterator[tuple[Step, list[Event]]]:
        for step in effective_steps(self.record):
            yield step, self._apply(step)

    def _apply(self, step: Step) -> list[Event]:
        events: list[Event] = []
        for c in step.commands:
            if isinstance(c, MovePiece):
                self._move(c, events)
            elif isinstance(c, Chat):  # the next most common (types are disjoint: the order is free)
                roll = parse_dice(c.text)
                events.append(roll if roll else Said(c.text))
            elif isinstance(c, ChangePiece) and c.id in self.board.pieces:
                events += self._change(c)
            elif isinstance(c, AddPiece):
                self.board.apply(c)
                if c.type != "stack" and c.id in self.board.pieces:
                    p = self.board.pieces[c.id]
                    events.append(Added(p, self.piece_where(p)))
            elif isinstance(c, RemovePiece):
                p = self.board.pieces.get(c.id)
                where = self.piece_where(p) if p else None
                self.board.apply(c)
                if p:
                    events.append(Removed(p, where))
            elif isinstance(c, Turn):
                events.append(parse_turn_state(c.state))
            else:
                self.board.apply(c)
        return events

    def _move(self, c: MovePiece, events: list[Event]) -> None:
        """The Moved events of a move, appended to `events`: one per piece it carries.  A move
        stays on the board (pieces are only added and removed by their own commands), so a
        piece found before it is there after it."""
        board = self.board
        if c.id not in board.stacks:  # one piece (most moves): no list of the pieces carried
            p = board.pieces.get(c.id)
            if p is None:
                board.apply(c)
                return
            old = self.where(p.map, p.x, p.y)
            board.apply(c)
            events.append(Moved(p, old, self.where(p.map, p.x, p.y), c.player))
            return
        pieces = board.pieces  # a stack: each piece it carries, once
        before = {i: (pieces[i], self.piece_where(pieces[i])) for i in board.stacks[c.id].children if i in pieces}
        board.apply(c)
        events += [Moved(p, old, self.piece_where(p), c.player) for p, old in before.values()]

    def _change(self, c: ChangePiece) -> list[Event]:
        p = self.board.pieces[c.id]
        old_levels = _layers(p)
        old_where = self.piece_where(p)
        self.board.apply(c)
        new_levels = _layers(p)
        return [Flipped(p, name, old_levels[name], level, old_where)
                for name, level in new_levels.items() if old_levels.get(name) not in (None, level)]


def _layers(p: Piece) -> dict[str, int]:
    out = {}
    for t in p.traits:
        if t.prefix == "emb2;" and len(t.fields) > 18:
            try:
                out[t.fields[18]] = int(t.state)
            except ValueError:
                pass
    return out
