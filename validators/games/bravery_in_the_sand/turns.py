"""Set-up (3), the sequence of play's chit draws (4, 5.1) and the Rommel Directive (10.1).

Choices:
- 3: moves before play starts (the first phase after Replacements, or the first chit drawn)
  adjust the set-up; where each unit stands when play starts is checked against the card.
- 5.1.2, 5.1.3, 5.1.4: what a player puts in the mug is secret (5.1.2), so a chit that may not go
  in the mug is reported when it is drawn.  A division counts as destroyed (5.1.3) when none of
  its units was on the map as the turn began; one destroyed later in the turn is drawn normally
  (5.1.6).
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import PlayRule
from validators.games.bravery_in_the_sand.state import Activation
from validators.replay.board import Piece


class SetUp(PlayRule):
    """3: every unit starts in the hex the set-up card gives it (or its formation)."""

    ids = ("3",)

    def play_started(self) -> None:
        b = self.board
        sc = self.state.card or next(iter(self.game.scenarios.values()))
        home = {f.formation: f.hex for f in sc.formations}
        for p in b.units_on_map() + [p for p in b.replayer.board.on_map() if b.unit_of(p) and not b.hex_of(p)]:
            u = b.unit_of(p)
            want = next((x.hex for x in sc.units if x.unit == u.id), home.get(u.formation))
            if want and b.hex_of(p) != want:
                self.find("3", f"set-up: {u.formation} units start in {want}, this one is in {b.where(p)}",
                          p, want, b.hex_of(p))


class ChitDraws(PlayRule):
    """4, 5.1: chits are drawn into the next box, right to left, until box 1; no chit of a division
    destroyed at the turn's start (5.1.3) or replaced this turn (5.1.4); a division destroyed this
    turn still has its chit placed (5.1.6)."""

    ids = ("4", "5.1.3", "5.1.4", "5.1.6")
    covers = ("5.1", "11.4")

    def drew(self, chit: Piece, formation: str | None, box: int, expected: int | None, aside) -> None:
        turn = self.state.turn
        if aside is not None:
            piece, name, due = aside
            self.find("5.1.6", f"the chit of {name}, destroyed earlier this turn, was pulled and set aside; it goes "
                      f"on the Activation Track (box {due}) before the next chit is pulled", piece,
                      to_hex=f"Activation {due}")
        if expected is not None and box != expected:
            self.find("4", f"chit placed in Activation box {box}; the next draw of turn {turn} goes in box {expected}",
                      chit, to_hex=f"Activation {box}")
        if expected is not None and expected < 1:
            self.find("4", f"a chit was drawn after box 1 was filled: turn {turn} draws no more", chit)
        if formation in self.game.formations:
            if formation not in self.play.on_map_at_turn_start:
                self.find("5.1.3", f"{formation} had no units left at the start of the turn; its chit may not go in "
                          "the mug", chit)
            if formation in self.play.replaced:
                self.find("5.1.4", f"{formation} received replacements this turn (11.4); its chit may not go in the "
                          "mug", chit)


class RommelDirective(PlayRule):
    """10.1: the Rommel Directive is declared from turn 4, once a turn, when a DAK chit is pulled."""

    ids = ("10.1",)
    covers = ("10.2",)

    def rommel_declared(self, marker: Piece, act: Activation | None, used_turn: int | None) -> None:
        turn = self.state.turn
        if (turn or 0) < 4:
            self.find("10.1", f"the Rommel Directive may be declared from turn 4 (turn {turn})", marker)
        elif act is None or not act.chit.endswith("dak"):
            self.find("10.1", "the Rommel Directive is declared when a DAK chit is pulled", marker)
        elif used_turn == turn:
            self.find("10.1", f"the Rommel Directive was already used in turn {turn}", marker)
