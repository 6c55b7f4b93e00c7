"""The depots' road network and the one-off markers (7.11-7.16, 7.32, 6.1): what the
organization rules (depots, Attack Points, air superiority, victory) read of the board.

Choices (7.11): a depot's road path includes the depot's own hex and the source; a hex blocks
it when it holds an enemy unit, leader or depot, or lies in an enemy ZOC that no friendly
combat unit occupies.  7.13 "cut off" is the same test.  (digest §11 #17): Tobruk is on the
depot-source path when a clear road path joins it to the source.
"""
from __future__ import annotations

import re

from validators.games.western_desert_force.supply import Supply
from validators.kernel.movement import search
from validators.kernel.rule import Tracker
from validators.replay.board import Piece

DEPOT = "depot-{side}"
MOVED = 2  # the depot's "Face" layer level of its Moved side (7.12)


class Roads(Tracker):
    """Depots, their road paths and zones, and the one-off markers, as the board shows them now."""

    needs = (Supply,)

    def start(self) -> None:
        g = self.game
        self.supply = self.ctx.get(Supply)
        self.depot_sources: dict[str, str] = dict(self.tables.get("supply", {}).get("sources", {}))
        self.enemy_of = {a: b for a in g.sides for b in g.sides if a != b}
        self._depots = {s: DEPOT.format(side=s) for s in g.sides}  # side -> its depot's marker id (asked at every move)
        self._depot_at: dict[str, tuple] = {}  # side -> (its depot's piece, state, map, x, y; its hex): depot_hex
        self.road_zones = self._read_zones()
        self.road_links: dict[str, set[str]] = {}
        self._reach: dict[tuple[str, frozenset[str]], frozenset[str]] = {}  # (source, blocked) -> road_reach
        for (a, b), features in g.hexside_features.items():
            if "road" in features:
                self.road_links.setdefault(a, set()).add(b)
                self.road_links.setdefault(b, set()).add(a)

    def _read_zones(self) -> dict[str, dict[str, str]]:
        """side -> {road hex: zone letter} (7.12)."""
        data = self.tables.get("road-zones", {})
        data = data.get("zones", data)
        out: dict[str, dict[str, str]] = {}
        for side in self.game.sides:
            out[side] = {h: letter for letter, hexes in (data.get(side) or {}).items() for h in hexes}
        return out

    def depot_hex(self, side: str) -> str | None:
        """The hex of the side's depot (None: off the map or none); asked at every move (a depot
        captured, 7.14), so the piece found last, still on the board with the same state and
        position, is not looked for again (`board.marker` would find that one)."""
        kept = self._depot_at.get(side)
        if kept is not None:
            p, state, map_id, x, y, h = kept
            if p.state is state and p.x == x and p.y == y and p.map == map_id and self.board.replayer.board.pieces.get(p.id) is p:
                return h
        p = self.board.marker(self._depots.get(side) or DEPOT.format(side=side))
        if p is None:
            self._depot_at.pop(side, None)
            return None
        h = self.board.hex_of(p)
        self._depot_at[side] = (p, p.state, p.map, p.x, p.y, h)
        return h

    def depot_is_moved(self, side: str) -> bool:
        p = self.board.marker(DEPOT.format(side=side))
        return p is not None and p.layer_level("Face") == MOVED

    def depot_zone(self, side: str) -> str | None:
        h = self.depot_hex(side)
        return self.road_zones[side].get(h) if h else None

    def offensive_declared(self, side: str) -> bool:
        """7.9: the side's AP marker shows its Major Offensive face."""
        p = self.board.marker(f"ap-{side}")
        return p is not None and p.layer_level("Face") == 2

    def owner(self, p: Piece) -> str | None:
        """Side id of a unit, a leader or a depot; None for other markers."""
        mid = p.properties().get("MarkerId", "")
        if mid.startswith("depot-"):
            return mid[len("depot-"):]
        return self.board.side_id(p) if p.properties().get("Kind") in ("unit", "leader") else None

    def live_ezoc(self, side: str) -> set[str]:
        """Hexes in an enemy ZOC of `side` that no friendly combat unit occupies (7.11)."""
        return set(self.supply.ezoc(side).difference(self.supply.unit_hexes(side)))

    def enemy_hexes(self, side: str) -> set[str]:
        """Hexes holding an enemy unit, leader or depot (7.11)."""
        return {h for h, ps in self.board.by_hex().items() if any(self.owner(p) not in (None, side) for p in ps)}

    def road_reach(self, side: str) -> set[str]:
        """Road hexes joined to the side's source by a clear contiguous road path (7.11)."""
        src = self.depot_sources.get(side)
        blocked = frozenset(self.enemy_hexes(side) | self.live_ezoc(side))
        if src is None or src in blocked:
            return set()
        found = self._reach.get((src, blocked))
        if found is None:  # the few latest kept: the board is much the same from one segment to the next
            if len(self._reach) >= 8:
                del self._reach[next(iter(self._reach))]
            found = self._reach[(src, blocked)] = frozenset(search(lambda h: self.road_links.get(h, ()), src,
                                                                   lambda a, b: 1, blocked=blocked).cost)
        return set(found)

    def on_road_path(self, side: str, hex_id: str, reach: set[str] | None = None) -> bool:
        """7.32: a place is on the depot-source path when a clear road path joins it (or, off the
        road, a road hex next to it) to the source.  Choice (digest §11 #17): the path may be any
        walk along the road (7.11: any length), which fits 7.32 Ex, where Tobruk lies west of the
        depot at 3709 and has a clear line to Alexandria."""
        reach = self.road_reach(side) if reach is None else reach
        if hex_id in self.road_links:
            return hex_id in reach
        return any(n in reach for n in self.game.geometry.neighbours(hex_id))

    def zone_distance(self, side: str, a: str | None, b: str | None) -> int | None:
        za, zb = self.road_zones[side].get(a or ""), self.road_zones[side].get(b or "")
        return abs(ord(za) - ord(zb)) if za and zb else None

    def asp_holding(self) -> tuple[str | None, int]:
        """(side holding the ASPs, how many): the ASP marker's face and box (6.1)."""
        p = self.board.marker("asp")
        if p is None:
            return None, 0
        m = re.match(r"^Points (\d+)$", self.board.replayer.piece_where(p).label)
        faces = self.game.markers["asp"].faces if "asp" in self.game.markers else []
        level = max(1, p.layer_level("Face"))
        side = faces[level - 1].side if level <= len(faces) else None
        return side, int(m[1]) if m else 0

    def ap_box(self, side: str) -> int | None:
        p = self.board.marker(f"ap-{side}")
        m = re.match(r"^Points (\d+)$", self.board.replayer.piece_where(p).label) if p is not None else None
        return int(m[1]) if m else None
