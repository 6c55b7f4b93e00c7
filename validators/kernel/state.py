"""Where the match stands: turn and phase from the turn tracker, read against the game's
sequence of play (tables/sequence.yaml), the scenario in play, who is phasing, and the
declarations made in the phase.

Each phase of the table may say what it is for (`kind`: movement, combat...) and whose it is:
`side` (a side id, fixed) or `player` (`first`/`second`, for games where the order of play is
chosen each turn).  A game whose order is chosen and not logged learns it from play (`claim`):
the first side to act in a phase of one player takes that role.

The state is the first to hear every event, so a rule always reads it up to date; it reports
nothing.  A game extends it (one subclass) for what only that game's turn has.
"""
from __future__ import annotations

from collections.abc import Callable

from validators.kernel.board_view import BoardView
from validators.kernel.declarations import Declarations, Declared
from validators.replay.replayer import Moved, Said, TurnChanged


class GameState:
    """Turn, phase, phasing side and scenario; phase changes are announced through `notify`."""

    learns_first_player = False  # the 1st player is claimed by play (see the module's docstring)
    # the phase is unknown until the tracker first moves (its first phase is where the log begins),
    # the turn is the game's first until then, and a turn ends only once a phase of it has begun
    phases_from_first_move = False
    claim_kinds = ("movement", "combat")  # phase kinds in which a first act claims the role

    def __init__(self, board: BoardView, notify: Callable[..., None]):
        self.board, self.game, self.notify = board, board.game, notify
        self.tables = {k: t.data for k, t in self.game.tables.items()}
        seq = self.game.table("sequence")
        self.phase_specs: list[dict] = list(seq.data["phases"]) if seq is not None else []
        self.step = 0  # the log step being replayed (0: the log's beginning)
        # the turn: the tracker's when it has phases to follow (unknown until it is seen), else the first
        self.turn: int | None = (None if self.phase_specs and not self.phases_from_first_move
                                 else self.game.info.turns.first)
        self.phase: str | None = None  # the phase's name
        self.phase_id: str | None = None  # its `id` (a rulebook numeral), else None
        self.phase_kind: str | None = None
        self.phase_player: str | None = None  # 'first' / 'second'
        self.phase_side: str | None = None  # a fixed side id
        self.phase_pos: tuple[int, int] | None = None  # (turn, index in the sequence)
        self.prev_phase_pos: tuple[int, int] | None = None
        self.side_acting: str | None = None  # the phasing side's name, when known
        self.scenario = self.find_scenario()
        self.card = self.game.scenarios.get(self.scenario or "")
        self.first_player: str | None = None
        self.opening: TurnChanged | None = None  # the phase the log begins in (initial_phase), set at the start
        self.declarations: list[Declared] = []  # made in this phase, in log order
        self._templates = Declarations(self.game.info.declarations)
        self._dice_sides = {d.name: d.side for d in self.game.info.dice}

    # -- the scenario ---------------------------------------------------------------------------
    def find_scenario(self) -> str | None:
        """The scenario being played: the card whose set-up most units stand on at the log's
        beginning (a log may begin a game or continue one)."""
        here = {}
        board = self.board
        for p in board.replayer.board.pieces.values():
            u = board.unit_of(p)
            if u is not None:
                here[u.id] = board.where(p)
        best, score = None, 0
        for sid, sc in sorted(self.game.scenarios.items()):
            n = sum(1 for u in sc.units
                    if here.get(u.unit) is not None
                    and here.get(u.unit) == (u.hex or (self.game.zone_name(u.track, u.box) if u.track else None)))
            if n > score:
                best, score = sid, n
        return best

    def initial_phase(self) -> TurnChanged | None:
        """The phase to enter before the first step: where the log's turn tracker stands when it
        begins (None: the phase is unknown until the tracker first moves)."""
        first = self.board.replayer.initial_turn
        known = first.phase_index is not None and self.phase_specs and not self.phases_from_first_move
        return first if known else None

    # -- the turn tracker ------------------------------------------------------------------------
    def follow(self, e: TurnChanged) -> None:
        """The tracker moved: the phase left ends (and the turn), the new one starts."""
        specs = self.phase_specs
        index = e.phase_index if e.phase_index is not None and 0 <= e.phase_index < len(specs) else None
        if self.phase_id is not None:
            self.notify("phase_ended", self.phase_id)
        new_turn = e.turn if e.turn is not None else self.turn
        if self.turn is not None and new_turn != self.turn and (self.phase_id is not None or not self.phases_from_first_move):
            self.notify("turn_ended", self.turn)
        if index is not None or not self.phases_from_first_move:
            self.prev_phase_pos, self.phase_pos = self.phase_pos, (new_turn or 0, index if index is not None else -1)
        self.turn = new_turn
        spec = specs[index] if index is not None else None
        self.phase = spec["name"] if spec else None
        self.phase_id = spec.get("id", spec["name"]) if spec else None
        self.phase_kind = spec.get("kind") if spec else None
        self.phase_player = spec.get("player") if spec else None
        self.phase_side = spec.get("side") if spec else None
        self.declarations = []
        self.entering()
        self.side_acting = self.board.side_names.get(self.phasing() or "")
        if self.phase_id is not None:
            self.notify("phase_started", self.phase_id)

    def entering(self) -> None:
        """A game's own bookkeeping as a phase begins, before rules hear of it."""

    def went_back(self) -> tuple[int, str, int, str] | None:
        """(turn, phase name) left and entered, when the tracker just moved back: to an earlier
        phase of the turn or an earlier turn (a log that begins mid-game excepted)."""
        before, now = self.prev_phase_pos, self.phase_pos
        if before is None or now is None or before[1] < 0 or now[1] < 0:
            return None
        (t0, i0), (t1, i1) = before, now
        if t1 < t0 or (t1 == t0 and i1 < i0):
            names = [p["name"] for p in self.phase_specs]
            return t0, names[i0], t1, names[i1]
        return None

    def phasing(self) -> str | None:
        """The side id whose phase this is, None when not known or both."""
        if self.phase_side is not None:
            return self.phase_side
        if self.first_player is None or self.phase_player is None:
            return None
        return self.first_player if self.phase_player == "first" else self.board.other_side[self.first_player]

    def claim(self, side: str | None) -> None:
        """A side's first act in a phase of one player tells who the 1st player is."""
        if (self.learns_first_player and side is not None and self.first_player is None
                and self.phase_player is not None and self.phase_kind in self.claim_kinds):
            self.first_player = side if self.phase_player == "first" else self.board.other_side[side]
            self.side_acting = self.board.side_names.get(self.phasing() or "")

    # -- events the state reads ----------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        """A side moving a ground unit hex to hex in a phase of one player claims its role."""

    def read_declaration(self, e: Said) -> Declared | None:
        """The declaration a chat line makes, kept for the phase; None when it is none."""
        m = self._templates.match(e.text)
        if m is None:
            return None
        d, name, where = m
        piece = self.board.named(name, where)
        if piece is None:
            return None
        out = Declared(d.name, piece, where, d.rule)
        if not self.keeps(out):
            return None
        self.declarations.append(out)
        return out

    def keeps(self, d: Declared) -> bool:
        """Whether a declaration counts (a game may want some made only on a unit in a hex)."""
        return True

    def dice_side(self, button: str) -> str | None:
        """The side id whose dice button this is (game.yaml `dice`)."""
        return self._dice_sides.get(button)

    def declared_in_phase(self, name: str) -> list[Declared]:
        return [d for d in self.declarations if d.name == name]

    # -- the tables --------------------------------------------------------------------------------
    def reconstructed(self, *tables: str) -> str:
        """" (reconstructed table)" when a finding rests on a table marked so."""
        known = self.game.tables
        return " (reconstructed table)" if any(known[n].provenance == "reconstructed" for n in tables
                                               if n in known) else ""
