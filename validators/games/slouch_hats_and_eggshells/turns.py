"""Sequence of play (4.21, 21.11, 21.21), digest 10.1 rank 9.

Choices:
- 4.21: the tracker may skip phases forward (a phase with nothing to do) and go on to the next
  turn; it may not go back within a turn, back to an earlier turn, or over a whole turn.  The
  first phase a log shows is where it begins (a log may continue a saved game).
- 21.11, 21.21: the scenario's first turn omits the First Axis Operations Segment
  (tables/sequence.yaml `skip_on_turn_1`).  The module's tracker has no turn without it, so
  stepping the tracker through its phases with nothing done in them is legal (issue 31); an act
  in them is reported: a unit moving between hexes (by either side: the segment is not played,
  so not under 4.21 too) or an attacker declared.
- 4.21: moves in a Combat phase are judged by combat.py; in a Transport phase (naval and air
  transport, 7.1-7.3, amphibious raids) and a commando's in its Administrative phase (a raid's
  return) are not.  Moves into and out of boxes (reinforcements, eliminations, the Cadre Box) are
  not movement; markers (air, naval, supply units) are not checked here.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.state import ATTACKER
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

FREE_KINDS = ("combat", "transport")  # moves of either side's units between hexes are judged elsewhere or not


class SequenceOfPlay(Rule):
    """4.21, 21.11, 21.21: the phases in order, every turn played, nothing done in Turn 1's First
    Axis Operations Segment, none after the scenario's last turn; units move only in their own side's
    Movement and Exploitation Movement phases (and retreat or advance in combat)."""

    ids = ("4.2", "4.21", "21.11", "21.21")  # the scenario's: tables/victory.yaml `scenario_turns` (4.2 without a card)
    covers = ("5.1",)

    def phase_started(self, pid: str) -> None:
        st = self.state
        span, before, (t1, i1) = st.span, st.prev_phase_pos, st.phase_pos
        if t1 > int(span["last"]) and (before is None or before[0] != t1):
            self.find(str(span["rule"]), f"Turn {t1}: the {st.scenario} scenario ends after Turn {span['last']}")
        if (back := st.went_back()) is not None:
            self.find("4.21", "the turn tracker went back from Turn {} {} to Turn {} {}: the phases are played in "
                      "order".format(*back))
        elif before is not None and before[1] >= 0 and i1 >= 0 and t1 > before[0] + 1:
            self.find("4.21", f"the turn tracker jumped from Turn {before[0]} to Turn {t1}: every turn is played")

    def _omitted(self, what: str, piece, where: str | None = None) -> bool:
        """21.11, 21.21: an act in the First Axis Operations Segment of the first turn is reported."""
        st = self.state
        if st.turn != st.span["first"] or st.segment is None or st.segment != st.skip_segment:
            return False
        self.find(str(st.span["rule"]), f"Turn {st.turn} omits the First Axis Operations Segment: {piece.name} "
                  f"{what} in the {st.phase}", piece, None, where)
        return True

    def declared(self, d: Declared) -> None:
        if d.name == ATTACKER:
            self._omitted("attacks", d.piece, d.where)

    def moved(self, e: Moved) -> None:
        st, board = self.state, self.board
        old, new, u = e.old.label, e.new.label, board.unit_of(e.piece)
        if u is None or old == new or not board.on_map(old) or not board.on_map(new) or st.phase_kind is None:
            return
        if self._omitted("moves", e.piece):
            return
        kind, side = st.phase_kind, board.side_id(e.piece)
        if kind in ("movement", "exploitation"):
            if side != st.phase_side:
                self.find("4.21", f"only {board.side_name(st.phase_side)} units move in the {st.phase}", e.piece)
            return
        if kind in FREE_KINDS or (kind == "administrative" and side == st.phase_side and u.type == "commando"):
            return
        self.find("4.21", f"units move in their side's Movement and Exploitation Movement phases (and retreat or "
                  f"advance in combat), not in the {st.phase}", e.piece)
