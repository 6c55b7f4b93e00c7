"""Replacements (15.2, 15.21, 15.23): a unit on the map turned back to its full side (a Step flip
from reduced to full) is a step rebuilt (digest 10.1 rank 17, part).

Choices:
- Choice (15.2): a flip back to full of a unit flipped to reduced earlier in the same phase is read
  as a correction of that flip (a misclick, or VASSAL's undo) and not judged.  15.21 says when a
  step is rebuilt ("during the friendly Administrative phase ... Turn the unit over to its full
  strength side"), so a unit reduced in a combat and turned full in a later phase of the turn has
  recovered a step outside it, even if it is turned back later (4 RST in The Axis Intervene's
  planted log): reported at that flip, as for a unit reduced in an earlier turn.
  Flips in a Combat phase are the combat's (combat.py); units in boxes are not judged
  (15.25 restores them there, and set-up corrections happen there).
- 15.14 names Vichy and German REPL units: a Vichy or German unit takes only its own; another
  Axis unit (none has REPL units of its own) any.  15.21: a REPL unit used is removed by the end
  of the phase (anywhere off its hex).
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
OWN_REPL = ("vichy", "german")  # 15.14: nationalities whose units take only their own REPL units


class Replacements(Rule):
    """15.2, 15.21, 15.23: a step is rebuilt in the side's Administrative phase, an Axis one with a
    REPL unit of its nationality in the hex (there when the phase began, or now), which is then
    removed; RPs are infantry (15.11) and rebuild no armor, armored car, artillery or AA unit."""

    ids = ("15.2", "15.21", "15.23")

    def start(self) -> None:
        self._reduced_at: dict[str, tuple[int, str | None]] = {}  # piece -> (turn, phase) it was last flipped to reduced
        self._repl_start: dict[str, set[str]] = {}  # hex -> REPL pieces there when the Administrative phase began
        self._repls: list[str] | None = None  # the REPL pieces' ids
        self._used: dict[str, tuple[set[str], int]] = {}  # hex -> (REPLs seen there, steps they rebuilt): 15.21

    def _is_repl(self, p) -> bool:
        return (u := self.board.unit_of(p)) is not None and u.type == "replacement"

    def _nation(self, p) -> str:
        return self.game.formations[self.board.unit_of(p).formation].nationality

    def phase_started(self, pid: str) -> None:
        self._used = {}
        if self.state.phase_kind == "administrative":  # the only phase whose flips read them
            board, pieces = self.board, self.board.replayer.board.pieces
            if self._repls is None:  # a REPL is one for good: found once, and again when one is added
                self._repls = [i for i, p in pieces.items() if self._is_repl(p)]
            self._repl_start = {}
            for i in self._repls:
                if (p := pieces.get(i)) and board.on_map(h := board.where(p)):
                    self._repl_start.setdefault(h, set()).add(i)

    def phase_ended(self, pid: str) -> None:
        """15.21: each REPL unit that rebuilt a step is removed by the end of the phase."""
        pieces = self.board.replayer.board.pieces
        for h, (seen, used) in sorted(self._used.items()):
            left = [pieces[i] for i in sorted(seen) if i in pieces and self.board.where(pieces[i]) == h]
            if len(left) > len(seen) - used:
                self.find("15.21", f"end of the {self.state.phase}: {used} step(s) rebuilt in {h} and {len(left)} REPL "
                          f"unit(s) still there ({', '.join(p.name for p in left)}): the REPL unit used is removed",
                          left[0], None, h)

    def added(self, e: Added) -> None:
        if self._is_repl(e.piece):
            self._repls = None

    def flipped(self, e: Flipped) -> None:
        st, board = self.state, self.board
        u = board.unit_of(e.piece)
        if u is None or e.layer != "Step" or st.phase_kind is None:
            return
        if e.new > e.old:
            self._reduced_at[e.piece.id] = (st.turn, st.phase)
            return
        hex_id = e.where.label
        if (e.new == e.old or not board.on_map(hex_id) or u.type in UNJUDGED
                or st.phase_kind == "combat" or self._reduced_at.get(e.piece.id) == (st.turn, st.phase)):
            return
        side = board.side_id(e.piece)
        if st.phase_kind != "administrative" or side != st.phase_side:
            self.find("15.2", f"{e.piece.name} recovers a step in the {st.phase}: replacements are taken in the "
                      f"friendly Administrative phase", e.piece, None, hex_id)
        elif u.type in NO_INFANTRY_RP:
            self.find("15.23", f"{e.piece.name} recovers a step: infantry RPs (15.11) rebuild no armor, armored car, "
                      f"artillery or anti-aircraft unit", e.piece, None, hex_id)
        elif side == "axis":
            self._combine(e.piece, hex_id)

    def _combine(self, p, hex_id: str) -> None:
        """15.21, 15.14: a REPL unit of the unit's nationality (Vichy for Vichy units, German for
        German; see Choices) in its hex when the phase began, or now."""
        pieces = self.board.replayer.board.pieces
        repls = {i for i in self._repl_start.get(hex_id, ()) if i in pieces} | {q.id for q in self.board.pieces_in(hex_id)
                                                                                if self._is_repl(q)}
        if not repls:
            self.find("15.21", f"{p.name} recovers a step in {hex_id} with no REPL unit there: a reduced Axis "
                      f"unit combines with a REPL unit in its place", p, None, hex_id)
            return
        nation = self._nation(p)
        fits = {i for i in repls if nation not in OWN_REPL or self._nation(pieces[i]) == nation}
        if not fits:
            self.find("15.21", f"{p.name} recovers a step in {hex_id} with only a REPL unit of another nationality "
                      f"there: {nation.capitalize()} REPL units are used only on {nation.capitalize()} units (15.14)",
                      p, None, hex_id)
            return
        seen, used = self._used.get(hex_id, (set(), 0))
        self._used[hex_id] = (seen | fits, used + 1)
