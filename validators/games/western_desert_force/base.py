"""What every rule of the game reads by name: the turn and phase of the game state, places and
supply (the `Places` and `Supply` trackers).  A base of convenience: rules share no state
through it."""
from __future__ import annotations

from validators.games.western_desert_force.state import Places
from validators.games.western_desert_force.supply import Supply
from validators.kernel.rule import Rule
from validators.replay.board import Piece


class Reads:
    """What every part of the game reads of the state by name: turn, phase, its kind, the active
    side (a side id) and its name, the sequence of play; and what a leader is."""

    @property
    def turn(self):
        return self.state.turn

    @property
    def phase(self):
        return self.state.phase

    @property
    def phase_kind(self):
        return self.state.phase_kind

    @property
    def active_side(self):
        return self.state.phase_side

    @property
    def side_acting(self):
        return self.state.side_acting

    @property
    def phase_specs(self):
        return self.state.phase_specs

    def leader_of(self, p: Piece):
        return self.game.leaders.get(p.properties().get("LeaderId", ""))


class WdfRule(Reads, Rule):
    """A rule of the game: it reads places (`Places`) and supply (`Supply`)."""

    needs = (Places, Supply)

    def start(self) -> None:
        self.places = self.ctx.get(Places)
        self.supply = self.ctx.get(Supply)
        self.place_hex = self.places.hex

    def place_controller(self, hex_id: str) -> str | None:
        return self.places.controller(hex_id)
