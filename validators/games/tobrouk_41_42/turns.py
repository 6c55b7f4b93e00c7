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

from validators.games.tobrouk_41_42.state import MANEUVERS, MP_MARKERS, scenario_rules
from validators.games.tobrouk_41_42.units import TobroukRule
from validators.replay.replayer import Moved, Rolled

ORDER = "ABCDEF"


def iv_column(state, side: str) -> int:
    """The side's I/V column (2.23): + in its favour, - against."""
    return (state.iv_value() or 0) * (1 if side == "commonwealth" else -1)


def column(n: int) -> str:
    n = max(-5, min(5, n))
    return "0" if n == 0 else f"{n:+d}"


class SequenceOfPlay(TobroukRule):
    """2, 2.22-2.25, 8.2: phases in order, a turn ends in F with the MP markers equal, at most three
    pairs and none after a marker reached 10; each side's MP marker moves up only in its own maneuver
    (the active player's row not 'Int', the reactive player within the Maneuver Table's cell) and at
    the equalisation; at most one extra turn."""

    ids = ("2", "2.22", "2.23", "2.24", "2.25", "8.2")
    covers = ("2.21",)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.chosen: dict[str, int] = {}  # side -> MP chosen in this pair's maneuver

    def max_row(self, side: str) -> int:
        return int(self.man["max_row"][column(iv_column(self.state, side))])

    def reactive_cell(self, row: int, col: int) -> int:
        """2.24: the most MP the reactive player may use (tables/maneuver.yaml `cell`)."""
        return min(10, max(1, row + int(self.man["reactive_offset"][column(col)])))

    def phase_started(self, pid: str) -> None:
        st = self.state
        before, now = st.prev_phase_pos, st.phase_pos
        if before is not None and before[1] >= 0 and now[1] >= 0:
            (t0, i0), (t1, i1) = before, now
            a, b = ORDER[i0], ORDER[i1]
            if t1 == t0:
                if a == "F" and b == "B":
                    self._new_pair()
                elif i1 < i0:
                    self.find("2", f"the turn tracker went back from {a} ({st.phase_specs[i0]['name']}) to {b} "
                              f"({st.phase_specs[i1]['name']}): the phases are played in order")
            elif t1 is not None and t0 is not None:
                if t1 < t0 or t1 > t0 + 1:
                    self.find("2", f"the turn tracker went from Turn {t0} to Turn {t1}: every turn is played, in order")
                elif a != "F":
                    self.find("2.25", f"Turn {t0} ended in phase {a}: a turn ends in phase F, after the equalisation")
                self._game_length(t1)
        if pid == "B" and (before is None or before[0] != now[0] or ORDER[before[1]] == "F"):
            self.chosen = {}  # a new pair (or turn); the tracker going back to B keeps the pair's choice

    def _new_pair(self) -> None:
        limit = self.man["turn_limit"]
        at_ten = [self.side_names[x] for x in self.side_names if (self.mp_box(x) or 0) >= int(limit["mp"])]
        if at_ten:
            self.find("2.25", f"a new pair of maneuvers after {' and '.join(at_ten)}'s MP marker reached "
                      f"{limit['mp']}: the turn ends")
        elif self.state.pair > int(limit["maneuver_pairs"]):
            self.find("2.25", f"a pair of maneuvers beyond the {limit['maneuver_pairs']} of a turn")

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

    def moved(self, e: Moved) -> None:
        side = MP_MARKERS.get(e.piece.properties().get("MarkerId", ""))
        if side is None or self.state.phase_id is None:
            return
        box = self.mp_box(side)
        old = self.track_boxes("mp").get(e.old.label)
        if box is None or old is None:
            return
        name = self.side_names[side]
        old = int(old)
        if box < old:
            if not (self.state.phase_id == "A" and box == 0):
                self.find("2.22", f"the {name} MP marker went back from {old} to {box}: MP spent in a turn are not "
                          "taken back (the markers go back to 0 only at the start of a turn)", None, e.old.label,
                          e.new.label, side=name)
            return
        if self.state.phase_id in MANEUVERS:
            self._chosen(side, e)
        elif self.state.phase_id == "F":
            other = self.mp_box(self.other_side[side]) or 0
            if box > other:
                self.find("2.25", f"equalisation moves the lower MP marker up to the higher ({other}); the {name} "
                          f"marker went to {box}", e.piece, side=name)
        else:
            self.find("2.22", f"the {name} MP marker moved in the {self.state.phase}: it moves when a maneuver chooses its "
                      "MP (phases B and D) and at the equalisation (F)", None, e.old.label, e.new.label, side=name)

    def _chosen(self, side: str, e: Moved) -> None:
        name, note = self.side_names[side], self.reconstructed("maneuver")
        if self.maneuvering() != side:
            self.find("2.24" if self.state.phase_id == "B" else "2.23",
                      f"the {name} MP marker moved in the {self.side_name(self.maneuvering())} player's maneuver "
                      f"({self.state.phase})", None, e.old.label, e.new.label, side=name)
            return
        mp = self.maneuver_mp(side)
        if self.state.phase_id == "B":
            top = self.max_row(side)
            if mp > top:
                self.find("2.23", f"{mp} MP chosen: row {mp} is 'Int' in the active player's I/V column "
                          f"{column(iv_column(self.state, side))} (at most {top}){note}", e.piece, side=name)
            self.chosen[side] = mp
        else:
            active = self.state.active
            row = self.chosen.get(active or "")
            if row:
                col = iv_column(self.state, active)
                cell = self.reactive_cell(row, col)
                if mp > cell:
                    self.find("2.24", f"the reactive player used {mp} MP: the Maneuver Table gives at most {cell} "
                              f"(row {row}, column {column(col)}){note}", e.piece, side=name)


class Initiative(TobroukRule):
    """2.1: the initiative is rolled once a turn, in the Administrative phase, except on a turn the
    scenario gives it (11.2d, 11.4d, 11.5: Turn 1)."""

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        cards = game.tables["scenario-rules"].data if "scenario-rules" in game.tables else {}
        return ("2.1", *sorted({sc.get("rule", "2.1") for sid, sc in cards.items()
                                if isinstance(sc, dict) and scenario_rules(cards, sid).get("initiative_turn_1")} - {"2.1"}))

    def start(self) -> None:
        self.table = self.tables["initiative"]
        self.won: dict[int, str | None] = {}  # turn -> 'A', 'C' or None (still to roll)

    def rolled(self, e: Rolled) -> None:
        if not (e.button.endswith(" initiative 1d6") and e.dice):
            return
        turn, side = self.state.turn or 0, e.button.split(" initiative")[0]
        if self.state.phase_id not in (None, "A"):
            self.find("2.1", f"the initiative is rolled in the Administrative phase (A-4), not in the {self.state.phase}",
                      side=side)
            return
        first = self.sc_rules.get("initiative_turn_1")
        if turn == self.game.info.turns.first and first:
            self.find(self.sc_rules.get("rule", "2.1"), f"on Turn 1 the scenario gives the initiative to the "
                      f"{self.side_names[first]} player: no initiative roll", side=side)
            return
        if self.won.get(turn):
            self.find("2.1", f"the initiative of Turn {turn} was already won ({self.won[turn]}): no roll again",
                      side=side)
            return
        box = self.box_of("iv", "iv") or "0"
        result = self.table["columns"]["0" if box.startswith("0") else box][e.dice[0] - 1]
        dash = self.sc_rules.get("dash_gives_initiative", {})
        if result == "-" and turn in dash.get("turns", ()):
            result = "A" if dash["side"] == "axis" else "C"
        self.won[turn] = None if result == "-" else result
