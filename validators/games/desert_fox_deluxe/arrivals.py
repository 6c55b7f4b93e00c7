"""Scenario reinforcements and withdrawals (7.0-7.4 with the card's lists): digest 10.1 rank 6.

Evidence: the card's `reinforcements` wait on the turn track, in the box of their GT
(`waiting_track`); a unit leaving that box has arrived.  The card's `withdrawals` name the
units that must be off the hex grid by the end of a GT.

Checked:
- 7.1: no unit arrives before the GT the card gives;
- 7.0: reinforcements are received in the Reinforcement Phase (III), or in the phase the card gives
  (`phase`: 30.1 "GT-31 Phase 12", 30.2 units entering by an edge in a Movement Phase);
- 7.0-7.3 and the card: a unit arrives where the card puts it (its hex, any of its `hexes`, or its
  box); a hex two maps share is one hex, whichever map's id names it (S0734 is C0701);
- 7.4 (24.2): a unit the card withdraws still on the hex grid when the GT ends (or its XX Turn
  Marker Phase begins) is reported as an event: the Axis wins at once (24.2).

Choices:
- An arrival into another box than the card's hex (coastal shipping of one dump or two steps,
  24.1/26.1; a shipping box) is not reported; one onto another hex of the map, or onto the map
  when the card gives a box, is.
- A unit to withdraw that was eliminated first costs the Allies 1 RP (24.2): not followed (RP
  spending is not tracked); an eliminated unit counts as gone.
"""
from __future__ import annotations

from validators.kernel.rule import Rule, Tracker
from validators.replay.replayer import Moved


class Arrivals(Tracker):
    """The card's reinforcement lines, the track they wait on, and which units have arrived."""

    acts_in = {"unit_step": ()}  # a unit stepping from hex to hex leaves no waiting box

    def start(self) -> None:
        card = self.state.card
        self.lines = {u: a for a in (card.reinforcements if card else []) for u in a.units}
        self.wait_track = card.waiting_track if card else None
        t = self.game.tracks.get(self.wait_track or "")
        self.boxes = frozenset(self.game.zone_name(t.id, b) for b in t.boxes) if t is not None else frozenset()
        self.arrived: set[str] = set()
        self.just_arrived: Moved | None = None  # the move being heard, when it is a first arrival

    def waiting_box(self, label: str | None) -> bool:
        return label in self.boxes

    def moved(self, e: Moved) -> None:
        self.just_arrived = None
        u = self.board.unit_of(e.piece)
        if u is None or u.id not in self.lines or e.piece.id in self.arrived or not self.waiting_box(e.old.label):
            return
        if self.waiting_box(e.new.label) or self.state.phase_id is None:
            return
        self.arrived.add(e.piece.id)
        self.just_arrived = e


class Reinforcements(Rule):
    """7.0-7.1 with the card: a unit arrives on its GT, in the Reinforcement Phase, where the card says."""

    ids = ("7.0", "7.1")
    covers = ("22.1", "24.1", "24.2", "26.2")
    needs = (Arrivals,)
    acts_in = {"unit_step": ()}  # only an arrival (Arrivals.just_arrived) is judged

    def moved(self, e: Moved) -> None:
        arrivals = self.ctx.get(Arrivals)
        if arrivals.just_arrived is not e:
            return
        board, st = self.board, self.state
        u = board.unit_of(e.piece)
        a = arrivals.lines[u.id]
        rule = a.rule or "7.0"
        if st.turn is not None and st.turn < a.turn:
            self.find("7.1", f"{u.name} arrives on GT {st.turn}; the card ({rule}) makes it available on GT {a.turn}",
                      e.piece)
        if a.phase is not None and a.phase not in (st.phase_id, st.phase_kind):
            self.find("7.0", f"{u.name} arrives in the {st.phase} Phase: the card ({rule}) brings it in the {a.phase} "
                      "Phase", e.piece)
        elif a.phase is None and st.phase_kind != "reinforcement":
            self.find("7.0", f"{u.name} arrives in the {st.phase} Phase: reinforcements are received in the "
                      "Reinforcement Phase (III)", e.piece)
        geo = self.game.geometry
        wanted = [geo.canonical(h) for h in a.hexes or [a.hex] if h]
        if not wanted and a.track:
            wanted = [self.game.zone_name(a.track, a.box)]
        new = geo.canonical(e.new.label) if e.new.label in geo else e.new.label
        on_map = board.on_map
        if wanted and new not in wanted and (on_map(new) or on_map(wanted[0])) and not (on_map(wanted[0]) and not on_map(new)):
            where = wanted[0] if len(wanted) == 1 else "one of " + ", ".join(wanted)
            self.find("7.0", f"{u.name} arrives in {new}; the card ({rule}) brings it in at {where}", e.piece)


class Withdrawals(Rule):
    """7.4 with the card (24.2): a unit the card withdraws is off the map by the end of its GT."""

    ids = ("7.4",)
    covers = ("24.2",)

    def start(self) -> None:
        self.checked: set[int] = set()

    def phase_started(self, pid: str) -> None:
        if pid == "XX" and self.state.turn is not None:
            self._withdrawals(self.state.turn)

    def turn_ended(self, turn: int) -> None:
        self._withdrawals(turn)

    def _withdrawals(self, turn: int) -> None:
        card, board = self.state.card, self.board
        if card is None or turn in self.checked:
            return
        self.checked.add(turn)
        for w in card.withdrawals:
            if w.turn != turn:
                continue
            for p in list(board.replayer.board.pieces.values()):
                u = board.unit_of(p)
                if u is not None and u.id in w.units and board.hex_of(p) is not None:
                    self.find("7.4", f"{u.name} is still on the map ({board.hex_of(p)}) at the end of GT {turn}: the card "
                              f"({w.rule or '7.4'}) withdraws it by then, else the Axis wins at once",
                              p, None, board.hex_of(p), kind="event")
