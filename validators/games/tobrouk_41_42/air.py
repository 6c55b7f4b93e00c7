"""Air power (5.5 with the scenarios' air rules 11.2e, 11.4k, 11.5k): digest 10.1 rank 12.

Evidence: the **Air strike** declaration on a squadron ("Air strike: NAME on HEX", game.yaml) and the I/V
marker's box.

- 5.5: air strikes belong to the air power step of the maneuvering player's maneuver (B, D);
  a maneuver with air strikes moves the I/V marker one space in the opponent's favour (checked
  when the maneuver ends: the marker must stand at least one space nearer the opponent than
  when it began).
- 11.4k, 11.5k (tables/scenario-rules.yaml `squadrons`): a side with no squadrons makes no air
  strike; in Crusader no air strike after turn 2.
- 5.5c: at most one squadron targets a hex (one Air strike declaration per hex and maneuver).
- 5.5f: the struck units' losses (6.1, losses.py), morale checks (6.2, fire.py) and retreats of
  units in contact (6.3, retreats.py) are judged in the maneuver; 5.5f': a squadron left on its
  target is an artillery marker for the next combat, outside the limit of 2 (fire.py).
- The strike's own shots (5.5e): the module's conventions give them no die, so their results are
  not checked.

Choices: the two 0 boxes of the I/V track are the same value (0); a space is one step of value.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import MANEUVERS
from validators.games.tobrouk_41_42.units import TobroukRule
from validators.replay.replayer import Said


class AirPower(TobroukRule):
    """5.5 (11.2e, 11.4k, 11.5k): air strikes belong to their player's maneuver, only with squadrons
    the scenario gives and within its turns, and move the I/V marker one space to the opponent."""

    ids = ("5.5",)

    def new_phase(self) -> None:
        self.iv_at_start, self.struck = self.state.iv_value(), False
        self.struck_hexes: set[str] = set()  # hexes an air strike of this maneuver targeted (5.5c)

    def phase_ended(self, pid: str) -> None:
        side = self.maneuvering()
        if pid in MANEUVERS and self.struck and side:
            now, then = self.state.iv_value(), self.iv_at_start
            toward = -1 if side == "commonwealth" else 1  # the opponent's direction
            if now is not None and then is not None and (now - then) * toward < 1:
                self.find("5.5", f"the {self.side_names[side]} player made air strikes in his maneuver: the I/V marker "
                          "moves one space in the opponent's favour", side=self.side_names[side])

    def line_said(self, e: Said) -> None:
        line = self.state.line_of("Air strike")
        if line is None:
            return
        name, hex_id = line
        squadron = next((p for p in self.replayer.board.pieces.values() if p.name == name
                         and self.unit_of(p) and self.unit_of(p).type == "air"), None)
        if squadron is not None:
            self._air_strike(self.side_id(squadron), hex_id)

    def _air_strike(self, side: str | None, hex_id: str) -> None:
        if side is None:
            return
        name = self.side_names[side]
        rules = self.sc_rules.get("squadrons", {})
        if self.state.phase_id not in MANEUVERS or self.maneuvering() not in (None, side):
            self.find("5.5", f"a {name} air strike on {hex_id} in the {self.state.phase}: air strikes belong to the "
                      f"{name} player's own maneuver", side=name)
        elif int(rules.get(side, 1)) == 0:
            self.find("5.5", f"the {name} player has no squadrons in this scenario ({rules.get('rule', '')}): no air "
                      "strike", side=name)
        elif "last_air_strike_turn" in rules and (self.state.turn or 0) > int(rules["last_air_strike_turn"]):
            self.find("5.5", f"no air strike after turn {rules['last_air_strike_turn']} in this scenario "
                      f"({rules.get('rule', '')})", side=name)
        elif hex_id in self.struck_hexes:
            self.find("5.5", f"a second air strike on {hex_id} in this maneuver: at most one squadron may target a hex "
                      "(5.5c)", side=name)
        else:
            self.struck = True
            self.struck_hexes.add(hex_id)
