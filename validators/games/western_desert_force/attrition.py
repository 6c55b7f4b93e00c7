"""Attrition (8.3, 10.21): in his Attrition Phase every unsupplied combat unit of the active
player loses exactly one step, and no supplied unit loses any.

Supply is read for every unit when the phase begins (8.0 item 5); the steps are compared when
the turn tracker leaves the phase.  A unit eliminated by attrition goes to the Permanent
Eliminated box when no path of any length joins its hex to its own source (never Tobruk) free
of enemy units, un-negated enemy ZOCs and terrain prohibited to motorized units; otherwise to
the Recoverable Eliminated box (box names in tables/supply.yaml).

Choice (8.4): units that only Tobruk can supply are counted together: Tobruk supplies up to its
limit (6 Allied; 4 Axis, 2 with Allied Naval Support), so exactly the excess of them lose a step.
"""
from __future__ import annotations

from validators.games.western_desert_force.base import WdfRule
from builder.record import Record
from validators.replay.board import Piece

ATTRITION = "attrition"


class Attrited(Record):
    """One combat unit as the Attrition Phase began."""

    __slots__ = ("piece", "hex", "steps", "status")

    def __init__(self, piece: Piece, hex: str, steps: int, status: str | None):
        self.piece, self.hex, self.steps = piece, hex, steps
        self.status = status  # supply_status: 'main', 'limited', None


class AttritionRules(WdfRule):
    """8.3: in his Attrition Phase every unsupplied unit of the active player loses one step, no supplied one any."""

    ids = ('8.3',)
    covers = ('8.1', '8.4')

    def start(self) -> None:
        super().start()
        self.elim = self.supply.supply_table["eliminated"]
        self._attrition: list[Attrited] = []
        self._excess = 0
        self._blocked: frozenset[str] = frozenset()  # what blocked a path to the source as the phase began

    def steps_left(self, p: Piece) -> int:
        return 1 if self.board.unit_of(p).steps == 1 or self.board.reduced(p) else 2

    def phase_started(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == ATTRITION and side:
            self._attrition = []
            # the path of any length to the source (8.3) is traced only for a unit eliminated, from
            # the board as the phase began: a search over the whole map, and most phases eliminate none
            self._blocked = self.supply.blocked_for_supply(side)
            for hex_id, pieces in self.supply.unit_hexes(side).items():
                status = self.supply.supply_status(hex_id, side)
                self._attrition += [Attrited(p, hex_id, self.steps_left(p), status) for p in pieces]
            dependent = sum(1 for a in self._attrition if a.status == "limited")
            self._excess = max(0, dependent - self.supply.limited_capacity(side))

    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == ATTRITION and side:
            self._check_attrition(side)
            self._attrition = []

    def _after(self, a: Attrited) -> tuple[int, str | None]:
        """Steps left and, when off the map, the zone it went to (None: out of play)."""
        p = self.board.replayer.board.pieces.get(a.piece.id)
        if p is None:
            return 0, None
        zone = self.board.where(p)
        return (self.steps_left(p), zone) if zone in self.game.geometry.ids else (0, zone)

    def _check_attrition(self, side: str) -> None:
        rule = self.elim.get("rule", "8.3")
        limited_losses = 0
        for a in self._attrition:
            after, zone = self._after(a)
            loss = a.steps - after
            if a.status == "main" and loss:
                self.find(rule, f"supplied in {a.hex} when the Attrition Phase began: loses no step, but lost {loss}",
                          a.piece, a.hex, zone)
            elif a.status is None and loss != 1:
                self.find(rule, f"unsupplied in {a.hex} when the Attrition Phase began (no supply path within "
                          f"{self.supply.supply_range(a.hex, side)} MP overland): loses exactly one step, lost {loss}",
                          a.piece, a.hex, zone)
            elif a.status == "limited":
                limited_losses += loss == 1
                if loss > 1:
                    self.find(rule, f"attrition takes one step; {a.piece.name} lost {loss}", a.piece, a.hex, zone)
            if after == 0 and loss >= 1 and a.status != "main":
                self._check_box(a, side, zone)
        if limited_losses != self._excess:
            self.find(rule, f"Tobruk supplies at most {self.supply.limited_capacity(side)} units: exactly {self._excess} of "
                      f"the units only Tobruk can supply lose a step, {limited_losses} did", side=self.supply.side_name(side))

    def _check_box(self, a: Attrited, side: str, zone: str | None) -> None:
        connected = a.hex in self.supply.source_connected(side, self._blocked)
        kind = "recoverable" if connected else "permanent"
        box = self.elim[kind].format(side=self.supply.side_name(side))
        if zone != box:
            why = ("it has a path to its source" if connected else
                   "no path of any length joins it to its source free of enemy units and enemy ZOCs")
            message = f"eliminated by attrition in {a.hex}: {why}, so it goes to the {box} box, not {zone or 'out of play'}"
            self.find(self.elim.get("rule", "8.3"), message, a.piece, a.hex, zone)
