"""Fired artillery (11.18, 11.13): digest 10.1 rank 13, part.

The module's artillery counters have one face: a Fired marker put in the artillery's hex stands
for its Fired side (markers.yaml `fired`).  Choice (as for No Movement Supply, units.py): a marker
in a hex is read as an artillery unit's only when that unit is the only artillery there.  Putting
the marker down is not required (a log of our module may fire without it); taking it off is
judged: only in the friendly Administrative phase and in General Supply (no Out of Supply marker in
the hex, 6.32b); and a marked artillery unit does not fire in support (11.13).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.state import ARTILLERY
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed

FIRED = "fired"


class FiredArtillery(Rule):
    """11.18, 11.13: a Fired marker leaves its artillery only in that side's Administrative phase,
    in General Supply; Fired artillery gives no fire support."""

    ids = ("11.13", "11.18")
    needs = (Forces,)
    hears_unit_steps = False

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)

    def _gun(self, hex_id: str, pieces=None) -> Piece | None:
        """The one artillery unit in the hex, else None."""
        board = self.board
        guns = [p for p in (pieces if pieces is not None else board.pieces_in(hex_id))
                if (u := board.unit_of(p)) is not None and u.type == "artillery"]
        return guns[0] if len(guns) == 1 else None

    def _lifted(self, p: Piece, hex_id: str, to: str | None = None) -> None:
        board, st = self.board, self.state
        if self.forces.marker_id(p) != FIRED or not board.on_map(hex_id) or st.phase_kind is None:
            return
        here = board.stood_in(hex_id)
        gun = self._gun(hex_id, here)
        if gun is None or (to is not None and board.where(gun) == to):
            return  # no one artillery unit's, or carried along with it (a stack dragged)
        side = board.side_id(gun)
        if st.phase_kind != "administrative" or st.phase_side != side:
            self.find("11.18", f"{gun.name} turns back from Fired in the {st.phase}: in its side's Administrative "
                      "phase only", gun, None, hex_id)
        elif any(self.forces.marker_id(q) == "oos" for q in here):
            self.find("11.18", f"{gun.name} turns back from Fired under an Out of Supply marker: only in General "
                      "Supply", gun, None, hex_id)

    def moved(self, e: Moved) -> None:
        if e.old.label != e.new.label:
            self._lifted(e.piece, e.old.label, e.new.label)

    def removed(self, e: Removed) -> None:
        self._lifted(e.piece, e.where.label)

    def declared(self, d: Declared) -> None:
        if d.name != ARTILLERY or not self.board.on_map(d.where):
            return
        here = self.board.pieces_in(d.where)
        if self._gun(d.where, here) is d.piece and any(self.forces.marker_id(q) == FIRED for q in here):
            self.find("11.13", f"{d.piece.name} is Fired (its hex's Fired marker): it gives no fire support", d.piece,
                      None, d.where)
