"""Where a match is: the kernel's game state (rule 4's phases), the side of the last chit drawn acting.

Choice (4): the audit starts at the first turn and phase, whatever a saved game's tracker shows;
a tracker move to no known phase keeps the phase (a turn change still counts).
"""
from __future__ import annotations

from validators.kernel.state import GameState
from validators.replay.replayer import Moved, Said, TurnChanged


class BraveryState(GameState):
    """Turn and phase from the tracker; the acting side from the chit drawn."""

    def __init__(self, board, notify):
        super().__init__(board, notify)
        g = self.game
        self.turn = g.info.turns.first
        self.phase = self.phase_specs[0]["name"] if self.phase_specs else None
        self.mug = g.map.decks[0].name if g.map.decks else "Mug"
        self.activation_boxes = {name: int(b) for name, b in board.track_boxes("activation").items()}

    def initial_phase(self) -> TurnChanged | None:
        return None  # see the Choice

    def follow(self, e: TurnChanged) -> None:
        if e.phase_index is not None and 0 <= e.phase_index < len(self.phase_specs):
            super().follow(e)
        elif e.turn is not None:
            self.turn = e.turn

    def phasing(self) -> str | None:
        """The side of the chit last drawn."""
        return self.board.side_ids.get(self.side_acting or "")

    def moved(self, e: Moved) -> None:
        if e.old.label == self.mug and e.new.label in self.activation_boxes and e.piece.properties().get("Kind") == "chit":
            self.side_acting = e.piece.properties().get("Side")

    def read_declaration(self, e: Said) -> None:
        return None  # no rule reads one (game.yaml's Eliminate is read as the move it makes)
