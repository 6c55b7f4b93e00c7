"""The Air/Naval Support Phase (6.1, 6.2): the ASP award and Allied Naval Support.

Part of rank 20 of the digest's §10.1.  Each side rolls its "<Side> Air Superiority die" in the
phase; the modified result (the depot's road-zone modifier, clamped 1-6) gives each a score on
the turn's row of the Air Superiority Table (tables/air-superiority.yaml, reconstructed); the
higher scorer receives the difference as ASPs: the ASP marker, on that side's face, in that
box of the Air & Attack Points track (Points 0 when the scores are equal).  The Allies have
Naval Support when their unmodified die is 6 and they receive the ASPs.  Judged when the phase
ends, once both dice are rolled.

Choice (6.2): Naval Support shows as the naval-support marker out of its idle box
(tables/supply.yaml); with no Naval Support it is in the idle box.
"""
from __future__ import annotations

from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.points import column_for
from validators.kernel.tables import by_turn
from validators.games.western_desert_force.roads import Roads
from validators.replay.replayer import Rolled

AIR = "air-naval"


class AirRules(WdfRule):
    """6.1, 6.2: the Air Superiority dice give the higher scorer the difference as ASPs; an Allied
    unmodified 6 with the ASPs brings Naval Support."""

    ids = ("6.1", "6.2")
    needs = WdfRule.needs + (Roads,)

    def start(self) -> None:
        super().start()
        self.roads = self.ctx.get(Roads)
        self.air_table = self.tables.get("air-superiority", {})
        self._air_dice: dict[str, int] = {}

    def phase_started(self, pid: str) -> None:
        kind = self.phase_kind
        if kind == AIR:
            self._air_dice = {}

    def rolled(self, e: Rolled) -> None:
        if self.phase_kind == AIR and e.button.endswith(" Air Superiority die") and len(e.dice) == 1:
            side = self.board.side_ids.get(e.button[: -len(" Air Superiority die")])
            if side and side not in self._air_dice:
                self._air_dice[side] = e.dice[0]

    def phase_ended(self, pid: str) -> None:
        kind = self.phase_kind
        if kind == AIR and len(self._air_dice) == 2 and self.air_table:
            self._award()

    def air_score(self, side: str, die: int) -> int | None:
        mods = self.air_table.get("zone_modifiers", {}).get(side, {})
        zone = self.roads.depot_zone(side)
        mod = mods.get(zone, 0) if zone else self.air_table.get("no_depot_modifier", 0)
        row = by_turn(self.air_table.get("rows", []), self.turn or 0)
        return column_for(row["columns"], side, min(6, max(1, die + mod)), "score") if row else None

    def _award(self) -> None:
        scores = {s: self.air_score(s, d) for s, d in self._air_dice.items()}
        if None in scores.values():
            return
        (a, sa), (b, sb) = sorted(scores.items())
        winner = None if sa == sb else (a if sa > sb else b)
        want = (winner, abs(sa - sb)) if winner else (None, 0)
        holder, count = self.roads.asp_holding()
        note = self.state.reconstructed("air-superiority")
        told = ", ".join(f"{self.board.side_name(s)} {self._air_dice[s]} scores {scores[s]}" for s in sorted(scores))
        marker = self.board.marker("asp")
        if count != want[1] or (want[1] and holder != want[0]):
            who = f"{want[1]} {self.board.side_name(want[0])} ASPs" if want[1] else "no ASPs (Points 0)"
            self.find("6.1", f"Turn {self.turn}: {told}: {who}; the ASP marker shows {count} for "
                      f"{self.board.side_name(holder)}{note}", marker)
        naval = winner == "allied" and self._air_dice.get("allied") == self.air_table.get("naval_support_die", 6)
        has = self.supply.naval_support()
        if has != naval:
            spec = self.tables.get("supply", {}).get("naval_support", {})
            why = ("the Allies rolled a 6 and receive the ASPs: they have Naval Support" if naval else
                   "Naval Support comes only with an Allied unmodified 6 and the Allies receiving the ASPs")
            self.find("6.2", f"Turn {self.turn}: {why}; the naval support marker is "
                      f"{'not ' if not has else ''}in play", self.board.marker(spec.get("marker", "")))
