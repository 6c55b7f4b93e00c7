"""Supply (8.0-8.4) and zones of control (9.3) as the board shows them now.

What the other rule families ask: `supplied(hex, side)`, `ezoc(side)` (hexes in the enemy ZOC of
`side`), `supply_status(hex, side)` ('main', 'limited' or None) and `tobruk_controller`.  All
parameters come from tables/supply.yaml, terrain-effects.yaml and unit-classes.yaml; answers
are kept while the units they depend on stay where they are (`BoardView.unit_hexes` gives a new
dict only when a side's units change), and the few latest by what they depend on (a unit that
steps out and back finds the nets of before).

Choices (8.1, 8.4):
- only combat units block a path or negate an enemy ZOC; lone leaders and depots do neither;
- a unit that only Tobruk can supply is supplied for movement and combat even when more units
  depend on Tobruk than its limit (the player may allocate Tobruk to any of them); attrition
  counts that at least the excess lose a step (attrition.py);
- Tobruk's controller changes when a combat unit of the other side enters its hex.
"""
from __future__ import annotations

from fractions import Fraction

from validators.kernel.places import Places
from validators.kernel.movement import TerrainChart, mp
from validators.kernel.supply import Leg, TypedSupplyNet, connected
from validators.kernel.rule import Tracker
from validators.kernel.zoc import zone_of_control
from validators.replay.board import Piece


class Supply(Tracker):
    """Supply, zones of control and the combat units by hex, as the board shows them now."""

    needs = (Places,)

    def start(self) -> None:
        self.places = self.ctx.get(Places)
        t = self.tables
        self.chart = TerrainChart(self.game)
        self.classes = t["unit-classes"]
        self.supply_table = t["supply"]
        self.limited = [dict(spec, hex=self.places.hex[spec["place"]]) for spec in self.supply_table.get("limited", ())
                        if spec["place"] in self.places.hex]
        self._kept: dict[tuple, object] = {}  # answers by what they depend on: kept while the board changes elsewhere
        self._ways: dict = {}  # the overland steps' ways, shared by the nets
        self._into: dict[str, dict[str, tuple[str, ...]]] = {}  # class -> hex -> the hexes a step into it is open from
        self._legs = [Leg(leg["feature"], leg.get("max_hexes")) for leg in self.supply_table["legs"]]
        overland = mp(self.supply_table["overland"]["mp"])  # an int when whole: a quick key for the nets' memos
        self._overland_mp = overland.numerator if overland.denominator == 1 else overland
        self._ezoc: dict[str, tuple] = {}  # side -> (the enemy's unit_hexes, ezoc)
        self._blocked: dict[str, tuple] = {}  # side -> (enemy's and own unit_hexes, EZOC hexes held, blocked)
        self._nets: dict[tuple, tuple] = {}  # (side, sources) -> (blocked_for_supply, the net)

    # -- pieces -----------------------------------------------------------------------------
    def sid(self, side: str | None) -> str | None:
        """A side id from a side id or name."""
        return self.board.side_ids.get(side, side) if side else None

    def side_name(self, side: str) -> str:
        return self.game.sides[self.sid(side)].name

    def unit_attrs(self, p: Piece) -> dict[str, object]:
        u = self.board.unit_of(p)
        f = self.game.formations[u.formation]
        return {"nationality": f.nationality, "size": u.size, "type": u.type, "formation": u.formation}

    def unit_hexes(self, side: str) -> dict[str, list[Piece]]:
        """Combat units of `side` (id or name) on the map, by hex."""
        return self.board.unit_hexes(self.sid(side))

    def ezoc(self, side: str) -> frozenset[str]:
        """Hexes in the zone of control of the enemies of `side` (9.3: every combat unit's but
        battalions'; leaders and depots are not units)."""
        side = self.sid(side)
        enemies = self.board.unit_hexes(self.board.other_side[side])  # a side id: no sid() (asked at every step)
        kept = self._ezoc.get(side)
        if kept is None or kept[0] is not enemies:
            no_zoc = self.classes.get("no_zoc_sizes", ())
            holders = frozenset(h for h, ps in enemies.items() if any(self.board.unit_of(p).size not in no_zoc for p in ps))
            kept = self._ezoc[side] = (enemies, _kept(self._kept, ("ezoc", holders), lambda: frozenset(zone_of_control(
                holders, self.game.geometry.neighbours, self.chart.passable))))
        return kept[1]

    # -- supply paths (8.1) -------------------------------------------------------------------
    def blocked_for_supply(self, side: str) -> frozenset[str]:
        """Enemy-occupied hexes and enemy-ZOC hexes no friendly unit occupies (8.1)."""
        side = self.sid(side)
        enemies, own = self.unit_hexes(self.board.other_side[side]), self.unit_hexes(side)
        kept = self._blocked.get(side)
        if kept is None or kept[0] is not enemies or kept[1] is not own:
            ezoc = self.ezoc(side)
            negating = ezoc.intersection(own)
            if kept is None or kept[0] is not enemies or kept[2] != negating:  # else the same hexes: the same set
                kept = (enemies, own, negating, frozenset(enemies).union(ezoc.difference(negating)))
            self._blocked[side] = kept = (enemies, own, negating, kept[3])
        return kept[3]

    def _net(self, side: str, sources: tuple[str, ...]) -> TypedSupplyNet:
        """The side's supply legs now; path types never come back (8.1, 8.3 Ex 3: kernel.supply.TypedSupplyNet)."""
        blocked = self.blocked_for_supply(side)
        kept = self._nets.get((side, sources))
        if kept is None or kept[0] is not blocked:
            key = ("net", sources, blocked)  # a net depends on nothing else
            kept = self._nets[(side, sources)] = (blocked, _kept(self._kept, key, lambda: TypedSupplyNet(
                self.game.geometry.neighbours, self.chart, self.supply_table["overland"]["movement_class"], sources,
                blocked, self._legs, self._ways)))
        return kept[1]

    def supply_range(self, hex_id: str, side: str) -> Fraction:
        """4 MP, or the best supply range of a friendly leader in the hex (8.1, 13.5), counting
        leaders who left the hex in this very step (a stack moved together)."""
        best = self._overland_mp
        for p in self.board.leaders_in(hex_id) + self.board.started_in(hex_id):
            leader = self.board.leader_of(p)
            if leader and self.board.side_id(p) == side:
                face = leader.faces[min(max(p.layer_level("Leader"), 1), len(leader.faces)) - 1]
                best = max(best, Fraction(face.range))
        return best

    def limited_sources(self, side: str) -> list[dict]:
        return [spec for spec in self.limited if self.places.controller(spec["hex"]) == side]

    def supply_status(self, hex_id: str, side: str) -> str | None:
        """'main' (the side's own source), 'limited' (only Tobruk), or None: unsupplied (8.1, 8.4)."""
        side = self.sid(side)
        reach = self.supply_range(hex_id, side)
        if self._net(side, (self.supply_table["sources"][side],)).traces(hex_id, reach):
            return "main"
        if any(self._net(side, (spec["hex"],)).traces(hex_id, reach) for spec in self.limited_sources(side)):
            return "limited"
        return None

    def supplied(self, hex_id: str, side: str) -> bool:
        """Whether a unit of `side` in `hex_id` is in supply now (8.1, 8.4)."""
        return self.supply_status(hex_id, side) is not None

    def limited_capacity(self, side: str) -> int:
        """How many combat units the side's limited sources (Tobruk) may supply now (8.4)."""
        total = 0
        for spec in self.limited_sources(side):
            limit = spec["limits"].get(side, 0)
            if self.naval_support():
                limit = spec.get("with_naval_support", {}).get(side, limit)
            total += limit
        return total

    def supply_level(self) -> str | None:
        """The Axis Supply Level: the box of the supply-level marker (7.5)."""
        spec = self.tables["movement"]["supply_level"]
        p = self.board.marker(spec["marker"])
        zone = self.board.where(p) if p is not None else ""
        level = zone[len(spec["zone_prefix"]):] if zone.startswith(spec["zone_prefix"]) else None
        return level if level in spec["levels"] else None

    def naval_support(self) -> bool:
        """Whether the Allies have Naval Support this turn (6.2; marker convention in supply.yaml)."""
        spec = self.supply_table.get("naval_support", {})
        p = self.board.marker(spec.get("marker", ""))
        return p is not None and p.map is not None and self.board.where(p) not in spec.get("idle_zones", ())

    def source_connected(self, side: str, blocked: frozenset[str] | None = None) -> set[str]:
        """Hexes with a path of any length to the side's own source free of enemy units and
        un-negated enemy ZOCs and of terrain prohibited to motorized units (8.3, 10.21); `blocked`:
        those hexes as `blocked_for_supply` gave them earlier (the board as a phase began)."""
        side = self.sid(side)
        cls = self.supply_table["overland"]["movement_class"]
        step, neighbours = self.chart.cost(cls), self.game.geometry.neighbours
        ways = self._into.setdefault(cls, {})

        def into(b: str) -> tuple[str, ...]:  # the neighbours a step a -> b is open from; the map does not change
            found = ways.get(b)
            if found is None:
                found = ways[b] = tuple(a for a in neighbours(b) if step(a, b) is not None)
            return found
        blocked = self.blocked_for_supply(side) if blocked is None else blocked
        return _kept(self._kept, ("connected", side, blocked), lambda: connected(
            into, [self.supply_table["sources"][side]], None, blocked))


def _kept(store: dict, key: tuple, make):
    """`make()` by `key`, the few latest kept (a step and back leaves the blocking hexes as they were)."""
    if key not in store:
        if len(store) >= 32:
            store.pop(next(iter(store)))
        store[key] = make()
    return store[key]
