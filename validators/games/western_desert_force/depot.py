"""Depots (7.1, 7.11-7.16, 4.0): where a depot may stand, when it moves, leaves and returns.

Rank 10 of the digest's §10.1.  The road network is the map's road hexsides (two hexes are
contiguous road hexes when a road crosses the hexside between them); the road zones come from
`tables/road-zones.yaml`, the supply sources from `tables/supply.yaml`.

Choices:
- 7.11: a depot's road path includes the depot's own hex and the source; a hex blocks it when
  it holds an enemy unit, leader or depot, or lies in an enemy ZOC that no friendly combat
  unit occupies.  7.13 "cut off" is the same test.
- 7.12: zones are lettered A-F along the road; a move of two or more zones is a change of two or
  more letters (C -> E), measured from the zone the depot held when its Depot Placement segment
  began.  A depot coming back to the map (7.15) is placed Moved side up.
- 7.16: "an adjacent road zone" is a letter next to the depot's own.
- 4.0: a Moved depot flips back in the End of Turn phase or in a later turn; one still Moved
  when its side's next Attack Points segment begins has missed the flip.
- 7.13: when the Depot Removal segment is skipped, the cut-off test is made when the next
  segment of that side's turn begins.
- 7.14: a capture is the entry of an enemy combat unit (not a leader alone) into the depot's
  hex, by a move, an advance or a placement; the depot must be off the map by the end of the
  phase.
- 7.32, 8.4: a place (Tobruk, Benghazi) is controlled by the side whose combat unit last
  occupied it; at the start, by the side whose unit is there, else as `tables/victory.yaml`
  says (3.1: Axis).
"""
from __future__ import annotations


from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.roads import DEPOT, MOVED, Roads
from validators.kernel.rule import Tracker
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed


class DepotLosses(Tracker):
    """7.13, 7.14: a depot captured (an enemy combat unit entered its hex) or removed as cut off;
    `captured` side -> capturer until the phase ends, `taken` ((side, capturer)) and `cut_off`
    (side) for the event being heard."""

    needs = (Roads,)

    def start(self) -> None:
        self.roads = self.ctx.get(Roads)
        self.captured: dict[str, str] = {}
        self.taken: tuple[str, str] | None = None
        self.cut_off: str | None = None

    def phase_started(self, pid: str) -> None:
        self.captured = {}  # each phase's captures are judged when it ends

    def moved(self, e: Moved) -> None:
        self.taken = self.cut_off = None
        old, new = e.old.label, e.new.label
        if old == new:
            return
        mid, geo = e.piece.properties().get("MarkerId", ""), self.game.geometry.ids
        if mid.startswith("depot-"):
            if new not in geo:
                self._removed(mid[len("depot-"):], old if old in geo else None)
        elif new in geo:
            self._entered(e.piece, new)

    def added(self, e: Added) -> None:
        self.taken = self.cut_off = None
        if not e.piece.properties().get("MarkerId", "").startswith("depot-") and e.where.label in self.game.geometry.ids:
            self._entered(e.piece, e.where.label)

    def removed(self, e: Removed) -> None:
        self.taken = self.cut_off = None
        mid = e.piece.properties().get("MarkerId", "")
        if mid.startswith("depot-") and e.where and e.where.label in self.game.geometry.ids:
            self._removed(mid[len("depot-"):], e.where.label)

    def _entered(self, p: Piece, hex_id: str) -> None:
        """7.14: an enemy combat unit entering the depot's hex captures it."""
        side = self.board.side_id(p)
        if side is None or self.state.phase_kind is None or self.board.unit_of(p) is None:
            return
        other = self.roads.enemy_of.get(side)
        if other and other not in self.captured and self.roads.depot_hex(other) == hex_id:
            self.captured[other] = side
            self.taken = (other, side)

    def _removed(self, side: str, old: str | None) -> None:
        """7.13: removed in its own Depot Removal segment with no clear road path to its source."""
        st = self.state
        if (st.phase_kind == "depot-removal" and st.phase_side == side and side not in self.captured
                and old not in self.roads.road_reach(side)):
            self.cut_off = side


class DepotRules(WdfRule):
    """7.11-7.16: where a depot may stand, when it moves, leaves and returns; 4.0: a Moved depot
    flips back at the end of the turn."""

    ids = ("7.11", "7.12", "7.13", "7.14", "7.15", "7.16", "4.0")
    needs = WdfRule.needs + (Roads, DepotLosses)
    acts_in = {"unit_step": ()}  # its `moved` reads the depot markers

    def start(self) -> None:
        super().start()
        g = self.game
        self.roads = self.ctx.get(Roads)
        self.depot_moved_turn: dict[str, int | None] = {s: None for s in g.sides}
        self.losses = self.ctx.get(DepotLosses)
        self.depot_segment: dict[str, tuple[str | None, bool]] = {}  # side -> (hex, on map) at placement start
        self.removal_checked: set[tuple[int | None, str]] = set()
        for s in g.sides:
            p = self.board.marker(DEPOT.format(side=s))
            if p is not None and p.layer_level("Face") == MOVED:
                self.depot_moved_turn[s] = self.turn

    # -- events ---------------------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        mid = e.piece.properties().get("MarkerId", "")
        new = e.new.label if e.new.label in self.game.geometry.ids else None
        if mid.startswith("depot-") and e.old.label != e.new.label:
            old = e.old.label if e.old.label in self.game.geometry.ids else None
            self._depot_moved(mid[len("depot-"):], e.piece, old, new)

    def added(self, e: Added) -> None:
        mid = e.piece.properties().get("MarkerId", "")
        new = e.where.label if e.where.label in self.game.geometry.ids else None
        if mid.startswith("depot-") and new:
            self._depot_moved(mid[len("depot-"):], e.piece, None, new)

    def removed(self, e: Removed) -> None:
        mid = e.piece.properties().get("MarkerId", "")
        if mid.startswith("depot-") and e.where and e.where.label in self.game.geometry.ids:
            self._depot_moved(mid[len("depot-"):], e.piece, e.where.label, None)

    def flipped(self, e: Flipped) -> None:
        mid = e.piece.properties().get("MarkerId", "")
        if mid.startswith("depot-") and e.layer == "Face":
            self._depot_flipped(mid[len("depot-"):], e)

    def _depot_moved(self, side: str, p: Piece, old: str | None, new: str | None) -> None:
        if self.phase_kind is None:
            return  # set-up: an adjustment, not a move
        if new is None:
            self._depot_removed(side, p, old)
        else:
            self._depot_placed(side, p, old, new)

    def _depot_removed(self, side: str, p: Piece, old: str | None) -> None:
        """7.15: a depot leaves the map only when cut off (7.13) or captured (7.14)."""
        if side in self.losses.captured:
            return
        if self.phase_kind == "depot-removal" and self.active_side == side:
            if self.losses.cut_off != side:
                self.find("7.13", f"the depot in {old} is not cut off (a clear road path leads to "
                          f"{self.roads.depot_sources.get(side)}): it may not be removed", p, old, side=self.board.side_name(side))
            return
        self.find("7.15", f"a depot leaves the map only when cut off, in its Depot Removal segment (7.13), or "
                  f"captured by an enemy combat unit (7.14); removed from {old} in {self.phase}", p, old,
                  side=self.board.side_name(side))

    def _depot_placed(self, side: str, p: Piece, old: str | None, new: str) -> None:
        kind, name = self.phase_kind, self.board.side_name(side)
        if kind == "depot-placement" and self.active_side == side:
            pass
        elif kind == "exploitation-movement" and self.active_side == side:
            self._exploitation_relocation(side, p, old, new)
        else:
            self.find("7.11", f"a depot is placed only in its side's Depot Placement segment, or relocated in its "
                      f"Exploitation Movement Phase during a Major Offensive (7.16); moved in {self.phase}",
                      p, old, new, side=name)
        for rule, why in self.depot_site_problems(side, new):
            self.find(rule, why, p, old, new, side=name)

    def _exploitation_relocation(self, side: str, p: Piece, old: str | None, new: str) -> None:
        """7.16: only during a Major Offensive, only if not Moved, within its zone or the next."""
        name = self.board.side_name(side)
        if not self.roads.offensive_declared(side):
            self.find("7.16", "a depot relocates in Exploitation Movement only during a Major Offensive",
                      p, old, new, side=name)
        elif p.layer_level("Face") == MOVED:
            self.find("7.16", "a depot on its Moved side may not relocate in Exploitation Movement", p, old, new,
                      side=name)
        elif old is None:
            self.find("7.16", "a depot off the map returns only in its Depot Placement segment (7.15)", p, old, new,
                      side=name)
        else:
            d = self.roads.zone_distance(side, old, new)
            if d is not None and d > 1:
                zones = self.roads.road_zones[side]
                self.find("7.16", f"from zone {zones[old]} the depot may relocate within its zone or to "
                          f"an adjacent one, not to zone {zones[new]}{self.state.reconstructed('road-zones')}",
                          p, old, new, side=name)

    def depot_site_problems(self, side: str, hex_id: str) -> list[tuple[str, str]]:
        """What makes `hex_id` no place for the side's depot (7.11, 7.12); empty when legal."""
        out: list[tuple[str, str]] = []
        if hex_id not in self.roads.road_links:
            out.append(("7.11", f"{hex_id} is not a road hex"))
        elif self.roads.road_zones[side] and hex_id not in self.roads.road_zones[side]:
            out.append(("7.12", (f"{hex_id} is in none of the {self.board.side_name(side)} road zones A-F"
                        f"{self.state.reconstructed('road-zones')}")))
        enemies = self.roads.enemy_hexes(side)
        near = sorted(n for n in self.game.geometry.neighbours(hex_id) if n in enemies)
        if near:
            out.append(("7.11", f"{hex_id} is adjacent to an enemy unit, leader or depot in {', '.join(near)}"))
        if hex_id in self.roads.road_links and hex_id not in self.roads.road_reach(side):
            out.append(("7.11", (f"no road path from {hex_id} to {self.roads.depot_sources.get(side)} free of enemy units, "
                        "leaders, depot and un-negated enemy ZOC")))
        return out

    def _depot_flipped(self, side: str, e: Flipped) -> None:
        if e.new == MOVED:
            self.depot_moved_turn[side] = self.turn
        elif e.old == MOVED and self.phase_kind not in (None, "end-of-turn") and e.where.label in self.game.geometry.ids \
                and self.depot_moved_turn[side] == self.turn:
            self.find("4.0", "a depot on its Moved side flips back only at the end of the turn "
                      f"(flipped in {self.phase})", e.piece, e.where.label, side=self.board.side_name(side))

    # -- segments -------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if side is None:
            return
        if kind != "depot-removal" and self._after_removal_segment(side):
            self._check_cut_off(side)
        if kind == "depot-removal":
            self.removal_checked.add((self.turn, side))
        elif kind == "depot-placement":
            h = self.roads.depot_hex(side)
            self.depot_segment[side] = (h, h is not None)
        elif kind == "attack-points":
            self._moved_since(side)

    def _after_removal_segment(self, side: str) -> bool:
        """Whether the log just skipped the side's Depot Removal segment of this turn (a log that
        begins later in the turn skipped nothing)."""
        if (self.turn, side) in self.removal_checked or self.state.prev_phase_pos is None:
            return False
        removal = next((i for i, p in enumerate(self.phase_specs)
                        if p.get("kind") == "depot-removal" and p.get("side") == side), None)
        (turn0, before), (_, here) = self.state.prev_phase_pos, self.state.phase_pos
        if removal is None or here < removal or (turn0 == self.turn and before >= removal):
            return False
        self.removal_checked.add((self.turn, side))
        return True

    def _check_cut_off(self, side: str) -> None:
        """7.13: a depot cut off when its Organization Phase begins is removed."""
        h = self.roads.depot_hex(side)
        if h is not None and h not in self.roads.road_reach(side):
            self.find("7.13", f"the depot in {h} is cut off from {self.roads.depot_sources.get(side)} (no clear road path) "
                      "at the start of its Organization Phase: it must be removed and its AP total set to 0",
                      self.board.marker(DEPOT.format(side=side)), h, side=self.board.side_name(side))

    def _moved_since(self, side: str) -> None:
        """4.0: Moved depots flip back at the end of the turn."""
        since = self.depot_moved_turn.get(side)
        if self.roads.depot_is_moved(side) and since is not None and since < (self.turn or 0):
            self.find("4.0", f"the depot has been on its Moved side since Turn {since}: it flips back at the end "
                      "of the turn", self.board.marker(DEPOT.format(side=side)), self.roads.depot_hex(side),
                      side=self.board.side_name(side))
            self.depot_moved_turn[side] = self.turn

    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == "depot-removal" and side is not None:
            self._check_cut_off(side)
        elif kind == "depot-placement" and side is not None:
            self._placement_ended(side)
        for s, capturer in self.losses.captured.items():
            h = self.roads.depot_hex(s)
            if h is not None:
                who = self.board.side_name(capturer)
                self.find("7.14", f"the depot in {h} was captured by a {who} combat unit: it must be removed from "
                          "the map", self.board.marker(DEPOT.format(side=s)), h, side=who)

    def _placement_ended(self, side: str) -> None:
        """7.12, 7.15: Moved side up after a jump of two or more zones, or on return."""
        p = self.board.marker(DEPOT.format(side=side))
        h = self.roads.depot_hex(side)
        was, was_on = self.depot_segment.pop(side, (h, h is not None))
        name = self.board.side_name(side)
        if h is None:
            self.find("7.15", "a removed depot is placed back on the map in the next Depot Placement segment",
                      p, was, side=name)
            return
        if p.layer_level("Face") == MOVED:
            return
        if not was_on:
            self.find("7.15", f"a depot placed back on the map ({h}) goes Moved side up", p, None, h, side=name)
            return
        d = self.roads.zone_distance(side, was, h)
        if d is not None and d >= 2:
            zones = self.roads.road_zones[side]
            self.find("7.12", f"the depot moved from zone {zones[was]} ({was}) to zone {zones[h]} ({h}), {d} zones: "
                      f"it is placed Moved side up{self.state.reconstructed('road-zones')}", p, was, h, side=name)

