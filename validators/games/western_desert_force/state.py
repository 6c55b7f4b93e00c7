"""Where the Western Desert Force match is in the turn: turn, phase, active side, and who holds
the places whose control the rules read.

The module's turn tracker walks the phases of `tables/sequence.yaml` (one per Organization
segment and per phase of each player turn, 4.0), each with its `kind` and, for a player's
phase, its `side`, so every act lands in the log under the phase the rules give it.  The
kernel's `GameState` reads it; what only this game's turn has is here:

- the phase is unknown until the tracker first moves (a log begins where the players were,
  and its first phase is where it begins, never a jump, 4.0), and the turn is the game's first
  until then; a phase ends and a turn ends only once a phase has begun (the kernel's
  `phases_from_first_move`).

Control of a place (Tobruk, Benghazi: 8.4, 7.32, 17.2) is a fact several rules read: the
kernel's `Places` tracker keeps it (8.4: the side whose combat unit occupies it or last did; at
the start, the side whose unit is there, else tables/victory.yaml's `control_at_start`, 3.1).
"""
from __future__ import annotations

from validators.kernel.state import GameState

# game.yaml's declarations by the role they give a unit
ROLES = {"Declare attacker": "attacker", "Declare target": "target",
         "Strategic movement": "strategic movement", "Sea transfer": "sea transfer"}


class WdfState(GameState):
    """Turn and phase from the turn tracker; sides by id ('allied', 'axis')."""

    phases_from_first_move = True

    def keeps(self, d) -> bool:
        return d.name in ROLES
