"""Control of the map's named places (game.yaml's map `places`: a fortress, a port, a city).

A place is controlled by the side whose unit occupies it or last did; when play begins, by the
side whose units alone stand there, else as a game's table says (`START`: the table's id and
key, a mapping of place name to side id).  Only the places that mapping names are followed.
A fact several rules read (supply sources, attack points, victory), so a tracker.
"""
from __future__ import annotations

from validators.kernel.rule import Tracker
from validators.replay.replayer import Added, Moved


class Places(Tracker):
    """Who controls each followed place: `controller(hex)`; `hex`, place name -> its hex."""

    START = ("victory", "control_at_start")

    def start(self) -> None:
        self.hex = {p.name: p.hex for p in self.game.map.places}
        table, key = self.START
        start_control = self.tables.get(table, {}).get(key, {})
        self.control = {self.hex[n]: s for n, s in start_control.items() if n in self.hex}
        for h in self.control:
            held = {self.board.side_id(p) for p in self.board.units_in(h)}
            if len(held) == 1:
                self.control[h] = held.pop()

    def controller(self, hex_id: str | None) -> str | None:
        """The side that occupies the place or last occupied it; None: not followed."""
        return self.control.get(hex_id or "")

    def moved(self, e: Moved) -> None:
        self._entered(e.piece, e.new.label)

    def added(self, e: Added) -> None:
        self._entered(e.piece, e.where.label)

    def _entered(self, piece, label: str) -> None:
        if label in self.control and self.board.unit_of(piece):
            self.control[label] = self.board.side_id(piece)
