"""Sequence of play (4), set-up (3), chit draws and activations (5.1), the Rommel Directive (10)."""
from __future__ import annotations

from validators.games.bravery_in_the_sand.state import Activation, Combat
from validators.kernel.auditor import BaseAuditor
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed, TurnChanged


class TurnRules(BaseAuditor):
    """Part of the Bravery in the Sand auditor; see __init__.py."""

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
        self.fought: dict[str, Combat] = {}  # strategic hex -> its combat, until control is settled (12.1)
        self.ended_victory: set[str] = set()
        self.on_map_at_turn_start: set[str] = set()
        self._victory_dirty = True
        self.ca_combat = None
        self.stray_flips: set[str] = set()  # units reduced with no combat in their hex: a slip of the hand
        self._new_turn(self.turn or 1)

    def move_scope(self) -> object:
        """One activation is one move of its stack (5.2): its findings are reported once."""
        act = self.activation
        return self.turn, self.phase, (act.box, act.chit) if act else None

    def on_turn(self, e: TurnChanged) -> None:
        if e.turn is not None and e.turn != self.turn:
            self._close_activation()
            if e.turn > (self.turn or 0) >= self.game.info.turns.last:
                self._tactical_victory(self.turn)
            self._new_turn(e.turn)
        if e.phase_index is not None and 0 <= e.phase_index < len(self.phases):
            self.phase = self.phases[e.phase_index]
            if self.phase == "Combined attacks":
                self._close_activation()
            if self.phase not in ("Replacements",):
                self._start_play()

    def _new_turn(self, turn: int) -> None:
        if self.ca_combat is not None and self.ca_combat.rolls:
            self._close_round(self.ca_combat)
        self.turn = turn
        self.next_box = self.first_box.get(turn, self.first_box.get("ext"))
        self.replaced, self.replacement_points = {}, 0.0
        self.under_ca: dict[str, str] = {}  # unit -> hex where it waits under a Combined Attack Marker
        self.ca_hexes: dict[str, str] = {}  # hex -> side that declared the first Combined Attack there
        self.ca_combat = None
        self.set_aside: tuple[Piece, str, int | None] | None = None  # a destroyed division's chit (5.1.6)
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
        elif e.old.label == self.mug and self.started and self.phase not in ("Replacements", "Chits into the mug"):
            self._pulled_aside(e.piece, props.get("Formation", ""))

    def _pulled_aside(self, chit: Piece, formation: str) -> None:
        """5.1.6: a chit pulled for a division destroyed earlier in the turn still goes on the track.

        Choice (4, 5.1.6): a chit taken out of the mug to anywhere but the Activation Track
        may be the end of the turn (rule 4 returns the chits); it is a finding only if another
        chit is drawn after it in the same turn, and it is reported at that draw.
        """
        destroyed = formation in self.game.formations and not any(
            self.unit_of(q).formation == formation for q in self.units_on_map())
        if destroyed:
            self.set_aside = (chit, formation, self.next_box)

    def _draw(self, chit: Piece, props: dict[str, str], box: int) -> None:
        """4, 5.1: chits are drawn into the next box, right to left; one activation each.

        Choice (5.1.2, 5.1.3, 5.1.4): what a player puts in the mug is secret (5.1.2), so a chit
        that may not go in the mug is reported when it is drawn.  A division counts as
        destroyed (5.1.3) when none of its units was on the map as the turn began; one destroyed
        later in the turn is drawn normally (5.1.6).
        """
        self._close_activation()
        side = props.get("Side")
        formation = props.get("Formation")
        self.side_acting = side
        if self.set_aside is not None:
            aside, name, due = self.set_aside
            self.set_aside = None
            self.find("5.1.6", f"the chit of {name}, destroyed earlier this turn, was pulled and set aside; it goes "
                      f"on the Activation Track (box {due}) before the next chit is pulled", aside,
                      to_hex=f"Activation {due}")
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
                self.ca_hexes.setdefault(e.new.label, act.side)  # 8.4.2: the first to declare attacks

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

    def _close_activation(self) -> None:
        act = self.activation
        if act and act.combat and act.combat.rolls:
            self._close_round(act.combat)
        if act and act.trail:
            for i in act.members:
                p = self.replayer.board.pieces.get(i)
                h = self.hex_of(p) if p else None
                if h and h in act.trail[1:-1] and self.enemies_in(h, act.side):
                    self.find("6", f"units may not be dropped off in a hex with enemy units ({h})", p, act.start_hex, h)
        self.activation = None
        self._settle_control()

    def on_removed(self, e: Removed) -> None:
        self._victory_dirty = True
        unit = self.unit_of(e.piece)
        if unit and e.where and e.where.label in self.game.geometry:
            self._damage(e.piece, unit, e.where.label, eliminated=True)

    def on_added(self, e: Added) -> None: ...

    def finish(self) -> None:
        self._close_activation()

    def after_step(self, step) -> None:
        if self.started and self._victory_dirty:
            self._victory_dirty = False
            self._victory()
