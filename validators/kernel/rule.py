"""What a rule is: an object that checks one rule or one small family of the rulebook.

A rule's class names the rule numbers it reports (`ids`) and, where it checks a rule that has
no finding of its own number, the catalogue entries it covers (`covers`: terrain rules a path
search applies, say); its docstring says the rule in short.  It reacts to the replay's events
through the hooks below and reports with `self.find`.  It reads the match through its context:
`board` (pieces on hexes, read-only), `state` (turn, phase, scenario, declarations), `game` and
`tables` (the sources), and `ctx.get(Tracker)` for facts another object keeps.

A `Tracker` keeps facts that more than one rule reads (which units arrived, which morale roll
belongs to which unit) and reports nothing.  A rule lists the trackers it needs in `needs`; the
engine makes each once and hands it events before any rule, so a rule always sees a tracker
already up to date with the event at hand.  A tracker may also `tell` the rules a fact of its
own the moment it works it out (a round of combat closes): the rules that define a method of
that name judge it there.

A game package lists its rules explicitly, as yamllint lists its rules:

    RULES = (SequenceOfPlay, Movement, Stacking, ...)

    class Auditor(RulesAuditor):
        RULES, STATE = RULES, FoxState
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from builder.model.game import Game
from builder.record import FrozenRecord
from validators.kernel.board_view import BoardView
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed, Rolled, Said, TurnChanged
from validators.vlog.reader import Step

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # annotations only
    from typing import Any, ClassVar, TypeVar

    from validators.kernel.declarations import Declared
    from validators.kernel.state import GameState

    T = TypeVar("T", bound="Tracker")


class Context(FrozenRecord):
    """What a rule may read, and the one way it reports: `tables` (table id -> its data), `get`
    (the shared instance of a tracker, made once per audit), `report` (the engine's find: rules
    call Rule.find), `announce` (a tracker's own fact, to the parts that hear it: Tracker.tell),
    `follow_on` (the engine's is_follow_on: rules call Rule.is_follow_on)."""

    __slots__ = _fields = ("game", "board", "state", "tables", "get", "report", "announce", "follow_on")

    def __init__(self, game: Game, board: BoardView, state: GameState, tables: Mapping[str, Any],
                 get: Callable[[type[T]], T], report: Callable[..., None], announce: Callable[..., None] | None = None,
                 follow_on: Callable[..., bool] | None = None):
        self._set_fields(game, board, state, tables, get, report, announce, follow_on)


# the hooks `acts_in` may restrict to some phases: the replay's events and the two of every step
EVENT_HOOKS = frozenset({"unit_step", "moved", "flipped", "added", "removed", "rolled", "said", "declared",
                         "before_step", "after_step"})


class Tracker:
    """Facts kept for rules, from the same hooks; reports nothing."""

    needs: ClassVar[tuple[type[Tracker], ...]] = ()
    # the phases in which an event hook can act, by hook: {"unit_step": ("B", "D")} (each phase
    # named by its `id` or its `kind` in the sequence table); the engine calls the hook in no
    # other phase, nor before the first.  "unit_step" is `moved` for a unit stepping from hex to
    # hex (`{"unit_step": ()}`: never, for a part whose `moved` reads markers, or units coming onto
    # the map and leaving it); the other keys are the event hooks (EVENT_HOOKS).  A hook not named
    # hears every phase.
    # Read once every part has started: a rule whose phases are its tables' sets it in `start`.
    acts_in: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.game, self.board, self.state, self.tables = ctx.game, ctx.board, ctx.state, ctx.tables

    # hooks: the engine calls each on every tracker, then on every rule, in the game's order
    def start(self) -> None:
        """Before the first step (the board is the log's starting position)."""

    def before_step(self, step: Step) -> None: ...
    def after_step(self, step: Step) -> None: ...
    def finish(self) -> None: ...
    def tracker_moving(self, e: TurnChanged) -> None:
        """The turn tracker moves; the state still shows the phase it leaves."""

    def phase_started(self, pid: str) -> None: ...
    def phase_ended(self, pid: str) -> None: ...
    def turn_ended(self, turn: int) -> None: ...
    def moved(self, e: Moved) -> None: ...
    def flipped(self, e: Flipped) -> None: ...
    def added(self, e: Added) -> None: ...
    def removed(self, e: Removed) -> None: ...
    def rolled(self, e: Rolled) -> None: ...
    def said(self, e: Said) -> None: ...
    def declared(self, d: Declared) -> None:
        """A declaration of game.yaml ("Declare attacker") made on a unit."""

    def tell(self, fact: str, *args) -> None:
        """Announce a fact this tracker just worked out (a round of combat closing, a move it
        refuses to follow) to every rule or tracker with a method of that name, at once: they
        judge it against the match as it stands at that point of the event, so a game whose
        bookkeeping and judgements interleave keeps its findings where and in the order they
        arise, while the rules stay apart from each other and from the bookkeeping."""
        if self.ctx.announce is not None:
            self.ctx.announce(fact, *args)


class Rule(Tracker):
    """One rule or one small family; `ids` are the rulebook numbers its findings carry."""

    ids: ClassVar[tuple[str, ...]] = ()
    covers: ClassVar[tuple[str, ...]] = ()  # catalogue numbers checked without findings of their own

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        self.ids = type(self).ids_in(ctx.game)

    @classmethod
    def ids_in(cls, game: Game) -> tuple[str, ...]:
        """The numbers the rule reports in a game: its `ids`, or, for a rule whose numbers are the
        game's data (the kernel's generic rules read them from the tables), those."""
        return cls.ids

    def find(self, rule: str, message: str, piece: Piece | None = None, from_hex: str | None = None,
             to_hex: str | None = None, path=(), kind: str = "violation", side: str | None = None,
             at: int | None = None) -> None:
        """Report a broken rule (or an event such as a victory) at the step being replayed, or at
        step `at` (`state.step` when the act was seen): an act judged only later, once a correction
        could no longer undo it, is still reported where it was made."""
        self.ctx.report(self, rule, message, piece, from_hex, to_hex, path, kind, side, at)

    def once(self, *key) -> bool:
        """True the first time the rule asks with `key`, False after: for a finding made once per
        combat, hex or side."""
        seen = self.__dict__.setdefault("_once", set())
        if key in seen:
            return False
        seen.add(key)
        return True

    def is_follow_on(self, piece: Piece, rule: str) -> bool:
        """Whether a finding of `rule` for `piece` now would only follow on from an earlier move's
        finding, which the engine drops: a rule may skip working out a costly message."""
        return self.ctx.follow_on is not None and self.ctx.follow_on(piece, rule)

    @classmethod
    def code(cls) -> str:
        """Where the rule is written, as the catalogue names it: "validators/.../x.py:Class"."""
        import inspect  # only here: `hexforge rules` asks, an audit never does (start-up, issue 29)

        path = Path(inspect.getfile(cls)).resolve()
        parts = path.parts
        at = len(parts) - 1 - parts[::-1].index("validators")
        return f"{'/'.join(parts[at:])}:{cls.__qualname__}"

    @classmethod
    def numbers(cls, game: Game) -> tuple[str, ...]:
        """Every catalogue number the rule checks in a game: what it reports and what it covers."""
        ids = cls.ids_in(game)
        return ids + tuple(n for n in cls.covers if n not in ids)


def needed(rules) -> list[type[Tracker]]:
    """The trackers `rules` need, each once, every tracker after the trackers it needs."""
    out: list[type[Tracker]] = []
    for r in rules:
        for n in r.needs:
            _visit(n, (r,), out)
    return out


def _visit(t: type[Tracker], path: tuple, out: list) -> None:
    """Add `t` to `out` after what it needs (a module function: a self-calling closure would
    leave a reference cycle behind every audit)."""
    if t in path:
        raise ValueError(f"trackers need each other in a circle: {' -> '.join(x.__name__ for x in path + (t,))}")
    for n in t.needs:
        _visit(n, path + (t,), out)
    if t not in out and not issubclass(t, Rule):
        out.append(t)
