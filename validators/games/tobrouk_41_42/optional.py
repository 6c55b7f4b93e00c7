"""The optional rules a log can show (12.2 Group Hecker, 12.3 Rommel, 12.4 LRDG), judged only when
their counters take part (tables/optional.yaml names them: `unit`).

- 12.2: Group Hecker "can move before but not after this mine clearance": after its Breach
  minefield declaration it does not move again in that maneuver; it breaches only if supplied (no
  CR or RE marker in its hex, markers lying in hexes).
- 12.3: Rommel "cannot be captured or attacked": no shot is declared at him, and he leaves the
  map only after the Commonwealth commando roll of 2 or 12; the commando is rolled once per
  scenario.
- 12.4: the LRDG "cannot attack": it fires only in the combat after the Axis maneuver
  (defensively); "if destroyed, it reappears ... in hex 1030": back on the map, it stands at 1030.

Not checked: Rommel's +2 to one shot and +3 to an HQ's range, the LRDG's own 5 MP and its once
per maneuver, its missing ZoC and automatic retreat (other rules read them as a unit's).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.units import TobroukRule, left_map
from validators.kernel.declarations import Declared
from validators.replay.replayer import Moved, Removed, Rolled, Said


def switch(rule: TobroukRule, name: str) -> dict:
    return rule.tables.get("optional", {}).get("switches", {}).get(name, {})


def uid(rule: TobroukRule, p) -> str | None:
    u = rule.unit_of(p)
    return u.id if u is not None else None


class GroupHecker(TobroukRule):
    """12.2: Group Hecker breaches a minefield only if supplied, and does not move after the breach in that maneuver."""

    ids = ("12.2",)

    def start(self) -> None:
        self.hecker = switch(self, "group_hecker").get("unit")
        self.breached_in: tuple | None = None  # (turn, pair, phase) of Group Hecker's breach

    def said(self, e: Said) -> None:
        line = self.state.line_of("Breach minefield")
        if line is None:
            return
        p = self.state.named_unit(line[0])
        if p is not None and uid(self, p) == self.hecker and self.phase_id in MANEUVERS:
            self.breached_in = (self.turn, self.state.pair, self.phase_id)
            hex_id = line[1].strip()
            if self.markers_in(hex_id, "cr") or self.markers_in(hex_id, "re"):
                self.find("12.2", f"{p.name} breached a minefield from {hex_id} while unsupplied (a CR or RE "
                          "marker in its hex): Group Hecker breaches only if supplied", p, None, hex_id)

    def moved(self, e: Moved) -> None:
        if e.old.label == e.new.label or self.phase_id is None:
            return
        if uid(self, e.piece) == self.hecker and self.breached_in == (self.turn, self.state.pair, self.phase_id) \
                and e.old.label in self.geo and e.new.label in self.geo:
            self.find("12.2", f"{e.piece.name} moved after its minefield breach in this maneuver: it may move "
                      "before but not after the breach", e.piece)


class Rommel(TobroukRule):
    """12.3: Rommel cannot be attacked nor captured (he leaves the map only after a commando roll of
    2 or 12), and the commando is rolled once per scenario."""

    ids = ("12.3",)

    def start(self) -> None:
        self.rommel = switch(self, "rommel").get("unit")
        self.commando = switch(self, "rommel").get("commando", {})
        self.commandos = 0
        self.rommel_killable = False

    def rolled(self, e: Rolled) -> None:
        if e.button == "Commonwealth commando 2d6" and e.dice:
            self.commandos += 1
            if self.commandos > 1:
                self.find("12.3", "a second commando roll against Rommel: once per scenario", side="Commonwealth")
            elif sum(e.dice) in self.commando.get("kills_on", (2, 12)):
                self.rommel_killable = True

    def moved(self, e: Moved) -> None:
        self._gone(e)

    def removed(self, e: Removed) -> None:
        self._gone(e)

    def _gone(self, e: Moved | Removed) -> None:
        hex_id = left_map(e, self.geo)
        if hex_id is None or uid(self, e.piece) != self.rommel or self.phase_id is None or self.rommel_killable:
            return
        self.find("12.3", f"{e.piece.name} left the map from {hex_id} with no commando roll of 2 or 12: Rommel cannot "
                  "be captured or attacked", e.piece, None, hex_id, side="Axis")

    def declared(self, d: Declared) -> None:
        if d.name == "Declare target" and uid(self, d.piece) == self.rommel:
            self.find("12.3", f"a shot declared at {d.piece.name} in {d.where}: Rommel cannot be attacked", d.piece,
                      None, d.where)


class LRDG(TobroukRule):
    """12.4: the LRDG cannot attack (it fires only after the Axis maneuver), and a destroyed LRDG
    reappears in hex 1030."""

    ids = ("12.4",)

    def start(self) -> None:
        self.lrdg = switch(self, "lrdg").get("unit")
        self.lrdg_back = str(switch(self, "lrdg").get("reenters", "1030"))
        self.lrdg_gone = False

    def moved(self, e: Moved) -> None:
        if uid(self, e.piece) == self.lrdg and left_map(e, self.geo) is not None:
            self.lrdg_gone = True
        if e.old.label == e.new.label or self.phase_id is None or uid(self, e.piece) != self.lrdg:
            return
        if e.old.label not in self.geo and e.new.label in self.geo and self.lrdg_gone:
            self.lrdg_gone = False
            if e.new.label != self.lrdg_back:
                self.find("12.4", f"{e.piece.name} came back at {e.new.label}: a destroyed LRDG reappears in "
                          f"hex {self.lrdg_back}", e.piece)

    def removed(self, e: Removed) -> None:
        if uid(self, e.piece) == self.lrdg and left_map(e, self.geo) is not None:
            self.lrdg_gone = True

    def declared(self, d: Declared) -> None:
        if d.name in ("Declare firer", "Coordinated fire") and uid(self, d.piece) == self.lrdg \
                and self.phase_id in COMBATS and self.maneuvering() == self.side_id(d.piece):
            self.find("12.4", f"{d.piece.name} fired in the combat after its own side's maneuver: the LRDG cannot "
                      "attack", d.piece, None, d.where)
