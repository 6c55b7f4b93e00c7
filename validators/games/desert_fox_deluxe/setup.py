"""The set-up (3.1 with the scenario cards 24.0-33.0): digest 10.1 rank 7.

Evidence: where each unit of the card stands, and its face, when play starts: when the turn
tracker first moves to the card's first GT (what players do before is the set-up), or, in a log
that begins with the tracker there already (the card's saved setup), at the log's beginning.  A log whose
tracker first moves to another GT began from a game under way: its set-up is not checked.

Each unit of the card must stand in its card's box when the card puts it in one (NRV, Refit,
Destroyed, air boxes), on its reduced face when the card says so (3 Lt Arm "depleted"), and on its
card's hex, or, for the units of an area "within N hexes of X" (tables/setup-areas.yaml, 3.1),
within N hexes of X (see Choices).  Each marker the card puts on a hex (forts, the railhead, the
road's Finished marker, RP) must lie there as many times as the card gives, or within its area.

Choices:
- 3.1 "within 3 hexes means X itself or any hex with up to two hexes between it and X": that is
  a distance of at most 3, so an area "within N" allows a distance of N.
- Every card is checked hex by hex: its "within N" units and markers are in tables/setup-areas.yaml
  (24.0-33.0; 32.0 has no set-up text and uses 27.0's, 29.0 places its four Vichy units on hexes).
  Where the card was reconstructed (AXC-1, ALC-1, ALC-3: not in the text), the module's card is the
  set-up checked.  A unit the card moved off a hex the rulebook prints (AXC-2's "Giarabub" garrison,
  W2002, read as a misprint: digest 11.16) may stand on either (setup-areas.yaml `printed`).
- Markers: a card marker missing from its hex (or area) is reported once per marker and hex; markers
  the players add besides are not (the supply and RP the cards give each GT are arrivals, not set-up).
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
        entries = self.tables.get("setup-areas", {}).get(scenario, [])
        areas = {u: a for a in entries for u in a.get("units", ())}
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
            if not where.hex:
                continue
            area = areas.get(u.id)
            here = board.hex_of(p)
            if area is not None and "printed" in area:
                if here in (where.hex, area["printed"]):
                    continue
                area = None  # the card's hex or the printed one
            origin, within = (area["from"], int(area["within"])) if area else (where.hex, 0)
            if here is not None and self.game.geometry.distance(origin, here) <= within:
                continue
            how = f"within {within} hexes of {origin} ({area['rule']})" if area else f"on {where.hex} ({rule})"
            self.find("3.1", f"set-up: {p.name} stands in {at} when play starts; the card puts it {how}", p, where.hex, at,
                      side=side)
        self._check_markers(card, entries)

    def _check_markers(self, card, entries: list[dict]) -> None:
        """Every marker the card puts on a hex lies there (or within its area) as often as the card gives."""
        board, geo, rule = self.board, self.game.geometry, card.rule or "3.1"
        areas = {m: a for a in entries for m in a.get("markers", ())}
        wanted: dict[tuple[str, str], int] = {}
        for m in card.markers:
            if m.hex:
                key = (m.marker, m.hex) if m.marker not in areas else (m.marker, areas[m.marker]["from"])
                wanted[key] = wanted.get(key, 0) + 1
        if not wanted:
            return
        placed: dict[str, list[str]] = {}
        for p in board.replayer.board.pieces.values():
            mid = board.marker_id(p)
            if mid is not None and any(k[0] == mid for k in wanted):
                h = board.hex_of(p)
                if h is not None:
                    placed.setdefault(mid, []).append(h)
        for (mid, h), n in sorted(wanted.items()):
            area = areas.get(mid)
            within = int(area["within"]) if area else 0
            there = sum(1 for x in placed.get(mid, ()) if geo.distance(h, x) <= within)
            if there < n:
                name = self.game.markers[mid].name if mid in self.game.markers else mid
                how = f"within {within} hexes of {h} ({area['rule']})" if area else f"on {h} ({rule})"
                self.find("3.1", f"set-up: the card puts {n} {name} marker(s) {how}; {there} there when play starts",
                          None, None, h, side=None)
