"""Sequence of play (4.21, 21.11, 21.21): the order of the phases on the turn tracker, the turn-1
skip of the First Axis Operations Segment, the scenario's length, and which units may move in
which phase (digest 10.1 rank 9).

Choices:
- 4.21: the tracker may skip phases forward (a phase with nothing to do) and go on to the next
  turn; it may not go back within a turn, back to an earlier turn, or over a whole turn.  The
  first phase a log shows is where it begins (a log may continue a saved game).
- 21.11, 21.21: on the scenario's first turn the tracker may not stand in a phase of the First
  Axis Operations Segment (tables/sequence.yaml `skip_on_turn_1`).
- 4.21: a unit moves from hex to hex only in its own side's Movement and Exploitation Movement
  phases, in a Combat phase (retreat and advance: combat.py), in a Transport phase (naval and air
  transport, 7.1-7.3, and amphibious raids, 10.6) and, for a commando, in its Administrative phase
  (10.65).  Moves into and out of boxes (reinforcements, eliminations, the Cadre Box) are not
  movement; markers (air, naval, supply units) are not checked here.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.state import PhaseState
from validators.replay.replayer import Moved

FREE_KINDS = ("transport",)  # moves of either side's units between hexes are transport there


class TurnRules(PhaseState):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.skip_segment = self.tables["sequence"].get("skip_on_turn_1")
        spans = self.tables.get("victory", {}).get("scenario_turns", {})
        self.span = spans.get(self.scenario or "", {"first": self.game.info.turns.first,
                                                   "last": self.game.info.turns.last, "rule": "4.2"})
        self.phase_names = [p["name"] for p in self.phase_specs]

    def phase_started(self, kind: str, side: str | None) -> None:
        super().phase_started(kind, side)
        before, now = self.prev_phase_pos, self.phase_pos
        t1, i1 = now
        if t1 == self.span["first"] and i1 >= 0 and self.segment == self.skip_segment and not (
                before is not None and before[0] == t1 and before[1] >= 0
                and self.phase_specs[before[1]].get("segment") == self.skip_segment):
            self.find(self.span["rule"], f"Turn {t1} skips the First Axis Operations Segment: the tracker stands in "
                      f"the {self.phase}", side=self.side_names.get("axis"))
        if t1 is not None and t1 > int(self.span["last"]):
            if before is None or before[0] != t1:
                self.find(self.span["rule"], f"Turn {t1}: the {self.scenario} scenario ends after Turn {self.span['last']}")
        if before is None or before[0] is None or t1 is None or before[1] < 0 or i1 < 0:
            return
        t0, i0 = before
        if t1 < t0 or (t1 == t0 and i1 < i0):
            self.find("4.21", f"the turn tracker went back from Turn {t0} {self.phase_names[i0]} to Turn {t1} "
                      f"{self.phase_names[i1]}: the phases are played in order")
        elif t1 > t0 + 1:
            self.find("4.21", f"the turn tracker jumped from Turn {t0} to Turn {t1}: every turn is played")

    # -- who moves when --------------------------------------------------------------------------
    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        u = self.unit_of(e.piece)
        geo = self.game.geometry
        old, new = e.old.label, e.new.label
        if u is None or old == new or old not in geo or new not in geo or self.phase_kind is None:
            return
        kind, side = self.phase_kind, self.side_id(e.piece)
        if kind in ("movement", "exploitation"):
            if side != self.active_side:
                self.find("4.21", f"only {self.side_name(self.active_side)} units move in the {self.phase}", e.piece)
            return
        if kind in ("combat",) + FREE_KINDS:
            return
        if kind == "administrative" and side == self.active_side and u.type == "commando":
            return  # 10.65: a raiding commando goes back to a friendly port
        self.find("4.21", f"units move in their side's Movement and Exploitation Movement phases (and retreat or "
                  f"advance in combat), not in the {self.phase}", e.piece)

    def mover_checked(self, e: Moved) -> bool:
        """Whether a move is one the movement rules judge: a unit's own move in its side's Movement
        or Exploitation Movement phase, hex to hex."""
        u = self.unit_of(e.piece)
        geo = self.game.geometry
        return (u is not None and e.old.label != e.new.label and e.old.label in geo and e.new.label in geo
                and self.phase_kind in ("movement", "exploitation") and self.side_id(e.piece) == self.active_side)
