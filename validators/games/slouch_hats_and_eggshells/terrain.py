"""Movement costs and zones of control by the reconstructed Terrain Effects Chart
(tables/terrain-effects.yaml), shared by movement, combat and the mandatory attacks.

A step costs the hex entered for the unit's movement class (the kernel's `TerrainChart` reads
the columns; armor and armored cars enter mountain only along a road or trail, 8.35), or the
road rate when the hexside crossed carries a main road, minor road (1/2 MP) or trail (half the
hex's cost; +1/2 MP across a wadi, 8.37), ignoring other terrain (8.36); else plus ridge and
wadi hexsides (8.33); escarpment, swamp and lava hexsides and the sea are never crossed.

Zones of control (3.2): every combat unit exerts one into the six hexes around it, but not
across a hexside or into a hex its own movement may not cross or enter (3.24), and not when
every unit of its hex has the No-ZOC band (3.22); friendly units do not cancel an enemy ZOC
(8.23).
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.movement import Blocked, Reach, TerrainChart, mp, search
from validators.kernel.rule import Tracker
from validators.kernel.zoc import zone_of_control

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

ROADS = ("road", "minor-road", "trail")  # 8.36: the lines a unit moves along at road rate
PROHIBITED_SIDES = ("escarpment", "swamp-side", "lava-side")  # 8.33, 8.34


class MoveCosts(Tracker):
    """Step costs (remembered: the terrain never changes) and the enemy's ZOC (kept while the board
    does not change)."""

    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.tec = self.tables["terrain-effects"]
        self.chart = TerrainChart(self.game, self.tec)
        self._memo: dict[tuple[str, str, str], Fraction | Blocked] = {}
        self._zoc: dict[str, frozenset[str]] = {}
        self._zoc_version = -1

    def features(self, a: str, b: str) -> frozenset[str]:
        return self.chart.features(a, b)

    def road_between(self, a: str, b: str) -> str | None:
        """The best road kind crossing the hexside a/b (main or minor road, else trail), None if none."""
        side = self.features(a, b)
        return next((r for r in ROADS if r in side), None)

    def on_line(self, hex_id: str, feature: str) -> bool:
        return feature in self.chart.on_feature.get(hex_id, ())

    # -- costs ----------------------------------------------------------------------------------
    def step_cost(self, a: str, b: str, cls: str) -> Fraction | Blocked:
        key = (a, b, cls)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._step(a, b, cls)
        return found

    def _step(self, a: str, b: str, cls: str) -> Fraction | Blocked:
        terrain = self.game.hex_terrain.get(b, "")
        costs = self.tec["hex"].get(terrain, {}).get("mp", {})
        if not costs:
            return Blocked("8.11", f"{terrain or 'off-map'} hex {b}")
        sides = self.features(a, b)
        road = self.road_between(a, b)
        if road is None:
            bad = next((f for f in PROHIBITED_SIDES if f in sides), None)
            if bad:
                return Blocked("8.34" if bad != "escarpment" else "8.33", f"{bad} hexside {a}/{b}")
        base = self.chart.entry_cost(b, cls)
        base = None if isinstance(base, Blocked) else base
        if road is not None:
            rate = self.tec["roads"][road]["mp"]
            if rate == "half_hex":
                cost = (base if base is not None else min(mp(v) for v in costs.values())) / 2
                if "wadi" in sides:
                    cost += mp(self.tec["roads"][road].get("wadi_crossing", 0))
            else:
                cost = mp(rate)
            return cost
        if base is None:
            return Blocked("8.35", f"{terrain} hex {b} off a road or trail")
        for f in sorted(sides):
            extra = self.tec["hexside"].get(f, {}).get("mp")
            if extra:
                base += mp(extra)
        return base

    def passable(self, u: s.Unit, a: str, b: str) -> bool:
        return not isinstance(self.step_cost(a, b, self.forces.move_class(u)), Blocked)

    # -- zones of control (3.2) --------------------------------------------------------------------
    def enemy_zoc(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of the enemy of `side`."""
        version = self.board.replayer.board.version
        if version != self._zoc_version:
            self._zoc, self._zoc_version = {}, version
        found = self._zoc.get(side)
        if found is None:
            found = self._zoc[side] = self._enemy_zoc(side)
        return found

    def _enemy_zoc(self, side: str) -> frozenset[str]:
        board, forces = self.board, self.forces
        enemy = board.other_side[side]
        holders: dict[str, list] = {}
        for h, ps in board.by_hex().items():
            units = [board.unit_of(p) for p in ps if forces.is_combat(p) and board.side_id(p) == enemy]
            if units and not all(u.no_zoc for u in units):
                holders[h] = units
        return frozenset(zone_of_control(holders, self.game.geometry.neighbours,
                               lambda h, n: any(self.passable(u, h, n) for u in holders[h])))

    # -- paths -------------------------------------------------------------------------------------
    def search(self, u: s.Unit, side: str, start: str, new: str, *, zoc: frozenset[str] | None = None,
               roads_only: bool = False) -> Reach:
        """The cheapest paths for `u` from `start` towards `new`: no enemy hex entered, a stop in
        an enemy-ZOC hex (8.21), never enemy ZOC to enemy ZOC (8.22); `roads_only` for strategic
        movement (9.21)."""
        cls = self.forces.move_class(u)
        enemy = frozenset(self.forces.enemy_hexes(side))
        ezoc = frozenset(zoc if zoc is not None else ())

        def step(a: str, b: str) -> Fraction | None:
            if roads_only and self.road_between(a, b) is None:
                return None
            c = self.step_cost(a, b, cls)
            if isinstance(c, Blocked):
                return None
            if a in ezoc and b in ezoc:
                return None  # 8.22
            return c
        return search(self.game.geometry.neighbours, start, step, stop=ezoc, blocked=enemy, goal=new)
