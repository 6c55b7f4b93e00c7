"""Reserves, reinforcements and the scenarios' movement limits (11.2g, 11.2i-k, 11.3, 11.4i, 11.5b,
11.5i, 11.5l): digest 10.1 rank 18.

Data: tables/scenario-rules.yaml (each scenario's `reserves` with `release_when`, `restrictions`,
`area_from_column`; a scenario `same_as` another takes its rules but those named in `without`),
the scenario card's `reinforcements`, tables/minefields.yaml (the Tobrouk Fortified Camp's hexes)
and the map's minefield runs (the Gazala line).

- Reserves: a unit of a reserve group does not move, nor enter the map, until its group is
  released (11.2j-k, 11.3b, 11.4i, 11.5i, 11.5l); released groups stay released.  A reserve or a
  reinforcement enters the map in its own side's maneuver (11.4i "during a maneuver phase").
- 11.2g: the Littorio reinforcements appear from turn 4 at 2402; 11.5l: the 4th Indian brigades
  enter through 1030.  The entry hex must be that hex or one the unit can reach from it with the
  maneuver's MP (Movement Costs Table, reconstructed: findings say so).
- 11.2i: XIII Corps units (those the XIII Corps HQ commands, and the HQ) do not move west of the
  Gazala line until the I/V marker has reached 2C.
- 11.5b: Battleaxe is played on the east half of the map (hex columns 14 and up).

Choices (false alarms cost more than missed violations):
- A move is judged when its phase ends, so a release declared or paid later in the same phase
  counts; it is reported at the unit's first move of the phase (the act).  Paying is read as a "Reserve released" declaration of the side or any move of the I/V
  marker towards the opponent; the other releases as tables/scenario-rules.yaml says
  (`release_when`, reconstructed readings of digest O44-O45).
- Only moves in the side's own maneuver are judged for reserves and XIII Corps (a retreat is
  forced; a move in the other side's maneuver is 2.22's); an entry reported for its phase, turn
  or hex is not reported again as a reserve's move (one act, one finding).
- West of the Gazala line: in a hex row the line's minefield crosses, a column at most that of
  the line's western hex in that row (rows the line does not reach are not judged); the line is
  the reconstructed minefield run of map-terrain.yaml, so such findings say so.  A unit already
  west of the line is not reported again.
- The 2C limit is lifted for the rest of the game once the marker has stood on 2C or beyond.
- A log cannot tell Historical from hypothetical Gazala (one set-up, 11.3a): a unit is held in
  reserve only if every tied card holds it (each card's groups released on their own terms), and
  only the restrictions all tied cards share apply (11.2i is not one of them).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.movement import MoveRecord, Moves
from validators.games.tobrouk_41_42.supply import LENIENT, SupplyLines
from validators.games.tobrouk_41_42.state import MANEUVERS, box_value
from validators.games.tobrouk_41_42.units import TobroukRule, TobroukTracker, Units
from validators.kernel.declarations import Declared
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Said


class ReserveGroups(TobroukTracker):
    """The scenario's rules (tables/scenario-rules.yaml, `same_as`/`without`) and its reserve groups,
    over every tied card (see Choices); the I/V track reads the groups a release is paid for."""

    def __init__(self, ctx):
        super().__init__(ctx)
        card = self.game.scenarios.get(self.state.scenario or "")
        self.card_rule = (card.rule if card is not None else None) or "11"
        self.candidates = self.state.candidates or (self.state.scenario,)
        self.groups = [g for sid in self.candidates for g in self._groups(sid)]
        self.groups_of: dict[str, list[int]] = {}
        for i, g in enumerate(self.groups):
            for u in g["units"]:
                self.groups_of.setdefault(u, []).append(i)
        self.group_of = {u: ix[0] for u, ix in self.groups_of.items()
                         if {self.groups[i]["scenario"] for i in ix} == set(self.candidates)}

    def scenario_value(self, key: str, scenario: str | None = None):
        """A key of this (or that) scenario's rules, or of the scenario it is `same_as` unless `without`."""
        rules = self.tables.get("scenario-rules", {})
        sc = rules.get(scenario or self.state.scenario or "", {})
        if key in sc:
            return sc[key]
        base = rules.get(sc.get("same_as", ""), {})
        value = base.get(key)
        if isinstance(value, list):
            value = [v for v in value if not (isinstance(v, dict) and v.get("rule") in sc.get("without", ()))]
        return value

    def _groups(self, scenario: str | None) -> list[dict]:
        out = []
        for entry in self.scenario_value("reserves", scenario) or []:
            units = set(entry.get("units", ()))
            if entry.get("formation"):
                units |= {u.id for u in self.game.units if u.formation == entry["formation"]}
            sides = {self.side_id_of_unit(u) for u in units} - {None}
            out.append({"scenario": scenario, "units": units, "side": next(iter(sides), None),
                        "when": entry.get("release_when", []),
                        "rule": entry.get("rule", self.card_rule), "enters": entry.get("enters"),
                        "enter_on": entry.get("enter_on")})
        return out

    def side_id_of_unit(self, uid: str) -> str | None:
        if uid not in self.units:
            return None
        return next((self.side_id(p) for p in self.replayer.board.pieces.values()
                     if p.properties().get("UnitId") == uid), None)


class Reserves(TobroukRule):
    """11.2g, 11.2i-k, 11.3b, 11.4i, 11.5b, 11.5i, 11.5l: reserves move only once released, reserves
    and reinforcements enter in their side's maneuver, on their turn and through their hex; XIII Corps
    stays east of the Gazala line until 2C; Battleaxe is played on the map's east half."""

    needs = (Units, Moves, ReserveGroups, SupplyLines)

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        return tuple(sorted({c.rule or "11" for c in game.scenarios.values()} | {"11"}))

    def start(self) -> None:
        self.rg, self.moves = self.ctx.get(ReserveGroups), self.ctx.get(Moves)
        self.scenario_value = self.rg.scenario_value
        card = self.game.scenarios.get(self.state.scenario or "")
        self.released: set[int] = set()
        self.arrivals = {u: a for a in (card.reinforcements if card is not None else []) for u in a.units}
        self.camp = frozenset(self.tables.get("minefields", {}).get("tobrouk_fortified_camp", []))
        shared = [{r.get("rule") for r in self.scenario_value("restrictions", sid) or []} for sid in self.rg.candidates]
        self.restrictions = [r for r in self.scenario_value("restrictions") or []
                             if all(r.get("rule") in s for s in shared)]
        self.west_of = {r.get("not_west_of") for r in self.restrictions if r.get("not_west_of")}
        self.west_cols = self._west_columns()
        self.restriction_lifted: set[str] = set()  # restrictions' rules no longer in force
        self.area_col = self.scenario_value("area_from_column")
        self.area_from = int(self.area_col) if self.area_col else None
        self.hq_restrictions = [r for r in self.restrictions if r.get("units_of_hq")]  # what _restriction judges
        self.pending_moves: dict[str, tuple[Piece, str, str, int]] = {}  # piece id -> (piece, from, to, first step)
        self.been_on_map = {u.id for p in self.units_on_map() if (u := self.unit_of(p))}  # first entries only

    def _west_columns(self) -> dict[int, int]:
        """Row -> the column of the Gazala line's western hex in that row (see Choices)."""
        out: dict[int, int] = {}
        for runs in self.game.map_terrain.hexside_runs.values():
            for run in runs:
                if run.name not in self.west_of:
                    continue
                for side in run.hexsides:
                    a, b = side.split("/")
                    west = a if int(a[2:]) < int(b[2:]) else b
                    row, col = int(west[:2]), int(west[2:])
                    out[row] = max(out.get(row, 0), col)
        return out

    def group_released(self, i: int) -> bool:
        if i in self.released:
            return True
        g = self.rg.groups[i]
        for cond in g["when"]:
            if isinstance(cond, dict) and "enemy_within" in cond and self._enemy_near(g, int(cond["enemy_within"])):
                self.released.add(i)
            elif isinstance(cond, dict) and "hex_clear_of_enemy" in cond and g["side"] \
                    and not self.enemy_in(str(cond["hex_clear_of_enemy"]), g["side"]):
                self.released.add(i)
            elif cond == "camp_attacked" and self._camp_threatened():
                self.released.add(i)
        return i in self.released

    def release(self, side: str | None, cond: str) -> None:
        """Every group of `side` (None: any side) that a `cond` release frees."""
        for i, g in enumerate(self.rg.groups):
            if cond in g["when"] and (side is None or g["side"] == side):
                self.released.add(i)

    def _enemy_near(self, g: dict, n: int) -> bool:
        mine = [h for p in self.replayer.board.pieces.values()
                if p.properties().get("UnitId") in g["units"] and (h := self.hex_of(p))]
        theirs = [h for h, ps in self.by_hex().items() if self.enemy_in(h, g["side"], ps)]
        return any(self.geo.distance(a, b) - 1 <= n for a in mine for b in theirs)

    def _camp_threatened(self) -> bool:
        return any(h in self.camp or any(n in self.camp for n in self.geo.neighbours(h))
                   for h in self.board.unit_hexes("axis"))

    def declared(self, d: Declared) -> None:
        if d.name == "Declare target" and d.where in self.camp and self.side_id(d.piece) == "commonwealth":
            self.release("commonwealth", "camp_attacked")

    def line_said(self, e: Said) -> None:
        released, strike = self.state.line_of("Release reserve"), self.state.line_of("Air strike")
        if released is not None:
            p = self.state.named_unit(released[0])
            if p is not None:
                self.release(self.side_id(p), "paid")
        elif strike is not None and strike[1] in self.camp:
            self.release("commonwealth", "camp_attacked")

    def moved(self, e: Moved) -> None:
        if e.old.label == e.new.label:
            return
        u = self.unit_of(e.piece)
        if u is None:
            if e.piece.properties().get("MarkerId") == "iv":  # (a unit's piece has no MarkerId)
                self._iv_moved(e)
            return
        if self.state.phase_id is None:
            return
        geo = self.hexes
        old, new = e.old.label, e.new.label
        if new not in geo:
            return
        if self.area_from is not None and int(new[2:]) < self.area_from:
            self.find(self.rg.card_rule, f"{e.piece.name} entered {new}: the {self.state.scenario} scenario is played on "
                      f"the east half of the map, hex columns {self.area_col} and up", e.piece)
        entering = old not in geo
        if entering:
            if u.id in self.been_on_map:
                return  # back from a Combat Group display, or a re-entry (6.5f): not an arrival
            self.been_on_map.add(u.id)
            if self._entry(e.piece, u.id, new):
                return  # one act, one finding
        if u.id in self.rg.group_of and (entering or self.state.phase_id in MANEUVERS
                                         and self.maneuvering() in (None, self.side_id(e.piece))):  # its own maneuver
            first = self.pending_moves.get(e.piece.id)
            self.pending_moves[e.piece.id] = (e.piece, first[1] if first else old, new,
                                              first[3] if first else self.state.step)
        if not entering and self.hq_restrictions and self.state.phase_id in MANEUVERS:
            self._restriction(e, u, old, new)

    def added(self, e: Added) -> None:
        u = self.unit_of(e.piece)
        if u is not None and self.state.phase_id is not None and e.where.label in self.hexes \
                and u.id not in self.been_on_map:
            self.been_on_map.add(u.id)
            if not self._entry(e.piece, u.id, e.where.label) and u.id in self.rg.group_of:
                self.pending_moves[e.piece.id] = (e.piece, "off the map", e.where.label, self.state.step)

    def _iv_moved(self, e: Moved) -> None:
        old = self.track_boxes("iv").get(e.old.label)
        new = self.box_of("iv", "iv")
        if old is None or new is None:
            return
        self.release(None, "iv_moved")
        toward = box_value(new) - box_value(old)
        if toward:
            self.release("axis" if toward > 0 else "commonwealth", "paid")  # a space paid to the opponent
        for r in self.restrictions:
            if r.get("until_iv") and box_value(new) >= box_value(r["until_iv"]):
                self.restriction_lifted.add(r.get("rule", ""))

    def _entry(self, p: Piece, uid: str, hex_id: str) -> bool:
        """A reserve or reinforcement put on the map: its turn, phase and hex; whether it was reported."""
        side = self.side_id(p)
        arrival = self.arrivals.get(uid)
        gi = self.rg.group_of.get(uid)
        if arrival is None and gi is None:
            return False
        rule = self.rg.card_rule
        name = self.side_names.get(side or "", "its")
        if arrival is not None and (self.state.turn or 0) < arrival.turn:
            self.find(rule, f"{p.name} entered {hex_id} on turn {self.state.turn}: it is a reinforcement of turn "
                      f"{arrival.turn} ({arrival.rule or rule})", p)
            return True
        if self.state.phase_id not in MANEUVERS or self.maneuvering() not in (None, side):
            self.find(rule, f"{p.name} entered the map in the {self.state.phase}: reserves and reinforcements appear in "
                      f"the {name} player's maneuver", p)
            return True
        gate = arrival.hex if arrival is not None else self.rg.groups[gi]["enters"]
        if arrival is None and self.rg.groups[gi].get("enter_on") == "supply_path" and side is not None \
                and hex_id not in self._on_supply_path(side):
            self.find(rule, f"{p.name} entered at {hex_id}: it appears along the {name} supply path "
                      f"({self.rg.groups[gi]['rule']}), and no valid supply path joins {hex_id} to a {name} supply "
                      "source (reconstructed map)", p)
            return True
        if gate in self.hexes and hex_id != gate and not self._reachable(p, side, gate, hex_id):
            self.find(rule, f"{p.name} entered at {hex_id}: it enters through {gate} "
                      f"({(arrival.rule if arrival else None) or self.rg.groups[gi]['rule']}), and {hex_id} is beyond "
                      f"the maneuver's MP from there{self.reconstructed('movement', 'terrain-effects')}", p)
            return True
        return False

    def _on_supply_path(self, side: str) -> set[str]:
        """Hexes a lenient valid supply path (3.1e: no enemy unit or ZoC, no sea or cliff) joins to
        one of the side's supply sources, at any length (11.4i gives none)."""
        lines = self.ctx.get(SupplyLines)
        forbidden, passable = lines.supply_forbidden(side, LENIENT), lines.supply_passable(LENIENT)
        seen = {h for h in lines.source_hexes(side) if h in self.hexes and h not in forbidden}
        frontier = list(seen)
        while frontier:
            frontier = [b for a in frontier for b in self.geo.neighbours(a)
                        if b not in seen and passable(a, b) and not seen.add(b) and b not in forbidden]
        return seen

    def _reachable(self, p: Piece, side: str | None, gate: str, hex_id: str) -> bool:
        cls = self.moves.move_class(p)
        if cls is None or side is None:
            return True
        allowance = self.maneuver_mp(side)
        found = self.moves.path(cls, MoveRecord(gate, False, False), side, hex_id)
        return hex_id in found and found.cost[hex_id] <= allowance  # the gate hex itself is not costed

    def _restriction(self, e: Moved, u, old: str, new: str) -> None:
        for r in self.hq_restrictions:
            if r.get("rule", "") in self.restriction_lifted:
                continue
            hq = r["units_of_hq"]
            if u.hq != hq and u.id != hq:
                continue
            if self._west(new) and not self._west(old):
                self.find(self.rg.card_rule, f"{e.piece.name} (commanded by {self.units[hq].name}) moved west of the "
                          f"{r['not_west_of']} to {new}: forbidden until the I/V marker reaches {r.get('until_iv')} "
                          f"({r.get('rule')}; the line is reconstructed map data)", e.piece)

    def _west(self, hex_id: str) -> bool:
        col = self.west_cols.get(int(hex_id[:2]))
        return col is not None and int(hex_id[2:]) <= col

    def phase_ended(self, pid: str) -> None:
        self._check_reserves()

    def finish(self) -> None:
        self._check_reserves()

    def held(self, uid: str) -> int | None:
        """The group holding the unit on the first tied card, if every tied card holds it unreleased."""
        ix = self.rg.groups_of.get(uid, [])
        waiting = [i for i in ix if not self.group_released(i)]
        if {self.rg.groups[i]["scenario"] for i in waiting} != set(self.rg.candidates):
            return None
        return waiting[0]

    def _check_reserves(self) -> None:
        for p, old, new, at in self.pending_moves.values():
            gi = self.held(p.properties().get("UnitId", ""))
            if gi is None:
                continue
            g = self.rg.groups[gi]
            self.find(self.rg.card_rule, f"{p.name} moved from {old} to {new} while in reserve: its group is not "
                      f"released ({g['rule']}: {self._how(g)}; the releases are reconstructed readings, "
                      "tables/scenario-rules.yaml)",
                      p, old, new, side=self.side_name(g["side"]), at=at)  # judged when the phase ends, found at the move
        self.pending_moves = {}

    @staticmethod
    def _how(g: dict) -> str:
        words = {"paid": "1 I/V space paid", "iv_moved": "the I/V marker moving", "camp_attacked":
                 "an Axis attack on the Tobrouk Fortified Camp"}
        out = []
        for c in g["when"]:
            if isinstance(c, dict) and "enemy_within" in c:
                out.append(f"an enemy unit within {c['enemy_within']} hexes")
            elif isinstance(c, dict) and "hex_clear_of_enemy" in c:
                out.append(f"{c['hex_clear_of_enemy']} clear of the enemy")
            else:
                out.append(words.get(c, str(c)))
        return "released by " + " or ".join(out) if out else "no release"
