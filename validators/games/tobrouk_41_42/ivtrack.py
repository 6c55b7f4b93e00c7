"""The Initiative/Victory track (9, with 3.3d, 3.8, 4.41d, 5.5, 6.5f, 8.1, 8.2, 9.2-9.5, 11.2g,
11.2j, 11.4i, 11.5i, 11.5l, 12.3): digest 10.1 rank 4, I/V reconciliation.

Every move of the I/V marker must have a reason the rules give.  The marker is read once per
window: a phase, or the end of a turn (its last phase F and the next turn's phase A together).
When a window closes, the marker's net move in it must be covered by the reasons the log shows
so far, each good for so many spaces towards one side (a "credit"); a credit is used up by the
move it explains and lapses at the end of the next turn's first maneuver (a player may pay late).

Credits (+ the side the marker moves towards):
- 5.5: an Air strike declaration: 1 towards the opponent, once per maneuver and side;
- 11.2j, 11.4i, 11.5i, 11.5l: a "Reserve released" declaration, or the first move of a unit of
  a reserve its owner may pay for: 1 towards the opponent (the move's: only within its phase, as
  reserves.py reads a release paid, so that a payment after the phase, when the move was already
  reported unreleased, is no reason);
- 11.2g: a reinforcement that may cost a space (Littorio) entering the map: 1 towards the CW;
- 6.5f: an eliminated HQ re-entering: 2 towards the opponent;
- 4.41d: every third wreck repaired by a side (Repair wreck declarations, or Wreck markers taken
  off the map in its maneuver, the larger): 1 towards it;
- 12.3: the Commonwealth commando roll of 2 or 12: 3 towards the CW;
- 9.4: a side's unit entering Tobrouk 2013, when none of its units stood there as the turn
  began: 2 towards it; entering one of the scenario's secondary objectives likewise: 1 for the
  1st, 4th and 7th such capture of the turn (bundles of 3, 9.4b');
- end of turn (9.3, 11.1e, 11.5f): the loss differential: units (counter families, 6.1d) on
  the map or a CG display during the turn and no longer there at its end, a step 1 point, an
  armoured step 2, at the strength they had when first seen (9.3c'); 1/2/3 spaces at the
  scenario's thresholds towards the side with fewer points; per turn or counted from the start
  (digest O19), the larger; an HQ of a side eliminated in the turn (value not given, O17): up to
  3 spaces towards the opponent (not one removed where 6.5e does not allow it: that is no reason,
  and is reported under 6.5); after the marker stood on a general-retreat box (8.1): 5 spaces
  either way (8.1b, 9.4d) and a side's losses possibly doubled or not counted; the scenario's
  last turn: 1 either way (8.2);
- phase A (3.3d, 3.8c): 1 towards the opponent per HQ of a side in a hex with a CR marker
  during the phase; the Tobrouk HQ on the map: 1 towards the Axis.

The window is judged when it closes (a reason may come after the marker moved, within the
window), and a finding is reported at the marker's last move in it (the act).

Not judged: the window in which the log begins (a saved game's debts are unknown, and turn 1's
phase A holds the bidding for sides, 9.2); a log whose tracker first moves to phase B of the
scenario's first turn begins the game, so that phase B is judged.  The two 0 boxes are one value, so a move between
them is no move.  The losses and the Gazala-line, objective and camp readings rest on
reconstructed data and say so.

6.5f's "always moves the I/V marker two spaces" is checked the other way too: when the turn of a
re-entry ends, the marker must have moved two boxes towards the opponent since the re-entry
(fewer if it reached the end of the track), unless credits towards the re-entering side that
arose meanwhile could have offset it.
"""
from __future__ import annotations

from collections import Counter

from validators.games.tobrouk_41_42.hqs import HQLosses
from validators.games.tobrouk_41_42.reserves import ReserveGroups
from validators.games.tobrouk_41_42.state import MANEUVERS, box_value
from validators.games.tobrouk_41_42.units import WRECKS, TobroukRule, Units, left_map
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed, Rolled, Said

ORDER = "ABCDEF"
TOBROUK = "2013"
DATA_NOTE = " (loss points, objectives and the Tobrouk camp rest on reconstructed data)"


class Credit(Record):
    """Spaces the I/V marker may move for one reason (a plain record: builder/record.py)."""

    __slots__ = ("toward", "spaces", "turn", "why", "phase_only")

    def __init__(self, toward: int, spaces: int, turn: int, why: str, phase_only: bool = False):
        self.toward = toward  # +1 towards the Commonwealth, -1 towards the Axis
        self.spaces, self.turn, self.why = spaces, turn, why
        self.phase_only = phase_only  # good only in the phase it arose in (a reserve's move paid for, 11.2j)


class IVTrack(TobroukRule):
    """9 (with 6.5f): every move of the I/V marker has the reasons the rules give for it (see the
    module's docstring), and an HQ's re-entry moves it two spaces to the opponent."""

    ids = ("9", "6.5")
    needs = (Units, ReserveGroups, HQLosses)

    def start(self) -> None:
        self.rg, self.losses = self.ctx.get(ReserveGroups), self.ctx.get(HQLosses)
        vic = self.tables.get("victory", {})
        self.iv_boxes: list[str] = list(self.game.tracks["iv"].boxes) if "iv" in self.game.tracks else []
        thresholds = vic.get("loss_thresholds", {})
        self.thresholds = [int(x) for x in (self.rg.scenario_value("loss_thresholds") or thresholds.get(
            self.state.scenario or "", thresholds.get("default", [5, 10, 15])))]
        self.retreat_boxes = set(vic.get("general_retreat_boxes", ()))
        colour = vic.get("objectives_by_scenario", {}).get(self.state.scenario or "")
        self.objectives = set(vic.get("objectives", {}).get(colour, ())) - {TOBROUK}
        self.credits: list[Credit] = []
        self.iv_anchor: int | None = None
        self.iv_moved_at: int | None = None  # the step of the marker's last move in the window
        self.window_start: str | None = None
        self.window_phases: list[str] = []
        self.struck_in: set[tuple] = set()
        self.paid_groups: set[int] = set()
        self.costly = {u for r in (self.rg.scenario_value("reinforcements") or []) if r.get("cost_if_axis_ahead")
                       for u in r.get("units", ())}
        self.costly_paid = False
        self.credited_units = self.costly | set(self.rg.groups_of)  # units whose arrival may earn a credit (_unit_arrives)
        self.repairs = {s: [0, 0] for s in self.side_names}  # side -> [declared, wreck markers taken off]
        self.repair_credits = {s: 0 for s in self.side_names}
        self.root = self._roots()
        self.points: dict[str, tuple[str, int]] = {}  # family -> (side, loss points)
        self.lost_total = {s: 0 for s in self.side_names}
        self.cr_hqs = {s: 0 for s in self.side_names}
        self.reentry_watch: list[tuple[str, str, int, list[int], int]] = []  # side, HQ, box index, offsets, turn
        self._turn_begins()  # in_play_turn, hq_lost_turn, captures, occupied_at_turn

    def iv_index(self) -> int | None:
        box = self.box_of("iv", "iv")
        return self.iv_boxes.index(box) if box in self.iv_boxes else None

    @staticmethod
    def toward_opponent(side: str | None) -> int:
        return 1 if side == "axis" else -1

    def credit(self, toward: int, spaces: int, why: str, turn: int | None = None, phase_only: bool = False) -> Credit:
        """A reason for `spaces` moves `toward` a side, good until the next turn's first maneuver ends
        (`turn`: the turn it belongs to, the ended one for end-of-turn reasons)."""
        c = Credit(toward, spaces, self.state.turn or 0 if turn is None else turn, why, phase_only)
        self.credits.append(c)
        for watch in self.reentry_watch:
            if toward == -self.toward_opponent(watch[0]):
                watch[3].append(spaces)
        return c

    def _roots(self) -> dict[str, str]:
        parent = {u.replaced_by: u.id for u in self.game.units if getattr(u, "replaced_by", None)}
        out = {}
        for u in self.game.units:
            r = u.id
            while r in parent:
                r = parent[r]
            out[u.id] = r
        return out

    def _families_in_play(self) -> dict[str, Piece]:
        return self.memo("families in play", self._families_now)

    def _families_now(self) -> dict[str, Piece]:
        boxes, where = self.track_boxes("cg"), self.board.where
        return {self.root.get(u.id, u.id): p for p in self.replayer.board.pieces.values()
                if (u := self.unit_of(p)) is not None and self.is_cu(p) and (where(p) in self.hexes or where(p) in boxes)}

    def _see_families(self) -> None:
        self.unseen = False
        for fam, p in self._families_in_play().items():
            self.in_play_turn.add(fam)
            if fam not in self.points:
                u = self.unit_of(p)
                self.points[fam] = (self.side_id(p), self.steps_now(u, p) * (2 if u.armoured else 1))

    def _turn_begins(self) -> None:
        self.in_play_turn = set()
        self._see_families()
        self.hq_lost_turn = set()
        self.captures = {s: 0 for s in self.side_names}
        self.occupied_at_turn = {s: set(self.board.unit_hexes(s)) for s in self.side_names}  # the hexes each holds

    def _spaces(self, points: int) -> int:
        return sum(1 for t in self.thresholds if points >= t)

    def _end_of_turn(self, turn: int, retreat: bool) -> None:
        self._see_families()
        now = set(self._families_in_play())
        lost = {s: 0 for s in self.side_names}
        for fam in self.in_play_turn - now:
            side, pts = self.points.get(fam, (None, 0))
            if side in lost:
                lost[side] += pts
        for s in self.side_names:
            self.lost_total[s] += lost[s]
        for s in self.side_names:
            o = self.other_side[s]
            toward = -self.toward_opponent(s)  # towards s
            if o in self.hq_lost_turn:
                self.credit(toward, 3, f"an eliminated {self.side_names[o]} HQ counted as a loss (9.3b, F-3)", turn)
                continue
            best = 0
            for mine, theirs in ((lost[s], lost[o]), (self.lost_total[s], self.lost_total[o])):
                best = max(best, self._spaces(theirs * (2 if retreat else 1) - (0 if retreat else mine)))
            if best:
                self.credit(toward, best, f"the loss differential of turn {turn} (9.3)", turn)
        if retreat or self.box_of("iv", "iv") in self.retreat_boxes:
            for t in (1, -1):
                self.credit(t, 5, "a general retreat (8.1b, 9.4d)", turn)
        last = int(self.sc_rules.get("last_turn", self.game.info.turns.last))
        if turn == last:
            for t in (1, -1):
                self.credit(t, 1, "an extra turn demanded (8.2)", turn)

    def line_said(self, e: Said) -> None:
        st = self.state
        strike, released, repair = st.line_of("Air strike"), st.line_of("Release reserve"), st.line_of("Repair wreck")
        if strike is not None:
            sq = st.named_unit(strike[0])
            side = self.side_id(sq) if sq is not None else None
            key = (self.state.turn, st.pair, self.state.phase_id, side)
            if side and key not in self.struck_in:
                self.struck_in.add(key)
                self.credit(self.toward_opponent(side), 1, "an air strike (5.5)")
        elif released is not None:
            p = st.named_unit(released[0])
            if p is not None:
                self.credit(self.toward_opponent(self.side_id(p)), 1, "a reserve released (11.2j, 11.4i, 11.5i)")
        elif repair is not None:
            p = st.named_unit(repair[0])
            if p is not None and self.side_id(p) in self.repairs:
                self._repaired(self.side_id(p), 0)

    def _repaired(self, side: str, kind: int) -> None:
        self.repairs[side][kind] += 1
        due = max(self.repairs[side]) // 3
        while self.repair_credits[side] < due:
            self.repair_credits[side] += 1
            self.credit(-self.toward_opponent(side), 1, "three wrecks repaired (4.41d)")

    def rolled(self, e: Rolled) -> None:
        kill = self.tables.get("optional", {}).get("switches", {}).get("rommel", {}).get("commando", {})
        if e.button == "Commonwealth commando 2d6" and sum(e.dice) in kill.get("kills_on", (2, 12)):
            self.credit(1, int(kill.get("iv_spaces", 3)), "Rommel killed by the commando (12.3)")

    def _in_play(self, label: str) -> bool:
        return label in self.hexes or label in self.track_boxes("cg")

    def moved(self, e: Moved) -> None:
        old, new, hexes = e.old.label, e.new.label, self.hexes
        u = self.unit_of(e.piece)
        if u is not None and old in hexes and new in hexes:  # a unit's step, the commonest event: no marker,
            if old != new and self.state.phase_id is not None:  # nothing leaves the map, HQLosses does not hear it
                if self.unseen:
                    self._see_families()
                side = self.side_id(e.piece)
                if u.id in self.credited_units or new not in self.occupied_at_turn.get(side, ()):
                    self._unit_arrives(e.piece, u, side, new)  # else it has nothing to credit (most steps)
            return
        if u is None and old != new and e.piece.properties().get("MarkerId") == "iv":  # (a unit has no MarkerId)
            self.iv_moved_at = self.state.step  # the act a finding of the window is reported at
        if old in hexes and new not in hexes:  # left_map
            self._left_map(e.piece, old)
        if self.losses.losses_at(e):
            self._hq_events()
        if u is None:
            return
        if not (old in hexes and new in hexes) and self._in_play(new) and not self._in_play(old):
            self.unseen = True  # a family may have come into play: seen at the next unit's move onto a hex
        if old == new or self.state.phase_id is None or new not in hexes:
            return
        if self.unseen:  # else every family in play was seen already
            self._see_families()
        self._unit_arrives(e.piece, u, self.side_id(e.piece), e.new.label)

    def added(self, e: Added) -> None:
        if self.losses.losses_at(e):
            self._hq_events()
        u = self.unit_of(e.piece)
        if u is not None and self._in_play(e.where.label):
            self.unseen = True
        if u is not None and self.state.phase_id is not None and e.where.label in self.hexes:
            self._see_families()
            self._unit_arrives(e.piece, u, self.side_id(e.piece), e.where.label)

    def removed(self, e: Removed) -> None:
        if self.losses.losses_at(e):
            self._hq_events()
        if (gone := left_map(e, self.hexes)) is not None:
            self._left_map(e.piece, gone)

    def _left_map(self, p: Piece, hex_id: str) -> None:
        if p.properties().get("MarkerId", "") in WRECKS and self.state.phase_id in MANEUVERS and self.maneuvering():
            self._repaired(self.maneuvering(), 1)

    def _unit_arrives(self, p: Piece, u, side: str | None, hex_id: str) -> None:
        for gi in self.rg.groups_of.get(u.id, []):  # any tied card's group may be the one paid for (reserves.py)
            if gi not in self.paid_groups and "paid" in self.rg.groups[gi]["when"]:
                self.paid_groups.add(gi)
                self.credit(self.toward_opponent(side), 1, f"a reserve released ({self.rg.groups[gi]['rule']})",
                            phase_only=True)
                break
        if u.id in self.costly and not self.costly_paid:
            self.costly_paid = True
            self.credit(1, 1, "the Littorio division's arrival (11.2g)")
        occupied = self.occupied_at_turn.get(side)
        if occupied is None or hex_id in occupied or not self.is_cu(p):
            return
        occupied.add(hex_id)  # counted once a turn
        toward = -self.toward_opponent(side)
        if hex_id == TOBROUK:
            self.credit(toward, 2, "Tobrouk captured (9.4a)")
        elif hex_id in self.objectives:
            self.captures[side] += 1
            if self.captures[side] % 3 == 1:
                self.credit(toward, 1, "secondary objectives captured (9.4b')")

    def _hq_events(self) -> None:
        """An HQ eliminated (9.3b: a loss of the turn) or re-entering (6.5f: 2 spaces to the opponent)."""
        if self.losses.removal is not None and self.state.phase_id is not None and self.side_id(self.losses.removal[0]) \
                and self.losses.removal_open is None:  # an elimination 6.5e does not allow is no reason
            self.hq_lost_turn.add(self.side_id(self.losses.removal[0]))
        if self.losses.reentry is not None:
            p = self.losses.reentry[0]
            side = self.side_id(p)
            self.credit(self.toward_opponent(side), 2, "an eliminated HQ re-entering (6.5f)")
            idx = self.iv_index()
            if idx is not None and side:
                self.reentry_watch.append((side, p.name, idx, [], self.state.turn or 0))

    def phase_started(self, pid: str) -> None:
        before = self.state.prev_phase_pos
        old = ORDER[before[1]] if before is not None and before[1] is not None and 0 <= before[1] < 6 else None
        turned = before is not None and before[0] is not None and self.state.turn is not None and self.state.turn > before[0]
        if turned:
            self._end_of_turn(before[0], self.losses.retreat_was)  # F-3 (a tracker that skips phase A ends the turn all the same)
        if turned and pid == "A":
            self.window_phases.append("A")  # the end of a turn and the next phase A are one window
        else:
            if old == "A" or turned:
                self._admin_credits()
            if self.iv_anchor is not None:
                self._check_window(closing_turn=old == "A" or turned)
            self.credits = [c for c in self.credits if not c.phase_only]
            if old == "B" and self.state.pair == 1:
                self.credits = [c for c in self.credits if c.turn >= (self.state.turn or 0)]
            card = self.game.scenarios.get(self.state.scenario or "")
            first = card.first_turn if card is not None else self.game.info.turns.first
            start = old is not None or (pid == "B" and self.state.turn == first)  # the set-up's tracker stands at A
            self.iv_anchor = self.iv_index() if start else None
            self.window_start = self.box_of("iv", "iv")
            self.window_phases = [pid]
            self.iv_moved_at = None
        if pid == "A" or turned:
            self._turn_begins()
            self.cr_hqs = self._count_cr_hqs()

    def finish(self) -> None:
        if self.state.phase_id == "F":
            self._end_of_turn(self.state.turn or 0, self.losses.retreat_seen)
        if self.iv_anchor is not None:
            self._check_window(closing_turn=True, final=True)

    def _count_cr_hqs(self) -> Counter:
        """side -> its HQs in a hex with a CR marker (3.3d)."""
        return self.memo("CR HQs", lambda: Counter(self.side_id(p) for p in self.hqs_on_map()
                                                   if self.markers_in(self.hex_of(p), "cr")))

    def _admin_credits(self) -> None:
        now = self._count_cr_hqs()
        for s in self.side_names:
            n = max(now[s], self.cr_hqs.get(s, 0))
            if n:
                self.credit(self.toward_opponent(s), n, f"{n} {self.side_names[s]} HQ(s) still unsupplied (3.3d)")
        if self.unit_piece_on_map("hq-tobrouk"):
            self.credit(-1, 1, "the Tobrouk HQ cut from the Alexandria road (3.8c)")

    def _check_window(self, closing_turn: bool, final: bool = False) -> None:
        idx = self.iv_index()
        if idx is None or self.iv_anchor is None:
            return
        drift = box_value(self.iv_boxes[idx]) - box_value(self.iv_boxes[self.iv_anchor])
        if drift:
            toward = 1 if drift > 0 else -1
            usable = [c for c in self.credits if c.toward == toward and c.turn >= (self.state.turn or 0) - 1 and c.spaces > 0]
            have = sum(c.spaces for c in usable)
            need = abs(drift)
            if need > have:
                side = "commonwealth" if toward > 0 else "axis"
                why = "; ".join(sorted({c.why for c in usable})) or "none"
                names = {s["id"]: s["name"] for s in self.state.phase_specs}
                where = " and ".join(names.get(p, p) for p in self.window_phases)
                self.find("9", f"the I/V marker moved {need} space(s) towards the {self.side_names[side]} "
                          f"({self.window_start} to {self.iv_boxes[idx]}) in the {where}: the reasons the log shows "
                          f"account for at most {have} ({why}){DATA_NOTE}",
                          side=self.side_names[side], at=self.iv_moved_at)
                need = have
            for c in usable:
                take = min(need, c.spaces)
                c.spaces -= take
                need -= take
        if closing_turn:
            self._check_reentries(idx, final)

    def _check_reentries(self, idx: int, final: bool) -> None:
        keep = []
        for side, name, at, offsets, turn in self.reentry_watch:
            if turn >= (self.state.turn or 0) and not final:
                keep.append((side, name, at, offsets, turn))
                continue
            toward = self.toward_opponent(side)
            room = (len(self.iv_boxes) - 1 - at) if toward > 0 else at
            moved = (idx - at) * toward
            if moved + sum(offsets) < min(2, room):
                self.find("6.5", f"{name} re-entered the game and the I/V marker did not move two spaces towards the "
                          f"{self.side_names[self.other_side[side]]} by the end of the turn ({self.iv_boxes[at]} to "
                          f"{self.iv_boxes[idx]}, 6.5f)", side=self.side_names[side])
        self.reentry_watch = keep
