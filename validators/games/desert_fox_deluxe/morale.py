"""Morale checks (8.1) and what a failure demands: digest 10.1 rank 3.

Evidence: the module's "Morale check" declaration (Ctrl+Shift+M on the unit: "Morale: <unit>
checks in <hex>") binds the next "<Side> morale 1d6" roll of the unit's side to that unit; a
side's declarations pair with its morale rolls in order (first declared, first rolled).  A
morale roll without a declaration names no unit and is not checked.

8.1: 1d6 + the unit's morale (the face it shows) + the calling rule's modifiers; 6 or less
passes, 7 or more fails, a natural 6 always fails.  Checked failures and their effects:
- Reaction Phase (13.5 c): a reacting unit that fails is disrupted;
- Combat Phase (14.5, "m" results; the 14.5 example and the Example of Play): a unit that fails is
  disrupted (a desert raider attacked on the grid is eliminated instead, 16.3);
- Supply Attrition Phase (12.5.1): a unit that fails is depleted (flipped), or destroyed when it
  is already depleted or of one step.

Choices (a false alarm costs more than a miss):
- A failure is reported only when it is certain: a natural 6, or the die plus the printed morale
  of the face shown reaching 7.  Every modifier the text gives a combat unit's check adds to the
  roll (8.2 a disrupted, 12.5 OGS, 12.6 no combat supply, 15.9 light infantry, ALC US
  inexperience), so the sum is a floor; airborne drops (Airborne Drop Chart, missing) and
  supply units (the -1 of a supply raid, 16.4) are judged on the natural 6 alone.  A pass is
  never asserted (modifiers the log cannot show may turn it into a failure).
- The effect is due by the end of the phase after the roll (a marker placed late), and is met
  when at any moment till then a Disrupted marker lies in the unit's hex (markers lie in hexes,
  state.py), or the unit leaves the hex grid or the board; for attrition, when it is flipped to
  its reduced face or leaves the grid.
- Checks not followed: Movement Phases (overrun 13.4.3/13.4.4, emergency supply 12.7, supply
  destruction 12.2.5, airborne drops: their failures' effects differ or are on a missing chart),
  off-grid units (Oasis Track combat ignores a first failure, 16.3; the Greek track, 22.2) but the
  26.2 GT 13 arrival checks (off_grid_check, arrival_rolls.py), and units that stood with a
  Reserve marker or an HQ when the Reaction Phase began (13.6 and 15.6: they make no check after
  reacting).  A check the rules call for but not rolled is not reported (the log cannot tell a
  unit passed over from one that did not react or fight).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from validators.games.desert_fox_deluxe.setup import SetupRules
from validators.games.desert_fox_deluxe.state import SUPPLY
from validators.replay.board import Piece
from validators.replay.replayer import Rolled, Said

MORALE = re.compile(r"^\*?\s*Morale: (?P<unit>.+?) checks in (?P<where>.+?)\s*\*?$")
FAIL_AT = 7  # 8.1 b
ALWAYS_FAILS = 6  # 8.1 Important
NO_SUM = frozenset({"airborne", "desert-raider"}) | SUPPLY


@dataclass
class Check:
    piece: Piece
    side: str
    kind: str  # the phase kind when declared
    phase: str
    turn: int | None
    die: int | None = None
    fails: bool = False
    why: str = ""
    due: int = 0  # phase ends still allowed before it is reported
    met: bool = False
    face: int | None = None  # the Step layer at the roll


class MoraleRules(SetupRules):
    """Part of the Desert Fox Deluxe auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.morale_waiting: list[Check] = []  # declared, not yet rolled
        self.morale_due: list[Check] = []  # failed, effect not yet seen
        self.react_exempt: set[str] = set()  # piece ids with a Reserve marker or an HQ at the phase start

    # -- declaration and roll --------------------------------------------------------------------
    def on_said(self, e: Said) -> None:
        m = MORALE.match(e.text.strip())
        if m:
            piece = self._named(m["unit"], m["where"])
            side = self.side_id(piece) if piece is not None else None
            if piece is not None and side is not None:
                self.morale_waiting.append(Check(piece, side, self.phase_kind or "", self.phase or "", self.turn))
        super().on_said(e)

    def _named(self, name: str, where: str) -> Piece | None:
        """The unit called `name` at `where` (a hex, or a box's name); off the grid, the only unit of
        that name when the report's location is not a zone's name."""
        if where in self.game.geometry:
            return next((p for p in self.pieces_in(where) if p.name == name and self.unit_of(p) is not None), None)
        named = [p for p in self.replayer.board.pieces.values() if p.name == name and self.unit_of(p) is not None]
        here = [p for p in named if self.replayer.piece_where(p).label == where]
        return here[0] if here else named[0] if len(named) == 1 else None

    def on_rolled(self, e: Rolled) -> None:
        super().on_rolled(e)
        if not e.button.endswith(" morale 1d6") or len(e.dice) != 1:
            return
        side = self.dice_buttons.get(e.button)
        check = next((c for c in self.morale_waiting if c.side == side), None)
        if check is None:
            return
        self.morale_waiting.remove(check)
        check.die = e.dice[0]
        self._judge(check)

    def _judge(self, c: Check) -> None:
        p = c.piece
        if p.id not in self.replayer.board.pieces:
            return
        c.why = self.certain_failure(c)
        if self.hex_of(p) is None:
            self.off_grid_check(c)  # off the grid: only the arrival checks of 26.2 (arrival_rolls.py)
            return
        rule = {"reaction": "13.5", "combat": "14.5"}.get(c.kind) or ("12.5.1" if self.phase_id == "XVIII" else None)
        if rule is None or (rule == "13.5" and p.id in self.react_exempt) or not c.why:
            return
        c.fails, c.due, c.face = True, 2, p.layer_level("Step")
        c.kind = rule
        self.morale_due.append(c)
        self._met(c)

    def certain_failure(self, c: Check) -> str:
        """Why the check surely fails (8.1, see Choices), or ""."""
        p, u = c.piece, self.unit_of(c.piece)
        morale = u.morale_reduced if self.reduced(p) and u.morale_reduced is not None else u.morale
        if c.die == ALWAYS_FAILS:
            return "1d6 = 6, always a failure (8.1)"
        if morale is not None and u.type not in NO_SUM and c.die + morale >= FAIL_AT:
            return f"1d6 = {c.die} + morale {morale} = {c.die + morale}, and modifiers only add: 7 or more fails (8.1)"
        return ""

    def off_grid_check(self, c: Check) -> None:
        """A bound check of a unit off the hex grid (see Choices)."""

    # -- the effect --------------------------------------------------------------------------------
    def _met(self, c: Check) -> None:
        p = c.piece
        if p.id not in self.replayer.board.pieces or self.hex_of(p) is None:
            c.met = True
        elif c.kind == "12.5.1":
            c.met = self.reduced(p) and c.face != 2
        else:
            c.met = self.disrupted_in(self.hex_of(p))

    def after_step(self, step) -> None:
        super().after_step(step)
        for c in self.morale_due:
            if not c.met:
                self._met(c)
        self.morale_due = [c for c in self.morale_due if not c.met]

    def phase_started(self, pid: str) -> None:
        super().phase_started(pid)
        self.morale_waiting = []
        self.react_exempt = set()
        if self.phase_kind == "reaction":
            for h, ps in self._by_hex().items():
                if any(x.properties().get("MarkerId") == "reserve" or
                       (self.unit_of(x) is not None and self.unit_of(x).type == "hq") for x in ps):
                    self.react_exempt.update(x.id for x in ps)

    def phase_ended(self, pid: str) -> None:
        for c in self.morale_due:
            if not c.met:
                self._met(c)
        for c in [c for c in self.morale_due if not c.met]:
            c.due -= 1
            if c.due > 0:
                continue
            name = c.piece.name
            if c.kind == "12.5.1":
                what = ("a unit that fails its supply attrition check is depleted, or destroyed when already depleted "
                        "or of one step (12.5.1); it was neither flipped nor removed")
            elif c.kind == "13.5":
                what = "a reacting unit that fails its morale check is disrupted (13.5 c)"
            else:
                what = ("a unit that fails the morale check of a combat result is disrupted (14.5: its example and the "
                        "Example of Play)")
            if c.kind != "12.5.1":
                what += "; no Disrupted marker lay in its hex by the end of the next phase"
            self.find(c.kind, f"{name} failed its morale check in the {c.phase} Phase of GT {c.turn} ({c.why}): {what}",
                      c.piece, None, self.hex_of(c.piece), side=self.side_names.get(c.side))
        self.morale_due = [c for c in self.morale_due if not c.met and c.due > 0]
        super().phase_ended(pid)
