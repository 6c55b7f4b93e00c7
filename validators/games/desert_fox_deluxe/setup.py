"""The set-up (3.1 with the scenario cards 24.0-33.0): digest 10.1 rank 7.

Evidence: where each unit of the card stands, and its face, when play starts: when the turn
tracker first moves to the card's first GT (what players do before is the set-up), or, in a log
that begins with the tracker there already (the card's saved setup), at the log's beginning.  A log whose
tracker first moves to another GT began from a game under way: its set-up is not checked.

Each unit of the card must stand in its card's box when the card puts it in one (NRV, Refit,
Destroyed, air boxes), on its reduced face when the card says so (3 Lt Arm "depleted"), and on its
card's hex, or, for the units of an area "within N hexes of X" (tables/setup-areas.yaml, 3.1),
within N hexes of X (see Choices).

Choices:
- 3.1 "within 3 hexes means X itself or any hex with up to two hexes between it and X": that is
  a distance of at most 3, so an area "within N" allows a distance of N.
- Hexes are checked only for the scenarios tables/setup-areas.yaml lists (24.0, 26.0): the other
  cards' "within N" units are not yet entered there.  Markers and supply counts are not checked.
"""
from __future__ import annotations

from validators.kernel.rule import Rule
from validators.replay.replayer import TurnChanged


class SetUp(Rule):
    """3.1 with the card: every unit on its card's hex, area or box, on the face the card gives."""

    ids = ("3.1",)
    covers = ("24.1", "24.2", "26.2")

    def start(self) -> None:
        # A log begun from the card's own setup (state.py): the set-up is the board at its beginning.
        self.checked = self.state.opening is not None
        if self.checked:
            self._check_setup()

    def tracker_moving(self, e: TurnChanged) -> None:
        if not self.checked:
            self.checked = True
            card = self.state.card
            if card is not None and e.turn == card.first_turn:
                self._check_setup()

    def _check_setup(self) -> None:
        st, board = self.state, self.board
        card, scenario = st.card, st.scenario or ""
        areas_all = self.tables.get("setup-areas", {})
        hexes_checked = scenario in areas_all
        areas = {u: a for a in areas_all.get(scenario, []) for u in a["units"]}
        placed = {u.unit: u for u in card.units}
        rule = card.rule or "3.1"
        for p in list(board.replayer.board.pieces.values()):
            u = board.unit_of(p)
            if u is None or u.id not in placed:
                continue
            where = placed[u.id]
            at = board.where(p)
            side = board.side_of(p)
            if where.reduced and not board.reduced(p):
                self.find("3.1", f"set-up: {p.name} starts on its reduced face by the card ({rule})", p, None, at, side=side)
            if where.track:
                box = self.game.zone_name(where.track, where.box)
                if at != box:
                    self.find("3.1", f"set-up: {p.name} starts in '{box}' by the card ({rule}), not in {at}", p, None, at,
                              side=side)
                continue
            if not where.hex or not hexes_checked:
                continue
            area = areas.get(u.id)
            origin, within = (area["from"], int(area["within"])) if area else (where.hex, 0)
            here = board.hex_of(p)
            if here is not None and self.game.geometry.distance(origin, here) <= within:
                continue
            how = f"within {within} hexes of {origin} ({area['rule']})" if area else f"on {where.hex} ({rule})"
            self.find("3.1", f"set-up: {p.name} stands in {at} when play starts; the card puts it {how}", p, where.hex, at,
                      side=side)
