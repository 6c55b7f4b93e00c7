"""What every game's auditor shares: the board seen as units on hexes (`BoardView`), the
replay's events dispatched to hooks, and how findings are made.

A game's rules are registered objects run by `validators.kernel.engine` (see
docs/rules-kernel.md); games not yet moved onto it subclass `BaseAuditor`, handle the events
they care about (`on_moved`, `on_flipped`, `on_rolled`, ...) and call `self.find(rule, message,
...)`.  One illegal act is one finding: while a piece moves, a second finding of
the same rule for the same piece in the same move scope (`move_scope`: a phase, an activation)
is a follow-on of the first and is not reported again.
"""
from __future__ import annotations

from builder.model.game import Game
from validators.findings import Finding
from validators.kernel.board_view import BoardView
from validators.replay.board import Piece
from validators.replay.replayer import (Added, Event, Flipped, Moved, Removed, Replayer, Rolled, Said,
                                        TurnChanged)
from validators.vlog.reader import Step


_HANDLERS = {Flipped: "on_flipped", Added: "on_added", Removed: "on_removed", Rolled: "on_rolled",
             TurnChanged: "on_turn", Said: "on_said"}  # event type -> the hook that handles it


class BaseAuditor(BoardView):
    def __init__(self, game: Game, replayer: Replayer):
        super().__init__(game, replayer)
        self.findings: list[Finding] = []
        self.step_index = 0
        self.turn: int | None = game.info.turns.first
        self.phase: str | None = None
        self.side_acting: str | None = None
        self.dice_buttons = {d.name: d.side for d in game.info.dice}
        self.dice_by_side: dict[str, int] = {}
        self._moving: Moved | None = None  # the move being dispatched
        self._reported: dict[tuple, tuple[Moved, int]] = {}  # (piece id, rule, move scope) -> (move, finding index)

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
            self.findings[i] = f.replace(message=f"{f.message}; {message}")

    # -- dispatch ---------------------------------------------------------------------------
    def run(self) -> list[Finding]:
        self.start()
        begin, before, dispatch, after = self.begin_step, self.before_step, self.dispatch, self.after_step
        for step, events in self.replayer.steps():
            self.step_index = step.index
            begin(events)
            before(step)
            for e in events:
                dispatch(e)
            after(step)
        self.finish()
        return self.findings

    def dispatch(self, e: Event) -> None:
        if isinstance(e, Moved):  # most of a log's events (the two types are disjoint: the order is free)
            self._moving = e
            try:
                self.on_moved(e)
            finally:
                self._moving = None
            return
        if isinstance(e, Rolled):
            side = self.dice_buttons.get(e.button)
            if side:
                name = self.game.sides[side].name if side in self.game.sides else side
                self.dice_by_side[name] = self.dice_by_side.get(name, 0) + len(e.dice)
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
