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
  roll (8.2 a disrupted: +1 counted where the unit surely carries a Disrupted marker, 12.5 OGS, 12.6 no combat supply, 15.9 light infantry, ALC US
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
  reacting).
- A check owed and not rolled: a reacting unit's (13.5 c, movement.py) and an isolated unit's in
  the Supply Attrition Phase (12.5.1; isolated = its hex surely marked with both an OGS and a
  Disrupted marker, 12.5) are reported when the phase ends; a morale roll no declaration binds may
  be any owing unit's, so only the units beyond the side's unbound rolls are reported (the last).
  The checks of combat results are not (the reconstructed CRT has no "m" results).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.state import MORALE_CHECK
from validators.games.desert_fox_deluxe.units import SUPPLY, Forces
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule, Tracker
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed, Rolled

FAIL_AT = 7  # 8.1 b
ALWAYS_FAILS = 6  # 8.1 Important
NO_SUM = frozenset({"airborne", "desert-raider"}) | SUPPLY


class Check(Record):
    """One morale check a unit owes: when it was declared, and its roll once made."""

    __slots__ = ("piece", "side", "kind", "phase", "turn", "die", "fails", "why", "due", "met", "face")

    def __init__(self, piece: Piece, side: str, kind: str, phase: str, turn: int | None, die: int | None = None,
                 fails: bool = False, why: str = "", due: int = 0, met: bool = False, face: int | None = None):
        self.piece, self.side, self.phase, self.turn = piece, side, phase, turn
        self.kind = kind  # the phase kind when declared
        self.die, self.fails, self.why, self.met = die, fails, why, met
        self.due = due  # phase ends still allowed before it is reported
        self.face = face  # the Step layer at the roll


class MoraleChecks(Tracker):
    """Which morale roll belongs to which unit (a side's declarations pair with its rolls in
    order), and whether the roll surely fails (8.1)."""

    needs = (Forces,)

    def start(self) -> None:
        self.waiting: list[Check] = []  # declared, not yet rolled
        self.just_rolled: Check | None = None  # the check the roll being heard decides
        self.checked: set[str] = set()  # pieces whose declared check was rolled in this phase
        self.bare: dict[str, int] = {}  # side -> its morale rolls in this phase that no declaration bound

    def phase_started(self, pid: str) -> None:
        self.waiting, self.checked, self.bare = [], set(), {}

    def unchecked(self, side: str, pieces: list[Piece]) -> list[Piece]:
        """Of `pieces` (in the order they came to owe a check), those whose check was not rolled in this
        phase: a morale roll no declaration bound may be any unit's, so the last ones, as many as the
        side's rolls fall short (see Choices)."""
        short = [p for p in pieces if p.id not in self.checked]
        return short[self.bare.get(side, 0):] if len(short) > self.bare.get(side, 0) else []

    def declared(self, d: Declared) -> None:
        side = self.board.side_id(d.piece)
        if d.name == MORALE_CHECK and side is not None:
            st = self.state
            self.waiting.append(Check(d.piece, side, st.phase_kind or "", st.phase or "", st.turn))

    def rolled(self, e: Rolled) -> None:
        self.just_rolled = None
        if not e.button.endswith(" morale 1d6") or len(e.dice) != 1:
            return
        side = self.state.dice_side(e.button)
        check = next((c for c in self.waiting if c.side == side), None)
        if check is None:
            if side is not None:
                self.bare[side] = self.bare.get(side, 0) + 1
            return
        self.waiting.remove(check)
        self.checked.add(check.piece.id)
        check.die = e.dice[0]
        if check.piece.id in self.board.replayer.board.pieces:
            check.why = self.certain_failure(check)
            self.just_rolled = check

    def certain_failure(self, c: Check) -> str:
        """Why the check surely fails (8.1, see Choices), or ""."""
        p, u = c.piece, self.board.unit_of(c.piece)
        morale = u.morale_reduced if self.board.reduced(p) and u.morale_reduced is not None else u.morale
        if c.die == ALWAYS_FAILS:
            return "1d6 = 6, always a failure (8.1)"
        if morale is not None and u.type not in NO_SUM:
            plus = 1 if self.ctx.get(Forces).surely_disrupted(p) else 0  # 8.2 a
            if c.die + morale + plus >= FAIL_AT:
                added = " + 1 disrupted (8.2 a)" if plus else ""
                return (f"1d6 = {c.die} + morale {morale}{added} = {c.die + morale + plus}, and modifiers only add: 7 "
                        "or more fails (8.1)")
        return ""


class Morale(Rule):
    """8.1 with 13.5, 14.5 and 12.5.1: a unit that surely fails its check suffers the effect."""

    ids = ("13.5", "14.5", "12.5.1")
    covers = ("8.1", "8.2")
    needs = (MoraleChecks,)

    def start(self) -> None:
        self.isolated: list[Piece] = []  # 12.5.1: units isolated when the Supply Attrition Phase began
        self.due: list[Check] = []  # failed, effect not yet seen
        self.phase_start: dict[str, str] = {}  # piece id -> where it stood when the phase began, if it moved since
        self.phase_gone: list = []  # pieces deleted in this phase

    def rolled(self, e: Rolled) -> None:
        c = self.ctx.get(MoraleChecks).just_rolled
        if c is None or self.board.hex_of(c.piece) is None:
            return  # off the grid: only the arrival checks of 26.2 (arrival_rolls.py)
        rule = {"reaction": "13.5", "combat": "14.5"}.get(c.kind) or ("12.5.1" if self.state.phase_id == "XVIII" else None)
        if rule is None or (rule == "13.5" and c.piece.id in self.react_exempt()) or not c.why:
            return
        c.fails, c.due, c.face = True, 2, c.piece.layer_level("Step")
        c.kind = rule
        self.due.append(c)
        self._met(c)

    def _met(self, c: Check) -> None:
        p, board = c.piece, self.board
        if p.id not in board.replayer.board.pieces or board.hex_of(p) is None:
            c.met = True
        elif c.kind == "12.5.1":
            c.met = board.reduced(p) and c.face != 2
        else:
            c.met = board.markers_in(board.hex_of(p), "disrupted") > 0

    def after_step(self, step) -> None:
        if not self.due:  # every step asks: mostly nothing is due
            return
        for c in self.due:
            if not c.met:
                self._met(c)
        self.due = [c for c in self.due if not c.met]

    def moved(self, e: Moved) -> None:
        self.phase_start.setdefault(e.piece.id, e.old.label)

    def added(self, e: Added) -> None:
        self.phase_start.setdefault(e.piece.id, "")  # not on the board when the phase began

    def removed(self, e: Removed) -> None:
        self.phase_start.setdefault(e.piece.id, e.where.label)
        self.phase_gone.append(e.piece)

    def phase_started(self, pid: str) -> None:
        self.phase_start, self.phase_gone = {}, []
        self.isolated = self._isolated() if pid == "XVIII" else []

    def _isolated(self) -> list[Piece]:
        """12.5: the combat units surely marked with both an OGS and a Disrupted marker (isolated) when
        the Supply Attrition Phase begins."""
        board, forces = self.board, self.ctx.get(Forces)
        hexes = {board.hex_of(p) for p in board.replayer.board.pieces.values() if board.marker_id(p) == "ogs"}
        out = []
        for h in sorted(x for x in hexes if x is not None):
            here = board.pieces_in(h)
            if forces.surely_marked(here, "ogs") and forces.surely_marked(here, "disrupted"):
                out += [p for p in here if forces.is_combat_unit(p) and board.unit_of(p).type != "garrison"]
        return out

    def _attrition_owed(self) -> None:
        """12.5.1, when the Supply Attrition Phase ends: every unit isolated when it began took its check."""
        checks, board = self.ctx.get(MoraleChecks), self.board
        by_side: dict[str, list[Piece]] = {}
        for p in self.isolated:
            if p.id in board.replayer.board.pieces and board.hex_of(p) is not None:
                by_side.setdefault(board.side_id(p), []).append(p)
        for side, pieces in by_side.items():
            for p in checks.unchecked(side, pieces):
                self.find("12.5.1", f"{p.name} was isolated (OGS and Disrupted markers in {board.hex_of(p)}) when the "
                          f"{self.state.phase} Phase began and took no supply attrition check (a morale check, 8.1) in "
                          "it: every isolated unit checks for supply attrition", p, None, board.hex_of(p),
                          side=board.side_names.get(side))

    def react_exempt(self) -> set[str]:
        """The pieces that stood, when the phase began, in a hex with a Reserve marker or an HQ:
        worked out when a reacting unit's check asks (the board then, less this phase's moves)."""
        board, start = self.board, self.phase_start
        where: dict[str, list] = {}
        for p in [*board.replayer.board.pieces.values(), *self.phase_gone]:
            label = start.get(p.id)
            where.setdefault(board.where(p) if label is None else label, []).append(p)
        out: set[str] = set()
        for label, ps in where.items():
            if board.on_map(label) and any(self._exempting(x) for x in ps):
                out.update(x.id for x in ps)
        return out

    def _exempting(self, p) -> bool:
        """A Reserve marker or an HQ: the units of its hex make no check after reacting (13.6, 15.6)."""
        u = self.board.unit_of(p)
        if u is not None:  # 8.2 d: a disrupted HQ has lost its special functions
            return u.type == "hq" and not self.ctx.get(Forces).surely_disrupted(p)
        return self.board.marker_id(p) == "reserve"

    def phase_ended(self, pid: str) -> None:
        if pid == "XVIII":
            self._attrition_owed()
        for c in self.due:
            if not c.met:
                self._met(c)
        for c in [c for c in self.due if not c.met]:
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
                      c.piece, None, self.board.hex_of(c.piece), side=self.board.side_names.get(c.side))
        self.due = [c for c in self.due if not c.met and c.due > 0]
