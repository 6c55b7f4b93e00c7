"""Supply (3.1-3.7): the CR and RE markers of the Administrative phase, digest 10.1 rank 11.

When phase A ends, each HQ's supply (3.3) and each combat unit's (3.4-3.6) is recomputed from
the board and compared with the CR / RE markers in its hex (markers lie in hexes, state.py).
A path counts the hexes between its ends (3.1d: at most the HQ's range, tables come from
units.yaml) and never passes through an enemy unit's hex, an enemy ZoC of a non-retreating
unit, an uncrossable hexside (cliff, sea) or an unbreached minefield hexside of the scenario
(3.1e, tables/minefields.yaml).  Sources (3.2, tables/supply.yaml): the road from its map-edge
hex up to where such a hex cuts it, and the edge hexes; a CU in or next to one is supplied
(3.5); otherwise by its own supplied HQ, or by another HQ of a corps (2 CU) or an army (3 CU)
(3.6c, `hq_levels`).

Supply is where false alarms happen, so every status is computed twice:
- *lenient* (may it be supplied?): the path's end hexes may be in an enemy ZoC, no ZoC across
  any minefield of the map nor across a crest from an entrenched unit (1.34), minefields do
  not block (the map's are reconstructed, and 10.A supplies 62/Trento in Bardia from the AK
  HQ through the reconstructed Bardia perimeter; breach markers cannot name a hexside),
  the HQ ranges the text does not print (all but XXX Corps' 9, 10.A) are reconstructed, so they
  count `lenient_range_margin` (3) hexes longer: a deliberate guard against false alarms, 0 once the
  printed ranges are known (tables/supply.yaml),
  Tobrouk 2013 is a Commonwealth source while its HQ or its source marker is on the map (3.8),
  Rommel adds 3 to his HQ's range (12.3), in Crusader the AK HQ commands every German and
  Italian unit (11.4f), and the Tobrouk HQ supplies any number of CU (3.8b);
- *strict* (is it surely supplied?): no end of a path in an enemy ZoC, the scenario's
  minefields block (breaches ignored), Tobrouk is no source, only the unit's own HQ counts.
A missing CR is reported only for a unit that is unsupplied even leniently, with foreign CU
matched to the HQs' spare capacity (any valid assignment, 3.6c, 7.2); a CR or RE marker too
many only in a hex whose every unit is supplied strictly.  RE (3.7b) is asked for where a unit
unsupplied now already had CR/RE in its hex when the previous turn's phase A ended, and
refused where no unit of the hex had one then.

Choices:
- 11.1c: units begin supplied: the scenario's first turn is not checked.
- Units on a Combat Group display and hexes holding a CG counter are not checked (the CG's
  markers cannot say which of its units they belong to).
- The Tobrouk HQ's own CR is not checked (3.8c: it bears 3.3d whatever its supply).
- 3.1b: a CR or RE marker brought onto the map outside phase A is reported.
- The module leaves supply to the players: a missing marker is reported only in a phase A at
  whose end the side has a CR or RE marker on some of its units (a phase A that shows none does
  not show that side's supply); extra markers and the CR to RE progression are checked always.
Findings rest on the reconstructed map and HQ ranges; they say "(reconstructed map)".

`SupplyLines` keeps the paths and what phase A found (Combat Groups and HQ actions read whether a
unit is surely unsupplied and whether a lenient path reaches a hex); `Supply` reports the markers.
"""
from __future__ import annotations

from collections.abc import Callable

from builder.geometry.hexmap import hexside_key
from validators.games.tobrouk_41_42.units import ZOC_CLOSED, TobroukRule, TobroukTracker, mid
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, TurnChanged

SUPPLY_MARKERS = ("cr", "re")
MINES = frozenset({"mines-light", "mines-heavy", "camp"})
LENIENT, STRICT = "lenient", "strict"


class SupplyLines(TobroukTracker):
    """Supply paths, sources and HQ ranges (3.1-3.8), and what this turn's phase A found: each HQ's
    and CU's supply, leniently and strictly, per side (`verdicts`)."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.supply_t = self.tables["supply"]
        self.hq_levels: dict[str, str] = dict(self.supply_t.get("hq_levels", {}))
        card = self.game.scenarios.get(self.state.scenario or "")
        self.card_first_turn = card.first_turn if card is not None else self.game.info.turns.first
        runs = self.tables.get("minefields", {}).get("runs", {}).get(self.state.scenario or "")
        self.mine_sides = self._mine_sides(runs)
        self.supply_road = self._roads()
        self.supply_status: dict[str, bool] = {}  # piece id -> surely supplied (True) / surely not (False), this turn
        self.keeps_supply: set[str] = set()  # sides with a CR or RE marker on their units as this phase A ends
        self.verdicts: dict[str, tuple] = {}  # side -> what phase A found (see `judge`)
        self._passable: dict[str, dict[tuple[str, str], bool]] = {}  # mode -> (a, b) -> a path may cross
        self._ways: dict[tuple, dict[str, tuple[str, ...]]] = {}  # supply_reach's ways out of each hex

    def _mine_sides(self, runs: list[str] | None) -> frozenset:
        """Hexside keys of the minefields the scenario has (every one when the scenario is unknown)."""
        return frozenset(hexside_key(*h.split("/")) for feature, items in self.game.map_terrain.hexside_runs.items()
                         if feature in MINES for run in items if runs is None or run.name in runs for h in run.hexsides)

    def _roads(self) -> dict[str, list[str]]:
        """side -> the road's hexes in order from its map-edge hex (3.2)."""
        out = {}
        for side in self.side_names:
            start = self.supply_t.get(f"{side}_sources", {}).get("road_from")
            for path in self.game.map_terrain.hexside_paths.get("road", []):
                if start in (path.hexes[0], path.hexes[-1]):
                    out[side] = list(path.hexes if path.hexes[0] == start else reversed(path.hexes))
        return out

    def source_hexes(self, side: str) -> set[str]:
        """Every hex of the side's sources (3.2): the edge hexes and the whole road."""
        spec = self.supply_t.get(f"{side}_sources", {})
        return {*spec.get("edge_hexes", ()), *([spec["road_from"]] if spec.get("road_from") else ()),
                *self.supply_road.get(side, ())}

    def supply_passable(self, mode: str) -> Callable[[str, str], bool]:
        """Whether a supply path may cross a -> b: no sea, no cliff; strictly no minefield either."""
        terrain, memo = self.game.hex_terrain, self._passable.setdefault(mode, {})  # the map does not change

        def ok(a: str, b: str) -> bool:
            found = memo.get((a, b))
            if found is None:
                found = memo[a, b] = not (terrain.get(b) == "sea" or "cliff" in self.crossing(a, b)) and (
                    mode == LENIENT or hexside_key(a, b) not in self.mine_sides)
            return found
        return ok

    def supply_forbidden(self, side: str, mode: str) -> set[str]:
        """Hexes a path of `side` may not pass through: enemy units and their ZoC (3.1e)."""
        return self.memo(("supply forbidden", side, mode), lambda: self._forbidden(side, mode))

    def _forbidden(self, side: str, mode: str) -> set[str]:
        """Worked out at every phase A, for each side and mode: read from the enemy's units by hex,
        which the board keeps (`unit_hexes`), and its few CG counters, not from every piece."""
        enemy = self.other_side[side]
        holders = dict(self.board.unit_hexes(enemy))  # hex -> the enemy's pieces there (a copy: CGs join it)
        for p in self.units_view.cg_pieces():
            if self.cg_side[mid(p)] == enemy and (h := self.hex_of(p)):
                holders[h] = [*holders.get(h, ()), p]
        out: set[str] = set()
        for h, mine in holders.items():
            out.add(h)
            fighting = [p for p in mine if (self.is_cu(p) and self.unit_of(p).id not in self.no_zoc) or not self.unit_of(p)]
            if not fighting or (self.retreating(h) and (mode == LENIENT or len(fighting) == 1)):
                continue  # HQs and retreating units have no ZoC (1.34); strictly, a Retreat marker in a hex of
                # several units may be one unit's
            entrenched = self.markers_in(h, "entrenched") > 0
            for n in self.game.geometry.neighbours(h):
                side_f = self.crossing(h, n)
                if self.game.hex_terrain.get(n) == "sea":
                    continue
                if mode == LENIENT and (side_f & ZOC_CLOSED or (entrenched and "crest" in side_f)):
                    continue
                if mode == STRICT and ({"cliff", "wadi"} & side_f or hexside_key(h, n) in self.mine_sides):
                    continue
                out.add(n)
        return out

    def supply_reach(self, origin: str, steps: int, forbidden: set[str], passable, mode: str) -> set[str]:
        """Hexes at most `steps` steps from `origin` along paths whose inner hexes are free (a
        forbidden hex may end a path); strictly the two ends must be free too."""
        if mode == STRICT and origin in forbidden:
            return set()
        seen, frontier, neighbours = {origin}, [origin], self.geo.neighbours
        ways = self._ways.setdefault((mode, passable.__qualname__), {})  # hex -> neighbours passable from it
        for _ in range(steps):  # breadth first: each hex seen once, only free hexes lead on
            after = []
            for a in frontier:
                out = ways.get(a)
                if out is None:  # the map does not change: each hex's ways are listed once
                    out = ways[a] = tuple(b for b in neighbours(a) if passable(a, b))
                for b in out:
                    if b not in seen:
                        seen.add(b)
                        if b not in forbidden:
                            after.append(b)
            frontier = after
        return seen if mode == LENIENT else seen - forbidden

    def supply_sources(self, side: str, forbidden: set[str], passable, mode: str) -> set[str]:
        """3.2: the road up to its cut, the edge hexes; Tobrouk (3.8) leniently."""
        spec = self.supply_t.get(f"{side}_sources", {})
        out = {h for h in spec.get("edge_hexes", []) if h in self.game.geometry
               and not (h in forbidden and (mode == STRICT or self.enemy_in(h, side)))}
        road = self.supply_road.get(side, [])
        for i, h in enumerate(road):
            if h in forbidden or (i and not passable(road[i - 1], h)):
                break
            out.add(h)
        if side == "commonwealth" and mode == LENIENT and (self.board.marker("tobrouk-source") is not None
                                                            or self.unit_piece_on_map("hq-tobrouk")):
            out.add("2013")
        return out

    def hq_supply_range(self, p: Piece, mode: str) -> int:
        """The HQ's range on the face it shows; leniently, a range not from the text gets the
        table's margin (tables/supply.yaml `lenient_range_margin`)."""
        u = self.unit_of(p)
        reduced = self.reduced(p) and u.range_reduced is not None
        reach = (u.range_reduced if reduced else u.range) or 0
        if mode == LENIENT and (reduced or self.supply_t.get("text_ranges", {}).get(u.id) != reach):
            reach += int(self.supply_t.get("lenient_range_margin", 0))
        here = self.pieces_in(self.hex_of(p))
        if mode == LENIENT and any((q := self.unit_of(x)) and q.type == "leader" for x in here):
            reach += 3  # 12.3 Rommel
        return reach

    def hq_commands(self, hq: str, u) -> bool:
        """Whether the HQ commands the unit (3.6c); 11.4f for the AK HQ in Crusader (leniently)."""
        if u.hq == hq:
            return True
        ak = self.sc_rules.get("ak_commands")
        if ak and hq == "hq-ak":
            nat = self.game.formations[u.formation].nationality if u.formation in self.game.formations else None
            return nat in ("german", "italian")
        return False

    def supply_map(self, side: str, mode: str) -> tuple[dict[str, bool], dict[str, set[str]]]:
        """(HQ piece id -> supplied, CU piece id -> ids of the supplied HQs that reach it); a CU
        supplied from a source gets {'source'}."""
        return self.memo(("supply map", side, mode), lambda: self._supply_map(side, mode))

    def _supply_map(self, side: str, mode: str) -> tuple[dict[str, bool], dict[str, set[str]]]:
        forbidden, passable = self.supply_forbidden(side, mode), self.supply_passable(mode)
        src = self.supply_sources(side, forbidden, passable, mode)
        hqs = [p for p in self.hqs_on_map() if self.side_id(p) == side]
        hq_ok: dict[str, bool] = {}
        reached: dict[str, set[str]] = {}
        for p in hqs:
            h = self.hex_of(p)
            rng = self.hq_supply_range(p, mode)
            reach = self.supply_reach(h, rng + 1, forbidden, passable, mode)
            ok = h in src or bool(reach & src)
            if self.unit_of(p).id == "hq-tobrouk" and mode == LENIENT:
                ok = True  # 3.8c: it supplies its units whatever its own supply
            hq_ok[p.id] = ok
            if ok:
                reached[p.id] = reach
        cus: dict[str, set[str]] = {}
        for h, ps in self.board.unit_hexes(side).items():  # the side's units by hex, in by_hex's order
            near = None
            for p in ps:
                if not self.is_cu(p):
                    continue
                if near is None:  # the hex's, worked out once for its units
                    near = h in src or any(n in src and passable(n, h) for n in self.game.geometry.neighbours(h))
                cus[p.id] = {"source"} if near else {q.id for q in hqs if q.id in reached and h in reached[q.id]}
        return hq_ok, cus

    def _own_or_foreign(self, side: str, cus: dict[str, set[str]], mode: str) -> dict[str, str]:
        """CU id -> 'own' (source or own HQ), 'foreign' (only another HQ reaches it), 'none'."""
        board = self.replayer.board.pieces
        out = {}
        for pid, hqs in cus.items():
            u = self.unit_of(board[pid])
            if "source" in hqs or any(self.hq_commands(self.unit_of(board[q]).id, u) for q in hqs):
                out[pid] = "own"
            elif hqs and mode == LENIENT:
                out[pid] = "foreign"
            else:
                out[pid] = "none"
        return out

    def _foreign_capacity(self, hq: Piece) -> int:
        level = self.hq_levels.get(self.unit_of(hq).id, "corps")
        if level == "tobrouk":
            return 10 ** 6  # 3.8b: two whole divisions and two CU (leniently unlimited)
        return int(self.supply_t.get("foreign_cu", {}).get(level, 0))

    def _matched(self, need: list[str], cus: dict[str, set[str]]) -> set[str]:
        """The foreign CU that a best assignment to the HQs' spare capacity supplies (3.6c)."""
        board = self.replayer.board.pieces
        cap = {}
        for pid in need:
            for q in cus[pid]:
                cap.setdefault(q, self._foreign_capacity(board[q]))
        slots = [q for q, n in sorted(cap.items()) for _ in range(min(n, len(need)))]
        match: dict[int, str] = {}
        for pid in need:
            _augment(pid, set(), slots, cus, match)
        return set(match.values())

    def supply_marked(self, hex_id: str) -> tuple[int, int]:
        """(CR markers, RE markers) in the hex."""
        return self.memo("supply marked", self._marked_now).get(hex_id, (0, 0))

    def _marked_now(self) -> dict[str, tuple[int, int]]:
        marks = {h: [p.properties().get("MarkerId") for p in ps] for h, ps in self.by_hex().items()}
        return {h: (ids.count("cr"), ids.count("re")) for h, ids in marks.items() if "cr" in ids or "re" in ids}

    def phase_ended(self, pid: str) -> None:
        if pid != "A":
            return
        self.supply_status, self.keeps_supply, self.verdicts = {}, set(), {}
        for h in self.memo("supply marked", self._marked_now):
            self.keeps_supply.update(self.side_id(p) for p in self.pieces_in(h) if self.unit_of(p))
        if self.state.turn != self.card_first_turn:
            for side in self.side_names:
                self.verdicts[side], status = self.memo(("judge", side), lambda: self.judge(side))
                self.supply_status.update(status)

    def judge(self, side: str) -> tuple[tuple, dict[str, bool]]:
        """(HQ supply leniently, CU unsupplied even leniently, foreign CU beyond the HQs' capacity),
        and every status found sure (piece id -> supplied) for `supply_status`."""
        board = self.replayer.board.pieces
        hq_l, cus_l = self.supply_map(side, LENIENT)
        hq_s, cus_s = self.supply_map(side, STRICT)
        kind_l = self._own_or_foreign(side, cus_l, LENIENT)
        kind_s = self._own_or_foreign(side, cus_s, STRICT)
        status = {q: True for q, ok in hq_s.items() if ok} | {q: False for q, ok in hq_l.items() if not ok}
        # foreign CU that claim supply (no marker in their hex) must fit the HQs' spare capacity
        claim = [pid for pid, k in sorted(kind_l.items())  # in a fixed order: the matching names the same units
                 if k == "foreign" and not sum(self.supply_marked(self.hex_of(board[pid])))]
        matched = self._matched(claim, cus_l)
        unsupplied = {pid for pid, k in kind_l.items() if k == "none"}
        over = [pid for pid in claim if pid not in matched]
        status |= {pid: True for pid, k in kind_s.items() if k == "own"} | {pid: False for pid in unsupplied}
        return (hq_l, unsupplied, over), status

    def surely_unsupplied(self, p: Piece) -> bool:
        """This turn's phase A found the unit or HQ unsupplied even leniently."""
        return self.supply_status.get(p.id) is False

    def supply_path_to(self, side: str, origin: str, goal: str, steps: int) -> bool:
        """A lenient valid path (3.1e) from origin to goal of at most `steps` steps."""
        return goal in self.supply_reach(origin, steps, self.supply_forbidden(side, LENIENT), self.supply_passable(LENIENT), LENIENT)



class Supply(TobroukRule):
    """3.1, 3.3, 3.6, 3.7 (3.8): when phase A ends each unsupplied HQ and CU has its CR marker (RE after a
    whole turn out of supply), no supplied hex keeps one, foreign CU fit the HQs' capacity; CR and RE
    markers come onto the map only in phase A."""

    ids = ("3.1", "3.3", "3.6", "3.7")
    covers = ("3.8",)
    needs = (SupplyLines,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.lines = self.ctx.get(SupplyLines)
        self.marked_at_admin: dict[str, bool] | None = None  # piece id -> CR/RE in its hex when the last phase A ended
        self.admin_turn: int | None = None
        self.began_at_start: bool | None = None  # the tracker's first move is within the scenario's first turn

    def tracker_moving(self, e: TurnChanged) -> None:
        if self.began_at_start is None:
            self.began_at_start = e.turn == self.lines.card_first_turn

    def phase_ended(self, pid: str) -> None:
        if pid == "A":
            self._admin_end()

    def _admin_end(self) -> None:
        turn, first = self.state.turn, self.lines.card_first_turn
        previous = self.marked_at_admin if self.admin_turn is not None and turn == self.admin_turn + 1 else None
        if previous is None and self.began_at_start and turn == first + 1:
            # 11.1c: every unit began supplied, so none was marked on the first turn
            previous = {p.id: False for ps in self.by_hex().values() for p in ps}
        cg_hexes = self.memo("CG hexes", lambda: {h for h, ps in self.by_hex().items()
                                                  if any(p.properties().get("MarkerId", "") in self.cg_side for p in ps)})
        for side, verdict in self.lines.verdicts.items():
            self._check_side(side, cg_hexes, previous, *verdict)
        self.marked_at_admin = self.memo("units marked", self._units_marked)
        self.admin_turn = turn

    def _units_marked(self) -> dict[str, bool]:
        """unit piece id -> a CR or RE marker in its hex."""
        marked = self.lines.supply_marked
        return {p.id: sum(marked(h)) > 0 for h, ps in self.by_hex().items() for p in ps if self.unit_of(p)}

    def _check_side(self, side: str, cg_hexes: set[str], previous: dict[str, bool] | None, hq_l: dict[str, bool],
                    unsupplied: set[str], over: list[str]) -> None:
        name, note = self.side_names[side], " (reconstructed map)"
        lines = self.lines
        board = self.replayer.board.pieces
        for h, ps in sorted(self.board.unit_hexes(side).items()):
            if h in cg_hexes:
                continue
            cr, re_ = lines.supply_marked(h)
            hqs = [p for p in ps if self.is_hq(p) and self.unit_of(p).type == "hq"]
            cu = [p for p in ps if self.is_cu(p)]
            out_hq = [p for p in hqs if hq_l.get(p.id) is False and self.unit_of(p).id != "hq-tobrouk"]
            out_cu = [p for p in cu if p.id in unsupplied]
            if not cr + re_:
                if side not in lines.keeps_supply:
                    continue  # see Choices: this side does not record its supply with markers
                for p in out_hq:
                    self.find("3.3", f"end of the {self.state.phase}: {p.name} in {h} traces no valid supply path to a "
                              f"{name} source within its range of {lines.hq_supply_range(p, LENIENT)} hexes between (3.1d-e): "
                              f"no CR marker placed{note}", p, None, h, side=name)
                if out_cu:
                    names, one = ", ".join(p.name for p in out_cu), len(out_cu) == 1
                    self.find("3.7", f"end of the {self.state.phase}: {names} in {h} {'is' if one else 'are'} unsupplied "
                              f"(not next to a source, no supplied HQ reaches {'it' if one else 'them'} within its "
                              f"range, 3.5-3.6): no CR marker placed{note}", out_cu[0], None, h, side=name)
                continue
            every = hqs + cu
            sure = all(lines.supply_status.get(p.id) is True for p in every) and every
            if sure and not any(self.unit_of(p).id == "hq-tobrouk" for p in hqs):
                what = "RE" if re_ else "CR"
                self.find("3.7", f"end of the {self.state.phase}: {what} marker in {h}, but "
                          f"{', '.join(p.name for p in every)} {'is' if len(every) == 1 else 'are'} supplied "
                          f"(3.7c: the marker is removed when supply returns){note}", None, None, h, side=name)
                continue
            if previous is None or not cu:
                continue
            if out_cu and not re_ and any(previous.get(p.id) for p in out_cu):
                p = next(p for p in out_cu if previous.get(p.id))
                self.find("3.7", f"end of the {self.state.phase}: {p.name} in {h} was unsupplied last turn and still is: "
                          f"an RE marker, not CR (3.7b){note}", p, None, h, side=name)
            elif re_ and all(p.id in previous and not previous[p.id] for p in cu):
                self.find("3.7", f"end of the {self.state.phase}: RE marker in {h}, but no unit there was unsupplied last "
                          "turn (3.7b: RE goes on units unsupplied for a whole turn)", None, None, h, side=name)
        if over and side in lines.keeps_supply:
            names = ", ".join(sorted(board[pid].name for pid in over))
            self.find("3.6", f"end of the {self.state.phase}: {names} can be supplied only by HQs that do not command "
                      "them, beyond the 2 CU a corps HQ and 3 an army HQ may supply (3.6c): a CR marker is due"
                      f"{note}", None, None, None, side=name)

    def added(self, e: Added) -> None:
        self._supply_marker(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        if e.old.label != e.new.label and e.old.label not in self.hexes:
            self._supply_marker(e.piece, e.new.label)

    def _supply_marker(self, p: Piece, hex_id: str) -> None:
        mid = p.properties().get("MarkerId", "")
        if mid in SUPPLY_MARKERS and self.state.phase_id not in (None, "A") and hex_id in self.hexes:
            self.find("3.1", f"a {mid.upper()} marker placed in {hex_id} in the {self.state.phase}: supply is checked in the "
                      "Administrative phase and holds for the whole turn (3.1b)", p, None, hex_id)


def _augment(pid: str, seen: set[int], slots: list[str], cus: dict[str, set[str]], match: dict[int, str]) -> bool:
    """One augmenting path of the CU-to-slot matching (Kuhn's algorithm).  A module function,
    not a closure: a closure calling itself is a reference cycle, which only the cycle
    collector frees, and it is paused while a log is audited (reader.paused_gc)."""
    for i, q in enumerate(slots):
        if q in cus[pid] and i not in seen:
            seen.add(i)
            if i not in match or _augment(match[i], seen, slots, cus, match):
                match[i] = pid
                return True
    return False
