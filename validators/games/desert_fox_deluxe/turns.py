"""Sequence of play (4.1): the phases in order, and which side's ground units may move in each
(digest 10.1 rank 1).

Evidence: the turn tracker (the twenty phases of tables/sequence.yaml) and every move of a
ground unit from hex to hex.

Choices:
- 4.1: the tracker may skip phases forward (a phase with nothing to do), and from XX (or any
  phase) on to the next GT; it may not go back, nor jump over a whole GT.  The first phase a log
  shows is where it begins (a log may continue a saved game).
- 4.1 VI/IX/XII/XV: in a Movement Phase only the phasing player's ground units move, except a
  unit reacting to an overrun (13.4.3): a move of the other side is not reported when an overrun
  was declared in the phase from a hex next to where the unit stood.
- 4.1 VII/X/XIII/XVI: in a Reaction Phase only the reacting player's units move (13.5).
- Phases I-V and XVIII-XX: no ground unit moves from hex to hex; supply units in IV are left out
  (12.2.4: the Axis primary base may be relocated then).  Moves into or out of boxes (arrivals,
  eliminations, withdrawals) are judged by their own rules.
- Combat Phases: moves are retreats and advances, judged by the combat rules (combat.py).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.units import SUPPLY, Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved


class SequenceOfPlay(Rule):
    """4.1: the phases in order; each side's ground units move only in the phases that let them."""

    ids = ("4.1",)
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)

    def phase_started(self, pid: str) -> None:
        st, back = self.state, self.state.went_back()
        if back is not None:
            self.find("4.1", "the turn tracker went back from GT {} {} to GT {} {}: every phase finishes before the "
                      "next begins, in the order of 4.1".format(*back))
        elif st.prev_phase_pos and st.phase_pos and st.prev_phase_pos[1] >= 0 and st.phase_pos[1] >= 0 \
                and st.phase_pos[0] > st.prev_phase_pos[0] + 1:
            self.find("4.1", f"the turn tracker jumped from GT {st.prev_phase_pos[0]} to GT {st.phase_pos[0]}: every "
                      "GT is played")

    def moved(self, e: Moved) -> None:
        old, new, board = e.old.label, e.new.label, self.board
        if (self.state.phase_id is not None and old != new and board.on_map(old) and board.on_map(new)
                and self.forces.is_ground(e.piece)):
            self._in_phase(e)

    def reacting_to_overrun(self, old: str) -> bool:
        geo, board = self.game.geometry, self.board
        for d in self.state.overruns():
            here = board.replayer.board.pieces.get(d.piece.id)
            hexes = {d.where, board.hex_of(here)} if here is not None else {d.where}
            if any(h and (h == old or geo.adjacent(h, old)) for h in hexes):
                return True
        return False

    def _in_phase(self, e: Moved) -> None:
        st, board = self.state, self.board
        side = board.side_id(e.piece)
        kind = st.phase_kind
        if kind in ("movement", "reaction"):
            phasing = st.phasing()
            if phasing is None or side == phasing:
                return
            name = board.side_names.get(side or "", "?")
            if kind == "movement" and self.reacting_to_overrun(e.old.label):
                return
            what = "moves" if kind == "movement" else "reacts"
            self.find("4.1", f"an {name} unit moved in the {st.phase} Phase, where only the "
                      f"{board.side_names[phasing]} player {what}", e.piece)
            return
        if kind == "combat":
            return  # retreats and advances: combat.py
        u = board.unit_of(e.piece)
        if kind == "allocation" and u is not None and u.type in SUPPLY:
            return
        self.find("4.1", f"ground units move in the Movement and Reaction Phases (and retreat or advance in "
                  f"combat), not in the {st.phase} Phase", e.piece)
