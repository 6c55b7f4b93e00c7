"""Leaders on the map and their casualties (13.1, 13.6).

Rank 19 of the digest's §10.1 (13.3-13.5 are audited with combat, supply and movement; 13.7's
Montgomery arrives by the reinforcement schedule, reserves.py).

- 13.1: at most one Allied, one German and one Italian leader on the map, counted when each
  phase ends (a swap may put two down for a moment); reported once while the same leaders stay.
- 13.6: a combat unit stacked with a leader eliminated (moved off the map, or deleted) makes the
  leader roll for casualty, a casualty on a 1; all of them eliminated, or an enemy unit entering
  the leader's hex, on 1-3.  The roll is the leader's side's "<Side> 1d6" after the event, in
  the same phase.  A primary leader who becomes a casualty turns to his secondary face and goes
  to the next turn's box on the turn track; a secondary one leaves the game; a survivor of
  the 1-3 check is placed with the nearest friendly combat unit (hex distance, ignoring enemy
  units and ZOC).  Judged when the phase ends.

A random event's casualty (5.0, Rommel Assassination) is judged like a check that failed.

Choices (13.6): one check per leader per phase, at the worst trigger of the phase; with two Axis
leaders in the hex, each is checked (the log cannot show which one fought); the rolls go to the
leaders in the order their checks arose.
"""
from __future__ import annotations

from validators.games.western_desert_force.events import RandomEvents
from validators.games.western_desert_force.base import WdfRule
from validators.kernel.rule import Tracker
from builder.record import Record
from validators.replay.replayer import Added, Moved, Removed, Rolled

LEADER_LAYER = "Leader"


class Check(Record):
    """One leader's casualty check (13.6)."""

    __slots__ = ("leader", "hex", "face", "worst", "roll")

    def __init__(self, leader, hex: str, face: int, worst: int, roll: int | None = None):
        self.leader = leader  # his Piece
        self.hex = hex
        self.face = face  # 1 primary, 2 secondary, when the check arose
        self.worst = worst  # the highest roll that makes him a casualty: 1 or 3 (6: a random event's casualty)
        self.roll = roll


class CasualtyChecks(Tracker):
    """13.6: the leaders' casualty checks of the phase, by leader piece id, and the rolls given
    to them (a random event's casualty, 5.0, is a check failed for certain)."""

    needs = (RandomEvents,)

    def start(self) -> None:
        self.events = self.ctx.get(RandomEvents)
        self.checks: dict[str, Check] = {}  # leader piece id -> his check this phase
        self._leaders: tuple[int, list] = (-1, [])  # (board roster, every leader's piece)
        self._spots: tuple[list, dict[str, list]] = ([], {})  # (the leaders' positions, hex -> the leaders in it)

    def phase_started(self, pid: str) -> None:
        self.checks = {}  # the phase before was judged when it ended

    def displaced(self, p) -> bool:
        """A leader who rolled his casualty check this phase: his placement is not movement (13.6)."""
        c = self.checks.get(p.id)
        return c is not None and c.roll is not None

    def _leaders_in(self, hex_id: str, side: str | None) -> list:
        return [p for p in self.board.leaders_in(hex_id) if self.board.side_id(p) == side]

    def _leader_hexes(self) -> dict[str, list]:
        """The leaders by hex, kept while every leader stands where he stood: asked at every move
        (an enemy unit entering a leader's hex), and a few positions compared cost less than
        finding each leader's hex.  A piece is a leader by its LeaderId, fixed in the module."""
        board = self.board.replayer.board
        roster, leaders = self._leaders
        if roster != board.roster:
            leader_of = self.board.leader_of
            roster, leaders = self._leaders = (board.roster, [p for p in board.pieces.values() if leader_of(p)])
        where = [(p.map, p.x, p.y) for p in leaders]
        if where != self._spots[0]:
            hex_of = self.board.hex_of
            spots: dict[str, list] = {}
            for p in leaders:
                h = hex_of(p)
                if h is not None:
                    spots.setdefault(h, []).append(p)
            self._spots = (where, spots)
        return self._spots[1]

    def _need(self, leader, hex_id: str, worst: int) -> None:
        c = self.checks.get(leader.id)
        if c is None:
            face = max(1, leader.layer_level(LEADER_LAYER))
            self.checks[leader.id] = Check(leader, hex_id, face, worst)
        elif c.roll is None:
            c.worst = max(c.worst, worst)

    def _event_casualty(self, face_name: str) -> None:
        """5.0: a random event makes the leader on the map showing this face a casualty (13.6)."""
        for h, pieces in self.board.by_hex().items():
            for p in pieces:
                leader = self.board.leader_of(p)
                if leader is None:
                    continue
                face = max(1, p.layer_level(LEADER_LAYER))
                if leader.faces[min(face, len(leader.faces)) - 1].name == face_name:
                    self.checks[p.id] = Check(p, h, face, 6, roll=1)  # a casualty for certain

    # -- triggers -------------------------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        kind, old, new = self.state.phase_kind, e.old.label, e.new.label
        if kind is None or old == new or not self.board.unit_of(e.piece):
            return
        geo = self.game.geometry.ids
        if new not in geo:
            if old in geo and kind in ("combat", "exploitation-combat"):
                self._lost_from(old, self.board.side_id(e.piece))
        else:
            here = self._leader_hexes().get(new)
            if not here:
                return
            enemy = self.board.other_side.get(self.board.side_id(e.piece))
            leaders = [p for p in here if self.board.side_id(p) == enemy]
            if len(leaders) > 1:
                leaders = self._leaders_in(new, enemy)  # in the hex's order: the order of their checks
            for leader in leaders:
                self._need(leader, new, 3)  # an enemy unit enters the leader's hex

    def removed(self, e: Removed) -> None:
        if self.state.phase_kind in ("combat", "exploitation-combat") and self.board.unit_of(e.piece) \
                and e.where.label in self.game.geometry.ids:
            self._lost_from(e.where.label, self.board.side_id(e.piece))

    def _lost_from(self, hex_id: str, side: str | None) -> None:
        leaders = self._leaders_in(hex_id, side)
        if not leaders:
            return
        left = [p for p in self.board.units_in(hex_id) if self.board.side_id(p) == side]
        for leader in leaders:
            self._need(leader, hex_id, 1 if left else 3)

    def rolled(self, e: Rolled) -> None:
        if self.events.just is not None and "leader_casualty" in self.events.just[1].get("effect", {}):
            self._event_casualty(self.events.just[1]["effect"]["leader_casualty"])
        if e.button.endswith(" 1d6") and len(e.dice) == 1:
            side = self.board.side_ids.get(e.button[:-4])
            c = next((c for c in self.checks.values() if c.roll is None and self.board.side_id(c.leader) == side), None)
            if c is not None:
                c.roll = e.dice[0]


class LeaderRules(WdfRule):
    """13.1: one Allied, one German and one Italian leader on the map at most; 13.6: a leader's
    casualty check rolled and its result carried out."""

    ids = ("13.1", "13.6")
    covers = ('13.2',)
    needs = WdfRule.needs + (CasualtyChecks,)

    def start(self) -> None:
        super().start()
        self.casualties = self.ctx.get(CasualtyChecks)
        self._too_many: dict[str, frozenset] = {}  # 13.1: the group over its limit, as reported
        self._leaders: list | None = None  # _leader_pieces()
        self._calm: list | None = None  # where the leaders stood when no group was over its limit

    # -- judged when the phase ends -------------------------------------------------------------------
    def phase_ended(self, pid: str) -> None:
        for c in self.casualties.checks.values():
            self._judge_check(c)
        self._count_leaders()

    def _judge_check(self, c: Check) -> None:
        board = self.board.replayer.board.pieces
        p = board.get(c.leader.id)
        name = c.leader.name
        why = "a unit stacked with him was eliminated" if c.worst == 1 else \
            "all units stacked with him were eliminated, or an enemy unit entered his hex"
        if c.roll is None:
            self.find("13.6", f"{why} in {c.hex}: {name} rolls for casualty ({self.supply.side_name(self.board.side_id(c.leader))} "
                      f"1d6, a casualty on {'1' if c.worst == 1 else '1-3'})", c.leader, c.hex)
            return
        where = self.board.replayer.piece_where(p).label if p is not None and p.map else None
        if c.roll <= c.worst:
            nxt = f"Turn {(self.turn or 0) + 1}"
            if c.face == 1 and len(self.board.leader_of(c.leader).faces) > 1:
                if p is None or where != nxt or max(1, p.layer_level(LEADER_LAYER)) != 2:
                    self.find("13.6", f"{name} is a casualty (rolled {c.roll}): he turns to his secondary face and goes "
                              f"to the {nxt} box as a reinforcement, not {where or 'out of play'}", c.leader, c.hex, where)
            elif where in self.game.geometry.ids or (where or "").startswith("Turn "):
                self.find("13.6", f"{name}, a secondary leader, is a casualty (rolled {c.roll}): he is removed from the "
                          "game", c.leader, c.hex, where)
            return
        if c.worst == 3:
            self._survivor(c, p, where)

    def _survivor(self, c: Check, p, where: str | None) -> None:
        side = self.board.side_id(c.leader)
        geo = self.game.geometry
        friends = [h for h, ps in self.supply.unit_hexes(side).items() if ps]
        if not friends or p is None:
            return
        best = min(geo.distance(c.hex, h) for h in friends)
        if where in friends and geo.distance(c.hex, where) == best:
            return
        near = ", ".join(sorted(h for h in friends if geo.distance(c.hex, h) == best))
        self.find("13.6", f"{c.leader.name} survived the casualty check (rolled {c.roll}): he is placed with the nearest "
                  f"friendly unit ({near}), not {where or 'off the map'}", c.leader, c.hex, where)

    def _leader_pieces(self) -> list:
        """Every leader's piece, on the map or not; kept until a piece comes or goes."""
        if self._leaders is None:
            self._leaders = [p for p in self.board.replayer.board.pieces.values() if self.board.leader_of(p)]
        return self._leaders

    def added(self, e: Added) -> None:
        self._leaders = self._calm = None

    removed = added

    def _count_leaders(self) -> None:
        """13.1: one Allied, one German and one Italian leader on the map at most."""
        if self.phase_kind is None:
            return
        leaders = self._leader_pieces()
        places = [(p.map, p.x, p.y) for p in leaders]
        if places == self._calm and not self._too_many:
            return  # the leaders stand where they stood when no group was over
        groups: dict[str, list] = {}
        for p in self.board.board_order([p for p in leaders if self.board.hex_of(p)]):
            side = self.board.side_id(p)
            key = self.board.leader_of(p).nationality if side == "axis" else side
            groups.setdefault(key or "", []).append(p)
        over = {k: ps for k, ps in groups.items() if len(ps) > 1}
        self._calm = None if over else places
        for key, ps in sorted(over.items()):
            ids = frozenset(p.id for p in ps)
            if self._too_many.get(key) != ids:  # one finding while the same leaders stay together
                self._too_many[key] = ids
                names = ", ".join(sorted(p.name for p in ps))
                self.find("13.1", f"at most one {key.title()} leader on the map: {names} at the end of {self.phase}",
                          ps[-1])
        for key in set(self._too_many) - set(over):
            del self._too_many[key]
