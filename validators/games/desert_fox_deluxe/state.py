"""Where the Desert Fox Deluxe auditor is in the turn, who the 1st player is, the declarations
and what the log tells of each unit.

The module's turn tracker walks the twenty phases of 4.1 (tables/sequence.yaml: `kind` movement,
reaction, combat... and `player` first or second).  Which side is the 1st player is chosen in
Phase V by the initiative player (4.1 V.2) and is not in the log.

Choices (a false alarm costs more than a miss):
- 4.1 V.2: the 1st player of a GT is learnt from play: the first side that moves a ground unit
  on the map in a Movement Phase (or that declares a combat in a Combat Phase) of a given
  player claims that player's role, and the other side takes the other role, until the next
  Phase V.  With surprise in effect on the card (6.2: the surprise holder is the 1st player) the
  card's initiative side is the 1st player of its first GT.  Until a side is known nothing that
  depends on it is reported.
- Markers (Disrupted, OGS, Reserve, Fort) lie in hexes, not on units: a hex's marker is read as
  belonging to every unit of the hex where that can only spare a finding (ZoC, overrun), and
  as a marker of the hex otherwise (disruption demanded by overstacking, forced or night march).
- Movement classes (9.0) are not printed in units.yaml: tanks, recon, halftracks and HQs are
  motorized (mechanized); a unit with an MA of 22 or more is motorized; every other unit with
  an MA may be foot or trucked, and gets whichever is kinder to it.
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Said, TurnChanged

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

DECLARATION = re.compile(r"^\*?\s*(?:Combat: (?:(?P<attacker>.+?) attacks from|target (?P<target>.+?) in)|"
                         r"Overrun: (?P<overrun>.+?) overruns from|Road march: (?P<road>.+?) from) (?P<hex>\S+)\s*\*?$")
SUPPLY = frozenset({"base", "msu", "dump"})
NOT_GROUND = frozenset({"air", "fleet"})
MECHANIZED = frozenset({"tank", "recon", "halftrack", "hq", "desert-raider"})
EZOC_EXEMPT = frozenset({"special-forces", "desert-raider"})  # 15.4, 16.0
DIVISION_NATIONS = frozenset({"italian", "vichy"})  # 15.10
FORTS = ("fort-0", "fort-1", "fort-2", "fort-3")


class PhaseState(BaseAuditor):
    """Turn, phase and 1st player from the turn tracker and play; sides by id ('axis', 'allied')."""

    def start(self) -> None:
        g = self.game
        self.tables = {k: t.data for k, t in g.tables.items()}
        self.phase_specs: list[dict] = list(self.tables.get("sequence", {}).get("phases", []))
        self.phase_id: str | None = None
        self.phase_kind: str | None = None
        self.phase_player: str | None = None  # 'first' / 'second' for phases of one player
        self.phase_pos: tuple[int, int] | None = None
        self.prev_phase_pos: tuple[int, int] | None = None
        self.scenario = self._scenario()
        card = g.scenarios.get(self.scenario or "")
        self.card = card
        self.first_player: str | None = card.initiative if card is not None and card.surprise else None
        self.turn = None
        super().start()

    def _scenario(self) -> str | None:
        """The scenario being played: the card most units stand on (the log's beginning)."""
        here = {}
        for p in self.replayer.board.pieces.values():
            u = self.unit_of(p)
            if u is not None:
                here[u.id] = self.replayer.piece_where(p).label
        best, score = None, 0
        for sid, sc in sorted(self.game.scenarios.items()):
            n = sum(1 for u in sc.units
                    if here.get(u.unit) is not None
                    and here.get(u.unit) == (u.hex or (self.game.zone_name(u.track, u.box) if u.track else None)))
            if n > score:
                best, score = sid, n
        return best

    # -- turn tracker ---------------------------------------------------------------------
    def on_turn(self, e: TurnChanged) -> None:
        index = e.phase_index if e.phase_index is not None and 0 <= e.phase_index < len(self.phase_specs) else None
        old = self.phase_id
        if old is not None:
            self.phase_ended(old)
        new_turn = e.turn if e.turn is not None else self.turn
        if self.turn is not None and new_turn != self.turn:
            self.turn_ended(self.turn)
        self.prev_phase_pos = self.phase_pos
        self.turn = new_turn
        self.phase_pos = (new_turn or 0, index if index is not None else -1)
        spec = self.phase_specs[index] if index is not None else None
        self.phase = spec["name"] if spec else None
        self.phase_id = spec["id"] if spec else None
        self.phase_kind = spec.get("kind") if spec else None
        self.phase_player = spec.get("player") if spec else None
        if self.phase_id == "V":
            self.first_player = None  # 4.1 V.2: chosen anew
        self.side_acting = self.side_names.get(self.phasing() or "")
        if self.phase_id is not None:
            self.phase_started(self.phase_id)
        super().on_turn(e)

    def phase_started(self, pid: str) -> None: ...
    def phase_ended(self, pid: str) -> None: ...
    def turn_ended(self, turn: int) -> None: ...

    def phasing(self) -> str | None:
        """The side id whose phase this is (the 1st or 2nd player), None when not known or both."""
        if self.first_player is None or self.phase_player is None:
            return None
        return self.first_player if self.phase_player == "first" else self.other_side[self.first_player]

    def claim(self, side: str) -> None:
        """The first act of a side in a phase of one player tells who the 1st player is (Choices)."""
        if self.first_player is None and self.phase_player is not None and self.phase_kind in ("movement", "combat"):
            self.first_player = side if self.phase_player == "first" else self.other_side[side]
            self.side_acting = self.side_names.get(self.phasing() or "")

    # -- declarations --------------------------------------------------------------------------
    def on_said(self, e: Said) -> None:
        m = DECLARATION.match(e.text.strip())
        if m:
            role = next(k for k in ("attacker", "target", "overrun", "road") if m[k])
            piece = next((p for p in self.pieces_in(m["hex"]) if p.name == m[role]), None)
            if piece is not None and self.unit_of(piece):
                self.declared(role, piece, m["hex"])
        super().on_said(e)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        """role: attacker, target, overrun, road (march)."""

    # -- units --------------------------------------------------------------------------------
    def is_ground(self, p: Piece) -> bool:
        u = self.unit_of(p)
        return u is not None and u.type not in NOT_GROUND

    def is_combat_unit(self, p: Piece) -> bool:
        u = self.unit_of(p)
        return u is not None and u.type not in NOT_GROUND | SUPPLY

    def cf(self, p: Piece) -> int:
        """The combat factor of the face the piece shows."""
        u = self.unit_of(p)
        if u is None:
            return 0
        value = u.cs_reduced if self.reduced(p) and u.cs_reduced is not None else u.cs
        return value or 0

    def is_division(self, u: s.Unit) -> bool:
        """15.10: Italian and Vichy French divisions."""
        return u.size == "XX" and self.game.nationality_of_unit(u).id in DIVISION_NATIONS

    def classes(self, u: s.Unit) -> frozenset[str]:
        """The movement classes the unit may be of (see Choices)."""
        if u.type in MECHANIZED or u.type == "msu":
            extra = {"recon"} if u.type == "recon" else {"desert-raider"} if u.type == "desert-raider" else set()
            return frozenset({"mechanized", *extra}) if u.type != "msu" else frozenset({"motorized"})
        if u.ma >= 22:
            return frozenset({"motorized", "mechanized"})
        return frozenset({"foot", "motorized"})

    def surely_motorized(self, u: s.Unit) -> bool:
        return "foot" not in self.classes(u)

    def rma(self, u: s.Unit) -> int:
        """13.2.1: a motorized unit's RMA is a quarter of its MA, rounded up."""
        return math.ceil(u.ma / 4)

    # -- markers ---------------------------------------------------------------------------------
    def markers_in(self, hex_id: str, *markers: str) -> int:
        return sum(1 for p in self.pieces_in(hex_id) if p.properties().get("MarkerId") in markers)

    def disrupted_in(self, hex_id: str) -> bool:
        return self.markers_in(hex_id, "disrupted") > 0

    def fort_level(self, hex_id: str) -> int | None:
        levels = [int(p.properties()["MarkerId"][-1]) for p in self.pieces_in(hex_id)
                  if p.properties().get("MarkerId") in FORTS]
        return max(levels) if levels else None

    def on_map(self, label: str | None) -> bool:
        return label in self.game.geometry

    def reconstructed(self, *tables: str) -> str:
        """" (reconstructed table)" when a finding rests on a table marked so."""
        return " (reconstructed table)" if any(self.game.tables[n].provenance == "reconstructed" for n in tables
                                               if n in self.game.tables) else ""

    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
