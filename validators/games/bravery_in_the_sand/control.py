"""Control of strategic hexes (12) and decisive victory (13.1, conditions in tables/victory.yaml)."""
from __future__ import annotations

from validators.games.bravery_in_the_sand.state import Combat
from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Flipped


class ControlRules(BaseAuditor):
    """Part of the Bravery in the Sand auditor; see __init__.py."""

    def _control_marker(self, hex_id: str) -> Piece | None:
        return next((p for p in self.pieces_in(hex_id) if p.properties().get("MarkerId") == "control"), None)

    def _controller(self, hex_id: str) -> str | None:
        p = self._control_marker(hex_id)
        if p is None:
            return None
        face = self.game.markers["control"].faces[max(0, p.layer_level("Face") - 1)]
        return self.side_name.get(face.side or "")

    def _control_side(self, level: int) -> str | None:
        return self.side_name.get(self.game.markers["control"].faces[max(0, level - 1)].side or "")

    def _both_sides_in(self, hex_id: str) -> bool:
        return len({self.side_of(q) for q in self.units_in(hex_id)}) > 1

    def _control_flipped(self, e: Flipped) -> None:
        """12.1: control follows the units; the marker must not show a side that has not taken it.

        After a combat in the hex, the flip must give the side 12.1.2-12.1.4 name, as far as the
        combat has gone (`_due_control`).  While units of both sides share the hex, control stays
        with whoever held it last (12.1.5).  Otherwise the new side must be there or be the last
        to have passed through (12.1.1).
        """
        if not self.started:
            return
        hex_id, side = e.where.label, self._control_side(e.new)
        c = self.fought.get(hex_id)
        if c is not None and c.rounds:
            due, rule, why = self._due_control(c)
            if due is not None and side != due:
                c.control_reported = True
                self.find(rule, f"control of {hex_id} flipped to {side}, but {why}: it belongs to {due}",
                          e.piece, to_hex=hex_id, side=side)
            return
        if self._both_sides_in(hex_id):
            held = c.control_before if c is not None else self._control_side(e.old)
            if side != held:
                self.find("12.1.5", f"control of {hex_id} flipped to {side} while units of both sides are there: "
                          f"it stays with {held}, who controlled it last", e.piece, to_hex=hex_id, side=side)
            return
        present = {self.side_of(q) for q in self.units_in(hex_id)}
        if side not in present and self.passed.get(hex_id) != side:
            self.find("12.1", f"control of {hex_id} flipped to {side}, but no {side} unit is there or passed through",
                      e.piece, to_hex=hex_id, side=side)

    def _watch_control(self, c: Combat) -> None:
        """A combat opens in a hex: remember who held its Control Marker (12.1.3, 12.1.5).

        A hex already watched (a Combined Attack waiting there) keeps the holder from before."""
        if self._control_marker(c.hex) is None:
            return
        old = self.fought.get(c.hex)
        c.control_before = old.control_before if old is not None else self._controller(c.hex)
        self.fought[c.hex] = c

    def _due_control(self, c: Combat) -> tuple[str | None, str, str]:
        """Who controls a combat hex, as far as the combat has gone: (side, rule, why).

        A side is destroyed when all its units in the hex were eliminated there (by damage, or
        for want of a retreat hex, 7.3.5), and retreated when its units left the hex.
        Choice (12.1, 12.1.1): when one side retreats and the other stays, the side that stays
        controls the hex: it is the side that last passed through it (12.1.1 for an empty hex),
        and 12.1.2-12.1.5 name no other holder.
        """
        if not c.defender:
            return None, "12.1", ""
        sides = (c.attacker, c.defender)
        present = [x for x in sides if self.units_in(c.hex, x)]
        if len(present) == 2:
            return c.control_before, "12.1.5", "units of both sides are still there"
        gone = [x for x in sides if x not in present]
        destroyed = [x for x in gone if x in c.lost and x not in c.retreat_order]
        if len(destroyed) == 2:
            return c.control_before, "12.1.3", "both sides were destroyed there"
        if destroyed:
            other = c.defender if destroyed[0] == c.attacker else c.attacker
            tail = "" if other in present else f", even though {other} retreated"
            return other, "12.1.4", f"{destroyed[0]} was destroyed there{tail}"
        retreated = [x for x in c.retreat_order if x in gone]
        if len(retreated) == 2:
            return retreated[-1], "12.1.2", f"both sides retreated, {retreated[-1]} last"
        if present and retreated:
            return present[0], "12.1", f"{retreated[0]} retreated and {present[0]} stays"
        return None, "12.1", ""

    def _settle_control(self) -> None:
        """12.1: after each combat in a strategic hex, the Control Marker shows the side 12.1.2-12.1.4 name.

        Choice (5.2.3, 12.1): all combat of an activation is resolved before the next chit is
        pulled, so a flip still missing is reported when the activation ends: at the next chit
        drawn, at the start of the Combined Attacks phase, at the turn's end (which also ends the
        Combined Attacks of 8.4) or at the end of the log.  A wrong flip is reported where it is
        made.  A hex still holding both sides (a Combined Attack waiting, 12.1.5) is settled later.
        """
        for hex_id, c in list(self.fought.items()):
            if self._both_sides_in(hex_id):
                continue
            del self.fought[hex_id]
            due, rule, why = self._due_control(c) if c.rounds else (None, "", "")
            if due is None:
                continue
            self.passed[hex_id] = due  # 12.1.1: who holds it if it stays empty
            held = self._controller(hex_id)
            if held != due and not c.control_reported:
                self.find(rule, f"control of {hex_id} passes to {due} ({why}); its Control Marker still shows {held}",
                          self._control_marker(hex_id), to_hex=hex_id, side=due)

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
