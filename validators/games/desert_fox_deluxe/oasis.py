"""Oasis Track movement (16.2, optional rules): digest 10.1 rank 18.

Evidence: units' moves into, out of and between the Oasis Track boxes of map.yaml (Gadamis, Hon,
Zella, Kufra; the layout reconstructed), and Jalo C0117 and Siwa W0106, which count as oasis
boxes when moving to and from the track (16.2.1).

Checked:
- 16.2, 4.1 VI.3: units move on the Oasis Track in their own Movement Phase (and retreat along it
  in a Combat Phase, 16.3): a move on, off or along it in another phase is reported;
- 16.2.1: between the track and the hex grid a unit moves only via a desert track connection
  hex: Hon and Zella connect at S0413 (16.2.1's example), Jalo and Siwa are their own hexes.

Choices (a false alarm costs more than a miss):
- The other boxes' connection hexes, the boxes' order and which units are desert capable are on
  the missing map and counter sheet: a move from or to Gadamis or Kufra is judged for its phase
  only, and the 14 MP a box are not costed.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

TRACK = "oasis"
CONNECTIONS = {"Hon": frozenset({"S0413"}), "Zella": frozenset({"S0413"})}  # 16.2.1 example
AS_BOXES = frozenset({"C0117", "W0106"})  # 16.2.1 Important: Jalo and Siwa


class OasisTrack(Rule):
    """16.2: moves on the Oasis Track in a friendly Movement Phase, to and from the grid by the connection hexes."""

    ids = ("16.2",)
    needs = (Boxes,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)

    def _box(self, label: str) -> str | None:
        at = self.boxes.at(label)
        return at[1] if at is not None and at[0] == TRACK else None

    def moved(self, e: Moved) -> None:
        p, old, new, st, board = e.piece, e.old.label, e.new.label, self.state, self.board
        if board.unit_of(p) is None or old == new or st.phase_id is None:
            return
        was, now = self._box(old), self._box(new)
        if was is None and now is None:
            return
        side = board.side_id(p)
        if not board.on_map(new) and now is None:
            return  # to the Refit or Destroyed Box
        if st.phase_kind == "combat":
            pass  # a retreat along the track (16.3)
        elif st.phase_kind != "movement" or st.phasing() not in (None, side):
            self.find("16.2", f"{p.name} moves from {old} to {new} in the {st.phase} Phase: units move on the Oasis "
                      "Track in their own Movement Phase (16.2, 4.1 VI.3)", p, None, new)
            return
        for box, hex_id in ((now, old), (was, new)):
            if box is not None and board.on_map(hex_id) and box in CONNECTIONS \
                    and hex_id not in CONNECTIONS[box] | AS_BOXES:
                self.find("16.2", f"{p.name} moves between {old} and {new}: between the Oasis Track and the hex grid "
                          f"a unit moves only via a desert track connection hex ({box}: "
                          f"{', '.join(sorted(CONNECTIONS[box]))}; 16.2.1)", p, None, new)
