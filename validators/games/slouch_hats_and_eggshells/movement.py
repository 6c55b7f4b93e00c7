"""Movement (8.1-8.4, 3.2, 3.55, 6.53, 9.2, 9.4-9.6): how far a unit moves, along which path,
by which mode (digest 10.1 ranks 3, 12 and 16).

A log shows where a move starts and ends, not its path: a move is legal when some legal path
joins them within the allowance (`kernel.movement.search`).  Costs come from
tables/terrain-effects.yaml (reconstructed: findings say so): the hex entered for the unit's
movement class (armor and armored cars enter mountain only along a road or trail, 8.35), or
the road rate when the hexside crossed carries a main road, minor road (1/2 MP) or trail (half
the hex's cost; +1/2 MP across a wadi, 8.37), ignoring other terrain (8.36); else plus ridge and
wadi hexsides (8.33); escarpment, swamp and lava hexsides and the sea are never crossed.

Zones of control (3.2, 8.2): every combat unit exerts one into the six hexes around it, but
not across a hexside or into a hex its own movement may not cross or enter (3.24), and not when
every unit of its hex has the No-ZOC band (3.22).  A mover stops on entering an enemy ZOC
(8.21) and never goes from one enemy-ZOC hex directly into another (8.22); friendly units do
not cancel an enemy ZOC (8.23).

Allowance: the printed MA (8.13); halved for a motorized unit without Movement Supply (3.55,
6.53); x 1.5 strategic (9.2); 5 Axis / 7 Allied by motor pool (9.57, tables/supply.yaml);
half in the Exploitation Movement phase (8.41).

Choices:
- 8.13: several drags of one unit in one phase are one move, measured from the hex it stood in
  when it first moved in the phase.
- 8.38: a unit's first hex of a phase is always allowed when the terrain and ZOC allow it.
- 6.53: a No Movement Supply marker lies in a hex; it halves a unit's MA only when the unit is
  the only motorized unit of its side there.
- 9.2: a move that fits only as strategic movement (motorized, road all the way, x 1.5, not
  beginning or ending next to an enemy combat unit) is taken as one, declared or not; a declared
  one that breaks 9.21 is reported.  Motor pool, rail movement and infiltration count only when
  declared (Motor pool, Rail movement, Infiltration).
- 8.42: armored cars, cavalry and reconnaissance units are not judged for exploitation
  eligibility (Events J make them eligible and are not always visible).
- 9.42: the rail's trace back to the north map edge is not checked.
- 9.33: a unit leaving the Middle East or Iraq Holding Box in a Movement phase is measured from
  the box's Entry hex that serves it best (tables/supply.yaml, reconstructed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from validators.games.slouch_hats_and_eggshells.state import PROHIBITED_SIDES
from validators.games.slouch_hats_and_eggshells.turns import TurnRules
from validators.kernel.movement import Blocked, mp, search, show_mp
from validators.replay.board import Piece
from validators.replay.replayer import Moved

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

EXPLOIT_FREE = ("armored-car", "cavalry", "recon")  # Events J (20.21J, 20.22J)


@dataclass
class MoveRecord:
    start: str
    modes: set[str] = field(default_factory=set)
    unsupplied: bool = False
    ends: list[str] = field(default_factory=list)  # where its earlier drags of the phase ended


class MovementRules(TurnRules):
    """Part of the Slouch Hats and Eggshells auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.fought: set[str] = set()  # pieces in a combat of the side's last Combat phase (combat.py fills it)
        self._moves: dict[str, MoveRecord] = {}
        self._modes: dict[str, set[str]] = {}
        self._memo: dict[tuple[str, str, str], Fraction | Blocked] = {}
        supply = self.tables.get("supply", {})
        self.motor_pool = supply.get("motor_pool", {})
        self.rail_capacity = int(supply.get("rail", {}).get("axis_capacity", 2))
        self._railed: dict[str, int] = {}
        self._msu_moved: dict[str, str] = {}  # MSU piece -> hex it moved to this phase (8.16)
        self._pooled: dict[str, int] = {}
        self.tec_note = self.reconstructed("terrain-effects")
        self.boxes = supply.get("holding_boxes", {})  # box -> side, entry hexes (9.32, reconstructed)

    def phase_started(self, kind: str, side: str | None) -> None:
        if kind in ("movement", "exploitation"):
            self._moves, self._modes, self._railed, self._pooled = {}, {}, {}, {}
        super().phase_started(kind, side)

    def phase_ended(self, kind: str, side: str | None) -> None:
        self._check_msus()
        super().phase_ended(kind, side)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        if role in ("strategic movement", "motor pool", "rail movement", "infiltration"):
            self._modes.setdefault(piece.id, set()).add(role)
        super().declared(role, piece, hex_id)

    # -- costs ----------------------------------------------------------------------------------
    def step_cost(self, a: str, b: str, cls: str) -> Fraction | Blocked:
        key = (a, b, cls)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._step(a, b, cls)
        return found

    def _base(self, hex_id: str, cls: str) -> Fraction | None:
        costs = self.tec["hex"].get(self.game.hex_terrain.get(hex_id, ""), {}).get("mp", {})
        return next((mp(costs[c]) for c in self._classes[cls] if c in costs), None)

    def _step(self, a: str, b: str, cls: str) -> Fraction | Blocked:
        terrain = self.game.hex_terrain.get(b, "")
        spec = self.tec["hex"].get(terrain, {})
        costs = spec.get("mp", {})
        if not costs:
            return Blocked("8.11", f"{terrain or 'off-map'} hex {b}")
        sides = self.features(a, b)
        road = self.road_between(a, b)
        if road is None:
            bad = next((f for f in PROHIBITED_SIDES if f in sides), None)
            if bad:
                return Blocked("8.34" if bad != "escarpment" else "8.33", f"{bad} hexside {a}/{b}")
        base = self._base(b, cls)
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
        return not isinstance(self.step_cost(a, b, self.move_class(u)), Blocked)

    # -- zones of control (3.2) --------------------------------------------------------------------
    def enemy_zoc(self, side: str) -> set[str]:
        enemy = self.other_side[side]
        out: set[str] = set()
        for h, ps in self.by_hex().items():
            holders = [self.unit_of(p) for p in ps if self.is_combat(p) and self.side_id(p) == enemy]
            if not holders or all(u.no_zoc for u in holders):
                continue
            for n in self.game.geometry.neighbours(h):
                if any(self.passable(u, h, n) for u in holders):
                    out.add(n)
        return out

    def adjacent_enemy(self, hex_id: str, side: str) -> bool:
        enemy = self.enemy_hexes(side)
        return any(n in enemy for n in self.game.geometry.neighbours(hex_id))

    # -- moves ----------------------------------------------------------------------------------------
    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        if self.marker_id(e.piece).startswith("msu-"):
            self._msu(e)
            return
        if e.old.label in self.boxes and e.new.label in self.game.geometry and self.unit_of(e.piece) \
                and self.phase_kind in ("movement", "exploitation") and self.side_id(e.piece) == self.active_side:
            self._from_box(e)
            return
        if not self.mover_checked(e):
            return
        p, u, side = e.piece, self.unit_of(e.piece), self.side_id(e.piece)
        rec = self._moves.get(p.id)
        if rec is None:
            rec = self._moves[p.id] = MoveRecord(e.old.label, set(self._modes.get(p.id, ())),
                                                 self._no_movement_supply(p, u, e.old.label, side))
        rec.modes |= self._modes.get(p.id, set())
        new = e.new.label
        ends, rec.ends = rec.ends, rec.ends + [new]
        if new == rec.start:
            return
        enemy = self.enemy_hexes(side)
        if new in enemy:
            self.find("8.15", f"{new} holds enemy combat units: no unit enters it", p, rec.start, new)
            return
        if "infiltration" not in rec.modes and "rail movement" not in rec.modes:
            zoc = self.enemy_zoc(side)
            stopped = next((h for h in ends if h != rec.start and h in zoc), None)
            if stopped:
                self.find("8.21", f"{p.name} entered the enemy ZOC in {stopped} earlier in the phase: it stopped there",
                          p, rec.start, new)
                return
        if self.phase_kind == "exploitation":
            self._exploitation(p, u, side, rec, new)
        elif "rail movement" in rec.modes:
            self._rail(p, u, side, rec, new)
        elif "infiltration" in rec.modes:
            self._infiltration(p, u, side, rec, new)
        else:
            self._normal(p, u, side, rec, new)

    def _msu(self, e: Moved) -> None:
        """8.16: a non-combat unit (an MSU moving itself, 6.13d) ends next to an enemy combat unit
        only in a hex holding a friendly combat unit (moved with it or joined there).  Choice: judged
        at the end of the phase, so that units dragged after the MSU count as moving with it."""
        geo, new, side = self.game.geometry, e.new.label, self.air_side(e.piece)
        if (e.old.label not in geo or new not in geo or e.old.label == new or side != self.active_side
                or self.phase_kind not in ("movement", "exploitation")):
            return
        self._msu_moved[e.piece.id] = new  # judged when the phase ends (its units may follow it)

    def _check_msus(self) -> None:
        for pid, h in sorted(self._msu_moved.items()):
            p = self.replayer.board.pieces.get(pid)
            side = self.air_side(p) if p is not None else None
            if p is None or self.hex_of(p) != h or side is None:
                continue
            if self.adjacent_enemy(h, side) and not self.combat_units(h, side):
                self.find("8.16", f"{p.name} ended its move next to an enemy combat unit with no friendly combat unit "
                          f"in {h}", p, None, h, side=self.side_names.get(side))
        self._msu_moved = {}

    def _from_box(self, e: Moved) -> None:
        """9.33b: from a holding box a unit enters the map at one of the box's Entry hexes (no MP),
        not one an enemy combat unit holds, and moves on from there.  The Greece box is not
        judged: its units enter by transport or, after Axis Event E, at 1200 or 1302 (9.34)."""
        p, u, side, box, new = e.piece, self.unit_of(e.piece), self.side_id(e.piece), e.old.label, e.new.label
        spec = self.boxes[box]
        if spec.get("side") != side or p.id in self._moves or box.startswith("Greece"):
            return
        enemy = self.enemy_hexes(side)
        entries = [h for h in spec.get("entry", ()) if h in self.game.geometry and h not in enemy]
        zoc = self.enemy_zoc(side)
        best = None
        for h in entries:
            found = self._search(u, side, h, new, zoc=zoc) if h != new else None
            cost = 0 if h == new else found.cost.get(new) if found is not None else None
            if cost is not None and (best is None or cost < best[0]):
                best = (cost, h)
        if best is None:
            self.find("9.33", f"{p.name} enters the map from the {box} at one of its Entry hexes "
                      f"({', '.join(spec.get('entry', ()))}, none held by the enemy); none leads to {new}"
                      f"{self.reconstructed('supply')}", p, box, new)
            return
        rec = self._moves[p.id] = MoveRecord(best[1], set(self._modes.get(p.id, ())))
        rec.ends.append(new)
        if new != best[1]:
            self._normal(p, u, side, rec, new)

    def _no_movement_supply(self, p: Piece, u: s.Unit, hex_id: str, side: str) -> bool:
        """6.53, see Choices: the hex's No Movement Supply marker is this unit's."""
        if not u.motorized or not any(self.marker_id(q) == "no-move-supply" for q in self.stood_in(hex_id)):
            return False
        motorized = [q for q in self.stood_in(hex_id) if (v := self.unit_of(q)) and v.motorized and self.side_id(q) == side]
        return [q.id for q in motorized] == [p.id]

    def _allowance(self, u: s.Unit, side: str, rec: MoveRecord) -> tuple[Fraction, str]:
        if "motor pool" in rec.modes and not u.motorized:
            ma = Fraction(int(self.motor_pool.get(side, {}).get("ma", u.ma)))
            why = f"motor pool MA {ma} (9.57)"
        else:
            ma, why = Fraction(u.ma), f"MA {u.ma}"
        if rec.unsupplied:
            ma, why = ma / 2, why + ", halved without Movement Supply (6.53)"
        if self.phase_kind == "exploitation":
            ma, why = ma / 2, why + ", halved in exploitation (8.41)"
        return ma, why

    def _search(self, u: s.Unit, side: str, start: str, new: str, *, zoc: set[str] | None = None,
                roads_only: bool = False):
        cls = self.move_class(u)
        enemy = frozenset(self.enemy_hexes(side))
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

    def _normal(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        if "motor pool" in rec.modes:
            if u.motorized:
                self.find("9.54", f"{p.name} is motorized: the motor pool carries non-motorized units only", p, rec.start, new)
            else:
                self._count(self._pooled, p, u, "motor pool", int(self.motor_pool.get(side, {}).get("capacity", 99)),
                            "9.56", rec, new, self.reconstructed("supply"))
        zoc = self.enemy_zoc(side)
        found = self._search(u, side, rec.start, new, zoc=zoc)
        if new not in found:
            self._no_path(p, u, side, rec, new, zoc)
            return
        cost, path = found.cost[new], found.path(new)
        allowance, why = self._allowance(u, side, rec)
        if "strategic movement" in rec.modes:
            strategic = self._strategic_problem(p, u, side, rec, new, zoc)
            if strategic:
                self.find("9.21", strategic, p, rec.start, new)
            return
        if cost <= allowance:
            return
        if self.phase_kind == "movement" and self.game.geometry.adjacent(rec.start, new):
            return  # 8.38: one hex is always allowed
        if self._strategic_problem(p, u, side, rec, new, zoc) is None:
            return  # only strategic movement fits (see Choices)
        self.find("8.13", f"cost {show_mp(cost)} MP via {'-'.join(path)} > {why}{self.tec_note}", p, rec.start, new,
                  path=path)

    def _no_path(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str, zoc: set[str]) -> None:
        free = self._search(u, side, rec.start, new)
        geo = self.game.geometry
        if new in free:
            if rec.start in zoc and new in zoc and geo.adjacent(rec.start, new):
                self.find("8.22", f"{rec.start} to {new} goes from one enemy-ZOC hex directly into another", p,
                          rec.start, new)
            else:
                self.find("8.21", f"no path from {rec.start} to {new} that does not go on after entering an enemy "
                          "ZOC: a unit stops on entering one", p, rec.start, new)
            return
        if geo.adjacent(rec.start, new):
            c = self.step_cost(rec.start, new, self.move_class(u))
            if isinstance(c, Blocked):
                self.find(c.rule, f"{p.name} may not cross into {c.why}{self.tec_note}", p, rec.start, new)
                return
        self.find("8.11", f"no path of enterable hexes leads from {rec.start} to {new}{self.tec_note}", p, rec.start, new)

    def _strategic_problem(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str,
                           zoc: set[str]) -> str | None:
        """Why this move is not a legal strategic move (9.21), None when it is one."""
        if self.phase_kind != "movement":
            return "strategic movement is made in the Movement phase only (9.21)"
        if not u.motorized and "motor pool" not in rec.modes:
            return f"{p.name} is not motorized (9.21, 9.22: non-motorized units only by motor pool)"
        if rec.unsupplied:
            return f"{p.name} has no Movement Supply (6.53)"
        for where, h in (("begins", rec.start), ("ends", new)):
            if self.adjacent_enemy(h, side):
                return f"{p.name} {where} its strategic move in {h}, next to an enemy combat unit (9.21)"
        found = self._search(u, side, rec.start, new, zoc=zoc, roads_only=True)
        if new not in found:
            return f"no path from {rec.start} to {new} along main road, minor road or trail only (9.21)"
        allowance = self._allowance(u, side, rec)[0] * Fraction(3, 2)
        if found.cost[new] > allowance:
            return (f"cost {show_mp(found.cost[new])} MP by road via {'-'.join(found.path(new))} > 1.5 x the MA, "
                    f"{show_mp(allowance)} (9.21){self.tec_note}")
        return None

    def _count(self, used: dict[str, int], p: Piece, u: s.Unit, what: str, cap: int, rule: str, rec: MoveRecord,
               new: str, note: str = "") -> None:
        used[p.id] = u.stacking or 0
        total = sum(used.values())
        if total > cap:
            self.find(rule, f"{what} carries {total} stacking points this phase, more than its capacity of {cap}{note}",
                      p, rec.start, new)

    # -- exploitation (8.4) -----------------------------------------------------------------------
    def _exploitation(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        if rec.modes & {"motor pool", "infiltration", "strategic movement", "rail movement"}:
            mode = sorted(rec.modes)[0]
            rule = {"motor pool": "9.51", "infiltration": "9.61", "strategic movement": "9.21", "rail movement": "9.42"}[mode]
            self.find(rule, f"{mode} is used in the Movement phase, not in the {self.phase}", p, rec.start, new)
            return
        if u.type not in EXPLOIT_FREE:
            if not u.motorized:
                self.find("8.42", f"{p.name} is not motorized: only motorized units exploit", p, rec.start, new)
                return
            if p.id not in self.fought:
                self.find("8.42", f"{p.name} took no part in a combat of the preceding Combat phase: it may not "
                          "exploit", p, rec.start, new)
                return
            if rec.unsupplied:
                self.find("8.42", f"{p.name} has no Movement Supply: it may not exploit", p, rec.start, new)
                return
        zoc = self.enemy_zoc(side)
        found = self._search(u, side, rec.start, new, zoc=zoc)
        if new not in found:
            self._no_path(p, u, side, rec, new, zoc)
            return
        allowance, why = self._allowance(u, side, rec)
        if u.type in EXPLOIT_FREE:
            allowance = max(allowance, Fraction(u.ma))  # Events J: full MA
        cost = found.cost[new]
        if cost > allowance:
            path = found.path(new)
            self.find("8.41", f"cost {show_mp(cost)} MP via {'-'.join(path)} > {why}: {show_mp(allowance)}"
                      f"{self.tec_note}", p, rec.start, new, path=path)

    # -- rail (9.4) and infiltration (9.6) -------------------------------------------------------------
    def _rail(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        if side != "axis":
            self.find("9.4", "rail movement is for the Axis only", p, rec.start, new)
            return
        self._count(self._railed, p, u, "the railroad", self.rail_capacity, "9.41", rec, new)
        zoc = self.enemy_zoc(side)
        if not self.on_line(rec.start, "railroad"):
            self.find("9.42", f"{rec.start} is not a rail hex: a unit moving by rail begins the phase on one", p,
                      rec.start, new)
            return
        if rec.start in zoc or new in zoc:
            self.find("9.42", "a unit moving by rail may not leave or enter an enemy ZOC", p, rec.start, new)
            return
        enemy = self.enemy_hexes(side)
        found = search(self.game.geometry.neighbours, rec.start,
                       lambda a, b: Fraction(0) if "railroad" in self.features(a, b) else None,
                       blocked=frozenset(zoc | enemy), goal=new)
        if new not in found:
            self.find("9.42", f"no active rail line joins {rec.start} and {new} (none in an enemy ZOC or enemy hex, 9.43)",
                      p, rec.start, new)

    def _infiltration(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        nation = self.game.formations[u.formation].nationality
        eligible = (u.type in ("armored-car", "recon", "commando") or (u.type == "armor" and nation != "vichy")
                    or (nation == "australian" and u.type != "artillery") or (nation == "indian" and u.mountain))
        if not eligible:
            self.find("9.62", f"{p.name} may not infiltrate (9.62 lists armor but Vichy, armored cars, reconnaissance, "
                      "commandos, Australian non-artillery units and the two Indian mountain units)", p, rec.start, new)
            return
        zoc = self.enemy_zoc(side)
        geo = self.game.geometry
        if rec.start not in zoc or not geo.adjacent(rec.start, new) or new not in zoc or any(self.unit_of(q) for q in self.stood_in(new)) \
                or not self.passable(u, rec.start, new):
            self.find("9.61", "infiltration: from an enemy-ZOC hex into one adjacent, unoccupied hex in enemy ZOC "
                      "the unit may enter, and stop", p, rec.start, new)
