"""Where a Desert Fox Deluxe match is: the kernel's game state, with who the 1st player is.

The module's turn tracker walks the twenty phases of 4.1 (tables/sequence.yaml: `kind` movement,
reaction, combat... and `player` first or second).  Which side is the 1st player is chosen in
Phase V by the initiative player (4.1 V.2) and is not in the log.

Choices (a false alarm costs more than a miss):
- 4.1 V.2: the 1st player of a GT is learnt from play: the first side that moves a ground unit
  on the map in a Movement Phase (or that declares a combat in a Combat Phase) of a given
  player claims that player's role, and the other side takes the other role, until the next
  Phase V.  With surprise in effect on the card (6.2: the surprise holder is the 1st player) the
  card's initiative side is the 1st player of its first GT.  Until a side is known nothing that
  depends on it is reported.
- A log begun from the card's own setup has the tracker at the card's first GT and phase already
  (builder/vassal/setup.py): play starts with the log, and that phase is entered before the
  first step is judged.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.units import NOT_GROUND
from validators.kernel.declarations import Declared
from validators.kernel.state import GameState
from validators.replay.replayer import Moved, Said, TurnChanged

ATTACK = "Declare attacker"
TARGET = "Declare target"
OVERRUN = "Declare overrun"
ROAD_MARCH = "Road march"
MORALE_CHECK = "Morale check"
ARRIVAL_ROLL = "Arrival roll"
ON_HEX = frozenset({ATTACK, TARGET, OVERRUN, ROAD_MARCH})  # declared on a unit in a hex


class FoxState(GameState):
    """Turn, phase and 1st player from the turn tracker and play; sides by id ('axis', 'allied')."""

    learns_first_player = True

    def __init__(self, board, notify):
        super().__init__(board, notify)
        card = self.card
        self.first_player = card.initiative if card is not None and card.surprise else None

    def initial_phase(self) -> TurnChanged | None:
        first, card = self.board.replayer.initial_turn, self.card
        if card is None:
            return None
        ids = [x.get("id") for x in self.phase_specs]
        start = ids.index(card.start_phase) if card.start_phase in ids else 0
        return first if (first.turn, first.phase_index) == (card.first_turn, start) else None

    def entering(self) -> None:
        if self.phase_id == "V":
            self.first_player = None  # 4.1 V.2: chosen anew

    def moved(self, e: Moved) -> None:
        if self.first_player is not None:
            return  # known: claim() would learn nothing (asked at every move)
        board = self.board
        u = board.unit_of(e.piece)
        if (self.phase_id is not None and e.old.label != e.new.label and board.on_map(e.old.label)
                and board.on_map(e.new.label) and u is not None and u.type not in NOT_GROUND):
            self.claim(board.side_id(e.piece))

    def keeps(self, d: Declared) -> bool:
        return d.name not in ON_HEX or self.board.on_map(d.where)  # a combat or a march: on a unit in a hex

    def read_declaration(self, e: Said) -> Declared | None:
        d = super().read_declaration(e)
        if d is not None and d.name == ATTACK and self.phase_kind == "combat":
            self.claim(self.board.side_id(d.piece))
        return d

    def overruns(self) -> list[Declared]:
        """The overruns declared in this phase."""
        return self.declared_in_phase(OVERRUN)
