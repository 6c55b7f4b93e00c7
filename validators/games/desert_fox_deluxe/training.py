"""Training (8.5): digest 10.1 rank 1 (training moves only in Phase IV).

Evidence: units' moves onto, along and off the Training Track (map.yaml `training`: boxes T1-T4,
their number reconstructed), and Untrained markers.

Checked:
- 4.1 IV.10, 8.5.1: training operations are in the Allocation Phase: a move onto, along or off
  the track in another phase is reported;
- 8.5.1: a unit on the track moves down one box each Allocation Phase (T2 to T1), no further;
- 8.5.1: from box T1 a unit is placed on the map, an Axis one at the primary base (12.2.4: on or
  next to it), an Allied one in the Nile River Valley Box;
- 8.5.2: a unit that leaves the track before T1 onto the hex grid gets an Untrained marker in its
  hex by the end of the phase (once a unit); one restarting its training comes from the 8.5.1
  location (the primary base, the NRV) into a box no higher than the 1d6 allows (Allied
  ceil(d6/3): T1-T2; Axis ceil(d6/2): T1-T3);
- 8.5.2 1): an untrained unit may not recover until it has completed its training: an Untrained
  marker deleted from a hex that still holds the units it was placed for is reported;
- 12.2.4: in the GT the Axis primary base is relocated (an Axis base moved from hex to hex in the
  Allocation Phase) Axis units do not conduct training: no Axis unit moves onto, along or off
  the track then.

Choices (a false alarm costs more than a miss):
- 12.2.4: which Axis base is the primary one is not in the log: any Axis base will do.
- A unit coming onto the track from another box (its arrival, 8.5.1: "the unit's arrival card
  will indicate" the box) may enter any box; the cards are missing.
- The 1d6 of a restart is not bound to its unit (no declaration): only the highest box it allows.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.games.desert_fox_deluxe.units import Forces
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed

TRACK = "training"
NRV = "NRV"
RESTART_MAX = {"allied": 2, "axis": 3}  # 8.5.2 3): ceil(6 / 3), ceil(6 / 2)


class Training(Rule):
    """8.5: training moves in the Allocation Phase, one box down, and out at the primary base or the NRV."""

    ids = ("8.5",)
    covers = ("4.1",)
    needs = (Boxes, Forces)

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)
        self.track_labels = {self.game.zone_name(TRACK, b) for b in self.game.tracks[TRACK].boxes} \
            if TRACK in self.game.tracks else set()
        self.relocated_gt: int | None = None  # the GT the Axis primary base was relocated (12.2.4)
        self.on_map_untrained: dict[str, Piece] = {}  # units that left the track early, while on the map
        self.stepped: set[str] = set()  # units moved down the track this phase
        self.untrained: list[tuple[Piece, str, int]] = []  # (unit, hex, step) owed an Untrained marker

    def _box(self, label: str) -> int | None:
        """The box number (1 = T1) of a Training Track location, None elsewhere."""
        if self.boxes.track_of(label) != TRACK:
            return None
        return (self.boxes.index(label) or 0) + 1

    def _at_axis_base(self, hex_id: str) -> bool:
        board, geo = self.board, self.game.geometry
        for p in board.units_on_map():
            u = board.unit_of(p)
            if u is not None and u.type == "base" and board.side_id(p) == "axis":
                h = board.hex_of(p)
                if h is not None and (h == hex_id or geo.adjacent(h, hex_id)):
                    return True
        return False

    def _at_the_8_5_1_place(self, side: str | None, label: str) -> bool:
        if side == "allied":
            return self.boxes.at(label) is not None and self.boxes.at(label)[1] == NRV
        return self.board.on_map(label) and self._at_axis_base(label)

    def moved(self, e: Moved) -> None:
        p, old, new, st, board = e.piece, e.old.label, e.new.label, self.state, self.board
        if old not in self.track_labels and new not in self.track_labels:
            if st.phase_id == "IV" and board.on_map(old) and board.on_map(new) and old != new:
                u = board.unit_of(p)
                if u is not None and u.type == "base" and board.side_id(p) == "axis":
                    self.relocated_gt = st.turn  # 12.2.4: the primary base relocated
            return
        if board.unit_of(p) is None or old == new or st.phase_id is None:
            return
        was, now = self._box(old), self._box(new)
        name, side = p.name, board.side_id(p)
        self.on_map_untrained.pop(p.id, None)
        where = "8.5.1: the primary base" if side == "axis" else "8.5.1: the Nile River Valley Box"
        if st.phase_id != "IV":
            self.find("8.5", f"{name} moves from {old} to {new} in the {st.phase} Phase: training operations are "
                      "conducted in the Allocation Phase (4.1 IV.10, 8.5.1)", p, None, new)
            return
        if side == "axis" and self.relocated_gt is not None and self.relocated_gt == st.turn:
            self.find("8.5", f"{name} moves from {old} to {new} on GT {st.turn}, when the Axis primary base was "
                      "relocated: Axis units may not enter or leave the training track then, nor move on it (12.2.4)",
                      p, None, new)
            return
        if was is not None and now is not None:
            if now != was - 1 or p.id in self.stepped:
                self.find("8.5", f"{name} moves from {old} to {new}: a unit moves down one box of the Training "
                          "Track each Allocation Phase (8.5.1)", p, None, new)
            self.stepped.add(p.id)
            return
        if now is not None:  # onto the track
            if board.on_map(old) or self._box_is(old, NRV):
                if not self._at_the_8_5_1_place(side, old):
                    self.find("8.5", f"{name} enters the Training Track from {old}: to enter training a unit must be "
                              f"at the 8.5.1 location ({where}; 12.2.4)", p, None, new)
                elif now > RESTART_MAX.get(side or "", 4):
                    self.find("8.5", f"{name} restarts its training in {new}: the 1d6 divided by "
                              f"{3 if side == 'allied' else 2} (round up) places it no higher than "
                              f"T{RESTART_MAX[side]} (8.5.2)", p, None, new)
            return
        # off the track
        if was == 1:
            if not self._at_the_8_5_1_place(side, new) and (board.on_map(new) or self._box_is(new, NRV)):
                self.find("8.5", f"{name} leaves box T1 of the Training Track for {new}: it is placed on the map "
                          f"at the 8.5.1 location ({where}; 12.2.4)", p, None, new)
        elif board.on_map(new):
            self.untrained.append((p, new, st.step))
            self.on_map_untrained[p.id] = p

    def removed(self, e: Removed) -> None:
        board, h = self.board, e.where.label
        if board.marker_id(e.piece) != "untrained" or not board.on_map(h):
            return
        here = [p for p in self.on_map_untrained.values() if board.hex_of(p) == h]
        if len(here) > board.markers_in(h, "untrained"):
            self.find("8.5", f"an Untrained marker is taken off {h}, where {here[0].name} has not completed its "
                      "training: an untrained unit may not recover until it has (8.5.2)", here[0], None, h,
                      side=board.side_of(here[0]))

    def _box_is(self, label: str, box: str) -> bool:
        at = self.boxes.at(label)
        return at is not None and at[1] == box

    def phase_started(self, pid: str) -> None:
        self.stepped = set()

    def phase_ended(self, pid: str) -> None:
        board = self.board
        owed: dict[str, int] = {}
        for p, h, step in self.untrained:
            here = board.hex_of(p) or h
            owed[here] = owed.get(here, 0) + 1
            if board.markers_in(here, "untrained") < owed[here]:
                self.find("8.5", f"{p.name} left the Training Track before box T1 for {h}: an untrained unit gets "
                          "an Untrained marker (8.5.2), and none was placed by the end of the phase", p, None, h,
                          side=board.side_of(p), at=step)
        self.untrained = []
