"""The course of a match, as every rule reads it: the chit drawn and the stack it activates (5),
the trail that stack follows (6), its combat round by round (7-9), tank recovery and replacements
(7.4, 11), who holds each strategic hex (12).  One tracker, because one act feeds all of them (a
move extends the trail, opens a combat or retreats from one; a roll closes a round).  It judges
nothing: where its bookkeeping meets what a rule judges, it `tell`s the rules at once (a method of
the fact's name: `drew`, `move_refused`, `round_closing`...), so findings come at the act.

Choices:
- 5.1.6: a chit taken out of the mug elsewhere than the Activation Track may be the turn's end
  (rule 4 returns the chits); it is told with the next chit drawn in the same turn.
- 5.2.1: a stack fighting without moving is in the drawn division's hex with enemy units whose
  Combat Strength gives the dice rolled (the log does not name it), else the first by number.
- 6: of the passes of a doubled-back trail through a unit's hex before where it goes, the latest
  is taken: never more MP than the unit's own way.  6.4: the units that reached an enemy hex, all
  armor, go on through it if its enemy units are all reduced infantry.
- 7.2, 11: flipping back a unit flipped with no combat in its hex (a slip) costs nothing.
- 7.3.5: an elimination is a retreat for want of a legal hex, not damage, when its side took all
  the damage due this round (or the round is over) and has no legal retreat hex (not garrisons).
- 8.4: remaining Combined Attacks are fought in the order declared while the hex holds both
  sides; the first to declare attacks (8.4.2), as many rounds as its markers.
- 12.1: when one side retreats and the other stays, the side that stays holds the hex; combat is
  over when the activation ends (5.2.3): a flip still missing is told then.
"""
from __future__ import annotations

import math

from validators.kernel.movement import Blocked, TerrainCosts
from validators.kernel.rule import Rule, Tracker
from validators.replay.board import Piece
from validators.replay.replayer import Flipped, Moved, Removed, Rolled, TurnChanged

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # annotations only
    from typing import ClassVar

COMBINED, REPLACEMENTS = "Combined attacks", "Replacements"
LEVELS = "ABCD"  # Strength Levels, strongest first (2.1.1)
ALL = "all"  # the one movement class (6.1: every unit pays the same)


# Activation and Combat are a rule's working state, compared by identity: plain classes, as a
# dataclass's generated methods cost every audit's start-up (issue 36).
class Activation:
    """One drawn chit and what it set moving (5.2)."""

    def __init__(self, chit: str, side: str, formation: str | None, box: int):
        self.chit, self.side, self.box = chit, side, box
        self.formation = formation  # None: a DAK chit before the German division is chosen (5.1.5)
        self.rommel = False
        self.start_hex: str | None = None
        self.trail: list[str] = []  # hexes the stack passed, in order
        self.place: dict[str, int] = {}  # piece id -> its index on the trail
        self.members: set[str] = set()  # piece ids of the activated stack
        self.italians: str | None = None  # the Italian infantry division moving with it (6.6)
        self.spent: dict[str, int] = {}  # piece id -> cost units spent
        self.stopped: dict[str, str] = {}  # piece id -> the enemy hex where it stopped (6.4)
        self.combat: Combat | None = None
        self.ended = False  # a Combined Attack was declared (8.1.2)
        self.idle_rolls_seen = False  # dice rolled with no enemy in the stack's hex (6.5), told once


class Combat:
    """A combat in one hex: rounds of simultaneous fire, damage, retreats, recovery (7)."""

    def __init__(self, hex: str, attacker: str, defender: str, fortified: bool = False):
        self.hex, self.attacker, self.defender, self.fortified = hex, attacker, defender, fortified
        self.rolls: dict[str, tuple[int, ...]] = {}
        self.hits: dict[str, int] = {}  # hits scored BY a side this round
        self.damage: dict[str, int] = {}  # damage points applied TO a side this round
        self.damaged_total: dict[str, int] = {}  # over the whole combat (7.3.3)
        self.damaged_armor: dict[str, set[str]] = {}
        self.rounds = 0
        self.retreated: set[str] = set()
        self.recovery: dict[str, int] = {}  # successes left for a side
        self.min_rounds = 1  # 8.2.4: as many rounds as attacking stacks
        self.entered_from: str | None = None  # 7.3.5: where the attackers came from
        self.all_in = False  # 8.4.2: an end-of-turn Combined Attack, every unit in the hex fights
        self.before: dict[str, list[tuple[int, bool]]] = {}  # (level index, reduced) at round start
        self.damage_levels: dict[str, list[int]] = {}  # level index of each damage point this round
        self.lost: set[str] = set()  # sides that had a unit eliminated here (12.1.3, 12.1.4)
        self.retreat_order: list[str] = []  # sides in the order they left the hex (12.1.2)
        # who held the hex's Control Marker when the combat began (12.1.3, 12.1.5)
        self.control_before: str | None = None


class Play(Tracker):
    """The activation, its trail and combat, the end-of-turn combats, replacements and control; what
    units and hexes are by the rules (6.1.1-6.1.4's costs: the kernel's `TerrainCosts`)."""

    def start(self) -> None:
        g, st = self.game, self.state
        self.costs = TerrainCosts(g)
        self.combat_table = self.tables["combat"]
        self.commonwealth = self.board.side_names.get("commonwealth")
        self.strategic = frozenset(h for h, place in g.places.items() if place.strategic)
        self.eliminated = self.board.track_boxes("eliminated")
        self.first_box: dict = {}
        act = g.tracks.get("activation")
        for box, caption in (act.captions.items() if act else []):  # "Turn 7 / Ext.": turn 7 and later
            for key in [int(w) for w in caption.replace("/", " ").split() if w.isdigit()] + ["ext"] * ("Ext" in caption):
                self.first_box[key] = int(box)
        self.started, self.changes = False, 0  # changes: steps eliminating, returning or flipping (13.1)
        self.activation: Activation | None = None
        self.next_box = self.rommel_turn = None  # the next box to fill (4); the Rommel Directive's last turn
        self.passed: dict[str, str] = {}  # strategic hex -> side that last passed through (12.1.1)
        self.fought: dict[str, Combat] = {}  # strategic hex -> its combat, until control is settled (12.1)
        self.ca_combat: Combat | None = None
        self.stray_flips: set[str] = set()  # units reduced with no combat in their hex
        self._new_turn(st.turn or 1)

    def nationality(self, p: Piece) -> str | None:
        u = self.board.unit_of(p)
        return self.game.formations[u.formation].nationality if u else None

    def level_index(self, p: Piece) -> int:
        u = self.board.unit_of(p)
        return LEVELS.index(u.level) if u else 9

    def combat_strength(self, units) -> float:
        """7.1.1: full-strength units count 1, reduced ones 1/2 (values from tables/combat.yaml)."""
        t, reduced = self.combat_table, self.board.reduced
        return sum(t["strength_reduced"] if reduced(q) else t["strength_full"] for q in units)

    def both_sides_in(self, hex_id: str) -> bool:
        return len({self.board.side_of(q) for q in self.board.units_in(hex_id)}) > 1

    def control_marker(self, hex_id: str) -> Piece | None:
        return next((p for p in self.board.pieces_in(hex_id) if p.properties().get("MarkerId") == "control"), None)

    def controller(self, hex_id: str) -> str | None:
        """The side whose face the hex's Control Marker shows (12)."""
        p = self.control_marker(hex_id)
        return None if p is None else self.board.face_side("control", p.layer_level("Face"))

    def combined_markers(self, hex_id: str, side: str) -> int:
        return sum(1 for q in self.board.pieces_in(hex_id) if q.properties().get("MarkerId") == "combined-attack"
                   and self.board.face_side("combined-attack", q.layer_level("Face")) == side)

    def under_combined_attack(self, hex_id: str, side: str) -> set[str]:
        """The units of `side` stacked with a Combined Attack Marker in a hex (8.1.1)."""
        out: set[str] = set()
        b, board = self.board, self.board.replayer.board
        for stack in board.stacks.values():
            kids = [board.pieces[i] for i in stack.children if i in board.pieces]
            if any(k.properties().get("MarkerId") == "combined-attack" for k in kids) and any(b.hex_of(k) == hex_id for k in kids):
                out |= {k.id for k in kids if b.unit_of(k) and b.side_of(k) == side}
        return out

    def tracker_moving(self, e: TurnChanged) -> None:
        turn = self.state.turn
        if e.turn is not None and e.turn != turn:
            self._close_activation()
            if e.turn > (turn or 0) >= self.game.info.turns.last:
                self.tell("turn_over", turn)
            self._new_turn(e.turn)

    def phase_started(self, pid: str) -> None:
        if self.state.phase == COMBINED:
            self._close_activation()
        if self.state.phase != REPLACEMENTS:
            self._start_play()

    def _new_turn(self, turn: int) -> None:
        if self.ca_combat is not None and self.ca_combat.rolls:
            self._close_round(self.ca_combat)
        self.next_box = self.first_box.get(turn, self.first_box.get("ext"))
        self.replaced: dict[str, float] = {}  # formation -> replacement points this turn (11.4)
        self.replacement_points = 0.0
        self.under_ca: dict[str, str] = {}  # unit -> hex where it waits under a Combined Attack Marker
        self.ca_hexes: dict[str, str] = {}  # hex -> side that declared the first Combined Attack there
        self.ca_combat = None
        self.set_aside: tuple[Piece, str, int | None] | None = None  # a destroyed division's chit (5.1.6)
        self.on_map_at_turn_start = {u.formation for p in self.board.units_on_map() if (u := self.board.unit_of(p))}

    def _start_play(self) -> None:  # from now on moves are moves; before, they adjust the set-up (3)
        if not self.started:
            self.started = True
            self.tell("play_started")

    def finish(self) -> None:
        self._close_activation()

    def moved(self, e: Moved) -> None:
        props, st, old, new, act = e.piece.properties(), self.state, e.old.label, e.new.label, self.activation
        kind, marker = props.get("Kind"), props.get("MarkerId")
        if kind == "unit" and old != new:
            self._unit_moved(e)
        elif kind == "chit" and old == st.mug and new in st.activation_boxes:  # a draw (4, 5.1)
            self._start_play()
            self._close_activation()
            formation, box = props.get("Formation"), st.activation_boxes[new]
            aside, self.set_aside = self.set_aside, None
            self.tell("drew", e.piece, formation, box, self.next_box, aside)
            self.next_box = box - 1
            dak = formation not in self.game.formations
            self.activation = Activation(props.get("ChitId", ""), props.get("Side") or "", None if dak else formation, box)
        elif kind == "chit" and old == st.mug and self.started and st.phase not in (REPLACEMENTS, "Chits into the mug"):
            formation, b = props.get("Formation", ""), self.board
            if formation in self.game.formations and not any(b.unit_of(q).formation == formation for q in b.units_on_map()):
                self.set_aside = (e.piece, formation, self.next_box)  # 5.1.6 (see Choices)
        elif kind == "marker" and marker == "rommel" and new in st.activation_boxes:
            self.tell("rommel_declared", e.piece, act, self.rommel_turn)
            if act is not None:
                act.rommel = True
            self.rommel_turn = st.turn
        elif kind == "marker" and marker == "combined-attack" and act and new in self.game.geometry and act.trail \
                and new == act.trail[-1]:
            act.ended, act.combat = True, None  # 8.1.2: the declaration ends the activation
            for i in self.under_combined_attack(new, act.side):
                self.under_ca[i] = new  # 8.4.1: until the end of the turn
            self.ca_hexes.setdefault(new, act.side)  # 8.4.2: the first to declare attacks

    def _close_activation(self) -> None:
        act = self.activation
        if act and act.combat and act.combat.rolls:
            self._close_round(act.combat)
        if act and act.trail:
            b = self.board
            for i in act.members:
                p = b.replayer.board.pieces.get(i)
                h = b.hex_of(p) if p else None
                if h and h in act.trail[1:-1] and b.enemies_in(h, act.side):
                    self.tell("move_refused", "dropped", p, act.start_hex, h, act)
        self.activation = None
        self._settle_control()

    def _unit_moved(self, e: Moved) -> None:
        b = self.board
        unit, side, old, new = b.unit_of(e.piece), b.side_of(e.piece), e.old.label, e.new.label
        self.changes += new in self.eliminated or old in self.eliminated
        self._passes(side, (new,))
        geo, combat = self.game.geometry, None
        if new in self.eliminated:
            self._damage(e.piece, unit, old, eliminated=True)
        elif old in self.eliminated and new in geo:
            self._returned(e.piece, unit, new)
        elif not self.started or old not in geo or new not in geo:
            pass
        elif self.game.formations[unit.formation].garrison:
            self.tell("move_refused", "garrison", e.piece, old, new, self.activation)
        elif (combat := self.combat_at(old)) and side in (combat.attacker, combat.defender) and combat.rounds:
            if combat.rolls:
                self._close_round(combat)  # a retreat comes after the damage of the round
            self._retreat(e.piece, combat, old, new)
        else:
            self._activated_move(e.piece, unit, old, new)

    def _activated_move(self, p: Piece, unit, old: str, new: str) -> None:  # 5.2 who, 6 how
        act, b = self.activation, self.board
        side = b.side_of(p)
        if act is None or act.ended:
            self.tell("move_refused", "idle", p, old, new, act)
        elif side != act.side:
            self.tell("move_refused", "side", p, old, new, act)
        elif not self._may_move_with(act, p, unit, old, new):
            pass
        elif act.stopped.get(p.id) == old and not self._passes_through(act, p, unit, old):
            self.tell("move_refused", "stopped", p, old, new, act)
        elif self.under_ca.get(p.id) == old and self.nationality(p) == "german" and b.enemies_in(old, side):
            self.tell("move_refused", "combined-attack", p, old, new, act)
        else:
            self._trail_move(act, p, unit, old, new)

    def _may_move_with(self, act: Activation, p: Piece, unit, old: str, new: str) -> bool:
        b = self.board
        formation = self.game.formations[unit.formation]
        nat = formation.nationality
        if act.formation is None and nat == "german" and not formation.garrison:
            act.formation = unit.formation  # 5.1.5: the DAK chit activates any one German division
        if act.start_hex is None and (unit.formation == act.formation):
            act.start_hex, act.trail = old, [old]
            act.members = {q.id for q in b.stood_in(old) + [p] if (u := b.unit_of(q)) and u.formation == act.formation}
        if p.id in act.members:  # the activated stack, or the Italians that joined it in its hex (6.6)
            return True
        if unit.formation == act.formation:
            self.tell("move_refused", "start-hex", p, old, None, act)
            return False
        italian_foot = nat == "italian" and formation.chits == 0 and unit.type == "infantry"
        german_act = act.formation and self.game.formations[act.formation].nationality == "german"
        if italian_foot and german_act and act.start_hex and old == act.start_hex and p.id not in act.spent and act.italians in (None, unit.formation):
            act.italians = unit.formation  # 6.6: one Italian infantry division may go with the German stack
            act.members.add(p.id)
            return True
        self.tell("move_refused", "italians" if italian_foot and german_act else "formation", p, old, None, act)
        return False

    def _trail_move(self, act: Activation, p: Piece, unit, old: str, new: str) -> None:
        """6: the stack moves together along one trail (it may double back: `act.place`), dropping units off."""
        trail, f = act.trail, self
        i, j = _on_trail(trail, old, new, act.place.get(p.id, 0))
        if i < 0:
            self.tell("move_refused", "off-trail", p, old, new, act)
            return
        if j >= 0:
            segment = trail[i:j + 1]
            cost = sum(c for a, b in zip(segment, segment[1:]) if not isinstance(c := f.costs.step(a, b, ALL), Blocked))
        elif i == len(trail) - 1:  # enemy hexes stop a path (asked only when a search is needed)
            found = f.costs.path(old, new, ALL, lambda: frozenset(self.board.occupied_by_enemy(act.side) - {new}))
            if found is None:
                self.tell("move_refused", "no-path", p, old, new, act)
                return
            cost, segment = found
            trail.extend(segment[1:])
            j = len(trail) - 1
        else:
            self.tell("move_refused", "divided", p, old, new, act)
            return
        act.place[p.id] = j
        self._passes(act.side, segment)
        act.spent[p.id] = act.spent.get(p.id, 0) + cost
        self.tell("advanced", p, unit, old, new, act, j)
        b = self.board
        if b.enemies_in(new, act.side):
            act.stopped |= {q.id: new for q in b.units_in(new, act.side) + [p]}
            if not (act.combat and act.combat.hex == new):
                act.combat = self._open_combat(new, act.side)
                act.combat.entered_from = trail[j - 1] if j else None

    def _passes_through(self, act: Activation, p: Piece, unit, hex_id: str) -> bool:
        """6.4: a unit may leave the enemy hex it entered under the exception (see Choices)."""
        b, board = self.board, self.board.replayer.board.pieces
        ahead = set(act.trail[act.trail.index(hex_id):]) if hex_id in act.trail else {hex_id}
        movers = [b.unit_of(board[i]) for i in act.members if i in board and b.hex_of(board[i]) in ahead]
        enemies = b.enemies_in(hex_id, act.side)
        if not (all(u.type == "armor" for u in movers + [unit] if u) and
                all(b.unit_of(q).type == "infantry" and b.reduced(q) for q in enemies)):
            return False
        act.stopped.pop(p.id, None)
        if act.combat is not None and act.combat.hex == hex_id and not act.combat.rounds:
            act.combat = None
        return True

    def _open_combat(self, hex_id: str, attacker: str) -> Combat:
        b, g = self.board, self.game
        defender = next((b.side_of(q) for q in b.enemies_in(hex_id, attacker)), "")
        fort = bool(g.places.get(hex_id) and g.hex_terrain_types[g.hex_terrain[hex_id]].fortification
                    and self.controller(hex_id) == defender)
        c = Combat(hex_id, attacker, defender, fortified=fort)
        if self.control_marker(hex_id) is not None:  # 12.1.3, 12.1.5: who held it
            old = self.fought.get(hex_id)  # a Combined Attack waiting there keeps the holder from before
            c.control_before = old.control_before if old is not None else self.controller(hex_id)
            self.fought[hex_id] = c
        return c

    def combat_at(self, hex_id: str) -> Combat | None:
        act = self.activation
        for c in (act.combat if act else None, self.ca_combat):
            if c is not None and c.hex == hex_id:
                return c
        return None

    def _end_of_turn_combat(self) -> Combat | None:  # 8.4 (see Choices)
        c, b = self.ca_combat, self.board
        if c is not None and self.combatants(c, c.defender) and self.combatants(c, c.attacker):
            return c
        if c is not None and c.rolls:
            self._close_round(c)
        for hex_id, side in self.ca_hexes.items():
            if b.enemies_in(hex_id, side) and b.units_in(hex_id, side):
                c = self.ca_combat = self._open_combat(hex_id, side)
                c.all_in = True
                self.ca_hexes.pop(hex_id)
                return c
        return None

    def rolled(self, e: Rolled) -> None:
        side_id = self.state.dice_side(e.button)
        if side_id is None or not self.started:
            return
        side = self.board.side_names[side_id]
        act = self.activation
        if act is None:
            c = self._end_of_turn_combat() if self.state.phase == COMBINED else None
        elif act.combat is None:
            c = act.combat = self._stand_and_fight(act, side, e)
        else:
            c = act.combat
        if c is None:
            return
        enemy = c.defender if side == c.attacker else c.attacker
        if c.rounds and ((c.retreated and side not in c.retreated) or not self.combatants(c, enemy)):
            if c.rolls:
                self._close_round(c)
            self._recovery_roll(c, side, e)  # 7.4.1: the other side retreated or is eliminated
            return
        if side in c.rolls:
            self._close_round(c)
        if not c.rolls:
            self.tell("round_starting", c, side)
            c.rounds += 1
            if c.rounds == 1:  # 8.2.4: as many rounds as attacking stacks
                c.min_rounds = self.combined_markers(c.hex, c.attacker) + (0 if c.all_in else 1)
            c.before = {x: [(self.level_index(q), self.board.reduced(q)) for q in self.combatants(c, x)]
                        for x in (c.attacker, c.defender)}
        self.tell("fired", c, side, e.dice)
        need = self._hit_number(c, side)
        c.rolls[side] = e.dice
        c.hits[side] = sum(d >= need for d in e.dice)

    def _stand_and_fight(self, act: Activation, side: str, e: Rolled) -> Combat | None:
        """6.5: dice with no combat open: the stack fights where its move ended, or is activated (8.1.4, 8.1.5)."""
        b = self.board
        hex_id = act.trail[-1] if act.start_hex else self._activated_hex(act, side, len(e.dice))
        if hex_id is None or not b.enemies_in(hex_id, act.side):
            if not act.idle_rolls_seen:
                act.idle_rolls_seen = True
                self.tell("idle_roll", side, hex_id)
            return None
        if not act.start_hex:
            act.start_hex, act.trail, act.place = hex_id, [hex_id], {}
            act.members = {q.id for q in b.units_in(hex_id) if b.unit_of(q).formation == act.formation}
        return self._open_combat(hex_id, act.side)

    def _activated_hex(self, act: Activation, side: str, dice: int) -> str | None:
        """5.2.1: the drawn division's hex (5.1.5: any German one's) with enemy units (see Choices)."""
        b = self.board
        options: dict[str, str] = {}
        for q in b.units_on_map():
            u, h = b.unit_of(q), b.hex_of(q)
            f = self.game.formations[u.formation]
            mine = u.formation == act.formation if act.formation else (f.nationality == "german" and not f.garrison)
            if mine and b.side_of(q) == act.side and b.enemies_in(h, act.side):
                options.setdefault(h, u.formation)
        if not options:
            return None
        hex_id = min(options)
        if side == act.side:
            for h in sorted(options):
                own = [q for q in b.units_in(h, side) if b.unit_of(q).formation == options[h]
                       or q.id in self.under_combined_attack(h, side)]
                if math.floor(self.combat_strength(own)) == dice:
                    hex_id = h
                    break
        act.formation = options[hex_id]
        return hex_id

    def combatants(self, c: Combat, side: str) -> list[Piece]:
        """7.1.2 the attacker fights with the active stack (8.2.2: plus Combined Attack stacks); 7.1.3 the defender with all."""
        units = self.board.units_in(c.hex, side)
        if side != c.attacker or not self.activation or c.all_in:
            return units
        marked = self.under_combined_attack(c.hex, side)
        return [q for q in units if q.id in self.activation.members or q.id in marked]

    def _hit_number(self, c: Combat, side: str) -> int:
        """7.1.1 a 6 hits; 7.1.4, 7.1.5, 9.3, 9.4 and 10.1.2 modify each die (see Choices, 10.2)."""
        g, f, reduced = self.game, self, self.board.reduced
        mods = {m["id"]: m["value"] for m in self.combat_table["modifiers"]}
        own, enemy = self.combatants(c, side), self.combatants(c, c.defender if side == c.attacker else c.attacker)
        total = 0
        if own and enemy and not (side == c.attacker and c.fortified):  # 9.3: negated
            if min(f.level_index(q) for q in enemy) - min(f.level_index(q) for q in own) >= 2:
                total += mods.get("level-advantage", 0)
            if all(reduced(q) for q in enemy):
                total += mods.get("enemy-all-reduced", 0)
        if side == c.defender and c.fortified and g.hex_terrain_types[g.hex_terrain[c.hex]].fortification == "fort":
            total += mods.get("fort-defence", 0)
        act = self.activation
        if side == c.attacker and act and act.rommel and act.formation and g.formations[act.formation].nationality == "german":
            total += mods.get("rommel-directive", 0)
        return self.combat_table["hit_on"] - total

    def _close_round(self, c: Combat) -> None:
        self.tell("round_closing", c)
        c.rolls, c.hits, c.damage, c.damage_levels = {}, {}, {}, {}

    def removed(self, e: Removed) -> None:
        self.changes += 1
        unit = self.board.unit_of(e.piece)
        if unit and e.where and e.where.label in self.game.geometry:
            self._damage(e.piece, unit, e.where.label, eliminated=True)

    def flipped(self, e: Flipped) -> None:
        self.changes += 1
        unit = self.board.unit_of(e.piece)
        if unit is None or e.layer != "Step" or not self.started:
            return
        where = e.where.label
        if e.new == 2 and e.old == 1:
            if self.combat_at(where) is None:
                self.stray_flips.add(e.piece.id)
            self._damage(e.piece, unit, where, eliminated=False)
        elif e.new == 1 and e.old == 2:
            if e.piece.id in self.stray_flips:  # see Choices (7.2, 11)
                self.stray_flips.discard(e.piece.id)
                return
            self._restored(e.piece, unit, where)

    def _damage(self, p: Piece, unit, where: str, eliminated: bool) -> None:
        geo = self.game.geometry
        c = self.combat_at(where) if where in geo else None
        side = self.board.side_of(p)
        if c is None or side not in (c.attacker, c.defender):
            if self.started and eliminated and where in geo:
                self.tell("eliminated_outside_combat", p, where)
            return
        if eliminated:
            c.lost.add(side)
            if self._trapped(c, side, p, unit):
                return
        points = 2 if eliminated and not self.board.reduced(p) else 1  # 7.2.3: a full unit is flipped, then eliminated
        c.damage[side] = c.damage.get(side, 0) + points
        c.damaged_total[side] = c.damaged_total.get(side, 0) + points
        c.damage_levels.setdefault(side, []).extend([LEVELS.index(unit.level)] * points)
        if unit.type == "armor":
            c.damaged_armor.setdefault(side, set()).add(p.id)
        if eliminated:
            self.tell("eliminated_in_combat", c, side, p, unit)

    def _trapped(self, c: Combat, side: str, p: Piece, unit) -> bool:  # 7.3.5 (see Choices)
        if not c.rounds or self.game.formations[unit.formation].garrison:
            return False
        other = c.defender if side == c.attacker else c.attacker  # the damage due: its hits, at most all
        due = min(c.hits.get(other, 0), sum(1 if r else 2 for _, r in c.before.get(side, [])))
        if (c.rolls and c.damage.get(side, 0) < due) or self._retreat_hexes(c, side):
            return False
        if c.rolls:
            self._close_round(c)  # a retreat comes after the damage of the round
        self.tell("retreating", c, side, p, c.hex, None)
        return True

    def _retreat_hexes(self, c: Combat, side: str) -> list[str]:
        """7.3.5: the attackers go back where they entered from if they can, else like defenders."""
        back = c.entered_from
        if side == c.attacker and back and not self.board.enemies_in(back, side):
            return [back]
        return [n for n in self.game.geometry.neighbours(c.hex) if self.retreat_problem(side, c.hex, n) is None]

    def retreat_problem(self, side: str, old: str, new: str) -> str | None:
        """7.3.5: an adjacent hex, free of enemy units, not across a cliff without road or track."""
        geo = self.game.geometry
        if not geo.adjacent(old, new):
            return f"a retreat goes to an adjacent hex; {new} is {geo.distance(old, new)} hexes away"
        if self.board.enemies_in(new, side):
            return f"{new} holds enemy units: no retreat into it"
        crossing = self.costs.step(old, new, ALL)
        if isinstance(crossing, Blocked):
            return f"no retreat across the {crossing.why} hexside {old}/{new}"
        return None

    def _retreat(self, p: Piece, c: Combat, old: str, new: str) -> None:
        side = self.board.side_of(p)
        self.tell("retreating", c, side, p, old, new)
        c.retreated.add(side)
        c.retreat_order = [x for x in c.retreat_order if x != side] + [side]  # 12.1.2: whose last unit left last

    def _recovery_roll(self, c: Combat, side: str, e: Rolled) -> None:
        """7.4: one die per damaged armor unit of the side that stayed; Italians never recover."""
        table, b = self.combat_table["tank_recovery"], self.board
        eligible = [i for i in c.damaged_armor.get(side, set())
                    if table.get(self.nationality(b.replayer.board.pieces[i])) is not None]
        self.tell("recovery_rolled", c, side, e.dice, eligible)
        need = table.get(next((self.nationality(b.replayer.board.pieces[i]) for i in eligible), None)) or 7
        c.recovery[side] = c.recovery.get(side, 0) + sum(d >= need for d in e.dice)

    def _restored(self, p: Piece, unit, where: str) -> None:
        """Back to full strength: a replacement point (11.1) or a tank recovery (7.4)."""
        side, c = self.board.side_of(p), self.combat_at(where)
        if c and c.recovery.get(side, 0) > 0 and p.id in c.damaged_armor.get(side, set()):
            c.recovery[side] -= 1
        elif self.state.phase == REPLACEMENTS and side == self.commonwealth:
            self._spend_replacement(p, unit, 1.0)
        else:
            self.tell("restored_unpaid", p, where, c is not None)

    def _returned(self, p: Piece, unit, hex_id: str) -> None:
        """Back from the eliminated box: by tank recovery (7.4.2), or by replacement points (11.1-11.2)."""
        cost = 1.0 if self.board.reduced(p) else 2.0
        c, side = self.combat_at(hex_id), self.board.side_of(p)
        if c is not None and p.id in c.damaged_armor.get(side, set()) and side in c.lost:
            if c.recovery.get(side, 0) < int(cost):
                self.tell("recovered_short", p, hex_id, c.recovery.get(side, 0), int(cost))
            c.recovery[side] = max(0, c.recovery.get(side, 0) - int(cost))
            return
        allowed = side == self.commonwealth and self.state.phase == REPLACEMENTS
        self.tell("returned", p, hex_id, allowed)
        if allowed:
            self._spend_replacement(p, unit, cost)

    def _spend_replacement(self, p: Piece, unit, cost: float) -> None:
        self.replacement_points += cost
        self.replaced[unit.formation] = self.replaced.get(unit.formation, 0) + cost
        self.tell("replacement_spent", p)

    def _passes(self, side: str | None, hexes) -> None:
        """12.1.1: an empty strategic hex belongs to the side that last passed through it."""
        for h in (hexes if side else ()):
            if h in self.strategic:
                self.passed[h] = side

    def due_control(self, c: Combat) -> tuple[str | None, str, str]:
        """Who controls a combat hex, as far as the combat has gone: (side, rule, why); a side is
        destroyed when all its units there were eliminated (7.3.5 included), else it retreated."""
        if not c.defender:
            return None, "12.1", ""
        sides = (c.attacker, c.defender)
        present = [x for x in sides if self.board.units_in(c.hex, x)]
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
        """12.1: a combat hex no longer holding both sides (12.1.5) passes to the side 12.1.2-12.1.4 name."""
        for hex_id, c in list(self.fought.items()):
            if self.both_sides_in(hex_id):
                continue
            del self.fought[hex_id]
            due, rule, why = self.due_control(c) if c.rounds else (None, "", "")
            if due is None:
                continue
            self.passed[hex_id] = due  # 12.1.1: who holds it if it stays empty
            self.tell("control_settling", hex_id, c, due, rule, why)


def _on_trail(trail: list[str], old: str, new: str, start: int) -> tuple[int, int]:
    """Where a unit in `old`, at `start` or further on the trail, joins it (-1: `old` is not on
    it), and where it reaches `new` ahead (-1: nowhere ahead; the unit must then be at the end);
    of several passes through `old` before `new`, the latest (see Choices, 6)."""
    i = _find(trail, old, start)
    if i < 0:
        i = _find(trail, old, 0)  # a place the unit left other than by moving (a retreat)
    if i < 0:
        return -1, -1
    j = _find(trail, new, i + 1)
    if j < 0:
        return (len(trail) - 1 if trail[-1] == old else i), -1
    k = _find(trail, old, i + 1)
    while 0 <= k < j:
        i, k = k, _find(trail, old, k + 1)
    return i, j


def _find(items: list[str], item: str, start: int) -> int:  # the index of `item` from `start` on, or -1
    return items.index(item, start) if item in items[start:] else -1


class PlayRule(Rule):
    """A rule of this game: it reads the match through `Play`."""

    needs = (Play,)
    REFUSED: ClassVar[dict[str, tuple[str, str]]] = {}  # why Play refused to follow a move -> (rule, message)

    def start(self) -> None:
        self.play = self.ctx.get(Play)

    def move_refused(self, why: str, p: Piece, old: str, new: str | None, act: Activation | None) -> None:
        """A move `Play` could not follow, reported when `REFUSED` names why."""
        if why in self.REFUSED:
            rule, text = self.REFUSED[why]
            b, trail = self.board, act.trail if act else []
            self.find(rule, text.format(unit=b.unit_of(p), act=act, side=b.side_of(p), old=old, new=new,
                                        dak=(act.formation if act else None) or "a German division (DAK)",
                                        trail="-".join(trail), end=trail[-1] if trail else None), p, old, new)
