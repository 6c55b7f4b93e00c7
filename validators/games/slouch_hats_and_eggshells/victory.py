"""The VP bookkeeping the log shows (18.15, 18.31-18.32): digest 10.1 rank 18 (part).  VPs are
where the vp-axis and vp-allied markers stand on the VP track.
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
