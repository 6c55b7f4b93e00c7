"""The rule families not yet split into rules of their own: one rule, its families chained
through `super()` as before (issue 29 splits them one by one)."""
from __future__ import annotations

from validators.games.western_desert_force.state import Places
from validators.games.western_desert_force.supply import Supply
from validators.kernel.rule import Rule
from validators.replay.board import Piece

ALL = ("2.0 3.1 3.2 4.0 5.0 6.0 6.1 6.2 7.11 7.12 7.13 7.14 7.15 7.16 7.2 7.3 7.31 7.32 7.4 7.5 7.6 7.61 7.62 "
       "7.63 7.7 7.8 7.9 7.91 7.92 8.1 8.2 8.3 8.4 9.0 9.1 9.2 9.3 9.31 9.32 9.4 9.5 9.6 9.7 10.0 10.1 10.11 "
       "10.12 10.13 10.21 10.22 10.23 10.24 10.25 10.26 10.27 10.3 10.31 10.32 10.5 10.51 11.0 11.1 11.2 12.1 "
       "12.2 12.3 13.1 13.2 13.3 13.4 13.5 13.6 13.7 14.0 14.1 14.2 15.0 16.0 16.1 16.2 17.1 17.2").split()


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


class PhaseState(Reads, Rule):
    """A rule of the game: it reads places (`Places`) and supply (`Supply`)."""

    ids = tuple(ALL)
    needs = (Places, Supply)

    def start(self) -> None:
        self.places = self.ctx.get(Places)
        self.supply = self.ctx.get(Supply)
        self.place_hex = self.places.hex

    def place_controller(self, hex_id: str) -> str | None:
        return self.places.controller(hex_id)



SupplyRules = PhaseState

WdfRule = PhaseState
