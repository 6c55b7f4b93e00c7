"""What every rule of the game reads by name: the turn and phase of the game state, places and
supply (the `Places` and `Supply` trackers).  A base of convenience: rules share no state
through it."""
from __future__ import annotations

from validators.kernel.places import Places
from validators.games.western_desert_force.supply import Supply
from validators.kernel.rule import Rule

class Reads:
    """What every part of the game reads of the state by name: turn, phase, its kind, the active
    side (a side id) and its name, the sequence of play."""

    turn = property(lambda self: self.state.turn)
    phase = property(lambda self: self.state.phase)
    phase_kind = property(lambda self: self.state.phase_kind)
    active_side = property(lambda self: self.state.phase_side)
    side_acting = property(lambda self: self.state.side_acting)
    phase_specs = property(lambda self: self.state.phase_specs)


class WdfRule(Reads, Rule):
    """A rule of the game: it reads places (`Places`) and supply (`Supply`)."""

    needs = (Places, Supply)

    def start(self) -> None:
        self.places = self.ctx.get(Places)
        self.supply = self.ctx.get(Supply)
        self.place_hex = self.places.hex
