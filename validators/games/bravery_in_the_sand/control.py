"""Control of strategic hexes (12) and decisive victory (13.1, conditions in tables/victory.yaml)."""
from __future__ import annotations

from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Flipped


class ControlRules(BaseAuditor):
    """Part of the Bravery in the Sand auditor; see __init__.py."""

    def _controller(self, hex_id: str) -> str | None:
        for p in self.pieces_in(hex_id):
            if p.properties().get("MarkerId") == "control":
                face = self.game.markers["control"].faces[max(0, p.layer_level("Face") - 1)]
                return self.side_name.get(face.side or "")
        return None

    def _control_flipped(self, e: Flipped) -> None:
        """12.1: control follows the units; the marker must not show a side that has not taken it."""
        hex_id = e.where.label
        face = self.game.markers["control"].faces[max(0, e.new - 1)]
        side = self.side_name.get(face.side or "")
        present = {self.side_of(q) for q in self.units_in(hex_id)}
        if self.started and side not in present and self.passed.get(hex_id) != side:
            self.find("12.1", f"control of {hex_id} flipped to {side}, but no {side} unit is there or passed through",
                      e.piece, to_hex=hex_id, side=side)

    def _passes(self, side: str | None, hexes) -> None:
        """12.1.1: an empty strategic hex belongs to the side that last passed through it."""
        for h in hexes:
            place = self.game.places.get(h)
            if place and place.strategic and side:
                self.passed[h] = side

    def _victory(self) -> None:
        """13.1: decisive victories end the game at once; reported as events where they occur.

        The conditions are data (tables/victory.yaml); none apply in extended play (13.2.2)."""
        if (self.turn or 0) > self.game.info.turns.last:
            return
        v = self.game.tables["victory"].data if "victory" in self.game.tables else {}
        name = self.side_name
        for c in v.get("control", []):
            if self._controller(c["hex"]) == name[c["winner"]]:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: {c['hex']} is under its control",
                            name[c["winner"]])
        for c in v.get("tanks", []):
            strength = self._tank_strength(name[c["side"]], c.get("nationality"))
            if strength <= c["at_most"]:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: {name[c['side']]} "
                            f"{c.get('nationality', '')} tank strength {strength:g} <= {c['at_most']:g}".replace("  ", " "),
                            name[c["winner"]])
        for c in v.get("breakthrough", []):
            self._breakthrough(c)
        for c in v.get("relief", []):
            strength = self._strength(c["hex"], name[c["side"]])
            blockers = [h for h in c["hexes"] if any(self._nationality(q) == c["clear_of"] for q in self.units_in(h))]
            if strength >= c["strength"] and not blockers:
                self._event(c["rule"], f"{name[c['winner']]} decisive victory: Combat Strength {strength:g} in "
                            f"{c['hex']} and no {c['clear_of']} units in {', '.join(c['hexes'])}", name[c["winner"]])

    def _breakthrough(self, c: dict) -> None:
        """13.1.1.3: strength in an exit hex, and a road/track line home avoiding enemy control markers."""
        winner = self.side_name[c["winner"]]
        for start in c["from"]:
            strength = self.combat_strength(q for q in self.units_in(start, winner)
                                            if self._nationality(q) == c["nationality"])
            if strength < c["strength"]:
                continue
            seen, todo = {start}, [start]
            while todo:
                a = todo.pop()
                if a in c["to"] and self._controller(a) == winner:
                    self._event(c["rule"], f"{winner} decisive victory: {c['nationality']} Combat Strength "
                                f"{strength:g} in {start}, connected by road or track to {a}", winner)
                    return
                for b in self.game.geometry.neighbours(a):
                    feats = self.game.hexside_features.get(tuple(sorted((a, b))), frozenset())
                    enemy_marker = self._controller(b) not in (None, winner)
                    if b not in seen and feats & set(c["features"]) and not enemy_marker:
                        seen.add(b)
                        todo.append(b)

    def _strength(self, hex_id: str, side: str) -> float:
        return self.combat_strength(self.units_in(hex_id, side))

    def _nationality(self, p: Piece) -> str | None:
        u = self.unit_of(p)
        return self.game.formations[u.formation].nationality if u else None

    def _tank_strength(self, side: str | None, nationality: str | None = None) -> float:
        return self.combat_strength(p for p in self.units_on_map()
                                    if self.side_of(p) == side and self.unit_of(p).type == "armor"
                                    and nationality in (None, self._nationality(p)))

    def _tactical_victory(self, turn: int) -> None:
        """13.2: after the last turn, victory points of the strategic hexes each side controls;
        a tie extends play one turn at a time (13.2.2)."""
        points: dict[str, int] = {name: 0 for name in self.side_name.values()}
        for place in self.game.map.places:
            owner = self._controller(place.hex) if place.strategic else None
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

    def _event(self, rule: str, message: str, side: str | None) -> None:
        if rule not in self.ended_victory:
            self.ended_victory.add(rule)
            self.find(rule, message, kind="event", side=side)
