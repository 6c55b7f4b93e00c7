"""Garrisons (5.6, 19.2) and reinforcements (5.3, 5.4): digest 10.1 ranks 10 and 11.

Garrisons are the units the scenario card lists under `garrisons`; the set-up puts a Garrison
marker in their hexes (the counter's "garrison" back, 5.63 note).  A garrison is released by the
unit's **Release garrison** command, by its hex's Garrison marker leaving the hex, or - for the
Alawi and Druze units - when an Allied unit stands in their area (19.22, tables/areas.yaml).

Choices:
- 5.62: Combat phases are not judged (a garrison defends, retreats and attacks normally, 5.61).
- 5.63: adjacency counts now or at the end of the last phase.  The Alawi and Druze units are not
  counted (Events A and B release them as a group), and once an event marker has been played
  (moved, flipped or removed) neither they nor the Allied garrison are judged under 5.62 (Events
  A, B, C and Q free them); an Allied release (the Haifa garrison, Event C) is judged only outside
  the Reinforcements phase; events are not visible, so a release in the phases their events allow
  is legal.  (Issue 31: 5.62 excused only by the play of the event that releases that garrison
  is a change to `Garrisons.moved`, reading plays by side and letter kept in `EventMarkers`.)

Reinforcements wait on the Turn Record Track ("Turn N") and arrive in their card's box; a later
Reinforcements phase delays them.  A Conditional Entry Group enters within its turns and only once
the event its card names has been played (its "plays event" line, 5.41); a log that begins
after the scenario's first turn (the play may be before it) is not judged on the event.  5.42 (a group is accepted whole)
binds acceptance, not entry: "actual entry of individual units can be delayed".
Axis RPs are REPL units (15.12): one leaving its Turn box or the Axis spare pieces (Events bring
the German one) for anywhere but the Greece Holding Box is reported under 15.12, not 5.32; when a
spare one comes is its event's, not judged.
"""
from __future__ import annotations

import re

from validators.games.slouch_hats_and_eggshells.events import EventMarkers
from validators.games.slouch_hats_and_eggshells.state import RELEASE
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed

LEVANT = ("alawi-", "druze-")
REPL_BOX = "Greece Holding Box"  # 15.12
EVENT_NAME = re.compile(r"^(?P<side>\S+) Event (?P<letter>[A-Z])$")  # a group's `event` on the card ("Axis Event C")
RELEASE_LIMIT = {"reinforcements": 1, "transport": 2}  # 5.63; 20.22F (two more in a Transport phase)


class Garrisons(Rule):
    """5.62, 5.63: a garrison does not move until released; the Axis releases 1 a turn in the
    Reinforcements phase (2 more in a Transport phase by Event F), any garrison next to an enemy
    combat unit, the Alawi and Druze units when an Allied unit enters their area (19.22)."""

    ids = ("5.62", "5.63")
    covers = ("2.12",)
    needs = (Forces, EventMarkers)

    def start(self) -> None:
        self.forces, self.events = self.ctx.get(Forces), self.ctx.get(EventMarkers)
        card = self.state.card
        self.garrisons = set(card.garrisons) if card else set()
        self._pieces = {p.id for p in self.board.replayer.board.pieces.values() if self._garrison(p)}
        self.released: set[str] = set()
        self._released_now: list[str] = []  # non-adjacent releases of this phase
        self._adjacent_at_end: set[str] = set()
        self._near: set[str] | None = None  # the hexes of the unreleased garrisons and around them
        areas = self.tables.get("areas", {}).get("hexes", {})
        self._area_of = {h: a for a, hexes in areas.items() for h in hexes}

    def phase_started(self, pid: str) -> None:
        self._released_now = []

    def _garrison(self, p: Piece) -> bool:
        u = self.board.unit_of(p)
        return u is not None and u.id in self.garrisons

    def added(self, e: Added) -> None:
        if self._garrison(e.piece):
            self._pieces.add(e.piece.id)
            self._near = None

    def flipped(self, e: Flipped) -> None:
        self._near = None  # a flip may change what a piece is: judged afresh at the phase's end

    def phase_ended(self, pid: str) -> None:
        """Which garrisons stand next to an enemy combat unit, worked out again only when a piece
        moved, came or went next to one or in its hex (`Forces.touched`) or a piece flipped."""
        touched = self.forces.touched
        if self._near is not None and touched is not None and touched.isdisjoint(self._near):
            return
        board, pieces, neighbours = self.board, self.board.replayer.board.pieces, self.game.geometry.neighbours
        self._adjacent_at_end, self._near = set(), set()
        for i in self._pieces:
            if (p := pieces.get(i)) is None or (u := board.unit_of(p)).id in self.released:
                continue
            self._near.add(h := board.where(p))
            if board.on_map(h):
                self._near.update(neighbours(h))
            if self._adjacent(p):
                self._adjacent_at_end.add(u.id)

    def _adjacent(self, p: Piece) -> bool:
        h, side = self.board.hex_of(p), self.board.side_id(p)
        return bool(h and side) and self.forces.adjacent_enemy(h, side)

    def declared(self, d: Declared) -> None:
        u = self.board.unit_of(d.piece)
        if d.name == RELEASE and u is not None and u.id in self.garrisons and u.id not in self.released:
            self._release(d.piece, u.id)

    def _release(self, p: Piece, uid: str) -> None:
        st, board = self.state, self.board
        self.released.add(uid)
        side = board.side_id(p)
        if uid.startswith(LEVANT) or uid in self._adjacent_at_end or self._adjacent(p):
            return
        kind = st.phase_kind or ""
        if side == "allied":
            if kind != "reinforcements":
                self.find("5.63", f"{p.name} released in the {st.phase} with no enemy combat unit next to it: the "
                          "Haifa garrison is released by Allied Event C in a Reinforcements phase, or by adjacency", p,
                          None, board.hex_of(p))
            return
        self._released_now.append(uid)
        limit = RELEASE_LIMIT.get(kind, 0)
        if len(self._released_now) > limit:
            self.find("5.63", f"{p.name} is garrison release number {len(self._released_now)} of the {st.phase} with "
                      f"no enemy combat unit next to it: the Axis releases {limit} here (1 a turn in the "
                      "Reinforcements phase, 2 more by Event F in a Transport phase)", p, None, board.hex_of(p))

    def _marker_left(self, p: Piece, hex_id: str) -> None:
        board = self.board
        if self.forces.marker_id(p) != "garrison" or not board.on_map(hex_id):
            return
        for q in board.pieces_in(hex_id):
            u = board.unit_of(q)
            if u is not None and u.id in self.garrisons and u.id not in self.released:
                self._release(q, u.id)

    def removed(self, e: Removed) -> None:
        self._marker_left(e.piece, e.where.label)

    def _levant_free(self, uid: str, hex_id: str) -> bool:
        """19.22: an Allied unit in the Alawi or Druze area releases its group there."""
        area = self._area_of.get(hex_id)
        if not uid.startswith(LEVANT) or area is None:
            return False
        board = self.board
        return any(self._area_of.get(board.hex_of(q) or "") == area for q in board.units_on_map()
                   if board.side_id(q) == "allied" and self.forces.combat_unit(q) is not None)

    def moved(self, e: Moved) -> None:
        self._marker_left(e.piece, e.old.label)
        board = self.board
        u = board.unit_of(e.piece)
        if u is None or e.old.label == e.new.label or u.id not in self.garrisons or u.id in self.released:
            return
        by_event = self.events.changed and (u.id.startswith(LEVANT) or board.side_id(e.piece) == "allied")
        if board.on_map(e.old.label) and self.state.phase_kind not in (None, "combat") \
                and not self._levant_free(u.id, e.old.label) and not by_event and e.new.label not in self.forces.loss_boxes:
            self.find("5.62", f"{e.piece.name} is a garrison not yet released: it may not move", e.piece)


class Reinforcements(Rule):
    """5.31, 5.32, 5.41, 15.12: reinforcements arrive on their turn (the Iraq units may come one
    early: Allied Event E, 20.21E), in a Reinforcements phase, into the box their card names; a
    Conditional Entry Group's units leave its box only within its turns; an Axis REPL unit,
    from its Turn box or the spare pieces, comes into the Greece Holding Box."""

    ids = ("5.31", "5.32", "5.41", "15.12")
    covers = ("5.3",)
    needs = (Forces, EventMarkers)

    def start(self) -> None:
        self.forces, self.events = self.ctx.get(Forces), self.ctx.get(EventMarkers)
        card = self.state.card
        self.waiting: dict[str, tuple[int, str | None]] = {}  # unit id -> (turn, arrival zone)
        self.conditional: dict[str, tuple[int, int, str]] = {}  # unit id -> (first, last, group)
        self.enabling: dict[str, tuple[str, str]] = {}  # unit id -> (side name, letter) of its group's event (5.41)
        self._began: int | None = None  # the turn of the log's first phase
        if card:
            for r in card.reinforcements:
                zone = self.game.zone_name(r.track, r.box) if r.track and r.box else None
                for uid in r.units:
                    self.waiting[uid] = (r.turn, zone)
            for grp in card.conditional_groups:
                for uid in grp.units:
                    self.conditional[uid] = (grp.first_turn, grp.last_turn, grp.name)
                    if (m := EVENT_NAME.match(grp.event or "")):
                        self.enabling[uid] = (m["side"], m["letter"])

    def phase_started(self, pid: str) -> None:
        if self._began is None:
            self._began = self.state.turn

    def moved(self, e: Moved) -> None:
        st = self.state
        u = self.board.unit_of(e.piece)
        old = e.old.label
        if u is None or old == e.new.label or st.phase_kind is None:
            return  # the set-up
        repl = u.type == "replacement" and self.board.side_id(e.piece) == "axis"
        if repl and (old in self.board.track_boxes("turn") or old == "Axis spare") and e.new.label != REPL_BOX:
            self.find("15.12", f"{e.piece.name} is an Axis REPL unit: it is received in the {REPL_BOX}, not in "
                      f"{e.new.label}", e.piece)
        if u.id in self.waiting and old in self.board.track_boxes("turn"):
            turn, zone = self.waiting[u.id]
            early = 1 if zone and zone.startswith("Iraq") else 0
            if (st.turn or 0) < turn - early:
                self.find("5.31", f"{e.piece.name} enters on Turn {turn} (the scenario card); this is Turn {st.turn}",
                          e.piece)
            elif st.phase_kind != "reinforcements":
                self.find("5.31", f"reinforcements arrive in the Reinforcements phase, not in the {st.phase}", e.piece)
            elif zone and e.new.label != zone and not repl:
                self.find("5.32", f"{e.piece.name} arrives in the {zone} (the scenario card), not in {e.new.label}",
                          e.piece)
        elif u.id in self.conditional and old.endswith(" conditional"):
            first, last, name = self.conditional[u.id]
            if not first <= (st.turn or 0) <= last:
                self.find("5.41", f"{e.piece.name} of the Conditional Entry Group {name} enters only on Turns "
                          f"{first}-{last}; this is Turn {st.turn}", e.piece)
            elif (ev := self.enabling.get(u.id)) and not self.events.played(*ev, ever=True) \
                    and self._began == st.span["first"]:
                self.find("5.41", f"{e.piece.name} of the Conditional Entry Group {name} enters only once its event, "
                          f"{ev[0]} Event {ev[1]}, has been played; none was", e.piece)
