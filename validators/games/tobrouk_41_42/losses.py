"""Losses (6.1): digest 10.1 rank 3, step-loss bookkeeping.

After the fire, each T1 marker costs the units of its hex one step and each T2 two (6.1): a
counter flipped to its reduced face is one step, a counter removed (or sent off the map) is the
steps it still had, a weaker counter brought in to replace it (6.1d) gives its steps back.  The
steps lost in a hex during a combat phase are compared, when the phase ends, with the T1/T2
markers placed there in the phase (no more than the steps the hex's units had); a step lost in
a hex that took no T1/T2 is reported too (no unhit unit is reduced).  Judged when the phase ends
(a step may be taken late), reported at the act: a T1/T2 marker flipped to T while its steps were
not yet taken (6.1e: "once the step loss has been applied, the marker is flipped"), or the last
step lost beyond what the hex's markers called for when it was lost.

Choices:
- Markers lie in hexes: the losses are counted per hex, over all its combat units of the side
  the markers hit (which unit takes the step is the owner's choice).
- Air strikes (5.5) hit in a maneuver (B, D), and "the reactive player then applies any losses"
  there: a maneuver's T1/T2 markers and step losses are compared the same way when it ends; in
  a maneuver a step regained is a replacement (4.41c) and a unit entering the map a reinforcement,
  neither a loss, and a unit leaves the map as a loss only to an eliminated box (not to a Combat
  Group's display).  HQ flips (6.5) are not counted.
- 6.4: a unit that fails its morale check may surrender (yellow morale, 6.4c, not in the counters'
  data; or no safe retreat, 6.4a) and is removed: losses beyond the T1/T2 markers in a hex where a
  hit marker went are not reported.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.units import HITS, TobroukRule, mid
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed


class Losses(TobroukRule):
    """6.1: each T1 marker costs the units of its hex one step, each T2 two (no more than they have),
    and no unit without one loses a step; judged when the combat phase ends."""

    ids = ("6.1",)
    acts_in = {"unit_step": ()}

    def new_phase(self) -> None:
        self.hits: dict[str, int] = {}  # hex -> steps the T1/T2 markers placed there call for
        self.available: dict[str, int] = {}  # hex -> steps its units had at the first T1/T2
        self.lost: dict[str, int] = {}  # hex -> steps lost there
        self.hit_side: dict[str, str] = {}
        self.tested: set[str] = set()  # hexes a hit marker (T, T1, T2) went to: a surrender may follow (6.4)
        self.flipped_calls: dict[str, int] = {}  # hex -> steps of its T1/T2 markers flipped to T (6.1e)
        self.short_at: dict[str, int] = {}  # hex -> the step a T1/T2 was flipped with its steps not taken
        self.over_at: dict[str, int] = {}  # hex -> the last step its units lost more than its markers call for

    def start(self) -> None:
        self.eliminated_boxes = self.track_boxes("eliminated")
        super().start()

    def phase_ended(self, pid: str) -> None:
        if pid in COMBATS + MANEUVERS:
            self._check_losses(strike=pid in MANEUVERS)

    def _hex_steps(self, hex_id: str) -> tuple[str | None, int]:
        cu = [p for p in self.pieces_in(hex_id) if self.is_cu(p)]
        side = self.side_id(cu[0]) if cu else None
        return side, sum(self.steps_now(self.unit_of(p), p) for p in cu)

    def added(self, e: Added) -> None:
        self._hit_marker(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        geo, phase = self.hexes, self.state.phase_id
        if phase in COMBATS and self.is_cu(e.piece) and e.old.label != e.new.label:
            u = self.unit_of(e.piece)
            if e.old.label in geo and e.new.label not in geo:
                self._lose(e.old.label, self.steps_now(u, e.piece))
            elif e.old.label not in geo and e.new.label in geo:
                self._lose(e.new.label, -self.steps_now(u, e.piece))
        elif phase in MANEUVERS and self.is_cu(e.piece) and e.old.label in geo and e.new.label in self.eliminated_boxes:
            self._lose(e.old.label, self.steps_now(self.unit_of(e.piece), e.piece))  # eliminated by an air strike
        if e.old.label != e.new.label:
            self._hit_marker(e.piece, e.new.label)

    def flipped(self, e: Flipped) -> None:
        phase = self.state.phase_id
        if phase not in COMBATS + MANEUVERS or e.where is None or e.where.label not in self.hexes:
            return
        h = e.where.label
        if e.layer == "Step" and self.is_cu(e.piece):
            if phase in COMBATS or e.new > e.old:  # in a maneuver a step regained is a replacement (4.41c)
                self._lose(h, e.new - e.old)
        elif e.layer == "Face" and mid(e.piece) in ("t1", "t2") and e.old == 1 and e.new == 2:
            self.flipped_calls[h] = self.flipped_calls.get(h, 0) + (1 if mid(e.piece) == "t1" else 2)
            if self.lost.get(h, 0) < min(self.flipped_calls[h], self.available.get(h, 0)):
                self.short_at.setdefault(h, self.state.step)  # 6.1e: flipped once the steps are taken

    def removed(self, e: Removed) -> None:
        if self.state.phase_id in COMBATS + MANEUVERS and self.is_cu(e.piece) and e.where is not None and e.where.label in self.hexes:
            self._lose(e.where.label, self.steps_now(self.unit_of(e.piece), e.piece))

    def _hit_marker(self, p: Piece, hex_id: str) -> None:
        mid = p.properties().get("MarkerId", "")
        if mid in HITS:
            self.tested.add(hex_id)
        if self.state.phase_id not in COMBATS + MANEUVERS or mid not in ("t1", "t2") or hex_id not in self.hexes:
            return
        if hex_id not in self.available:
            self.hit_side[hex_id], self.available[hex_id] = self._hex_steps(hex_id)
        self.hits[hex_id] = self.hits.get(hex_id, 0) + (1 if mid == "t1" else 2)

    def _lose(self, hex_id: str, steps: int) -> None:
        if hex_id not in self.available:
            side, have = self._hex_steps(hex_id)
            self.hit_side.setdefault(hex_id, side)
            self.available[hex_id] = have
        self.lost[hex_id] = self.lost.get(hex_id, 0) + steps
        if steps > 0 and self.lost[hex_id] > self.hits.get(hex_id, 0):
            self.over_at[hex_id] = self.state.step

    def _check_losses(self, strike: bool = False) -> None:
        for hex_id in sorted(set(self.hits) | set(self.lost)):
            want = min(self.hits.get(hex_id, 0), self.available.get(hex_id, 0))
            got = self.lost.get(hex_id, 0)
            if got == want or (strike and not want and got <= 0) or (got > want and hex_id in self.tested):
                continue  # more than the markers call for where a unit checked morale: a surrender (6.4a, 6.4c)
            calls = (f"its T1/T2 markers call for {self.hits[hex_id]} step(s)" if hex_id in self.hits
                     else "it took no T1 or T2")
            at = self.short_at.get(hex_id) if got < want else self.over_at.get(hex_id)
            had = f" (of {self.available[hex_id]} they had)" if self.hits.get(hex_id, 0) > want else ""
            if got < want and at:  # reported at the flip, the act: say what happened there
                what = (f"a T1/T2 marker flipped to T before its steps were taken (6.1e): by the end of the "
                        f"{self.state.phase} the units in {hex_id} lost {got} step(s); {calls}{had}")
            elif got > want and at:  # reported at the step loss too many
                what = (f"a step lost beyond the hits: by the end of the {self.state.phase} the units in {hex_id} "
                        f"lost {got} step(s); {calls}{had}")
            else:  # an omission, at its deadline
                what = f"end of the {self.state.phase}: the units in {hex_id} lost {got} step(s); {calls}{had}"
            self.find("6.1", what, None, None, hex_id, side=self.side_name(self.hit_side.get(hex_id)), at=at)
