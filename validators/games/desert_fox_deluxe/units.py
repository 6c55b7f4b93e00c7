"""What a Desert Fox Deluxe unit is by the rules: ground or not, its CF, its movement classes,
and the markers of its hex.

Choices (a false alarm costs more than a miss):
- Markers (Disrupted, OGS, Reserve, Fort) lie in hexes, not on units: a hex's marker is read as
  belonging to every unit of the hex where that can only spare a finding (ZoC, overrun), and
  as a marker of the hex otherwise (disruption demanded by overstacking, forced or night march).
- Movement classes (9.0) are not printed in units.yaml: tanks, recon, halftracks and HQs are
  motorized (mechanized); a unit with an MA of 22 or more is motorized; an Italian or Vichy
  French infantry division is a foot unit (13.7: an MSU lifts a foot unit; 15.10: a division
  takes two MSU to transport - so it reacts one hex, 13.2.1); every other unit with an MA may be
  foot or trucked, and gets whichever is kinder to it.
"""
from __future__ import annotations

import math
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

from validators.kernel.rule import Tracker
from validators.replay.board import Piece

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

SUPPLY = frozenset({"base", "msu", "dump"})
NOT_GROUND = frozenset({"air", "fleet"})
MECHANIZED = frozenset({"tank", "recon", "halftrack", "hq", "desert-raider"})
EZOC_EXEMPT = frozenset({"special-forces", "desert-raider"})  # 15.4, 16.0
DIVISION_NATIONS = frozenset({"italian", "vichy"})  # 15.10
FORTS = ("fort-0", "fort-1", "fort-2", "fort-3")
NOT_COMBAT = NOT_GROUND | SUPPLY


class Forces(Tracker):
    """The rules' view of units and hex markers (keeps no facts of its own; a unit's classes,
    fixed by its printed values, are worked out once per unit)."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self._classes: dict[str, frozenset[str]] = {}  # unit id -> classes()

    def is_ground(self, p: Piece) -> bool:
        u = self.board.unit_of(p)
        return u is not None and u.type not in NOT_GROUND

    def is_combat_unit(self, p: Piece) -> bool:
        u = self.board.unit_of(p)
        return u is not None and u.type not in NOT_COMBAT

    def cf(self, p: Piece) -> int:
        """The combat factor of the face the piece shows."""
        u = self.board.unit_of(p)
        if u is None:
            return 0
        value = u.cs_reduced if self.board.reduced(p) and u.cs_reduced is not None else u.cs
        return value or 0

    def is_division(self, u: s.Unit) -> bool:
        """15.10: Italian and Vichy French divisions."""
        return u.size == "XX" and self.game.nationality_of_unit(u).id in DIVISION_NATIONS

    def classes(self, u: s.Unit) -> frozenset[str]:
        """The movement classes the unit may be of (see Choices)."""
        found = self._classes.get(u.id)
        if found is None:
            found = self._classes[u.id] = self._classes_of(u)
        return found

    def _classes_of(self, u: s.Unit) -> frozenset[str]:
        if u.type in MECHANIZED or u.type == "msu":
            extra = {"recon"} if u.type == "recon" else {"desert-raider"} if u.type == "desert-raider" else set()
            return frozenset({"mechanized", *extra}) if u.type != "msu" else frozenset({"motorized"})
        if u.ma >= 22:
            return frozenset({"motorized", "mechanized"})
        if u.type == "infantry" and self.is_division(u):
            return frozenset({"foot"})  # 13.7, 15.10 (see Choices)
        return frozenset({"foot", "motorized"})

    def surely_motorized(self, u: s.Unit) -> bool:
        return "foot" not in self.classes(u)

    def may_be_motorized(self, u: s.Unit) -> bool:
        """Whether the unit may move as a motorized one, and so ignore foot units' ZoC (11.2; the kinder reading)."""
        classes = self.classes(u)
        return "foot" not in classes or "motorized" in classes

    @staticmethod
    def rma(u: s.Unit) -> int:
        """13.2.1: a motorized unit's RMA is a quarter of its MA, rounded up."""
        return math.ceil(u.ma / 4)

    def surely_marked(self, pieces, marker: str) -> bool:
        """Whether every combat unit among one hex's `pieces` carries a status marker: the hex holds at
        least as many of them as combat units (a marker lies on a stack, not on one unit)."""
        pieces = pieces if isinstance(pieces, list) else list(pieces)
        markers = sum(1 for p in pieces if p.properties().get("MarkerId") == marker)
        return markers > 0 and 0 < sum(1 for p in pieces if self.is_combat_unit(p)) <= markers  # markers first: mostly none

    def surely_disrupted(self, p: Piece) -> bool:
        """Whether the unit surely carries a Disrupted marker (8.2): its hex holds as many as combat units."""
        here = self.board.hex_of(p)
        return here is not None and self.surely_marked(self.board.pieces_in(here), "disrupted")

    def disrupted_in(self, hex_id: str) -> bool:
        return self.board.markers_in(hex_id, "disrupted") > 0

    def fort_level(self, hex_id: str) -> int | None:
        levels = [int(p.properties()["MarkerId"][-1]) for p in self.board.pieces_in(hex_id)
                  if p.properties().get("MarkerId") in FORTS]
        return max(levels) if levels else None
