"""The Attack Point ledger (7.2, 7.3, 7.31, 7.32, 7.5, 7.9, 7.92, 10.3, 10.24, 12.1, 7.13, 7.14).

Rank 11 of the digest's §10.1.  Each side's AP marker sits in a box "Points N" of the Air &
Attack Points track; every move of it is checked against what the rules allow at that moment:

- its Attack Points segment: the table value for the depot's row (tables/attack-points.yaml)
  and the Organization die less the enemy ASPs declared spent (the ASP marker moved down before
  the roll), checked when the segment ends; the Axis Supply Level marker too (7.5);
- its Major Offensive segment: a flip to the Major Offensive face and a drop of the zone's cost,
  which must be affordable, then a Surprise die (7.9, 7.92);
- its combat phases: any drop (attacks, 10.3: the combat rules count them) or a rise of 1 (an
  overwhelming attack's refund, 10.24);
- its Regular Movement Phase: 1 AP for each IP built or upgraded (12.1), checked at its end;
- the loss of its depot (AP total to 0, 7.13, 7.14) and the capture of the enemy's (+1d6, 7.14);
- a random event's AP effect (5.0).

Choices:
- 7.32, digest §11 #18: a shift past row A or F stays on that row; the Moved shift does not
  change the Major Offensive cost (7.9 names only the Tobruk shift).
- digest §11 #17: Tobruk (and Benghazi for the +1) is on the depot's path when it is controlled
  and a clear road path joins it to the source (see `DepotRules.on_road_path`).
- digest §11 #38: the Organization die for the reserve requirement and the supply level is the
  die less the ASPs spent, without Benghazi, treated as 1-6 as for APs.
- digest §11 #10: the surprise modifier is +1 per full 3 APs over 6 before the cost (9 -> +1,
  12 -> +2); surprise on a modified 1 or 2.
- 7.31: with no depot on the map the Attack Points segment brings no APs (7.15 is reported).
- An AP marker moved in several hops within one segment is judged by where it ends.
"""
from __future__ import annotations

import re

from validators.games.western_desert_force.depot import DepotLosses
from validators.games.western_desert_force.events import RandomEvents
from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.roads import Roads
from validators.kernel.rule import Tracker
from builder.record import Record
from validators.replay.board import Piece
from validators.kernel.tables import by_turn, parse_range
from validators.replay.replayer import Added, Flipped, Moved, Removed, Rolled

POINTS = re.compile(r"^Points (\d+)$")


def column_for(columns: list[dict], side: str, value: int, heading: str) -> int | None:
    """The heading of the column whose "Axis/Allied" range holds `value` (7.31, 6.1)."""
    for c in columns:
        axis, _, allied = str(c["dice"]).partition("/")
        r = parse_range(axis if side == "axis" else allied)
        if r and r[0] <= value <= r[1]:
            return int(c[heading])
    return None


class Expected(Record):
    """An AP change the rules have made due: to a value (`to`) or by an amount (`by`)."""

    __slots__ = ("rule", "why", "to", "by")

    def __init__(self, rule: str, why: str, to: int | None = None, by: int = 0):
        self.rule, self.why, self.to, self.by = rule, why, to, by


class Segment(Record):
    """What an Organization segment saw: the AP total when it began, the roll, the ASPs."""

    __slots__ = ("ap", "spent", "roll", "expected", "why", "level", "surprise_rolled", "ips", "drops")

    def __init__(self, ap: int | None, spent: int = 0, roll: int | None = None, expected: int | None = None,
                 why: str = "", level: str | None = None, surprise_rolled: bool = False, ips: int = 0, drops: int = 0):
        self.ap, self.spent, self.roll, self.expected, self.why, self.level = ap, spent, roll, expected, why, level
        self.surprise_rolled, self.ips, self.drops = surprise_rolled, ips, drops


class Organization(Tracker):
    """7.31, 7.2: each side's Organization die of the turn, less the enemy ASPs spent against it
    (the ASP marker moved down since its Attack Points segment began): `result` {side: {"die",
    "spent", "modified" (clamped 1-6), "turn"}}; only the segment's first roll counts.  7.92:
    `surprise_won` {side: its Major Offensive of this player turn is a surprise}, from the
    Surprise die (+1 per 3 APs over 6 before the cost; one roll)."""

    needs = (Roads,)

    def start(self) -> None:
        self.roads = self.ctx.get(Roads)
        self.result: dict[str, dict] = {}
        self._asp: int | None = None  # ASPs when the side's Attack Points segment began
        self._rolled = False
        self.surprise_won: dict[str, bool] = {}
        self._mo_ap: int | None = None  # APs when the side's Major Offensive segment began
        self._surprised = False

    def phase_started(self, pid: str) -> None:
        st = self.state
        self._asp = self.roads.asp_holding()[1] if st.phase_kind == "attack-points" and st.phase_side else None
        self._rolled = False
        self._mo_ap, self._surprised = None, False
        if st.phase_kind == "major-offensive" and st.phase_side:
            self.surprise_won[st.phase_side] = False
            self._mo_ap = self.roads.ap_box(st.phase_side)

    def _surprise(self, side: str, die: int) -> None:
        if self._surprised or self.state.phase_kind != "major-offensive" or not self.roads.offensive_declared(side):
            return
        self._surprised = True
        s = self.tables.get("attack-points", {}).get("surprise", {})
        plus = max(0, (self._mo_ap or 0) - s.get("per_points_over", 6)) // s.get("points_per_plus", 3)
        self.surprise_won[side] = die + plus in s.get("success", [1, 2])

    def rolled(self, e: Rolled) -> None:
        side = self.state.phase_side
        if side is not None and e.button == f"{self.game.sides[side].name} Surprise die":
            self._surprise(side, e.dice[0])
        if (self._asp is None or self._rolled or self.state.phase_kind != "attack-points"
                or e.button != f"{self.game.sides[side].name} Organization die"):
            return
        self._rolled = True
        enemy_side, held = self.roads.asp_holding()
        spent = max(0, self._asp - held) if enemy_side == self.roads.enemy_of[side] else 0
        die = e.dice[0]
        self.result[side] = {"die": die, "spent": spent, "modified": min(6, max(1, die - spent)),
                             "turn": self.state.turn}


class PointsRules(WdfRule):
    """The Attack Point ledger: every move of an AP marker is one the rules allow at that moment
    (7.3, 7.31, 7.32, 7.5, 7.9-7.92, 12.1; a lost or captured depot 7.13, 7.14; an event 5.0),
    the ASPs spent before the Organization die (7.2)."""

    ids = ("7.2", "7.3", "7.31", "7.5", "7.9", "7.91", "7.92", "7.13", "7.14", "12.1", "5.0")
    covers = ('7.32',)
    needs = WdfRule.needs + (Roads, DepotLosses, RandomEvents, Organization)

    def start(self) -> None:
        super().start()
        self.roads, self.losses = self.ctx.get(Roads), self.ctx.get(DepotLosses)
        self.events = self.ctx.get(RandomEvents)
        self.events_note = self.state.reconstructed("random-events")
        self.ap_table = self.tables.get("attack-points", {})
        self.ap_reconstructed = self.state.reconstructed("attack-points")
        self.ap_order: list[str] = list(self.ap_table.get("order", "ABCDEF"))
        self.ap_now = {s: self.roads.ap_box(s) for s in self.game.sides}
        self.ap_due: dict[str, list[Expected]] = {s: [] for s in self.game.sides}
        self.capture_roll_due: dict[str, str] = {}  # capturer -> side whose depot it took
        self.org_segment: Segment | None = None

    # -- reading the track --------------------------------------------------------------------
    def row_for(self, side: str, moved: bool, tobruk: bool) -> str | None:
        """7.31, 7.32: the row of the depot's zone, one lower when Moved, one higher with Tobruk."""
        zone = self.roads.depot_zone(side)
        if zone not in self.ap_order:
            return None
        i = self.ap_order.index(zone) + (1 if moved else 0) - (1 if tobruk else 0)
        return self.ap_order[min(max(i, 0), len(self.ap_order) - 1)]

    def tobruk_shift(self, side: str, reach: set[str]) -> bool:
        h = self.place_hex.get("Tobruk")
        return h is not None and self.places.controller(h) == side and self.roads.on_road_path(side, h, reach)

    def benghazi_bonus(self, side: str, reach: set[str]) -> int:
        h = self.place_hex.get("Benghazi")
        return 1 if h is not None and self.places.controller(h) == side and self.roads.on_road_path(side, h, reach) else 0

    # -- the ledger ---------------------------------------------------------------------------
    def expect_ap(self, side: str, rule: str, why: str, *, to: int | None = None, by: int = 0) -> None:
        """Make an AP change due (a lost depot, a capture die, an event); settled when the marker
        reaches it, reported if still due when the phase ends."""
        now = self.ap_now.get(side)
        target = to if to is not None else (None if now is None else min(12, max(0, now + by)))
        if now is not None and target == now:
            return
        self.ap_due[side].append(Expected(rule, why, to, by))

    def _depot_losses(self) -> None:
        """7.13, 7.14: a depot lost takes the AP total to 0; its capturer rolls a die for APs."""
        if self.losses.taken is not None:
            side, capturer = self.losses.taken
            self.expect_ap(side, "7.14", "its depot was captured: the AP total goes to 0", to=0)
            self.capture_roll_due[capturer] = side
        if self.losses.cut_off is not None:
            self.expect_ap(self.losses.cut_off, "7.13", "its depot was removed as cut off: the AP total goes to 0", to=0)

    def moved(self, e: Moved) -> None:
        mid = e.piece.properties().get("MarkerId", "")
        if mid.startswith("ap-") and mid[3:] in self.game.sides:
            self._ap_moved(mid[3:], e.piece, e.old.label, e.new.label)
        elif mid == "asp":
            self._asp_moved(e.piece, e.old.label, e.new.label)
        elif mid == "ip":
            self._ip_built(e.old.label, e.new.label)
        if self.losses.taken is not None or self.losses.cut_off is not None:
            self._depot_losses()

    def added(self, e: Added) -> None:
        if e.piece.properties().get("MarkerId") == "ip":
            self._ip_built(None, e.where.label)
        self._depot_losses()

    def removed(self, e: Removed) -> None:
        self._depot_losses()

    def _ap_moved(self, side: str, p: Piece, old_label: str, new_label: str) -> None:
        m = POINTS.match(new_label)
        old = self.ap_now.get(side)
        new = int(m[1]) if m else None
        self.ap_now[side] = new
        if self.phase_kind is None or old == new:
            return
        name = self.board.side_name(side)
        if new is None:
            self.find("7.3", f"the {name} AP marker left the Air & Attack Points track (0-12) for {new_label}", p,
                      side=name)
            return
        if self._settles(side, old, new):
            return
        kind, own = self.phase_kind, self.active_side == side
        if own and kind in ("attack-points", "major-offensive"):
            return  # judged when the segment ends
        if own and kind in ("combat", "exploitation-combat") and old is not None and (new < old or new == old + 1):
            return  # 10.3: 1 AP an attack (counted by the combat rules); 10.24: a refund of 1
        if own and kind == "movement" and old is not None and new < old:
            if self.org_segment is not None:
                self.org_segment.drops += old - new
            return
        if self.ap_due[side]:
            x = self.ap_due[side].pop(0)
            want = x.to if x.to is not None else min(12, max(0, (old or 0) + x.by))
            self.find(x.rule, f"the {name} AP total should go from {old} to {want} ({x.why}); it went to {new}", p,
                      side=name)
            return
        self.find("7.3", f"the {name} AP marker moved from {old} to {new} in {self.phase}: APs change only in the "
                  "side's Attack Points segment (7.31), Major Offensive declaration (7.9), combat phases (1 per "
                  "attack, 10.3; refunds, 10.24) and Regular Movement (IPs, 12.1), on a depot's loss or capture "
                  "(7.13, 7.14) or by a random event (5.0)", p, side=name)

    def _settles(self, side: str, old: int | None, new: int) -> bool:
        """Whether the move reaches an AP change the rules made due."""
        for x in self.ap_due[side]:
            target = x.to if x.to is not None else (None if old is None else min(12, max(0, old + x.by)))
            if target == new:
                self.ap_due[side].remove(x)
                return True
        return False

    def _asp_moved(self, p: Piece, old_label: str, new_label: str) -> None:
        """7.2: the enemy's ASPs spent against the Organization die are declared before the roll."""
        seg = self.org_segment
        if seg is None or self.phase_kind != "attack-points":
            return
        if seg.roll is not None:
            self.find("7.2", f"the ASP marker moved from {old_label} to {new_label} after the Organization die: the "
                      "ASPs spent are declared before the roll and cannot be changed", p,
                      side=self.board.side_name(self.roads.enemy_of.get(self.active_side or "")))

    def _ip_built(self, old_label: str | None, new_label: str) -> None:
        """12.1: an IP placed on the map in the Regular Movement Phase costs 1 AP."""
        geo = self.game.geometry
        if self.org_segment is not None and self.phase_kind == "movement" and new_label in geo and old_label not in geo:
            self.org_segment.ips += 1

    def flipped(self, e: Flipped) -> None:
        mid = e.piece.properties().get("MarkerId", "")
        if mid.startswith("ap-") and mid[3:] in self.game.sides and e.layer == "Face":
            self._ap_flipped(mid[3:], e)
        elif mid == "ip" and e.new == 2 and e.where.label in self.game.geometry.ids \
                and self.org_segment is not None and self.phase_kind == "movement":
            self.org_segment.ips += 1  # 12.1: an upgrade to IP-2 costs 1 AP

    def _ap_flipped(self, side: str, e: Flipped) -> None:
        """7.9: the Major Offensive face goes up only in the side's declaration segment, and
        stays up for its whole player turn (7.91)."""
        if self.phase_kind is None:
            return
        name, own = self.board.side_name(side), self.active_side == side
        if e.new == 2 and not (own and self.phase_kind == "major-offensive"):
            self.find("7.9", f"a Major Offensive is declared only in the side's Major Offensive Declaration segment "
                      f"(flipped in {self.phase})", e.piece, side=name)
        elif e.old == 2 and own and self.phase_kind in ("movement", "combat", "exploitation-movement",
                                                          "exploitation-combat"):
            self.find("7.91", f"a Major Offensive lasts the whole player turn: the AP marker flipped back in "
                      f"{self.phase}", e.piece, side=name)

    # -- dice -----------------------------------------------------------------------------------
    def rolled(self, e: Rolled) -> None:
        if self.events.just is not None:  # 5.0: a random event's AP effect
            code, ev = self.events.just
            for side, n in ev.get("effect", {}).get("ap", {}).items():
                self.expect_ap(side, "5.0", f"random event {code}, {ev['name']}: {n:+d} AP{self.events_note}", by=int(n))
        for side, x in self.game.sides.items():
            if e.button == f"{x.name} Organization die":
                self._organization_die(side, e.dice[0])
            elif e.button == f"{x.name} Surprise die":
                self._surprise_die(side, e.dice[0])
            elif e.button == f"{x.name} 1d6" and side in self.capture_roll_due:
                taken = self.capture_roll_due.pop(side)
                self.expect_ap(side, "7.14", f"it captured the {self.board.side_name(taken)} depot and rolled {e.dice[0]}: "
                               "that many APs are added (at most 12)", by=e.dice[0])

    def _organization_die(self, side: str, die: int) -> None:
        seg, name = self.org_segment, self.board.side_name(side)
        if not (self.phase_kind == "attack-points" and self.active_side == side) or seg is None:
            self.find("7.31", f"the {name} Organization die is rolled in its Attack Points segment, not in "
                      f"{self.phase}", side=name)
            return
        if seg.roll is not None:
            self.find("7.31", f"one Organization die roll a segment: the first ({seg.roll}) counts, not {die}",
                      side=name)
            return
        seg.roll = die
        org = self.ctx.get(Organization).result[side]
        seg.spent, plain = org["spent"], org["modified"]
        self._expect_new_points(side, die, seg)
        if side == "axis":
            seg.level = self._supply_level(plain)

    def _expect_new_points(self, side: str, die: int, seg: Segment) -> None:
        """7.31, 7.32: the APs the table gives, added to the total (at most 12, 7.3)."""
        now = self.ap_now.get(side)
        if now is None or self.roads.depot_hex(side) is None:
            seg.expected, seg.why = now, "no depot on the map, no new APs"
            return
        reach = self.roads.road_reach(side)
        moved, tobruk = self.roads.depot_is_moved(side), self.tobruk_shift(side, reach)
        row = self.row_for(side, moved, tobruk)
        bonus = self.benghazi_bonus(side, reach)
        modified = min(6, max(1, die - seg.spent + bonus))
        columns = self.ap_table.get("rows", {}).get(row, {}).get("columns", []) if row else []
        gain = column_for(columns, side, modified, "ap")
        if gain is None:
            return
        seg.expected = min(12, now + gain)
        shifts = ", ".join(s for s, on in (("Moved: one row lower", moved), ("Tobruk: one row higher", tobruk)) if on)
        seg.why = (f"depot zone {self.roads.depot_zone(side)}{f' ({shifts})' if shifts else ''} -> row {row}; die {die}"
                   f" - {seg.spent} ASP{' + 1 Benghazi' if bonus else ''} = {modified} -> {gain} AP")

    def _supply_level(self, modified: int) -> str | None:
        t = self.tables.get("supply-level", {})
        row = by_turn(t.get("rows", []), self.turn or 0)
        return row["levels"][modified - 1] if row else None

    def _surprise_die(self, side: str, die: int) -> None:
        """7.92: one roll, on declaring a Major Offensive; +1 per 3 APs over 6 before the cost."""
        seg, name = self.org_segment, self.board.side_name(side)
        if not (self.phase_kind == "major-offensive" and self.active_side == side and seg is not None
                and self.roads.offensive_declared(side)):
            self.find("7.92", "the Surprise die is rolled when a Major Offensive is declared, in the Major "
                      f"Offensive Declaration segment (rolled in {self.phase})", side=name)
            return
        if seg.surprise_rolled:
            self.find("7.92", f"one Surprise die roll a Major Offensive, not a second ({die})", side=name)
            return
        seg.surprise_rolled = True

    # -- segments -------------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        self.org_segment = None
        if side is not None and kind in ("attack-points", "major-offensive", "movement"):
            self.org_segment = Segment(self.ap_now.get(side))

    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        seg = self.org_segment
        if seg is not None and side is not None:
            if kind == "attack-points":
                self._points_segment_ended(side, seg)
            elif kind == "major-offensive":
                self._offensive_segment_ended(side, seg)
            elif kind == "movement" and seg.drops != seg.ips:
                self.find("12.1", f"{seg.ips} IP(s) built or upgraded cost {seg.ips} AP; the AP marker went down by "
                          f"{seg.drops} in {self.phase}", self.board.marker(f"ap-{side}"), side=self.board.side_name(side))
        self.org_segment = None
        for s, due in self.ap_due.items():
            for x in due:
                self.find(x.rule, f"the {self.board.side_name(s)} AP total is still {self.ap_now.get(s)}: {x.why}",
                          self.board.marker(f"ap-{s}"), side=self.board.side_name(s))
            due.clear()
        for capturer, taken in list(self.capture_roll_due.items()):
            who = self.board.side_name(capturer)
            self.find("7.14", f"the {who} player captured the {self.board.side_name(taken)} depot: he rolls one die "
                      f"({who} 1d6) and adds it to his AP total", side=who)
        self.capture_roll_due.clear()

    def _points_segment_ended(self, side: str, seg: Segment) -> None:
        name, now = self.board.side_name(side), self.ap_now.get(side)
        p = self.board.marker(f"ap-{side}")
        if seg.roll is None:
            if now != seg.ap:
                self.find("7.31", f"the {name} AP marker moved from {seg.ap} to {now} without an Organization die "
                          "roll", p, side=name)
            return
        if seg.expected is not None and now != seg.expected:
            self.find("7.31", f"the {name} AP total should go from {seg.ap} to {seg.expected} ({seg.why}); it is "
                      f"{now}{self.ap_reconstructed}", p, side=name)
        if seg.level is not None:
            marker = self.board.marker("supply-level")
            where = self.board.replayer.piece_where(marker).label if marker else None
            want = self.game.zone_name("supply", seg.level) if "supply" in self.game.tracks else seg.level
            if where != want:
                note = self.state.reconstructed("supply-level")
                self.find("7.5", f"Turn {self.turn}, modified die {self.ctx.get(Organization).result[side]['modified']}: the Axis Supply "
                          f"Level is {seg.level}; the marker is in {where}{note}", marker, side=name)

    def _offensive_segment_ended(self, side: str, seg: Segment) -> None:
        """7.9: the cost of the depot's row (Tobruk shift only) is paid at once and must be there."""
        name, now, p = self.board.side_name(side), self.ap_now.get(side), self.board.marker(f"ap-{side}")
        if not self.roads.offensive_declared(side):
            if now != seg.ap:
                self.find("7.9", f"the {name} AP marker moved from {seg.ap} to {now} in the Major Offensive "
                          "segment without a declaration (the marker's Major Offensive face)", p, side=name)
            return
        row = self.row_for(side, False, self.tobruk_shift(side, self.roads.road_reach(side)))
        cost = self.ap_table.get("rows", {}).get(row, {}).get("mo_cost") if row else None
        if cost is not None and seg.ap is not None:
            why = f"zone {self.roads.depot_zone(side)}, row {row}: cost {cost}"
            if seg.ap < cost:
                self.find("7.9", f"a Major Offensive costs {cost} AP ({why}); the {name} player has {seg.ap}: it may "
                          f"not be declared{self.ap_reconstructed}", p, side=name)
            elif now != seg.ap - cost:
                self.find("7.9", f"declaring the Major Offensive takes the {name} AP total from {seg.ap} to "
                          f"{seg.ap - cost} ({why}); it is {now}{self.ap_reconstructed}", p, side=name)
        if not seg.surprise_rolled:
            self.find("7.92", f"the {name} player declared a Major Offensive without rolling the Surprise die",
                      p, side=name)
