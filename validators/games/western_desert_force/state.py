"""Where the Western Desert Force auditor is in the turn: turn, phase, active side.

The module's turn tracker walks the phases of `tables/sequence.yaml` (one per Organization
segment and per phase of each player turn, 4.0), so every act lands in the log under the
phase the rules give it.  Rules mixins learn of phase changes through two hooks:
`phase_ended(kind, side)` and `phase_started(kind, side)`; every hook and event handler a
mixin overrides must call `super()` so that the other mixins receive it too.
"""
from __future__ import annotations

import re

from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Added, Event, Moved, Said, TurnChanged

DECLARATION = re.compile(r"^\*?\s*(?P<what>Combat|Strategic movement|Sea transfer): (?P<name>.+?) "
                         r"(?:(?P<role>attacks from|defends in|from) )(?P<hex>\S+)\s*\*?$")


class PhaseState(BaseAuditor):
    """Turn and phase from the turn tracker; sides by id ('allied', 'axis')."""

    def start(self) -> None:
        g = self.game
        self.phase_specs: list[dict] = list(g.tables["sequence"].data["phases"])
        self.phase_kind: str | None = None
        self.active_side: str | None = None  # side id of the phase's active player
        self.tables = {k: t.data for k, t in g.tables.items()}
        self.place_hex = {p.name: p.hex for p in g.map.places}
        start_control = self.tables.get("victory", {}).get("control_at_start", {})
        self.place_control = {self.place_hex[n]: s for n, s in start_control.items() if n in self.place_hex}
        for h in self.place_control:
            held = {self.side_id(p) for p in self.units_in(h)}
            if len(held) == 1:
                self.place_control[h] = held.pop()
        super().start()

    # -- control of places (Tobruk, Benghazi: 8.4, 7.32, 17.2) ---------------------------
    def dispatch(self, e: Event) -> None:
        """A combat unit entering a controlled place takes it before any rule looks (8.4)."""
        where = e.new if isinstance(e, Moved) else e.where if isinstance(e, Added) else None
        if where is not None and where.label in self.place_control and self.unit_of(e.piece):
            self.place_control[where.label] = self.side_id(e.piece)
        super().dispatch(e)

    def place_controller(self, hex_id: str) -> str | None:
        """The side that occupies the place or last occupied it (8.4); None: not tracked."""
        return self.place_control.get(hex_id)

    # -- turn tracker ---------------------------------------------------------------------
    def on_turn(self, e: TurnChanged) -> None:
        old_turn, old_kind, old_side = self.turn, self.phase_kind, self.active_side
        new_turn = e.turn if e.turn is not None else self.turn
        spec = self.phase_specs[e.phase_index] if e.phase_index is not None and 0 <= e.phase_index < len(self.phase_specs) else None
        if old_kind is not None:
            self.phase_ended(old_kind, old_side)
        if new_turn != old_turn and old_turn is not None and old_kind is not None:
            self.turn_ended(old_turn)
        self.turn = new_turn
        self.phase = spec["name"] if spec else None
        self.phase_kind = spec.get("kind") if spec else None
        self.active_side = spec.get("side") if spec else None
        self.side_acting = self.game.sides[self.active_side].name if self.active_side else None
        if self.phase_kind is not None:
            self.phase_started(self.phase_kind, self.active_side)
        super().on_turn(e)

    def phase_started(self, kind: str, side: str | None) -> None: ...
    def phase_ended(self, kind: str, side: str | None) -> None: ...
    def turn_ended(self, turn: int) -> None: ...

    # -- declarations (Declare attacker / target, Strategic movement, Sea transfer) -----
    def on_said(self, e: Said) -> None:
        m = DECLARATION.match(e.text.strip())
        if m:
            piece = self.piece_named(m["name"], m["hex"])
            if piece is not None:
                role = {"attacks from": "attacker", "defends in": "target"}.get(m["role"], m["what"].lower())
                self.declared(role, piece, m["hex"])
        super().on_said(e)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        """role: attacker, target, strategic movement, sea transfer."""

    # -- pieces ---------------------------------------------------------------------------
    def piece_named(self, name: str, hex_id: str) -> Piece | None:
        """The piece a report names, found in the hex the report gives."""
        for p in self.pieces_in(hex_id):
            if p.name == name:
                return p
        return None

    def leader_of(self, p: Piece):
        return self.game.leaders.get(p.properties().get("LeaderId", ""))

    def supplied(self, hex_id: str, side: str) -> bool:
        """Whether a unit of `side` in `hex_id` is in supply now (8.1); the supply mixin overrides."""
        return True
