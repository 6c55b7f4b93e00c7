"""Air units on airfields (13.13) and the VP bookkeeping the log shows (18.15, 18.31-18.32):
digest 10.1 ranks 14 (part) and 18 (part).

- 13.13: at the end of a phase at most two air units of a side stand on an airfield
  (tables/air-naval.yaml `airfields`, reconstructed: findings say so); air units are the `air-*`
  markers.
- 18.15: neither side's VP marker (vp-axis, vp-allied on the VP track) stands above 10 when the
  turn ends.
- 18.31: the Vichy Surrender die is rolled from III June (tables/victory.yaml `from_turn`), in the
  Recovery Segment, once a turn.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.combat import CombatRules
from validators.replay.replayer import Rolled

SURRENDER_DIE = "Allied Vichy Surrender die"


class VictoryRules(CombatRules):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        air = self.tables.get("air-naval", {})
        self.airfields = {h for hexes in air.get("airfields", {}).values() for h in hexes}
        self.airfield_cap = int(air.get("airfield_capacity", 2))
        self.vp = self.tables.get("victory", {})
        self._surrender_turns: set[int] = set()
        self._air_reported: set[tuple[str, frozenset[str]]] = set()

    def phase_ended(self, kind: str, side: str | None) -> None:
        for h, side in sorted((h, side) for h in self.airfields for side in self.side_names):
            air = [p for p in self.pieces_in(h) if self.marker_id(p).startswith("air-") and self.air_side(p) == side]
            key = (h, frozenset(p.id for p in air))
            if len(air) > self.airfield_cap and key not in self._air_reported:
                self._air_reported.add(key)
                self.find("13.13", f"end of the {self.phase}: {len(air)} air units on the airfield in {h} "
                          f"({', '.join(p.name for p in air)}); an airfield holds {self.airfield_cap}"
                          f"{self.reconstructed('air-naval')}", None, None, h)
        super().phase_ended(kind, side)

    def turn_ended(self, turn: int | None) -> None:
        cap = int(self.vp.get("max_unspent", 10))
        for marker, side in (("vp-axis", "axis"), ("vp-allied", "allied")):
            p = next((q for q in self.replayer.board.pieces.values() if self.marker_id(q) == marker), None)
            box = self.zone_box("vp", self.replayer.piece_where(p).label) if p is not None else None
            if box is not None and box.isdigit() and int(box) > cap:
                self.find("18.15", f"Turn {turn} ends with {box} unspent {self.side_names[side]} VPs: at most {cap}", p,
                          side=self.side_names[side])
        super().turn_ended(turn)

    def on_rolled(self, e: Rolled) -> None:
        super().on_rolled(e)
        if e.button != SURRENDER_DIE:
            return
        first = int(self.vp.get("surrender", {}).get("from_turn", 3))
        turn = self.turn or 0
        if turn < first:
            self.find("18.31", f"the Vichy Surrender roll is allowed from Turn {first} (III June); this is Turn {turn}",
                      side=self.side_names["allied"])
        elif self.segment != "recovery":
            self.find("18.31", f"the Vichy Surrender roll belongs to the Recovery Segment, not the {self.phase}",
                      side=self.side_names["allied"])
        elif turn in self._surrender_turns:
            self.find("18.31", f"a second Vichy Surrender roll on Turn {turn}: once a turn",
                      side=self.side_names["allied"])
        self._surrender_turns.add(turn)
