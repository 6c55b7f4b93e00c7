"""Where a Slouch Hats and Eggshells match is: the kernel's game state, with the Segment of the
phase (tables/sequence.yaml's 29 phases name their `kind`, `segment` and, in the Operations
Segments, `side`) and the scenario's span of turns.  The declaration names are game.yaml's.

Choices:
- The log's play starts with its first tracker move: positions arranged before it are the
  set-up, not judged (the setups save the tracker at Turn 1's first phase, and a log may begin
  mid-game), so no phase is entered before the first step (`initial_phase`).
- A declaration counts only on a unit in a hex (`keeps`): made in a box (the spare pieces, a
  holding box) it commits nothing.
"""
from __future__ import annotations

import re

from validators.kernel.declarations import Declared
from validators.kernel.state import GameState
from validators.replay.replayer import TurnChanged

ATTACKER = "Declare attacker"
DEFENDER = "Declare defender"
ARTILLERY = "Artillery support"
SUPPLY = "Combat supply"
RELEASE = "Release garrison"
MODES = {"Strategic movement": "strategic movement", "Motor pool": "motor pool", "Rail movement": "rail movement",
         "Infiltration": "infiltration"}  # a movement mode's declaration -> the mode (9.2, 9.5, 9.4, 9.6)
EVENT_PLAY = re.compile(r"^\*?\s*(?P<side>\S+) plays event (?P<letter>[A-Z])\b")  # the Play event report (20.14)


class SlouchState(GameState):
    """Turn, phase, Segment and phasing side from the turn tracker; sides by id ('axis', 'allied')."""

    def __init__(self, board, notify):
        super().__init__(board, notify)
        self.segment: str | None = None
        self.skip_segment = self.game.table("sequence").typed.skip_on_turn_1  # 21.11, 21.21
        info = self.game.info.turns
        spans = self.tables.get("victory", {}).get("scenario_turns", {})
        self.span = spans.get(self.scenario or "", {"first": info.first, "last": info.last, "rule": "4.2"})

    def initial_phase(self) -> TurnChanged | None:
        return None  # see Choices

    def entering(self) -> None:
        pos = self.phase_pos
        spec = self.phase_specs[pos[1]] if pos is not None and pos[1] >= 0 else None
        self.segment = spec.get("segment") if spec else None

    def keeps(self, d: Declared) -> bool:
        return self.board.on_map(d.where)  # see Choices
