"""Stacking (3.3, 12.33, 12.57) and air units on airfields (13.13), judged at the end of every
phase: digest 10.1 ranks 4 and 14 (part).

The stacking value is printed on each counter (2.24h; units.yaml `stacking`, reconstructed):
units of value 0 stack without limit (3.31), air units, MSUs and Dumps are markers and never
count (13.12, 6.13b), holding boxes have no limit (3.33).  Units moving or retreating pass
through stacks freely (3.32): only the end of a phase is judged, and a hex over a limit then is
reported at the step of the last piece that came into it (the act that left it over the limit).

Air units are the `air-*` markers; the airfields are tables/air-naval.yaml's (reconstructed:
findings say so).  Choice: a hex over a limit is reported once for the same units.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.rule import Rule


class Stacking(Rule):
    """3.32, 13.13: at the end of any phase at most 7 stacking points of one side in a hex (the
    excess goes to the Cadre Box), at most two air units of a side on an airfield, and no more
    air units in a holding box than it holds."""

    ids = ("3.32", "13.13")
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.stack_limit = self.game.table("stacking").typed.stacking.limit
        air = self.tables.get("air-naval", {})
        self.airfields = {h for hexes in air.get("airfields", {}).values() for h in hexes}
        self.airfield_cap = int(air.get("airfield_capacity", 2))
        self.box_caps = {k: int(v) for k, v in air.get("box_air_capacity", {}).items()}  # holding box -> air units

    def phase_ended(self, pid: str) -> None:
        """A hex whose pieces did not change since the last phase's end was judged then."""
        board, names, limit, combat_unit = self.board, self.board.side_names, self.stack_limit, self.forces.combat_unit
        hexes, touched = board.by_hex(), self.forces.touched
        self._airfields(touched)
        for h in sorted(hexes if touched is None else touched & hexes.keys()):
            by_side: dict[str, list] = {}  # each side's combat units and their total stacking points
            for p in hexes[h]:
                if (u := combat_unit(p)) is not None:
                    found = by_side.setdefault(board.side_id(p), [[], 0])
                    found[0].append(p)
                    found[1] += u.stacking or 0
            for side in names:
                units, total = by_side.get(side, ((), 0))
                if total <= limit or not self.once("3.32", h, frozenset(p.id for p in units)):
                    continue
                listed = ", ".join(f"{p.name} ({board.unit_of(p).stacking})" for p in units if board.unit_of(p).stacking)
                self.find("3.32", f"end of the {self.state.phase}: {h} holds {total} stacking points ({listed}), more "
                          f"than {self.stack_limit}; the excess goes to the Cadre Box"
                          f"{self.state.reconstructed('stacking')}", None, None, h, side=names[side],
                          at=self.forces.arrived.get(h))

    def _airfields(self, touched: set[str] | None) -> None:
        forces = self.forces
        for box in sorted(self.box_caps if touched is None else self.box_caps.keys() & touched):
            air = [p for p in self.board.replayer.board.pieces.values()
                   if forces.marker_id(p).startswith("air-") and self.board.where(p) == box]
            cap = self.box_caps[box]
            if len(air) > cap and self.once("13.13", box, frozenset(p.id for p in air)):
                self.find("13.13", f"end of the {self.state.phase}: {len(air)} air units in the {box} "
                          f"({', '.join(p.name for p in air)}); it holds {cap}{self.state.reconstructed('air-naval')}",
                          None, None, box, at=self.forces.arrived.get(box))
        fields = self.airfields if touched is None else self.airfields & touched
        for h, side in sorted((h, side) for h in fields for side in self.board.side_names):
            air = [p for p in self.board.pieces_in(h) if forces.marker_id(p).startswith("air-") and forces.air_side(p) == side]
            if len(air) > self.airfield_cap and self.once("13.13", h, frozenset(p.id for p in air)):
                self.find("13.13", f"end of the {self.state.phase}: {len(air)} air units on the airfield in {h} "
                          f"({', '.join(p.name for p in air)}); an airfield holds {self.airfield_cap}"
                          f"{self.state.reconstructed('air-naval')}", None, None, h, at=self.forces.arrived.get(h))
