"""The Middle East Tracks (22.2, 22.2.1): digest 10.1 rank 19.

Evidence: the MET Situation markers' moves along the six MET tracks of map.yaml, and ground units'
moves between the Nile River Valley Box and the tracks.

Checked:
- 22.2 a-b: the situation on each track is determined in the Events Phase: a marker moves along
  its track only in Phase I, and up at most one box in one Events Phase (a roll in range moves it
  "to the next box");
- 22.2.1: a ground unit goes onto a track only from the NRV Box, in an Allied Movement Phase, into
  the box with the track's marker, never onto the Pacific track; it returns to the NRV in an
  Allied Movement Phase; on the track it moves only with the marker (in the Events Phase).

Choices (a false alarm costs more than a miss):
- The DR ranges and modifiers are on the cards, five of six missing (ALC-4, 6, 16, 17, 19; ALC-5's
  Levant is in the text): a roll is not compared with the marker's move.  MET combat (22.2.2) may
  move a marker back: moves down the track are not judged.
- A unit leaving a track for another box than the NRV (its Refit or Destroyed Box after MET combat,
  a withdrawal the card orders) is left alone.
- Air units on the tracks are judged with the air holding boxes (air.py).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.games.desert_fox_deluxe.units import NOT_GROUND
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Moved

MARKER = "met-situation"
PACIFIC = "met-pacific"
NRV = "NRV"


class MetTracks(Rule):
    """22.2: MET markers move in the Events Phase, one box up at most; units go on and off the tracks from the NRV."""

    ids = ("22.2",)
    needs = (Boxes,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)
        self.start_box: dict[str, int] = {}  # marker id -> its box index when this phase began (set at its first move)

    def _met(self, label: str) -> str | None:
        track = self.boxes.track_of(label)
        return track if track is not None and track.startswith("met-") else None

    def phase_started(self, pid: str) -> None:
        self.start_box = {}

    def moved(self, e: Moved) -> None:
        p, old, new = e.piece, e.old.label, e.new.label
        if old == new or self.state.phase_id is None:
            return
        was, now = self._met(old), self._met(new)
        if was is None and now is None:
            return
        if self.board.marker_id(p) == MARKER:
            self._marker(p, old, new, was, now)
            return
        u = self.board.unit_of(p)
        if u is not None and u.type not in NOT_GROUND:
            self._unit(p, old, new, was, now)

    def _marker(self, p: Piece, old: str, new: str, was: str | None, now: str | None) -> None:
        st = self.state
        if was is None or now != was:
            return  # placed on a track (activation) or taken off (deactivation): by the cards
        first = self.start_box.setdefault(p.id, self.boxes.index(old) or 0)
        if st.phase_id != "I":
            self.find("22.2", f"the MET marker moves from {old} to {new} in the {st.phase} Phase: the situation on "
                      "each track is determined in the Events Phase (4.1 I.4, 22.2)", None, old, new, side=None)
        elif (self.boxes.index(new) or 0) > first + 1:
            self.find("22.2", f"the MET marker moves from {old} to {new}: a roll in range moves it up to the next box "
                      "(22.2 b), one box an Events Phase", None, old, new, side=None)

    def _unit(self, p: Piece, old: str, new: str, was: str | None, now: str | None) -> None:
        st, name = self.state, p.name
        allied_movement = st.phase_kind == "movement" and st.phasing() in (None, "allied")
        if now == PACIFIC:
            self.find("22.2", f"{name} goes onto the Pacific track: ground units are never deployed there (22.2.1)",
                      p, None, new)
            return
        if was is None:  # onto a track
            at = self.boxes.at(old)
            if at is None or at[1] != NRV:
                self.find("22.2", f"{name} goes from {old} onto a MET track: a unit starting a Movement Phase in the "
                          "NRV may move to a track (22.2.1)", p, None, new)
            elif not allied_movement:
                self.find("22.2", f"{name} goes from the NRV onto a MET track in the {st.phase} Phase: units deploy "
                          "to a track in an Allied Movement Phase (22.2.1)", p, None, new)
            elif not self._with_marker(new):
                self.find("22.2", f"{name} is placed in {new}: units are placed in the box with the track marker "
                          "(22.2.1)", p, None, new)
            return
        if now is None:  # off a track
            at = self.boxes.at(new)
            if at is not None and at[1] == NRV and not allied_movement:
                self.find("22.2", f"{name} returns from {old} to the NRV in the {st.phase} Phase: units on a track "
                          "return in an Allied Movement Phase (22.2.1)", p, None, new)
            elif self.board.on_map(new):
                self.find("22.2", f"{name} goes from {old} onto the map: units on a track return to the NRV "
                          "(22.2.1)", p, None, new)
            return
        if now != was or st.phase_id != "I":
            self.find("22.2", f"{name} moves from {old} to {new}: units on a track move with its marker, in the "
                      "Events Phase (22.2.1)", p, None, new)

    def _with_marker(self, label: str) -> bool:
        return any(self.board.marker_id(q) == MARKER for q in self.board.replayer.board.pieces.values()
                   if self.board.where(q) == label)
