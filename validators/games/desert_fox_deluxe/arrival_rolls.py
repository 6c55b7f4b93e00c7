"""The arrival rolls and arrival morale checks of a card (26.2): digest 10.1 ranks 3 and 5.

Evidence: the "Arrival roll" declaration (Ctrl+Shift+N on the waiting unit: "Arrival: <unit>
rolls in <box>") binds the side's next "<Side> arrival 1d6" to that unit, as "Morale check"
binds a morale roll (morale.py); the units then leave their box on the turn track (arrivals.py).
The card's reinforcement lines say which rule applies (scenarios/*.yaml `rule`):
"1d6 each: 1-3 GT a, 4-6 GT b" and "morale check each: a failure arrives depleted GT b".

Checked (26.2):
- a unit whose bound arrival roll is 4-6 does not arrive before GT b;
- a unit whose bound morale check surely fails (8.1, morale.py) does not arrive before GT b, and
  arrives on its reduced face (by the end of its arrival phase).

Choices: a unit rolled 1-3 that stays off the map is not reported (7.1: reinforcements may be
held off-map); rolls and checks not bound by a declaration are not checked.
"""
from __future__ import annotations

import re

from validators.games.desert_fox_deluxe.arrivals import Arrivals
from validators.games.desert_fox_deluxe.morale import MoraleChecks
from validators.games.desert_fox_deluxe.state import ARRIVAL_ROLL
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Rolled

ROLL_RULE = re.compile(r"1d6 each: 1-3 GT (?P<now>\d+), 4-6 GT (?P<later>\d+)")
CHECK_RULE = re.compile(r"morale check each: a failure arrives depleted GT (?P<later>\d+)")


class ArrivalRolls(Rule):
    """26.2: a unit held back by its arrival roll or its failed arrival check arrives later, depleted."""

    ids = ("26.2",)
    needs = (Arrivals, MoraleChecks)
    acts_in = {"unit_step": ()}  # only a unit leaving the waiting track is judged

    def start(self) -> None:
        self.arrivals = self.ctx.get(Arrivals)
        self.waiting: list[tuple[Piece, str]] = []  # declared, not rolled: (piece, side)
        self.held_until: dict[str, tuple[int, str]] = {}  # piece id -> (earliest GT, why)
        self.must_be_reduced: dict[str, str] = {}  # piece id -> why
        self.reduced_due: list[Piece] = []  # arrived this phase, due on the reduced face
        self.rolled_in: set[str] = set()

    def _line(self, p: Piece):
        u = self.board.unit_of(p)
        return self.arrivals.lines.get(u.id) if u is not None else None

    def declared(self, d: Declared) -> None:
        side = self.board.side_id(d.piece)
        if d.name == ARRIVAL_ROLL and side is not None:
            self.waiting.append((d.piece, side))

    def rolled(self, e: Rolled) -> None:
        check = self.ctx.get(MoraleChecks).just_rolled
        if check is not None and self.board.hex_of(check.piece) is None:
            self._arrival_check(check)
        if not e.button.endswith(" arrival 1d6") or len(e.dice) != 1:
            return
        side = self.state.dice_side(e.button)
        bound = next((x for x in self.waiting if x[1] == side), None)
        if bound is None:
            return
        self.waiting.remove(bound)
        piece = bound[0]
        a = self._line(piece)
        m = ROLL_RULE.search(a.rule or "") if a is not None else None
        if m is None or piece.id in self.arrivals.arrived:
            return
        die = e.dice[0]
        if die >= 4:
            self.held_until[piece.id] = (int(m["later"]), f"its arrival roll was {die} (4-6: GT {m['later']}, {a.rule})")

    def _arrival_check(self, c) -> None:
        """A morale check of a unit off the grid: the arrival check of a card's line."""
        a = self._line(c.piece)
        m = CHECK_RULE.search(a.rule or "") if a is not None else None
        if m is None or not c.why or c.piece.id in self.arrivals.arrived:
            return
        why = f"it failed its arrival morale check ({c.why}; {a.rule})"
        self.held_until[c.piece.id] = (int(m["later"]), why)
        self.must_be_reduced[c.piece.id] = why

    def moved(self, e: Moved) -> None:
        p, arrivals, st = e.piece, self.arrivals, self.state
        if not (self.board.unit_of(p) is not None and p.id not in self.rolled_in and arrivals.waiting_box(e.old.label)
                and not arrivals.waiting_box(e.new.label) and st.phase_id is not None):
            return
        self.rolled_in.add(p.id)
        held = self.held_until.get(p.id)
        if held is not None and st.turn is not None and st.turn < held[0]:
            self.find("26.2", f"{p.name} arrives on GT {st.turn}: {held[1]}, so it arrives on GT {held[0]}", p)
        if p.id in self.must_be_reduced:
            self.reduced_due.append(p)

    def phase_ended(self, pid: str) -> None:
        board = self.board
        for p in self.reduced_due:
            if p.id in board.replayer.board.pieces and not board.reduced(p):
                self.find("26.2", f"{p.name} arrives on its full face: {self.must_be_reduced[p.id]}, so it arrives "
                          "depleted", p, None, board.where(p))
        self.reduced_due = []
