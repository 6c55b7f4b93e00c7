"""Improved Positions (12.1-12.3): who may build or upgrade one, where, and when it goes.

Rank 15 of the digest's §10.1.  An IP is built by dragging an IP marker from its box onto a
hex, and upgraded by flipping it to IP-2; the units under it are those below the marker in the
hex's stack, as the replayed board keeps VASSAL's stack order (12.2).  The 1 AP each costs is
audited with the AP ledger (points.py).

Choices:
- 12.1: the builders are the units of the active side under the marker when it is placed (or
  flipped): each must be supplied then and must not have moved in that Regular Movement Phase,
  nor move in the rest of it; at least one unit must be under it.
- 12.1: "its next Regular Movement Phase": the upgrade comes in a later turn than the build.
- 12.2: the enemy ZOC is read without the negation by friendly units; the places, terrain and
  fortresses barred are in tables/combat.yaml (`ip_forbidden`).
- 12.1, 12.3: "removed when no units are stacked under them" and "an IP-1 is removed when the
  units under it attack": the marker must be off the map by the end of that phase (the players
  tidy up within the phase).
- An IP marker dragged from hex to hex with its stack is neither a build nor a removal.
- 12.2: a unit that ends its move under an IP marker it did not start under pays 1 MP more; it
  may be dropped there at once or put under the marker by a second drop in the same hex (VASSAL
  keeps the stack order; the replayed board follows it).  The 9.0 "one hex" move stays allowed.
"""
from __future__ import annotations

from validators.games.western_desert_force.state import ROLES
from validators.kernel.declarations import Declared
from validators.games.western_desert_force.combat_state import CombatView
from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.movement import MOVEMENT, Moves
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved

COMBAT_KINDS = ("combat", "exploitation-combat")


class IPRecord(Record):
    """One IP marker on the map."""

    __slots__ = ("hex", "side", "built_turn", "holders")

    def __init__(self, hex: str, side: str | None, built_turn: int | None, holders: set[str] | None = None):
        self.hex, self.side, self.built_turn = hex, side, built_turn
        self.holders = set() if holders is None else holders  # units that built or upgraded it this phase: may not move


class ImprovedPositionRules(WdfRule):
    """12.1-12.3: who may build or upgrade an IP, where and when, and when it goes; 12.2: a unit
    that moved put under an IP marker pays 1 MP more."""

    ids = ("12.1", "12.2", "12.3", "2.0", "4.0", "8.2", "9.0", "9.1", "9.31", "9.5", "9.6", "11.1", "11.2")
    needs = WdfRule.needs + (Moves, CombatView)

    def start(self) -> None:
        super().start()
        ct = self.tables.get("combat", {})
        self.ip_spec = ct.get("improved_positions", {})
        self.ip_forbidden = ct.get("ip_forbidden", {})
        self.ip_marker_id = self.ip_spec.get("marker", "ip")
        self.ips: dict[str, IPRecord] = {}  # marker piece id -> record
        self._ip1_attacked: set[str] = set()  # IP-1 markers whose units attacked this phase (12.3)
        self.moves, self.view = self.ctx.get(Moves), self.ctx.get(CombatView)

    # -- the board ------------------------------------------------------------------------------
    def _is_ip(self, p: Piece) -> bool:
        return p.properties().get("MarkerId") == self.ip_marker_id

    def under_ip(self, marker: Piece) -> list[Piece]:
        """The units below the IP marker in its stack (12.2)."""
        board = self.board.replayer.board
        stack = board.stacks.get(marker.stack or "")
        if stack is None or marker.id not in stack.children:
            return []
        below = stack.children[: stack.children.index(marker.id)]
        return [board.pieces[i] for i in below if i in board.pieces and self.board.unit_of(board.pieces[i])]

    def _moved_this_phase(self, p: Piece, hex_id: str) -> bool:
        rec = self.moves.records.get(p.id)
        return rec is not None and rec.start != hex_id

    # -- events ---------------------------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        geo = self.game.geometry.ids
        old, new = e.old.label, e.new.label
        if self._is_ip(e.piece):
            if new in geo and old not in geo:
                self._built(e.piece, new)
            elif old in geo and new not in geo:
                self.ips.pop(e.piece.id, None)
            elif new in geo and e.piece.id in self.ips:
                self.ips[e.piece.id].hex = new
            return
        if self.state.phase_kind != MOVEMENT:
            return
        if old == new and new in geo:
            self._reordered_into_ip(e.piece, new)
        if self.ips and old in geo and new in geo and old != new and self.board.unit_of(e.piece):
            for rec in self.ips.values():
                if e.piece.id in rec.holders:
                    rec.holders.discard(e.piece.id)
                    self.find("12.1", f"it built or upgraded the IP in {rec.hex} in this Regular Movement Phase: "
                              "the unit does not move in it", e.piece, old, new)

    def added(self, e: Added) -> None:
        if self._is_ip(e.piece) and e.where.label in self.game.geometry.ids:
            self._built(e.piece, e.where.label)

    def flipped(self, e: Flipped) -> None:
        if self._is_ip(e.piece) and e.new == 2 and e.old != 2 and e.where.label in self.game.geometry.ids:
            self._upgraded(e.piece, e.where.label)

    def declared(self, d: Declared) -> None:
        role, piece = ROLES[d.name], d.piece
        if role == "attacker" and self.phase_kind in COMBAT_KINDS:
            m = self.view.ip_over(piece)
            if m is not None and m.layer_level(self.ip_spec.get("layer", "Face")) != 2:
                self._ip1_attacked.add(m.id)

    def phase_ended(self, pid: str) -> None:
        self._check_removals()
        for rec in self.ips.values():
            rec.holders.clear()
        self._ip1_attacked = set()

    def _reordered_into_ip(self, p: Piece, hex_id: str) -> None:
        """A unit that moved this phase put under the IP marker by a drop in its own hex (12.2)."""
        unit, side, rec = self.board.unit_of(p), self.board.side_id(p), self.moves.records.get(p.id)
        if unit is None or side != self.active_side or rec is None or rec.start == hex_id or self.view.ip_over(p) is None:
            return
        if p.id in self.moves.strategic_movers:
            return
        problem = self.moves.normal_problem(p, unit, side, rec, hex_id)
        if problem:
            rule, message, path = problem
            self.find(rule, message, p, rec.start, hex_id, path)

    # -- checks -----------------------------------------------------------------------------------
    def _built(self, marker: Piece, hex_id: str) -> None:
        rec = self.ips[marker.id] = IPRecord(hex_id, self.active_side, self.turn)
        if self.phase_kind is None:
            return  # set-up
        if self.phase_kind != MOVEMENT:
            self.find("12.1", f"an IP is built only in its side's Regular Movement Phase (never in Exploitation), "
                      f"not in {self.phase}", marker, to_hex=hex_id)
            return
        why = self._place_barred(hex_id, marker)
        if why:
            self.find(self.ip_forbidden.get("rule", "12.2"), why, marker, to_hex=hex_id)
        rec.holders = self._builders(marker, hex_id, "built")

    def _upgraded(self, marker: Piece, hex_id: str) -> None:
        rec = self.ips.get(marker.id)
        if self.phase_kind is None:
            return
        if self.phase_kind != MOVEMENT:
            self.find("12.1", f"an IP-1 is flipped to IP-2 only in its side's Regular Movement Phase, not in "
                      f"{self.phase}", marker, to_hex=hex_id)
            return
        if rec is not None and rec.built_turn == self.turn:
            self.find("12.1", f"the IP in {hex_id} was built this turn: it becomes IP-2 only in the next Regular "
                      "Movement Phase, if its unit stays supplied and does not move", marker, to_hex=hex_id)
        holders = self._builders(marker, hex_id, "upgraded")
        if rec is not None:
            rec.holders = holders

    def _builders(self, marker: Piece, hex_id: str, act: str) -> set[str]:
        """12.1: the units under the marker: supplied, not moved this phase; their ids."""
        side = self.active_side
        units = [p for p in self.under_ip(marker) if self.board.side_id(p) == side]
        if not units:
            self.find("12.1", f"an IP is {act} on a unit: no {self.supply.side_name(side) if side else ''} unit lies under the "
                      f"IP marker in {hex_id}", marker, to_hex=hex_id)
            return set()
        for p in units:
            if self._moved_this_phase(p, hex_id):
                self.find("12.1", f"{p.name} moved in this Regular Movement Phase (from {self.moves.records[p.id].start}): "
                          f"only a unit that does not move may have its IP {act}", marker, to_hex=hex_id)
            elif not self.supply.supplied(hex_id, side):
                self.find("12.1", f"{p.name} is unsupplied in {hex_id}: only a supplied unit may have its IP {act}",
                          marker, to_hex=hex_id)
        return {p.id for p in units}

    def _place_barred(self, hex_id: str, marker: Piece) -> str | None:
        """12.2: enemy ZOC (friendly units do not negate it), barred places and terrain, one IP a hex."""
        f = self.ip_forbidden
        if self.active_side and hex_id in self.supply.ezoc(self.active_side):
            return f"{hex_id} is in an enemy zone of control: no IP there (friendly units do not negate it for IPs)"
        names = {pl.hex: pl.name for pl in self.game.map.places}
        if names.get(hex_id) in f.get("places", ()):
            return f"no IP may be built in {names[hex_id]}"
        terrain = self.game.hex_terrain.get(hex_id, "")
        if terrain in f.get("terrain", ()):
            return f"no IP may be built in {terrain.replace('-', ' ')} ({hex_id})"
        if names.get(hex_id) in f.get("intact_fortresses", ()) and self.view.terrain_at(hex_id) == "fortress":
            return f"no IP may be built in {names[hex_id]} while its fortress is intact"
        others = [p for p in self.board.pieces_in(hex_id) if self._is_ip(p) and p.id != marker.id]
        if others:
            return f"one IP marker a hex: {hex_id} has one already"
        return None

    def _check_removals(self) -> None:
        """12.1, 12.3: an IP with no unit under it, or an IP-1 whose units attacked, is removed."""
        if self.phase_kind is None:
            return
        board = self.board.replayer.board.pieces
        for pid, rec in list(self.ips.items()):
            m = board.get(pid)
            if m is None or self.board.hex_of(m) is None:
                continue
            if pid in self._ip1_attacked:
                self.find("12.3", f"the units in the IP-1 in {rec.hex} attacked: the IP-1 marker is removed at once",
                          m, to_hex=rec.hex)
            elif not self.under_ip(m):
                self.find("12.1", f"no unit is under the IP marker in {rec.hex} at the end of {self.phase}: "
                          "an IP is removed when no units are stacked under it", m, to_hex=rec.hex)
