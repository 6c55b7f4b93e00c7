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

from validators.games.slouch_hats_and_eggshells.events import EventRules
from validators.replay.replayer import Rolled

ARMOR = "armor"


class GermanAARules(EventRules):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self._aa_armor: dict[int, set[str]] = {}  # id of a combat -> its armor attackers

    def on_rolled(self, e: Rolled) -> None:
        super().on_rolled(e)
        c = getattr(self, "combat_now", None)
        if c is None or c.die is None or id(c) in self._aa_armor or c.more_hexes or c.attacker != "allied":
            return
        board = self.replayer.board.pieces
        aa = any((u := self.unit_of(board[i])) is not None and u.type == "motorized-aa"
                 and self.game.formations[u.formation].nationality == "german"
                 for i in c.defenders if i in board)
        armor = {i for i in c.attackers if i in board and (u := self.unit_of(board[i])) is not None and u.type == ARMOR}
        if aa and armor:
            self._aa_armor[id(c)] = armor

    def _close(self) -> None:
        c = self.combat_now
        armor = self._aa_armor.pop(id(c), None) if c is not None else None
        if c is not None and armor and not c.more_hexes:
            lost = sum(max(0, c.lost.get(i, 0)) for i in c.attackers)
            if lost and not any(c.lost.get(i, 0) > 0 for i in armor):
                names = ", ".join(self.replayer.board.pieces[i].name for i in sorted(armor))
                self.find("10.51", f"combat on {c.defender_hex}: a German AA unit defends against armor and the "
                          f"attackers lost {lost} step(s), none from the armor ({names}): the first Allied loss "
                          f"is an armor step", None, None, c.defender_hex, side=self.side_names["allied"])
        super()._close()
