"""Fired artillery (3.43, 11.18, 11.13): digest 10.1 rank 13, part.

The module's artillery units have a Fired side (a "Fired" layer, flipped with Ctrl+F, units.yaml
`fired_face`); logs of older builds, whose counters had one face, use a Fired marker put in the
artillery's hex (markers.yaml `fired`).  Choice (as for No Movement Supply, units.py): a marker
in a hex is read as an artillery unit's only when that unit is the only artillery there.  Putting
the marker down is not required (a log of our module may fire without it); taking it off is
judged: only in the friendly Administrative phase and in General Supply (no Out of Supply marker in
the hex, 6.32b); and a marked artillery unit does not fire in support (11.13).

With the Fired side (a piece that has the layer): an artillery unit that conducted Artillery Fire
Support (its support declared in a combat whose die was rolled) is on its Fired side by the end of
that Combat phase (11.18 "Turn an artillery unit ... to its Fired side after it conducts
Artillery Fire Support"; an omission, reported at that deadline); it turns back only in its
side's Administrative phase, in General Supply (at the flip).  Choice (3.43, 11.18): a unit on
its Fired side is not barred from support in a later Segment (3.43 bars it "during the current
Segment", 11.18 "for the remainder of the combat phase"; the second fire in a Segment is
combat.py's 3.43).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.state import ARTILLERY
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.games.slouch_hats_and_eggshells.combat import Combats
from validators.replay.replayer import Flipped, Moved, Removed

FIRED = "fired"
FIRED_LAYER = "Fired"  # the artillery unit's Fired side (builder: units.yaml `fired_face`)


class FiredArtillery(Rule):
    """11.18, 11.13: a Fired marker leaves its artillery only in that side's Administrative phase,
    in General Supply; Fired artillery gives no fire support."""

    ids = ("11.13", "11.18")
    covers = ("3.43",)
    needs = (Forces, Combats)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.forces, self.combats = self.ctx.get(Forces), self.ctx.get(Combats)
        self._first = 0  # the phase's first combat in Combats.combats

    def phase_started(self, pid: str) -> None:
        self._first = len(self.combats.combats)

    def phase_ended(self, pid: str) -> None:
        """11.18: the artillery that fired in the phase's combats is on its Fired side when it ends."""
        if self.state.phase_kind != "combat":
            return
        pieces, seen = self.board.replayer.board.pieces, set()
        for c in self.combats.combats[self._first:]:
            for pid in sorted(c.artillery):
                p = pieces.get(pid)
                if p is None or pid in seen or p.layer_level(FIRED_LAYER) != 1 or not self.board.on_map(self.board.where(p)):
                    continue  # no Fired side (an older module's counter), Fired already, or gone
                seen.add(pid)
                self.find("11.18", f"end of the {self.state.phase}: {p.name} gave Artillery Fire Support on "
                          f"{c.defender_hex} and is not on its Fired side", p, None, self.board.where(p))

    def flipped(self, e: Flipped) -> None:
        """11.18: back from Fired only in the side's Administrative phase, in General Supply."""
        if e.layer != FIRED_LAYER or e.new >= e.old or self.state.phase_kind is None:
            return
        self._back(e.piece, e.where.label, self.board.stood_in(e.where.label) if self.board.on_map(e.where.label)
                   else [])

    def _back(self, gun: Piece, hex_id: str, here) -> None:
        st = self.state
        side = self.board.side_id(gun)
        if st.phase_kind != "administrative" or st.phase_side != side:
            self.find("11.18", f"{gun.name} turns back from Fired in the {st.phase}: in its side's Administrative "
                      "phase only", gun, None, hex_id)
        elif any(self.forces.marker_id(q) == "oos" for q in here):
            self.find("11.18", f"{gun.name} turns back from Fired under an Out of Supply marker: only in General "
                      "Supply", gun, None, hex_id)

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
        self._back(gun, hex_id, here)

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
