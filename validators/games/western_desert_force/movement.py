"""Movement (9.0-9.7, 13.4): who moves in which phase, along which path, how far.

A VASSAL log shows where a move starts and ends, not its path: a move is legal when some legal
path joins them within the allowance (`kernel.movement.search`).  Costs come from
tables/terrain-effects.yaml, allowances from tables/movement.yaml and unit-classes.yaml.

Choices:
- (9.0, 9.1) several drags of one unit within one Movement Phase are ONE move, measured from
  where the unit stood when the phase began (so "no unit moves twice in a phase" is the
  allowance check of the whole move); a unit that ends where it began did not move.
- (8.2) supply for the move is read when the unit first moves in the phase, at its start hex;
  a leader that left that hex in the same logged step (a stack dragged together) still lends
  it his supply range.
- (9.4) a move is Strategic when the unit was declared ("Strategic movement: ...") before it
  moved, or when it only fits as one (beyond 1 x the allowance but legal as Strategic); either
  way the unit is recorded in `strategic_movers` and may not attack in Regular Combat.
- Moves into or out of off-map zones (eliminations, reserve, reinforcements) and every move in
  a Combat Phase (retreats and advances, audited by the combat rules) are not movement; depots
  are not moved by movement (their placement is audited elsewhere).
"""
from __future__ import annotations

import math
from fractions import Fraction
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

from validators.games.western_desert_force.state import ROLES
from validators.kernel.declarations import Declared
from validators.games.western_desert_force.leaders import CasualtyChecks
from validators.games.western_desert_force.base import Reads, WdfRule
from validators.games.western_desert_force.combat_state import CombatView
from validators.kernel.places import Places
from validators.games.western_desert_force.supply import Supply
from validators.kernel.rule import Tracker
from validators.kernel.movement import Blocked, Reach, search, show_mp
from validators.kernel.zoc import ZocMove
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Moved

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

MOVEMENT, EXPLOITATION = "movement", "exploitation-movement"
COMBAT_KINDS = ("combat", "exploitation-combat")

Problem = tuple  # (rule, message, path)


class MoveRecord(Record):
    """One unit's move in the current Movement Phase."""

    __slots__ = ("start", "supplied")

    def __init__(self, start: str, supplied: bool):
        self.start = start  # where it stood when the phase began
        self.supplied = supplied  # when it began to move (8.2)


class Moves(Reads, Tracker):
    """The moves of the Movement Phase being played, judged: `records` (each unit's move from where
    it stood when the phase began), `strategic_movers` and `sea_transferred` (this player turn),
    and `problem`, what is wrong with the move being heard ((rule, message, piece, from, to, path),
    else None).  Combat reads who moved strategically (9.4), the IP rules who moved (12.1)."""

    needs = (Places, Supply, CasualtyChecks, CombatView)

    def start(self) -> None:
        self.places, self.supply = self.ctx.get(Places), self.ctx.get(Supply)
        self.casualties, self.view = self.ctx.get(CasualtyChecks), self.ctx.get(CombatView)
        self.place_hex = self.places.hex
        self.problem: tuple | None = None
        self._entering_ip = False  # the move being costed ends under an IP marker (12.2)
        self.move_table = self.tables["movement"]
        self.strategic_movers: set[str] = set()  # piece ids that moved strategically this player turn (9.4)
        self.sea_transferred: set[str] = set()  # piece ids moved by Sea Transfer this player turn (9.7)
        self.records: dict[str, MoveRecord] = {}
        self._declared: dict[str, str] = {}  # piece id -> "strategic movement" | "sea transfer"
        self._tobruk_at_step_start: str | None = None
        self._searched: dict[tuple, Reach] = {}  # the latest searches, by what they depend on (_search)
        self._allowances: dict[tuple, tuple] = {}  # allowance() by all it depends on
        self._exempt_cost = Fraction(self.move_table["ezoc"]["exempt_cost"])
        self._classes: dict[str | None, tuple] = {}  # unit id -> _unit_class()

    # -- hooks ------------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind = self.phase_kind
        if kind in (MOVEMENT, EXPLOITATION):
            self.records = {}
        if kind == MOVEMENT:
            self.strategic_movers, self.sea_transferred = set(), set()

    def phase_ended(self, pid: str) -> None:
        kind = self.phase_kind
        if kind in (MOVEMENT, EXPLOITATION):
            self._declared = {}

    def declared(self, d: Declared) -> None:
        role, piece = ROLES[d.name], d.piece
        if role in ("strategic movement", "sea transfer"):
            self._declared[piece.id] = role

    def moved(self, e: Moved) -> None:
        self.problem = None
        self._movement(e.piece, e.old.label, e.new.label)

    def find(self, rule: str, message: str, p: Piece, old: str, new: str, path=()) -> None:
        self.problem = (rule, message, p, old, new, tuple(path))

    def before_step(self, step) -> None:
        """Who held Tobruk before this step's moves (a unit landing there takes it, 8.4; 9.7)."""
        tobruk = self.place_hex.get("Tobruk")
        self._tobruk_at_step_start = self.places.controller(tobruk) if tobruk else None

    # -- which moves are checked --------------------------------------------------------------
    def _movement(self, p: Piece, old: str, new: str) -> None:
        geo, kind = self.game.geometry.ids, self.state.phase_kind
        if old not in geo or new not in geo or old == new or kind is None or kind in COMBAT_KINDS:
            return
        unit, leader = self.board.unit_of(p), self.board.leader_of(p)
        if unit is None and leader is None:
            return
        if leader is not None and self.casualties.displaced(p):
            return  # 13.6: a leader placed with the nearest friendly unit after his casualty check
        side = self.board.side_id(p)
        if kind not in (MOVEMENT, EXPLOITATION):
            self.find("4.0", f"{self.phase} is not a Movement Phase: units move only in their side's Regular and "
                      "Exploitation Movement Phases", p, old, new)
            return
        if side != self.state.phase_side:
            active = self.supply.side_name(self.active_side)
            self.find("9.0", f"only {active} units move in the {self.phase} Phase", p, old, new)
            return
        rec = self.records.get(p.id)
        if rec is None:
            rec = self.records[p.id] = MoveRecord(old, self.supply.supplied(old, side))
        problem = self._move_problem(p, unit, leader, side, rec, new)
        if problem:
            rule, message, path = problem
            self.find(rule, message, p, rec.start, new, path)

    def _move_problem(self, p: Piece, unit: s.Unit | None, leader, side: str, rec: MoveRecord,
                      new: str) -> Problem | None:
        if new == rec.start:
            return None
        declared, kind = self._declared.get(p.id), self.state.phase_kind
        if kind == EXPLOITATION:
            if p.id in self.sea_transferred:
                return "9.7", "a unit that used Sea Transfer this turn may not use Exploitation Movement", ()
            if declared == "strategic movement":
                return "9.4", "Strategic Movement is made only in the Regular Movement Phase", ()
        if declared == "sea transfer" and kind == MOVEMENT and self._sea_route(rec.start, new):
            return self._entry_problem(p, leader, side, new) or self._sea_transfer_problem(p, side)
        entry = self._entry_problem(p, leader, side, new)
        if entry:
            return entry
        if declared == "strategic movement" and kind == MOVEMENT:
            self.strategic_movers.add(p.id)
            return self._strategic_problem(p, unit, side, rec, new)
        normal = self.normal_problem(p, unit, side, rec, new)
        if normal and kind == MOVEMENT and self._strategic_problem(p, unit, side, rec, new, True) is None:
            self.strategic_movers.add(p.id)  # detected: only a Strategic Movement fits (9.4)
            return None
        return normal

    def _sea_transfer_problem(self, p: Piece, side: str) -> Problem | None:
        """9.7: only with Tobruk controlled; one unit a turn, two with Allied Naval Support."""
        tobruk = self.place_hex.get("Tobruk")
        already = len(self.sea_transferred - {p.id})
        self.sea_transferred.add(p.id)
        if tobruk and self._tobruk_at_step_start != side:
            return "9.7", "Sea Transfer runs between Tobruk and Alexandria only while the Allies control Tobruk", ()
        limit = 2 if self.supply.naval_support() else 1
        if already >= limit:
            why = "with" if limit == 2 else "without"
            return "9.7", f"Sea Transfer moves {limit} unit(s) a turn {why} Allied Naval Support; this is one more", ()
        return None

    def _sea_route(self, a: str, b: str) -> bool:
        ports = {self.place_hex.get(name) for name in self.move_table["sea_transfer"]["ports"]}
        return {a, b} <= ports

    def _entry_problem(self, p: Piece, leader, side: str, new: str) -> Problem | None:
        """9.0: no unit enters an enemy combat unit's hex; 13.4: no leader enters the enemy
        leader's or depot's hex."""
        enemy = self.board.other_side[side]
        units = self.board.unit_hexes(enemy).get(new)  # side ids: the board's own answer (asked at every step)
        if units:
            names = ", ".join(q.name for q in units)
            return "9.0", f"{new} holds enemy combat units ({names}): no unit may enter it", ()
        if leader:
            why = self._leader_bans(side).get(new)
            if why:
                return self.move_table["leader_entry"]["rule"], f"a leader may not enter {why} ({new})", ()
        return None

    def _leader_bans(self, side: str) -> dict[str, str]:
        enemy = self.board.other_side[side]
        out = {}
        for q in self.board.replayer.board.pieces.values():
            if self.board.leader_of(q) and self.board.side_id(q) == enemy and (h := self.board.hex_of(q)):
                out[h] = "the enemy leader's hex"
        depot = self.board.marker(self.move_table["leader_entry"]["depots"][enemy])
        if depot is not None and (h := self.board.hex_of(depot)):
            out[h] = "the enemy depot's hex"
        return out

    # -- allowances ---------------------------------------------------------------------------
    def class_spec(self, unit: s.Unit | None) -> dict:
        return self.supply.classes["types"][unit.type] if unit else self.supply.classes["leader"]

    def _unit_class(self, unit: s.Unit | None) -> tuple[str, bool | None]:
        """(movement class, zoc_exempt; None for a leader) of a unit, from unit-classes.yaml and its
        formation: fixed for the match, so kept (asked at every step)."""
        key = unit.id if unit else None
        found = self._classes.get(key)
        if found is None:
            found = self._classes[key] = (self.class_spec(unit)["movement_class"],
                                          self.zoc_exempt(unit) if unit else None)
        return found

    def printed_ma(self, unit: s.Unit | None) -> int:
        return unit.ma if unit else int(self.supply.classes["leader"]["ma"])

    def _level_spec(self, unit: s.Unit | None, side: str) -> tuple[str, dict] | None:
        spec = self.move_table["supply_level"]
        if side != spec["side"] or not self.class_spec(unit).get("supply_level_penalty"):
            return None
        level = self.supply.supply_level()
        return (level, spec["levels"][level]) if level else None

    def allowance(self, unit: s.Unit | None, side: str, supplied: bool) -> tuple[tuple[Fraction, str, str], ...]:
        """The allowance in stages (value, rule, why): MA, 9.6 supply level, 9.5 exploitation, 8.2 supply;
        worked out once for all it depends on."""
        level = self._level_spec(unit, side)
        offensive = None
        if self.state.phase_kind == EXPLOITATION:
            offensive = "major" if self.view.major_offensive(side) else "normal"
        key = (unit.ma if unit else None, unit.type if unit else None, level and level[0], offensive, supplied,
               self._entering_ip)
        found = self._allowances.get(key)
        if found is None:
            found = self._allowances[key] = self._allowance(unit, level, offensive, supplied)
        return found

    def _allowance(self, unit: s.Unit | None, level, offensive: str | None, supplied: bool):
        ma = Fraction(self.printed_ma(unit))
        stages = [(ma, "9.1", f"MA {ma}")]
        if level and level[1].get("ma"):
            ma = max(Fraction(0), ma + level[1]["ma"])
            stages.append((ma, self.move_table["supply_level"]["rule"], f"Supply {level[0]} {level[1]['ma']:+d}"))
        if offensive is not None:
            frac = Fraction(str(self.class_spec(unit)["exploitation"][offensive]))
            if frac != 1:
                ma = Fraction(math.ceil(ma * frac))
                stages.append((ma, self.move_table["exploitation"]["rule"],
                               f"x {frac} in the exploitation of a {offensive.title()} Offensive, rounded up"))
        if not supplied:
            ma = Fraction(math.ceil(ma * Fraction(str(self.move_table["unsupplied"]["factor"]))))
            stages.append((ma, self.move_table["unsupplied"]["rule"], "unsupplied: halved, rounded up"))
        if self._entering_ip:
            stages.append((max(Fraction(0), stages[-1][0] - 1), "12.2", "1 MP to enter the IP under its marker"))
        return tuple(stages)

    @staticmethod
    def _explain(stages) -> str:
        first, *rest = stages
        return "; ".join([first[2]] + [f"{why}: {show_mp(v)}" for v, _, why in rest])

    # -- a normal move (9.0, 9.1, 9.31, 9.5, 9.6, 8.2) ------------------------------------------
    def zoc_move(self, p: Piece, unit: s.Unit | None, side: str) -> ZocMove | None:
        """9.31 for this mover: friendly units other than itself negate; leaders ignore ZOCs."""
        if unit is None:
            return None
        ezoc, own = self.supply.ezoc(side), self.supply.unit_hexes(side)
        negated = frozenset(h for h in ezoc.intersection(own) if any(q.id != p.id for q in own[h]))
        return ZocMove(ezoc, negated, self.zoc_exempt(unit), self._exempt_cost)

    def _may_step(self, p: Piece, unit: s.Unit | None, side: str, cls: str, a: str, b: str) -> bool:
        """Whether the step a -> b is open to the mover: terrain, no enemy unit (nor, for a leader,
        the enemy leader or depot: `_blocked`), and the enemy ZOC (9.31: not from one enemy ZOC hex
        into another no friendly unit but itself holds) unless it is exempt."""
        enemy = self.board.other_side[side]
        if isinstance(self.supply.chart.step(a, b, cls), Blocked) or b in self.board.unit_hexes(enemy):
            return False
        if unit is None and b in self._leader_bans(side):
            return False
        if unit is None or self._unit_class(unit)[1]:
            return True
        ezoc = self.supply.ezoc(side)
        return a not in ezoc or b not in ezoc or any(q.id != p.id for q in self.board.unit_hexes(side).get(b, ()))

    def zoc_exempt(self, unit: s.Unit) -> bool:
        """9.31: all armor, German motorized and German recon units (unit-classes.yaml)."""
        exempt = self.class_spec(unit).get("zoc_exempt", False)
        if isinstance(exempt, bool):
            return exempt
        return self.game.formations[unit.formation].nationality in exempt

    def normal_problem(self, p: Piece, unit: s.Unit | None, side: str, rec: MoveRecord, new: str) -> Problem | None:
        """9.0, 9.1, 9.31, 9.5, 9.6, 8.2, 12.2: what is wrong with a normal move (None: nothing)."""
        self._entering_ip = self.state.phase_kind == MOVEMENT and rec.start != new and self.view.ip_over(p) is not None
        try:
            return self._normal_problem(p, unit, side, rec, new)
        finally:
            self._entering_ip = False

    def _normal_problem(self, p: Piece, unit: s.Unit | None, side: str, rec: MoveRecord, new: str) -> Problem | None:
        stages = self.allowance(unit, side, rec.supplied)
        allowance = stages[-1][0]
        some = allowance.numerator > 0  # a Fraction's sign (its denominator is positive): no Fraction compare
        if allowance.numerator == 0 and self.state.phase_kind == EXPLOITATION:
            what = unit.type if unit else "leader"
            why = f"{what} units do not move in the Exploitation Movement Phase of a Normal Offensive"
            return self.move_table["exploitation"]["rule"], why + self.state.reconstructed("unit-classes"), ()
        cls, start = self._unit_class(unit)[0], rec.start
        if some and self.game.geometry.adjacent(start, new) and self._may_step(p, unit, side, cls, start, new):
            return None  # 9.0: a unit may always move one hex (no search: it would find this step)
        zoc, blocked = self.zoc_move(p, unit, side), self._blocked(unit, side)
        if isinstance(self.supply.chart.entry_cost(new, cls), Blocked):
            return self._no_path(unit, cls, start, new, zoc, blocked)  # no search proves what the hex says
        units = self.supply.chart.units(cls)
        step = ZocMove(zoc.ezoc, zoc.negated, zoc.exempt, zoc.exempt_cost * self.supply.chart.scale,
                       zoc.forbidden).wrap(units) if zoc else units
        found = self._search(start, (cls, zoc), step, stop=zoc.stops() if zoc else (), blocked=blocked, goal=new)
        if new not in found:
            return self._no_path(unit, cls, start, new, zoc, blocked)
        if found.cost[new] <= allowance:
            return None
        return self._over_allowance(found.path(new), found.cost[new], stages, cls, zoc, blocked)

    def _over_allowance(self, path: list[str], cost: Fraction, stages, cls: str, zoc: ZocMove | None,
                        blocked) -> Problem:
        """The cheapest legal path costs too much: because of the enemy ZOC (9.31), or of the
        first stage of the allowance it exceeds (9.1 MA, 9.6 supply level, 9.5, 8.2)."""
        start, new, allowance = path[0], path[-1], stages[-1][0]
        limit = f"allowance {show_mp(allowance)} ({self._explain(stages)}){self.state.reconstructed('terrain-effects', 'unit-classes')}"
        if zoc is not None and not zoc.exempt:
            free = self._search(start, (cls,), self.supply.chart.units(cls), blocked=blocked, goal=new)
            if free.cost.get(new, cost) <= allowance:
                via = free.path(new)
                why = (f"the paths within the allowance enter enemy ZOC hexes where the unit must stop, or go from "
                       f"one into another (e.g. {'-'.join(via)}, {show_mp(free.cost[new])} MP); around them costs "
                       f"{show_mp(cost)} MP via {'-'.join(path)} > {limit}")
                return self.move_table["ezoc"]["rule"], why, tuple(via)
        rule = next(r for v, r, _ in stages if v < cost)
        extra = sum(1 for h in path[1:] if zoc is not None and zoc.exempt and h in zoc.live)
        surcharge = f" ({extra} enemy-ZOC hexes at +{show_mp(zoc.exempt_cost)} MP each, 9.31)" if extra else ""
        return rule, f"cost {show_mp(cost)} MP via {'-'.join(path)}{surcharge} > {limit}", tuple(path)

    def _search(self, start: str, what: tuple, step, *, stop=frozenset(), blocked=frozenset(), goal: str,
                allowance=None) -> Reach:
        """`search` on the chart's whole units (fast); the costs found are given back in MP.  Kept
        by all it depends on (`what` names the step callback: its class and ZOC, or its roads): a
        move refused is searched again by the next rule that asks, and the same move comes back."""
        key = (start, what, frozenset(stop), frozenset(blocked), goal, allowance)
        found = self._searched.get(key)
        if found is None:
            if len(self._searched) >= 64:
                del self._searched[next(iter(self._searched))]
            found = self._searched[key] = search(self.game.geometry.neighbours, start, step, stop=stop,
                                                 blocked=blocked, goal=goal, allowance=allowance,
                                                 scale=self.supply.chart.scale)
        return found

    def _blocked(self, unit: s.Unit | None, side: str) -> frozenset[str]:
        hexes = set(self.supply.unit_hexes(self.board.other_side[side]))
        if unit is None:
            hexes |= set(self._leader_bans(side))
        return frozenset(hexes)

    def _no_path(self, unit: s.Unit | None, cls: str, start: str, new: str, zoc: ZocMove | None, blocked) -> Problem:
        """Why no path exists: terrain (11.1, 11.2: for a one-hex move, the hexside it crossed), the
        enemy ZOC (9.31), or enemy units (9.0)."""
        plain, note = self.supply.chart.units(cls), self.state.reconstructed('terrain-effects', 'unit-classes')
        what = unit.type if unit else "leader"
        entry = self.supply.chart.entry_cost(new, cls)
        if isinstance(entry, Blocked):  # nothing of this class enters the hex: no path to search for
            return entry.rule, f"{new} is {entry.why} terrain: prohibited to {what} units{note}", ()
        # A one-hex move took the step it shows: a hexside that forbids it is the rule broken (11.2),
        # whatever a detour through enemy ZOC hexes would have met (issue 31).
        b = self.supply.chart.step(start, new, cls) if self.game.geometry.adjacent(start, new) else None
        if isinstance(b, Blocked) and b.why in self.supply.chart.hexside:
            return b.rule, f"{start} to {new} crosses an {b.why} hexside with no road or track: prohibited{note}", ()
        if zoc is not None:
            free = self._search(start, (cls,), plain, blocked=blocked, goal=new)
            if new in free:
                via = free.path(new)
                why = (f"every path from {start} to {new} enters an enemy ZOC hex where the unit must stop, or moves "
                       f"from one enemy ZOC hex into another (e.g. {'-'.join(via)}){note}")
                return self.move_table["ezoc"]["rule"], why, tuple(via)
        if new in self._search(start, (cls,), plain, goal=new):
            return "9.0", f"every path from {start} to {new} passes a hex holding enemy combat units", ()
        return "9.1", f"no path from {start} to {new} is open to {what} units{note}", ()

    # -- Strategic Movement (9.4) ---------------------------------------------------------------
    def strategic_allowance(self, unit: s.Unit | None, side: str) -> tuple[Fraction, str]:
        spec = self.move_table["strategic"]
        printed = Fraction(self.printed_ma(unit))
        ma, multiple, why = printed, spec["multiple"], f"{spec['multiple']} x MA {printed}"
        level = self._level_spec(unit, side)
        if level:
            name, lv = level
            multiple = lv.get("strategic", multiple)
            if lv.get("strategic_of") != "printed":
                ma = max(Fraction(0), printed + lv.get("ma", 0))
            why = f"{multiple} x {'printed ' if ma == printed else ''}MA {ma} at Supply {name}"
        return multiple * ma, why

    def _strategic_problem(self, p: Piece, unit: s.Unit | None, side: str, rec: MoveRecord, new: str,
                           whether: bool = False) -> Problem | None:
        """9.4's problem with the move (None: none); `whether`: only if it fits (a bounded search)."""
        spec = self.move_table["strategic"]
        rule, start, along = spec["rule"], rec.start, frozenset(spec["along"])
        ezoc = frozenset(self.supply.ezoc(side))
        if not rec.supplied:
            return rule, f"Strategic Movement: the unit must start supplied; it is unsupplied in {start}", ()
        if start in ezoc:
            return rule, f"Strategic Movement: the unit may not start in an enemy ZOC ({start})", ()
        if not self.supply.chart.on_feature.get(start, frozenset()) & along:
            return rule, f"Strategic Movement: the unit must start on a road or track hex; {start} has none", ()
        cls = self.class_spec(unit)["movement_class"]
        base = self.supply.chart.units(cls)

        def step(a: str, b: str) -> Fraction | None:
            return base(a, b) if self.supply.chart.features(a, b) & along else None
        blocked = ezoc | frozenset(self.supply.unit_hexes(self.board.other_side[side]))
        allowance, why = self.strategic_allowance(unit, side)
        bound = allowance * self.supply.chart.scale if whether else None
        found = self._search(start, (cls, along), step, blocked=blocked, goal=new, allowance=bound)
        if whether:
            return None if new in found else (rule, "", ())
        if new not in found:
            return rule, f"Strategic Movement: no road or track path from {start} to {new} clear of enemy ZOCs", ()
        cost, path = found.cost[new], found.path(new)
        if cost > allowance:
            message = (f"Strategic Movement: cost {show_mp(cost)} MP via {'-'.join(path)} > allowance "
                       f"{show_mp(allowance)} ({why}){self.state.reconstructed('terrain-effects')}")
            return rule, message, tuple(path)
        return None


class MovementRules(WdfRule):
    """9.0-9.7, 13.4: who moves in which phase, along which path, how far (the `Moves` tracker
    judges each move; this rule reports it)."""

    ids = ("2.0", "4.0", "8.2", "9.0", "9.1", "9.31", "9.4", "9.5", "9.6", "9.7", "11.1", "11.2", "12.2", "13.4")
    covers = ('8.1', '8.4', '9.3', '13.5')
    needs = WdfRule.needs + (Moves,)

    def start(self) -> None:
        super().start()
        self.moves = self.ctx.get(Moves)

    def moved(self, e: Moved) -> None:
        if self.moves.problem is not None:
            rule, message, p, old, new, path = self.moves.problem
            self.find(rule, message, p, old, new, path)
