"""Where the Tobrouk 41-42 auditor is in the turn: turn, phase (A-F of rule 2), pair of
maneuvers, active and maneuvering side; the markers on the board; the declarations.

The module's turn tracker walks the six phases of tables/sequence.yaml (A Administrative,
B Active player's maneuver, C Combat, D Reactive player's maneuver, E Combat, F Alternation and
end of turn); a new pair of maneuvers goes back from F to B within the same turn (2.25).

Choices (the log cannot show a spoken choice):
- 2.1: the initiative winner's choice of the active player is not in the log.  The active side
  of a turn is the side that first acts in a phase B of that turn: its MP marker moves or one
  of its units moves.  The reactive side is the other one.
- Markers lie in hexes, not on units: a hex's markers (T, Retreat, CR, RE, entrenched, rapid
  movement) are read as belonging to every unit of the hex.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from builder.geometry.hexmap import hexside_key
from validators.kernel.auditor import BaseAuditor
from validators.kernel.stacking import unit_attrs
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed, Said, TurnChanged

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

DECLARATION = re.compile(r"^\*?\s*Fire: (?:(?P<firer>.+?) fires from|target (?P<target>.+?) in|"
                         r"(?P<coord>.+?) coordinates from) (?P<hex>\S+)\s*\*?$")
MANEUVERS = ("B", "D")
# 1.34: no ZoC across minefields, fortifications (the Tobrouk camp), wadis and cliffs; "crests if
# the CU is dug in" is left out (digest O14: which way is not said)
ZOC_CLOSED = frozenset({"mines-light", "mines-heavy", "camp", "wadi", "cliff"})
COMBATS = ("C", "E")


class PhaseState(BaseAuditor):
    """Turn and phase from the turn tracker; sides by id ('axis', 'commonwealth')."""

    def start(self) -> None:
        g = self.game
        self.tables = {k: t.data for k, t in g.tables.items()}
        self.phase_specs: list[dict] = list(self.tables["sequence"]["phases"])
        self.phase_id: str | None = None
        self.phase_pos: tuple[int | None, int] | None = None
        self.prev_phase_pos: tuple[int | None, int] | None = None
        self.pair = 1  # the pair of maneuvers being played (2.21c)
        self.active: str | None = None  # side id of the turn's active player
        self.scenario = self._scenario()
        super().start()

    def _scenario(self) -> str | None:
        """The scenario being played: the one whose scenario card is on the board, else the card
        most units stand on (the log's beginning)."""
        here = {}
        for p in self.replayer.board.pieces.values():
            u = self.unit_of(p)
            if u is not None:
                here[u.id] = self.hex_of(p)
        cards = {p.properties().get("MarkerId", "") for p in self.replayer.board.pieces.values()}
        named = [sid for sid in sorted(self.game.scenarios) if f"card-{sid}" in cards]
        if len(named) == 1:  # the module's scenario card (markers.yaml) says it
            self.scenario_candidates = (named[0],)
            return named[0]
        scores = {sid: sum(1 for u in sc.units if u.hex and here.get(u.unit) == u.hex)
                  for sid, sc in sorted(self.game.scenarios.items())}
        top = max(scores.values(), default=0)
        # Historical and hypothetical Gazala share one set-up (11.3a): rules that differ between
        # tied cards hold only where every one of them agrees (reserves.py).
        self.scenario_candidates = tuple(sid for sid, n in scores.items() if n == top and top)
        return self.scenario_candidates[0] if self.scenario_candidates else None

    # -- turn tracker ---------------------------------------------------------------------
    def on_turn(self, e: TurnChanged) -> None:
        index = e.phase_index if e.phase_index is not None and 0 <= e.phase_index < len(self.phase_specs) else None
        old = self.phase_id
        if old is not None:
            self.phase_ended(old)
        new_turn = e.turn if e.turn is not None else self.turn
        if new_turn != self.turn:
            self.active, self.pair = None, 1
        elif old == "F" and index is not None and self.phase_specs[index]["id"] != "F":
            self.pair += 1
        self.prev_phase_pos = self.phase_pos
        self.turn = new_turn
        self.phase_pos = (new_turn, index if index is not None else -1)
        spec = self.phase_specs[index] if index is not None else None
        self.phase = spec["name"] if spec else None
        self.phase_id = spec["id"] if spec else None
        self.side_acting = None
        if self.phase_id is not None:
            self.phase_started(self.phase_id)
        super().on_turn(e)

    def phase_started(self, pid: str) -> None: ...
    def phase_ended(self, pid: str) -> None: ...

    def maneuvering(self) -> str | None:
        """The side id whose maneuver (B, D) or whose maneuver's combat (C, E) this is."""
        if self.active is None:
            return None
        if self.phase_id in ("B", "C"):
            return self.active
        if self.phase_id in ("D", "E"):
            return self.other_side[self.active]
        return None

    def claim_active(self, side: str) -> None:
        """2.1: the first side to act in a phase B is the turn's active player."""
        if self.active is None and self.phase_id == "B":
            self.active = side
            self.side_acting = self.side_names[side]

    def on_moved(self, e: Moved) -> None:
        side = self.mp_marker_side(e.piece) or (self.side_id(e.piece) if self.unit_of(e.piece) else None)
        if side and e.old.label != e.new.label:
            self.claim_active(side)
        if self.maneuvering():
            self.side_acting = self.side_names[self.maneuvering()]
        super().on_moved(e)
        geo = self.game.geometry
        if e.old.label in geo and e.new.label not in geo:
            self.left_map(e.piece, e.old.label)

    def on_removed(self, e: Removed) -> None:
        super().on_removed(e)
        if e.where is not None and e.where.label in self.game.geometry:
            self.left_map(e.piece, e.where.label)

    def left_map(self, p: Piece, hex_id: str) -> None:
        """A piece taken off the map from `hex_id`, deleted or dragged to a box: a player removes a
        marker either way, and a unit leaves by its Send To command or a drag; rules that count a
        piece going (a hit marker, a wreck, an HQ, Rommel) read this one event."""

    def mp_marker_side(self, p: Piece) -> str | None:
        mid = p.properties().get("MarkerId", "")
        return {"mp-axis": "axis", "mp-cw": "commonwealth"}.get(mid)

    # -- declarations (Declare firer / target, Coordinated fire) --------------------------
    def on_said(self, e: Said) -> None:
        m = DECLARATION.match(e.text.strip())
        if m:
            role = "firer" if m["firer"] else "target" if m["target"] else "coordinated"
            name = m["firer"] or m["target"] or m["coord"]
            piece = next((p for p in self.pieces_in(m["hex"]) if p.name == name), None)
            if piece is not None and self.unit_of(piece):
                self.declared(role, piece, m["hex"])
        super().on_said(e)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        """role: firer, target, coordinated."""

    # -- pieces and markers -----------------------------------------------------------------
    def markers_in(self, hex_id: str, marker: str, *, at_start: bool = False) -> int:
        pieces = self.stood_in(hex_id) if at_start else self.pieces_in(hex_id)
        return sum(1 for p in pieces if p.properties().get("MarkerId") == marker)

    def marker_piece(self, marker: str) -> Piece | None:
        return next((p for p in self.replayer.board.pieces.values() if p.properties().get("MarkerId") == marker), None)

    def box_of(self, marker: str, track: str) -> str | None:
        """The box of a track marker ('MP 3' -> '3'), None off the track."""
        p = self.marker_piece(marker)
        if p is None:
            return None
        label = self.replayer.piece_where(p).label
        t = self.game.tracks.get(track)
        if t is None:
            return None
        return next((b for b in t.boxes if self.game.zone_name(track, b) == label), None)

    def combat_units(self, hex_id: str, side: str | None = None) -> list[Piece]:
        """Combat units (no HQ, no Rommel) of a side in a hex."""
        return [p for p in self.units_in(hex_id) if self.is_cu(p) and (side is None or self.side_id(p) == side)]

    def is_cu(self, p: Piece) -> bool:
        u = self.unit_of(p)
        return u is not None and u.type not in ("hq", "leader", "air")

    def is_hq(self, p: Piece) -> bool:
        u = self.unit_of(p)
        return u is not None and u.type in ("hq", "leader")

    def retreating(self, hex_id: str) -> bool:
        """A Retreat marker on its front face (the back says reorganised, 4.42c)."""
        return any(p.properties().get("MarkerId") == "retreat" and p.layer_level("Face") in (0, 1)
                   for p in self.pieces_in(hex_id))

    def face(self, p: Piece) -> int:
        """1 full, 2 reduced."""
        return 2 if self.reduced(p) else 1

    def value(self, u: s.Unit, p: Piece, what: str):
        """A printed value of the face the piece shows: ap, at, morale."""
        reduced = getattr(u, f"{what}_reduced", None) if self.reduced(p) else None
        return reduced if reduced is not None else getattr(u, what)

    def steps_now(self, u: s.Unit, p: Piece) -> int:
        """Steps the counter stands for now: its strength, one less on its reduced face (6.1d)."""
        return unit_attrs(self.game, u, self.reduced(p))["now"]

    def enemy_zoc(self, side: str) -> set[str]:
        """Hexes next to a non-retreating enemy CU (HQs have none), except across the hexsides of
        1.34 and into the sea (4.2e)."""
        enemy = self.other_side[side]
        closed = ZOC_CLOSED
        out: set[str] = set()
        for h, ps in self.by_hex().items():
            if self.retreating(h) or not any(self.is_cu(p) and self.side_id(p) == enemy for p in ps):
                continue
            for n in self.game.geometry.neighbours(h):
                if not self.crossing(h, n) & closed and self.game.hex_terrain.get(n) != "sea":
                    out.add(n)
        return out

    def crossing(self, a: str, b: str) -> frozenset[str]:
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def reconstructed(self, *tables: str) -> str:
        """" (reconstructed table)" when a finding rests on a table marked so."""
        return " (reconstructed table)" if any(self.game.tables[n].provenance == "reconstructed" for n in tables) else ""
