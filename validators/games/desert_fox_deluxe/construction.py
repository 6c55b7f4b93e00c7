"""Fortifications (18.1): where and when a fort may be begun (digest 10.1 rank 15).

Evidence: a Fort Level 0-3 marker (markers.yaml fort-0 ... fort-3) coming onto a hex of the map
during play, and the Under Construction (fort) marker (construction-fort) beside it.

Checked (18.1), at the placing of a fort marker:
- it is placed in a Movement Phase ("at the beginning of the friendly Movement Phase");
- not in a mountain, city, sand sea or marsh hex;
- with a unit that may build it: a combat unit of the phasing side (when known) with a combat factor
  and a movement allowance above 0, not surely disrupted (8.2: its hex holds as many Disrupted
  markers as combat units);
- at its level: an F0 where no other fort is, an F1 where none or an F0 is, an F2 where an F1 is, an
  F3 where an F2 is (the lower marker may already be taken off in the same step);
- an F1-F3 has an Under Construction marker in its hex by the end of the phase.

Choices (a false alarm costs more than a miss): parenthesized combat factors are not in units.yaml
(any CF above 0 builds); general supply, the dump spent (12.6) or the MSU's fort (18.1 a-b), the
builder staying put till its next Movement Phase and the markers' removal are not followed.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.units import FORTS, Forces
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved

NO_FORT_TERRAIN = frozenset({"mountain", "city", "sand-sea", "marsh"})  # 18.1 Important
UNDER_CONSTRUCTION = "construction-fort"


class Construction(Rule):
    """18.1: a fort is begun in a Movement Phase, on open terrain, by an eligible unit, one level at a time."""

    ids = ("18.1",)
    needs = (Forces,)
    acts_in = {"unit_step": ()}  # only a piece brought onto the map is judged

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.judged: set[str] = set()
        self.building: list[tuple[Piece, str, int]] = []  # F1-F3 placed this phase: (marker, hex, step)

    def phase_started(self, pid: str) -> None:
        self.building = []

    def added(self, e: Added) -> None:
        if self.board.on_map(e.where.label):
            self._placed(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        if not self.board.on_map(e.old.label) and self.board.on_map(e.new.label):
            self._placed(e.piece, e.new.label)

    def _placed(self, p: Piece, hex_id: str) -> None:
        marker = self.board.marker_id(p)
        if marker not in FORTS or self.state.phase_id is None or p.id in self.judged:
            return
        self.judged.add(p.id)
        level, st = int(marker[-1]), self.state
        why = None
        if st.phase_kind != "movement":
            why = f"a fort is begun at the beginning of a friendly Movement Phase, not in the {st.phase} Phase"
        elif self.game.hex_terrain.get(hex_id) in NO_FORT_TERRAIN:
            why = f"no fort is built in a {self.game.hex_terrain[hex_id]} hex"
        elif not self._builder(hex_id):
            why = ("no unit there may build it: a combat unit of the phasing side with a combat factor and a "
                   "movement allowance above 0, not disrupted")
        else:
            why = self._level(p, hex_id, level)
        if why:
            self.find("18.1", f"Fort Level {level} placed in {hex_id}: {why}", p, None, hex_id)
        elif level:
            self.building.append((p, hex_id, st.step))

    def _builder(self, hex_id: str) -> bool:
        board, f = self.board, self.forces
        side = self.state.phasing()
        pieces = board.pieces_in(hex_id)
        if f.surely_marked(pieces, "disrupted"):
            return False
        return any(f.is_combat_unit(q) and f.cf(q) > 0 and board.unit_of(q).ma and side in (None, board.side_id(q))
                   for q in pieces)

    def _level(self, p: Piece, hex_id: str, level: int) -> str | None:
        """Why a fort of `level` may not be begun here (18.1 F0-F3), or None."""
        board = self.board
        there = {int(board.marker_id(q)[-1]) for q in [*board.stood_in(hex_id), *board.pieces_in(hex_id)]
                 if q.id != p.id and board.marker_id(q) in FORTS}
        if level == 0 and there:
            return "an F0 fort is built only where there is no other fort"
        if level == 1 and there - {0}:
            return "an F1 fort is built only in an unfortified hex or one with an F0 fort"
        if level >= 2 and level - 1 not in there:
            return f"an F{level} fort is built only in a hex with an F{level - 1} fort"
        return None

    def phase_ended(self, pid: str) -> None:
        board = self.board
        for p, hex_id, step in self.building:
            if board.hex_of(p) == hex_id and not board.markers_in(hex_id, UNDER_CONSTRUCTION):
                self.find("18.1", f"Fort Level {board.marker_id(p)[-1]} placed in {hex_id} with no Under Construction "
                          f"marker there by the end of the {self.state.phase} Phase (18.1 F1-F3)", p, None, hex_id,
                          at=step)
        self.building = []
