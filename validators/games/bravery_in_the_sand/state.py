"""Where a match is: the kernel's game state (the five phases of rule 4, tables/sequence.yaml), with
the side of the chit last drawn as the acting side (5.2); and what an activation and a combat
are (the `Play` tracker keeps them).

Choice (4): the audit starts at the first turn and phase, whatever a saved game's tracker shows;
a tracker move to no known phase keeps the phase (a turn change still counts).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from validators.kernel.state import GameState
from validators.replay.replayer import Moved, TurnChanged


class BraveryState(GameState):
    """Turn and phase from the tracker; the acting side from the chit drawn."""

    def __init__(self, board, notify):
        super().__init__(board, notify)
        g = self.game
        self.turn = g.info.turns.first
        self.phase = self.phase_specs[0]["name"] if self.phase_specs else None
        self.mug = g.map.decks[0].name if g.map.decks else "Mug"
        act = g.tracks.get("activation")
        self.activation_boxes = {g.zone_name("activation", b): int(b) for b in act.boxes} if act else {}

    def initial_phase(self) -> TurnChanged | None:
        return None  # see the Choice

    def follow(self, e: TurnChanged) -> None:
        if e.phase_index is not None and 0 <= e.phase_index < len(self.phase_specs):
            super().follow(e)
        elif e.turn is not None:
            self.turn = e.turn

    def phasing(self) -> str | None:
        """The side of the chit last drawn."""
        return self.board.side_ids.get(self.side_acting or "")

    def moved(self, e: Moved) -> None:
        if e.old.label == self.mug and e.new.label in self.activation_boxes:
            props = e.piece.properties()
            if props.get("Kind") == "chit":
                self.side_acting = props.get("Side")


@dataclass(eq=False)
class Activation:
    """One drawn chit and what it set moving (5.2)."""

    chit: str
    side: str
    formation: str | None  # None: a DAK chit before the German division is chosen (5.1.5)
    box: int
    rommel: bool = False
    start_hex: str | None = None
    trail: list[str] = field(default_factory=list)  # hexes the stack passed, in order
    place: dict[str, int] = field(default_factory=dict)  # piece id -> its index on the trail
    members: set[str] = field(default_factory=set)  # piece ids of the activated stack
    italians: str | None = None  # the Italian infantry division moving with it (6.6)
    spent: dict[str, int] = field(default_factory=dict)  # piece id -> cost units spent
    stopped: dict[str, str] = field(default_factory=dict)  # piece id -> the enemy hex where it stopped (6.4)
    combat: Combat | None = None
    ended: bool = False  # a Combined Attack was declared (8.1.2)
    idle_rolls_seen: bool = False  # dice rolled with no enemy in the stack's hex (6.5), told once


@dataclass(eq=False)
class Combat:
    """A combat in one hex: rounds of simultaneous fire, damage, retreats, recovery (7)."""

    hex: str
    attacker: str
    defender: str
    rolls: dict[str, tuple[int, ...]] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)  # hits scored BY a side this round
    damage: dict[str, int] = field(default_factory=dict)  # damage points applied TO a side this round
    damaged_total: dict[str, int] = field(default_factory=dict)  # over the whole combat (7.3.3)
    damaged_armor: dict[str, set[str]] = field(default_factory=dict)
    rounds: int = 0
    fortified: bool = False
    retreated: set[str] = field(default_factory=set)
    recovery: dict[str, int] = field(default_factory=dict)  # successes left for a side
    min_rounds: int = 1  # 8.2.4: as many rounds as attacking stacks
    entered_from: str | None = None  # 7.3.5: where the attackers came from
    all_in: bool = False  # 8.4.2: an end-of-turn Combined Attack, every unit in the hex fights
    before: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)  # (level index, reduced) at round start
    damage_levels: dict[str, list[int]] = field(default_factory=dict)  # level index of each damage point this round
    lost: set[str] = field(default_factory=set)  # sides that had a unit eliminated here (12.1.3, 12.1.4)
    retreat_order: list[str] = field(default_factory=list)  # sides in the order they left the hex (12.1.2)
    control_before: str | None = None  # who held the hex's Control Marker when the combat began (12.1.3, 12.1.5)
