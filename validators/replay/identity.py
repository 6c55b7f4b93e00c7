"""Another maker's pieces read as ours (issue 33).

Our rules know a piece by its Marker properties (UnitId, Side, MarkerId, ChitId, LeaderId...).
A module made by someone else has its own names and properties, or none; its piece map
(`hexforge map-pieces`) says which of our pieces each of its palette slots is.  `PieceIdentity`
gives every piece the replay creates the properties and the name of ours, so no rule changes:
a piece the map does not cover gets empty ids, and the rules pass over it.
"""
from __future__ import annotations

from builder.vassal.sequence import split
from validators.replay.board import Piece

# what makes a piece one of ours for the rules: emptied on a piece the map does not cover
IDS = ("UnitId", "LeaderId", "MarkerId", "ChitId", "Side")


class PieceIdentity:
    """Callable on each new piece of the replay (Board.identify)."""

    def __init__(self, by_gpid: dict[str, tuple[dict[str, str], str]], by_name: dict[str, tuple[dict[str, str], str]]):
        self.by_gpid, self.by_name = by_gpid, by_name
        self.unknown: dict[str, str] = {}  # their piece name -> gpid, of pieces the map does not cover

    def fresh(self) -> PieceIdentity:
        """The same map with nothing seen yet: one per audit."""
        return PieceIdentity(self.by_gpid, self.by_name)

    def __call__(self, p: Piece) -> None:
        basic = p.traits[-1]
        name = basic.fields[3] if len(basic.fields) > 3 else ""
        state = split(basic.state, ";")
        gpid = state[3] if len(state) > 3 else ""
        found = self.by_gpid.get(gpid) if gpid else None
        if found is None:
            found = self.by_name.get(name)
        if found is None:
            self.unknown.setdefault(name, gpid)
            p.identity = dict.fromkeys(IDS, "")
            return
        p.identity, p.known_as = found
