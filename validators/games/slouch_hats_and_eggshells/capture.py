"""Capture of Supply Points (6.16): digest 10.1 rank 20.

A combat unit entering a hex that holds an enemy MSU or Supply Dump (by movement, exploitation or
an advance after combat) rolls the Supply Point Capture Table once per SP ("<Side> supply
capture die"); each SP is captured (the capturer's own counter replaces it) or destroyed, so no
enemy SP marker is left there (tables/capture.yaml, reconstructed).

Choices:
- The capture is "immediate": it is judged when the phase ends (an omission at its deadline), on
  the dice the capturing side rolled in the phase and the markers left in the hex.
- Each enemy marker holds at least one SP: the dice needed are counted per marker (a lower bound).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Added, Moved, Removed, Rolled

SUPPLY_UNITS = ("msu-", "dump-", "large-dump-")
CAPTURE_DIE = " supply capture die"
ENTERING = ("movement", "exploitation", "combat")


class SupplyCapture(Rule):
    """6.16: a combat unit entering a hex with enemy MSUs or Dumps rolls once per SP on the Supply
    Point Capture Table, and no enemy SP stays there."""

    ids = ("6.16",)
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self._pending: dict[str, tuple[str, set[str], object]] = {}  # hex -> (capturing side, enemy SP pieces, mover)
        self._dice: dict[str, int] = {}  # side -> capture dice this phase
        self._sp_at: dict | None = None  # hexes holding MSUs or Dumps by side (None: to work out)

    def phase_started(self, pid: str) -> None:
        self._pending, self._dice = {}, {}

    def _supply(self, hex_id: str, side: str) -> set[str]:
        forces = self.forces
        return {q.id for q in self.board.pieces_in(hex_id)
                if forces.marker_id(q).startswith(SUPPLY_UNITS) and forces.air_side(q) not in (None, side)}

    def _sp_hexes(self) -> dict[str | None, frozenset[str]]:
        """The hexes holding MSUs or Dumps, by the side they belong to (None: any side), worked
        out again only after one moved, came or went."""
        if self._sp_at is None:
            board, forces, out = self.board, self.forces, {}
            for p in board.replayer.board.pieces.values():
                if forces.marker_id(p).startswith(SUPPLY_UNITS) and (h := board.hex_of(p)):
                    out.setdefault(forces.air_side(p), set()).add(h)
            self._sp_at = {k: frozenset(v) for k, v in out.items()}
            self._sp_at[None] = frozenset().union(*out.values())
        return self._sp_at

    def _changed(self, e: Added | Removed) -> None:
        if self.forces.marker_id(e.piece).startswith(SUPPLY_UNITS):
            self._sp_at = None

    added = removed = _changed

    def moved(self, e: Moved) -> None:
        p, new, sp = e.piece, e.new.label, self._sp_hexes()
        if (e.old.label in sp[None] or not self.board.on_map(e.old.label)) \
                and self.forces.marker_id(p).startswith(SUPPLY_UNITS):
            self._sp_at = None  # an MSU or Dump moved (every piece in `sp` hexes is asked, the others cannot be one)
            return
        if new not in sp[None] or self.state.phase_kind not in ENTERING or new in self._pending:
            return
        side = self.board.side_id(p)
        if new not in sp.get(self.board.other_side.get(side or ""), ()) or self.forces.combat_unit(p) is None:
            return
        if found := self._supply(new, side):
            self._pending[new] = (side, found, p)

    def rolled(self, e: Rolled) -> None:
        if e.button.endswith(CAPTURE_DIE):
            side = self.board.side_ids.get(e.button[: -len(CAPTURE_DIE)])
            if side:
                self._dice[side] = self._dice.get(side, 0) + len(e.dice)

    def phase_ended(self, pid: str) -> None:
        need: dict[str, int] = {}
        for h, (side, sps, mover) in sorted(self._pending.items()):
            need[side] = need.get(side, 0) + len(sps)
            left = self._supply(h, side)
            if left:
                names = ", ".join(sorted(self.board.replayer.board.pieces[i].name for i in left))
                self.find("6.16", f"{mover.name} entered {h} with enemy SPs ({names}) still there at the end of the "
                          f"{self.state.phase}: each SP is captured (replaced by the capturer's) or destroyed",
                          mover, None, h)
        for side, n in sorted(need.items()):
            if self._dice.get(side, 0) < n:
                self.find("6.16", f"{self.board.side_names[side]} units entered hexes holding {n} enemy SP counter(s) in "
                          f"the {self.state.phase} and rolled the Supply Point Capture Table {self._dice.get(side, 0)} "
                          "time(s): once per SP", side=self.board.side_names[side])
