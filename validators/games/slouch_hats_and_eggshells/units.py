"""What a Slouch Hats and Eggshells piece is by the rules: a combat unit or not, its strengths and
steps, its movement class, and the air and naval markers' sides and support strengths.

Choices:
- Markers lie in hexes, not on units: a marker (No Movement Supply, Garrison) is read as
  belonging to a unit only when the unit is the only one it can belong to (see the rules).
- Air and naval units are markers (markers.yaml `air-*`, `naval-*`): their side is their face's
  side and their support strength the "S<n>" their face prints.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from validators.kernel.combat import steps_left
from validators.kernel.rule import Tracker
from validators.replay.board import Piece

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

SUPPORT = re.compile(r"\bS(\d+)\b")


class Forces(Tracker):
    """The rules' view of pieces (keeps no facts of its own)."""

    def start(self) -> None:
        self.tec = self.tables["terrain-effects"]
        losses = self.game.tracks.get("losses")
        self.loss_boxes = {self.game.zone_name("losses", b): b for b in losses.boxes} if losses else {}
        self._enemy: dict[str, frozenset[str]] = {}  # side -> enemy_hexes, while the board does not change
        self._version = -1

    def marker_id(self, p: Piece) -> str:
        return p.properties().get("MarkerId", "")

    def is_combat(self, p: Piece) -> bool:
        """A combat unit (2.21a): every unit but the REPLs (replacements have no strength)."""
        u = self.board.unit_of(p)
        return u is not None and u.type != "replacement"

    def combat_units(self, hex_id: str, side: str | None = None, *, at_start: bool = False) -> list[Piece]:
        board = self.board
        pieces = board.stood_in(hex_id) if at_start else board.pieces_in(hex_id)
        return [p for p in pieces if self.is_combat(p) and (side is None or board.side_id(p) == side)]

    def enemy_hexes(self, side: str) -> frozenset[str]:
        """Hexes holding combat units of the enemy of `side`."""
        board = self.board
        version = board.replayer.board.version
        if version != self._version:
            self._enemy, self._version = {}, version
        found = self._enemy.get(side)
        if found is None:
            enemy = board.other_side[side]
            found = self._enemy[side] = frozenset(
                h for h, ps in board.by_hex().items() if any(self.is_combat(p) and board.side_id(p) == enemy for p in ps))
        return found

    def adjacent_enemy(self, hex_id: str, side: str) -> bool:
        enemy = self.enemy_hexes(side)
        return any(n in enemy for n in self.game.geometry.neighbours(hex_id))

    def attack_of(self, u: s.Unit, p: Piece) -> int:
        return (u.attack_reduced if self.board.reduced(p) and u.attack_reduced is not None else u.attack) or 0

    def defense_of(self, u: s.Unit, p: Piece) -> int:
        return (u.defense_reduced if self.board.reduced(p) and u.defense_reduced is not None else u.defense) or 0

    def steps_now(self, u: s.Unit, p: Piece) -> int:
        return steps_left(self.board.reduced(p), u.steps)

    @staticmethod
    def is_artillery(u: s.Unit) -> bool:
        return u.type == "artillery"  # 3.14: any combat unit with a range value

    def move_class(self, u: s.Unit) -> str:
        return self.tec["types"].get(u.type, {}).get("movement_class", "foot")

    def is_armored(self, u: s.Unit) -> bool:
        return bool(self.tec["types"].get(u.type, {}).get("armored"))

    def is_german_aa(self, u: s.Unit | None) -> bool:
        """A German anti-aircraft unit (10.51)."""
        return u is not None and u.type == "motorized-aa" and self.game.formations[u.formation].nationality == "german"

    def air_side(self, p: Piece) -> str | None:
        """An air or naval marker's side (its face's)."""
        m = self.game.markers.get(self.marker_id(p))
        return m.faces[0].side if m is not None and m.faces else None

    def air_support(self, p: Piece) -> int:
        m = self.game.markers.get(self.marker_id(p))
        found = SUPPORT.search(m.faces[0].text) if m is not None and m.faces else None
        return int(found[1]) if found else 0

    def zone_box(self, track: str, label: str) -> str | None:
        """The box of a track a location names ("VP 3" -> "3")."""
        t = self.game.tracks.get(track)
        return next((b for b in t.boxes if self.game.zone_name(track, b) == label), None) if t else None

    def vp_at(self, label: str) -> int | None:
        box = self.zone_box("vp", label)
        return int(box) if box is not None and box.isdigit() else None

    def vp_marker(self, side: str) -> Piece | None:
        marker = f"vp-{side}"
        return next((q for q in self.board.replayer.board.pieces.values() if self.marker_id(q) == marker), None)

    def vp(self, side: str) -> int | None:
        """Where the side's VP marker stands on the VP track."""
        p = self.vp_marker(side)
        return self.vp_at(self.board.where(p)) if p is not None else None
