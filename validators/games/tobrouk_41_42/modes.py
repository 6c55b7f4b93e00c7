"""Markers a maneuver places (4.2c, 4.3, 5.4): rapid movement, entrenchment and artillery support
(digest 10.1 ranks 12 and 14).

Evidence: a marker dragged from the palette (or from a box) onto a hex of the map.

- 4.2c: rapid movement markers are placed in the modes step of their side's maneuver (B, D), on
  units that are neither retreating nor next to an enemy unit.
- 4.3: a unit entrenches during its side's maneuver, out of enemy range (not in an enemy ZoC),
  neither retreating nor in rapid movement, supplied (no CR or RE marker).
- 5.4: artillery support markers come in the maneuvering player's maneuver after a choice of at
  least 4 MP (tables/maneuver.yaml `artillery_min_mp`), on a target at most 3 hexes between from
  an HQ of that side (5.4d, counted as 3.1d), at most 2 markers a hex (5.4g); judged where a
  marker is dropped, from the palette or dragged hex to hex.  At the shot, a marker whose side has
  no supplied HQ in range then adds no column (fire.py; Q&A 9: the range is checked at the combat
  phase; 5.4a, Q&A 9: the HQ in supply, read as no CR or RE marker in its hex); a marker still on
  the map where it was (rightly) dropped in the maneuver when the combat phase ends is reported
  then (5.4h; one dropped wrongly was reported already).  Each HQ has its own markers (5.4e): the
  range is counted from the marker's HQ (artillery.py; old logs' markers name none, see there),
  and an HQ with more of its markers on the map than it has (11.2l, 11.4j) is reported.

Choices:
- 5.4b says "the maneuvering player", Q&A 9 "the active player" (digest O5): the maneuvering
  player is allowed, as 5.4b and phase D's "exactly like the active player's" read.
- The MP an entrenchment costs (2, armoured 3: 4.3a) are checked in hqactions.py.
- A marker placed where the set-up puts it (before the turn tracker first moves) is not checked.
- 4.3c ("removes the marker if the unit moves in any way") is not judged: markers lie in hexes
  and name no unit, the engine's legal logs leave them behind, and the tests' legal stacks are
  dragged with theirs.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.artillery import ArtilleryMarkers
from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.units import TobroukRule, Units
from validators.replay.board import Piece
from validators.games.tobrouk_41_42.units import mid as mid_of
from validators.replay.replayer import Added, Moved

class Modes(TobroukRule):
    """4.2c, 4.3, 5.4: rapid movement, entrenchment and artillery support markers go on in their
    player's maneuver, on units neither retreating nor next to (rapid) or in range of (entrenched) the
    enemy; artillery after a choice of 4 MP, within 3 hexes of an HQ, at most 2 a hex."""

    ids = ("4.2", "4.3", "5.4")
    acts_in = {"unit_step": ()}
    needs = (Units, ArtilleryMarkers)

    def added(self, e: Added) -> None:
        self._placed(e.piece, e.where.label)

    def start(self) -> None:
        self.supporting: dict[str, str] = {}  # artillery marker id -> the hex it was dropped on in a maneuver
        self.arty = self.ctx.get(ArtilleryMarkers)
        super().start()

    def phase_ended(self, pid: str) -> None:
        """5.4h: "At the end of the fire phase, the artillery support markers are removed": one dropped
        on a target in the maneuver and still there when the combat phase ends is reported then (its
        deadline).  Markers that stand elsewhere (the set-up keeps them by their HQs) are not judged."""
        if pid not in COMBATS:
            return
        board = self.replayer.board.pieces
        for pid_, h in sorted(self.supporting.items()):
            p = board.get(pid_)
            if p is not None and self.hex_of(p) == h:
                side = self.arty.side_of_marker(p)
                self.find("5.4", f"{self.side_names[side]} artillery support still in {h} when the {self.state.phase} "
                          "ended: the markers are removed at the end of the fire (5.4h)", p, None, h,
                          side=self.side_names[side])
        self.supporting = {}

    def moved(self, e: Moved) -> None:
        """A marker put on the map; an artillery marker also when dragged hex to hex (5.4d holds
        wherever it is dropped, issue 31)."""
        if e.old.label != e.new.label and (e.old.label not in self.hexes
                                           or self.arty.is_marker(e.piece)):
            self._placed(e.piece, e.new.label)

    def _placed(self, p: Piece, hex_id: str) -> None:
        mid = p.properties().get("MarkerId", "")
        if self.state.phase_id is None or hex_id not in self.hexes:
            return
        if mid == "rapid":
            self._rapid(p, hex_id)
        elif mid == "entrenched":
            self._entrenched(p, hex_id)
        elif self.arty.is_marker(p):
            self._artillery(p, hex_id, self.arty.side_of_marker(p))

    def _owners(self, hex_id: str) -> set[str]:
        return {self.side_id(q) for q in self.units_in(hex_id) if self.is_cu(q)}

    def _rapid(self, p: Piece, hex_id: str) -> None:
        side = self.maneuvering()
        if self.state.phase_id not in MANEUVERS or side not in self._owners(hex_id):
            self.find("4.2", f"a rapid movement marker placed in {hex_id} in the {self.state.phase}: it is placed on the "
                      "maneuvering player's units, in the modes step of his maneuver", p, None, hex_id)
            return
        near = [n for n in self.geo.neighbours(hex_id) if self.combat_units(n, self.other_side[side])]
        if near or self.retreating(hex_id) or self._unsupplied(hex_id):
            why = (f"next to enemy units in {', '.join(sorted(near))}" if near else "retreating" if self.retreating(hex_id)
                   else "unsupplied (a CR or RE marker)")
            self.find("4.2", f"rapid movement in {hex_id}: the units are {why} (4.2c)", p, None, hex_id,
                      side=self.side_names[side])

    def _entrenched(self, p: Piece, hex_id: str) -> None:
        side = self.maneuvering()
        if self.state.phase_id not in MANEUVERS or side not in self._owners(hex_id):
            self.find("4.3", f"an entrenchment marker placed in {hex_id} in the {self.state.phase}: units entrench in their "
                      "own maneuver", p, None, hex_id)
            return
        why = ("in an enemy ZoC (within enemy range)" if hex_id in self.enemy_zoc(side) else
               "in rapid movement" if self.markers_in(hex_id, "rapid") else
               "retreating" if self.retreating(hex_id) else
               "unsupplied (a CR or RE marker)" if self._unsupplied(hex_id) else None)
        if why:
            self.find("4.3", f"a unit entrenches in {hex_id} {why}: it must be supplied, out of enemy range, not "
                      "retreating and not in rapid movement (4.3b)", p, None, hex_id, side=self.side_names[side])

    def _unsupplied(self, hex_id: str) -> bool:
        return bool(self.markers_in(hex_id, "cr") or self.markers_in(hex_id, "re"))

    def _artillery(self, p: Piece, hex_id: str, side: str) -> None:
        name = self.side_names[side]
        self.supporting.pop(p.id, None)
        if self.state.phase_id not in MANEUVERS or self.maneuvering() != side:
            self.find("5.4", f"{name} artillery support placed in {hex_id} in the {self.state.phase}: only in the "
                      f"{name} player's maneuver", p, None, hex_id, side=name)
            return
        least = int(self.man["artillery_min_mp"]["mp"])
        if self.maneuver_mp(side) < least:
            self.find("5.4", f"artillery support after a choice of {self.maneuver_mp(side)} MP: at least {least} "
                      f"are needed{self.reconstructed('maneuver')}", p, None, hex_id, side=name)
            return
        if not self.arty.in_range(p, hex_id):
            self.find("5.4", f"artillery support on {hex_id}: its HQ ({self.arty.named(p)}) is not within 3 hexes "
                      "(between, 3.1d), supplied (5.4a: no CR or RE marker in its hex) and with artillery (11.5h)",
                      p, None, hex_id, side=name)
        elif (over := self._over(p)) is not None:
            self.find("5.4", f"{over[0]} artillery marker of {self.arty.named(p)} on the map: its HQ has {over[1]} "
                      "(5.4e; 11.2l, 11.4j)", p, None, hex_id, side=name)
        elif sum(1 for q in self.pieces_in(hex_id) if self.arty.is_marker(q)) > 2:
            self.find("5.4", f"a third artillery marker on {hex_id}: at most 2 a hex (5.4g)", p, None, hex_id, side=name)
        else:
            self.supporting[p.id] = hex_id  # a marker placed wrongly is reported once, not again for staying

    def _over(self, p: Piece) -> tuple[str, int] | None:
        """5.4e: an HQ's own markers on the map beyond its count (the ordinal and the count), or None."""
        hqs = self.arty.hqs(p)
        if mid_of(p) not in self.arty.of_hq or len(hqs) != 1:
            return None  # an old marker names no HQ
        n = sum(1 for h, ps in self.by_hex().items() if h in self.hexes for q in ps if mid_of(q) == mid_of(p))
        allowed = self.arty.allowed(hqs[0])
        return (f"{n}{'nd' if n == 2 else 'rd' if n == 3 else 'th'}", allowed) if n > allowed else None
