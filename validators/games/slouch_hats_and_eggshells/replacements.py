"""Replacements (15.2, 15.21, 15.23): a unit on the map turned back to its full side (a Step flip
from reduced to full) is a step rebuilt (digest 10.1 rank 17, part).

- 15.2: steps are rebuilt in the unit's own side's Administrative phase.
- 15.21: an Axis unit rebuilds with a REPL unit in its hex (there when the phase began, or now).
- 15.23: RPs are infantry only (15.11) and rebuild no armor, armored car, artillery or AA unit.

Choices:
- A flip back of a unit flipped to reduced earlier in the same turn is read as a correction and
  not judged; flips in a Combat phase are the combat's (combat.py); units in boxes are not judged
  (15.25 restores them there, and set-up corrections happen there).
- Commandos are not judged: Allied Event C (20.21C) turns the commando to full outside the
  procedure (15.27).
- 15.22 (an Allied unit needs a Receiving Replacements marker from the Supply Status phase, and
  the RPs on the VP track) and 15.26 (one step a phase: a two-step unit cannot show more) are not
  checked: the marker is bookkeeping a log may lack.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.german_aa import GermanAARules
from validators.replay.replayer import Flipped

NO_INFANTRY_RP = ("armor", "armored-car", "artillery", "motorized-aa")  # 15.23
UNJUDGED = ("commando",)


class ReplacementRules(GermanAARules):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self._reduced_turn: dict[str, int | None] = {}  # piece -> turn it was last flipped to reduced
        self._repl_hexes: set[str] = set()

    def phase_started(self, kind: str, side: str | None) -> None:
        super().phase_started(kind, side)
        self._repl_hexes = {h for h, ps in self.by_hex().items()
                            if any((u := self.unit_of(p)) is not None and u.type == "replacement" for p in ps)}

    def on_flipped(self, e: Flipped) -> None:
        super().on_flipped(e)
        u = self.unit_of(e.piece)
        if u is None or e.layer != "Step" or self.phase_kind is None:
            return
        if e.new > e.old:
            self._reduced_turn[e.piece.id] = self.turn
            return
        hex_id = e.where.label
        if (e.new == e.old or hex_id not in self.game.geometry or u.type in UNJUDGED
                or self.phase_kind == "combat" or self._reduced_turn.get(e.piece.id, -1) == self.turn):
            return
        side = self.side_id(e.piece)
        if self.phase_kind != "administrative" or side != self.active_side:
            self.find("15.2", f"{e.piece.name} recovers a step in the {self.phase}: replacements are taken in the "
                      f"friendly Administrative phase", e.piece, None, hex_id)
        elif u.type in NO_INFANTRY_RP:
            self.find("15.23", f"{e.piece.name} recovers a step: infantry RPs (15.11) rebuild no armor, armored car, "
                      f"artillery or anti-aircraft unit", e.piece, None, hex_id)
        elif side == "axis" and hex_id not in self._repl_hexes and not any(
                (r := self.unit_of(p)) is not None and r.type == "replacement" for p in self.pieces_in(hex_id)):
            self.find("15.21", f"{e.piece.name} recovers a step in {hex_id} with no REPL unit there: a reduced Axis "
                      f"unit combines with a REPL unit in its place", e.piece, None, hex_id)
