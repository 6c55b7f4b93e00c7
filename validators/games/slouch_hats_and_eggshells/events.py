"""Special Events (20.11-20.16, 20.2, 21.12a): draws and plays of the event markers, as the module's
Events window logs them (digest 10.1 rank 19).  A draw is a marker moved from the Special Events
Pool into a side's hand; a play is its Report line "<Side> plays event X: title (rule)".  Draws
are judged when the Special Events phase ends (21.12a, 21.22c give the first turn's; VPs may be
spent after a draw) and an unpaid draw is reported at its step: the first draw beyond the turn's
number and the draws the VPs spent pay for (20.12).  The
findings of 20.21D and of the VP costs (20.21A, B, D, 20.22A, E; tables/victory.yaml `costs`)
carry 20.2 (the catalogue numbers carry no letters) and name the event's paragraph.

Choices:
- `when` is read as: "Reinforcements" and "Special Events" the phases of that name; "Combat" any
  Combat phase (20.21H "any Combat phase"); "end of Combat" the friendly Combat phase or the
  friendly Exploitation Movement phase after it (the tracker may already have moved on); "Movement"
  a friendly Movement or Exploitation Movement phase; "Axis Transport" an Axis Transport phase;
  "Allied Movement" an Allied Movement or Exploitation Movement phase.  "any", "air mission" and
  "after Damascus is Allied" are not judged; a `when` not listed here is not judged.
- 20.12: the VPs paid for extra draws are every fall of the side's VP marker since the log began
  not yet counted for an earlier extra draw (falls paying other costs are not told apart, so a
  finding is sure).  A marker put straight back from the hand into the pool is a draw not made.
- 20.16: a once-only Axis play cancelled by Allied D in the same phase does not retire its marker.
- Axis P's VP (Scenario 1, before bomber missions) is conditional and not judged; Axis E costs
  only on its first play (20.22E 3).
- 20.11: a marker played and still out of the pool (and out of the hands) when the turn ends is
  reported, unless its event removes it (once-only) or its play was reported already.
- 20.11: "the Allies first" is broken by an Allied draw after an Axis one in the same phase (a
  player need not draw, so an Axis draw with no Allied one is no finding); the Axis taking E on
  The Axis Intervene's first turn (21.22c) comes before the draws.
- Nothing is judged before the turn tracker has been set (a log's first phase is unknown).
"""
from __future__ import annotations

import re

from validators.games.slouch_hats_and_eggshells.state import EVENT_PLAY
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.rule import Rule, Tracker
from validators.replay.replayer import Added, Flipped, Moved, Removed, Said

ONCE_ONLY = "remove this event from the special events pool"
AXIS_INTERVENE = "axis-intervene"  # the scenario whose first turn begins with the Axis taking E (21.22c)
TURN_NAMES = {"I June": 1, "II June": 2, "III June": 3, "I July": 4, "II July": 5, "III July": 6,
              "I August": 7, "II August": 8}  # 4.2: ten days a turn from I June
FROM_TURN = re.compile(r",\s*from\s+(?P<turn>[IV]+ \w+)\s*$")


class EventMarkers(Tracker):
    """How many times an event marker changed (drawn, shown, played, removed) or a "plays event"
    line was written since the log began (20.1): a rule that an event may excuse compares counts;
    and each play's turn, Segment, side and letter (a rule bound to one event asks `played`)."""

    def start(self) -> None:
        self.changed = 0
        self.plays: list[tuple[int | None, str | None, str, str]] = []  # (turn, segment, side name, letter)

    def played(self, side_name: str, letter: str, segment: bool = True, ever: bool = False) -> bool:
        """Whether `side_name` played event `letter` this turn (and, by default, this Segment), or
        (`ever`) since the log began."""
        st = self.state
        return any((ever or p[0] == st.turn and (not segment or p[1] == st.segment)) and p[2:] == (side_name, letter)
                   for p in self.plays)

    def _piece(self, e: Moved | Flipped | Added | Removed) -> None:
        if e.piece.properties().get("Kind") == "event" or (self.board.marker_id(e.piece) or "").startswith("event-"):
            self.changed += 1

    moved = flipped = added = removed = _piece

    def said(self, e: Said) -> None:
        if m := EVENT_PLAY.match(e.text.strip()):
            self.changed += 1
            self.plays.append((self.state.turn, self.state.segment, m["side"], m["letter"]))


class SpecialEvents(Rule):
    """20.11-20.2: markers are drawn in the Special Events phase (4 Allied and 3 Axis on the first
    turn, one each later, each further draw paid with 2 VPs, 18.14b); an event is played in the
    phase and from the turn its text names (tables/events.yaml `when`); once an event that says
    "Once played, remove this event from the Special Events Pool" is played, its letter is never
    played again, by either side; Diplomats Active only against an Axis A, B or E of the phase; a
    VP-costing event only with the VPs ("if VPs are not available, it cannot be played")."""

    ids = ("20.11", "20.12", "20.14", "20.16", "20.2")
    covers = ("20.1",)
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        names = self.board.side_names
        ev = self.tables.get("events", {})
        draws = ev.get("draws", {})
        self.draw_first = {k: int(v) for k, v in draws.get("turn_1", {}).items()}
        self.draw_later = {k: int(v) for k, v in draws.get("later", {}).items()}
        self.draw_vp = int(draws.get("extra_draw_vp", 2))
        # the side's PlayerHand zone, as builder.model.event_checks.hand_name names it (not imported:
        # that module loads the pydantic schema, a fifth of an audit's time)
        self.hands = {f"{x.name} hand": x.id for x in self.game.info.sides}
        decks = self.game.events.decks if self.game.events else []
        self.pools = {d.name for d in decks if d.side is None}
        self.event_when = {side: dict(ev.get(side, {})) for side in names}
        self.once_only: set[tuple[str, str]] = {
            (side, c.id) for d in decks for c in d.cards for side, m in (c.events or {}).items()
            if ONCE_ONLY in " ".join(m.text.lower().split())}
        self.event_costs = {k: int(v) for k, v in self.tables.get("victory", {}).get("costs", {}).items()}
        self._drawn: dict[str, list[str]] = {s: [] for s in names}  # pieces drawn this Special Events phase
        self._draw_step: dict[str, int] = {}  # piece -> log step of its draw this phase (20.12 reports there)
        self._vp_paid = {s: 0 for s in names}  # VP falls not yet counted for an extra draw
        self._vp_turn_max: dict[str, int | None] = {s: self.forces.vp(s)[1] for s in names}
        self._retired: dict[str, str] = {}  # letter -> who retired it
        self._phase_plays: list[tuple[str, str]] = []  # (side, letter) this phase
        self._played_before: set[tuple[str, str]] = set()
        self._used: dict[str, tuple[str, str]] = {}  # marker piece -> (side, card) played this turn
        self._faulty: set[tuple[str, str]] = set()  # (side, letter) of the turn's plays reported

    def turn_ended(self, turn: int) -> None:
        """20.11: a marker played this turn is back in the pool by the turn's end, unless its event
        removes it (once-only)."""
        board, pieces = self.board, self.board.replayer.board.pieces
        for pid, (s, card) in sorted(self._used.items()):
            p = pieces.get(pid)
            if p is not None and board.where(p) not in self.pools and board.where(p) not in self.hands \
                    and (s, card) not in self.once_only and (s, card) not in self._faulty:
                self.find("20.11", f"{p.name}, played on Turn {turn}, is still out of the pool at the turn's end: "
                          "a used marker returns to the Special Events Pool", side=board.side_names[s])
        self._used, self._faulty = {}, set()

    def _takes_first(self, piece) -> bool:
        """21.22c: on The Axis Intervene's first turn the Axis takes marker E before the draws."""
        st, first = self.state, self.tables.get("events", {}).get("scenario_2_turn_1", {})
        return (st.scenario == AXIS_INTERVENE and st.turn == st.span["first"] and not self._drawn["allied"]
                and piece.properties().get("EventId") == first.get("axis_takes"))

    def phase_started(self, pid: str) -> None:
        st, names = self.state, self.board.side_names
        self._drawn, self._phase_plays, self._taken_first = {s: [] for s in names}, [], set()
        self._draw_step = {}
        if st.phase_pos is not None and (st.prev_phase_pos is None or st.prev_phase_pos[0] != st.turn):
            self._vp_turn_max = {s: self.forces.vp(s)[1] for s in names}

    def phase_ended(self, pid: str) -> None:
        st, names = self.state, self.board.side_names
        if st.phase_kind != "special-events":
            return
        first = st.turn == int(st.span["first"])
        for s in ("allied", "axis"):
            if s not in names:
                continue
            base = (self.draw_first if first else self.draw_later).get(s, 1)
            n = len(self._drawn[s])
            need = max(0, n - base) * self.draw_vp
            if need == 0:
                continue
            if self._vp_paid[s] >= need:
                self._vp_paid[s] -= need
                continue
            unpaid = self._drawn[s][base + self._vp_paid[s] // self.draw_vp]  # the first draw the VPs do not pay
            self.find("20.12", f"the {names[s]} player drew {n} Special Event markers on Turn "
                      f"{st.turn}: {base} a turn{' on the first turn' if first else ''}, one more for each "
                      f"{self.draw_vp} VPs spent (18.14b), and the VP track shows {self._vp_paid[s]} spent",
                      side=names[s], at=self._draw_step.get(unpaid))
            self._vp_paid[s] = 0

    def moved(self, e: Moved) -> None:
        st, names = self.state, self.board.side_names
        marker = self.forces.marker_id(e.piece)
        if marker in ("vp-axis", "vp-allied"):
            s, old, new = marker[3:], self.forces.vp_at(e.old.label), self.forces.vp_at(e.new.label)
            if old is not None and new is not None and new < old:
                self._vp_paid[s] += old - new
            if new is not None:
                top = self._vp_turn_max.get(s)
                self._vp_turn_max[s] = new if top is None else max(top, new)
            return
        if e.piece.properties().get("Kind") != "event" or st.phase_kind is None:
            return
        if e.old.label in self.pools and e.new.label in self.hands:
            s = self.hands[e.new.label]
            if st.phase_kind != "special-events":
                self.find("20.11", f"{e.piece.name} drawn into the {e.new.label} in the {st.phase}: markers "
                          f"are drawn in the Special Events phase", side=names[s])
            else:
                if s == "allied" and any(i not in self._taken_first for i in self._drawn["axis"]) \
                        and self.once("20.11 order", st.turn, st.phase):
                    self.find("20.11", f"{e.piece.name} drawn into the {e.new.label} after the Axis player drew: the "
                              "Allies draw first", side=names[s])
                if s == "axis" and self._takes_first(e.piece):
                    self._taken_first.add(e.piece.id)
                self._drawn[s].append(e.piece.id)
                self._draw_step[e.piece.id] = st.step
        elif e.old.label in self.hands and e.new.label not in self.pools and e.new.label not in self.hands:
            self._used[e.piece.id] = (self.hands[e.old.label], e.piece.properties().get("EventId", ""))
        elif e.old.label in self.hands and e.new.label in self.pools:
            s = self.hands[e.old.label]
            if e.piece.id in self._drawn[s]:
                self._drawn[s].remove(e.piece.id)  # put back undrawn (20.11: a player need not draw)

    def said(self, e: Said) -> None:
        st, names = self.state, self.board.side_names
        m = EVENT_PLAY.match(e.text.strip())
        if not m or st.phase_kind is None:
            return
        s, letter = self.board.side_ids.get(m["side"]), m["letter"]
        if s is None:
            return
        spec = self.event_when.get(s, {}).get(letter)
        ref = (spec or {}).get("rule", "20.2")  # the event's own paragraph (20.21A...), named in the message
        side_name = names[s]
        if letter in self._retired:
            self._bad_play(s, letter, "20.16", f"{side_name} plays event {letter}: the marker left the Special Events Pool when "
                      f"the {names[self._retired[letter]]} played its once-only event", side=side_name)
        elif spec is not None and (why := self._wrong_time(s, str(spec.get("when", "")))):
            self._bad_play(s, letter, "20.14", f"{side_name} event {letter} ({spec.get('name')}) is played {why}; this is Turn "
                      f"{st.turn}, the {st.phase}", side=side_name)
        elif s == "allied" and letter == "D" and not any(
                p == ("axis", x) for p in self._phase_plays for x in ("A", "B", "E")):
            self._bad_play(s, letter, "20.2", f"Allied event D (Diplomats Active, {ref}) cancels an Axis A, B or E played this phase: "
                      f"none was played in the {st.phase}", side=side_name)
        else:
            cost = self._cost(s, letter)
            have = self._vp_turn_max.get(s)
            if cost and have is not None and have < cost:
                self._bad_play(s, letter, "20.2", f"{side_name} event {letter} ({ref}) costs {cost} VP{'s' if cost > 1 else ''} "
                          f"and cannot be played without them: the VP track has shown at most {have} this turn",
                          side=side_name)
        if (s, letter) in self.once_only and letter not in self._retired:
            self._retired[letter] = s
        if s == "allied" and letter == "D":  # 20.21D cancels an Axis A or B: its marker is not retired
            for x in ("A", "B"):
                if ("axis", x) in self._phase_plays and self._retired.get(x) == "axis":
                    del self._retired[x]
        self._phase_plays.append((s, letter))
        self._played_before.add((s, letter))

    def _bad_play(self, s: str, letter: str, *args, **kw) -> None:
        """A play reported (20.14, 20.16, 20.2): its marker is not then held to returning (20.11)."""
        self._faulty.add((s, letter))
        self.find(*args, **kw)

    def _cost(self, s: str, letter: str) -> int:
        if (s, letter) == ("axis", "P"):
            return 0  # conditional (Scenario 1, before bomber missions): not judged
        if (s, letter) == ("axis", "E") and (s, letter) in self._played_before:
            return 0  # 20.22E 3: only the first play costs
        return self.event_costs.get(f"{s}_event_{letter.lower()}", 0)

    def _wrong_time(self, s: str, when: str) -> str | None:
        """Why `when` (tables/events.yaml) does not allow a play now; None when it does or is not judged."""
        frm = FROM_TURN.search(when)
        if frm:
            first = TURN_NAMES.get(frm["turn"])
            if first is not None and self.state.turn is not None and self.state.turn < first:
                return f"from the {frm['turn']} turn (Turn {first})"
            when = when[:frm.start()]
        kind, side = self.state.phase_kind, self.state.phase_side
        own = side == s
        allowed = {
            "Reinforcements": kind == "reinforcements",
            "Special Events": kind == "special-events",
            "Combat": kind == "combat",
            "end of Combat": own and kind in ("combat", "exploitation"),
            "Reinforcements or Movement": kind == "reinforcements" or (own and kind in ("movement", "exploitation")),
            "Axis Transport": kind == "transport" and side == "axis",
            "Allied Movement": kind in ("movement", "exploitation") and side == "allied",
        }.get(when.strip())
        if allowed is not False:
            return None
        return "at the end of the friendly Combat phase" if when.strip() == "end of Combat" else f"in the {when.strip()} phase"
