"""Sequence of play (2, 2.1, 2.21-2.25, 8.2): the order of phases, the pairs of maneuvers, the
maneuver points on the MP track and the initiative roll (digest 10.1 ranks 5, 9 and 20).

Evidence: the turn tracker (phases A-F, tables/sequence.yaml), the two MP markers on the MP
track (boxes 0-10: MP spent this turn, the reading of the example and of RKB, digest O4), the
I/V marker's box and the "<Side> initiative 1d6" buttons.

Choices:
- 2: phases go forward (a phase with nothing to do may be skipped); after F the tracker goes
  back to B for a new pair of maneuvers in the same turn, or on to the next turn's A.  The
  first phase a log shows is where it begins (a log may continue a saved game).
- 2.23/2.24: the MP a maneuver chose is how far its side's MP marker moved in that phase.  The
  active player's row may not be "Int" in his I/V column, and the reactive player may use at
  most the cell of that row (tables/maneuver.yaml, reconstructed).  The I/V column of a side is
  +n when the I/V marker is on a box n in its favour, -n against it.
- 2.25: at the end of F both markers stand on the same box (the lower moved up to the higher);
  a new pair is played only while no marker is at 10 and fewer than three pairs were played.
- MP markers go back to 0 only in the Administrative phase of a new turn.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import MANEUVERS, PhaseState
from validators.replay.replayer import Moved, Rolled

ORDER = "ABCDEF"


class TurnRules(PhaseState):
    """Part of the Tobrouk 41-42 auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.man = self.tables["maneuver"]
        self.init_table = self.tables["initiative"]
        self.sc_rules = self.tables.get("scenario-rules", {}).get(self.scenario or "", {})
        self.mp_start: dict[str, int] = {}  # side -> MP box when the phase began
        self.chosen: dict[str, int] = {}  # side -> MP chosen in this pair's maneuver
        self.initiative: dict[int, str | None] = {}  # turn -> 'A', 'C' or None (still to roll)

    # -- the MP track ------------------------------------------------------------------------
    def mp_box(self, side: str) -> int | None:
        box = self.box_of({"axis": "mp-axis", "commonwealth": "mp-cw"}[side], "mp")
        return int(box) if box is not None and box.isdigit() else None

    def maneuver_mp(self, side: str) -> int:
        """MP chosen for the side's maneuver in progress: how far its MP marker moved in the phase."""
        now, then = self.mp_box(side), self.mp_start.get(side)
        return max(0, now - then) if now is not None and then is not None else 0

    def iv_column(self, side: str) -> int:
        """The side's I/V column (2.23): + in its favour, - against."""
        box = self.box_of("iv", "iv") or "0"
        if box.startswith("0"):
            return 0
        n, letter = int(box[:-1]), box[-1]
        return n if (letter == "A") == (side == "axis") else -n

    def max_row(self, side: str) -> int:
        return int(self.man["max_row"][self._col(self.iv_column(side))])

    def reactive_cell(self, row: int, column: int) -> int:
        """2.24: the most MP the reactive player may use (tables/maneuver.yaml `cell`)."""
        return min(10, max(1, row + int(self.man["reactive_offset"][self._col(column)])))

    @staticmethod
    def _col(n: int) -> str:
        n = max(-5, min(5, n))
        return "0" if n == 0 else f"{n:+d}"

    # -- phases (2) -----------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        before, now = self.prev_phase_pos, self.phase_pos
        if before is not None and before[1] >= 0 and now[1] >= 0:
            (t0, i0), (t1, i1) = before, now
            a, b = ORDER[i0], ORDER[i1]
            if t1 == t0:
                if a == "F" and b == "B":
                    self._new_pair()
                elif i1 < i0:
                    self.find("2", f"the turn tracker went back from {a} ({self.phase_specs[i0]['name']}) to {b} "
                              f"({self.phase_specs[i1]['name']}): the phases are played in order")
            elif t1 is not None and t0 is not None:
                if t1 < t0 or t1 > t0 + 1:
                    self.find("2", f"the turn tracker went from Turn {t0} to Turn {t1}: every turn is played, in order")
                elif a != "F":
                    self.find("2.25", f"Turn {t0} ended in phase {a}: a turn ends in phase F, after the equalisation")
                self._game_length(t1)
        for side in self.side_names:
            self.mp_start[side] = self.mp_box(side) or 0
        if pid == "B" and (before is None or before[0] != now[0] or ORDER[before[1]] == "F"):
            self.chosen = {}  # a new pair (or turn); the tracker going back to B keeps the pair's choice
        super().phase_started(pid)

    def _new_pair(self) -> None:
        at_ten = [self.side_names[x] for x in self.side_names if (self.mp_box(x) or 0) >= int(self.man["turn_limit"]["mp"])]
        if at_ten:
            self.find("2.25", f"a new pair of maneuvers after {' and '.join(at_ten)}'s MP marker reached "
                      f"{self.man['turn_limit']['mp']}: the turn ends")
        elif self.pair > int(self.man["turn_limit"]["maneuver_pairs"]):
            self.find("2.25", f"a pair of maneuvers beyond the {self.man['turn_limit']['maneuver_pairs']} of a turn")

    def _game_length(self, turn: int) -> None:
        last = int(self.sc_rules.get("last_turn", self.game.info.turns.last))
        extra = 1 if self.sc_rules.get("extra_turn", self.game.info.turns.extension) else 0
        if turn > last + extra:
            self.find("8.2", f"Turn {turn}: the scenario has {last} turns and at most one extra turn")

    def phase_ended(self, pid: str) -> None:
        if pid == "F":
            a, c = self.mp_box("axis"), self.mp_box("commonwealth")
            if a is not None and c is not None and a != c:
                self.find("2.25", f"phase F ends with the MP markers on {a} (Axis) and {c} (Commonwealth): the lower "
                          "marker moves up to the higher")
        super().phase_ended(pid)

    # -- MP markers (2.22-2.25) ---------------------------------------------------------------------
    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        side = self.mp_marker_side(e.piece)
        if side is None or self.phase_id is None:
            return
        box = self.mp_box(side)
        old = next((b for b in self.game.tracks["mp"].boxes if self.game.zone_name("mp", b) == e.old.label), None)
        if box is None or old is None:
            return
        name = self.side_names[side]
        old = int(old)
        if box < old:
            if not (self.phase_id == "A" and box == 0):
                self.find("2.22", f"the {name} MP marker went back from {old} to {box}: MP spent in a turn are not "
                          "taken back (the markers go back to 0 only at the start of a turn)", None, e.old.label,
                          e.new.label, side=name)
            return
        if self.phase_id in MANEUVERS:
            self._chosen(side, e)
        elif self.phase_id == "F":
            other = self.mp_box(self.other_side[side]) or 0
            if box > other:
                self.find("2.25", f"equalisation moves the lower MP marker up to the higher ({other}); the {name} "
                          f"marker went to {box}", e.piece, side=name)
        else:
            self.find("2.22", f"the {name} MP marker moved in the {self.phase}: it moves when a maneuver chooses its "
                      "MP (phases B and D) and at the equalisation (F)", None, e.old.label, e.new.label, side=name)

    def _chosen(self, side: str, e: Moved) -> None:
        name, note = self.side_names[side], self.reconstructed("maneuver")
        if self.maneuvering() != side:
            self.find("2.24" if self.phase_id == "B" else "2.23",
                      f"the {name} MP marker moved in the {self.side_name(self.maneuvering())} player's maneuver "
                      f"({self.phase})", None, e.old.label, e.new.label, side=name)
            return
        mp = self.maneuver_mp(side)
        if self.phase_id == "B":
            col, top = self.iv_column(side), self.max_row(side)
            if mp > top:
                self.find("2.23", f"{mp} MP chosen: row {mp} is 'Int' in the active player's I/V column {self._col(col)} "
                          f"(at most {top}){note}", e.piece, side=name)
            self.chosen[side] = mp
        else:
            row = self.chosen.get(self.active or "")
            if row:
                col = self.iv_column(self.active)
                cell = self.reactive_cell(row, col)
                if mp > cell:
                    self.find("2.24", f"the reactive player used {mp} MP: the Maneuver Table gives at most {cell} "
                              f"(row {row}, column {self._col(col)}){note}", e.piece, side=name)

    # -- initiative (2.1) ------------------------------------------------------------------------
    def on_rolled(self, e: Rolled) -> None:
        if e.button.endswith(" initiative 1d6") and e.dice:
            self._initiative(e)
        super().on_rolled(e)

    def _initiative(self, e: Rolled) -> None:
        turn = self.turn or 0
        if self.phase_id not in (None, "A"):
            self.find("2.1", f"the initiative is rolled in the Administrative phase (A-4), not in the {self.phase}",
                      side=e.button.split(" initiative")[0])
            return
        first = self.sc_rules.get("initiative_turn_1")
        if turn == self.game.info.turns.first and first:
            self.find(self.sc_rules.get("rule", "2.1"), f"on Turn 1 the scenario gives the initiative to the "
                      f"{self.side_names[first]} player: no initiative roll", side=e.button.split(" initiative")[0])
            return
        if self.initiative.get(turn):
            self.find("2.1", f"the initiative of Turn {turn} was already won ({self.initiative[turn]}): no roll again",
                      side=e.button.split(" initiative")[0])
            return
        box = self.box_of("iv", "iv") or "0"
        column = "0" if box.startswith("0") else box
        result = self.init_table["columns"][column][e.dice[0] - 1]
        dash = self.sc_rules.get("dash_gives_initiative", {})
        if result == "-" and turn in dash.get("turns", ()):
            result = "A" if dash["side"] == "axis" else "C"
        self.initiative[turn] = None if result == "-" else result
