"""Control of strategic hexes (12): the Control Marker must show the side the rules name.

The `Play` tracker keeps who last passed through each strategic hex (12.1.1) and the combats
fought in them, and tells when an activation's end settles a combat hex (`control_settling`).

Choices:
- 12.1: a wrong flip is reported where it is made; a flip still missing when the activation
  ends (play.py) is reported then, unless a wrong flip of that combat's hex was reported.
- 12.1, 12.1.1: when one side retreats and the other stays, the side that stays controls the hex.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import Play
from validators.games.bravery_in_the_sand.state import Combat
from validators.games.bravery_in_the_sand.units import Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Flipped


class Control(Rule):
    """12.1: control follows the units: an empty hex belongs to the side that last passed through it
    (12.1.1); after a combat, to the side that stayed, the last to retreat (12.1.2), the survivor
    (12.1.4), or its holder when both were destroyed (12.1.3) or both are still there (12.1.5)."""

    ids = ("12.1", "12.1.2", "12.1.3", "12.1.4", "12.1.5")
    covers = ("12.1.1",)
    needs = (Forces, Play)

    def start(self) -> None:
        self.forces, self.play = self.ctx.get(Forces), self.ctx.get(Play)
        self.flagged: set[Combat] = set()  # combats whose hex had a wrong flip reported

    def flipped(self, e: Flipped) -> None:
        if e.layer != "Face" or e.piece.properties().get("MarkerId") != "control" or not self.play.started:
            return
        f, b = self.forces, self.board
        hex_id, side = e.where.label, f.control_side(e.new)
        c = self.play.fought.get(hex_id)
        if c is not None and c.rounds:
            due, rule, why = self.play.due_control(c)
            if due is not None and side != due:
                self.flagged.add(c)
                self.find(rule, f"control of {hex_id} flipped to {side}, but {why}: it belongs to {due}",
                          e.piece, to_hex=hex_id, side=side)
            return
        if f.both_sides_in(hex_id):
            held = c.control_before if c is not None else f.control_side(e.old)
            if side != held:
                self.find("12.1.5", f"control of {hex_id} flipped to {side} while units of both sides are there: "
                          f"it stays with {held}, who controlled it last", e.piece, to_hex=hex_id, side=side)
            return
        present = {b.side_of(q) for q in b.units_in(hex_id)}
        if side not in present and self.play.passed.get(hex_id) != side:
            self.find("12.1", f"control of {hex_id} flipped to {side}, but no {side} unit is there or passed through",
                      e.piece, to_hex=hex_id, side=side)

    def control_settling(self, hex_id: str, c: Combat, due: str, rule: str, why: str) -> None:
        held = self.forces.controller(hex_id)
        if held != due and c not in self.flagged:
            self.find(rule, f"control of {hex_id} passes to {due} ({why}); its Control Marker still shows {held}",
                      self.forces.control_marker(hex_id), to_hex=hex_id, side=due)
