"""Garrisons (5.6, 19.2) and reinforcements (5.3, 5.4): digest 10.1 ranks 10 and 11.

Garrisons are the units the scenario card lists under `garrisons`; the set-up puts a Garrison
marker in their hexes (the counter's "garrison" back, 5.63 note).  A garrison is released by the
unit's **Release garrison** command, by its hex's Garrison marker leaving the hex, or - for the
Alawi and Druze units - when an Allied unit stands in their area (19.22, tables/areas.yaml).

- 5.62: a garrison does not move until released.  Combat phases are not judged (a garrison
  defends, retreats and attacks normally, 5.61).
- 5.63: the Axis releases 1 garrison in a Reinforcements phase, 2 more in a Transport phase
  (Axis Event F), and any garrison an enemy combat unit is next to (now, or at the end of the
  last phase).  Choices: the Alawi and Druze units are not counted (Events A and B release them
  as a group), and once an event marker has been played (moved, flipped or removed) neither they
  nor the Allied garrison are judged under 5.62 (Events A, B, C and Q free them); an Allied release (the Haifa garrison, Event C) is judged only outside the
  Reinforcements phase, where only adjacency releases it; events are not visible, so a release
  in the phases their events allow is taken as legal.

Reinforcements wait on the Turn Record Track ("Turn N") and arrive in their card's box:
- 5.31: not before turn N, and in a Reinforcements phase (a later one delays it); units arriving
  in the Iraq Holding Box may come one turn early (Allied Event E, 20.21E);
- 5.32: into the box the card names;
- 5.41: a Conditional Entry Group's unit leaves the card's conditional box only within the
  group's turns (the enabling event is not visible: not checked).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.stacking import StackingRules
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed

LEVANT = ("alawi-", "druze-")
RELEASE_LIMIT = {"reinforcements": 1, "transport": 2}  # 5.63; 20.22F (two more in a Transport phase)


class ArrivalRules(StackingRules):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        card = self.card
        self.garrisons = set(card.garrisons) if card else set()
        self.released: set[str] = set()
        self._released_now: list[str] = []  # non-adjacent releases of this phase
        self._adjacent_at_end: set[str] = set()
        areas = self.tables.get("areas", {}).get("hexes", {})
        self._area_of = {h: a for a, hexes in areas.items() for h in hexes}
        self.waiting: dict[str, tuple[int, str | None]] = {}  # unit id -> (turn, arrival zone)
        self.conditional: dict[str, tuple[int, int, str]] = {}  # unit id -> (first, last, group)
        if card:
            for r in card.reinforcements:
                zone = self.game.zone_name(r.track, r.box) if r.track and r.box else None
                for uid in r.units:
                    self.waiting[uid] = (r.turn, zone)
            for grp in card.conditional_groups:
                for uid in grp.units:
                    self.conditional[uid] = (grp.first_turn, grp.last_turn, grp.name)

    def phase_started(self, kind: str, side: str | None) -> None:
        self._released_now = []
        super().phase_started(kind, side)

    def phase_ended(self, kind: str, side: str | None) -> None:
        self._adjacent_at_end = {uid for uid, p in self._garrison_pieces() if self._adjacent(p)}
        super().phase_ended(kind, side)

    # -- garrisons ---------------------------------------------------------------------------------
    def _garrison_pieces(self):
        for p in self.replayer.board.pieces.values():
            u = self.unit_of(p)
            if u is not None and u.id in self.garrisons and u.id not in self.released and self.hex_of(p):
                yield u.id, p

    def _adjacent(self, p: Piece) -> bool:
        h, side = self.hex_of(p), self.side_id(p)
        return bool(h and side) and self.adjacent_enemy(h, side)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        u = self.unit_of(piece)
        if role == "garrison" and u is not None and u.id in self.garrisons and u.id not in self.released:
            self._release(piece, u.id)
        super().declared(role, piece, hex_id)

    def _release(self, p: Piece, uid: str) -> None:
        self.released.add(uid)
        side = self.side_id(p)
        if uid.startswith(LEVANT) or uid in self._adjacent_at_end or self._adjacent(p):
            return
        kind = self.phase_kind or ""
        if side == "allied":
            if kind != "reinforcements":
                self.find("5.63", f"{p.name} released in the {self.phase} with no enemy combat unit next to it: the "
                          "Haifa garrison is released by Allied Event C in a Reinforcements phase, or by adjacency", p,
                          None, self.hex_of(p))
            return
        self._released_now.append(uid)
        limit = RELEASE_LIMIT.get(kind, 0)
        if len(self._released_now) > limit:
            self.find("5.63", f"{p.name} is garrison release number {len(self._released_now)} of the {self.phase} with no "
                      f"enemy combat unit next to it: the Axis releases {limit} here (1 a turn in the Reinforcements "
                      "phase, 2 more by Event F in a Transport phase)", p, None, self.hex_of(p))

    def _marker_left(self, p: Piece, hex_id: str) -> None:
        if self.marker_id(p) != "garrison" or hex_id not in self.game.geometry:
            return
        for q in self.pieces_in(hex_id):
            u = self.unit_of(q)
            if u is not None and u.id in self.garrisons and u.id not in self.released:
                self._release(q, u.id)

    def on_removed(self, e: Removed) -> None:
        self._marker_left(e.piece, e.where.label)
        super().on_removed(e)

    def _levant_free(self, uid: str, hex_id: str) -> bool:
        """19.22: an Allied unit in the Alawi or Druze area releases its group there."""
        area = self._area_of.get(hex_id)
        if not uid.startswith(LEVANT) or area is None:
            return False
        return any(self._area_of.get(self.hex_of(q) or "") == area for q in self.units_on_map()
                   if self.side_id(q) == "allied" and self.is_combat(q))

    def on_moved(self, e: Moved) -> None:
        self._marker_left(e.piece, e.old.label)
        super().on_moved(e)
        u = self.unit_of(e.piece)
        if u is None or e.old.label == e.new.label:
            return
        by_event = self.events_changed and (u.id.startswith(LEVANT) or self.side_id(e.piece) == "allied")
        if u.id in self.garrisons and u.id not in self.released and e.old.label in self.game.geometry \
                and self.phase_kind not in (None, "combat") and not self._levant_free(u.id, e.old.label) \
                and not by_event:
            losses = {self.game.zone_name("losses", b) for b in self.game.tracks["losses"].boxes} \
                if "losses" in self.game.tracks else set()
            if e.new.label not in losses:
                self.find("5.62", f"{e.piece.name} is a garrison not yet released: it may not move", e.piece)
        self._arrival(e, u)

    # -- reinforcements (5.3, 5.4) -------------------------------------------------------------------
    def _arrival(self, e: Moved, u) -> None:
        old = e.old.label
        if self.phase_kind is None:
            return  # the set-up
        if u.id in self.waiting and self.zone_box("turn", old) is not None:
            turn, zone = self.waiting[u.id]
            early = 1 if zone and zone.startswith("Iraq") else 0
            if (self.turn or 0) < turn - early:
                self.find("5.31", f"{e.piece.name} enters on Turn {turn} (the scenario card); this is Turn {self.turn}",
                          e.piece)
            elif self.phase_kind != "reinforcements":
                self.find("5.31", f"reinforcements arrive in the Reinforcements phase, not in the {self.phase}", e.piece)
            elif zone and e.new.label != zone:
                self.find("5.32", f"{e.piece.name} arrives in the {zone} (the scenario card), not in {e.new.label}",
                          e.piece)
        elif u.id in self.conditional and old.endswith(" conditional"):
            first, last, name = self.conditional[u.id]
            if not first <= (self.turn or 0) <= last:
                self.find("5.41", f"{e.piece.name} of the Conditional Entry Group {name} enters only on Turns "
                          f"{first}-{last}; this is Turn {self.turn}", e.piece)
