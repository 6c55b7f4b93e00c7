"""Stacking (7.1, 7.31): checked when a maneuver ends (digest 10.1 rank 7).

tables/stacking.yaml gives the combinations a hex may hold at the end of movement: 2 infantry
CU + 1 other CU of at most 2 steps, or 1 infantry + 1 armoured + 1 other CU of at most 2 steps
(7.1b-c); HQs and retreating units do not count; two tank units never stack (7.1, 10.a).  A
Combat Group counter never stacks with another unit (7.31).

The combinations are read by builder/model/stacking.py's StackingCombinations, which the set-up
checks share.

Choices:
- 7.1 (digest O13): "infantry" is a unit of type infantry, motorised infantry or engineers;
  "armoured" a unit printed armoured (tanks, self-propelled AT, recon): the table's `kinds`; any
  CU is an "other" when it has at most 2 steps now (its strength, one less on its reduced face).
- A hex holding a Retreat marker is not checked: the marker cannot say which of its units retreat.
- The check is made when the tracker leaves phase B or D (the end of the maneuver's movement),
  for the hexes of the side that maneuvered; a finding is reported at the last step a piece came
  into the hex in that maneuver (the act that left it overstacked), else when the phase ends.
"""
from __future__ import annotations

from builder.model.stacking import StackingCombinations, unit_attrs
from validators.games.tobrouk_41_42.state import MANEUVERS
from validators.games.tobrouk_41_42.units import TobroukRule, mid
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved


class Stacking(TobroukRule):
    """7.1, 7.31: at the end of a maneuver no hex of the side that maneuvered holds combat units
    beyond a combination of tables/stacking.yaml, and no CG counter shares its hex with a unit."""

    ids = ("7.1", "7.31")

    def start(self) -> None:
        self.combinations = StackingCombinations.from_data(self.game.table("stacking").data)
        self._fits: dict[tuple, bool] = {}  # fits() by the units and their faces
        super().start()

    def new_phase(self) -> None:
        self.entered: dict[str, int] = {}  # hex -> the step a piece last came into it in the phase

    def moved(self, e: Moved) -> None:
        if self.state.phase_id in MANEUVERS and (self.unit_of(e.piece) is not None or mid(e.piece) in self.cg_side):
            self.entered[e.new.label] = self.state.step

    def added(self, e: Added) -> None:
        if self.state.phase_id in MANEUVERS and (self.unit_of(e.piece) is not None or mid(e.piece) in self.cg_side):
            self.entered[e.where.label] = self.state.step

    def phase_ended(self, pid: str) -> None:
        if pid in MANEUVERS:
            self._check_stacking()

    def fits(self, pieces: list[Piece]) -> bool:
        """Whether the units fill the slots of one combination of 7.1 (kept by units and faces: the
        same stacks are judged at every maneuver's end)."""
        key = tuple((self.unit_of(p).id, self.reduced(p)) for p in pieces)
        found = self._fits.get(key)
        if found is None:
            found = self._fits[key] = self.combinations.fits([unit_attrs(self.game, self.unit_of(p), self.reduced(p))
                                                              for p in pieces])
        return found

    def _check_stacking(self) -> None:
        for number, message, h, side in self.memo(("stacking", self.maneuvering()), self._overstacked):
            at = self.entered.get(h)  # judged when the movement ends, reported at the last entry (the act)
            what = (f"a unit moved into {h}, and when the {self.state.phase} ended, {message}" if at is not None
                    else f"end of the {self.state.phase}: {message}")
            self.find(number, what, None, None, h, side=side, at=at)

    def _overstacked(self) -> list[tuple]:
        """(number, message, hex, side name) of each hex that breaks 7.1 or 7.31 now."""
        mover, out = self.maneuvering(), []
        sides = [mover] if mover else list(self.side_names)
        crowded = {h for side in sides for h, ps in self.board.unit_hexes(side).items() if len(ps) > 1}
        index, hex_of = self.by_hex(), self.hex_of
        cg_hexes = {h for p in self.units_view.cg_pieces() if (h := hex_of(p))}
        judged = crowded | cg_hexes  # no other hex has a case
        for h in sorted(judged):
            ps = index.get(h)
            if ps is None:
                continue
            cg = None  # the last CG counter there (only a hex of cg_hexes has one)
            if h in cg_hexes:
                cg = next((p for p in reversed(ps) if mid(p) in self.cg_side), None)
            owner = self.cg_side[mid(cg)] if cg is not None else None
            if cg is not None and any(self.unit_of(p) for p in ps) and mover in (None, owner):
                out.append(("7.31", f"the Combat Group counter {cg.name} shares {h} with other units: a CG "
                            "never stacks", h, self.side_names.get(owner)))
            if h not in crowded or self.retreating(h):  # two units of a side at least, or none to judge
                continue
            for side in sides:
                cu = self.combat_units(h, side)
                if len(cu) > 1 and not self.fits(cu):
                    names = ", ".join(p.name for p in cu)
                    out.append(("7.1", f"{h} holds {names}: no combination of 7.1 (2 infantry + 1 other of at most 2 "
                                "steps, or 1 infantry + 1 armoured + 1 other of at most 2 steps; never two tank units)",
                                h, self.side_names[side]))
        return out
