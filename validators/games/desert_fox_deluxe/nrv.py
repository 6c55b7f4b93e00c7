"""The Nile River Valley Box (22.1): digest 10.1 rank 6.

Evidence: units' moves into the NRV Box from the hex grid, and any Axis unit's move into it.

Checked:
- 22.1: Axis units may not enter the NRV Box;
- 22.1 a, e: Allied units move from the hex grid to the NRV only via its connections: the track
  at W1434, the roads at W2034 and W2234 (tables/rail-lift.yaml's line aside) and the Egyptian
  railroad (a hex of the line, 13.7).

Choices (a false alarm costs more than a miss):
- 7.4 Important: if the Axis player allows, a withdrawal may be taken off the map without moving it
  to the map edge: a unit the card withdraws is not judged on its way to the NRV.
- A unit going to the NRV from a box (coastal or ocean shipping, the Cape Route, a MET track, the
  turn track) is not judged here (20.0, 22.2, 7.0); what a unit coming out of the NRV spends on the
  hex grid (22.1 b-d: 3 MP by rail, 14 MP at W1434, 14 road hexes) is the movement rule's (13.8).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.boxes import Boxes
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

NRV = "NRV"
CONNECTIONS = frozenset({"W1434", "W2034", "W2234"})  # 22.1 a
RAILROAD = "Egyptian railroad"


class NileRiverValley(Rule):
    """22.1: no Axis unit in the NRV; Allied units reach it from the grid only by its connections."""

    ids = ("22.1",)
    needs = (Boxes,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.boxes = self.ctx.get(Boxes)
        rail = set()
        for line in self.game.map_terrain.hexside_paths.get("railroad", []):
            if line.name == RAILROAD:
                rail.update(line.hexes)
        self.connections = CONNECTIONS | rail
        card = self.state.card
        self.withdrawn = {u for w in (card.withdrawals if card is not None else ()) for u in w.units}

    def moved(self, e: Moved) -> None:
        old, new, board = e.old.label, e.new.label, self.board
        at = self.boxes.at(new)
        if old == new or at is None or at[1] != NRV or board.unit_of(e.piece) is None or self.state.phase_id is None:
            return
        if board.side_id(e.piece) == "axis":
            self.find("22.1", f"{e.piece.name} enters the NRV Box: Axis units may not enter it (22.1)", e.piece, None, new)
        elif board.on_map(old) and old not in self.connections and board.unit_of(e.piece).id not in self.withdrawn:
            self.find("22.1", f"{e.piece.name} goes from {old} to the NRV Box: units move between the hex grid and the "
                      "NRV by the track at W1434, the roads at W2034 and W2234 and the Egyptian railroad (22.1 a, e)",
                      e.piece, old, new)
