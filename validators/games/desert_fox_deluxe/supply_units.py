"""Supply units (12.2): digest 10.1 rank 8.

Evidence: dumps, MSU and bases (units.yaml types dump, msu, base) coming onto the map, leaving
it, and the Captured Supply markers of their hexes.

Checked:
- 12.2: the counters provided limit how many supply units of a kind are on the map at any
  time: a dump, MSU or base put on the map while all of that side's counters of its kind
  (units.yaml) are there already is reported;
- 12.2.3: a base is created during a friendly Movement Phase by removing one dump and one MSU
  from its hex: a base coming onto a hex in play without a dump and an MSU of its side taken off
  that hex in the same phase, or outside its side's Movement Phase, is reported;
- 12.2.7: a captured dump, marked with a Captured Supply marker, may not be moved or expended:
  a dump leaving a hex whose dumps all carry one (as many markers as dumps) is reported.

Choices (a false alarm costs more than a miss):
- A base that comes from the turn track or a box is an arrival the cards give (7.0) or the
  primary base replaced (12.2.4), not a creation: only a base added to the map from the palette
  is judged for 12.2.3.
- Bases have one face in the module: their activation (Phase IV) and OGS side (Phase III) are
  not in the log.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed

KINDS = ("dump", "msu", "base")


class SupplyUnits(Rule):
    """12.2: counter limits, bases created from a dump and an MSU in a friendly Movement Phase, captured dumps stay."""

    ids = ("12.2",)
    needs = (Boxes,)

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)
        self.limits: dict[tuple[str, str], int] = {}
        for u in self.game.units:
            if u.type in KINDS:
                side = self.game.side_of_unit(u).id
                self.limits[side, u.type] = self.limits.get((side, u.type), 0) + 1
        self.taken: dict[tuple[str, str], set[str]] = {}  # (side, hex) -> kinds taken off it this phase

    def phase_started(self, pid: str) -> None:
        self.taken = {}

    def _kind(self, p: Piece) -> str | None:
        u = self.board.unit_of(p)
        return u.type if u is not None and u.type in KINDS else None

    def moved(self, e: Moved) -> None:
        old, new, board = e.old.label, e.new.label, self.board
        if old == new:
            return
        kind = self._kind(e.piece)
        if kind is None or self.state.phase_id is None:
            return
        if board.on_map(old):
            self._left(e.piece, kind, old, to_map=board.on_map(new))
        if board.on_map(new) and not board.on_map(old):
            self._arrived(e.piece, kind, new, created=self.boxes.at(old) is None)  # from the palette: no box

    def added(self, e: Added) -> None:
        kind = self._kind(e.piece)
        if kind is not None and self.state.phase_id is not None and self.board.on_map(e.where.label):
            self._arrived(e.piece, kind, e.where.label, created=True)

    def removed(self, e: Removed) -> None:
        kind = self._kind(e.piece)
        if kind is not None and self.state.phase_id is not None and self.board.on_map(e.where.label):
            self._left(e.piece, kind, e.where.label, to_map=False)

    def _left(self, p: Piece, kind: str, hex_id: str, to_map: bool) -> None:
        board, side = self.board, self.board.side_id(p)
        if kind == "dump":
            pieces = board.pieces_in(hex_id)
            dumps = 1 + sum(1 for q in pieces if q is not p and self._kind(q) == "dump" and board.side_id(q) == side)
            if 0 < dumps <= board.markers_in(hex_id, "captured-supply"):
                self.find("12.2", f"{p.name} leaves {hex_id}, where every dump is marked Captured Supply: a captured "
                          "dump may not be moved or expended while marked (12.2.7)", p, hex_id, None)
        if not to_map and side is not None:
            self.taken.setdefault((side, hex_id), set()).add(kind)

    def _arrived(self, p: Piece, kind: str, hex_id: str, created: bool) -> None:
        board, st = self.board, self.state
        side = board.side_id(p)
        if side is None:
            return
        here = sum(1 for q in board.units_on_map() if self._kind(q) == kind and board.side_id(q) == side)
        limit = self.limits.get((side, kind), 0)
        if here > limit:
            self.find("12.2", f"{p.name} is put on {hex_id}: {here} {board.side_names[side]} {kind} counters on the map, "
                      f"more than the {limit} the game provides (12.2)", p, None, hex_id)
            return
        if kind != "base" or not created:
            return
        taken = self.taken.get((side, hex_id), set())
        if st.phase_kind != "movement" or st.phasing() not in (None, side):
            self.find("12.2", f"{p.name} is placed on {hex_id} in the {st.phase} Phase: a base is created during a "
                      "friendly Movement Phase (12.2.3)", p, None, hex_id)
        elif not {"dump", "msu"} <= taken:
            self.find("12.2", f"{p.name} is placed on {hex_id} with no dump and MSU taken off that hex: a base is "
                      "created by removing one dump and one MSU from a single hex (12.2.3)", p, None, hex_id)
