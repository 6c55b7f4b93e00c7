"""Transport from the holding boxes (7.0, 7.13) and anti-shipping (19.14): digest 10.1 rank 15, part.

In a Transport phase a unit leaves a holding box for the map only by air transport (Axis, from
the Greece Holding Box to a friendly airfield, 7.11) or naval transport (to a port, 7.22); a raid
(10.6) goes to sea (amphibious.py).  The Axis air transport carries one stacking point or one SP
(a one-point Supply Dump) a Transport phase (7.13; tables/supply.yaml `air_transport`).

Choices:
- 7.13: a move from the Greece Holding Box to an airfield that is no port (tables/air-naval.yaml,
  reconstructed) is air transport; to a hex both airfield and port (Beirut) it may be naval and is
  not counted.
- 7.0: a unit or Supply Dump leaving a holding box for a land hex that is neither an airfield (for
  the Axis) nor a port, in a Transport phase, is reported.  Moves between hexes in a Transport
  phase (naval transport port to port) and the Naval Transport Table are not judged.
- 19.14: an Allied naval unit moved in an Axis Transport phase is taken for anti-shipping; it is
  back where it was by the phase's end.  Its DRM is the players' to add to the raw die the log
  shows, and is not judged.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.ports import is_naval
from validators.games.slouch_hats_and_eggshells.units import Forces, port_hexes
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

AIR_FROM = "Greece Holding Box"  # 7.11


class Transport(Rule):
    """7.0, 7.13: in a Transport phase units and SPs leave a holding box only for a port (naval
    transport) or, the Axis's from Greece, an airfield (air transport, one stacking point or SP a
    phase)."""

    ids = ("7.0", "7.13", "19.14")
    needs = (Forces,)
    acts_in = {"unit_step": ()}  # it reads units leaving boxes and naval markers

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.ports = port_hexes(self.game)
        air = self.tables.get("air-naval", {}).get("airfields", {})
        self.airfields = set(air.get("axis", ()))
        self.capacity = int(self.tables.get("supply", {}).get("air_transport", {}).get("capacity", 1))
        self.boxes = set(self.tables.get("supply", {}).get("holding_boxes", {})) | {AIR_FROM}
        self._carried: dict[str, int] = {}  # piece -> stacking points (or SPs) carried by air this phase
        self._sailed: dict[str, str] = {}  # naval unit moved in an Axis Transport phase -> where it was (19.14)

    def phase_started(self, pid: str) -> None:
        self._carried, self._sailed = {}, {}

    def phase_ended(self, pid: str) -> None:
        """19.14: a naval unit taken out for anti-shipping in an Axis Transport phase goes back to
        where it was by the phase's end."""
        st, pieces = self.state, self.board.replayer.board.pieces
        if st.phase_kind != "transport" or st.phase_side != "axis":
            return
        for pid, origin in sorted(self._sailed.items()):
            p = pieces.get(pid)
            if p is not None and self.board.where(p) != origin:
                self.find("19.14", f"{p.name}, taken out in the {st.phase} (anti-shipping), is not back in {origin} at "
                          "its end: the naval unit returns at the conclusion of the Transport phase", p,
                          side=self.board.side_names.get("allied"))

    def moved(self, e: Moved) -> None:
        st, board = self.state, self.board
        old, new, p = e.old.label, e.new.label, e.piece
        if st.phase_kind == "transport" and st.phase_side == "axis" and is_naval(self.forces.marker_id(p)):
            self._sailed.setdefault(p.id, old)
            return
        if st.phase_kind != "transport" or old not in self.boxes or not board.on_map(new):
            return
        u = board.unit_of(p)
        dump = self.forces.marker_id(p).startswith(("dump-", "large-dump-"))
        if u is None and not dump or self.game.hex_terrain.get(new) == "sea":
            return  # a marker, or a raid (amphibious.py)
        side = board.side_id(p) if u is not None else self.forces.air_side(p)
        by_air = side == "axis" and old == AIR_FROM and new in self.airfields
        if new not in self.ports and not by_air:
            self.find("7.0", f"{p.name} leaves the {old} for {new} in the {st.phase}: transport reaches a port, or (the "
                      f"Axis from the {AIR_FROM}) an airfield{st.reconstructed('air-naval')}", p, old, new)
            return
        if by_air and new not in self.ports:
            self._carried[p.id] = (u.stacking or 0) if u is not None else 1
            load = sum(self._carried.values())
            if load > self.capacity:
                self.find("7.13", f"the air transport carries {load} stacking points or SPs in the {st.phase}: "
                          f"{self.capacity} a Transport phase{st.reconstructed('supply')}", p, old, new)
