"""Markers a maneuver places (4.2c, 4.3, 5.4): rapid movement, entrenchment and artillery support
(digest 10.1 ranks 12 and 14).

Evidence: a marker dragged from the palette (or from a box) onto a hex of the map.

- 4.2c: rapid movement markers are placed in the modes step of their side's maneuver (B, D), on
  units that are neither retreating nor next to an enemy unit.
- 4.3: a unit entrenches during its side's maneuver, out of enemy range (not in an enemy ZoC),
  neither retreating nor in rapid movement.
- 5.4: artillery support markers come in the maneuvering player's maneuver after a choice of at
  least 4 MP (tables/maneuver.yaml `artillery_min_mp`), on a target at most 3 hexes between from
  an HQ of that side (5.4d, counted as 3.1d), at most 2 markers a hex (5.4g).

Choices:
- 5.4b says "the maneuvering player", Q&A 9 "the active player" (digest O5): the maneuvering
  player is allowed, as 5.4b and phase D's "exactly like the active player's" read.
- The MP an entrenchment costs (2, armoured 3: 4.3a) are checked in hqactions.py.
- A marker placed where the set-up puts it (before the turn tracker first moves) is not checked.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import MANEUVERS
from validators.games.tobrouk_41_42.units import TobroukRule
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved

ARTILLERY = {"artillery-axis": "axis", "artillery-cw": "commonwealth"}


class Placement(TobroukRule):
    """A marker of `MARKERS` brought onto a hex of the map once play started (the base of the rules below)."""

    MARKERS: frozenset[str] = frozenset()

    def added(self, e: Added) -> None:
        self._arrived(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        if e.old.label != e.new.label and e.old.label not in self.geo:
            self._arrived(e.piece, e.new.label)

    def _arrived(self, p: Piece, hex_id: str) -> None:
        if p.properties().get("MarkerId", "") in self.MARKERS and self.phase_id is not None and hex_id in self.geo:
            self.placed(p, hex_id)

    def placed(self, p: Piece, hex_id: str) -> None: ...

    def _owners(self, hex_id: str) -> set[str]:
        return {self.side_id(q) for q in self.units_in(hex_id) if self.is_cu(q)}


class RapidMovement(Placement):
    """4.2c: a rapid movement marker goes on the maneuvering player's units in his maneuver, not
    retreating and not next to an enemy unit."""

    ids = ("4.2",)
    MARKERS = frozenset({"rapid"})

    def placed(self, p: Piece, hex_id: str) -> None:
        side = self.maneuvering()
        if self.phase_id not in MANEUVERS or side not in self._owners(hex_id):
            self.find("4.2", f"a rapid movement marker placed in {hex_id} in the {self.phase}: it is placed on the "
                      "maneuvering player's units, in the modes step of his maneuver", p, None, hex_id)
            return
        near = [n for n in self.geo.neighbours(hex_id) if self.combat_units(n, self.other_side[side])]
        if near or self.retreating(hex_id):
            why = f"next to enemy units in {', '.join(sorted(near))}" if near else "retreating"
            self.find("4.2", f"rapid movement in {hex_id}: the units are {why} (4.2c)", p, None, hex_id,
                      side=self.side_names[side])


class Entrenchment(Placement):
    """4.3: units entrench in their own maneuver, out of enemy range, neither retreating nor in rapid movement."""

    ids = ("4.3",)
    MARKERS = frozenset({"entrenched"})

    def placed(self, p: Piece, hex_id: str) -> None:
        side = self.maneuvering()
        if self.phase_id not in MANEUVERS or side not in self._owners(hex_id):
            self.find("4.3", f"an entrenchment marker placed in {hex_id} in the {self.phase}: units entrench in their "
                      "own maneuver", p, None, hex_id)
            return
        why = ("in an enemy ZoC (within enemy range)" if hex_id in self.enemy_zoc(side) else
               "in rapid movement" if self.markers_in(hex_id, "rapid") else
               "retreating" if self.retreating(hex_id) else None)
        if why:
            self.find("4.3", f"a unit entrenches in {hex_id} {why}: it must be out of enemy range, not retreating "
                      "and not in rapid movement", p, None, hex_id, side=self.side_names[side])


class ArtillerySupport(Placement):
    """5.4: artillery support markers come in their player's maneuver after a choice of at least
    4 MP, at most 3 hexes between from one of his HQs, at most 2 a hex."""

    ids = ("5.4",)
    MARKERS = frozenset(ARTILLERY)

    def placed(self, p: Piece, hex_id: str) -> None:
        side = ARTILLERY[p.properties()["MarkerId"]]
        name = self.side_names[side]
        if self.phase_id not in MANEUVERS or self.maneuvering() != side:
            self.find("5.4", f"{name} artillery support placed in {hex_id} in the {self.phase}: only in the "
                      f"{name} player's maneuver", p, None, hex_id, side=name)
            return
        least = int(self.man["artillery_min_mp"]["mp"])
        if self.maneuver_mp(side) < least:
            self.find("5.4", f"artillery support after a choice of {self.maneuver_mp(side)} MP: at least {least} "
                      f"are needed{self.reconstructed('maneuver')}", p, None, hex_id, side=name)
            return
        hqs = [h for h, ps in self.by_hex().items() if any(self.is_hq(q) and self.side_id(q) == side for q in ps)]
        if not any(self.geo.distance(h, hex_id) - 1 <= 3 for h in hqs):
            self.find("5.4", f"artillery support on {hex_id}: no {name} HQ within 3 hexes (between, 3.1d)", p, None,
                      hex_id, side=name)
        elif sum(self.markers_in(hex_id, m) for m in ARTILLERY) > 2:
            self.find("5.4", f"a third artillery marker on {hex_id}: at most 2 a hex (5.4g)", p, None, hex_id, side=name)
