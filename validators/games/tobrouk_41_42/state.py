"""Where a Tobrouk 41-42 match is: the kernel's game state, with the pair of maneuvers, the
active and maneuvering side, and the MP and I/V tracks.

The module's turn tracker walks the six phases of tables/sequence.yaml (A Administrative,
B Active player's maneuver, C Combat, D Reactive player's maneuver, E Combat, F Alternation and
end of turn); a new pair of maneuvers goes back from F to B within the same turn (2.25).

Choices (the log cannot show a spoken choice):
- 2.1: the initiative winner's choice of the active player is not in the log.  The active side
  of a turn is the side that first acts in a phase B of that turn: its MP marker moves or one
  of its units moves.  The reactive side is the other one.
- The phasing side is known only once a side has acted (a finding before then names no side).
- A log begins where its tracker stands but play is judged from the tracker's first move: the
  set-up (11.1) and the approach march come before it.
- The scenario is the one whose scenario card (markers.yaml `card-<id>`) is on the board, else
  the card most units stand on; Historical and hypothetical Gazala share one set-up (11.3a), so
  both stay candidates (`candidates`) and rules that differ between them hold only where every
  one agrees (reserves.py).
"""
from __future__ import annotations

from validators.kernel.declarations import Declared
from validators.kernel.state import GameState
from validators.replay.replayer import Moved, Said, TurnChanged

MANEUVERS = ("B", "D")
COMBATS = ("C", "E")
FIRE = {"Declare firer": "firer", "Declare target": "target", "Coordinated fire": "coordinated"}  # game.yaml
MP_MARKERS = {"mp-axis": "axis", "mp-cw": "commonwealth"}
MP_MARKER_OF = {side: marker for marker, side in MP_MARKERS.items()}  # side id -> its MP marker


def scenario_rules(cards: dict, scenario: str | None) -> dict:
    """A scenario's rules (tables/scenario-rules.yaml): its own keys, over those of the scenario it
    is `same_as` (11.3a: "as 11.2"), less the entries whose rule it names in `without`."""
    sc = cards.get(scenario or "", {})
    base = cards.get(sc.get("same_as", ""), {}) if isinstance(sc, dict) else {}
    without = set(sc.get("without", ())) if isinstance(sc, dict) else set()
    out = {}
    for key, value in {**base, **sc}.items():
        if key in sc:
            out[key] = value
        elif isinstance(value, dict) and value.get("rule") in without:
            continue
        elif isinstance(value, list):
            out[key] = [v for v in value if not (isinstance(v, dict) and v.get("rule") in without)]
        else:
            out[key] = value
    return out


class TobroukState(GameState):
    """Turn, phase, pair of maneuvers and the active side; sides by id ('axis', 'commonwealth')."""

    def __init__(self, board, notify):
        super().__init__(board, notify)
        self.turn = self.game.info.turns.first  # play before the tracker first moves is the first turn's
        self.pair = 1  # the pair of maneuvers being played (2.21c)
        self.active: str | None = None  # side id of the turn's active player
        self.man = self.tables["maneuver"]
        self.sc_rules = scenario_rules(self.tables.get("scenario-rules", {}), self.scenario)
        self.mp_start: dict[str, int] = {}  # side -> MP box when the phase began
        self.line: tuple | None = None  # (declaration, name, location) of the chat line being heard
        self._at: dict = {}  # (track, map, x, y) -> the box of the track there (box_of)
        self._mp_at: dict = {}  # (MP marker, map, x, y) -> mp_box there
        self._boxes: dict[str, dict[str, str]] = {}  # track -> its boxes by location name (track_boxes)

    def find_scenario(self) -> str | None:
        board = self.board
        pieces = board.replayer.board.pieces.values()
        cards = {p.properties().get("MarkerId", "") for p in pieces}
        named = [sid for sid in sorted(self.game.scenarios) if f"card-{sid}" in cards]
        if len(named) == 1:
            self.candidates = (named[0],)
            return named[0]
        here = {}
        for p in pieces:
            u = board.unit_of(p)
            if u is not None:
                here[u.id] = board.hex_of(p)
        scores = {sid: sum(1 for u in sc.units if u.hex and here.get(u.unit) == u.hex)
                  for sid, sc in sorted(self.game.scenarios.items())}
        top = max(scores.values(), default=0)
        self.candidates = tuple(sid for sid, n in scores.items() if n == top and top)
        return self.candidates[0] if self.candidates else None

    def initial_phase(self) -> TurnChanged | None:
        return None  # see Choices: play starts when the tracker first moves

    def entering(self) -> None:
        before = self.prev_phase_pos  # (turn, index) of the phase left
        if before is not None and before[0] != self.turn:
            self.active, self.pair = None, 1
        elif before is not None and before[1] >= 0 and self.phase_specs[before[1]]["id"] == "F" \
                and self.phase_id not in (None, "F"):
            self.pair += 1
        self.mp_start = {side: self.mp_box(side) or 0 for side in self.board.side_names}

    def phasing(self) -> str | None:
        return None  # learnt from play (moved)

    def maneuvering(self) -> str | None:
        """The side id whose maneuver (B, D) or whose maneuver's combat (C, E) this is."""
        if self.active is None:
            return None
        if self.phase_id in ("B", "C"):
            return self.active
        if self.phase_id in ("D", "E"):
            return self.board.other_side[self.active]
        return None

    def moved(self, e: Moved) -> None:
        """2.1: the first side to act in a phase B (its MP marker or a unit moving) is the active player."""
        board = self.board
        if self.active is None and self.phase_id == "B" and e.old.label != e.new.label:
            side = MP_MARKERS.get(e.piece.properties().get("MarkerId", "")) or (
                board.side_id(e.piece) if board.unit_of(e.piece) else None)
            if side:
                self.active = side
                self.side_acting = board.side_names[side]
        maneuvering = self.maneuvering()
        if maneuvering:
            self.side_acting = board.side_names[maneuvering]

    def read_declaration(self, e: Said) -> Declared | None:
        """Every template's line is kept in `line` (rules read the unit by its name as they need);
        the fire declarations are made on a unit in a hex and are dispatched as `declared`."""
        self.line = self._templates.match(e.text)
        if self.line is None or self.line[0].name not in FIRE:
            return None
        return super().read_declaration(e)

    def keeps(self, d: Declared) -> bool:
        return self.board.on_map(d.where)

    def line_of(self, declaration: str) -> tuple[str, str] | None:
        """(name, location) of the line being heard when it is `declaration` (game.yaml's name)."""
        line = self.line
        return (line[1], line[2]) if line is not None and line[0].name == declaration else None

    def named_unit(self, name: str):
        """The first unit of that name anywhere (the squadron of an air strike is on no hex)."""
        board = self.board
        return next((p for p in board.replayer.board.pieces.values() if p.name == name and board.unit_of(p)), None)

    def track_boxes(self, track: str) -> dict[str, str]:
        """A track's boxes by location name ('MP 3' -> '3'); none for a track the game lacks."""
        found = self._boxes.get(track)
        if found is None:
            t = self.game.tracks.get(track)
            found = self._boxes[track] = {self.game.zone_name(track, b): b for b in reversed(t.boxes)} if t else {}
        return found

    def box_of(self, marker: str, track: str) -> str | None:
        """The box of a track marker, None off the track."""
        p = self.board.marker(marker)
        if p is None:
            return None
        key = (track, p.map, p.x, p.y)
        if key not in self._at:
            self._at[key] = self.track_boxes(track).get(self.board.replayer.piece_where(p).label)
        return self._at[key]

    def mp_box(self, side: str) -> int | None:
        """The MP box the side's marker stands in, kept by place: asked at every step of a unit."""
        marker = MP_MARKER_OF[side]
        p = self.board.marker(marker)
        if p is None:
            return None
        key = (marker, p.map, p.x, p.y)
        if key not in self._mp_at:
            box = self.box_of(marker, "mp")
            self._mp_at[key] = int(box) if box is not None and box.isdigit() else None
        return self._mp_at[key]

    def maneuver_mp(self, side: str) -> int:
        """MP chosen for the side's maneuver in progress: how far its MP marker moved in the phase."""
        now, then = self.mp_box(side), self.mp_start.get(side)
        return max(0, now - then) if now is not None and then is not None else 0

    def iv_value(self) -> int | None:
        """The I/V marker's value: + towards the Commonwealth, - towards the Axis (the two 0 boxes are 0)."""
        box = self.box_of("iv", "iv")
        return None if box is None else box_value(box)


def box_value(box: str) -> int:
    """An I/V box's value: + towards the Commonwealth, - towards the Axis (the two 0 boxes are 0)."""
    if box.startswith("0"):
        return 0
    return int(box[:-1]) * (1 if box.endswith("C") else -1)
