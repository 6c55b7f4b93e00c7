"""What every game's auditor shares: the board seen as units on hexes, and how findings are made.

A game module subclasses `BaseAuditor`, handles the events it cares about (`on_moved`,
`on_flipped`, `on_rolled`, ...) and calls `self.find(rule, message, ...)`.

Real play moves pieces in every way the table allows: the engine logs a dragged stack as one
step with a move of each of its pieces, a unit pulled out of a stack as a step of its own, an
undo as the step's inverse.  Handlers see the board as it stands after the whole step, so the
kernel also keeps the step's moves (`step_moves`) and answers where pieces stood when the step
began (`stood_in`).  One illegal act is one finding: while a piece moves, a second finding of
the same rule for the same piece in the same move scope (`move_scope`: a phase, an activation)
is a follow-on of the first and is not reported again.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from builder.model.game import Game
from validators.findings import Finding
from validators.replay.board import Piece
from validators.replay.replayer import (Added, Event, Flipped, Moved, Removed, Replayer, Rolled, Said,
                                        TurnChanged)
from validators.vlog.reader import Step

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


_HANDLERS = {Flipped: "on_flipped", Added: "on_added", Removed: "on_removed", Rolled: "on_rolled",
             TurnChanged: "on_turn", Said: "on_said"}  # event type -> the hook that handles it


class BaseAuditor:
    def __init__(self, game: Game, replayer: Replayer):
        self.game, self.replayer = game, replayer
        self.units = {u.id: u for u in game.units}
        self.findings: list[Finding] = []
        self.step_index = 0
        self.turn: int | None = game.info.turns.first
        self.phase: str | None = None
        self.side_acting: str | None = None
        self.dice_buttons = {d.name: d.side for d in game.info.dice}
        self.side_ids = {x.name: x.id for x in game.info.sides}  # the Side property's value -> side id
        self.side_names = {x.id: x.name for x in game.info.sides}
        self.other_side = {a: b for a in self.side_names for b in self.side_names if a != b}
        self.dice_by_side: dict[str, int] = {}
        self._index: dict[str, list[Piece]] = {}
        self._hex_keys: dict[str, set] = {}  # hex -> board positions inside it
        self._key_hex: dict[tuple, str | None] = {}  # board position -> its hex (None: not in a hex)
        self._stale: set[str] = set()  # hexes whose list in _index waits to be rebuilt
        self._on_map: tuple[int, list[Piece]] = (-1, [])  # (board version, units_on_map())
        self.step_moves: list[Moved] = []  # the moves of the step being audited, in log order
        self._step_start: dict[str, str] = {}  # piece id -> where it stood when the step began
        self._moving: Moved | None = None  # the move being dispatched
        self._reported: dict[tuple, tuple[Moved, int]] = {}  # (piece id, rule, move scope) -> (move, finding index)

    # -- the board as units ---------------------------------------------------------------
    def unit_of(self, p: Piece) -> s.Unit | None:
        return self.units.get(p.properties().get("UnitId", ""))

    def side_of(self, p: Piece) -> str | None:
        return p.properties().get("Side")

    def side_id(self, p: Piece) -> str | None:
        return self.side_ids.get(self.side_of(p) or "")

    def side_name(self, side: str | None) -> str | None:
        return self.side_names.get(side or "")

    def hex_of(self, p: Piece) -> str | None:
        where = self.replayer.piece_where(p)
        return where.label if where.label in self.game.geometry else None

    def _by_hex(self) -> dict[str, list[Piece]]:
        """Pieces by hex, updated from the positions the board changed since the last look."""
        self._note_moves()
        if self._stale:
            for label in self._stale:
                self._rebuild(label)
            self._stale.clear()
        return self._index

    def _in_hex(self, hex_id: str) -> list[Piece]:
        """`_by_hex()[hex_id]`, rebuilding only that hex: a move leaves its old hex stale too,
        and most rules ask about the new one only (issue 15)."""
        self._note_moves()
        if hex_id in self._stale:
            self._stale.discard(hex_id)
            self._rebuild(hex_id)
        return self._index.get(hex_id, [])

    def _note_moves(self) -> None:
        """Which hexes the board positions changed since the last look lie in (made stale)."""
        board = self.replayer.board
        if not board.dirty:
            return
        at, key_hex, hex_keys = board.at, self._key_hex, self._hex_keys
        for key in board.dirty:
            label = key_hex.get(key, "")
            if label == "":  # a position not seen before: which hex is it in, if any
                where = self.replayer.where(*key).label if key[0] is not None else None
                label = key_hex[key] = where if where in self.game.geometry else None
            if label is not None:
                keys = hex_keys.setdefault(label, set())
                (keys.add if key in at else keys.discard)(key)
                self._stale.add(label)
        board.dirty.clear()

    def _rebuild(self, label: str) -> None:
        at, pieces_of = self.replayer.board.at, self.replayer.board.pieces
        keys = self._hex_keys[label]
        ordered = sorted(keys, key=str) if len(keys) > 1 else keys
        pieces = [pieces_of[i] for key in ordered for i in at[key]]
        if pieces:
            self._index[label] = pieces
        else:
            self._index.pop(label, None)

    def pieces_in(self, hex_id: str) -> list[Piece]:
        return list(self._in_hex(hex_id))

    def units_in(self, hex_id: str, side: str | None = None) -> list[Piece]:
        return self._units(self._in_hex(hex_id), side)

    def enemies_in(self, hex_id: str, side: str | None) -> list[Piece]:
        """The units in a hex of another side than `side`."""
        return self._units(self._in_hex(hex_id), side, enemy=True)

    def _units(self, pieces, side: str | None = None, enemy: bool = False) -> list[Piece]:
        """The units among `pieces`: all, those of `side`, or (`enemy`) those of any other side.
        `unit_of` and `side_of` in one look at each piece's properties (a hot path)."""
        units, out = self.units, []
        for p in pieces:
            props = p.properties()
            if props.get("UnitId", "") in units and (props.get("Side") != side if enemy else
                                                     side is None or props.get("Side") == side):
                out.append(p)
        return out

    def stood_in(self, hex_id: str) -> list[Piece]:
        """The pieces in a hex when the current step began (a dragged stack has left it by now)."""
        start = self._step_start
        here = [p for p in self.pieces_in(hex_id) if p.id not in start]
        board = self.replayer.board.pieces
        return here + [board[i] for i, h in start.items() if h == hex_id and i in board]

    def moved_with(self, e: Moved) -> list[Piece]:
        """The pieces that made the same move as `e` in its step: a stack dragged as one."""
        return [m.piece for m in self.step_moves if m.old.label == e.old.label and m.new.label == e.new.label]

    def units_on_map(self) -> list[Piece]:
        version = self.replayer.board.version  # rules ask several times per step: kept until the board changes
        if self._on_map[0] != version:
            self._on_map = (version, self._units(p for ps in self._by_hex().values() for p in ps))
        return list(self._on_map[1])

    def occupied_by_enemy(self, side: str) -> set[str]:
        """Hexes holding units of another side than `side`."""
        return {h for h, ps in self._by_hex().items() if self._units(ps, side, enemy=True)}

    @staticmethod
    def reduced(p: Piece) -> bool:
        return p.layer_level("Step") == 2

    # -- findings ---------------------------------------------------------------------------
    def move_scope(self) -> object:
        """What one move belongs to, for one finding per act: by default the turn and phase."""
        return self.turn, self.phase, self.side_acting

    def find(self, rule: str, message: str, piece: Piece | None = None, from_hex: str | None = None,
             to_hex: str | None = None, path=(), kind: str = "violation", side: str | None = None) -> None:
        moving = self._moving
        if piece is not None and moving is not None and moving.piece.id == piece.id:
            key = (piece.id, rule, self.move_scope())
            first = self._reported.get(key)
            if first is not None:
                self._follow_on(first, message)
                return
            self._reported[key] = (moving, len(self.findings))
            from_hex = from_hex or moving.old.label
            to_hex = to_hex or moving.new.label  # a refused move still says where the piece went
        self.findings.append(Finding(self.step_index, self.turn, side or (self.side_of(piece) if piece else self.side_acting),
                                     piece.name if piece else None, from_hex, to_hex, rule, message, kind,
                                     tuple(path), self.phase))

    def is_follow_on(self, piece: Piece, rule: str) -> bool:
        """Whether a finding of `rule` for `piece` now would follow on from an earlier move's
        finding, which `find` drops: a caller may skip working out a costly message."""
        moving = self._moving
        if moving is None or moving.piece.id != piece.id:
            return False
        first = self._reported.get((piece.id, rule, self.move_scope()))
        return first is not None and first[0] is not moving

    def _follow_on(self, first: tuple[Moved, int], message: str) -> None:
        """A second finding of the same rule on the same act: another reason given by the same
        move joins the first finding; the rule broken again at a later hex is not reported."""
        move, i = first
        f = self.findings[i]
        if move is self._moving and message not in f.message:
            self.findings[i] = replace(f, message=f"{f.message}; {message}")

    # -- dispatch ---------------------------------------------------------------------------
    def run(self) -> list[Finding]:
        self.start()
        for step, events in self.replayer.steps():
            self.step_index = step.index
            self.step_moves = [e for e in events if isinstance(e, Moved)]
            self._step_start = {}
            for m in self.step_moves:
                self._step_start.setdefault(m.piece.id, m.old.label)
            self.before_step(step)
            for e in events:
                self.dispatch(e)
            self.after_step(step)
        self.finish()
        return self.findings

    def dispatch(self, e: Event) -> None:
        if isinstance(e, Rolled):
            side = self.dice_buttons.get(e.button)
            if side:
                name = self.game.sides[side].name if side in self.game.sides else side
                self.dice_by_side[name] = self.dice_by_side.get(name, 0) + len(e.dice)
        if isinstance(e, Moved):
            self._moving = e
            try:
                self.on_moved(e)
            finally:
                self._moving = None
            return
        getattr(self, _HANDLERS[type(e)])(e)

    # hooks, overridden by games
    def start(self) -> None: ...
    def before_step(self, step: Step) -> None: ...
    def after_step(self, step: Step) -> None: ...
    def finish(self) -> None: ...
    def on_moved(self, e: Moved) -> None: ...
    def on_flipped(self, e: Flipped) -> None: ...
    def on_added(self, e: Added) -> None: ...
    def on_removed(self, e: Removed) -> None: ...
    def on_rolled(self, e: Rolled) -> None: ...
    def on_turn(self, e: TurnChanged) -> None: ...
    def on_said(self, e: Said) -> None: ...
