"""Retreats (6.3): digest 10.1 rank 10.

A unit whose hex holds a Retreat marker moves in a combat phase (C, E): that is its retreat.
All retreats are simultaneous, so they are checked when the combat phase ends: the unit must
end out of enemy fire (in no hex next to an enemy combat unit, a cliff between excepted, 5.1d),
by the fewest hexes that reach such a hex, along a path that never crosses a cliff, the sea or
an unbreached minefield hexside (one of a hex holding a breach marker is taken as breached: the
marker names no hexside, 4.43, Q&A 3) and never
enters an enemy unit's hex; friendly units may be passed through (6.3).

Choices:
- "Out of enemy fire" is read on the board as the phase ends, after every retreat.
- "Towards its supply source if there is a choice" (6.3d) is not checked: any shortest retreat
  is accepted; a unit that has no safe hex to reach and stays is left to 6.4 (not audited).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.movement import MINEFIELDS, Moves
from validators.games.tobrouk_41_42.state import COMBATS
from validators.games.tobrouk_41_42.units import TobroukRule, Units
from validators.kernel.movement import search
from validators.replay.replayer import Moved

CLOSED = frozenset({"cliff", "mines-light", "mines-heavy", "camp"})


class Retreats(TobroukRule):
    """6.3: a retreating unit ends its combat phase out of enemy fire, by the fewest hexes, along a
    path that crosses no cliff, sea or minefield and enters no enemy unit's hex."""

    ids = ("6.3",)
    needs = (Units, Moves)

    def start(self) -> None:
        self.retreats: dict[str, str] = {}  # piece id -> hex it retreated from

    def moved(self, e: Moved) -> None:
        geo = self.geo
        if (self.state.phase_id in COMBATS and self.is_cu(e.piece) and e.old.label in geo and e.new.label in geo
                and e.old.label != e.new.label and (self.units_view.stood_retreating(e.old.label)
                                                    or self.retreating(e.old.label))):
            self.retreats.setdefault(e.piece.id, e.old.label)

    def phase_ended(self, pid: str) -> None:
        if pid in COMBATS:
            for piece_id, start in sorted(self.retreats.items()):
                p = self.replayer.board.pieces.get(piece_id)
                end = self.hex_of(p) if p is not None else None
                if end is not None and end != start:
                    self._check_retreat(p, start, end)
        self.retreats = {}

    def _check_retreat(self, p, start: str, end: str) -> None:
        side = self.side_id(p)
        terrain = self.game.hex_terrain
        moves = self.ctx.get(Moves)

        def step(a: str, b: str) -> int | None:
            closed = self.crossing(a, b) & CLOSED
            if closed and not (closed <= MINEFIELDS and moves.breached(a, b)):
                return None
            return None if terrain.get(b) == "sea" else 1
        dist = search(self.geo.neighbours, start, blocked=self.units_view.enemy_hexes(side), step=step).cost
        safe = [h for h in dist if not self.under_fire(h, side)]
        least = min((dist[h] for h in safe), default=None)
        if end not in dist:
            why = f"no retreat path from {start} to {end} avoids enemy units, cliffs, the sea and minefields"
        elif self.under_fire(end, side):
            why = f"{end} is still next to enemy units: a retreat ends out of enemy fire"
        elif least is not None and dist[end] > least:
            why = f"{end} is {dist[end]} hexes away; the nearest hex out of enemy fire is {least} away"
        else:
            return
        self.find("6.3", f"{p.name} retreats from {start} to {end}: {why}", p, start, end,
                  side=self.side_names.get(side))
