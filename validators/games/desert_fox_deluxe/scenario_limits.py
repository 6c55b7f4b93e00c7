"""A scenario's hexes a side may not end a phase in (the card's special rules as data:
`forbidden_hexes`; 30.0 Trail of the Fox: "Axis units may not end any phase in a hex on or east of
column Sxx34").

Choices: a unit of that side in such a hex when a phase ends is reported once per unit and hex, at
the step of the move that brought it there (the act), or at the phase's end for a unit that arrived
there by the card; hexes two maps share are one hex (S0734 is C0701).
"""
from __future__ import annotations

from validators.kernel.rule import Rule
from validators.replay.replayer import Moved


class ForbiddenHexes(Rule):
    """The card's special rules: a side's units end no phase in the hexes the card forbids them."""

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        return tuple(sorted({f.rule or "3.0" for sc in game.scenarios.values() for f in sc.forbidden_hexes}))

    def start(self) -> None:
        card, geo = self.state.card, self.game.geometry
        self.limits = [(f.side, frozenset(geo.canonical(h) for h in f.hexes), f.rule or "3.0")
                       for f in (card.forbidden_hexes if card else [])]
        self.entered: dict[str, int] = {}  # piece id -> the step of its last move
        self.reported: set[tuple[str, str]] = set()

    def moved(self, e: Moved) -> None:
        if self.limits:
            self.entered[e.piece.id] = self.state.step

    def phase_ended(self, pid: str) -> None:
        board = self.board
        for side, hexes, rule in self.limits:
            for h in sorted(hexes):
                for p in board.pieces_in(h):
                    if board.side_id(p) != side or board.unit_of(p) is None or (p.id, h) in self.reported:
                        continue
                    self.reported.add((p.id, h))
                    self.find(rule, f"{p.name} ends the {self.state.phase} Phase in {h}: the card ({rule}) lets no "
                              f"{board.side_names.get(side, side)} unit end a phase there", p, None, h,
                              at=self.entered.get(p.id))
