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

from validators.games.tobrouk_41_42.ivtrack import IVTrackRules
from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Rolled, Said

BREACH = " breaches a minefield from "


class OptionalRules(IVTrackRules):
    """Part of the Tobrouk 41-42 auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        sw = self.tables.get("optional", {}).get("switches", {})
        self.hecker = sw.get("group_hecker", {}).get("unit")
        self.rommel = sw.get("rommel", {}).get("unit")
        self.commando = sw.get("rommel", {}).get("commando", {})
        self.lrdg = sw.get("lrdg", {}).get("unit")
        self.lrdg_back = str(sw.get("lrdg", {}).get("reenters", "1030"))
        self.breached_in: tuple | None = None  # (turn, pair, phase) of Group Hecker's breach
        self.commandos = 0
        self.rommel_killable = False
        self.lrdg_gone = False

    def uid(self, p: Piece) -> str | None:
        u = self.unit_of(p)
        return u.id if u is not None else None

    # -- 12.2 ------------------------------------------------------------------------------------
    def on_said(self, e: Said) -> None:
        text = e.text.strip().strip("* ").strip()
        if text.startswith("HQ action: ") and BREACH in text:
            name, hex_id = text[len("HQ action: "):].split(BREACH, 1)
            p = next((q for q in self.replayer.board.pieces.values() if q.name == name and self.unit_of(q)), None)
            if p is not None and self.uid(p) == self.hecker and self.phase_id in MANEUVERS:
                self.breached_in = (self.turn, self.pair, self.phase_id)
                hex_id = hex_id.strip()
                if self.markers_in(hex_id, "cr") or self.markers_in(hex_id, "re"):
                    self.find("12.2", f"{p.name} breached a minefield from {hex_id} while unsupplied (a CR or RE "
                              "marker in its hex): Group Hecker breaches only if supplied", p, None, hex_id)
        super().on_said(e)

    def on_moved(self, e: Moved) -> None:
        super().on_moved(e)
        if e.old.label == e.new.label or self.phase_id is None:
            return
        uid, geo = self.uid(e.piece), self.game.geometry
        if uid == self.hecker and self.breached_in == (self.turn, self.pair, self.phase_id) \
                and e.old.label in geo and e.new.label in geo:
            self.find("12.2", f"{e.piece.name} moved after its minefield breach in this maneuver: it may move "
                      "before but not after the breach", e.piece)
        if uid == self.lrdg:
            if e.old.label not in geo and e.new.label in geo and self.lrdg_gone:
                self.lrdg_gone = False
                if e.new.label != self.lrdg_back:
                    self.find("12.4", f"{e.piece.name} came back at {e.new.label}: a destroyed LRDG reappears in "
                              f"hex {self.lrdg_back}", e.piece)

    # -- 12.3 ------------------------------------------------------------------------------------
    def on_rolled(self, e: Rolled) -> None:
        super().on_rolled(e)
        if e.button == "Commonwealth commando 2d6" and e.dice:
            self.commandos += 1
            if self.commandos > 1:
                self.find("12.3", "a second commando roll against Rommel: once per scenario", side="Commonwealth")
            elif sum(e.dice) in self.commando.get("kills_on", (2, 12)):
                self.rommel_killable = True

    def left_map(self, p: Piece, hex_id: str) -> None:
        super().left_map(p, hex_id)
        if self.uid(p) == self.rommel:
            self._rommel_gone(p, hex_id)
        if self.uid(p) == self.lrdg:
            self.lrdg_gone = True

    def _rommel_gone(self, p: Piece, hex_id: str) -> None:
        if self.phase_id is None or self.rommel_killable:
            return
        self.find("12.3", f"{p.name} left the map from {hex_id} with no commando roll of 2 or 12: Rommel cannot be "
                  "captured or attacked", p, None, hex_id, side="Axis")

    def declared(self, role: str, piece: Piece, hex_id: str) -> None:
        uid = self.uid(piece)
        if role == "target" and uid == self.rommel:
            self.find("12.3", f"a shot declared at {piece.name} in {hex_id}: Rommel cannot be attacked", piece, None,
                      hex_id)
        if role in ("firer", "coordinated") and uid == self.lrdg and self.phase_id in COMBATS \
                and self.maneuvering() == self.side_id(piece):
            self.find("12.4", f"{piece.name} fired in the combat after its own side's maneuver: the LRDG cannot "
                      "attack", piece, None, hex_id)
        super().declared(role, piece, hex_id)
