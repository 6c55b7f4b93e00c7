"""Bravery in the Sand: the rules a VASSAL log can show, checked step by step.

Rule numbers are the rulebook's (../shared/seeds/000_48ad4592f1b982c9.txt).  Tables (costs,
modifiers, hit and recovery numbers) come from the sources.  Choices where the text is
ambiguous are recorded where they are made ("Choice:").
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from builder.model import schema as s
from validators.kernel.auditor import BaseAuditor
from validators.kernel.movement import cheapest_path, crossing
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed, Rolled, TurnChanged

LEVELS = "ABCD"


@dataclass
class Activation:
    """One drawn chit and what it set moving (5.2)."""

    chit: str
    side: str
    formation: str | None  # None: a DAK chit before the German division is chosen (5.1.5)
    box: int
    rommel: bool = False
    start_hex: str | None = None
    trail: list[str] = field(default_factory=list)  # hexes the stack passed, in order
    members: set[str] = field(default_factory=set)  # piece ids of the activated stack
    italians: str | None = None  # the Italian infantry division moving with it (6.6)
    spent: dict[str, float] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)  # entered an enemy hex (6.4)
    combat: Combat | None = None
    ended: bool = False  # a Combined Attack was declared (8.1.2)


@dataclass
class Combat:
    """A combat in one hex: rounds of simultaneous fire, damage, retreats, recovery (7)."""

    hex: str
    attacker: str
    defender: str
    rolls: dict[str, tuple[int, ...]] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)  # hits scored BY a side this round
    damage: dict[str, int] = field(default_factory=dict)  # damage points applied TO a side this round
    damaged_total: dict[str, int] = field(default_factory=dict)  # over the whole combat (7.3.3)
    damaged_armor: dict[str, set[str]] = field(default_factory=dict)
    rounds: int = 0
    fortified: bool = False
    retreated: set[str] = field(default_factory=set)
    recovery: dict[str, int] = field(default_factory=dict)  # successes left for a side
    reported: set[tuple[str, str]] = field(default_factory=set)  # (rule, side) already reported once
    min_rounds: int = 1  # 8.2.4: as many rounds as attacking stacks
    before: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)  # (level index, reduced) at round start
    damage_levels: dict[str, list[int]] = field(default_factory=dict)  # level index of each damage point this round


class Auditor(BaseAuditor):
    def start(self) -> None:
        g = self.game
        self.side_name = {x.id: x.name for x in g.info.sides}
        self.combat_table = g.tables["combat"].data
        self.phases = [p["name"] for p in g.tables["sequence"].data["phases"]] if "sequence" in g.tables else []
        self.phase = self.phases[0] if self.phases else None
        self.mug = g.map.decks[0].name if g.map.decks else "Mug"
        self.eliminated = {g.zone_name("eliminated", b): b for b in g.tracks["eliminated"].boxes} if "eliminated" in g.tracks else {}
        act = g.tracks.get("activation")
        self.activation_boxes = {g.zone_name("activation", b): int(b) for b in act.boxes} if act else {}
        self.first_box = {}
        for box, caption in (act.captions.items() if act else []):
            for word in caption.replace("/", " ").split():
                if word.isdigit():
                    self.first_box[int(word)] = int(box)
            if "Ext" in caption:
                self.first_box["ext"] = int(box)
        self.started = False
        self.activation: Activation | None = None
        self.next_box: int | None = None
        self.replaced: dict[str, float] = {}  # formation -> replacement points this turn (11.4)
        self.replacement_points = 0.0
        self.rommel_turn: int | None = None
        self.passed: dict[str, str] = {}  # strategic hex -> side that last passed through (12.1.1)
        self.ended_victory: set[str] = set()
        self.on_map_at_turn_start: set[str] = set()
        self._victory_dirty = True
        self._new_turn(self.turn or 1)

    # ---- turn and phase ------------------------------------------------------------------
    def on_turn(self, e: TurnChanged) -> None:
        if e.turn is not None and e.turn != self.turn:
            self._close_activation()
            self._new_turn(e.turn)
        if e.phase_index is not None and 0 <= e.phase_index < len(self.phases):
            self.phase = self.phases[e.phase_index]
            if self.phase not in ("Replacements",):
                self._start_play()

    def _new_turn(self, turn: int) -> None:
        self.turn = turn
        self.next_box = self.first_box.get(turn, self.first_box.get("ext"))
        self.replaced, self.replacement_points = {}, 0.0
        self.under_ca: dict[str, str] = {}  # unit -> hex where it waits under a Combined Attack Marker
        self.on_map_at_turn_start = {u.formation for p in self.units_on_map() if (u := self.unit_of(p))}

    def _start_play(self) -> None:
        """Play starts: from now on moves are moves; before, they adjust the set-up (rule 3)."""
        if self.started:
            return
        self.started = True
        sc = next(iter(self.game.scenarios.values()))
        home = {f.formation: f.hex for f in sc.formations}
        for p in self.units_on_map() + [p for p in self.replayer.board.on_map() if self.unit_of(p) and not self.hex_of(p)]:
            u = self.unit_of(p)
            want = next((x.hex for x in sc.units if x.unit == u.id), home.get(u.formation))
            if want and self.hex_of(p) != want:
                self.find("3", f"set-up: {u.formation} units start in {want}, this one is in "
                          f"{self.replayer.piece_where(p).label}", p, want, self.hex_of(p))

    # ---- moves ---------------------------------------------------------------------------
    def on_moved(self, e: Moved) -> None:
        props = e.piece.properties()
        kind = props.get("Kind")
        if kind == "chit":
            self._chit_moved(e, props)
        elif kind == "marker":
            self._marker_moved(e, props)
        elif kind == "unit" and e.old.label != e.new.label:
            self._unit_moved(e)

    def _chit_moved(self, e: Moved, props: dict[str, str]) -> None:
        if e.old.label == self.mug and e.new.label in self.activation_boxes:
            self._start_play()
            self._draw(e.piece, props, self.activation_boxes[e.new.label])

    def _draw(self, chit: Piece, props: dict[str, str], box: int) -> None:
        """4, 5.1: chits are drawn into the next box, right to left; one activation each."""
        self._close_activation()
        side = props.get("Side")
        formation = props.get("Formation")
        self.side_acting = side
        if self.next_box is not None and box != self.next_box:
            self.find("4", f"chit placed in Activation box {box}; the next draw of turn {self.turn} goes in box "
                      f"{self.next_box}", chit, to_hex=f"Activation {box}")
        if self.next_box is not None and self.next_box < 1:
            self.find("4", f"a chit was drawn after box 1 was filled: turn {self.turn} draws no more", chit)
        self.next_box = box - 1
        dak = formation not in self.game.formations
        if not dak and formation not in self.on_map_at_turn_start:
            self.find("5.1.3", f"{formation} had no units left at the start of the turn; its chit may not go in the mug", chit)
        if not dak and formation in self.replaced:
            self.find("5.1.4", f"{formation} received replacements this turn (11.4); its chit may not go in the mug", chit)
        self.activation = Activation(props.get("ChitId", ""), side or "", None if dak else formation, box)

    def _marker_moved(self, e: Moved, props: dict[str, str]) -> None:
        marker = props.get("MarkerId")
        act = self.activation
        if marker == "rommel" and e.new.label in self.activation_boxes:
            self._rommel(e.piece)
        elif marker == "combined-attack" and act and e.new.label in self.game.geometry:
            if act.trail and e.new.label == act.trail[-1]:
                act.ended = True  # 8.1.2: the declaration ends the activation
                act.combat = None
                for i in self._under_combined_attack(e.new.label, act.side):
                    self.under_ca[i] = e.new.label  # 8.4.1: until the end of the turn

    def _rommel(self, marker: Piece) -> None:
        """10.1: from turn 4, once a turn, on a DAK chit."""
        act = self.activation
        if (self.turn or 0) < 4:
            self.find("10.1", f"the Rommel Directive may be declared from turn 4 (turn {self.turn})", marker)
        elif act is None or not act.chit.endswith("dak"):
            self.find("10.1", "the Rommel Directive is declared when a DAK chit is pulled", marker)
        elif self.rommel_turn == self.turn:
            self.find("10.1", f"the Rommel Directive was already used in turn {self.turn}", marker)
        if act is not None:
            act.rommel = True
        self.rommel_turn = self.turn

    def _unit_moved(self, e: Moved) -> None:
        unit = self.unit_of(e.piece)
        old, new = e.old.label, e.new.label
        if new in self.eliminated or old in self.eliminated:
            self._victory_dirty = True
        self._passes(self.side_of(e.piece), [new])
        if new in self.eliminated:
            self._damage(e.piece, unit, old, eliminated=True)
            return
        if old in self.eliminated and new in self.game.geometry:
            self._returned(e.piece, unit, new)
            return
        if not self.started or old not in self.game.geometry or new not in self.game.geometry:
            return
        if self.game.formations[unit.formation].garrison:
            self.find("6.7", f"{unit.formation} is a garrison: it never moves", e.piece, old, new)
            return
        combat = self._combat_at(old)
        if combat and self.side_of(e.piece) in (combat.attacker, combat.defender) and combat.rounds:
            if combat.rolls:
                self._close_round(combat)  # a retreat comes after the damage of the round
            self._retreat(e.piece, unit, combat, old, new)
            return
        self._activated_move(e.piece, unit, old, new)

    def _activated_move(self, p: Piece, unit: s.Unit, old: str, new: str) -> None:
        """5.2 who may move, 6 how far and where."""
        act = self.activation
        side = self.side_of(p)
        if act is None or act.ended:
            self.find("5.2", "no activated division: units move only after their chit is drawn", p, old, new)
            return
        if side != act.side:
            self.find("5.2", f"the drawn chit ({act.chit}) activates a {act.side} division, not this {side} unit", p, old, new)
            return
        if not self._may_move_with(act, p, unit, old):
            return
        if p.id in act.stopped:
            self.find("6.4", f"movement ended when the stack entered the enemy hex {old}", p, old, new)
            return
        if self._nationality(p) == "german" and self.under_ca.get(p.id) == old and self._enemies(old, side):
            self.find("8.1.5", f"a German stack under a Combined Attack Marker in {old} may attack or wait, "
                      "not move out", p, old, new)
            return
        self._trail_move(act, p, unit, old, new)

    def _may_move_with(self, act: Activation, p: Piece, unit: s.Unit, old: str) -> bool:
        formation = self.game.formations[unit.formation]
        nat = formation.nationality
        if act.formation is None and nat == "german" and not formation.garrison:
            act.formation = unit.formation  # 5.1.5: the DAK chit activates any one German division
        if act.start_hex is None and (unit.formation == act.formation):
            act.start_hex = old
            act.trail = [old]
            act.members = {q.id for q in self.units_in(old) + [p] if (u := self.unit_of(q)) and u.formation == act.formation}
        if unit.formation == act.formation and p.id in act.members:
            return True
        if unit.formation == act.formation:
            self.find("5.2.1", f"only the {act.formation} units in {act.start_hex} are activated; this one started in {old}",
                      p, old)
            return False
        italian_foot = nat == "italian" and formation.chits == 0 and unit.type == "infantry"
        german_act = act.formation and self.game.formations[act.formation].nationality == "german"
        if italian_foot and german_act and act.start_hex and old == act.start_hex and p.id not in act.spent and act.italians in (None, unit.formation):
            act.italians = unit.formation  # 6.6: one Italian infantry division may go with the German stack
            act.members.add(p.id)
            return True
        if italian_foot and german_act:
            self.find("6.6", f"{unit.formation} infantry may move only with a German stack activated in its own hex "
                      f"({act.start_hex}), one division at a time", p, old)
            return False
        self.find("5.2.1", f"the drawn chit activates {act.formation or 'a German division (DAK)'}, not {unit.formation}",
                  p, old)
        return False

    def _trail_move(self, act: Activation, p: Piece, unit: s.Unit, old: str, new: str) -> None:
        """The stack moves together along one trail; units may be dropped off (6)."""
        trail = act.trail
        if old not in trail:
            self.find("6", f"the stack moves together: {old} is not on its path {'-'.join(trail)}", p, old, new)
            return
        i = trail.index(old)
        if new in trail[i + 1:]:
            segment = trail[i:trail.index(new, i + 1) + 1]
            cost = sum(crossing(self.game, a, b).cost or 0 for a, b in zip(segment, segment[1:]))
        elif i == len(trail) - 1:
            enemy = frozenset(self.occupied_by_enemy(act.side) - {new})
            found = cheapest_path(self.game, old, new, enemy)
            if found is None:
                self._no_path(p, old, new)
                return
            cost, segment = found
            trail.extend(segment[1:])
        else:
            self.find("6", f"the stack cannot divide: it went on to {trail[-1]}, this unit turned off at {old} to {new}",
                      p, old, new)
            return
        self._passes(act.side, segment)
        spent = act.spent.get(p.id, 0.0) + cost
        act.spent[p.id] = spent
        allowance = self._allowance(act, unit)
        path = trail[: trail.index(new, i) + 1] if new in trail else trail
        if spent > allowance + 1e-9:
            direct = crossing(self.game, old, new) if self.game.geometry.adjacent(old, new) else None
            via = '-'.join(path[path.index(act.start_hex):])
            if direct is not None and direct.cost is None:
                self.find(direct.rule or "6.1", f"{old} to {new} crosses a {direct.why} hexside: movement is "
                          f"prohibited (the way round costs {spent:g} MP via {via} > MA {allowance:g})", p, old, new)
            else:
                self.find("6.2", f"cost {spent:g} MP via {via} > MA {allowance:g}", p, act.start_hex, new, path)
        if self._enemies(new, act.side) and not self._may_pass(act, new):
            act.stopped |= {q.id for q in self.units_in(new, act.side)} | {p.id}
            act.combat = act.combat if act.combat and act.combat.hex == new else self._open_combat(new, act.side)

    def _no_path(self, p: Piece, old: str, new: str) -> None:
        if self.game.geometry.adjacent(old, new):
            c = crossing(self.game, old, new)
            self.find(c.rule or "6.1", f"{old} to {new} crosses a {c.why} hexside: movement is prohibited", p, old, new)
        else:
            self.find("6.1", f"no legal path from {old} to {new}", p, old, new)

    def _allowance(self, act: Activation, unit: s.Unit) -> float:
        """6.1 MA 3; 6.6 Italian infantry 1; 10.1.1 Rommel Directive 4 for German units."""
        nat = self.game.formations[unit.formation].nationality
        if act.rommel and nat == "german":
            return 4.0
        return float(unit.ma)

    def _may_pass(self, act: Activation, hex_id: str) -> bool:
        """6.4: all-armor stacks may go on through a hex of only reduced infantry."""
        movers = [self.unit_of(self.replayer.board.pieces[i]) for i in act.members if i in self.replayer.board.pieces]
        enemies = self._enemies(hex_id, act.side)
        return (all(u.type == "armor" for u in movers if u) and
                all(self.unit_of(q).type == "infantry" and self.reduced(q) for q in enemies))

    def _enemies(self, hex_id: str, side: str) -> list[Piece]:
        return [q for q in self.units_in(hex_id) if self.side_of(q) != side]

    # ---- combat --------------------------------------------------------------------------
    def _open_combat(self, hex_id: str, attacker: str) -> Combat:
        defender = next((self.side_of(q) for q in self._enemies(hex_id, attacker)), "")
        place = self.game.places.get(hex_id)
        fort = bool(place and self.game.hex_terrain_types[self.game.hex_terrain[hex_id]].fortification
                    and self._controller(hex_id) == defender)
        return Combat(hex_id, attacker, defender, fortified=fort)

    def _combat_at(self, hex_id: str) -> Combat | None:
        act = self.activation
        return act.combat if act and act.combat and act.combat.hex == hex_id else None

    def on_rolled(self, e: Rolled) -> None:
        side_id = self.dice_buttons.get(e.button)
        if side_id is None or not self.started:
            return
        side = self.side_name[side_id]
        act = self.activation
        if act is None:
            return
        if act.combat is None and act.start_hex and self._enemies(act.trail[-1] if act.trail else act.start_hex, act.side):
            act.combat = self._open_combat(act.trail[-1], act.side)  # 6.5: combat without moving
        c = act.combat
        if c is None:
            return
        enemy = c.defender if side == c.attacker else c.attacker
        if c.rounds and ((c.retreated and side not in c.retreated) or not self._combatants(c, enemy)):
            if c.rolls:
                self._close_round(c)
            self._recovery_roll(c, side, e)  # 7.4.1: the other side retreated or is eliminated
            return
        if side in c.rolls:
            self._close_round(c)
        if not c.rolls:
            if c.fortified and c.rounds >= self.combat_table.get("fortification_rounds", 1):
                self.find("9.2", f"combat against a controlled fort or encampment ({c.hex}) lasts one round", side=side,
                          to_hex=c.hex)
            c.rounds += 1
            if c.rounds == 1:
                c.min_rounds = 1 + self._combined_markers(c.hex, c.attacker)
            c.before = {x: [(self._level_index(q), self.reduced(q)) for q in self._combatants(c, x)]
                        for x in (c.attacker, c.defender)}
        units = self._combatants(c, side)
        strength = sum(0.5 if self.reduced(q) else 1.0 for q in units)
        want = math.floor(strength)
        if len(e.dice) != want:
            self.find("7.1.1", f"{side} rolled {len(e.dice)} dice in {c.hex}; Combat Strength {strength:g} gives {want}",
                      side=side, to_hex=c.hex)
        need = self._hit_number(c, side)
        c.rolls[side] = e.dice
        c.hits[side] = sum(d >= need for d in e.dice)

    def _combatants(self, c: Combat, side: str) -> list[Piece]:
        """7.1.2 the attacker fights with the active stack (8.2.2: plus Combined Attack stacks); 7.1.3 the defender with all."""
        units = self.units_in(c.hex, side)
        if side != c.attacker or not self.activation:
            return units
        act = self.activation
        marked = self._under_combined_attack(c.hex, side)
        return [q for q in units if q.id in act.members or q.id in marked]

    def _combined_markers(self, hex_id: str, side: str) -> int:
        """Combined Attack Markers of `side` in a hex (their face shows the side)."""
        faces = self.game.markers["combined-attack"].faces if "combined-attack" in self.game.markers else []
        return sum(1 for q in self.pieces_in(hex_id) if q.properties().get("MarkerId") == "combined-attack"
                   and faces and self.side_name.get(faces[max(0, q.layer_level("Face") - 1)].side or "") == side)

    def _under_combined_attack(self, hex_id: str, side: str) -> set[str]:
        out: set[str] = set()
        board = self.replayer.board
        for stack in board.stacks.values():
            kids = [board.pieces[i] for i in stack.children if i in board.pieces]
            if any(k.properties().get("MarkerId") == "combined-attack" for k in kids) and any(self.hex_of(k) == hex_id for k in kids):
                out |= {k.id for k in kids if self.unit_of(k) and self.side_of(k) == side}
        return out

    def _hit_number(self, c: Combat, side: str) -> int:
        """7.1.1 a 6 hits; 7.1.4, 7.1.5, 9.3, 9.4 and 10.1.2 modify each die (Combat Summary)."""
        mods = {m["id"]: m["value"] for m in self.combat_table["modifiers"]}
        own, enemy = self._combatants(c, side), self._combatants(c, c.defender if side == c.attacker else c.attacker)
        total = 0
        negated = side == c.attacker and c.fortified  # 9.3
        if own and enemy and not negated:
            if min(self._level_index(q) for q in enemy) - min(self._level_index(q) for q in own) >= 2:
                total += mods.get("level-advantage", 0)
            if all(self.reduced(q) for q in enemy):
                total += mods.get("enemy-all-reduced", 0)
        if side == c.defender and c.fortified and self.game.hex_terrain_types[self.game.hex_terrain[c.hex]].fortification == "fort":
            total += mods.get("fort-defence", 0)
        act = self.activation
        # Choice (10.2): the Rommel modifier applies to every die of an attacking stack that is German.
        if side == c.attacker and act and act.rommel and act.formation and \
                self.game.formations[act.formation].nationality == "german":
            total += mods.get("rommel-directive", 0)
        return self.combat_table["hit_on"] - total

    def _level_index(self, p: Piece) -> int:
        u = self.unit_of(p)
        return LEVELS.index(u.level) if u else 9

    def _close_round(self, c: Combat) -> None:
        """7.2: each side takes exactly the hits the other scored, at least half on its highest level."""
        for side, other in ((c.attacker, c.defender), (c.defender, c.attacker)):
            hits, taken = c.hits.get(other, 0), c.damage.get(side, 0)
            units = c.before.get(side, [])
            capacity = sum(1 if reduced else 2 for _, reduced in units)  # every unit eliminated
            if units and taken != min(hits, capacity):
                self.find("7.2.3", f"{side} applied {taken} damage point(s) in {c.hex}; {other} scored {hits} hit(s) "
                          f"(dice {','.join(map(str, c.rolls.get(other, ())))})", side=side, to_hex=c.hex)
            levels = {lvl for lvl, _ in units}
            if len(levels) > 1 and taken:
                top = min(levels)
                on_top = sum(1 for lvl in c.damage_levels.get(side, []) if lvl == top)
                top_capacity = sum(1 if r else 2 for lvl, r in units if lvl == top)
                if on_top < min(math.ceil(taken / 2), top_capacity):
                    self.find("7.2.1", f"{side} put {on_top} of {taken} damage point(s) on its {LEVELS[top]} units in "
                              f"{c.hex}; at least {math.ceil(taken / 2)} must go to the highest Strength Level",
                              side=side, to_hex=c.hex)
        c.rolls, c.hits, c.damage, c.damage_levels = {}, {}, {}, {}

    def _damage(self, p: Piece, unit: s.Unit, where: str, eliminated: bool) -> None:
        c = self._combat_at(where) if where in self.game.geometry else None
        side = self.side_of(p)
        if c is None or side not in (c.attacker, c.defender):
            if self.started and eliminated and where in self.game.geometry:
                self.find("7.2.3", "a unit was eliminated with no combat in its hex", p, where)
            return
        points = 2 if eliminated and not self.reduced(p) else 1  # 7.2.3: a full unit is flipped, then eliminated
        c.damage[side] = c.damage.get(side, 0) + points
        c.damaged_total[side] = c.damaged_total.get(side, 0) + points
        c.damage_levels.setdefault(side, []).extend([LEVELS.index(unit.level)] * points)
        if unit.type == "armor":
            c.damaged_armor.setdefault(side, set()).add(p.id)
        if eliminated:
            self._check_damage_order(c, side, p, unit)

    def _check_damage_order(self, c: Combat, side: str, p: Piece, unit: s.Unit) -> None:
        """7.2.2: among one level, full-strength units are reduced before any is eliminated."""
        fulls = [q for q in self.units_in(c.hex, side) if self.unit_of(q).level == unit.level and not self.reduced(q)]
        if fulls:
            self.find("7.2.2", f"a {unit.level} unit was eliminated while {len(fulls)} full-strength {unit.level} "
                      f"unit(s) remained in {c.hex}", p, c.hex)

    def on_flipped(self, e: Flipped) -> None:
        self._victory_dirty = True
        if e.layer == "Face" and e.piece.properties().get("MarkerId") == "control":
            self._control_flipped(e)
            return
        unit = self.unit_of(e.piece)
        if unit is None or e.layer != "Step" or not self.started:
            return
        where = e.where.label
        if e.new == 2 and e.old == 1:
            self._damage(e.piece, unit, where, eliminated=False)
        elif e.new == 1 and e.old == 2:
            self._restored(e.piece, unit, where)

    def _restored(self, p: Piece, unit: s.Unit, where: str) -> None:
        """Back to full strength: a replacement point (11.1) or a tank recovery (7.4)."""
        side = self.side_of(p)
        c = self._combat_at(where)
        if c and c.recovery.get(side, 0) > 0 and p.id in c.damaged_armor.get(side, set()):
            c.recovery[side] -= 1
            return
        if self.phase == "Replacements" and side == self.side_name.get("commonwealth"):
            self._spend_replacement(p, unit, 1.0)
            return
        self.find("7.4" if c else "11.1", "a unit returned to full strength with no tank recovery success or "
                  "replacement point to pay for it", p, where)

    def _returned(self, p: Piece, unit: s.Unit, hex_id: str) -> None:
        """11.1-11.2: an eliminated Commonwealth unit comes back in a controlled strategic hex."""
        cost = 1.0 if self.reduced(p) else 2.0
        if self.side_of(p) != self.side_name.get("commonwealth") or self.phase != "Replacements":
            self.find("11.1", "only the Commonwealth brings back eliminated units, in its replacement phase", p, to_hex=hex_id)
            return
        place = self.game.places.get(hex_id)
        if not (place and place.strategic and self._controller(hex_id) == self.side_name["commonwealth"]):
            self.find("11.2", f"returned units are placed in a strategic hex with a Commonwealth Control Marker; "
                      f"{hex_id} is not one", p, to_hex=hex_id)
        self._spend_replacement(p, unit, cost)

    def _spend_replacement(self, p: Piece, unit: s.Unit, cost: float) -> None:
        if (self.turn or 0) < 2:
            self.find("11.1", "replacements start on turn 2", p)
        self.replacement_points += cost
        self.replaced[unit.formation] = self.replaced.get(unit.formation, 0) + cost
        if self.replacement_points > 2:
            self.find("11.1", f"{self.replacement_points:g} replacement points used in turn {self.turn}; 2 a turn", p)

    def _retreat(self, p: Piece, unit: s.Unit, c: Combat, old: str, new: str) -> None:
        """7.3.3-7.3.5: who may retreat, and where to; 8.2.4 not before the Combined Attack's rounds."""
        side = self.side_of(p)
        enemy = c.defender if side == c.attacker else c.attacker
        if c.rounds < c.min_rounds and not c.fortified and self._combatants(c, enemy) \
                and ("8.2.4", side) not in c.reported:
            c.reported.add(("8.2.4", side))
            self.find("8.2.4", f"a Combined Attack of {c.min_rounds} stacks lasts at least {c.min_rounds} rounds; "
                      f"{side} retreated after {c.rounds}", p, old, new)
        c.retreated.add(side)
        alone = [q for q in self.units_in(old, side) if q.id != p.id]
        single_reduced = not alone and self.reduced(p)
        if not c.damaged_total.get(side) and not (side == c.defender and single_reduced) and not (
                c.fortified and side == c.attacker) and ("7.3.3", side) not in c.reported:
            c.reported.add(("7.3.3", side))
            self.find("7.3.3", f"{side} took no damage in {old} and may not retreat", p, old, new)
        if not self.game.geometry.adjacent(old, new):
            self.find("7.3.5", f"a retreat goes to an adjacent hex; {new} is {self.game.geometry.distance(old, new)} hexes away",
                      p, old, new)
        elif self._enemies(new, side):
            self.find("7.3.5", f"{new} holds enemy units: no retreat into it", p, old, new)
        elif crossing(self.game, old, new).cost is None:
            self.find("7.3.5", f"no retreat across the {crossing(self.game, old, new).why} hexside {old}/{new}", p, old, new)

    def _recovery_roll(self, c: Combat, side: str, e: Rolled) -> None:
        """7.4: one die per damaged armor unit of the side that stayed; Italians never recover."""
        table = self.combat_table["tank_recovery"]
        eligible = [i for i in c.damaged_armor.get(side, set())
                    if (u := self.unit_of(self.replayer.board.pieces[i])) and
                    table.get(self.game.formations[u.formation].nationality) is not None]
        if len(e.dice) != len(eligible):
            self.find("7.4.2", f"{side} rolled {len(e.dice)} recovery dice; {len(eligible)} armor unit(s) took damage "
                      f"and may recover", side=side, to_hex=c.hex)
        nat = next((self.game.formations[self.unit_of(self.replayer.board.pieces[i]).formation].nationality for i in eligible), None)
        need = table.get(nat) or 7
        c.recovery[side] = c.recovery.get(side, 0) + sum(d >= need for d in e.dice)

    # ---- control and victory -------------------------------------------------------------
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

    def after_step(self, step) -> None:
        if self.started and self._victory_dirty:
            self._victory_dirty = False
            self._victory()

    def _passes(self, side: str | None, hexes) -> None:
        """12.1.1: an empty strategic hex belongs to the side that last passed through it."""
        for h in hexes:
            place = self.game.places.get(h)
            if place and place.strategic and side:
                self.passed[h] = side

    def _victory(self) -> None:
        """13.1: decisive victories end the game at once; reported as events where they occur.

        The conditions are data (tables/victory.yaml)."""
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
            strength = sum(0.5 if self.reduced(q) else 1.0 for q in self.units_in(start, winner)
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
        return sum(0.5 if self.reduced(q) else 1.0 for q in self.units_in(hex_id, side))

    def _nationality(self, p: Piece) -> str | None:
        u = self.unit_of(p)
        return self.game.formations[u.formation].nationality if u else None

    def _tank_strength(self, side: str | None, nationality: str | None = None) -> float:
        return sum(0.5 if self.reduced(p) else 1.0 for p in self.units_on_map()
                   if self.side_of(p) == side and self.unit_of(p).type == "armor"
                   and (nationality is None or self.game.formations[self.unit_of(p).formation].nationality == nationality))

    def _event(self, rule: str, message: str, side: str | None) -> None:
        if rule not in self.ended_victory:
            self.ended_victory.add(rule)
            self.find(rule, message, kind="event", side=side)

    # ---- housekeeping ----------------------------------------------------------------------
    def _close_activation(self) -> None:
        act = self.activation
        if act and act.combat and act.combat.rolls:
            self._close_round(act.combat)
        if act and act.trail:
            for i in act.members:
                p = self.replayer.board.pieces.get(i)
                h = self.hex_of(p) if p else None
                if h and h in act.trail[1:-1] and self._enemies(h, act.side):
                    self.find("6", f"units may not be dropped off in a hex with enemy units ({h})", p, act.start_hex, h)
        self.activation = None

    def on_removed(self, e: Removed) -> None:
        self._victory_dirty = True
        unit = self.unit_of(e.piece)
        if unit and e.where and e.where.label in self.game.geometry:
            self._damage(e.piece, unit, e.where.label, eliminated=True)

    def on_added(self, e: Added) -> None: ...

    def finish(self) -> None:
        self._close_activation()
