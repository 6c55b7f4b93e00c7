"""Replacements (7.6-7.63): how many, for whom, and who may receive them.

Rank 16 of the digest's §10.1.  In his Replacements segment a side spends the points of the
Game Turn Track (tables/replacements.yaml), plus one non-armor point at Axis supply level
Excellent or Normal and any a random event gave (5.0).  A replacement shows in the log as a
Step flip of a reduced unit to its full face (1 point), or as a unit moved out of its side's
Recoverable Eliminated box to where reinforcements enter, on the face it returns with (reduced
1 point, full 2); the Allies' free armor refit (7.62) is the first armor unit restored in the
Reserve Box.  The segment is judged when the turn tracker leaves it.

Choices:
- 7.6: a unit on the map must be supplied and out of enemy ZOC when the segment begins (8.0
  item 1); the ZOC is not negated by friendly units (7.6 names no exception, unlike 8.1).
- 7.61: of the Allied points at most half (at least one) go to armor; 7.63: of two Axis track
  points one is German and one Italian; the supply-level point is non-armor, of either
  nationality; an event's points go to anyone.
- Only a unit of the side whose segment it is, and only a flip or a move in that segment, is
  a replacement; other restorations are not this rule's business.
"""
from __future__ import annotations

import math
from validators.games.western_desert_force.events import RandomEvents
from validators.games.western_desert_force.base import WdfRule
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Flipped, Moved

REPLACEMENTS = "replacements"


class Use(Record):
    """One unit given replacements this segment."""

    __slots__ = ("piece", "where", "returned", "ok_on_map")

    def __init__(self, piece: Piece, where: str, returned: bool, ok_on_map: bool | None = None):
        self.piece = piece
        self.where = where  # hex or box where it stood when restored, or the box it returned from
        self.returned = returned  # back from the Recoverable Eliminated box
        self.ok_on_map = ok_on_map  # supplied and out of EZOC when the segment began (units on the map)


class ReplacementRules(WdfRule):
    """7.6-7.63: in his Replacements segment a side spends the points the track, its supply level and
    random events give, on units that may receive them."""

    ids = ('7.6', '7.61', '7.62', '7.63')
    needs = WdfRule.needs + (RandomEvents,)
    acts_in = {"moved": (REPLACEMENTS,), "flipped": (REPLACEMENTS,)}

    def start(self) -> None:
        super().start()
        self.events = self.ctx.get(RandomEvents)
        self.repl = self.tables.get("replacements", {})
        self._uses: dict[str, Use] = {}
        self._fit: dict[str, bool] = {}  # piece id -> supplied and out of EZOC when the segment began

    # -- hooks ------------------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == REPLACEMENTS and side and self.repl:
            self._uses = {}
            self._fit = {}
            zoc = self.supply.ezoc(side)
            for h, pieces in self.supply.unit_hexes(side).items():
                ok = self.supply.supplied(h, side) and h not in zoc
                self._fit.update({p.id: ok for p in pieces})

    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == REPLACEMENTS and side and self.repl:
            self._judge_replacements(side)
            self._uses = {}

    def flipped(self, e: Flipped) -> None:
        if (self.phase_kind == REPLACEMENTS and e.layer == "Step" and e.old == 2 and e.new == 1
                and self.board.unit_of(e.piece) and self.board.side_id(e.piece) == self.active_side
                and e.piece.id not in self._uses):
            where = e.where.label
            on_map = where in self.game.geometry.ids
            self._uses[e.piece.id] = Use(e.piece, where, False, self._fit.get(e.piece.id) if on_map else None)
            if on_map and e.piece.id not in self._fit:
                side = self.active_side
                self._uses[e.piece.id].ok_on_map = self.supply.supplied(where, side) and where not in self.supply.ezoc(side)

    def moved(self, e: Moved) -> None:
        if self.phase_kind != REPLACEMENTS or not self.repl or not self.board.unit_of(e.piece):
            return
        side = self.board.side_id(e.piece)
        if side != self.active_side:
            return
        name, old = self.supply.side_name(side), e.old.label
        before = self._uses.get(e.piece.id)
        if before is not None and not (before.where == old and not before.returned):
            return  # already counted (a flip in the box before the move is part of the return)
        if old == self.repl["recoverable"].format(side=name):
            self._uses[e.piece.id] = Use(e.piece, old, True)
        elif old == self.repl["permanent"].format(side=name):
            self.find("7.6", f"a permanently eliminated unit never returns: only units in the {name} Recoverable "
                      "Eliminated box receive replacements", e.piece)

    # -- the segment's account ----------------------------------------------------------------------
    def _points(self, side: str) -> tuple[int, int, int]:
        """(track points, supply-level points, event points) this turn (7.6, 7.63, 5.0)."""
        turn = self.turn or 0
        track = int(self.repl.get(side, {}).get(turn, 0))
        level = self.supply.supply_level() if side == "axis" else None
        bonus = int(self.repl.get("supply_level_bonus", {}).get(level, 0)) if level else 0
        event = self.events.replacements.get((turn, side), 0)
        return track, bonus, event

    def _cost(self, u: Use) -> int:
        p = self.board.replayer.board.pieces.get(u.piece.id, u.piece)
        if not u.returned:
            return 1
        unit = self.board.unit_of(p)
        return 2 if unit.steps == 2 and not self.board.reduced(p) else 1

    def _judge_replacements(self, side: str) -> None:
        name = self.supply.side_name(side)
        armor_types = set(self.repl.get("armor_types", ("armor",)))
        points: list[tuple[str, bool]] = []  # (nationality, armor) of each point spent
        refit_free = side == self.repl.get("refit", {}).get("side")
        for u in self._uses.values():
            attrs = self.supply.unit_attrs(u.piece)
            armor = attrs["type"] in armor_types
            if u.ok_on_map is False:
                self.find("7.6", f"{u.piece.name} in {u.where} was unsupplied or in an enemy ZOC when the Replacements "
                          "segment began: it may not receive a replacement", u.piece, u.where, side=name)
                continue
            if u.returned:
                self._check_return(u, name)
            if refit_free and armor and not u.returned and u.where == self.repl["refit"]["box"]:
                refit_free = False  # 7.62: the free refit of one reduced armor unit in the Reserve Box
                continue
            points += [(attrs["nationality"], armor)] * self._cost(u)
        if not points:
            return
        track, bonus, event = self._points(side)
        total = track + bonus + event
        spent = len(points)
        names = ", ".join(sorted({u.piece.name for u in self._uses.values()}))
        if spent > total:
            why = f"{track} on the Game Turn Track" + (f" + {bonus} for the supply level" if bonus else "") + \
                (f" + {event} from a random event" if event else "")
            self.find("7.6", f"{spent} replacement point(s) spent ({names}); Turn {self.turn} gives the {name} "
                      f"{total} ({why}){self.state.reconstructed('replacements')}", side=name)
            return
        if side == "allied":
            armor = sum(1 for _, a in points if a)
            cap = max(1, math.floor(total * float(self.repl.get("allied_armor_share", 0.5))))
            if armor > cap:
                self.find("7.61", f"{armor} of the {total} Allied replacement points went to armor ({names}): at most "
                          f"{cap}, never both of two", side=name)
        elif not self._axis_fits(points, track, bonus, event):
            self.find("7.63", f"the Axis replacement points ({names}) do not split as 7.63 requires: of two track "
                          "points one Italian and one German; the supply-level point non-armor", side=name)

    def _check_return(self, u: Use, side_name: str) -> None:
        p = self.board.replayer.board.pieces.get(u.piece.id, u.piece)
        where = self.board.replayer.piece_where(p).label
        allowed = self.repl.get("return_to", {}).get(self.board.side_id(p), ())
        if allowed and where not in allowed:
            self.find("7.6", f"a unit back from the {u.where} box returns as a reinforcement, to "
                      f"{' or '.join(allowed)}, not {where}", p, u.where, where, side=side_name)

    def _axis_fits(self, points: list[tuple[str, bool]], track: int, bonus: int, event: int) -> bool:
        """7.63: whether the points spent fit the pools (one German and one Italian of two
        track points, the rest of the track any, the supply-level point non-armor, events any)."""
        split = list(self.repl.get("axis_split", ()))
        pools: list[tuple[int, object]] = []  # (capacity, accepts(nationality, armor))
        if track >= 2 and split:
            pools += [(1, lambda n, a, s=s: n == s) for s in split]
            pools.append((track - len(split), lambda n, a: True))
        else:
            pools.append((track, lambda n, a: True))
        pools += [(bonus, lambda n, a: not a), (event, lambda n, a: True)]
        caps = [c for c, _ in pools]

        def place(i: int) -> bool:
            if i == len(points):
                return True
            n, a = points[i]
            for k, (_, accepts) in enumerate(pools):
                if caps[k] > 0 and accepts(n, a):
                    caps[k] -= 1
                    if place(i + 1):
                        return True
                    caps[k] += 1
            return False
        return place(0)
