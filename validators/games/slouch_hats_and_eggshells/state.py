"""Where the Slouch Hats and Eggshells auditor is in the turn, and what it knows of the pieces.

The module's turn tracker walks the 29 phases of tables/sequence.yaml (4.21: the Strategic
Segment, two Operations Segments per side, the Inter-Operational and Recovery Segments); each
phase names its `kind` (movement, combat...) and, in the Operations Segments, its `side`.
Mixins learn of phase changes through `phase_started(kind, side)` / `phase_ended(kind, side)`
and must call `super()` in every hook so the others receive it too.

Declarations are the unit menu commands of game.yaml (`declarations`): each writes one chat
line ("Combat: 21/7A attacks from 1616"...); `declared(role, piece, hex)` hands them on.

Choices:
- The scenario played is the card most units stand on when the log begins.
- Markers lie in hexes, not on units: a marker (No Movement Supply, Garrison) is read as
  belonging to a unit only when the unit is the only one it can belong to (see the users).
- Air and naval units are markers (markers.yaml `air-*`, `naval-*`): their side is their face's
  side and their support strength the "S<n>" their face prints.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from builder.geometry.hexmap import hexside_key
from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Said, TurnChanged

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

DECLARATION = re.compile(
    r"^\*?\s*(?:Combat: (?:(?P<att>.+?) attacks from (?P<att_hex>\S+)|defender hex (?P<def_hex>\S+) \((?P<def>.+)\)|"
    r"(?P<arty>.+?) fires in support from (?P<arty_hex>\S+)|(?P<cas>.+?) flies close air support to (?P<cas_hex>\S+)|"
    r"(?P<nav>.+?) gives naval fire support at (?P<nav_hex>\S+))|"
    r"Supply: (?P<sup>.+?) in (?P<sup_hex>\S+) spends an SP for combat|"
    r"(?P<mode>Strategic movement|Motor pool|Rail movement|Infiltration|Amphibious raid): (?P<mover>.+?) from (?P<mode_hex>\S+)|"
    r"Garrison released: (?P<gar>.+?) in (?P<gar_hex>\S+)|"
    r"Emergency supply: (?P<em>.+?) in (?P<em_hex>\S+))\s*\*?$")
EVENT_PLAY = re.compile(r"^\*?\s*(?P<side>\S+) plays event (?P<letter>[A-Z])\b")  # the Play event report (20.14)
SUPPORT = re.compile(r"\bS(\d+)\b")
ROADS = ("road", "minor-road", "trail")  # 8.36: the lines a unit moves along at road rate
PROHIBITED_SIDES = ("escarpment", "swamp-side", "lava-side")  # 8.33, 8.34


class PhaseState(BaseAuditor):
    """Turn and phase from the turn tracker; sides by id ('axis', 'allied')."""

    def start(self) -> None:
        g = self.game
        self.tables = {k: t.data for k, t in g.tables.items()}
        self.phase_specs: list[dict] = list(self.tables["sequence"]["phases"])
        self.phase_kind: str | None = None
        self.active_side: str | None = None
        self.segment: str | None = None
        self.phase_pos: tuple[int | None, int] | None = None
        self.prev_phase_pos: tuple[int | None, int] | None = None
        self.place_hex = {p.name: p.hex for p in g.map.places}
        self.events_changed = 0  # event cards moved, flipped or removed, and "plays event" reports (20.1)
        self.scenario = self._scenario()
        self.card = g.scenarios.get(self.scenario or "")
        self.tec = self.tables["terrain-effects"]
        self._classes = {k: list(v) for k, v in self.tec["movement_classes"].items()}
        self._road_hexes: dict[str, set[str]] = {}
        for feature, paths in g.map_terrain.hexside_paths.items():
            for path in paths:
                for h in path.hexes:
                    self._road_hexes.setdefault(feature, set()).add(h)
        super().start()

    def _scenario(self) -> str | None:
        """The card that places the units where they stand: +1 a unit on its card's hex or box,
        -1 a unit elsewhere or not on the card."""
        here = {}
        for p in self.replayer.board.pieces.values():
            u = self.unit_of(p)
            if u is not None:
                here[u.id] = self.replayer.piece_where(p).label
        best, score = None, None
        for sid, sc in sorted(self.game.scenarios.items()):
            where = {u.unit: u.hex or (self.game.zone_name(u.track, u.box) if u.track and u.box else None)
                     for u in sc.units}
            waiting = {uid for r in sc.reinforcements for uid in r.units}
            n = sum(1 if where.get(uid) == at else 0 if uid in waiting else -1 for uid, at in here.items())
            if score is None or n > score:
                best, score = sid, n
        return best

    # -- turn tracker ---------------------------------------------------------------------
    def on_turn(self, e: TurnChanged) -> None:
        index = e.phase_index if e.phase_index is not None and 0 <= e.phase_index < len(self.phase_specs) else None
        if self.phase_kind is not None:
            self.phase_ended(self.phase_kind, self.active_side)
        new_turn = e.turn if e.turn is not None else self.turn
        if new_turn != self.turn and self.phase_kind is not None:
            self.turn_ended(self.turn)
        spec = self.phase_specs[index] if index is not None else None
        self.prev_phase_pos = self.phase_pos
        self.turn = new_turn
        self.phase_pos = (new_turn, index if index is not None else -1)
        self.phase = spec["name"] if spec else None
        self.phase_kind = spec.get("kind") if spec else None
        self.active_side = spec.get("side") if spec else None
        self.segment = spec.get("segment") if spec else None
        self.side_acting = self.side_names.get(self.active_side or "")
        if self.phase_kind is not None:
            self.phase_started(self.phase_kind, self.active_side)
        super().on_turn(e)

    def phase_started(self, kind: str, side: str | None) -> None: ...
    def phase_ended(self, kind: str, side: str | None) -> None: ...
    def turn_ended(self, turn: int | None) -> None: ...

    # -- event markers (20.1: held hidden, played face up) ------------------------------------
    def dispatch(self, e) -> None:
        piece = getattr(e, "piece", None)
        if piece is not None and (piece.properties().get("Kind") == "event" or self.marker_id(piece).startswith("event-")):
            self.events_changed += 1  # a card drawn, shown or played (events.yaml)
        elif isinstance(e, Said) and EVENT_PLAY.match(e.text.strip()):
            self.events_changed += 1
        super().dispatch(e)

    # -- declarations -----------------------------------------------------------------------
    def on_said(self, e: Said) -> None:
        m = DECLARATION.match(e.text.strip())
        if m:
            for role, name, hex_key in (("attacker", "att", "att_hex"), ("defender", "def", "def_hex"),
                                        ("artillery", "arty", "arty_hex"), ("cas", "cas", "cas_hex"),
                                        ("naval", "nav", "nav_hex"), ("supply", "sup", "sup_hex"),
                                        ("mode", "mover", "mode_hex"), ("garrison", "gar", "gar_hex"),
                                        ("emergency", "em", "em_hex")):
                if m[name]:
                    piece = self.piece_named(m[name], m[hex_key])
                    if piece is not None:
                        self.declared(m["mode"].lower() if role == "mode" else role, piece, m[hex_key])
                    break
        super().on_said(e)

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        """role: attacker, defender, artillery, cas, naval, supply, garrison, emergency, or a movement
        mode (strategic movement, motor pool, rail movement, infiltration, amphibious raid)."""

    def piece_named(self, name: str, hex_id: str) -> Piece | None:
        here = self.pieces_in(hex_id) if hex_id in self.game.geometry else [
            p for p in self.replayer.board.pieces.values() if self.replayer.piece_where(p).label == hex_id]
        return next((p for p in here if p.name == name), None)

    # -- pieces -------------------------------------------------------------------------------
    def marker_id(self, p: Piece) -> str:
        return p.properties().get("MarkerId", "")

    def is_combat(self, p: Piece) -> bool:
        """A combat unit (2.21a): every unit but the REPLs (replacements have no strength)."""
        u = self.unit_of(p)
        return u is not None and u.type != "replacement"

    def combat_units(self, hex_id: str, side: str | None = None, *, at_start: bool = False) -> list[Piece]:
        pieces = self.stood_in(hex_id) if at_start else self.pieces_in(hex_id)
        return [p for p in pieces if self.is_combat(p) and (side is None or self.side_id(p) == side)]

    def enemy_hexes(self, side: str) -> set[str]:
        """Hexes holding enemy combat units."""
        enemy = self.other_side[side]
        return {h for h, ps in self.by_hex().items() if any(self.is_combat(p) and self.side_id(p) == enemy for p in ps)}

    def attack_of(self, u: s.Unit, p: Piece) -> int:
        return (u.attack_reduced if self.reduced(p) and u.attack_reduced is not None else u.attack) or 0

    def defense_of(self, u: s.Unit, p: Piece) -> int:
        return (u.defense_reduced if self.reduced(p) and u.defense_reduced is not None else u.defense) or 0

    def steps_now(self, u: s.Unit, p: Piece) -> int:
        return 1 if self.reduced(p) or u.steps <= 1 else u.steps

    def is_artillery(self, u: s.Unit) -> bool:
        return u.type == "artillery"  # 3.14: any combat unit with a range value

    def move_class(self, u: s.Unit) -> str:
        return self.tec["types"].get(u.type, {}).get("movement_class", "foot")

    def is_armored(self, u: s.Unit) -> bool:
        return bool(self.tec["types"].get(u.type, {}).get("armored"))

    def air_side(self, p: Piece) -> str | None:
        """An air or naval marker's side (its face's)."""
        m = self.game.markers.get(self.marker_id(p))
        return m.faces[0].side if m is not None and m.faces else None

    def air_support(self, p: Piece) -> int:
        m = self.game.markers.get(self.marker_id(p))
        found = SUPPORT.search(m.faces[0].text) if m is not None and m.faces else None
        return int(found[1]) if found else 0

    # -- terrain --------------------------------------------------------------------------------
    def features(self, a: str, b: str) -> frozenset[str]:
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def road_between(self, a: str, b: str) -> str | None:
        """The best road kind crossing the hexside a/b (main or minor road, else trail), None if none."""
        side = self.features(a, b)
        return next((r for r in ROADS if r in side), None)

    def on_line(self, hex_id: str, feature: str) -> bool:
        return hex_id in self._road_hexes.get(feature, ())

    def reconstructed(self, *tables: str) -> str:
        """' (reconstructed table)' when a finding rests on a table marked so."""
        return " (reconstructed table)" if any(self.game.tables[n].provenance == "reconstructed" for n in tables) else ""

    def zone_box(self, track: str, label: str) -> str | None:
        t = self.game.tracks.get(track)
        return next((b for b in t.boxes if self.game.zone_name(track, b) == label), None) if t else None
