"""Air unit deployment and air superiority (19.1, 19.2): digest 10.1 ranks 1 and 13.

Evidence: an air unit's moves between the Available Next Turn Box, its side's air holding boxes
(North Africa, Sicily, Crete, Malta, Torch, NRV, the Air Superiority Box), the MET tracks and
the map.

Checked:
- 19.1 (4.1 II): air units are deployed, from the Available Next Turn Box to a holding box or
  from one holding box to another (the Air Superiority Box and the MET tracks included, 22.2.1),
  in the Air Superiority Phase only; a move into the other side's box is never one;
- 19.2 Exception: an air unit in the Air Superiority Box may not conduct other missions: it
  does not go from there onto the map;
- 22.2.1: no air unit goes onto the Pacific track.

Choices (a false alarm costs more than a miss):
- 19.3: an air unit sent to the Available Next Turn Box (mission damage) or to its Refit or
  Destroyed Box is left alone in any phase; one coming back from the map (a mission flown) to a
  holding box other than the Air Superiority Box is the end of its mission, not a deployment.
- An air unit coming into a holding box from any other box (its arrival from the turn track,
  7.0 and 4.1 III.1) is a reinforcement, not a deployment.
- Fleets (20.4) are naval units, not air units: not judged here.
- The air superiority count and its DRM go into the Initiative Table, which is missing
  (tables/initiative.yaml is reconstructed): who holds air superiority is not judged.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

NEXT_TURN = "Available Next Turn"
SUPERIORITY = "Air Superiority"
PACIFIC = "met-pacific"


class AirDeployment(Rule):
    """19.1-19.2: air units deploy in the Air Superiority Phase; those in the Air Superiority Box fly nothing else."""

    ids = ("19.2",)
    covers = ("4.1",)
    needs = (Boxes,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)

    def _kind(self, label: str) -> str:
        """'superiority', 'holding', 'next', 'met', 'map' or 'other' (the other boxes: Refit, Destroyed...)."""
        if self.board.on_map(label):
            return "map"
        at = self.boxes.at(label)
        if at is None:
            return "other"
        track, box = at
        if track.startswith("met-"):
            return "met"
        if self.boxes.side_of_box(label) is None:
            return "other"
        if box.endswith(NEXT_TURN):
            return "next"
        if box.endswith(SUPERIORITY):
            return "superiority"
        return "holding" if " Air " in f"{box} " else "other"

    def moved(self, e: Moved) -> None:
        u, st = self.board.unit_of(e.piece), self.state
        old, new = e.old.label, e.new.label
        if u is None or u.type != "air" or old == new or st.phase_id is None:
            return
        before, after = self._kind(old), self._kind(new)
        name = e.piece.name
        if after == "map" and before == "superiority":
            self.find("19.2", f"{name} leaves the Air Superiority Box for {new}: air units in the Air Superiority "
                      "Box may not conduct other missions (19.2)", e.piece, None, new)
            return
        if after == "met" and self.boxes.track_of(new) == PACIFIC:
            self.find("19.2", f"{name} goes onto the Pacific track: air units are never deployed there (22.2.1)",
                      e.piece, None, new)
            return
        if after not in ("superiority", "holding", "met"):
            return
        side = self.board.side_id(e.piece)
        owner = self.boxes.side_of_box(new)
        if owner is not None and owner != side:
            self.find("19.2", f"{name} is put in {new}, a box of the other side: air units deploy to their own "
                      "side's holding boxes (19.1)", e.piece, None, new)
            return
        if before == "other" or (before == "map" and after == "holding"):
            return  # an arrival from the turn track (7.0), or back from a mission (see Choices)
        if st.phase_id != "II":
            self.find("19.2", f"{name} is deployed from {old} to {new} in the {st.phase} Phase: air units are "
                      "deployed in the Air Superiority Phase (4.1 II, 19.1)", e.piece, None, new)
