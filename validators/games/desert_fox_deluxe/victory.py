"""Victory at the end of play (24.3 Fox Killed, 25.3 O'Connor's War): digest 10.1 rank 17.

Evidence: who last entered the victory hexes (control, 2.2.2: a hex is controlled by the side whose
unit entered it last; at the start as the card says, tables/scenario-rules.yaml `control_at_start`),
the units and ZoC on the map when the card's last GT reaches its Victory Check Phase, and the OGS
markers of the victory hexes.

Reported (an event, not a violation: the outcome the log shows), at the end of the Victory Check
Phase of the card's last GT:
- 24.3: the Axis wins when it controls Tobruk C2331 with an overland LOC to El Agheila C0701; the
  Allies when Tobruk and Bardia W2104 are Allied-controlled, in general supply and with an
  overland LOC to the NRV; otherwise a draw;
- 25.3: the player controlling Tripoli L2817 wins, in any supply state.

Choices (a false alarm costs more than a miss):
- 12.4.2: an overland LOC runs hex by hex, of any length, through hexes a motorized unit may enter
  (the reconstructed TEC), free of enemy units and of EZOC not held by a friendly unit; the NRV is
  reached at its connection hexes (22.1 a: W1434, W2034, W2234, the Egyptian railroad).
- "In general supply" for a victory hex is read from the players' own marking (12.5): no OGS marker
  there.  AXC-9 ("Axis in Egypt") cannot be followed: its conditions are not in the text.
"""
from __future__ import annotations

from collections import deque

from validators.games.desert_fox_deluxe.movement import MoveCosts
from validators.kernel.rule import Rule
from validators.replay.replayer import Added, Moved

NRV_ENTRIES = ("W1434", "W2034", "W2234")  # 22.1 a
RAILROAD = "Egyptian railroad"
TOBRUK, BARDIA, EL_AGHEILA, TRIPOLI = "C2331", "W2104", "C0701", "L2817"


class Victory(Rule):
    """24.3 (and 25.3): who wins when the card's last GT is checked, by control and overland LOC."""

    ids = ("24.3",)
    needs = (MoveCosts,)

    def start(self) -> None:
        self.costs = self.ctx.get(MoveCosts)
        rules = self.tables.get("scenario-rules", {}).get(self.state.scenario or "", {})
        self.control: dict[str, str] = dict(rules.get("control_at_start", {}))
        board = self.board
        for h in self.control:
            held = {board.side_id(p) for p in board.units_in(h)}
            if len(held) == 1:
                self.control[h] = held.pop()
        rail = set()
        for line in self.game.map_terrain.hexside_paths.get("railroad", []):
            if line.name == RAILROAD:
                rail.update(line.hexes)
        self.nrv = frozenset(NRV_ENTRIES) | rail
        self.done = False

    def moved(self, e: Moved) -> None:
        if e.new.label in self.control and self.board.unit_of(e.piece) is not None:
            self.control[e.new.label] = self.board.side_id(e.piece)

    def added(self, e: Added) -> None:
        if e.where.label in self.control and self.board.unit_of(e.piece) is not None:
            self.control[e.where.label] = self.board.side_id(e.piece)

    def _loc(self, side: str, start: str, goals: frozenset[str]) -> bool:
        """12.4.2: an overland line from `start` to a goal hex, of any length (see Choices)."""
        enemy, zoc = self.costs.enemy_hexes(side), self.costs.enemy_zoc(side, True)
        mine = set(self.board.unit_hexes(side))
        geo, step = self.game.geometry, self.costs.step_units
        if start in enemy:
            return False
        seen, todo = {start}, deque([start])
        while todo:
            h = todo.popleft()
            if h in goals:
                return True
            if h != start and h in zoc and h not in mine:
                continue  # a line may end in an EZOC hex but not pass through it
            for n in geo.neighbours(h):
                if n in seen or n in enemy:
                    continue
                if step(h, n, "motorized") is None and step(h, n, "mechanized") is None:
                    continue
                seen.add(n)
                todo.append(n)
        return False

    def phase_ended(self, pid: str) -> None:
        st, card = self.state, self.state.card
        if (self.done or pid != "XIX" or card is None or card.last_turn is None or st.turn != card.last_turn
                or st.scenario not in ("fox-killed", "oconnors-war")):
            return
        self.done = True
        names = self.board.side_names
        if st.scenario == "oconnors-war":
            holder = self.control.get(TRIPOLI)
            if holder is not None:
                self.find("24.3", f"end of GT {st.turn}: the {names[holder]} player controls Tripoli {TRIPOLI} and wins "
                          "(25.3)", None, None, TRIPOLI, kind="event", side=names[holder])
            return
        if self.control.get(TOBRUK) == "axis" and self._loc("axis", TOBRUK, frozenset({EL_AGHEILA})):
            self.find("24.3", f"end of GT {st.turn}: the Axis controls Tobruk {TOBRUK} with an overland LOC to El Agheila "
                      f"{EL_AGHEILA}: the Axis wins (24.3)", None, None, TOBRUK, kind="event", side=names["axis"])
        elif all(self.control.get(h) == "allied" and not self.board.markers_in(h, "ogs")
                 and self._loc("allied", h, self.nrv) for h in (TOBRUK, BARDIA)):
            self.find("24.3", f"end of GT {st.turn}: Tobruk {TOBRUK} and Bardia {BARDIA} are Allied-controlled, in general "
                      "supply and have an overland LOC to the NRV: the Allies win (24.3)", None, None, TOBRUK,
                      kind="event", side=names["allied"])
        else:
            self.find("24.3", f"end of GT {st.turn}: neither side meets its objectives (Tobruk {TOBRUK} with an LOC to "
                      f"{EL_AGHEILA}; Tobruk and Bardia {BARDIA} Allied, supplied, with an LOC to the NRV): a draw (24.3; "
                      "AXC-9 not followed)", None, None, TOBRUK, kind="event", side=None)
