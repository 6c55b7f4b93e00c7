"""Fortress status (16.1, 5.0): a fortress's status drops one level each time it changes hands
because of combat, and only then (or by a random event such as Tobruk Reconstruction).

Rank 22 of the digest's §10.1, with the fortress effect of rank 23's random events.  The status
is the marker in its fortress box (tables/combat.yaml `fortresses`): face 1 intact, Tobruk's
face 2 reduced; a marker off its box, or on a face listed as destroyed, is destroyed.

Choices (16.1):
- a fortress changes hands when a combat unit of the active player enters it in a combat phase
  (an advance after combat) while the other side controls it: the status must drop one level
  by the end of that phase; entering it in a movement phase (an empty fortress) changes nothing;
- control starts with the side whose units stand in the fortress when play begins, else the
  side `victory.yaml` names (control_at_start), else nobody (then the first entry only sets it);
- a status change with no such cause is reported when the step that made it ends.
"""
from __future__ import annotations

from validators.games.western_desert_force.combat_state import CombatView
from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.events import RandomEvents
from validators.replay.replayer import Moved, Rolled
from validators.vlog.reader import Step


class FortressRules(WdfRule):
    """16.1: a fortress's status drops one level each time it changes hands because of combat, and
    only then (or by a random event, 5.0)."""

    ids = ("16.1",)
    needs = WdfRule.needs + (CombatView, RandomEvents)

    def start(self) -> None:
        super().start()
        self.combat_view = self.ctx.get(CombatView)
        self.combat_table = self.combat_view.ct
        places = {p.name: p.hex for p in self.game.map.places}
        self.fortress_specs = {f["marker"]: dict(f, hex=places.get(f["place"]))
                               for f in self.combat_table.get("fortresses", ()) if f["marker"] in self.game.markers}
        self.fort_level: dict[str, int | None] = {m: None for m in self.fortress_specs}
        self.fort_due: dict[str, int] = {m: 0 for m in self.fortress_specs}  # levels the status must still drop (+) or rise (-)
        self.fort_control: dict[str, str | None] = {}
        self._levels: dict[str, tuple] = {}  # marker -> (its piece, state and position; fortress_level)
        self._fortress_hexes = {f["hex"] for f in self.fortress_specs.values()}  # a move elsewhere changes no control
        start = self.tables.get("victory", {}).get("control_at_start", {})
        for m, f in self.fortress_specs.items():
            self.fort_control[m] = self.board.side_ids.get(start.get(f["place"], ""), start.get(f["place"]))

    def _floor(self, marker: str) -> int:
        """How many levels the fortress has below intact: Tobruk 2 (reduced, destroyed), Bardia 1."""
        return len(self.game.markers[marker].faces) - len(self.fortress_specs[marker].get("destroyed_faces", ()))

    def fortress_level(self, marker: str) -> int:
        """0 intact, 1 reduced, ..., `_floor` destroyed (16.1); kept while the marker stays as it
        is (asked after every step: the piece found last, still on the board with the same state
        and position, is the one `board.marker` would find again, so it is not asked)."""
        kept = self._levels.get(marker)
        if kept is not None and kept[0] is not None:
            m, state, map_id, x, y = kept[0]
            if m.state is state and m.x == x and m.y == y and m.map == map_id and self.board.replayer.board.pieces.get(m.id) is m:
                return kept[1]
        m = self.board.marker(marker)
        now = None if m is None else (m, m.state, m.map, m.x, m.y)
        if kept is None or kept[0] != now:
            kept = self._levels[marker] = (now, self._level(marker, m))
        return kept[1]

    def _level(self, marker: str, m) -> int:
        f, floor = self.fortress_specs[marker], self._floor(marker)
        if m is None or self.combat_view.where_label(m) != self.game.zone_name(f["track"], f["box"]):
            return floor
        face = max(1, m.layer_level("Face"))
        return floor if face in f.get("destroyed_faces", ()) else min(face - 1, floor)

    def rolled(self, e: Rolled) -> None:
        """A random event raises the status (5.0, Tobruk Reconstruction)."""
        just = self.ctx.get(RandomEvents).just  # heard before this rule
        for marker, n in (just[1].get("effect", {}).get("fortress_status", {}) if just else {}).items():
            if marker in self.fort_due:
                self.fort_due[marker] -= int(n)

    def moved(self, e: Moved) -> None:
        new = e.new.label
        if new not in self._fortress_hexes:
            return
        for marker, f in self.fortress_specs.items():
            if new != f["hex"] or e.old.label == new or not self.board.unit_of(e.piece):
                continue
            side, held = self.board.side_id(e.piece), self.fort_control.get(marker)
            self.fort_control[marker] = side
            if held is not None and held != side and side == self.active_side and self.phase_kind in self.combat_table.get("phases", ()):
                self.fort_due[marker] += 1

    def after_step(self, step: Step) -> None:
        kind = self.state.phase_kind  # read once: asked after every step
        for marker in self.fortress_specs:
            now, before = self.fortress_level(marker), self.fort_level[marker]
            self.fort_level[marker] = now
            if kind is None:  # the set-up: who holds the fortress when play begins
                self._set_up_control(marker)
                continue
            if before is None or now == before:
                continue
            due, change = self.fort_due[marker], now - before
            if (change > 0 and due >= change) or (change < 0 and due <= change):
                self.fort_due[marker] -= change
                continue
            f = self.fortress_specs[marker]
            self.find("16.1", f"{f['place']}'s fortress status went {'down' if change > 0 else 'up'} "
                      f"{abs(change)} level(s) with no cause: it drops one level each time the fortress changes "
                      "hands because of combat (a random event may raise it)", self.board.marker(marker))

    def _set_up_control(self, marker: str) -> None:
        h = self.fortress_specs[marker]["hex"]
        sides = {self.board.side_id(p) for p in self.board.units_in(h)} if h else set()
        if len(sides) == 1:
            self.fort_control[marker] = sides.pop()

    def phase_ended(self, pid: str) -> None:
        for marker, due in self.fort_due.items():
            level, floor = self.fortress_level(marker), self._floor(marker)
            if due > 0 and level < floor:
                f = self.fortress_specs[marker]
                self.find("16.1", f"{f['place']} changed hands because of combat in {self.phase}: its fortress "
                          f"status drops one level (the marker in the {f['box']} box)", self.board.marker(marker))
            self.fort_due[marker] = 0
