"""Movement (8.1-8.4, 3.2, 3.55, 6.53, 9.2, 9.4-9.6): how far a unit moves, along which path,
by which mode (digest 10.1 ranks 3, 12 and 16).

A log shows where a move starts and ends, not its path: a move is legal when some legal path
joins them within the allowance (`kernel.movement.search`), at the costs and through the zones
of control of units.py (the reconstructed TEC: findings say so).  A mover stops on entering an
enemy ZOC (8.21) and never goes from one enemy-ZOC hex directly into another (8.22).

Allowance: the printed MA (8.13); halved for a motorized unit without Movement Supply (3.55,
6.53); x 1.5 strategic (9.2); 5 Axis / 7 Allied by motor pool (9.57, tables/supply.yaml);
half in the Exploitation Movement phase (8.41).

Choices:
- 8.13: several drags of one unit in one phase are one move, measured from the hex it stood in
  when it first moved in the phase.
- 8.38: a unit's first hex of a phase is always allowed when the terrain and ZOC allow it.
- 6.53: a No Movement Supply marker lies in a hex; it halves a unit's MA only when the unit is
  the only motorized unit of its side there.
- 8.16: every hex an MSU or Supply Dump (carried, 6.13d) enters next to an enemy combat unit is judged, not only where it ends
  (issue 31): when the phase ends, so that a combat unit dragged after it into that hex counts as
  moving with it, and reported at the MSU's move; a friendly combat unit already there is joined.
- 9.2: a move that fits only as strategic movement (motorized, road all the way, x 1.5, not
  beginning or ending next to an enemy combat unit) is taken as one, declared or not; a declared
  one that breaks 9.21 is reported.  Motor pool, rail movement and infiltration count only when
  declared (Motor pool, Rail movement, Infiltration).
- 8.42, 20.21J, 20.22J: when the side played its Event J (Cavalry Raid) in the Segment, its
  cavalry and armored cars (and, Allied, reconnaissance units) exploit at full MA with no other
  condition ("become additional unit types eligible ... regardless of supply status": whether
  they must have fought is not said, so it is not asked); without it they are judged as any unit
  (cavalry is not motorized; an armored car or recon unit that fought, with Movement Supply, may).
- 9.41, 9.42: the rail's north map edge is the map's exit hex on the railroad (map.yaml, 1200 "Rail
  from Turkey", 9.34); the start of a rail move traces to it along active rail (every hex of the
  move is then on that line too).
- 9.33: a unit leaving the Middle East or Iraq Holding Box in a Movement phase is measured from
  the box's Entry hex that serves it best (tables/supply.yaml, reconstructed); one entering a box
  from the map does so in its Movement phase, once, reaching one of the box's Entry hexes with 1 MP
  left, and stays there for the Segment.  The Greece box has land Entry hexes (1200, 1302) only
  once Axis Event E was played (9.34; judged in a log from the scenario's first turn).
"""
from __future__ import annotations

from fractions import Fraction
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

from validators.games.slouch_hats_and_eggshells.combat import Combats
from validators.games.slouch_hats_and_eggshells.events import EventMarkers
from validators.games.slouch_hats_and_eggshells.state import MODES
from validators.games.slouch_hats_and_eggshells.units import Forces, MoveCosts
from validators.kernel.declarations import Declared
from validators.kernel.movement import Blocked, search, show_mp
from validators.kernel.rule import Rule
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Moved

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

RAIDERS = {"allied": ("armored-car", "cavalry", "recon"), "axis": ("armored-car", "cavalry")}  # Events J (20.21J, 20.22J)
LANDING = 2  # 10.63: MP to land from a sea hex
MOVING = ("movement", "exploitation")
SUPPLY_UNITS = ("msu-", "dump-", "large-dump-")  # non-combat units (6.13b): an MSU moves itself, a Dump by motor pool or rail  # the phase kinds in which the phasing side's units move
MODE_RULE = {"motor pool": "9.51", "infiltration": "9.61", "strategic movement": "9.21", "rail movement": "9.42"}


class MoveRecord(Record):
    """A unit's move in the phase: where it began, the modes it declared, whether it lacked supply."""

    __slots__ = ("start", "modes", "unsupplied", "ends")

    def __init__(self, start: str, modes: set[str] | None = None, unsupplied: bool = False,
                 ends: list[str] | None = None):
        self.start, self.unsupplied = start, unsupplied
        self.modes = set() if modes is None else modes
        self.ends = [] if ends is None else ends  # where its earlier drags of the phase ended


class Movement(Rule):
    """8.1-8.4, 9.2-9.6: a unit's moves of a phase cost at most its allowance along a legal path
    (terrain, enemy hexes and zones of control), by the mode it declared; exploitation by eligible
    units at half the MA; units leave a holding box by its Entry hexes; a non-combat unit (an MSU
    moving itself, 6.13d) ends next to an enemy combat unit only with a friendly one (8.16)."""

    ids = ("8.11", "8.13", "8.15", "8.16", "8.21", "8.22", "8.33", "8.34", "8.35", "8.41", "8.42", "9.21", "9.33", "10.63",
           "9.4", "9.42", "9.41", "9.51", "9.54", "9.56", "9.61", "9.62")
    covers = ("3.22", "3.24", "6.5", "6.53", "8.31", "8.36", "8.37", "8.4", "9.57")
    needs = (Forces, MoveCosts, Combats, EventMarkers)

    def start(self) -> None:
        self.forces, self.costs, self.combats = self.ctx.get(Forces), self.ctx.get(MoveCosts), self.ctx.get(Combats)
        self.events = self.ctx.get(EventMarkers)
        self._moves: dict[str, MoveRecord] = {}
        self._modes: dict[str, set[str]] = {}
        supply = self.tables.get("supply", {})
        self.motor_pool = supply.get("motor_pool", {})
        self.rail_capacity = int(supply.get("rail", {}).get("axis_capacity", 2))
        self.rail_edge = next((pl.hex for pl in self.game.map.places if pl.exit and pl.hex in self.game.geometry
                               and any("railroad" in self.costs.chart.features(pl.hex, n)
                                       for n in self.game.geometry.neighbours(pl.hex))), None)  # 9.34: 1200
        self._railed: dict[str, int] = {}
        self._pooled: dict[str, int] = {}
        self.tec_note = self.state.reconstructed("terrain-effects")
        self.boxes = supply.get("holding_boxes", {})  # box -> side, entry hexes (9.32, reconstructed)
        self._crossed: set[str] = set()  # pieces that entered a holding box this phase (9.33a)
        self._began: int | None = None  # the turn of the log's first phase
        self._boxed: dict[str, tuple] = {}  # piece -> (turn, Segment) it entered a holding box
        self._msu_entries: list[tuple] = []  # (MSU piece, hex next to the enemy it entered alone, step, side): 8.16
        self._cu_entered: dict[tuple[str, str], list[int]] = {}  # (side, hex) -> steps a combat unit entered it

    def phase_started(self, pid: str) -> None:
        if self._began is None:
            self._began = self.state.turn
        if self.state.phase_kind in MOVING:
            self._moves, self._modes, self._railed, self._pooled = {}, {}, {}, {}
            self._crossed = set()

    def phase_ended(self, pid: str) -> None:
        """8.16: an MSU enters a hex next to an enemy combat unit only joining a friendly combat unit
        there, or with one that moves into it in the same phase."""
        board = self.board
        for p, h, step, side in self._msu_entries:
            if not any(later >= step for later in self._cu_entered.get((side, h), ())):
                self.find("8.16", f"{p.name} moved next to an enemy combat unit in {h} with no friendly combat unit "
                          "moving with it or there to join", p, None, h, side=board.side_names.get(side), at=step)
        self._msu_entries, self._cu_entered = [], {}

    def declared(self, d: Declared) -> None:
        mode = MODES.get(d.name)
        if mode is not None:
            self._modes.setdefault(d.piece.id, set()).add(mode)

    def moved(self, e: Moved) -> None:
        st, board = self.state, self.board
        p, old, new = e.piece, e.old.label, e.new.label
        if old == new or st.phase_kind not in MOVING:
            return
        forces = self.forces
        if forces.marker_id(p).startswith(SUPPLY_UNITS):  # 8.16, judged when the phase ends (Choices)
            side = forces.air_side(p)
            if (board.on_map(old) and board.on_map(new) and side == st.phase_side
                    and forces.adjacent_enemy(new, side) and not forces.combat_units(new, side)):
                self._msu_entries.append((p, new, st.step, side))
            return
        if self._msu_entries and forces.combat_unit(p) is not None and board.on_map(new):  # 8.16: with an MSU
            self._cu_entered.setdefault((board.side_id(p), new), []).append(st.step)
        u = board.unit_of(p)
        side = board.side_id(p)
        if u is None or side != st.phase_side:
            return
        if new in self.boxes and board.on_map(old):
            self._into_box(e, u, side)
            return
        if not board.on_map(new):
            return
        if old in self.boxes:
            self._from_box(e)
            return
        if not board.on_map(old):
            return
        if (rec := self._moves.get(p.id)) is None:
            rec = self._moves[p.id] = MoveRecord(old, unsupplied=self._no_movement_supply(p, u, old, side))
        rec.modes |= self._modes.get(p.id, set())
        rec.ends.append(new)
        if new == rec.start:
            return
        if new in self.forces.enemy_hexes(side):
            self.find("8.15", f"{new} holds enemy combat units: no unit enters it", p, rec.start, new)
            return
        if "infiltration" not in rec.modes and "rail movement" not in rec.modes:
            zoc = self.costs.enemy_zoc(side)
            stopped = next((h for h in rec.ends[:-1] if h != rec.start and h in zoc), None)  # earlier drags
            if stopped:
                self.find("8.21", f"{p.name} entered the enemy ZOC in {stopped} earlier in the phase: it stopped there",
                          p, rec.start, new)
                return
        if self.game.hex_terrain.get(rec.start) == "sea" and rec.modes & {"rail movement", "motor pool"}:
            self.find("10.63", f"{p.name} lands from the sea: a raiding commando uses no rail movement or motor pool",
                      p, rec.start, new)
            return
        if st.phase_kind == "exploitation":
            self._exploitation(p, u, side, rec, new)
        elif "rail movement" in rec.modes:
            self._rail(p, u, side, rec, new)
        elif "infiltration" in rec.modes:
            self._infiltration(p, u, side, rec, new)
        else:
            self._normal(p, u, side, rec, new)

    def _into_box(self, e: Moved, u: s.Unit, side: str) -> None:
        """9.33a: a unit enters a holding box in its Movement phase from one of the box's Entry hexes,
        spending 1 MP there, once a phase; it then stays in the box for the rest of the Segment."""
        p, box, st = e.piece, e.new.label, self.state
        if st.phase_kind != "movement":
            self.find("9.33", f"{p.name} enters the {box} in the {st.phase}: a unit enters a holding box in its "
                      "Movement phase (or retreating)", p, e.old.label, box)
            return
        if p.id in self._crossed:
            self.find("9.33", f"{p.name} enters the {box} a second time in the {st.phase}: once a phase", p,
                      e.old.label, box)
            return
        self._crossed.add(p.id)
        self._boxed[p.id] = (st.turn, st.segment)
        rec = self._moves.get(p.id) or MoveRecord(e.old.label, unsupplied=self._no_movement_supply(p, u, e.old.label, side))
        rec.modes |= self._modes.get(p.id, set())
        entries = [h for h in self.boxes[box].get("entry", ()) if self.board.on_map(h)]
        allowance, why = self._allowance(u, side, rec)
        zoc = self.costs.enemy_zoc(side)
        costs = [Fraction(0) if h == rec.start else self.costs.search(u, side, rec.start, h, zoc=zoc).cost.get(h)
                 for h in entries]
        best = min((c for c in costs if c is not None), default=None)
        if best is None or best + 1 > allowance:
            got = "no Entry hex is reachable" if best is None else f"the nearest Entry hex costs {show_mp(best)} MP"
            self.find("9.33", f"{p.name} enters the {box} from {rec.start}: {got}, and entering the box 1 MP more, "
                      f"within {why}{self.tec_note}{self.state.reconstructed('supply')}", p, rec.start, box)

    def _from_box(self, e: Moved) -> None:
        """9.33b: from a holding box a unit enters the map at one of the box's Entry hexes (no MP),
        not one an enemy combat unit holds, and moves on from there; the Greece box's (1200, 1302)
        only after Axis Event E (9.34), else its units come by transport."""
        board = self.board
        p, u, side, box, new = e.piece, board.unit_of(e.piece), board.side_id(e.piece), e.old.label, e.new.label
        spec = self.boxes[box]
        if self._boxed.get(p.id) == (self.state.turn, self.state.segment):
            self.find("9.33", f"{p.name} entered the {box} this Segment: it stays there for the rest of the Segment",
                      p, box, e.new.label)
            return
        if spec.get("side") != side or p.id in self._moves:
            return
        if box.startswith("Greece") and not self.events.played(self.board.side_names["axis"], "E", ever=True):
            if self._began == self.state.span["first"]:  # else the play may be before the log
                self.find("9.33", f"{p.name} enters the map from the {box} by land: its Entry hexes open only with "
                          "Axis Event E (9.34); none was played", p, box, e.new.label)
            return
        enemy = self.forces.enemy_hexes(side)
        entries = [h for h in spec.get("entry", ()) if board.on_map(h) and h not in enemy]
        zoc = self.costs.enemy_zoc(side)
        costs = [(0 if h == new else self.costs.search(u, side, h, new, zoc=zoc).cost.get(new), h) for h in entries]
        best = min((x for x in costs if x[0] is not None), key=lambda x: x[0], default=None)  # the first cheapest
        if best is None:
            self.find("9.33", f"{p.name} enters the map from the {box} at one of its Entry hexes "
                      f"({', '.join(spec.get('entry', ()))}, none held by the enemy); none leads to {new}"
                      f"{self.state.reconstructed('supply')}", p, box, new)
            return
        rec = self._moves[p.id] = MoveRecord(best[1], set(self._modes.get(p.id, ())))
        rec.ends.append(new)
        if new != best[1]:
            self._normal(p, u, side, rec, new)

    def _no_movement_supply(self, p: Piece, u: s.Unit, hex_id: str, side: str) -> bool:
        """6.53, see Choices: the hex's No Movement Supply marker is this unit's."""
        if not u.motorized or not any(self.forces.marker_id(q) == "no-move-supply" for q in self.board.stood_in(hex_id)):
            return False
        motorized = [q for q in self.board.stood_in(hex_id) if (v := self.board.unit_of(q)) and v.motorized and self.board.side_id(q) == side]
        return [q.id for q in motorized] == [p.id]

    def _allowance(self, u: s.Unit, side: str, rec: MoveRecord) -> tuple[Fraction, str]:
        if "motor pool" in rec.modes and not u.motorized:
            ma = Fraction(int(self.motor_pool.get(side, {}).get("ma", u.ma)))
            why = f"motor pool MA {ma} (9.57)"
        else:
            ma, why = Fraction(u.ma), f"MA {u.ma}"
        if rec.unsupplied:
            ma, why = ma / 2, why + ", halved without Movement Supply (6.53)"
        if self.game.hex_terrain.get(rec.start) == "sea":
            ma, why = ma - LANDING, why + f", less {LANDING} to land (10.63)"
        if self.state.phase_kind == "exploitation":
            ma, why = ma / 2, why + ", halved in exploitation (8.41)"
        return ma, why

    def _normal(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        if "motor pool" in rec.modes:
            if u.motorized:
                self.find("9.54", f"{p.name} is motorized: the motor pool carries non-motorized units only", p, rec.start, new)
            else:
                self._count(self._pooled, p, u, "motor pool", int(self.motor_pool.get(side, {}).get("capacity", 99)),
                            "9.56", rec, new, self.state.reconstructed("supply"))
        zoc = self.costs.enemy_zoc(side)
        allowance, why = self._allowance(u, side, rec)
        strategic = "strategic movement" in rec.modes
        if not (fits := self.costs.fits(u, side, rec.start, new, zoc, None if strategic else allowance)):
            found = self.costs.search(u, side, rec.start, new, zoc=zoc)
            if new not in found:
                self._no_path(p, u, side, rec, new, zoc)
                return
        if strategic:
            if problem := self._strategic_problem(p, u, side, rec, new, zoc):
                self.find("9.21", problem, p, rec.start, new)
            return
        if fits:
            return  # the cheapest path is looked for only when none fits
        cost, path = found.cost[new], found.path(new)
        if self.state.phase_kind == "movement" and self.game.geometry.adjacent(rec.start, new):
            return  # 8.38: one hex is always allowed
        if self._strategic_problem(p, u, side, rec, new, zoc) is None:
            return  # only strategic movement fits (see Choices)
        self.find("8.13", f"cost {show_mp(cost)} MP via {'-'.join(path)} > {why}{self.tec_note}", p, rec.start, new,
                  path=path)

    def _no_path(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str, zoc: frozenset[str]) -> None:
        free = self.costs.search(u, side, rec.start, new)
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
            c = self.costs.step_cost(rec.start, new, self.forces.move_class(u))
            if isinstance(c, Blocked):
                self.find(c.rule, f"{p.name} may not cross into {c.why}{self.tec_note}", p, rec.start, new)
                return
        self.find("8.11", f"no path of enterable hexes leads from {rec.start} to {new}{self.tec_note}", p, rec.start, new)

    def _strategic_problem(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str,
                           zoc: frozenset[str]) -> str | None:
        """Why this move is not a legal strategic move (9.21), None when it is one."""
        if self.state.phase_kind != "movement":
            return "strategic movement is made in the Movement phase only (9.21)"
        if not u.motorized and "motor pool" not in rec.modes:
            return f"{p.name} is not motorized (9.21, 9.22: non-motorized units only by motor pool)"
        if rec.unsupplied:
            return f"{p.name} has no Movement Supply (6.53)"
        for where, h in (("begins", rec.start), ("ends", new)):
            if self.forces.adjacent_enemy(h, side):
                return f"{p.name} {where} its strategic move in {h}, next to an enemy combat unit (9.21)"
        found = self.costs.search(u, side, rec.start, new, zoc=zoc, roads_only=True)
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

    def _exploitation(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        if rec.modes & {"motor pool", "infiltration", "strategic movement", "rail movement"}:
            mode = sorted(rec.modes)[0]
            self.find(MODE_RULE[mode], f"{mode} is used in the Movement phase, not in the {self.state.phase}", p, rec.start, new)
            return
        raider = u.type in RAIDERS.get(side, ())
        raid = raider and self.events.played(self.board.side_names[side], "J")
        why = (None if raid else "is not motorized: only motorized units exploit" if not u.motorized
               else "took no part in a combat of the preceding Combat phase: it may not exploit"
               if p.id not in self.combats.fought else "has no Movement Supply: it may not exploit" if rec.unsupplied
               else None)
        if why:
            self.find("8.42", f"{p.name} {why}" + (" (without its side's Event J, Cavalry Raid, this Segment)"
                                                    if raider else ""), p, rec.start, new)
            return
        zoc = self.costs.enemy_zoc(side)
        allowance, why = self._allowance(u, side, rec)
        if raid:
            allowance, why = Fraction(u.ma), f"MA {u.ma}, full by Event J"  # regardless of supply
        if self.costs.fits(u, side, rec.start, new, zoc, allowance):
            return
        found = self.costs.search(u, side, rec.start, new, zoc=zoc)
        if new not in found:
            self._no_path(p, u, side, rec, new, zoc)
            return
        cost = found.cost[new]
        if cost > allowance:
            path = found.path(new)
            self.find("8.41", f"cost {show_mp(cost)} MP via {'-'.join(path)} > {why}: {show_mp(allowance)}"
                      f"{self.tec_note}", p, rec.start, new, path=path)

    def _rail(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        if side != "axis":
            self.find("9.4", "rail movement is for the Axis only", p, rec.start, new)
            return
        self._count(self._railed, p, u, "the railroad", self.rail_capacity, "9.41", rec, new)
        zoc = self.costs.enemy_zoc(side)
        if "railroad" not in self.costs.chart.on_feature.get(rec.start, ()):
            self.find("9.42", f"{rec.start} is not a rail hex: a unit moving by rail begins the phase on one", p,
                      rec.start, new)
            return
        if rec.start in zoc or new in zoc:
            self.find("9.42", "a unit moving by rail may not leave or enter an enemy ZOC", p, rec.start, new)
            return
        enemy = self.forces.enemy_hexes(side)
        found = search(self.game.geometry.neighbours, rec.start,
                       lambda a, b: Fraction(0) if "railroad" in self.costs.chart.features(a, b) else None,
                       blocked=frozenset(zoc | enemy), goal=new)
        if new not in found:
            self.find("9.42", f"no active rail line joins {rec.start} and {new} (none in an enemy ZOC or enemy hex, 9.43)",
                      p, rec.start, new)
        elif self.rail_edge and rec.start not in self._rail_to_edge(side):
            self.find("9.42", f"no active rail leads from {rec.start} back to the north edge of the map ({self.rail_edge}, "
                      "9.41): a unit moves by rail only along such a line", p, rec.start, new)

    def _rail_to_edge(self, side: str) -> frozenset[str]:
        """9.41, 9.43: the hexes joined to the rail's north map edge hex by active rail (none in an
        enemy ZOC or enemy hex), worked out again only when the enemy's units change."""
        def make() -> frozenset[str]:
            blocked = frozenset(self.costs.enemy_zoc(side) | self.forces.enemy_hexes(side))
            if self.rail_edge in blocked:
                return frozenset()
            found = search(self.game.geometry.neighbours, self.rail_edge,
                           lambda a, b: Fraction(0) if "railroad" in self.costs.chart.features(a, b) else None,
                           blocked=blocked)
            return frozenset(found.cost)
        return self.forces.of_enemy("rail to the north edge", side, make)

    def _infiltration(self, p: Piece, u: s.Unit, side: str, rec: MoveRecord, new: str) -> None:
        nation = self.game.formations[u.formation].nationality
        eligible = (u.type in ("armored-car", "recon", "commando") or (u.type == "armor" and nation != "vichy")
                    or (nation == "australian" and u.type != "artillery") or (nation == "indian" and u.mountain))
        if not eligible:
            self.find("9.62", f"{p.name} may not infiltrate (9.62 lists armor but Vichy, armored cars, reconnaissance, "
                      "commandos, Australian non-artillery units and the two Indian mountain units)", p, rec.start, new)
            return
        zoc, geo = self.costs.enemy_zoc(side), self.game.geometry
        if rec.start not in zoc or not geo.adjacent(rec.start, new) or new not in zoc or any(self.board.unit_of(q) for q in self.board.stood_in(new)) \
                or not self.costs.passable(u, rec.start, new):
            self.find("9.61", "infiltration: from an enemy-ZOC hex into one adjacent, unoccupied hex in enemy ZOC "
                      "the unit may enter, and stop", p, rec.start, new)

