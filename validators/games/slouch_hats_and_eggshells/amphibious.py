"""Amphibious raids (10.61-10.63): a commando put to sea in its side's Transport phase and landed
in its Movement phase (digest 10.1 rank 15, part).

A raid shows as the commando's drag from a port (or the Middle East Holding Box) onto an all-sea
hex in the friendly Transport phase, with or without its "Amphibious raid" declaration (a
declaration made in a box is no declaration here, state.py); the landing is its Movement-phase
move from that sea hex, costed by movement.py with the 2 MP of 10.63.

Choices:
- 10.61: "in General Supply" is read from an Out of Supply marker in the commando's hex when it
  sails (6.32b); no marker, in supply.
- 10.62: the 27 hexes at sea are bounded by the distance from the port sailed from (a path at sea
  is no shorter); from the Middle East Holding Box (off the map) they are not measured.  Which
  port is friendly is not in the log: any port hex (map.yaml's ports) will do.
- Naval transport puts a unit on its destination port's indication hex (7.23a), at sea beside the
  port: a commando put to sea there is raiding only when it declared the raid in the phase; any
  other unit at sea is in transport (its declaration of a raid is reported).
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces, port_hexes
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved

RAID = "Amphibious raid"
RAID_BOX = "Middle East Holding Box"  # 10.62: a raid may start there, not in the Greece Holding Box
SEA_RANGE = 27  # 10.62


class AmphibiousRaid(Rule):
    """10.61-10.63: only a commando in General Supply raids, once a turn, in its side's Transport
    phase, from a port or the Middle East Holding Box, to an all-sea hex next to the coast within
    27 hexes; it lands in its Movement phase (without rail or motor pool)."""

    ids = ("10.61", "10.62", "10.63")
    needs = (Forces,)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        self.ports = port_hexes(self.game)
        self._raided: dict[str, int] = {}  # commando piece -> the turn of its last raid
        self._declared: set[str] = set()  # pieces declared raiding this phase

    def phase_started(self, pid: str) -> None:
        self._declared = set()

    def _sea(self, h: str) -> bool:
        return self.game.hex_terrain.get(h) == "sea"

    def declared(self, d: Declared) -> None:
        if d.name != RAID:
            return
        self._declared.add(d.piece.id)
        u, st = self.board.unit_of(d.piece), self.state
        if u is not None and u.type != "commando":
            self.find("10.61", f"{d.piece.name} is no commando: only commando units make amphibious raids", d.piece,
                      None, d.where)
        elif st.phase_kind != "transport" or st.phase_side != self.board.side_id(d.piece):
            self.find("10.61", f"an amphibious raid is declared in the friendly Transport phase, not the {st.phase}",
                      d.piece, None, d.where)

    def moved(self, e: Moved) -> None:
        old, new = e.old.label, e.new.label
        to_sea, from_sea = self._sea(new), self._sea(old)
        if not (to_sea or from_sea) or old == new:
            return  # neither to sea nor from it
        board, st, p = self.board, self.state, e.piece
        u = board.unit_of(p)
        if u is None or st.phase_kind is None:
            return
        if to_sea and not (board.on_map(old) and from_sea):
            self._sails(p, u, old, new)
        elif board.on_map(old) and from_sea and board.on_map(new) and not to_sea:
            if st.phase_kind != "movement" or st.phase_side != board.side_id(p):
                self.find("10.63", f"{p.name} lands from {old} in the {st.phase}: a raiding commando lands in its "
                          "Movement phase", p, old, new)

    def _sails(self, p, u, old: str, new: str) -> None:
        st, board = self.state, self.board
        if st.phase_kind != "transport":
            return  # a move onto the sea in another phase is judged by movement.py (8.11) or combat.py
        if u.type != "commando" or (p.id not in self._declared and any(
                n in self.ports for n in self.game.geometry.neighbours(new))):
            return  # naval transport: placed beside its destination port (7.23a)
        if st.phase_side != board.side_id(p):
            self.find("10.61", f"{p.name} raids in the {st.phase}: a commando raids in its side's Transport phase", p,
                      old, new)
            return
        if self._raided.get(p.id) == st.turn:
            self.find("10.61", f"{p.name} makes a second amphibious raid on Turn {st.turn}: one a turn", p, old, new)
            return
        self._raided[p.id] = st.turn
        if board.on_map(old) and any(self.forces.marker_id(q) == "oos" for q in board.stood_in(old)):
            self.find("10.61", f"{p.name} sails from {old} under an Out of Supply marker: a commando raids only in "
                      "General Supply", p, old, new)
        elif old != RAID_BOX and old not in self.ports:
            self.find("10.62", f"{p.name} sails from {old}: a raid starts at a friendly port or the {RAID_BOX}", p,
                      old, new)
        elif board.on_map(old) and (d := self.game.geometry.distance(old, new)) > SEA_RANGE:
            self.find("10.62", f"{p.name} sails {d} hexes from {old} to {new}: at most {SEA_RANGE} hexes at sea", p,
                      old, new)
        elif not any(not self._sea(n) and n in self.game.hex_terrain for n in self.game.geometry.neighbours(new)):
            self.find("10.62", f"{new} is next to no coastal hex: the raiding commando is placed next to the hex it "
                      "lands in", p, old, new)
