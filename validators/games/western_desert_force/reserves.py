"""Reinforcements, withdrawals and the Allied reserve requirement (7.4, 7.7, 7.8).

Rank 17 of the digest's §10.1.  Reinforcements wait on the turn track in the box of their turn
(the scenario's schedule) and enter in their side's Reinforcement segment at the scenario's
entry hex (Axis 1019, Allied Alexandria) or, Allied, into the Reserve Box.  Allied units go into
the Reserve Box from the turn's arrivals or withdrawn from the map; at the end of the Allied
Reinforcement-Withdrawal segment the reserve value in the box (a full-strength two-step unit 1,
a reduced or one-step unit 1/2) must reach the Allied Reserves Requirement table's number for
the turn and the Allied Organization modified die, unless six or fewer Allied units are left on
the map: then each such turn is a failure worth 3 VP to the Axis (17.2, counted by victory.py
from `reserve_failures`).

Choices:
- 7.4: units on the map are counted as pieces (combat units; digest §11 #24, the 7.8 Ex); the
  die is the Organization die of the turn as clamped for the AP table (digest §11 #38); with no
  Organization roll logged this turn the requirement is not judged.
- 7.7: a combat unit of the turn's box still there when its side's Reinforcement segment ends
  has not arrived as it must (an older box is an earlier turn's business: a log may begin
  mid-game); leaders are not held to this (13.7: Montgomery is a choice; 13.6 returns are not
  in the schedule).
- 7.8: withdrawn units must be supplied when the segment begins (they may be in an enemy ZOC);
  units enter or leave the Reserve Box only in the Allied Reinforcement-Withdrawal segment.
"""
from __future__ import annotations

from fractions import Fraction

from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.points import Organization
from validators.games.western_desert_force.roads import Roads
from validators.games.western_desert_force.supply import Supply
from validators.kernel.rule import Tracker
from validators.kernel.tables import by_turn
from validators.replay.replayer import Moved

REINFORCEMENTS = "reinforcements"


class Reserve(Tracker):
    """7.4: the Allied reserve requirement, judged when the side's Reinforcement-Withdrawal segment
    ends: `verdict` (required, value in the box, units on the map) when the box falls short, else
    None; `failures`, the turns it fell short with six or fewer units on the map (3 VP, 17.2)."""

    needs = (Organization, Supply)

    def start(self) -> None:
        self.reserve_spec = self.tables.get("reserves", {})
        self.failures: list[int] = []
        self.verdict: tuple[int, Fraction, int] | None = None

    def phase_ended(self, pid: str) -> None:
        side = self.state.phase_side
        self.verdict = None
        if self.state.phase_kind != REINFORCEMENTS or not side or side != self.reserve_spec.get("side"):
            return
        required = self.required_reserve()
        if required is None:
            return
        have = self.reserve_value()
        if have >= required:
            return
        on_map = sum(len(ps) for ps in self.ctx.get(Supply).unit_hexes(side).values())
        self.verdict = (required, have, on_map)
        if on_map <= int(self.reserve_spec.get("map_floor", 6)):
            self.failures.append(self.state.turn or 0)

    def reserve_value(self) -> Fraction:
        """7.4: full-strength two-step units 1, reduced two-step and one-step units 1/2."""
        values = self.reserve_spec.get("unit_values", {"full": 1, "reduced": 0.5, "one_step": 0.5})
        total = Fraction(0)
        box = self.reserve_spec.get("reserve_box", "Allied Reserve")
        for p in self.board.replayer.board.pieces.values():
            unit = self.board.unit_of(p)
            if unit is None or not p.map or self.board.replayer.piece_where(p).label != box:
                continue
            kind = "one_step" if unit.steps == 1 else "reduced" if self.board.reduced(p) else "full"
            total += Fraction(str(values[kind]))
        return total

    def required_reserve(self) -> int | None:
        org = self.ctx.get(Organization).result.get(self.reserve_spec.get("side"))
        if not org or org.get("turn") != self.state.turn:
            return None
        row = by_turn(self.reserve_spec.get("rows", ()), self.state.turn or 0)
        return int(row["required"][min(6, max(1, int(org["modified"]))) - 1]) if row else None


class ReserveRules(WdfRule):
    """7.7: reinforcements enter on their turn, in their segment, where the schedule says; 7.8: the
    Reserve Box only in the Allied Reinforcement-Withdrawal segment; 7.4: the reserve requirement."""

    ids = ('7.4', '7.7', '7.8')
    covers = ('13.7',)
    needs = WdfRule.needs + (Roads, Reserve)
    acts_in = {"unit_step": ()}  # its `moved` reads units and leaders leaving a turn's box or entering the Reserve Box

    def start(self) -> None:
        super().start()
        self.roads = self.ctx.get(Roads)
        self.reserve_spec = self.tables.get("reserves", {})
        self.reserve = self.ctx.get(Reserve)
        self.box = self.reserve_spec.get("reserve_box", "Allied Reserve")
        self.arrivals: dict[str, tuple[int, str | None]] = {}  # unit id -> (turn, entry hex or box)
        scenarios = list(self.game.scenarios.values())
        scenario = self.game.scenarios.get("campaign") or (scenarios[0] if len(scenarios) == 1 else None)
        for r in getattr(scenario, "reinforcements", ()) if scenario else ():
            for u in r.units:
                self.arrivals[u] = (r.turn, r.hex or r.box)
        self._withdrawable: dict[str, bool] = {}  # piece id -> supplied when the segment began (7.8)

    @staticmethod
    def _waiting_turn(label: str) -> int | None:
        if label.startswith("Turn "):
            try:
                return int(label[5:])
            except ValueError:
                return None
        return None

    # -- hooks ------------------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == REINFORCEMENTS and side == self.reserve_spec.get("side"):
            self._withdrawable = {p.id: self.supply.supplied(h, side)
                                  for h, ps in self.supply.unit_hexes(side).items() for p in ps}

    def phase_ended(self, pid: str) -> None:
        kind, side = self.phase_kind, self.active_side
        if kind == REINFORCEMENTS and side:
            self._late_arrivals(side)
            if self.reserve.verdict is not None:
                self._requirement(side, *self.reserve.verdict)

    def moved(self, e: Moved) -> None:
        if self.phase_kind is None or not (self.board.unit_of(e.piece) or self.board.leader_of(e.piece)):
            return
        old, new, box = e.old.label, e.new.label, self.box
        waiting = self._waiting_turn(old)
        if waiting is not None and new != old:
            self._arrival(e, waiting)  # units and leaders (13.7: Montgomery on Turn 21)
            return
        if not self.board.unit_of(e.piece):
            return
        if old == box and new != box:
            self._leaves_reserve(e)
        elif new == box and old != box:
            self._enters_reserve(e)

    # -- acts -----------------------------------------------------------------------------------------
    def _arrival(self, e: Moved, waiting: int) -> None:
        p, side = e.piece, self.board.side_id(e.piece)
        if self.phase_kind != REINFORCEMENTS or self.active_side != side:
            self.find("7.7", f"reinforcements enter in their side's Reinforcement segment, not in {self.phase}", p)
            return
        if waiting > (self.turn or 0):
            self.find("7.7", f"{p.name} waits for Turn {waiting}: it may not enter on Turn {self.turn}", p)
            return
        props = p.properties()
        entry = self.arrivals.get(props.get("UnitId") or props.get("LeaderId", ""), (None, None))[1]
        allowed = {entry} if entry else set()
        if side == self.reserve_spec.get("side"):
            allowed.add(self.box)
        if allowed and e.new.label not in allowed:
            self.find("7.7", f"{p.name} enters at {' or '.join(sorted(allowed))}, not {e.new.label}", p)

    def _leaves_reserve(self, e: Moved) -> None:
        p = e.piece
        if self.phase_kind != REINFORCEMENTS or self.active_side != self.reserve_spec.get("side"):
            self.find("7.8", f"units leave the Reserve Box only as reinforcements in the Allied "
                      f"Reinforcement-Withdrawal segment, not in {self.phase}", p)
            return
        unit = self.board.unit_of(p)
        if unit.steps == 2 and self.board.reduced(p):
            self.find("7.8", f"{p.name} is reduced: reduced reserve units may not be used as reinforcements", p)
        exit_hex = self.reserve_spec.get("reserve_exit")
        if exit_hex and e.new.label in self.game.geometry.ids and e.new.label != exit_hex:
            self.find("7.7", f"a reserve unit enters the map as a reinforcement at {exit_hex}, not {e.new.label}", p)

    def _enters_reserve(self, e: Moved) -> None:
        p, side = e.piece, self.board.side_id(e.piece)
        if side != self.reserve_spec.get("side"):
            self.find("7.8", f"only Allied units go into the {self.box}", p)
            return
        if self.phase_kind != REINFORCEMENTS or self.active_side != side:
            self.find("7.8", f"units go into the Reserve Box only in the Allied Reinforcement-Withdrawal segment, "
                      f"not in {self.phase}", p)
            return
        old = e.old.label
        if old in self.game.geometry.ids and not self._withdrawable.get(p.id, True):
            self.find("7.8", f"{p.name} was unsupplied in {old} when the segment began: only supplied units are "
                      "withdrawn to the Reserve Box", p)

    # -- the end of the segment ---------------------------------------------------------------------
    def _late_arrivals(self, side: str) -> None:
        replayer = self.board.replayer
        pieces = replayer.board.pieces.values()
        if self.turn is not None:  # only the pieces in this turn's box of the turn track, found by their places
            box = {i for key, ids in replayer.board.at.items()
                   if key[0] and self._waiting_turn(replayer.where(*key).label) == self.turn for i in ids}
            pieces = [p for p in pieces if p.id in box] if box else []
        for p in pieces:
            waiting = self._waiting_turn(replayer.piece_where(p).label) if p.map else None
            if waiting != self.turn or not self.board.unit_of(p) or self.board.side_id(p) != side:
                continue
            if self.arrivals.get(p.properties().get("UnitId", ""), (None,))[0] is None:
                continue  # not in the schedule (a unit returned by replacement waits by choice)
            self.find("7.7", f"{p.name} arrives on Turn {waiting}: it is still on the turn track when the "
                      f"{self.phase} segment ends", p)

    def _requirement(self, side: str, required: int, have: Fraction, on_map: int) -> None:
        floor = int(self.reserve_spec.get("map_floor", 6))
        note = self.state.reconstructed("reserves")
        name = self.supply.side_name(side)
        if on_map > floor:
            self.find(self.reserve_spec.get("rule", "7.4"), f"Turn {self.turn}: the {name} Reserve Box holds "
                      f"{_show(have)} reserve units of the {required} required, with {on_map} units on the map "
                      f"(more than {floor}): the requirement is mandatory{note}", side=name)
            return
        vp = self.reserve_spec.get("failure_vp", 3)
        self.find(self.reserve_spec.get("rule", "7.4"), f"Turn {self.turn}: the {name} reserve is {_show(have)} of "
                  f"{required} with {on_map} units on the map: the requirement is not met, the Axis gain {vp} VP "
                  f"(17.2){note}", side=name, kind="event")


def _show(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):g}"
