"""What a Slouch Hats and Eggshells piece is by the rules, and what terrain costs it.

Choices:
- Markers lie in hexes, not on units: a marker (No Movement Supply, Garrison) is read as
  belonging to a unit only when the unit is the only one it can belong to (see the rules).
- Air and naval units are markers (markers.yaml `air-*`, `naval-*`): their side is their face's
  side and their support strength the "S<n>" their face prints.

Costs (`MoveCosts`, the reconstructed Terrain Effects Chart, tables/terrain-effects.yaml): a step
costs the hex entered for the unit's movement class (the kernel's `TerrainChart` reads the
columns; armor and armored cars enter mountain only along a road or trail, 8.35), or the road
rate when the hexside crossed carries a main road, minor road (1/2 MP) or trail (half the hex's
cost; +1/2 MP across a wadi, 8.37), ignoring other terrain (8.36); else plus ridge and wadi
hexsides (8.33); escarpment, swamp and lava hexsides and the sea are never crossed.

Zones of control (3.2): every combat unit exerts one into the hexes around it, not across a
hexside or into a hex its own movement may not cross or enter (3.24), nor when every unit of its
hex has the No-ZOC band (3.22); friendly units do not cancel an enemy ZOC (8.23).
"""
from __future__ import annotations

import re
from fractions import Fraction
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

from validators.kernel.combat import steps_left
from validators.kernel.movement import Blocked, Reach, TerrainChart, mp, search
from validators.kernel.rule import Tracker
from validators.kernel.zoc import ZocMove, zone_of_control
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

SUPPORT = re.compile(r"\bS(\d+)\b")
BOMBER = re.compile(r"\bB\b")  # an air unit's type on its face (13.1)
ROADS = ("road", "minor-road", "trail")  # 8.36: the lines a unit moves along at road rate
PROHIBITED_SIDES = ("escarpment", "swamp-side", "lava-side")  # 8.33, 8.34
PIECE_EVENTS = (Moved, Flipped, Added, Removed)


def port_hexes(game) -> frozenset[str]:
    """The hexes of the ports that have a port track (a track `port-X` named "<place> port")."""
    hex_of = {p.name: p.hex for p in game.map.places}
    return frozenset(hex_of[n] for tid, t in game.tracks.items()
                     if tid.startswith("port-") and (n := t.name.removesuffix(" port")) in hex_of)


class Forces(Tracker):
    """The rules' view of pieces; it remembers the enemy's hexes and ZOC, and the hexes touched."""

    def start(self) -> None:
        self.tec = self.game.table("terrain-effects").data  # schema.TerrainEffectsData
        self.loss_boxes = self.board.track_boxes("losses")
        self._kept: dict[tuple[str, str], object] = {}  # (what, side) -> facts of the enemy of side's units
        self._roles: dict[str, tuple] = {}  # piece id -> (its state, its combat unit or None, its side)
        self.touched: set[str] | None = None  # hexes whose pieces moved, came or went since the last phase's
        self._ended = False  # end (None: every hex, until a phase has ended)
        self.arrived: dict[str, int] = {}  # hex or box -> the step of the last piece that came into it

    def moved(self, e: Moved) -> None:
        self.arrived[e.new.label] = self.state.step
        if self.touched is not None:
            self.touched.update((e.old.label, e.new.label))

    def added(self, e: Added | Removed) -> None:
        if isinstance(e, Added):
            self.arrived[e.where.label] = self.state.step
        if self.touched is not None:
            self.touched.add(e.where.label)

    def removed(self, e: Removed) -> None:
        if self.touched is not None:
            self.touched.add(e.where.label)

    def phase_ended(self, pid: str) -> None:
        self._ended = True

    def phase_started(self, pid: str) -> None:
        if self._ended:
            self.touched, self._ended = set(), False

    def of_enemy(self, what: str, side: str, make):
        """`make()`: a fact of the units of the enemy of `side`, remembered while none of them moves,
        comes or goes."""
        found = self._kept.get((what, side))
        if found is None:
            found = self._kept[what, side] = make()
        return found

    def before_step(self, step) -> None:
        """The replay applies a step whole before its events: the sides of the units it touches
        are known before the first event is heard."""
        board, kept = self.board, self._kept
        if kept:
            sides = {board.side_id(e.piece) for e in board.step_events
                     if isinstance(e, PIECE_EVENTS) and board.unit_of(e.piece) is not None}
            for k in [k for k in kept if None in sides or board.other_side[k[1]] in sides]:
                del kept[k]

    def marker_id(self, p: Piece) -> str:
        return p.properties().get("MarkerId", "")

    def combat_unit(self, p: Piece) -> s.Unit | None:
        """The unit of a combat unit (2.21a: every unit but the REPLs, which have no strength), else None."""
        u = self.board.unit_of(p)
        return u if u is not None and u.type != "replacement" else None

    def combat_units(self, hex_id: str, side: str | None = None) -> list[Piece]:
        return [p for p in self.board.pieces_in(hex_id)
                if self.combat_unit(p) is not None and (side is None or self.board.side_id(p) == side)]

    def enemy_units(self, side: str) -> dict[str, list[s.Unit]]:
        """The combat units of the enemy of `side`, by hex."""
        return self.of_enemy("units", side, lambda: self._units_of(self.board.other_side[side]))

    def _units_of(self, side: str) -> dict[str, list[s.Unit]]:
        """A scan of every hex, each time the enemy has moved: each piece's unit and side are looked
        up once per state of the piece (a flip may change them)."""
        roles, out = self._roles, {}
        for h, ps in self.board.by_hex().items():
            units = None
            for p in ps:
                found = roles.get(p.id)
                if found is None or found[0] is not p.state:
                    found = roles[p.id] = (p.state, self.combat_unit(p), self.board.side_id(p))
                if found[1] is not None and found[2] == side:
                    units = [found[1]] if units is None else units + [found[1]]
            if units:
                out[h] = units
        return out

    def enemy_hexes(self, side: str) -> frozenset[str]:
        """Hexes holding combat units of the enemy of `side`."""
        return self.of_enemy("hexes", side, lambda: frozenset(self.enemy_units(side)))

    def adjacent_enemy(self, hex_id: str, side: str) -> bool:
        enemy = self.enemy_hexes(side)
        return any(n in enemy for n in self.game.geometry.neighbours(hex_id))

    def steps_now(self, u: s.Unit, p: Piece) -> int:
        return steps_left(self.board.reduced(p), u.steps)

    def move_class(self, u: s.Unit) -> str:
        return self.tec["types"].get(u.type, {}).get("movement_class", "foot")

    def is_armored(self, u: s.Unit) -> bool:
        return bool(self.tec["types"].get(u.type, {}).get("armored"))

    def is_german_aa(self, u: s.Unit | None) -> bool:
        """A German anti-aircraft unit (10.51)."""
        return u is not None and u.type == "motorized-aa" and self.game.formations[u.formation].nationality == "german"

    def air_side(self, p: Piece) -> str | None:
        """An air or naval marker's side (its face's)."""
        m = self.game.markers.get(self.marker_id(p))
        return m.faces[0].side if m is not None and m.faces else None

    def is_bomber(self, p: Piece) -> bool:
        """An air unit whose face prints the bomber type "B" (13.1, 13.36)."""
        m = self.game.markers.get(self.marker_id(p)) if self.marker_id(p).startswith("air-") else None
        return bool(m is not None and m.faces and BOMBER.search(m.faces[0].text))

    def air_support(self, p: Piece) -> int:
        m = self.game.markers.get(self.marker_id(p))
        found = SUPPORT.search(m.faces[0].text) if m is not None and m.faces else None
        return int(found[1]) if found else 0

    def vp_at(self, label: str) -> int | None:
        box = self.board.track_boxes("vp").get(label)
        return int(box) if box is not None and box.isdigit() else None

    def vp(self, side: str) -> tuple[Piece | None, int | None]:
        """The side's VP marker, and where it stands on the VP track."""
        p = self.board.marker(f"vp-{side}")
        return p, self.vp_at(self.board.where(p)) if p is not None else None


class MoveCosts(Tracker):
    """Step costs (remembered: the terrain never changes), the enemy's ZOC (kept while the enemy's
    units stay) and paths."""

    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.tec = self.game.table("terrain-effects").data  # schema.TerrainEffectsData
        self.chart = TerrainChart(self.game)
        self._memo: dict[tuple[str, str, str], Fraction | Blocked] = {}
        self._zocs: dict[tuple[str, frozenset[str]], set[str]] = {}

    def road_between(self, a: str, b: str) -> str | None:
        """The best road kind crossing the hexside a/b (main or minor road, else trail), None if none."""
        side = self.chart.features(a, b)
        return next((r for r in ROADS if r in side), None)

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
        sides = self.chart.features(a, b)
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

    def enemy_zoc(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of the enemy of `side`."""
        return self.forces.of_enemy("zoc", side, lambda: self._enemy_zoc(side))

    def _enemy_zoc(self, side: str) -> frozenset[str]:
        out, move_class = set(), self.forces.move_class
        for h, units in self.forces.enemy_units(side).items():
            if not all(u.no_zoc for u in units):
                out.update(self._zoc_of(h, frozenset(move_class(u) for u in units)))
        return frozenset(out)

    def _zoc_of(self, h: str, classes: frozenset[str]) -> set[str]:
        """The ZOC from `h` of units of these movement classes (remembered: the terrain never changes)."""
        key = (h, classes)
        found = self._zocs.get(key)
        if found is None:
            found = self._zocs[key] = zone_of_control((h,), self.game.geometry.neighbours, lambda a, b: any(
                not isinstance(self.step_cost(a, b, cls), Blocked) for cls in classes))
        return found

    def search(self, u: s.Unit, side: str, start: str, new: str, *, zoc: frozenset[str] | None = None,
               roads_only: bool = False, allowance: Fraction | None = None) -> Reach:
        """The cheapest paths for `u` from `start` towards `new` (within `allowance`, if given): no
        enemy hex entered, a stop in an enemy-ZOC hex (8.21), never enemy ZOC to enemy ZOC (8.22);
        `roads_only` for strategic movement (9.21)."""
        cls, ezoc = self.forces.move_class(u), ZocMove(frozenset(zoc or ()), frozenset())  # no friendly unit negates

        def step(a: str, b: str) -> Fraction | None:
            c = None if roads_only and self.road_between(a, b) is None else self.step_cost(a, b, cls)
            return None if c is None or isinstance(c, Blocked) else c
        step, geo, enemy = ezoc.wrap(step), self.game.geometry, self.forces.enemy_hexes(side)
        direct = step(start, new) if geo.adjacent(start, new) and new not in enemy else None  # no path costs more
        bound = direct if allowance is None else allowance if direct is None else min(direct, allowance)
        return search(geo.neighbours, start, step, stop=ezoc.stops(), blocked=enemy, goal=new, allowance=bound)

    def fits(self, u: s.Unit, side: str, start: str, new: str, zoc: frozenset[str], allowance: Fraction | None) -> bool:
        """Whether some path of `search` costs at most `allowance` (None: any): the direct step to
        a neighbour when it is legal, else a search no further than the allowance.  Most moves fit,
        and so need no cheapest path; False says nothing (`search` then tells why)."""
        if self.game.geometry.adjacent(start, new) and new not in self.forces.enemy_hexes(side) \
                and not (start in zoc and new in zoc):  # the direct step, as `search`'s ZOC allows it
            c = self.step_cost(start, new, self.forces.move_class(u))
            if not isinstance(c, Blocked) and (allowance is None or c <= allowance):
                return True
        return allowance is not None and new in self.search(u, side, start, new, zoc=zoc, allowance=allowance)
