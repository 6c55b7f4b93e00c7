"""The refit point owed for a withdrawal that was eliminated (7.4 with 24.2 b, used by 25.0).

Evidence: a unit the card withdraws (its `withdrawals`) going to its side's Refit or Destroyed
Box before the end of its GT, and the Allied RP markers: one taken off the board, or flipped
from its two-step face to its one-step face, is one refit point expended (17.1).

Checked (24.2 b):
- the Allied player must immediately expend one RP for each such unit eliminated; if none is
  available he forfeits arriving RP until it is paid: an RP owed at the end of a phase in which an
  Allied RP marker is on the board (in a hex or a box) is reported, once a unit;
- if at the end of the scenario the RP has not been expended, the withdrawal counts as not made:
  the Axis wins (an event, as 7.4 a's), when the tracker moves past the card's last GT.

Choices (a false alarm costs more than a miss):
- Any Allied RP expended after the elimination pays the debt (the log does not say what an RP was
  spent on); a unit eliminated after the end of its withdrawal GT owes nothing (7.4 a already
  decided that GT).
"""
from __future__ import annotations

from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Flipped, Moved, Removed

RP = "rp-allied"
LOST = ("Refit", "Destroyed")


class WithdrawalRefitPoints(Rule):
    """24.2 b: one Allied RP expended at once for each unit to be withdrawn that is eliminated first."""

    ids = ("7.4",)
    covers = ("24.2",)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        card = self.state.card
        self.due: dict[str, int] = {}  # unit id -> its withdrawal GT
        for w in (card.withdrawals if card is not None else ()):
            for u in w.units:
                self.due[u] = w.turn
        self.owed: list[tuple[Piece, int]] = []  # (unit eliminated, step), unpaid
        self.reported: set[str] = set()
        self.ended = False
        name = self.board.side_names.get("allied", "Allied")
        self.boxes = {f"{name} {b}" for b in LOST}

    def moved(self, e: Moved) -> None:
        u, st = self.board.unit_of(e.piece), self.state
        if (u is not None and u.id in self.due and e.new.label in self.boxes and e.old.label not in self.boxes
                and st.turn is not None and st.turn <= self.due[u.id]
                and all(p.id != e.piece.id for p, _ in self.owed)):
            self.owed.append((e.piece, st.step))

    def removed(self, e: Removed) -> None:
        if self.board.marker_id(e.piece) == RP:
            self._paid(2 if e.piece.layer_level("Face") == 2 else 1)

    def flipped(self, e: Flipped) -> None:
        if e.layer == "Face" and self.board.marker_id(e.piece) == RP and e.old == 2 and e.new == 1:
            self._paid(1)

    def _paid(self, n: int) -> None:
        del self.owed[:n]

    def phase_ended(self, pid: str) -> None:
        if not self.owed or self.board.marker(RP) is None:
            return
        for p, step in self.owed:
            if p.id not in self.reported:
                self.reported.add(p.id)
                self.find("7.4", f"{p.name}, to be withdrawn, was eliminated: the Allied player must immediately expend "
                          "one refit point for it (24.2 b), and an Allied RP was on the board at the end of the "
                          f"{self.state.phase} Phase", p, None, None, side=self.board.side_of(p), at=step)

    def phase_started(self, pid: str) -> None:
        card, st = self.state.card, self.state
        if self.ended or card is None or st.turn is None or card.last_turn is None or st.turn <= card.last_turn:
            return
        self.ended = True
        for p, _ in self.owed:
            self.find("7.4", f"{p.name}, to be withdrawn, was eliminated and the refit point owed for it was never "
                      "expended: the withdrawal counts as not made, and the Axis wins (24.2 b)", p, None, None,
                      kind="event", side=self.board.side_of(p))
