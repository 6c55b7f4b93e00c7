"""Victory (13): decisive victories (13.1, conditions in tables/victory.yaml) and the tactical
victory after the last turn (13.2), reported as events where they occur.

Choices:
- 13.1: each condition is reported once, after the step that meets it; none applies in extended
  play (13.2.2).  Play after a decisive victory and the Axis precedence are not checked.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import Play
from validators.games.bravery_in_the_sand.units import Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Flipped, Moved, Removed


class DecisiveVictory(Rule):
    """13.1: the game ends at once when a side meets a decisive victory condition: Tobruk held,
    enemy tanks down to a strength, a breakthrough home along roads and tracks, Tobruk relieved."""

    covers = ("13", "13.1")
    needs = (Forces, Play)

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        """The conditions' rules (tables/victory.yaml)."""
        v = game.tables["victory"].data if "victory" in game.tables else {}
        return tuple(sorted({c["rule"] for conditions in v.values() if isinstance(conditions, list)
                             for c in conditions if isinstance(c, dict) and "rule" in c}))

    def start(self) -> None:
        self.forces, self.play = self.ctx.get(Forces), self.ctx.get(Play)
        self.dirty = True
        self.ended: set[str] = set()

    def moved(self, e: Moved) -> None:
        elim = self.play.eliminated
        if (e.new.label in elim or e.old.label in elim) and e.old.label != e.new.label \
                and e.piece.properties().get("Kind") == "unit":
            self.dirty = True

    def removed(self, e: Removed) -> None:
        self.dirty = True

    def flipped(self, e: Flipped) -> None:
        self.dirty = True

    def after_step(self, step) -> None:
        if self.play.started and self.dirty:
            self.dirty = False
            self._check()

    def _check(self) -> None:
        if (self.state.turn or 0) > self.game.info.turns.last:
            return
        v, f, b = self.tables.get("victory", {}), self.forces, self.board
        name = b.side_names
        for c in v.get("control", []):
            if f.controller(c["hex"]) == name[c["winner"]]:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: {c['hex']} is under its control",
                            name[c["winner"]])
        for c in v.get("tanks", []):
            strength = f.tank_strength(name[c["side"]], c.get("nationality"))
            if strength <= c["at_most"]:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: {name[c['side']]} "
                            f"{c.get('nationality', '')} tank strength {strength:g} <= {c['at_most']:g}".replace("  ", " "),
                            name[c["winner"]])
        for c in v.get("breakthrough", []):
            self._breakthrough(c)
        for c in v.get("relief", []):
            strength = f.strength(c["hex"], name[c["side"]])
            blockers = [h for h in c["hexes"] if any(f.nationality(q) == c["clear_of"] for q in b.units_in(h))]
            if strength >= c["strength"] and not blockers:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: Combat Strength {strength:g} in "
                            f"{c['hex']} and no {c['clear_of']} units in {', '.join(c['hexes'])}", name[c["winner"]])

    def _breakthrough(self, c: dict) -> None:
        """13.1.1.3: strength in an exit hex, and a road/track line home avoiding enemy control markers."""
        f, g = self.forces, self.game
        winner = self.board.side_names[c["winner"]]
        for start in c["from"]:
            strength = f.combat_strength(q for q in self.board.units_in(start, winner)
                                         if f.nationality(q) == c["nationality"])
            if strength < c["strength"]:
                continue
            seen, todo = {start}, [start]
            while todo:
                a = todo.pop()
                if a in c["to"] and f.controller(a) == winner:
                    self._event(c["rule"], f"{winner} decisive victory: {c['nationality']} Combat Strength "
                                f"{strength:g} in {start}, connected by road or track to {a}", winner)
                    return
                for b in g.geometry.neighbours(a):
                    feats = g.hexside_features.get(tuple(sorted((a, b))), frozenset())
                    enemy_marker = f.controller(b) not in (None, winner)
                    if b not in seen and feats & set(c["features"]) and not enemy_marker:
                        seen.add(b)
                        todo.append(b)

    def _event(self, rule: str, message: str, side: str | None) -> None:
        if rule not in self.ended:
            self.ended.add(rule)
            self.find(rule, message, kind="event", side=side)


class TacticalVictory(Rule):
    """13.2: after the last turn, the side whose strategic hexes are worth more victory points wins;
    a tie extends play one turn at a time (13.2.2)."""

    ids = ("13.2",)
    needs = (Forces, Play)

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)

    def turn_over(self, turn: int) -> None:
        points: dict[str, int] = {name: 0 for name in self.board.side_names.values()}
        for place in self.game.map.places:
            owner = self.forces.controller(place.hex) if place.strategic else None
            if owner:
                points[owner] += place.vp
        tally = ", ".join(f"{side} {vp} VP" for side, vp in points.items())
        best = max(points.values())
        winners = [side for side, vp in points.items() if vp == best]
        if len(winners) == 1:
            self.find("13.2", f"end of turn {turn}: {winners[0]} tactical victory ({tally})", kind="event",
                      side=winners[0])
        else:
            self.find("13.2", f"end of turn {turn}: tied ({tally}); play goes on for another turn (13.2.2)",
                      kind="event")
