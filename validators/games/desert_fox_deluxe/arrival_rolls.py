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

from validators.games.desert_fox_deluxe.initiative import InitiativeRules
from validators.games.desert_fox_deluxe.morale import Check
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Rolled, Said

ARRIVAL = re.compile(r"^\*?\s*Arrival: (?P<unit>.+?) rolls in (?P<where>.+?)\s*\*?$")
ROLL_RULE = re.compile(r"1d6 each: 1-3 GT (?P<now>\d+), 4-6 GT (?P<later>\d+)")
CHECK_RULE = re.compile(r"morale check each: a failure arrives depleted GT (?P<later>\d+)")


class ArrivalRollRules(InitiativeRules):
    """Part of the Desert Fox Deluxe auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.arrival_waiting: list[tuple[Piece, str]] = []  # declared, not rolled: (piece, side)
        self.held_until: dict[str, tuple[int, str]] = {}  # piece id -> (earliest GT, why)
        self.must_be_reduced: dict[str, str] = {}  # piece id -> why
        self.reduced_due: list[Piece] = []  # arrived this phase, due on the reduced face
        self.rolled_in: set[str] = set()

    def _line(self, p: Piece):
        u = self.unit_of(p)
        return self.arrivals.get(u.id) if u is not None else None

    def on_said(self, e: Said) -> None:
        m = ARRIVAL.match(e.text.strip())
        if m:
            piece = self._named(m["unit"], m["where"])
            if piece is not None and self.side_id(piece) is not None:
                self.arrival_waiting.append((piece, self.side_id(piece)))
        super().on_said(e)

    def on_rolled(self, e: Rolled) -> None:
        super().on_rolled(e)
        if not e.button.endswith(" arrival 1d6") or len(e.dice) != 1:
            return
        side = self.dice_buttons.get(e.button)
        bound = next((x for x in self.arrival_waiting if x[1] == side), None)
        if bound is None:
            return
        self.arrival_waiting.remove(bound)
        piece = bound[0]
        a = self._line(piece)
        m = ROLL_RULE.search(a.rule or "") if a is not None else None
        if m is None or piece.id in self.arrived:
            return
        die = e.dice[0]
        if die >= 4:
            self.held_until[piece.id] = (int(m["later"]), f"its arrival roll was {die} (4-6: GT {m['later']}, {a.rule})")

    def off_grid_check(self, c: Check) -> None:
        super().off_grid_check(c)
        a = self._line(c.piece)
        m = CHECK_RULE.search(a.rule or "") if a is not None else None
        if m is None or not c.why or c.piece.id in self.arrived:
            return
        why = f"it failed its arrival morale check ({c.why}; {a.rule})"
        self.held_until[c.piece.id] = (int(m["later"]), why)
        self.must_be_reduced[c.piece.id] = why

    def on_moved(self, e: Moved) -> None:
        p = e.piece
        first = (self.unit_of(p) is not None and p.id not in self.rolled_in and self._waiting_box(e.old.label)
                 and not self._waiting_box(e.new.label) and self.phase_id is not None)
        super().on_moved(e)
        if not first:
            return
        self.rolled_in.add(p.id)
        held = self.held_until.get(p.id)
        if held is not None and self.turn is not None and self.turn < held[0]:
            self.find("26.2", f"{p.name} arrives on GT {self.turn}: {held[1]}, so it arrives on GT {held[0]}", p)
        if p.id in self.must_be_reduced:
            self.reduced_due.append(p)

    def phase_ended(self, pid: str) -> None:
        for p in self.reduced_due:
            if p.id in self.replayer.board.pieces and not self.reduced(p):
                self.find("26.2", f"{p.name} arrives on its full face: {self.must_be_reduced[p.id]}, so it arrives "
                          "depleted", p, None, self.replayer.piece_where(p).label)
        self.reduced_due = []
        super().phase_ended(pid)
