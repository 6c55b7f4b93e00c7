"""Ocean and coastal shipping (20.1-20.3): digest 10.1 rank 14.

Evidence: units' moves into and out of the shipping boxes of map.yaml (the Axis Shipping from
Italy and from Sicily, Allied Mediterranean Shipping and both sides' Coastal Shipping boxes) and
the port hexes of tables/ports.yaml (reconstructed).

Checked:
- 20.2: units are placed in an ocean shipping lane in the Allocation Phase (or the Reinforcement
  Phase before it, 4.1 III.1: units are deployed into shipping boxes); they land from it in a
  friendly Movement Phase of the same GT (20.1, 20.2);
- 20.3: coastal shipping is conducted in a friendly Movement Phase: units embark and land then;
- 20.1, 20.3: units land in, and embark from, a port (on Maps L, S, C and W, whose ports are listed);
- 20.2, 20.3: a unit not landed by the end of its GT returns to its origin: one still in a lane
  when the next GT has begun is reported once;
- no unit is put in the other side's shipping box.

Choices (a false alarm costs more than a miss):
- The Cape Route, Torch and Torch East boxes hold units indefinitely (20.2.4-20.2.6): not judged;
  nor are a lane's or port's box capacities (the port boxes are on the missing maps) or the
  port's control.
- A unit sent from a lane to its Refit or Destroyed Box (a naval strike, 19.9) is left alone.
- The owner of a Movement Phase is learnt from play (state.py); while unknown, any Movement Phase will do.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Moved

OCEAN_PHASES = ("III", "IV")


class Shipping(Rule):
    """20.1-20.3: ocean lanes loaded in the Allocation Phase, coastal shipping in a friendly Movement Phase, landing at ports."""

    ids = ("20.0",)
    needs = (Boxes,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)
        data = self.tables.get("ports", {})
        self.ports = {p["hex"] for p in data.get("ports", ())}
        self.port_maps = tuple(data.get("maps", ()))
        self.placed: dict[str, tuple[Piece, str, int]] = {}  # piece id -> (piece, lane, GT) while in a lane
        self.reported: set[str] = set()

    def _lane(self, label: str) -> str | None:
        """'ocean' or 'coastal' for a shipping lane box, None elsewhere."""
        if self.boxes.side_of_box(label) is None:
            return None
        box = self.boxes.at(label)[1]
        if "Coastal Shipping" in box:
            return "coastal"
        return "ocean" if "Shipping" in box else None

    def _not_a_port(self, hex_id: str) -> bool:
        return hex_id.startswith(self.port_maps) and hex_id not in self.ports

    def _friendly_movement(self, side: str | None) -> bool:
        st = self.state
        return st.phase_kind == "movement" and st.phasing() in (None, side)

    def moved(self, e: Moved) -> None:
        p, old, new, st, board = e.piece, e.old.label, e.new.label, self.state, self.board
        if board.unit_of(p) is None or old == new or st.phase_id is None:
            return
        into, out = self._lane(new), self._lane(old)
        if into is None and out is None:
            return
        side, name = board.side_id(p), p.name
        if into is not None:
            self.placed[p.id] = (p, new, st.turn or 0)
            if self.boxes.side_of_box(new) != side:
                self.find("20.0", f"{name} is put in {new}, the other side's shipping box (20.2, 20.3)", p, None, new)
            elif into == "ocean" and st.phase_id not in OCEAN_PHASES:
                self.find("20.0", f"{name} is placed in {new} in the {st.phase} Phase: units are placed in the ocean "
                          "shipping lanes in the Allocation Phase (20.2; 4.1 III-IV)", p, None, new)
            elif into == "coastal" and not self._friendly_movement(side):
                self.find("20.0", f"{name} embarks in {new} in the {st.phase} Phase: coastal shipping is conducted "
                          "during a friendly Movement Phase (20.3)", p, None, new)
            elif into == "coastal" and board.on_map(old) and self._not_a_port(old):
                self.find("20.0", f"{name} embarks from {old}, which is no port: coastal shipping carries units "
                          "from one port to another (20.3)", p, old, new)
            return
        placed = self.placed.pop(p.id, None)
        if not board.on_map(new):
            return  # to the Refit or Destroyed Box, or back to its origin box
        if not self._friendly_movement(side):
            self.find("20.0", f"{name} lands from {old} on {new} in the {st.phase} Phase: units land during "
                      "friendly Movement Phases (20.1)", p, None, new)
        elif out == "ocean" and placed is not None and placed[2] != (st.turn or 0):
            self.find("20.0", f"{name} lands on GT {st.turn} from {old}, where it was placed on GT {placed[2]}: units "
                      "not landed in the GT they were placed return to their origin (20.2)", p, None, new)
        elif self._not_a_port(new):
            self.find("20.0", f"{name} lands from {old} on {new}, which is no port: units arriving by sea are "
                      "placed in a port's boxes (20.1)", p, None, new)

    def phase_ended(self, pid: str) -> None:
        st = self.state
        for pid_, (p, lane, turn) in sorted(self.placed.items()):
            if pid_ in self.reported or self.board.where(p) != lane:
                continue
            if (pid == "XX" and st.turn == turn) or (st.turn or 0) > turn:
                self.reported.add(pid_)
                self.find("20.0", f"{p.name} is still in {lane} at the end of GT {turn}: units not landed in the GT "
                          "return to their point of origin (20.2, 20.3)", p, None, lane, side=self.board.side_of(p))
