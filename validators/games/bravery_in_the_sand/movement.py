"""The turn's activations (3-6, 10.1): the set-up, chits drawn, the Rommel Directive, who moves
and how far; judged as the `Play` tracker tells play starting, each draw, the moves it cannot
follow (`move_refused`) and each stretch a unit goes along its stack's trail (`advanced`).

Choices:
- 3: moves before play starts (the first phase after Replacements, or the first chit drawn)
  adjust the set-up; where each unit stands when play starts is checked against the card.
- 5.1.3, 5.1.4: what goes in the mug is secret (5.1.2): a chit that may not is reported when
  drawn.  A division is destroyed (5.1.3) when none of its units was on the map as the turn
  began; one destroyed later in the turn is drawn normally (5.1.6).
- 5.2.3: moves made after the next chit is pulled are moves of no activated division (5.2).
- 6: a unit left behind in a hex with enemy units is reported when the activation ends.
- 6.1: a prohibited hexside the stack went round is reported under the terrain's rule when the
  way round costs more than the MA.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import ALL, Activation, PlayRule
from validators.kernel.movement import Blocked
from validators.replay.board import Piece


class SetUp(PlayRule):
    """3: every unit starts in the hex the set-up card gives it (or its formation)."""

    ids = ("3",)

    def play_started(self) -> None:
        b = self.board
        sc = self.state.card or next(iter(self.game.scenarios.values()))
        home = {f.formation: f.hex for f in sc.formations}
        for p in b.units_on_map() + [p for p in b.replayer.board.on_map() if b.unit_of(p) and not b.hex_of(p)]:
            u = b.unit_of(p)
            want = next((x.hex for x in sc.units if x.unit == u.id), home.get(u.formation))
            if want and b.hex_of(p) != want:
                self.find("3", f"set-up: {u.formation} units start in {want}, this one is in {b.where(p)}",
                          p, want, b.hex_of(p))


class ChitDraws(PlayRule):
    """4, 5.1: chits go into the next box, right to left, until box 1; none of a division destroyed
    (5.1.3) or replaced (5.1.4); one destroyed this turn still has its chit placed (5.1.6)."""

    ids = ("4", "5.1.3", "5.1.4", "5.1.6")
    covers = ("5.1", "11.4")

    def drew(self, chit: Piece, formation: str | None, box: int, expected: int | None, aside) -> None:
        turn = self.state.turn
        if aside is not None:
            piece, name, due = aside
            self.find("5.1.6", f"the chit of {name}, destroyed earlier this turn, was pulled and set aside; it goes "
                      f"on the Activation Track (box {due}) before the next chit is pulled", piece,
                      to_hex=f"Activation {due}")
        if expected is not None and box != expected:
            self.find("4", f"chit placed in Activation box {box}; the next draw of turn {turn} goes in box {expected}",
                      chit, to_hex=f"Activation {box}")
        if expected is not None and expected < 1:
            self.find("4", f"a chit was drawn after box 1 was filled: turn {turn} draws no more", chit)
        if formation in self.game.formations:
            if formation not in self.play.on_map_at_turn_start:
                self.find("5.1.3", f"{formation} had no units left at the start of the turn; its chit may not go in "
                          "the mug", chit)
            if formation in self.play.replaced:
                self.find("5.1.4", f"{formation} received replacements this turn (11.4); its chit may not go in the "
                          "mug", chit)


class RommelDirective(PlayRule):
    """10.1: the Rommel Directive is declared from turn 4, once a turn, when a DAK chit is pulled."""

    ids = ("10.1",)
    covers = ("10.2",)

    def rommel_declared(self, marker: Piece, act: Activation | None, used_turn: int | None) -> None:
        turn = self.state.turn
        if (turn or 0) < 4:
            self.find("10.1", f"the Rommel Directive may be declared from turn 4 (turn {turn})", marker)
        elif act is None or not act.chit.endswith("dak"):
            self.find("10.1", "the Rommel Directive is declared when a DAK chit is pulled", marker)
        elif used_turn == turn:
            self.find("10.1", f"the Rommel Directive was already used in turn {turn}", marker)


class Activated(PlayRule):
    """5.2, 5.2.1, 6.6, 6.7, 8.1.5: only the drawn division's stack in one hex moves (DAK: any German
    one, with one Italian infantry division of its hex); no garrison, nor a German stack under a
    Combined Attack Marker with enemies."""

    ids = ("5.2", "5.2.1", "6.6", "6.7", "8.1.5")
    covers = ("5.1.5", "5.2.3", "7.3.4", "8.1.1", "8.1.2")
    REFUSED = {  # why Play refused to follow a move -> (rule, message)
        "garrison": ("6.7", "{unit.formation} is a garrison: it never moves"),
        "idle": ("5.2", "no activated division: units move only after their chit is drawn"),
        "side": ("5.2", "the drawn chit ({act.chit}) activates a {act.side} division, not this {side} unit"),
        "start-hex": ("5.2.1", "only the {act.formation} units in {act.start_hex} are activated; this one started in {old}"),
        "italians": ("6.6", "{unit.formation} infantry may move only with a German stack activated in its own hex "
                            "({act.start_hex}), one division at a time"),
        "formation": ("5.2.1", "the drawn chit activates {dak}, not {unit.formation}"),
        "combined-attack": ("8.1.5", "a German stack under a Combined Attack Marker in {old} may attack or wait, "
                                     "not move out")}


class Movement(PlayRule):
    """6, 6.1-6.2, 6.4: the stack moves together, dropping units off but not in an enemy hex, at most
    its MA (10.1.1: 4 under the Rommel Directive) at 6.1.1-6.1.4's costs, not across prohibited
    terrain; entering an enemy hex ends the move."""

    ids = ("6", "6.1", "6.2", "6.4")
    covers = ("6.1.1", "6.1.2", "6.1.3", "10.1.1")

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        """Its own numbers, and the rules of the terrain that prohibits a move (terrain.yaml)."""
        kinds = list(game.hex_terrain_types.values()) + list(game.hexside_feature_types.values())
        return cls.ids + tuple(sorted({k.rule for k in kinds if k.prohibited and k.rule} - set(cls.ids)))

    REFUSED = {"stopped": ("6.4", "movement ended when the stack entered the enemy hex {old}"),
               "off-trail": ("6", "the stack moves together: {old} is not on its path {trail}"),
               "divided": ("6", "the stack cannot divide: it went on to {end}, this unit turned off at {old} to {new}"),
               "dropped": ("6", "units may not be dropped off in a hex with enemy units ({new})")}  # told as it ends

    def move_refused(self, why: str, p: Piece, old: str, new: str | None, act: Activation | None) -> None:
        super().move_refused(why, p, old, new, act)
        if why == "no-path":
            c = self.play.costs.step(old, new, ALL) if self.game.geometry.adjacent(old, new) else None
            if isinstance(c, Blocked):
                self.find(c.rule or "6.1", f"{old} to {new} crosses a {c.why} hexside: movement is prohibited", p, old, new)
            else:
                self.find("6.1", f"no legal path from {old} to {new}", p, old, new)

    def start(self) -> None:
        super().start()
        self.folded: set[tuple] = set()  # (piece, rule, move scope) the engine folds (a one-way answer)

    def advanced(self, p: Piece, unit, old: str, new: str, act: Activation, j: int) -> None:
        f = self.play
        spent = act.spent[p.id] / f.costs.scale
        allowance = 4.0 if act.rommel and f.nationality(p) == "german" else float(unit.ma)  # 6.1; 10.1.1: Rommel
        if spent <= allowance + 1e-9:
            return
        direct = f.costs.step(old, new, ALL) if self.game.geometry.adjacent(old, new) else None
        rule = (direct.rule or "6.1") if isinstance(direct, Blocked) else "6.2"
        key = (p.id, rule, self.state.turn, self.state.phase, act.box, act.chit)  # the Auditor's move_scope
        if key in self.folded or self.is_follow_on(p, rule):
            self.folded.add(key)  # the engine drops it: spare the path's text
            return
        path = act.trail[: j + 1]
        via = '-'.join(path[path.index(act.start_hex):])
        if isinstance(direct, Blocked):
            self.find(rule, f"{old} to {new} crosses a {direct.why} hexside: movement is prohibited (the "
                      f"way round costs {spent:g} MP via {via} > MA {allowance:g})", p, old, new)
        else:
            self.find("6.2", f"cost {spent:g} MP via {via} > MA {allowance:g}", p, act.start_hex, new, path)
