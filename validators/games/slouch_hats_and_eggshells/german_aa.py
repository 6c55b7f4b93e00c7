"""German AA (10.51): "If at least one German anti-aircraft unit is defending and the attacking
force includes one or more armor unit ... If the Allied force takes any loss, take the first
strength level of loss from an armor unit" (digest 10.1 ranks 1-2, part).

Checked when a combat closes (combat.py): an Allied attack on a Defender Hex holding a German
motorized-aa unit at the die, with an attacker of type `armor`, in which the attacking units lost
steps and no armor attacker lost one, is reported.

Choices:
- 10.51: "armor unit" is read as the `armor` type only (armored cars are not armor units in
  2.24); the order of the losses is not in the log, so any step taken from an armor attacker
  satisfies the rule.  A '*' taken as an air unit (12.24) is no step of an attacking unit.
- Combats whose die cannot be bound to one Defender Hex (10.11, combat.py) are not judged.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.combat import Combats
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.replayer import Rolled

ARMOR = "armor"


class GermanAA(Rule):
    """10.51: with a German AA unit defending against armor, the Allied force's first step lost
    is an armor unit's."""

    ids = ("10.51",)
    needs = (Forces, Combats)

    def start(self) -> None:
        self.forces, self.combats = self.ctx.get(Forces), self.ctx.get(Combats)
        self._aa_armor: dict[int, set[str]] = {}  # id of a combat -> its armor attackers
        self._judged = 0  # combats of Combats.closed judged

    def rolled(self, e: Rolled) -> None:
        c = self.combats.combat_now
        if c is None or c.die is None or id(c) in self._aa_armor or c.more_hexes or c.attacker != "allied":
            return
        board = self.board
        pieces = board.replayer.board.pieces
        aa = any(self.forces.is_german_aa(board.unit_of(pieces[i])) for i in c.defenders if i in pieces)
        armor = {i for i in c.attackers if i in pieces and (u := board.unit_of(pieces[i])) is not None and u.type == ARMOR}
        if aa and armor:
            self._aa_armor[id(c)] = armor

    def declared(self, d: Declared) -> None:
        self._closed()

    def phase_ended(self, pid: str) -> None:
        self._closed()

    def _closed(self) -> None:
        closed = self.combats.closed
        while self._judged < len(closed):
            c = closed[self._judged]
            self._judged += 1
            armor = self._aa_armor.pop(id(c), None)
            if not armor or c.more_hexes:
                continue
            lost = sum(max(0, c.lost.get(i, 0)) for i in c.attackers)
            if lost and not any(c.lost.get(i, 0) > 0 for i in armor):
                names = ", ".join(self.board.replayer.board.pieces[i].name for i in sorted(armor))
                self.find("10.51", f"combat on {c.defender_hex}: a German AA unit defends against armor and the "
                          f"attackers lost {lost} step(s), none from the armor ({names}): the first Allied loss "
                          f"is an armor step", None, None, c.defender_hex, side=self.board.side_names["allied"])
