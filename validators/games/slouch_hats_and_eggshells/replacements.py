"""Replacements (15.2, 15.21, 15.23): a unit on the map turned back to its full side (a Step flip
from reduced to full) is a step rebuilt (digest 10.1 rank 17, part).

Choices:
- A flip back of a unit flipped to reduced earlier in the same turn is read as a correction and
  not judged; flips in a Combat phase are the combat's (combat.py); units in boxes are not judged
  (15.25 restores them there, and set-up corrections happen there).
- Commandos are not judged: Allied Event C (20.21C) turns the commando to full outside the
  procedure (15.27).
- 15.22 (an Allied unit needs a Receiving Replacements marker from the Supply Status phase, and
  the RPs on the VP track) and 15.26 (one step a phase: a two-step unit cannot show more) are not
  checked: the marker is bookkeeping a log may lack.
"""
from __future__ import annotations

from validators.kernel.rule import Rule
from validators.replay.replayer import Added, Flipped

NO_INFANTRY_RP = ("armor", "armored-car", "artillery", "motorized-aa")  # 15.23
UNJUDGED = ("commando",)


class Replacements(Rule):
    """15.2, 15.21, 15.23: a step is rebuilt in the side's Administrative phase, an Axis one with a
    REPL unit in the hex (there when the phase began, or now); RPs are infantry (15.11) and rebuild
    no armor, armored car, artillery or AA unit."""

    ids = ("15.2", "15.21", "15.23")

    def start(self) -> None:
        self._reduced_turn: dict[str, int | None] = {}  # piece -> turn it was last flipped to reduced
        self._repl_hexes: set[str] = set()
        self._repls: list[str] | None = None  # the REPL pieces' ids

    def _repl_in(self, pieces) -> bool:
        return any((u := self.board.unit_of(p)) is not None and u.type == "replacement" for p in pieces)

    def phase_started(self, pid: str) -> None:
        if self.state.phase_kind == "administrative":  # the only phase whose flips read them
            board, pieces = self.board, self.board.replayer.board.pieces
            if self._repls is None:  # a REPL is one for good: found once, and again when one is added
                self._repls = [i for i, p in pieces.items() if self._repl_in((p,))]
            self._repl_hexes = {h for i in self._repls if (p := pieces.get(i)) and board.on_map(h := board.where(p))}

    def added(self, e: Added) -> None:
        if self._repl_in((e.piece,)):
            self._repls = None

    def flipped(self, e: Flipped) -> None:
        st, board = self.state, self.board
        u = board.unit_of(e.piece)
        if u is None or e.layer != "Step" or st.phase_kind is None:
            return
        if e.new > e.old:
            self._reduced_turn[e.piece.id] = st.turn
            return
        hex_id = e.where.label
        if (e.new == e.old or not board.on_map(hex_id) or u.type in UNJUDGED
                or st.phase_kind == "combat" or self._reduced_turn.get(e.piece.id, -1) == st.turn):
            return
        side = board.side_id(e.piece)
        if st.phase_kind != "administrative" or side != st.phase_side:
            self.find("15.2", f"{e.piece.name} recovers a step in the {st.phase}: replacements are taken in the "
                      f"friendly Administrative phase", e.piece, None, hex_id)
        elif u.type in NO_INFANTRY_RP:
            self.find("15.23", f"{e.piece.name} recovers a step: infantry RPs (15.11) rebuild no armor, armored car, "
                      f"artillery or anti-aircraft unit", e.piece, None, hex_id)
        elif side == "axis" and hex_id not in self._repl_hexes and not self._repl_in(board.pieces_in(hex_id)):
            self.find("15.21", f"{e.piece.name} recovers a step in {hex_id} with no REPL unit there: a reduced Axis "
                      f"unit combines with a REPL unit in its place", e.piece, None, hex_id)
