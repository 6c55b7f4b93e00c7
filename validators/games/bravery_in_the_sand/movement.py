"""Activation and movement (5.2, 6): who moves with the drawn chit, along which path, how far.

The `Play` tracker follows the activated stack's trail and tells the moves it cannot follow
(`move_refused`, with why) and each stretch a unit goes along the trail (`advanced`).

Choices:
- 5.2.3: moves made after the next chit is pulled are moves of no activated division (5.2).
- 6: a unit left behind in a hex with enemy units is reported when the activation ends.
- 6.1: a prohibited hexside the stack went round is reported under the terrain's rule when the
  way round costs more than the MA, else the way round is the move.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import ALL, PlayRule
from validators.games.bravery_in_the_sand.state import Activation
from validators.kernel.movement import Blocked
from validators.replay.board import Piece

ROMMEL_MA = 4.0  # 10.1.1: German units of a stack under the Rommel Directive


class Activated(PlayRule):
    """5.2, 5.2.1, 6.6, 6.7, 8.1.5: only the drawn division's stack in one hex moves (a DAK chit:
    any one German division), with one Italian infantry division of its hex; garrisons never move;
    a German stack under a Combined Attack Marker with enemy units does not move out."""

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

    def move_refused(self, why: str, p: Piece, old: str, new: str | None, act: Activation | None) -> None:
        if why in self.REFUSED:
            rule, text = self.REFUSED[why]
            dak = (act.formation if act else None) or "a German division (DAK)"
            b = self.board
            self.find(rule, text.format(unit=b.unit_of(p), act=act, side=b.side_of(p), old=old, dak=dak), p, old, new)


class Movement(PlayRule):
    """6, 6.1-6.2, 6.4: the stack moves together along one path and may drop units off, not in an
    enemy hex; the path costs at most the MA (3; Italian infantry 1; 4 for Germans under the
    Rommel Directive, 10.1.1) at the hexside costs of 6.1.1-6.1.4; entering an enemy hex ends the
    move; prohibited terrain (a cliff, the sea) is not crossed."""

    ids = ("6", "6.1", "6.2", "6.4")
    covers = ("6.1.1", "6.1.2", "6.1.3", "10.1.1")
    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        """Its own numbers, and the rules of the terrain that prohibits a move (terrain.yaml)."""
        kinds = list(game.hex_terrain_types.values()) + list(game.hexside_feature_types.values())
        return cls.ids + tuple(sorted({k.rule for k in kinds if k.prohibited and k.rule} - set(cls.ids)))

    def move_refused(self, why: str, p: Piece, old: str, new: str | None, act: Activation | None) -> None:
        if why == "stopped":
            self.find("6.4", f"movement ended when the stack entered the enemy hex {old}", p, old, new)
        elif why == "off-trail":
            self.find("6", f"the stack moves together: {old} is not on its path {'-'.join(act.trail)}", p, old, new)
        elif why == "divided":
            self.find("6", f"the stack cannot divide: it went on to {act.trail[-1]}, this unit turned off at {old} to "
                      f"{new}", p, old, new)
        elif why == "dropped":
            self.find("6", f"units may not be dropped off in a hex with enemy units ({new})", p, old, new)
        elif why == "no-path":
            c = self.play.costs.step(old, new, ALL) if self.game.geometry.adjacent(old, new) else None
            if isinstance(c, Blocked):
                self.find(c.rule or "6.1", f"{old} to {new} crosses a {c.why} hexside: movement is prohibited", p, old, new)
            else:
                self.find("6.1", f"no legal path from {old} to {new}", p, old, new)

    def advanced(self, p: Piece, old: str, new: str, act: Activation, j: int) -> None:
        f = self.play
        unit = self.board.unit_of(p)
        spent = act.spent[p.id] / f.costs.scale
        german = self.game.formations[unit.formation].nationality == "german"
        allowance = ROMMEL_MA if act.rommel and german else float(unit.ma)
        if spent <= allowance + 1e-9:
            return
        direct = f.costs.step(old, new, ALL) if self.game.geometry.adjacent(old, new) else None
        if self.is_follow_on(p, (direct.rule or "6.1") if isinstance(direct, Blocked) else "6.2"):
            return  # the engine drops it: spare the path's text
        path = act.trail[: j + 1]
        via = '-'.join(path[path.index(act.start_hex):])
        if isinstance(direct, Blocked):
            self.find(direct.rule or "6.1", f"{old} to {new} crosses a {direct.why} hexside: movement is prohibited (the "
                      f"way round costs {spent:g} MP via {via} > MA {allowance:g})", p, old, new)
        else:
            self.find("6.2", f"cost {spent:g} MP via {via} > MA {allowance:g}", p, act.start_hex, new, path)
