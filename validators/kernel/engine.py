"""The engine that runs a game's registered rules over a replay.

A game package's `Auditor` (what `validators.games.rules_for` finds) subclasses `RulesAuditor`
and sets `RULES` (its rule classes, in the order they hear events) and `STATE` (its game
state).  The engine replays the log, keeps the game state, hands every event to
the state, then to each tracker the rules need, then to each rule in the order the game lists
them, and collects their findings.  The state runs its own phase changes, so a rule hears
`phase_ended` of the phase it was in, then `phase_started` of the next.

`only`/`skip` select rules by number (`validators.kernel.selection`): a rule not selected is not
made at all, and a finding of a number not selected is dropped.  `strict` (set by the test
suite) refuses a finding whose number the rule does not declare in `ids`, which keeps the
registry - and so the catalogue's `code` - true to the code.
"""
from __future__ import annotations

from collections.abc import Iterable

from builder.model.game import Game
from validators.kernel.auditor import BaseAuditor
from validators.kernel.rule import EVENT_HOOKS, Context, Rule, Tracker, needed
from validators.kernel.selection import Selection
from validators.kernel.state import GameState
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed, Replayer, Rolled, Said, TurnChanged
from validators.vlog.reader import Step


UNIT_STEP = "moved: a unit's step"  # `moved` of a unit from hex to hex (acts_in's "unit_step")


class RulesAuditor(BaseAuditor):
    """Replays a log through a game's rules."""

    RULES: tuple[type[Rule], ...] = ()
    STATE: type[GameState] = GameState
    strict = False  # the test suite sets it for every audit (tests/conftest.py)

    def __init__(self, game: Game, replayer: Replayer, only: Iterable[str] = (), skip: Iterable[str] = ()):
        super().__init__(game, replayer)
        self.selection = Selection.of(only, skip)
        self.state = self.STATE(self, self._notify)
        self._trackers: dict[type, Tracker] = {}
        self.ctx = Context(game, self, self.state, self.state.tables, self._tracker, self._report, self._announce,
                           self.is_follow_on)
        numbers = {r: r.ids_in(game) for r in self.RULES}
        rules = [r for r in self.RULES if numbers[r] and (not self.selection or self.selection.runs(numbers[r]))]
        for t in needed(rules):
            self._trackers[t] = t(self.ctx)
        self.rules = [r(self.ctx) for r in rules]
        self.parts: list[Tracker] = [*self._trackers.values(), *self.rules]
        self._hooks: dict[str, list] = {}  # hook -> the bound methods of the parts that define it
        self._told: dict[str, list] = {}  # a tracker's fact (Tracker.tell) -> the methods that hear it
        self._phased: frozenset[str] = frozenset()  # the hooks some part hears only in some phases (start)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for r in cls.RULES:
            if not (isinstance(r, type) and issubclass(r, Rule)) or not (r.ids or r.ids_in.__func__ is not Rule.ids_in.__func__):
                raise TypeError(f"{cls.__name__}.RULES: {r!r} is not a Rule with ids (or ids_in)")

    def run(self):
        try:
            return sorted(super().run(), key=lambda f: f.step)  # a finding made later for an earlier act
        finally:
            self._release()

    def _release(self) -> None:
        """Drop the auditor's references to its parts once the run is over: rules and the state
        hold the auditor (their context), so an audit would otherwise leave cycles that only the
        collector frees, and batch workers run with it paused (issue 15)."""
        self.parts, self.rules, self._trackers, self._hooks, self._told = [], [], {}, {}, {}
        self._every_step = ((), ())
        self.ctx = self.state = None

    def _tracker(self, kind: type) -> Tracker:
        found = self._trackers.get(kind)
        if found is None:
            raise KeyError(f"{kind.__name__} is not among the trackers the game's rules need (add it to `needs`)")
        return found

    def _notify(self, hook: str, *args) -> None:
        methods = self._hooks.get(hook)
        for method in self._listening(hook) if methods is None else methods:
            method(*args)

    def _listening(self, hook: str) -> list:
        """The bound methods of the parts that have the hook (most hear a few events) and act on
        it in the phase at hand (`acts_in`; for UNIT_STEP, their `moved` where "unit_step" allows it
        too)."""
        name = "moved" if hook == UNIT_STEP else hook
        step = hook == UNIT_STEP
        here = (self.state.phase_id, self.state.phase_kind)
        methods = self._hooks[hook] = [getattr(p, name) for p in self.parts
                                       if getattr(type(p), name) is not getattr(Tracker, name)
                                       and (not p.acts_in or (_acts(p.acts_in.get(name), here)
                                                              and (not step or _acts(p.acts_in.get("unit_step"), here))))]
        return methods

    def _phasing(self) -> frozenset[str]:
        """The hooks some part hears only in some phases (`acts_in`, read once the parts have
        started: a rule may work its phases out from its tables); their lists of methods are made
        again whenever the phase changes."""
        phased = set()
        for p in self.parts:
            wrong = set(p.acts_in).difference(EVENT_HOOKS)
            if wrong:
                raise TypeError(f"{type(p).__name__}.acts_in: {', '.join(sorted(wrong))} is not an event hook "
                                f"({', '.join(sorted(EVENT_HOOKS))})")
            phased.update(UNIT_STEP if h == "unit_step" else h for h in p.acts_in)
        if "moved" in phased:
            phased.add(UNIT_STEP)
        return frozenset(phased)

    def _rephase(self) -> None:
        """The phase changed: the hooks heard only in some phases are listed again when next called."""
        for hook in self._phased:
            self._hooks.pop(hook, None)
        if "before_step" in self._phased or "after_step" in self._phased:
            self._every_step = (self._listening("before_step"), self._listening("after_step"))

    def _announce(self, fact: str, *args) -> None:
        methods = self._told.get(fact)
        if methods is None:  # the parts with a method of the fact's name, in the game's order
            methods = self._told[fact] = [getattr(p, fact) for p in self.parts if callable(getattr(type(p), fact, None))]
        for method in methods:
            method(*args)

    # -- findings ------------------------------------------------------------------------------
    def _sync(self) -> None:
        st = self.state
        self.turn, self.phase, self.side_acting = st.turn, st.phase, st.side_acting

    def _report(self, rule: Rule, number: str, message: str, piece: Piece | None, from_hex, to_hex, path, kind,
                side, at: int | None = None) -> None:
        if self.strict and number not in rule.ids:
            raise AssertionError(f"{type(rule).__name__} reports {number}, which its ids {rule.ids} do not list")
        if self.selection and not self.selection.reports(number):
            return
        self._sync()
        before = len(self.findings)
        self.find(number, message, piece, from_hex, to_hex, path, kind, side)
        if at is not None and len(self.findings) > before:
            self.findings[-1] = self.findings[-1].replace(step=at)

    def is_follow_on(self, piece: Piece, rule: str) -> bool:
        self._sync()
        return super().is_follow_on(piece, rule)

    # -- the hooks, passed on ----------------------------------------------------------------------
    def start(self) -> None:
        self._begin = self.state.opening = self.state.initial_phase()
        self._notify("start")
        self._phased = self._phasing()
        self._every_step = (self._listening("before_step"), self._listening("after_step"))
        self._sync()

    def before_step(self, step: Step) -> None:
        self.state.step = step.index
        if self._begin is not None:
            begin, self._begin = self._begin, None
            self.dispatch(begin)
        for method in self._every_step[0]:  # the two hooks of every step, looked up once
            method(step)

    def after_step(self, step: Step) -> None:
        for method in self._every_step[1]:
            method(step)

    def finish(self) -> None:
        self._notify("finish")
        self._sync()

    def on_turn(self, e: TurnChanged) -> None:
        self._notify("tracker_moving", e)
        self.state.follow(e)
        if self._phased:
            self._rephase()
        self._sync()

    def on_moved(self, e: Moved) -> None:
        self.state.moved(e)
        hexes = self.game.geometry.ids
        hook = UNIT_STEP if e.old.label in hexes and e.new.label in hexes and self.unit_of(e.piece) is not None else "moved"
        methods = self._hooks.get(hook)  # _notify's work inline: the commonest event of a log
        for method in self._listening(hook) if methods is None else methods:
            method(e)

    def on_flipped(self, e: Flipped) -> None:
        self._notify("flipped", e)

    def on_added(self, e: Added) -> None:
        self._notify("added", e)

    def on_removed(self, e: Removed) -> None:
        self._notify("removed", e)

    def on_rolled(self, e: Rolled) -> None:
        self._notify("rolled", e)

    def on_said(self, e: Said) -> None:
        d = self.state.read_declaration(e)
        self._notify("said", e)
        if d is not None:
            self._notify("declared", d)


def _acts(phases: tuple[str, ...] | None, here: tuple[str | None, str | None]) -> bool:
    """Whether a hook heard in `phases` (None: every phase) acts in the phase `here` (id, kind)."""
    return phases is None or (here[0] is not None and here[0] in phases) or (here[1] is not None and here[1] in phases)
