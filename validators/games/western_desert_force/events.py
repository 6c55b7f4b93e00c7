"""Random Events (5.0): which event a Random Events roll makes happen, a fact several rules read
(the AP ledger its AP effect, replacements its points, leaders a casualty, fortresses a status).

Choices (5.0): one roll a turn counts, in the Random Events phase, never on Turn 1 (3.1); the
first die (Allied) is the tens, the second (Axis) the ones.  No Event, and an event that counts
as No Event (too early, once-only and rolled again, impossible), is no event.
"""
from __future__ import annotations

from validators.kernel.rule import Tracker
from validators.replay.replayer import Rolled

D66 = "Random Events d66"


class RandomEvents(Tracker):
    """The events that happened: `counted` (the roll heard is the turn's one roll) and `just`
    ((code, event) it made happen, else None); `replacements` (turn, side) -> extra points (7.6)."""

    def start(self) -> None:
        events = self.tables.get("random-events", {}).get("events", {})
        self.table: dict[str, dict] = {str(k): v for k, v in events.items()}
        self.done: set[str] = set()  # once-only events that happened
        self.rolled_turns: set[int] = set()
        self.replacements: dict[tuple[int, str], int] = {}
        self.counted, self.just = False, None

    def rolled(self, e: Rolled) -> None:
        st = self.state
        self.counted, self.just = False, None
        if (e.button != D66 or st.turn == self.game.info.turns.first or st.phase_kind != "random-events"
                or st.turn in self.rolled_turns):
            return
        self.rolled_turns.add(st.turn or 0)
        self.counted = True
        if len(e.dice) != 2:
            return
        code = f"{e.dice[0]}{e.dice[1]}"
        ev = self.table.get(code)
        if not ev or ev.get("name") == "No Event" or not self._possible(code, ev):
            return
        if ev.get("once"):
            self.done.add(code)
        self.just = (code, ev)
        for side, n in ev.get("effect", {}).get("replacements", {}).items():
            key = (st.turn or 0, side)
            self.replacements[key] = self.replacements.get(key, 0) + int(n)

    def _possible(self, code: str, ev: dict) -> bool:
        """5.0: too early, a once-only event again, or impossible: No Event."""
        if (self.state.turn or 0) < int(ev.get("earliest", 0)) or code in self.done:
            return False
        need = ev.get("requires", {})
        if "leader_on_map" in need and not self._leader_on_map(need["leader_on_map"]):
            return False
        if "fortress_below_intact" in need:
            p = self.board.marker(need["fortress_below_intact"])
            if p is not None and p.map is not None and p.layer_level("Face") in (0, 1):
                return False
        return True

    def _leader_on_map(self, name: str) -> bool:
        board = self.board
        return any(board.hex_of(p) is not None and leader.faces[max(1, p.layer_level("Leader")) - 1].name == name
                   for p in board.replayer.board.pieces.values() if (leader := board.leader_of(p)) is not None)
