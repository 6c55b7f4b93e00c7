"""The VP bookkeeping the log shows (18.15, 18.31-18.32) and Sudden Victory (18.2): digest 10.1
ranks 18 and 22 (part).  VPs are where the vp-axis and vp-allied markers stand on the VP track.

Choice (18.21-18.22): a side with no combat unit on the map (holding boxes aside) is looked for
at the end of each phase (within a phase a unit may be between drags); the game then ends, so a
turn tracker moved on after it is reported, once.  Who won (18.23) is the players' to say.  A side's
units on the map are counted, REPL units too (no combat unit; rarely on the map alone): a
side left with REPLs only is not seen to have lost.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Rolled

SURRENDER_DIE = "Allied Vichy Surrender die"


class VictoryPoints(Rule):
    """18.15, 18.31: neither side has more than 10 unspent VPs at the end of a turn; the Vichy
    Surrender die is rolled from III June (tables/victory.yaml `from_turn`), in the Recovery
    Segment, once a turn."""

    ids = ("18.15", "18.31")
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        victory = self.tables.get("victory", {})
        self.cap = int(victory.get("max_unspent", 10))
        self.first = int(victory.get("surrender", {}).get("from_turn", 3))
        self._surrender_turns: set[int] = set()

    def turn_ended(self, turn: int) -> None:
        names = self.board.side_names
        for side in ("axis", "allied"):
            marker, vp = self.forces.vp(side)
            if vp is not None and vp > self.cap:
                self.find("18.15", f"Turn {turn} ends with {vp} unspent {names[side]} VPs: at most {self.cap}", marker,
                          side=names[side])

    def rolled(self, e: Rolled) -> None:
        if e.button != SURRENDER_DIE:
            return
        st, allied = self.state, self.board.side_names["allied"]
        turn = st.turn or 0
        if turn < self.first:
            self.find("18.31", f"the Vichy Surrender roll is allowed from Turn {self.first} (III June); this is Turn "
                      f"{turn}", side=allied)
        elif st.segment != "recovery":
            self.find("18.31", f"the Vichy Surrender roll belongs to the Recovery Segment, not the {st.phase}", side=allied)
        elif turn in self._surrender_turns:
            self.find("18.31", f"a second Vichy Surrender roll on Turn {turn}: once a turn", side=allied)
        self._surrender_turns.add(turn)


class SuddenVictory(Rule):
    """18.21-18.22: when no combat unit of a side remains on the map the other side wins at once
    and the game ends: no phase is played after it."""

    ids = ("18.2",)
    needs = (Forces,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.ended: tuple[str, str] | None = None  # (the side with no combat unit left, the phase)

    def phase_ended(self, pid: str) -> None:
        if self.ended is not None or self.state.phase_kind is None:
            return
        for side in self.board.other_side:
            if not self.board.unit_hexes(side):  # kept by the board view: no scan (a REPL alone counts, see Choice)
                self.ended = (side, self.state.phase or pid)
                return

    def phase_started(self, pid: str) -> None:
        if self.ended is not None and self.once("18.2"):
            side, phase = self.ended
            names = self.board.side_names
            self.find("18.2", f"no {names[side]} combat unit was on the map at the end of the {phase}: the "
                      f"{names[self.board.other_side[side]]} player won a Sudden Victory there and the game ended, "
                      f"but play went on to the {self.state.phase}")
