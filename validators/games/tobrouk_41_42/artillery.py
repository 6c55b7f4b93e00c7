"""Whose an artillery support marker is (5.4e: "the 'artillery support' markers of his
headquarters"): each HQ has its own markers, and 5.4d's range is counted from that HQ.

The module's markers name their HQ (tables/maneuver.yaml `artillery_markers.of_hq`).  A log of the
module before them holds one marker a side naming no HQ (`no_hq`), read as below.

Choices:
- 5.4e, 11.2l, 11.4j (logs of the old module): a marker that stands in the hex of an HQ of its side
  when the log begins is that HQ's (the set-up puts VIII Army's markers in its hex; of one of
  them where several stand there); any other one
  (from the palette) is one of an HQ of its side that could still place one: an HQ whose markers
  (the scenario's `artillery` count, else its own marker's count in markers.yaml) are not all
  taken by the set-up.  It is in range when one of those HQs is.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.units import TobroukTracker, mid
from validators.replay.board import Piece


class ArtilleryMarkers(TobroukTracker):
    """The HQ (or, for an old marker naming none, the HQs) each artillery marker belongs to."""

    acts_in = {"unit_step": ()}

    def __init__(self, ctx):
        super().__init__(ctx)
        data = self.man.get("artillery_markers", {})
        self.of_hq: dict[str, str] = dict(data.get("of_hq", {}))
        self.no_hq: dict[str, str] = dict(data.get("no_hq", {}))
        markers = {m.id: m for m in self.game.markers_file.markers}
        self.side = {m: markers[m].faces[0].side for m in self.of_hq if m in markers} | self.no_hq
        self.count = {hq: markers[m].count for m, hq in self.of_hq.items() if m in markers}
        self.names = {u.id: u.short or u.name for u in self.game.units if u.type == "hq"}
        self.hqs_of = {side: [u.id for u in self.game.units if u.type == "hq" and self.game.side_of_unit(u).id == side]
                       for side in set(self.side.values())}

    def start(self) -> None:
        self.set_up: dict[str, tuple[str, ...]] = {}  # old marker piece -> the HQs in whose hex it stood at the start
        for p in self.board.replayer.board.pieces.values():
            side, h = self.no_hq.get(mid(p)), self.hex_of(p)
            if side and h in self.hexes:
                hqs = tuple(self.unit_of(q).id for q in self.units_in(h) if self.is_hq(q) and self.side_id(q) == side)
                if hqs:
                    self.set_up[p.id] = hqs

    def is_marker(self, p: Piece) -> bool:
        return mid(p) in self.side

    def side_of_marker(self, p: Piece) -> str:
        return self.side[mid(p)]

    def allowed(self, hq: str) -> int:
        """How many markers the HQ has: the scenario's count (11.2l, 11.4j, 11.5h), else its marker's."""
        return int(self.sc_rules.get("artillery", {}).get(hq, self.count.get(hq, 1)))

    def hqs(self, p: Piece) -> tuple[str, ...]:
        """The HQ the marker belongs to; for an old marker, the HQs it may belong to (Choices)."""
        m = mid(p)
        if m in self.of_hq:
            return (self.of_hq[m],)
        if p.id in self.set_up:
            return self.set_up[p.id]
        taken: dict[str, int] = {}
        for hqs in self.set_up.values():
            taken[hqs[0]] = taken.get(hqs[0], 0) + 1
        return tuple(hq for hq in self.hqs_of.get(self.no_hq[m], ()) if self.allowed(hq) > taken.get(hq, 0))

    def in_range(self, p: Piece, hex_id: str) -> bool:
        """5.4a, d: the marker's HQ (one of them) supplied, with artillery, within 3 hexes of `hex_id`."""
        return self.artillery_in_range(hex_id, self.side_of_marker(p), frozenset(self.hqs(p)))

    def named(self, p: Piece) -> str:
        """The marker's HQ(s) as a message names them."""
        return " or ".join(self.names.get(hq, hq) for hq in self.hqs(p)) or "none"
