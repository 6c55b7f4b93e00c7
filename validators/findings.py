"""What the auditor reports: one `Finding` per broken rule (or game-ending event), with the
numbers that explain it.  A finding never stops the replay: VASSAL already applied the move,
so later checks must see the real board (style.md principle 5).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from validators.record import Record


@dataclass(frozen=True)
class Finding:
    """One act against a rule: where in the log, who, and the rule's words."""

    step: int  # 1-based index of the logged step (0: the starting position)
    turn: int | None
    side: str | None  # the side that acted, when known
    piece: str | None  # piece name as VASSAL shows it
    from_hex: str | None
    to_hex: str | None
    rule: str  # rulebook number, e.g. "6.1.4"
    message: str  # explanation with the numbers, e.g. "cost 3.5 MP via 0605-0606-0607 > MA 3"
    kind: str = "violation"  # violation | event (e.g. a decisive victory, 13.1)
    path: tuple[str, ...] = field(default=())  # hexes of the move, outlined on the map (validators/view)
    phase: str | None = None
    rule_text: str | None = None  # the rule's short text from the game's catalogue (rules.yaml)

    def to_json(self) -> dict:
        """The fields in declaration order, from_hex/to_hex last as "from"/"to" (the order
        `asdict` and two pops gave; written out because `asdict` deep-copies every field)."""
        return {"step": self.step, "turn": self.turn, "side": self.side, "piece": self.piece,
                "rule": self.rule, "message": self.message, "kind": self.kind, "path": list(self.path),
                "phase": self.phase, "rule_text": self.rule_text, "from": self.from_hex, "to": self.to_hex}


class MatchSummary(Record):
    """Facts about the whole match, for the report header."""

    __slots__ = ("steps", "turns", "dice_by_side", "undo_count", "last_turn")

    def __init__(self, steps: int, turns: tuple[int, ...], dice_by_side: dict[str, int], undo_count: int,
                 last_turn: int | None = None):
        self.steps, self.turns, self.dice_by_side, self.undo_count = steps, turns, dice_by_side, undo_count
        self.last_turn = last_turn


class AuditReport(Record):
    """What an audit of one log found, with its summary."""

    __slots__ = ("game", "log", "summary", "findings", "notes")

    def __init__(self, game: str, log: str, summary: MatchSummary, findings: tuple[Finding, ...],
                 notes: tuple[str, ...] = ()):
        self.game, self.log, self.summary, self.findings = game, log, summary, findings
        self.notes = notes  # what the reader should know and no rule reports (pieces a piece map left out)

    @property
    def violations(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "violation"]

    def to_json(self) -> dict:
        return {"game": self.game, "log": self.log, "steps": self.summary.steps,
                "summary": {"turns": list(self.summary.turns), "dice_by_side": self.summary.dice_by_side,
                            "undo_count": self.summary.undo_count, "last_turn": self.summary.last_turn},
                "violations": [f.to_json() for f in self.violations],
                "events": [f.to_json() for f in self.findings if f.kind != "violation"],
                **({"notes": list(self.notes)} if self.notes else {})}
