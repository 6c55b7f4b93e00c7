"""Scenario reinforcements and withdrawals (7.0-7.4 with the card's lists): digest 10.1 rank 6.

Evidence: the card's `reinforcements` wait on the turn track, in the box of their GT
(`waiting_track`); a unit leaving that box has arrived.  The card's `withdrawals` name the
units that must be off the hex grid by the end of a GT.

Checked:
- 7.1: no unit arrives before the GT the card gives;
- 7.0: reinforcements are received in the Reinforcement Phase (III);
- 7.0-7.3 and the card: a unit arrives where the card puts it (its hex, or its box);
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

from validators.games.desert_fox_deluxe.combat import CombatRules
from validators.replay.replayer import Moved


class ArrivalRules(CombatRules):
    """Part of the Desert Fox Deluxe auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        card = self.card
        self.arrivals = {u: a for a in (card.reinforcements if card else []) for u in a.units}
        self.wait_track = card.waiting_track if card else None
        self.arrived: set[str] = set()
        self.withdrawn_checked: set[int] = set()

    def _waiting_box(self, label: str | None) -> bool:
        t = self.game.tracks.get(self.wait_track or "")
        return t is not None and label in {self.game.zone_name(t.id, b) for b in t.boxes}

    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        u = self.unit_of(e.piece)
        if u is None or u.id not in self.arrivals or e.piece.id in self.arrived or not self._waiting_box(e.old.label):
            return
        if self._waiting_box(e.new.label) or self.phase_id is None:
            return
        self.arrived.add(e.piece.id)
        a = self.arrivals[u.id]
        rule = a.rule or "7.0"
        if self.turn is not None and self.turn < a.turn:
            self.find("7.1", f"{u.name} arrives on GT {self.turn}; the card ({rule}) makes it available on GT {a.turn}",
                      e.piece)
        if self.phase_kind != "reinforcement":
            self.find("7.0", f"{u.name} arrives in the {self.phase} Phase: reinforcements are received in the "
                      "Reinforcement Phase (III)", e.piece)
        want = a.hex or (self.game.zone_name(a.track, a.box) if a.track else None)
        new = e.new.label
        if want and new != want and (self.on_map(new) or self.on_map(want)) and not (self.on_map(want) and not self.on_map(new)):
            self.find("7.0", f"{u.name} arrives in {new}; the card ({rule}) brings it in at {want}", e.piece)

    def phase_started(self, pid: str) -> None:
        super().phase_started(pid)
        if pid == "XX" and self.turn is not None:
            self._withdrawals(self.turn)

    def turn_ended(self, turn: int) -> None:
        self._withdrawals(turn)
        super().turn_ended(turn)

    def _withdrawals(self, turn: int) -> None:
        card = self.card
        if card is None or turn in self.withdrawn_checked:
            return
        self.withdrawn_checked.add(turn)
        for w in card.withdrawals:
            if w.turn != turn:
                continue
            for p in list(self.replayer.board.pieces.values()):
                u = self.unit_of(p)
                if u is not None and u.id in w.units and self.hex_of(p) is not None:
                    self.find("7.4", f"{u.name} is still on the map ({self.hex_of(p)}) at the end of GT {turn}: the card "
                              f"({w.rule or '7.4'}) withdraws it by then, else the Axis wins at once",
                              p, None, self.hex_of(p), kind="event")
