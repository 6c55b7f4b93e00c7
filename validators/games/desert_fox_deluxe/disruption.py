"""Recovery from disruption (8.2): digest 10.1 rank 11.

"Recovery occurs automatically at the end of any friendly Movement Phase if the unit is in GenS
and not in an EZOC"; until then "the marker remains on the unit until the unit recovers or is
eliminated".  The act the log shows is a Disrupted marker taken off a hex (deleted, or moved off
the map) while the unit it marks stays there.

Choices (a false alarm costs more than a miss):
- The owner is the side of the combat units left in the hex; a hex left with none (the unit
  eliminated, retreated, or sent to the Refit Box) or with units of both sides is not judged.
- "At the end of" a Movement Phase: the marker may come off during the owner's Movement Phase or
  the phase after it (the tracker moved on first); a marker placed in the same phase and taken off
  again is a correction, not a recovery.
- EZOC: the ZoC that binds a motorized mover (the fewer hexes, 11.2); GenS: an OGS marker the hex
  surely carries for every combat unit in it (movement.py's bound).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.movement import MoveCosts
from validators.games.desert_fox_deluxe.units import Forces
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed

DISRUPTED = "disrupted"


class Recovery(Rule):
    """8.2: a disrupted unit recovers only at the end of a friendly Movement Phase, in GenS and out of EZOC."""

    ids = ("8.2",)
    needs = (Forces, MoveCosts)

    def start(self) -> None:
        self.forces, self.costs = self.ctx.get(Forces), self.ctx.get(MoveCosts)
        self.placed: set[str] = set()  # Disrupted markers put down in this phase
        self.last: tuple[str | None, str | None] = (None, None)  # the last phase's kind and phasing side

    def phase_started(self, pid: str) -> None:
        self.placed = set()

    def phase_ended(self, pid: str) -> None:
        self.last = (self.state.phase_kind, self.state.phasing())

    def added(self, e: Added) -> None:
        if self.board.marker_id(e.piece) == DISRUPTED:
            self.placed.add(e.piece.id)

    def moved(self, e: Moved) -> None:
        if self.board.marker_id(e.piece) != DISRUPTED:
            return
        if not self.board.on_map(e.old.label):
            self.placed.add(e.piece.id)  # a marker brought onto the map: placed
        elif not self.board.on_map(e.new.label):
            self._taken_off(e.piece, e.old.label)

    def removed(self, e: Removed) -> None:
        if self.board.marker_id(e.piece) == DISRUPTED and e.where.label in self.game.geometry:
            self._taken_off(e.piece, e.where.label)

    def _taken_off(self, marker: Piece, hex_id: str) -> None:
        st, board = self.state, self.board
        if marker.id in self.placed or st.phase_id is None:
            return
        units = [p for p in board.pieces_in(hex_id) if self.forces.is_combat_unit(p)]
        sides = {board.side_id(p) for p in units}
        if len(sides) != 1:
            return
        side = sides.pop()
        friendly = (st.phase_kind, st.phasing()), self.last
        if not any(kind == "movement" and who in (None, side) for kind, who in friendly):
            why = f"in the {st.phase} Phase: a unit recovers only at the end of a friendly Movement Phase"
        elif hex_id in self.costs.enemy_zoc(side, True):
            why = "in an enemy zone of control: a unit in an EZOC does not recover"
        elif self.forces.surely_marked(board.pieces_in(hex_id), "ogs"):
            why = "out of general supply: an OGS unit does not recover (12.5 e)"
        else:
            return
        self.find("8.2", f"a Disrupted marker comes off {hex_id} ({', '.join(p.name for p in units)}) {why}", units[0],
                  hex_id, None)
