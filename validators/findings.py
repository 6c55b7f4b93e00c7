"""What the auditor reports: one `Finding` per broken rule (or game-ending event), with the
numbers that explain it.  A finding never stops the replay: VASSAL already applied the move,
so later checks must see the real board (style.md principle 5).
"""
from __future__ import annotations

from builder.record import FrozenRecord
from builder.record import Record


class Finding(FrozenRecord):
    """One act against a rule: where in the log, who, and the rule's words."""

    __slots__ = _fields = ("step", "turn", "side", "piece", "from_hex", "to_hex", "rule", "message", "kind", "path",
                           "phase", "rule_text")

    def __init__(self, step: int, turn: int | None, side: str | None, piece: str | None, from_hex: str | None,
                 to_hex: str | None, rule: str, message: str, kind: str = "violation", path: tuple[str, ...] = (),
                 phase: str | None = None, rule_text: str | None = None):
        # step: 1-based index of the logged step (0: the starting position); side: the side that
        # acted, when known; piece: its name as VASSAL shows it; rule: the rulebook number
        # ("6.1.4"); message: the explanation with the numbers ("cost 3.5 MP via 0605-0606-0607 >
        # MA 3"); kind: violation | event (a decisive victory, 13.1); path: the move's hexes,
        # outlined on the map (validators/view); rule_text: the rule's short text from the game's
        # catalogue (rules.yaml)
        self._set_fields(step, turn, side, piece, from_hex, to_hex, rule, message, kind, path, phase, rule_text)

    def to_json(self) -> dict:
        """The fields in declaration order, from_hex/to_hex last as "from"/"to" (the order
        `asdict` and two pops gave when Finding was a dataclass)."""
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
