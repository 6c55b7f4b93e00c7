"""Movement from the data: terrain costs per movement class, the MA, zones of control.

terrain.yaml gives what a step costs (`validators.kernel.movement.TerrainCosts`); units.yaml a
unit's MA and, through its type, its movement class; tables/movement.yaml, when the game has
it, the rule numbers and the zone of control:

    allowance: {rule: "2.1"}          # a unit spends at most its MA in its Movement Phase
    zoc: {rule: "4"}                  # units exert a zone of control into the hexes around them;
                                      # entering one ends the move, and no move goes from one
                                      # enemy-controlled hex straight into another

A move is costed as the cheapest legal path from where the unit stood when its phase began
(the turn, in a game without a sequence of play), searched no further than the MA; only a move
no path fits is searched further, for the cost its finding gives.
"""
from __future__ import annotations

from dataclasses import dataclass

from builder.model.game import Game
from validators.kernel.movement import Blocked, TerrainCosts, search
from validators.kernel.rule import Rule, Tracker
from validators.kernel.zoc import ZocMove, zone_of_control
from validators.replay.board import Piece
from validators.replay.replayer import Moved

ALLOWANCE = "movement"  # the allowance's rule where the game names none (a game of an older `hexforge new`)


def movement_table(game: Game) -> dict:
    table = game.tables.get("movement")
    return table.data if table is not None else {}


class Terrain(Tracker):
    """Terrain costs and each unit's movement class, from the sources."""

    def start(self) -> None:
        self.costs = TerrainCosts(self.game)
        types = self.game.unit_types
        self.classes = {u.id: types[u.type].movement_class or u.type if u.type in types else u.type
                        for u in self.game.units}

    def step(self, p: Piece):
        """The step callback of a piece's movement class, in cost units."""
        return self.costs.cost(self.classes.get(self.board.unit_of(p).id, ""))

    def why(self, a: str, b: str, p: Piece) -> Blocked | None:
        found = self.costs.step(a, b, self.classes.get(self.board.unit_of(p).id, ""))
        return found if isinstance(found, Blocked) else None


@dataclass
class Move:
    start: str  # where the unit stood when its phase began
    stopped: str | None = None  # the enemy-controlled hex where its move ended


class Movement(Rule):
    """A unit's moves in its Movement Phase fit its MA by the terrain's costs, enter no prohibited
    terrain nor enemy-held hex, and stop in the enemy's zone of control."""

    needs = (Terrain,)

    @classmethod
    def ids_in(cls, game: Game) -> tuple[str, ...]:
        spec, t = movement_table(game), game.terrain
        numbers = [(spec.get("allowance") or {}).get("rule") or ALLOWANCE, (spec.get("zoc") or {}).get("rule")]
        numbers += [k.rule for k in game.hex_terrain_types.values()] + [f.rule for f in game.hexside_feature_types.values()]
        numbers.append(t.hexside_default_rule)
        return tuple(dict.fromkeys(str(n) for n in numbers if n))

    def start(self) -> None:
        spec = movement_table(self.game)
        self.terrain = self.ctx.get(Terrain)
        self.allowance_rule = (spec.get("allowance") or {}).get("rule") or ALLOWANCE
        self.zoc_rule = (spec.get("zoc") or {}).get("rule")
        self.moves: dict[str, Move] = {}

    def phase_started(self, pid: str) -> None:
        self.moves = {}

    def turn_ended(self, turn: int) -> None:
        self.moves = {}

    def _judged(self, e: Moved) -> bool:
        """A unit's move from hex to hex, in its side's Movement Phase when the game has phases."""
        board, st = self.board, self.state
        u = board.unit_of(e.piece)
        if u is None or not u.ma or e.old.label == e.new.label or not board.on_map(e.old.label) \
                or not board.on_map(e.new.label):
            return False
        if not st.phase_specs:
            return True
        return st.phase_kind == "movement" and st.phasing() in (None, board.side_id(e.piece))

    def moved(self, e: Moved) -> None:
        if not self._judged(e):
            return
        board, old, new = self.board, e.old.label, e.new.label
        u = board.unit_of(e.piece)
        rec = self.moves.setdefault(e.piece.id, Move(old))
        if rec.stopped is not None and self.zoc_rule:
            self.find(self.zoc_rule, f"{u.name} moves on from {rec.stopped} to {new}: it entered an enemy zone of "
                      "control there, which ends its move", e.piece, rec.stopped, new)
            return
        side = board.side_id(e.piece)
        enemy = board.occupied_by_enemy(board.side_of(e.piece) or "")
        if new in enemy:
            self.find(self.allowance_rule, f"{u.name} moves {old} -> {new}: {new} holds enemy units", e.piece, old, new)
            return
        blocked = self.terrain.why(old, new, e.piece) if self.game.geometry.adjacent(old, new) else None
        if blocked is not None:
            self.find(blocked.rule or self.allowance_rule, f"{u.name} moves {old} -> {new}: {blocked.why} cannot be "
                      "entered or crossed", e.piece, old, new)
            return
        self._cost(e, u, side, rec, enemy)

    def _cost(self, e: Moved, u, side: str | None, rec: Move, enemy: set[str]) -> None:
        geo, costs = self.game.geometry, self.terrain.costs
        new, step, ma = e.new.label, self.terrain.step(e.piece), costs.units(u.ma)
        zoc = ZocMove(frozenset(self._enemy_zoc(side)), frozenset()) if self.zoc_rule else None
        moved = zoc.wrap(step) if zoc else step
        found = search(geo.neighbours, rec.start, moved, allowance=ma, stop=zoc.stops() if zoc else (),
                       blocked=enemy, goal=new)
        if new in found:
            if zoc is not None and new in zoc.live:
                rec.stopped = new
            return
        if zoc is not None and new in search(geo.neighbours, rec.start, step, allowance=ma, blocked=enemy, goal=new):
            self.find(self.zoc_rule, f"{u.name} cannot reach {new} from {rec.start} within its MA without moving on "
                      "from an enemy zone of control, or from one enemy-controlled hex straight into another",
                      e.piece, rec.start, new)
            return
        free = search(geo.neighbours, rec.start, step, blocked=enemy, goal=new)
        if new not in free:
            self.find(self.allowance_rule, f"{u.name} moves {rec.start} -> {new}: no path of enterable hexes leads "
                      "there", e.piece, rec.start, new)
            return
        path = free.path(new)
        self.find(self.allowance_rule, f"{u.name} spends {costs.show(free.cost[new])} MP via {'-'.join(path)}, "
                  f"more than its MA of {u.ma}", e.piece, rec.start, new, path=path)

    def _enemy_zoc(self, side: str | None) -> set[str]:
        """Hexes next to a unit of another side with a strength above 0, across a hexside some
        unit may cross."""
        board, geo, costs = self.board, self.game.geometry, self.terrain.costs
        holders = [h for h, ps in board.by_hex().items()
                   if any(board.side_id(p) not in (None, side) and (board.unit_of(p).cs or 0) > 0
                          for p in ps if board.unit_of(p) is not None)]
        classes = set(self.terrain.classes.values())
        return zone_of_control(holders, geo.neighbours,
                               lambda a, b: any(not isinstance(costs.step(a, b, c), Blocked) for c in classes))
