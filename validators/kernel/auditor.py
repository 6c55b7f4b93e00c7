"""What every game's auditor shares: the board seen as units on hexes, and how findings are made.

A game module subclasses `BaseAuditor`, handles the events it cares about (`on_moved`,
`on_flipped`, `on_rolled`, ...) and calls `self.find(rule, message, ...)`.
"""
from __future__ import annotations

from builder.model import schema as s
from builder.model.game import Game
from validators.findings import Finding
from validators.replay.board import Piece
from validators.replay.replayer import (Added, Event, Flipped, Moved, Removed, Replayer, Rolled, Said,
                                        TurnChanged)
from validators.vlog.reader import Step


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
        self.dice_by_side: dict[str, int] = {}
        self._index: dict[str, list[Piece]] = {}
        self._hex_keys: dict[str, set] = {}  # hex -> board positions inside it

    # -- the board as units ---------------------------------------------------------------
    def unit_of(self, p: Piece) -> s.Unit | None:
        return self.units.get(p.properties().get("UnitId", ""))

    def side_of(self, p: Piece) -> str | None:
        return p.properties().get("Side")

    def hex_of(self, p: Piece) -> str | None:
        where = self.replayer.piece_where(p)
        return where.label if where.label in self.game.geometry else None

    def _by_hex(self) -> dict[str, list[Piece]]:
        """Pieces by hex, updated from the positions the board changed since the last look."""
        board = self.replayer.board
        if board.dirty:
            touched = set()
            for key in board.dirty:
                label = self.replayer.where(*key).label if key[0] is not None else None
                if label in self.game.geometry:
                    keys = self._hex_keys.setdefault(label, set())
                    (keys.add if key in board.at else keys.discard)(key)
                    touched.add(label)
            board.dirty.clear()
            for label in touched:
                pieces = [board.pieces[i] for key in sorted(self._hex_keys[label], key=str) for i in board.at[key]]
                if pieces:
                    self._index[label] = pieces
                else:
                    self._index.pop(label, None)
        return self._index

    def pieces_in(self, hex_id: str) -> list[Piece]:
        return list(self._by_hex().get(hex_id, ()))

    def units_in(self, hex_id: str, side: str | None = None) -> list[Piece]:
        return [p for p in self._by_hex().get(hex_id, ()) if self.unit_of(p) and (side is None or self.side_of(p) == side)]

    def units_on_map(self) -> list[Piece]:
        return [p for ps in self._by_hex().values() for p in ps if self.unit_of(p)]

    def occupied_by_enemy(self, side: str) -> set[str]:
        """Hexes holding units of another side than `side`."""
        return {h for h, ps in self._by_hex().items() if any(self.unit_of(p) and self.side_of(p) != side for p in ps)}

    @staticmethod
    def reduced(p: Piece) -> bool:
        return p.layer_level("Step") == 2

    # -- findings ---------------------------------------------------------------------------
    def find(self, rule: str, message: str, piece: Piece | None = None, from_hex: str | None = None,
             to_hex: str | None = None, path=(), kind: str = "violation", side: str | None = None) -> None:
        self.findings.append(Finding(self.step_index, self.turn, side or (self.side_of(piece) if piece else self.side_acting),
                                     piece.name if piece else None, from_hex, to_hex, rule, message, kind,
                                     tuple(path), self.phase))

    # -- dispatch ---------------------------------------------------------------------------
    def run(self) -> list[Finding]:
        self.start()
        for step, events in self.replayer.steps():
            self.step_index = step.index
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
        handler = {Moved: self.on_moved, Flipped: self.on_flipped, Added: self.on_added, Removed: self.on_removed,
                   Rolled: self.on_rolled, TurnChanged: self.on_turn, Said: self.on_said}[type(e)]
        handler(e)

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
