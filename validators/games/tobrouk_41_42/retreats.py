"""Retreats (6.3): digest 10.1 rank 10.

A unit whose hex holds a Retreat marker moves in a combat phase (C, E), or in a maneuver after
an air strike on its side (5.5f: retreats "only for units in contact"): that is its retreat.
All retreats are simultaneous, so they are checked when the combat phase ends: the unit must
end out of enemy fire (in no hex next to an enemy combat unit, a cliff between excepted, 5.1d),
by the fewest hexes that reach such a hex, along a path that never crosses a cliff, the sea or
an unbreached minefield hexside (one of a hex holding a breach marker is taken as breached: the
marker names no hexside, 4.43, Q&A 3) and never
enters an enemy unit's hex; friendly units may be passed through (6.3).

Choices:
- "Out of enemy fire" is read on the board as the phase ends, after every retreat.
- "Towards its supply source if there is a choice" (6.3d) is not checked: the text does not say
  how "towards" is measured, so any shortest retreat is accepted.
- 6.3a, 6.4a: a Retreat marker put down in the combat phase and still in its hex, next to an
  enemy combat unit, when the phase ends: a unit it covers neither retreated nor surrendered
  (reported once then, its deadline).  Only markers of this phase: a unit that retreated earlier
  may stay where the enemy came to it (6.4b: "a retreating CU which is again the target").
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.movement import MINEFIELDS, Moves
from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.units import TobroukRule, Units, mid
from validators.kernel.movement import search
from validators.replay.replayer import Added, Moved

CLOSED = frozenset({"cliff", "mines-light", "mines-heavy", "camp"})


class Retreats(TobroukRule):
    """6.3: a retreating unit ends its combat phase out of enemy fire, by the fewest hexes, along a
    path that crosses no cliff, sea or minefield and enters no enemy unit's hex."""

    ids = ("6.3",)
    needs = (Units, Moves)

    def start(self) -> None:
        self.retreats: dict[str, str] = {}  # piece id -> hex it retreated from
        self.placed: dict[str, str] = {}  # Retreat marker id -> the hex it was put in, this combat phase

    def added(self, e: Added) -> None:
        if mid(e.piece) == "retreat" and self._retreat_phase() and e.where.label in self.hexes:
            self.placed[e.piece.id] = e.where.label

    def moved(self, e: Moved) -> None:
        if not self.units_view.retreat_markers():
            return  # no Retreat marker on the board (most steps of a game): no retreat to follow, none placed
        if not self._retreat_phase():
            return
        geo, old, new = self.hexes, e.old.label, e.new.label
        if old not in geo:
            if new in geo and mid(e.piece) == "retreat":
                self.placed[e.piece.id] = new
        elif (new in geo and old != new
              and (self.state.phase_id in COMBATS or self.side_id(e.piece) != self.maneuvering())  # (the cheap tests first:
              and self.is_cu(e.piece)  # a maneuvering side's own steps, most of a log's, stop here)
              and (self.units_view.stood_retreating(old) or self.retreating(old))):
            self.retreats.setdefault(e.piece.id, old)

    def _retreat_phase(self) -> bool:
        """Retreats follow the fire (C, E) and an air strike (B, D: the struck side's units, 5.5f)."""
        return self.state.phase_id in COMBATS or self.state.phase_id in MANEUVERS

    def phase_ended(self, pid: str) -> None:
        if pid in COMBATS or pid in MANEUVERS:
            for piece_id, start in sorted(self.retreats.items()):
                p = self.replayer.board.pieces.get(piece_id)
                end = self.hex_of(p) if p is not None else None
                if end is not None and end != start:
                    self._check_retreat(p, start, end)
            self._check_stayed()
        self.retreats, self.placed = {}, {}

    def _check_stayed(self) -> None:
        """6.3a, 6.4a: a Retreat marker put down in this combat phase (or after an air strike in a
        maneuver, 5.5f) and still in its hex, next to the enemy, when the phase ends: a unit it
        covers neither retreated nor surrendered."""
        board = self.replayer.board.pieces
        for marker_id, h in sorted(self.placed.items()):
            m = board.get(marker_id)
            if m is None or self.hex_of(m) != h or not (cu := self.combat_units(h)):
                continue
            side = self.side_id(cu[0])
            if self.state.phase_id in MANEUVERS and side == self.maneuvering():
                continue  # in a maneuver only the struck side retreats (5.5f)
            if self.under_fire(h, side) and self.once("stayed", h, self.state.turn, self.state.pair, self.state.phase_id):
                self.find("6.3", f"end of the {self.state.phase}: a Retreat marker was put in {h} and its units are still "
                          "there, next to the enemy: a unit that fails its morale check retreats out of enemy fire, or "
                          "surrenders if it cannot (6.3a, 6.4a)", cu[0], None, h, side=self.side_names.get(side))

    def _check_retreat(self, p, start: str, end: str) -> None:
        side = self.side_id(p)
        why = retreat_problem(self, self.ctx.get(Moves), side, start, end)
        if why:
            self.find("6.3", f"{p.name} retreats from {start} to {end}: {why}", p, start, end,
                      side=self.side_names.get(side))


def retreat_problem(rule: TobroukRule, moves: Moves, side: str, start: str, end: str) -> str | None:
    """Why a move from `start` to `end` is no retreat (6.3b-c') nor displacement (6.5d-d'): a path
    that crosses no cliff, sea or unbreached minefield and enters no enemy unit's hex, ending out
    of enemy fire, by the fewest hexes; None when it is one."""
    terrain = rule.game.hex_terrain

    def step(a: str, b: str) -> int | None:
        closed = rule.crossing(a, b) & CLOSED
        if closed and not (closed <= MINEFIELDS and moves.breached(a, b)):
            return None
        return None if terrain.get(b) == "sea" else 1
    dist = search(rule.geo.neighbours, start, blocked=rule.units_view.enemy_hexes(side), step=step).cost
    safe = [h for h in dist if not rule.under_fire(h, side)]
    least = min((dist[h] for h in safe), default=None)
    if end not in dist:
        return f"no path from {start} to {end} avoids enemy units, cliffs, the sea and unbreached minefields"
    if rule.under_fire(end, side):
        return f"{end} is still next to enemy units: it must end out of enemy fire"
    if least is not None and dist[end] > least:
        return f"{end} is {dist[end]} hexes away; the nearest hex out of enemy fire is {least} away"
    return None
