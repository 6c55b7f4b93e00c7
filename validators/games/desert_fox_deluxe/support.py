"""Each GT's supply and refit points a card gives (24.1 "Each GT: 2 x Dump, 1 x Italian RP",
24.2 "Each GT: 4 x MSU, 1 x Refit"): tables/scenario-rules.yaml `support_each_gt`.

Evidence: dumps and MSU (units.yaml) and RP markers coming into play: put on the board from the
palette or from anywhere off the hex grid that is no shipping box, onto the map or into the NRV.

Checked:
- no more of each kind comes into play in one GT than the card gives (an RP marker counts the
  RP its face shows, 17.1); each arrives where the card says (24.1: at C0701, or by coastal
  shipping, 20.3; 24.2: into the NRV), in the Reinforcement Phase (7.0).

Choices (a false alarm costs more than a miss):
- A supply unit or RP landing from a shipping box, or moved back from the side's boxes, is not a
  new arrival; support not taken in its GT is not owed later (the cards give it "each GT").
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Moved

KINDS = ("dump", "msu")


class MonthlySupport(Rule):
    """24.1-24.2: each GT's dumps, MSU and RP: no more than the card gives, where and when it gives them."""

    ids = ("24.1", "24.2")
    needs = (Boxes,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)
        rules = self.tables.get("scenario-rules", {}).get(self.state.scenario or "", {})
        self.support = rules.get("support_each_gt", {})
        self.came: dict[tuple[str, str], int] = {}  # (side, kind) -> how many came this GT
        self.gt: int | None = None

    def _kind(self, p: Piece) -> str | None:
        u = self.board.unit_of(p)
        if u is not None:
            return u.type if u.type in KINDS else None
        mid = self.board.marker_id(p)
        return mid if mid is not None and mid.startswith("rp-") else None

    def _side(self, p: Piece, kind: str) -> str | None:
        return self.board.side_id(p) if self.board.unit_of(p) is not None else kind.split("-", 1)[1]

    def moved(self, e: Moved) -> None:
        old, new, board, st = e.old.label, e.new.label, self.board, self.state
        if not self.support or old == new or st.phase_id is None or board.on_map(old):
            return
        at_old = self.boxes.at(old)
        if at_old is not None and (self.boxes.side_of_box(old) is not None or at_old[0] != "turn"):
            return  # landing from a box, or back from the side's boxes (see Choices)
        at_new = self.boxes.at(new)
        if not board.on_map(new) and (at_new is None or at_new[1] != "NRV"):
            return
        kind = self._kind(e.piece)
        if kind is None:
            return
        side = self._side(e.piece, kind)
        spec = self.support.get(side or "")
        if spec is None:
            return
        if st.turn != self.gt:
            self.gt, self.came = st.turn, {}
        n = e.piece.layer_level("Face") if kind.startswith("rp-") else 1
        key = (side, kind)
        self.came[key] = self.came.get(key, 0) + max(n, 1)
        rule, allowed, name = spec["rule"], spec["items"].get(kind, 0), e.piece.name
        if self.came[key] > allowed:
            self.find(rule, f"{name} comes into play: {self.came[key]} {kind} this GT, more than the {allowed} the card "
                      f"gives each GT ({rule})", e.piece, None, new)
        elif new not in spec["at"]:
            self.find(rule, f"{name} comes into play in {new}: the card's support arrives at "
                      f"{' or '.join(spec['at'])} ({rule})", e.piece, None, new)
        elif st.phase_kind != "reinforcement":
            self.find(rule, f"{name} comes into play in the {st.phase} Phase: reinforcements are received in the "
                      f"Reinforcement Phase (7.0, {rule})", e.piece, None, new)
