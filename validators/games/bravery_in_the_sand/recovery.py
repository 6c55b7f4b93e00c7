"""Units back to full strength or back from the eliminated box: tank recovery (7.4) and
Commonwealth replacements (11).  The `Play` tracker pays each with a recovery success or a
replacement point where one is there, and tells what it could not pay for.

Choices:
- 7.4, 11.1: a unit back to full strength with nothing to pay for it is reported under 7.4 in a
  combat hex, else under 11.1.
- 11.3: the points start afresh each turn; more than 2 used in a turn is reported under 11.1.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import Play
from validators.games.bravery_in_the_sand.state import Combat
from validators.games.bravery_in_the_sand.units import Forces
from validators.kernel.rule import Rule
from validators.replay.board import Piece

UNPAID = "a unit returned to full strength with no tank recovery success or replacement point to pay for it"


class TankRecovery(Rule):
    """7.4: the side that stayed rolls one die per armor unit that took damage (Germans recover on
    5, the Commonwealth on 6, Italians never); each success restores a step, or brings back an
    eliminated unit into the hex (two for a full-strength one, 7.4.2)."""

    ids = ("7.4", "7.4.2")
    covers = ("7.4.1", "7.4.3", "7.4.4")
    needs = (Play,)

    def recovery_rolled(self, c: Combat, side: str, dice, eligible: list[str]) -> None:
        if len(dice) != len(eligible):
            self.find("7.4.2", f"{side} rolled {len(dice)} recovery dice; {len(eligible)} armor unit(s) took damage "
                      f"and may recover", side=side, to_hex=c.hex)

    def recovered_short(self, p: Piece, hex_id: str, have: int, need: int) -> None:
        self.find("7.4.2", f"{p.name} came back into {hex_id} with {have} tank recovery success(es); it needs {need} "
                  f"({'full' if need == 2 else 'reduced'} strength)", p, to_hex=hex_id)

    def restored_unpaid(self, p: Piece, where: str, in_combat: bool) -> None:
        if in_combat:
            self.find("7.4", UNPAID, p, where)


class Replacements(Rule):
    """11.1-11.2: from turn 2, in its replacement phase, the Commonwealth spends up to 2 points a
    turn: one a step, two for an eliminated full-strength unit, placed in a strategic hex under a
    Commonwealth Control Marker."""

    ids = ("11.1", "11.2")
    covers = ("11", "11.3")
    needs = (Forces, Play)

    def start(self) -> None:
        self.forces, self.play = self.ctx.get(Forces), self.ctx.get(Play)

    def restored_unpaid(self, p: Piece, where: str, in_combat: bool) -> None:
        if not in_combat:
            self.find("11.1", UNPAID, p, where)

    def returned(self, p: Piece, hex_id: str, allowed: bool) -> None:
        if not allowed:
            self.find("11.1", "only the Commonwealth brings back eliminated units, in its replacement phase", p,
                      to_hex=hex_id)
            return
        place = self.game.places.get(hex_id)
        if not (place and place.strategic and self.forces.controller(hex_id) == self.play.commonwealth):
            self.find("11.2", f"returned units are placed in a strategic hex with a Commonwealth Control Marker; "
                      f"{hex_id} is not one", p, to_hex=hex_id)

    def replacement_spent(self, p: Piece) -> None:
        turn = self.state.turn
        if (turn or 0) < 2:
            self.find("11.1", "replacements start on turn 2", p)
        if self.play.replacement_points > 2:
            self.find("11.1", f"{self.play.replacement_points:g} replacement points used in turn {turn}; 2 a turn", p)
