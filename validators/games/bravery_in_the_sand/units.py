"""What a Bravery in the Sand unit and hex are by the rules: nationality, Strength Level, Combat
Strength, who holds a hex's Control Marker, the Combined Attack Markers, and what a step costs.

Movement costs (6.1.1-6.1.4) are the kernel's `TerrainCosts` of terrain.yaml: a hexside costs
the cheapest costed feature on it (a road 1/2, a track 1), else the desert's 2; a cliff forbids
the crossing unless a road or track shares it; the sea cannot be entered.
"""
from __future__ import annotations

from validators.kernel.movement import Blocked, TerrainCosts, search
from validators.kernel.rule import Tracker
from validators.replay.board import Piece

LEVELS = "ABCD"  # Strength Levels, strongest first (2.1.1)


class Forces(Tracker):
    """The rules' view of units, markers and terrain (keeps no facts of its own)."""

    def start(self) -> None:
        g = self.game
        self.side_name = self.board.side_names
        self.combat_table = self.tables["combat"]
        self.paths = Paths(g)

    # -- units -------------------------------------------------------------------------------
    def nationality(self, p: Piece) -> str | None:
        u = self.board.unit_of(p)
        return self.game.formations[u.formation].nationality if u else None

    def level_index(self, p: Piece) -> int:
        u = self.board.unit_of(p)
        return LEVELS.index(u.level) if u else 9

    def combat_strength(self, units) -> float:
        """7.1.1: full-strength units count 1, reduced ones 1/2 (values from tables/combat.yaml)."""
        t, reduced = self.combat_table, self.board.reduced
        return sum(t["strength_reduced"] if reduced(q) else t["strength_full"] for q in units)

    def strength(self, hex_id: str, side: str) -> float:
        return self.combat_strength(self.board.units_in(hex_id, side))

    def tank_strength(self, side: str | None, nationality: str | None = None) -> float:
        b = self.board
        return self.combat_strength(p for p in b.units_on_map() if b.side_of(p) == side and b.unit_of(p).type == "armor"
                                    and nationality in (None, self.nationality(p)))

    def both_sides_in(self, hex_id: str) -> bool:
        return len({self.board.side_of(q) for q in self.board.units_in(hex_id)}) > 1

    # -- markers -----------------------------------------------------------------------------
    def control_marker(self, hex_id: str) -> Piece | None:
        return next((p for p in self.board.pieces_in(hex_id) if p.properties().get("MarkerId") == "control"), None)

    def controller(self, hex_id: str) -> str | None:
        """The side whose face the hex's Control Marker shows (12)."""
        p = self.control_marker(hex_id)
        return None if p is None else self.control_side(p.layer_level("Face"))

    def control_side(self, level: int) -> str | None:
        return self.side_name.get(self.game.markers["control"].faces[max(0, level - 1)].side or "")

    def combined_markers(self, hex_id: str, side: str) -> int:
        """Combined Attack Markers of `side` in a hex (their face shows the side)."""
        faces = self.game.markers["combined-attack"].faces if "combined-attack" in self.game.markers else []
        return sum(1 for q in self.board.pieces_in(hex_id) if q.properties().get("MarkerId") == "combined-attack"
                   and faces and self.side_name.get(faces[max(0, q.layer_level("Face") - 1)].side or "") == side)

    def under_combined_attack(self, hex_id: str, side: str) -> set[str]:
        """The units of `side` stacked with a Combined Attack Marker in a hex (8.1.1)."""
        out: set[str] = set()
        b = self.board
        board = b.replayer.board
        for stack in board.stacks.values():
            kids = [board.pieces[i] for i in stack.children if i in board.pieces]
            if any(k.properties().get("MarkerId") == "combined-attack" for k in kids) and any(b.hex_of(k) == hex_id for k in kids):
                out |= {k.id for k in kids if b.unit_of(k) and b.side_of(k) == side}
        return out


class Paths:
    """Movement costs (6.1) and the cheapest path between two hexes, in cost units (`costs.scale`
    a MP)."""

    def __init__(self, game):
        self.game = game
        self.costs = TerrainCosts(game)
        self.cheapest = min([self.costs.units(f.cost) for f in game.hexside_feature_types.values() if f.cost is not None]
                            + [self.costs.units(game.terrain.hexside_default_cost)])

    def crossing(self, a: str, b: str) -> int | Blocked:
        """What it takes to move from hex a into the adjacent hex b: cost units, or why not."""
        return self.costs.step(a, b, "all")

    def mp(self, units: int) -> float:
        return units / self.costs.scale

    def cheapest_path(self, start: str, goal: str, avoid: frozenset[str] = frozenset()) -> tuple[int, list[str]] | None:
        """The cheapest legal path start -> goal (cost units), or None when none exists.

        `avoid` lists hexes a path may end in but not pass through (enemy-occupied hexes, where
        movement must stop)."""
        direct = self.one_hexside_path(start, goal)
        if direct is not None:
            return direct
        found = search(self.game.geometry.neighbours, start, self.costs.cost("all"), stop=avoid, goal=goal)
        if goal not in found:
            return None
        return found.cost[goal], found.path(goal)

    def one_hexside_path(self, start: str, goal: str) -> tuple[int, list[str]] | None:
        """`cheapest_path` for any `avoid`, without a search, when `goal` is adjacent and its hexside
        costs no more than two hexsides of the cheapest kind: no way round can then cost less, and
        the search keeps the direct step on a tie.  None: a search is needed.  Most moves are one
        hex, so a caller can skip working out `avoid` too."""
        if not self.game.geometry.adjacent(start, goal):
            return None
        cost = self.crossing(start, goal)
        if isinstance(cost, Blocked) or cost > 2 * self.cheapest:
            return None
        return cost, [start, goal]
