"""General Supply (6.2-6.4): the Out of Supply markers of the Supply Status phase against the
Supply Routes a log lets us trace (digest 10.1 rank 8, part).

A Supply Route (6.21) is a Supply Line of at most 7 hexes (6.22a: not into mountain off a road or
trail, not across a lava or swamp hexside, 6.22b) to a Supply Road - connected main or minor road,
no trail (6.23) - that leads to a friendly source; neither passes an enemy combat unit or a vacant
hex in enemy ZOC (6.24; a contested hex is one, 3.12b).  A holding box has unlimited capacity
(6.45): a unit whose route reaches a Supply Road into its side's box (tables/supply.yaml: the
box's Entry hexes, reconstructed) is in General Supply whatever the players allocate, as is an
anti-aircraft unit alone on a friendly airfield (6.46, tables/air-naval.yaml) and a unit stored in
a box.

Choices:
- An OoS marker lies in a hex (units.py): at the end of the Supply Status phase one in a hex whose
  combat units are all surely in General Supply is reported (6.31, 6.32b).  A unit that may be out
  of supply is not required to carry a marker: ports, Dumps, MSUs and Turkey (6.43, 6.44) have
  capacities the players allocate, which the log does not show.
- Airfields and boxes are friendly by their table's side (captures, 6.42, are not followed).
- The Greece Holding Box lies across the sea: its land Entry hexes (1200, 1302) open only with
  Axis Event E (9.34), and 1302 is Turkey's source of eight units (6.44b); no route to it is
  taken as sure supply.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces, MoveCosts
from validators.kernel.rule import Rule
from validators.replay.replayer import Added

SUPPLY_ROADS = ("road", "minor-road")  # 6.23: no trail
LINE = 7  # 6.22a
NO_LINE_SIDES = ("swamp-side", "lava-side")  # 6.22b
ACROSS_THE_SEA = "Greece Holding Box"  # its land Entry hexes are Turkey's (6.44b, 9.34): not an unlimited land source


class GeneralSupply(Rule):
    """6.3, 6.23, 6.45, 6.46: at the end of the Supply Status phase no Out of Supply marker lies
    on units that trace a Supply Route to a friendly holding box, or on an anti-aircraft unit
    alone on a friendly airfield."""

    ids = ("6.3",)
    covers = ("6.23", "6.45", "6.46")
    needs = (Forces, MoveCosts)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.forces, self.costs = self.ctx.get(Forces), self.ctx.get(MoveCosts)
        supply = self.tables.get("supply", {})
        self.entries = {side: [h for name, b in supply.get("holding_boxes", {}).items() if b.get("side") == side
                               and name != ACROSS_THE_SEA for h in b.get("entry", ()) if h in self.game.geometry]
                        for side in self.board.side_names}
        self.airfields = {side: set(v) for side, v in self.tables.get("air-naval", {}).get("airfields", {}).items()}
        self.rep = self.state.reconstructed("supply")
        self._oos: list[str] | None = None

    def added(self, e: Added) -> None:
        if self.forces.marker_id(e.piece) == "oos":
            self._oos = None

    def _road(self, a: str, b: str) -> bool:
        return any(r in self.costs.chart.features(a, b) for r in SUPPLY_ROADS)

    def _line_step(self, a: str, b: str) -> bool:
        sides = self.costs.chart.features(a, b)
        if any(f in sides for f in NO_LINE_SIDES) or self.game.hex_terrain.get(b) in (None, "sea"):
            return False
        return self.game.hex_terrain.get(b) != "mountain" or any(r in sides for r in ("road", "minor-road", "trail"))

    def _supplied(self, side: str) -> set[str]:
        """The hexes from which a Supply Route reaches a Supply Road into a friendly holding box."""
        geo, forces = self.game.geometry, self.forces
        enemy, zoc = forces.enemy_hexes(side), self.costs.enemy_zoc(side)
        friendly = {h for h in zoc if forces.combat_units(h, side)}
        blocked = enemy | (zoc - friendly)
        road, todo = set(), [h for h in self.entries.get(side, ()) if h not in blocked]
        road.update(todo)
        while todo:  # 6.23: the road network that continues into the box
            a = todo.pop()
            for b in geo.neighbours(a):
                if b not in road and b not in blocked and self._road(a, b):
                    road.add(b)
                    todo.append(b)
        reach, layer = set(road), set(road)
        for _ in range(LINE):  # 6.22: the Supply Line back from the road, at most 7 hexes
            layer = {a for b in layer for a in geo.neighbours(b)
                     if a not in reach and a not in blocked and self._line_step(a, b)}
            reach |= layer
        return reach

    def phase_ended(self, pid: str) -> None:
        if self.state.phase_kind != "supply-status":
            return
        board, forces = self.board, self.forces
        pieces = board.replayer.board.pieces
        if self._oos is None:  # the OoS markers' pieces: found again only when one is added
            self._oos = [i for i, p in pieces.items() if forces.marker_id(p) == "oos"]
        marked = sorted({h for i in self._oos if (p := pieces.get(i)) is not None and (h := board.hex_of(p))})
        supplied: dict[str, set[str]] = {}
        for h in marked:
            units = forces.combat_units(h)
            sides = {board.side_id(p) for p in units}
            if len(sides) != 1:
                continue
            side = sides.pop()
            if side not in supplied:
                supplied[side] = self._supplied(side)
            aa = [p for p in units if board.unit_of(p).type == "motorized-aa"]
            why = None
            if h in supplied[side]:
                why = f"they trace a Supply Route to a Supply Road into the {board.side_names[side]} holding box (6.45)"
            elif len(units) == 1 and aa and h in self.airfields.get(side, ()):
                why = "an anti-aircraft unit alone on a friendly airfield is supplied by it (6.46)"
            if why:
                self.find("6.3", f"end of the {self.state.phase}: an Out of Supply marker in {h} "
                          f"({', '.join(p.name for p in units)}): {why}{self.rep}", units[0], None, h,
                          side=board.side_names[side])
