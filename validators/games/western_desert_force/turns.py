"""Turn structure (3.1, 4.0) and Random Events (5.0).

Rank 25 of the digest's §10.1, with the random events roll of rank 23.

Choices:
- 4.0: the turn tracker may skip forward over segments and phases (a segment with nothing to
  do is often skipped), and into the next turn; it may not go back to an earlier phase of the
  turn, back to an earlier turn, or jump over a whole turn.  The first phase a log shows is where
  the log begins (a log may continue a saved game), so it is never a jump.
- 3.1: the starting markers (AP totals, ASPs, Naval Support; values in tables/attack-points.yaml
  and tables/air-superiority.yaml) are checked when a log that begins with the set-up starts
  Turn 1.
- 3.1: on Turn 1 no Random Events d66 and no Air Superiority die is rolled.
- 5.0: one Random Events roll a turn, in the Random Events phase; the first die (Allied) is the
  tens, the second (Axis) the ones.  An event that happens is reported as an event; No Event,
  and an event that counts as No Event (too early, once-only and rolled again, impossible), is
  not reported.  An event's AP effect is due on the AP marker before the phase ends.
"""
from __future__ import annotations

from validators.games.western_desert_force.events import D66, RandomEvents
from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.roads import Roads
from validators.replay.replayer import Rolled


class TurnRules(WdfRule):
    """4.0: the phases in order, every turn played; 3.1: the starting markers, no Random Events or
    Air/Naval roll on Turn 1; 5.0: one Random Events roll a turn, in its phase, and its event."""

    ids = ("3.1", "4.0", "5.0")
    needs = WdfRule.needs + (Roads, RandomEvents)

    def start(self) -> None:
        super().start()
        self.roads = self.ctx.get(Roads)
        self.ap_table = self.tables.get("attack-points", {})
        self.phase_names = [x["name"] for x in self.phase_specs]
        self.events = self.ctx.get(RandomEvents)
        self.events_note = self.state.reconstructed("random-events")

    # -- the order of phases (4.0) -------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        before, now = self.state.prev_phase_pos, self.state.phase_pos
        if before is None:
            first_points = next((i for i, p in enumerate(self.phase_specs) if p.get("kind") == "attack-points"), -1)
            if self.turn == self.game.info.turns.first and now[1] <= first_points:  # until then the 3.1 totals stand
                self._starting_markers()
            return
        (t0, i0), (t1, i1) = before, now
        if t0 is None or t1 is None or (t0, i0) == (t1, i1):
            return
        names = self.phase_names
        if t1 < t0 or (t1 == t0 and i1 < i0):
            self.find("4.0", f"the turn tracker went back from Turn {t0} {names[i0]} to Turn {t1} {names[i1]}: the "
                      "phases are played in order")
        elif t1 > t0 + 1:
            self.find("4.0", f"the turn tracker jumped from Turn {t0} to Turn {t1}: every turn is played")

    def _starting_markers(self) -> None:
        """3.1: Allies 4 AP, Axis 2 AP, 4 Allied ASPs and Allied Naval Support."""
        for side, want in self.ap_table.get("start", {}).items():
            have = self.roads.ap_box(side)
            if have != want:
                self.find("3.1", f"the {self.board.side_name(side)} player begins with {want} Attack Points; the AP marker "
                          f"shows {have}", self.board.marker(f"ap-{side}"), side=self.board.side_name(side))
        air = self.tables.get("air-superiority", {}).get("start", {})
        if air:
            holder, count = self.roads.asp_holding()
            if (holder, count) != (air.get("side"), air.get("asp")):
                self.find("3.1", f"the game begins with {air.get('asp')} {self.board.side_name(air.get('side'))} ASPs; "
                          f"the ASP marker shows {count} for {self.board.side_name(holder)}", self.board.marker("asp"))
            if air.get("naval_support") and not self.supply.naval_support():
                self.find("3.1", "the Allies begin with Naval Support; its marker is not in play",
                          self.board.marker(self.tables.get("supply", {}).get("naval_support", {}).get("marker", "")))

    # -- dice -------------------------------------------------------------------------------------
    def rolled(self, e: Rolled) -> None:
        first = self.turn == self.game.info.turns.first
        if e.button == D66 or e.button.endswith(" Air Superiority die"):
            if first:
                self.find("3.1", f"Turn 1 skips the Random Events and the Air/Naval Support Phase: no {e.button} roll")
            elif e.button == D66:
                self._random_event(e.dice)

    def _random_event(self, dice: tuple[int, ...]) -> None:
        """5.0: the Allied die is the tens digit, the Axis die the ones."""
        if self.phase_kind != "random-events":
            self.find("5.0", f"the Random Events roll belongs to the Random Events phase, not {self.phase}")
            return
        if not self.events.counted:
            self.find("5.0", f"one Random Events roll a turn: Turn {self.turn} already had one")
            return
        if self.events.just is None:
            return
        code, ev = self.events.just
        effect = ev.get("effect", {})
        self.find("5.0", f"random event {code} (Allied {dice[0]}, Axis {dice[1]}): {ev['name']} - "
                  f"{self._describe(effect)}{self.events_note}", kind="event")

    def _describe(self, effect: dict) -> str:
        parts = [f"{self.board.side_name(s)} {n:+d} AP (7.3)" for s, n in effect.get("ap", {}).items()]
        parts += [f"{self.board.side_name(s)} {n:+d} replacement point(s) this turn (7.6)"
                  for s, n in effect.get("replacements", {}).items()]
        if "leader_casualty" in effect:
            parts.append(f"{effect['leader_casualty']} becomes a casualty (13.6)")
        for marker, n in effect.get("fortress_status", {}).items():
            name = self.game.markers[marker].name if marker in self.game.markers else marker
            parts.append(f"{name} up {n} level (16.1)")
        return ", ".join(parts) or "no effect"
