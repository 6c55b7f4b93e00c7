"""Where the Western Desert Force match is in the turn: turn, phase, active side, and who holds
the places whose control the rules read.

The module's turn tracker walks the phases of `tables/sequence.yaml` (one per Organization
segment and per phase of each player turn, 4.0), each with its `kind` and, for a player's
phase, its `side`, so every act lands in the log under the phase the rules give it.  The
kernel's `GameState` reads it; what only this game's turn has is here:

- the phase is unknown until the tracker first moves (a log begins where the players were,
  and its first phase is where it begins, never a jump, 4.0), and the turn is the game's first
  until then;
- a phase ends and a turn ends only once a phase has begun.

Control of a place (Tobruk, Benghazi: 8.4, 7.32, 17.2) is a fact several rules read: the
`Places` tracker keeps it.
"""
from __future__ import annotations

from validators.kernel.rule import Tracker
from validators.kernel.state import GameState
from validators.replay.replayer import Added, Moved, TurnChanged

# game.yaml's declarations by the role they give a unit
ROLES = {"Declare attacker": "attacker", "Declare target": "target",
         "Strategic movement": "strategic movement", "Sea transfer": "sea transfer"}


class WdfState(GameState):
    """Turn and phase from the turn tracker; sides by id ('allied', 'axis')."""

    def __init__(self, board, notify):
        super().__init__(board, notify)
        self.turn = self.game.info.turns.first

    @property
    def active_side(self) -> str | None:
        """The side id of the phase's active player (None: both, or no phase yet)."""
        return self.phase_side

    def initial_phase(self) -> TurnChanged | None:
        return None  # the phase is the tracker's first move (see the module's docstring)

    def follow(self, e: TurnChanged) -> None:
        specs = self.phase_specs
        old_turn, old_kind = self.turn, self.phase_kind
        new_turn = e.turn if e.turn is not None else self.turn
        index = e.phase_index if e.phase_index is not None and 0 <= e.phase_index < len(specs) else None
        if old_kind is not None:
            self.notify("phase_ended", self.phase_id)
            if new_turn != old_turn and old_turn is not None:
                self.notify("turn_ended", old_turn)
        spec = specs[index] if index is not None else None
        self.turn = new_turn
        self.phase = spec["name"] if spec else None
        self.phase_id = spec.get("id", spec["name"]) if spec else None
        self.phase_kind = spec.get("kind") if spec else None
        self.phase_side = spec.get("side") if spec else None
        self.side_acting = self.board.side_names.get(self.phase_side or "")
        self.declarations = []
        if self.phase_kind is not None:
            self.prev_phase_pos, self.phase_pos = self.phase_pos, (self.turn, index)
            self.notify("phase_started", self.phase_id)

    def keeps(self, d) -> bool:
        return d.name in ROLES


class Places(Tracker):
    """8.4: a place is controlled by the side whose combat unit occupies it or last did; at the
    start, by the side whose unit is there, else as tables/victory.yaml says (3.1)."""

    def start(self) -> None:
        self.hex = {p.name: p.hex for p in self.game.map.places}
        start_control = self.tables.get("victory", {}).get("control_at_start", {})
        self.control = {self.hex[n]: s for n, s in start_control.items() if n in self.hex}
        for h in self.control:
            held = {self.board.side_id(p) for p in self.board.units_in(h)}
            if len(held) == 1:
                self.control[h] = held.pop()

    def controller(self, hex_id: str | None) -> str | None:
        """The side that occupies the place or last occupied it (8.4); None: not tracked."""
        return self.control.get(hex_id or "")

    def moved(self, e: Moved) -> None:
        self._entered(e.piece, e.new.label)

    def added(self, e: Added) -> None:
        self._entered(e.piece, e.where.label)

    def _entered(self, piece, label: str) -> None:
        if label in self.control and self.board.unit_of(piece):
            self.control[label] = self.board.side_id(piece)
