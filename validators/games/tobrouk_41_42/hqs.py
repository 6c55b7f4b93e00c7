"""Headquarters in combat (6.5): digest 10.1 rank 19.

"A headquarters which is targeted ... is flipped the first time a shot or bombardment succeeds.
Further losses on an already-reduced headquarters do not produce further reductions" (6.5b);
"a headquarters totally encircled by the enemy or impassable terrain is eliminated" (6.5e); "an
eliminated headquarters can ... reenter the game via a friendly supply source hex in the next
turn ... always on its reduced side, and its return always moves the I/V marker two spaces in the
opponent's favor" (6.5f; the two spaces are checked with the I/V track, ivtrack.py).

Evidence: the HQ counter's Step layer (full / reduced face), its removal (deleted, or dragged to an
Eliminated box), a T, T1 or T2 marker placed in a hex it stood in during a combat phase, a fire
declaration at it, an Air strike declaration on its hex; the supply sources of tables/supply.yaml.

- 6.5b: an HQ shows its reduced face at the end of a phase only if, in that phase, a hit marker
  was placed in (or a shot or air strike aimed at) a hex it stood in, or it re-entered the game;
  a reduced HQ is never turned back to its full face (no rule restores it).
- 6.5e: an HQ is removed only when encircled: none of the hexes around the one it left is open.
  Open is on the map, not sea, holding no enemy unit, not in an enemy ZoC and not behind a
  minefield, fortification, wadi or cliff hexside (enemy ZoC and those hexsides are counted as
  closing the ring: the text's "encircled by the enemy or impassable terrain" is read widely).
  An HQ whose six neighbours all hold enemy units (or are off the map or sea) when a combat
  phase ends, and still so, in the same hex, when the next phase ends, is reported (once): the
  moment of the removal is not given.
- 6.5f: an eliminated HQ re-enters on a later turn, on a hex of its side's supply sources (the
  edge hexes, the road from the road's map-edge hex, and for the Commonwealth Tobrouk and its
  camp, 3.8), showing its reduced face when that phase ends.
- A flip may follow its hit in the next phase (results applied late); a removal from a hex an
  enemy unit shares is not judged (the text does not say what happens then).
- 6.5c-d': an HQ that moves in a combat phase displaces: it stood under enemy fire (an enemy
  combat unit next to it, no cliff between) when it moved, and it goes by the fewest hexes to a
  hex out of enemy fire, crossing no cliff, sea or unbreached minefield and entering no enemy
  unit's hex (the retreat's path, retreats.py); judged when the phase ends, reported at its move.

Choices: the Tobrouk HQ may be dissolved (3.8d) and an army in general retreat loses what cannot
leave the map (8.1c'): the Tobrouk HQ's removal and removals after the I/V marker stood on a
general-retreat box are not judged.  A flip made and undone within one phase is no flip.

`HQLosses` keeps which HQs were eliminated and when, and whether a general retreat was seen: the
I/V track reads them too (6.5f's two spaces, 9.3b's loss of an HQ).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.movement import Moves
from validators.games.tobrouk_41_42.retreats import retreat_problem
from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.supply import SupplyLines
from validators.games.tobrouk_41_42.units import HITS, ZOC_CLOSED, TobroukRule, TobroukTracker, Units
from validators.kernel.declarations import Declared
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed, Said

DISSOLVABLE = frozenset({"hq-tobrouk"})  # 3.8d


class HQLosses(TobroukTracker):
    """HQs eliminated (the turn of each) and re-entering: `removal` and `reentry` are those of the
    event `heard` (`losses_at`); `retreat_seen`: the I/V marker stood on a general-retreat box (8.1)
    when a phase began (`retreat_was`: before this phase began)."""

    acts_in = {"unit_step": ()}  # a unit's step from hex to hex neither removes an HQ nor brings one back

    def __init__(self, ctx):
        super().__init__(ctx)
        self.eliminated: dict[str, int] = {}  # unit id -> turn it was eliminated
        self.heard: object = None  # the last event heard: the one `removal` and `reentry` belong to
        self.removal: tuple[Piece, str] | None = None  # (HQ, hex) eliminated by the event heard
        self.removal_open: str | None = None  # a hex that removal's HQ could have left by (6.5e): not encircled
        self.reentry: tuple[Piece, str | None, str, int] | None = None  # (HQ, from, hex, turn eliminated)
        self.retreat_seen = self.retreat_was = False
        self.eliminated_boxes = self.track_boxes("eliminated")

    def phase_started(self, pid: str) -> None:
        self.retreat_was = self.retreat_seen
        if self.box_of("iv", "iv") in self.tables.get("victory", {}).get("general_retreat_boxes", ()):
            self.retreat_seen = True

    def losses_at(self, e) -> bool:
        """Whether the event `e` eliminated an HQ or brought one back (`removal`, `reentry`).  A
        unit's step from hex to hex (the commonest event of a log) is not heard, so the facts kept
        are those of the last event heard, and they are `e`'s only when that event is `e`."""
        return self.heard is e and (self.removal is not None or self.reentry is not None)

    def added(self, e: Added) -> None:
        self.heard, self.removal, self.reentry = e, None, None
        self._arrives(e.piece, None, e.where.label)

    def moved(self, e: Moved) -> None:
        self.heard, self.removal, self.reentry = e, None, None
        u = self.unit_of(e.piece)
        if e.old.label == e.new.label or u is None or u.type != "hq":
            return
        if e.new.label in self.hexes:
            if e.old.label not in self.hexes:
                self._arrives(e.piece, e.old.label, e.new.label)
        elif e.old.label in self.hexes and e.new.label in self.eliminated_boxes:
            self._removed(e.piece, e.old.label)

    def removed(self, e: Removed) -> None:
        self.heard, self.removal, self.reentry = e, None, None
        u = self.unit_of(e.piece)
        if u is not None and u.type == "hq" and e.where is not None and e.where.label in self.hexes:
            self._removed(e.piece, e.where.label)

    def _removed(self, p: Piece, hex_id: str) -> None:
        if self.state.phase_id is not None:
            self.eliminated[self.unit_of(p).id] = self.state.turn or 0
            self.removal = (p, hex_id)
            self.removal_open = self._open_neighbour(p, hex_id)

    def _open_neighbour(self, p: Piece, hex_id: str) -> str | None:
        """A neighbour the HQ removed from `hex_id` could have left by (6.5e), or None when it was
        encircled or its removal is not judged (the Tobrouk HQ, 3.8d; a general retreat, 8.1c'; an
        enemy unit in its own hex)."""
        side = self.side_id(p)
        if self.unit_of(p).id in DISSOLVABLE or self.retreat_seen or side is None \
                or self.enemy_in(hex_id, side, self.stood_in(hex_id)):
            return None
        zoc = self.enemy_zoc(side)
        for n in sorted(self.geo.neighbours(hex_id)):
            if self.game.hex_terrain.get(n) == "sea" or n in zoc or self.crossing(hex_id, n) & ZOC_CLOSED:
                continue
            if not self.enemy_in(n, side):
                return n
        return None

    def _arrives(self, p: Piece, old: str | None, hex_id: str) -> None:
        u = self.unit_of(p)
        if u is not None and u.type == "hq" and u.id in self.eliminated and hex_id in self.hexes:
            self.reentry = (p, old, hex_id, self.eliminated.pop(u.id))


class HQCombat(TobroukRule):
    """6.5b, 6.5e-f: an HQ is flipped only when a shot or air strike at its hex succeeds and never
    turned back; it is eliminated only when encircled (and is when it stays encircled); an eliminated
    HQ re-enters on a later turn, on a friendly supply source hex, on its reduced face."""

    ids = ("6.5",)
    needs = (Units, HQLosses, SupplyLines, Moves)

    def start(self) -> None:
        self.losses = self.ctx.get(HQLosses)
        self.moves = self.ctx.get(Moves)
        self.encircled: set[tuple[str, str]] = set()  # (HQ piece id, hex) encircled when a combat ended
        self.encircled_told: set[str] = set()  # HQs reported so (one act, one finding)
        self.sources = {side: self.ctx.get(SupplyLines).source_hexes(side) for side in self.side_names}
        self.sources.setdefault("commonwealth", set()).update({"2013", *self.tables.get("minefields", {}).get(
            "tobrouk_fortified_camp", [])})
        self.hit_hexes: set[str] = set()  # hexes shot at or hit in the phase
        self._rings: dict[str, tuple[str, ...]] = {}  # hex -> _ring(hex)
        super().start()

    def new_phase(self) -> None:
        self.hq_face_at_start: dict[str, bool] = {}  # piece id -> reduced when the phase began
        self.hq_hexes: dict[str, set[str]] = {}  # piece id -> hexes it stood in during the phase
        self.hit_before, self.hit_hexes = self.hit_hexes, set()  # the last phase's hits count: losses may come late
        self.reentered: dict[str, tuple[Piece, str]] = {}  # piece id -> (piece, hex) re-entered this phase
        self.flipped_at: dict[str, int] = {}  # HQ piece id -> the step of its last flip in the phase (the act)
        self.displaced: dict[str, tuple[str, bool, int]] = {}  # HQ piece id -> (start, threatened there, last step)
        for p in self.hqs_on_map():
            self.hq_face_at_start[p.id] = self.reduced(p)
            self.hq_hexes[p.id] = {self.hex_of(p)}

    def phase_ended(self, pid: str) -> None:
        self._check_hq_phase()
        self._check_encircled(pid in COMBATS)
        if pid in COMBATS:
            self._check_displacements()

    def _check_displacements(self) -> None:
        """6.5c-d': an HQ moving in a combat phase displaces: from a hex under enemy fire (when it
        moved), by a path that crosses no cliff, sea or unbreached minefield and enters no enemy
        unit's hex, to the nearest hex out of enemy fire; judged as the phase ends (retreats are
        simultaneous, 6.3a), reported at its last move."""
        board = self.replayer.board.pieces
        for pid, (start, threatened, at) in sorted(self.displaced.items()):
            p = board.get(pid)
            end = self.hex_of(p) if p is not None else None
            if end is None or end == start:
                continue
            side = self.side_id(p)
            why = (None if threatened else f"{start} was not under enemy fire: an HQ displaces only when threatened "
                   "with being under enemy fire (6.5c)") or retreat_problem(self, self.moves, side, start, end)
            if why:
                self.find("6.5", f"{p.name} displaced from {start} to {end}: {why} (6.5c-d')", p, start, end,
                          side=self.side_name(side), at=at)

    def finish(self) -> None:
        self._check_hq_phase()

    def _check_hq_phase(self) -> None:
        if self.state.prev_phase_pos is None and self.state.phase_id is None:
            return
        for p in self.hqs_on_map():
            name = self.side_name(self.side_id(p))
            if p.id in self.reentered:
                if not self.reduced(p):
                    self.find("6.5", f"{p.name} re-entered the game on its full face: an HQ always re-enters on its "
                              "reduced side (6.5f)", p, None, self.reentered[p.id][1], side=name)
                continue
            was = self.hq_face_at_start.get(p.id)
            if was is None or was == self.reduced(p):
                continue
            at = self.flipped_at.get(p.id)  # judged when the phase ends (no flip back), reported at the flip
            if was:
                self.find("6.5", f"{p.name} was turned back to its full face: no rule restores a reduced HQ (6.5b)",
                          p, None, self.hex_of(p), side=name, at=at)
            elif not (self.hq_hexes.get(p.id, set()) & (self.hit_hexes | self.hit_before)):
                self.find("6.5", f"{p.name} was flipped to its reduced face in the {self.state.phase} with no shot, hit "
                          "marker or air strike on its hex: an HQ is flipped when a shot or bombardment at it "
                          "succeeds (6.5b)", p, None, self.hex_of(p), side=name, at=at)

    def flipped(self, e: Flipped) -> None:
        if e.layer == "Step" and self.is_hq(e.piece):
            self.flipped_at[e.piece.id] = self.state.step

    def declared(self, d: Declared) -> None:
        if d.name == "Declare target" and self.state.phase_id in COMBATS:
            self.hit_hexes.add(d.where)

    def line_said(self, e: Said) -> None:
        strike = self.state.line_of("Air strike")
        if strike is not None and self.state.phase_id in MANEUVERS:
            self.hit_hexes.add(strike[1])

    def _hit(self, p: Piece, hex_id: str) -> None:
        if self.state.phase_id in COMBATS and p.properties().get("MarkerId", "") in HITS:
            self.hit_hexes.add(hex_id)

    def added(self, e: Added) -> None:
        self._hit(e.piece, e.where.label)
        if self.losses.losses_at(e):
            self._arrived()

    def moved(self, e: Moved) -> None:
        if e.old.label == e.new.label:
            return
        u = self.unit_of(e.piece)
        if u is None:  # a marker (a unit's piece has no MarkerId)
            self._hit(e.piece, e.new.label)
        elif u.type == "hq" and e.new.label in self.hexes:
            self.hq_hexes.setdefault(e.piece.id, set()).add(e.new.label)
            if self.state.phase_id in COMBATS and e.old.label in self.hexes:
                first = self.displaced.get(e.piece.id)
                start = first[0] if first else e.old.label
                threatened = first[1] if first else self.under_fire(e.old.label, self.side_id(e.piece))
                self.displaced[e.piece.id] = (start, threatened, self.state.step)
        if self.losses.losses_at(e):
            self._arrived()
            self._removed()

    def removed(self, e: Removed) -> None:
        if self.losses.losses_at(e):
            self._removed()

    def _removed(self) -> None:
        if self.losses.removal is None:
            return
        p, hex_id = self.losses.removal
        self.hq_face_at_start.pop(p.id, None)
        open_hex = self.losses.removal_open  # see HQLosses._open_neighbour
        if open_hex is not None:
            self.find("6.5", f"{p.name} was eliminated in {hex_id}, which is not encircled: {open_hex} is open "
                      "(an HQ is eliminated only when totally encircled by the enemy or impassable terrain, 6.5e; "
                      "it is flipped once and takes no further losses, 6.5b)", p, None, hex_id,
                      side=self.side_name(self.side_id(p)))

    def _arrived(self) -> None:
        if self.losses.reentry is None:
            return
        p, old, hex_id, turn = self.losses.reentry
        side = self.side_id(p)
        name = self.side_name(side)
        self.reentered[p.id] = (p, hex_id)
        self.hq_hexes.setdefault(p.id, set()).add(hex_id)
        if (self.state.turn or 0) <= turn:
            self.find("6.5", f"{p.name} re-entered on turn {self.state.turn}, the turn it was eliminated: an eliminated HQ "
                      "re-enters in a later turn (6.5f)", p, old, hex_id, side=name)
        elif hex_id not in self.sources.get(side or "", set()):
            self.find("6.5", f"{p.name} re-entered at {hex_id}: an eliminated HQ re-enters on a friendly supply source "
                      "hex (6.5f, 3.2)", p, old, hex_id, side=name)

    def _ring(self, h: str) -> tuple[str, ...]:
        """The neighbours of `h` off the sea: the map's alone, listed once (asked at every phase end)."""
        found = self._rings.get(h)
        if found is None:
            found = self._rings[h] = tuple(n for n in self.geo.neighbours(h) if self.game.hex_terrain.get(n) != "sea")
        return found

    def _encircled_now(self) -> list[tuple[Piece, str]]:
        """(HQ, its hex) of each HQ whose every neighbour off the sea holds an enemy unit."""
        return [(p, h) for p in self.hqs_on_map() if (h := self.hex_of(p)) and (ring := self._ring(h))
                and all(self.enemy_in(n, self.side_id(p)) for n in ring)]

    def _check_encircled(self, combat: bool) -> None:
        """Encircled HQs seen when a combat phase ends are reported if still there, still encircled,
        when the next phase ends (the removal's moment is not given)."""
        before, self.encircled = self.encircled, set()
        for p, h in self.memo("encircled HQs", self._encircled_now):
            if combat:
                self.encircled.add((p.id, h))
            if (p.id, h) not in before or p.id in self.encircled_told:
                continue
            self.encircled_told.add(p.id)
            self.find("6.5", f"end of the {self.state.phase}: {p.name} in {h} has been totally encircled by enemy units "
                      "since the last combat and stays on the map: it is eliminated (6.5e)", p, None, h,
                      side=self.side_name(self.side_id(p)))
