"""Control of strategic hexes (12) and victory (13), as the `Play` tracker keeps who last passed
through each strategic hex (12.1.1) and the combats there, and tells when one is settled.

Choices:
- 12.1: a wrong flip is reported where it is made; a flip still missing when the activation ends
  is reported then, unless a wrong flip of that hex was.
- 13.1: victories are events; each decisive condition (tables/victory.yaml) is reported once,
  after the step that meets it, none in extended play (13.2.2); play after it and the Axis
  precedence are not checked.
"""
from __future__ import annotations

from validators.games.bravery_in_the_sand.play import Combat, PlayRule
from validators.replay.replayer import Flipped


class Control(PlayRule):
    """12.1: an empty hex is the last passer's (12.1.1); after combat, the stayer's, the last to retreat
    (12.1.2), the survivor's (12.1.4), else its holder's (12.1.3, 12.1.5)."""

    ids = ("12.1", "12.1.2", "12.1.3", "12.1.4", "12.1.5")
    covers = ("12.1.1",)

    def flipped(self, e: Flipped) -> None:
        if e.layer != "Face" or e.piece.properties().get("MarkerId") != "control" or not self.play.started:
            return
        f, b = self.play, self.board
        hex_id, side = e.where.label, b.face_side("control", e.new)
        c = self.play.fought.get(hex_id)
        if c is not None and c.rounds:
            due, rule, why = self.play.due_control(c)
            if due is not None and side != due:
                self.once(c)  # its hex's wrong flip is reported: not again at the settling
                self.find(rule, f"control of {hex_id} flipped to {side}, but {why}: it belongs to {due}",
                          e.piece, to_hex=hex_id, side=side)
            return
        if f.both_sides_in(hex_id):
            held = c.control_before if c is not None else b.face_side("control", e.old)
            if side != held:
                self.find("12.1.5", f"control of {hex_id} flipped to {side} while units of both sides are there: "
                          f"it stays with {held}, who controlled it last", e.piece, to_hex=hex_id, side=side)
            return
        present = {b.side_of(q) for q in b.units_in(hex_id)}
        if side not in present and self.play.passed.get(hex_id) != side:
            self.find("12.1", f"control of {hex_id} flipped to {side}, but no {side} unit is there or passed through",
                      e.piece, to_hex=hex_id, side=side)

    def control_settling(self, hex_id: str, c: Combat, due: str, rule: str, why: str) -> None:
        held = self.play.controller(hex_id)
        if held != due and self.once(c):
            self.find(rule, f"control of {hex_id} passes to {due} ({why}); its Control Marker still shows {held}",
                      self.play.control_marker(hex_id), to_hex=hex_id, side=due)


class DecisiveVictory(PlayRule):
    """13.1: a decisive victory ends the game: Tobruk taken or relieved, enemy tanks down to a
    strength, a breakthrough home by road and track."""

    covers = ("13", "13.1")
    seen = -1  # Play's count of changes when last judged

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        """The conditions' rules (tables/victory.yaml)."""
        v = game.tables["victory"].data if "victory" in game.tables else {}
        return tuple(sorted({c["rule"] for conditions in v.values() for c in conditions}))

    def after_step(self, step) -> None:
        """Judged after a step that eliminated, returned or flipped a unit or marker."""
        if self.play.started and self.play.changes != self.seen:
            self.seen = self.play.changes
            self._check()

    def _check(self) -> None:
        if (self.state.turn or 0) > self.game.info.turns.last:
            return
        v, f, b, name = self.tables.get("victory", {}), self.play, self.board, self.board.side_names
        for c in v.get("control", []):
            if f.controller(c["hex"]) == (w := name[c["winner"]]):
                self._event(c["rule"], f"{w} decisive victory: {c['hex']} is under its control", w)
        for c in v.get("tanks", []):
            strength = f.combat_strength(p for p in b.units_on_map() if b.side_of(p) == name[c["side"]] and b.unit_of(
                p).type == "armor" and c.get("nationality") in (None, f.nationality(p)))
            if strength <= c["at_most"]:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: {name[c['side']]} "
                            f"{c.get('nationality', '')} tank strength {strength:g} <= {c['at_most']:g}".replace("  ", " "),
                            name[c["winner"]])
        for c in v.get("breakthrough", []):
            self._breakthrough(c)
        for c in v.get("relief", []):
            strength = f.combat_strength(b.units_in(c["hex"], name[c["side"]]))
            blockers = [h for h in c["hexes"] if any(f.nationality(q) == c["clear_of"] for q in b.units_in(h))]
            if strength >= c["strength"] and not blockers:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: Combat Strength {strength:g} in "
                            f"{c['hex']} and no {c['clear_of']} units in {', '.join(c['hexes'])}", name[c["winner"]])

    def _breakthrough(self, c: dict) -> None:
        """13.1.1.3: strength in an exit hex, and a road/track line home avoiding enemy control markers."""
        f, g = self.play, self.game
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
                for b in g.geometry.neighbours(a):  # along a road or track, avoiding enemy Control Markers
                    if b not in seen and g.hexside_features.get(tuple(sorted((a, b))), frozenset()) & set(c["features"]) \
                            and f.controller(b) in (None, winner):
                        seen.add(b)
                        todo.append(b)

    def _event(self, rule: str, message: str, side: str | None) -> None:
        if self.once(rule):
            self.find(rule, message, kind="event", side=side)


class TacticalVictory(PlayRule):
    """13.2: after the last turn, the side whose strategic hexes are worth more victory points wins;
    a tie extends play one turn at a time (13.2.2)."""

    ids = ("13.2",)

    def turn_over(self, turn: int) -> None:
        points: dict[str, int] = {name: 0 for name in self.board.side_names.values()}
        for place in (x for x in self.game.map.places if x.strategic):
            if owner := self.play.controller(place.hex):
                points[owner] += place.vp
        tally = ", ".join(f"{side} {vp} VP" for side, vp in points.items())
        winners = [side for side, vp in points.items() if vp == max(points.values())]
        if len(winners) == 1:
            self.find("13.2", f"end of turn {turn}: {winners[0]} tactical victory ({tally})", kind="event",
                      side=winners[0])
        else:
            self.find("13.2", f"end of turn {turn}: tied ({tally}); play goes on for another turn (13.2.2)",
                      kind="event")
