"""The optional rules a log can show (12.2 Group Hecker, 12.3 Rommel, 12.4 LRDG), judged only when
their counters take part (tables/optional.yaml names them: `unit`).

- 12.2: Group Hecker "can move before but not after this mine clearance": after its Breach
  minefield declaration it does not move again in that maneuver; it breaches only if supplied (no
  CR or RE marker in its hex, markers lying in hexes), for 3 MP on top of its move (the cheapest
  path from where its move began, the reconstructed Movement Costs Table) within the maneuver's MP.
- 12.3: Rommel "cannot be captured or attacked": no shot is declared at him, and he leaves the
  map only after the Commonwealth commando roll of 2 or 12; the commando is rolled once per
  scenario.
- 12.4: the LRDG "cannot attack": it fires only in the combat after the Axis maneuver
  (defensively); "if destroyed, it reappears ... in hex 1030": back on the map, it stands at 1030.

Rommel's +2 to one shot (fire.py) and +3 to his HQ's range (supply.py, movement.py) are read where
they apply; the LRDG's 5 MP in any maneuver (movement.py) and its missing ZoC (units.py,
supply.py) too.  12.4's automatic retreat: fired at in a combat phase, the LRDG ends it gone or
retreated by 6.3's path (fewest hexes, out of fire); not fired at, it does not move in combat.
"Once per maneuver" is its several drags being one move (4.1).
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.movement import Moves
from validators.games.tobrouk_41_42.retreats import retreat_problem
from validators.games.tobrouk_41_42.units import TobroukRule, Units, left_map
from validators.kernel.movement import show_mp
from validators.kernel.declarations import Declared
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed, Rolled, Said


class OptionalCounters(TobroukRule):
    """12.2-12.4: Group Hecker breaches only if supplied and does not move after; Rommel is never
    attacked nor captured and the commando is rolled once; the LRDG never attacks and comes back at 1030."""

    ids = ("12.2", "12.3", "12.4")

    needs = (Units, Moves)

    def start(self) -> None:
        self.moves = self.ctx.get(Moves)
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
        self.watched = frozenset((self.hecker, self.rommel, self.lrdg))  # the units `moved` judges (see there)
        super().start()

    def new_phase(self) -> None:
        self.lrdg_shot_in: str | None = None  # the hex the LRDG was fired at in, this combat phase
        self.lrdg_moved: tuple[str, int] | None = None  # (hex it left first, step of its last move) in combat

    def phase_ended(self, pid: str) -> None:
        """12.4: the LRDG "automatically retreats on a '-' or 'T' result" (a T1 or T2 destroys its one
        step): fired at, it ends the combat phase gone or retreated out of fire by the fewest hexes
        (6.3's path); not fired at, it does not move in combat."""
        if pid not in COMBATS or self.lrdg is None:
            return
        p = self.unit_piece_on_map(self.lrdg)
        here = self.hex_of(p) if p is not None else None
        shot, moved = self.lrdg_shot_in, self.lrdg_moved
        if here is None:
            return
        name = self.side_name(self.side_id(p))
        if moved is not None and here != moved[0]:
            why = ("it was not fired at: it moves in combat only to retreat" if shot is None else
                   retreat_problem(self, self.moves, self.side_id(p), moved[0], here))
            if why:
                self.find("12.4", f"{p.name} moved from {moved[0]} to {here} in the {self.state.phase}: {why}", p,
                          moved[0], here, side=name, at=moved[1])
        elif shot is not None and here == shot:
            self.find("12.4", f"end of the {self.state.phase}: {p.name} was fired at in {shot} and is still there: the "
                      "LRDG retreats automatically (or is destroyed)", p, None, shot, side=name)

    def uid(self, p: Piece) -> str | None:
        u = self.unit_of(p)
        return u.id if u is not None else None

    def line_said(self, e: Said) -> None:
        st, line = self.state, self.state.line_of("Breach minefield")
        p = st.named_unit(line[0]) if line is not None else None
        if p is not None and self.uid(p) == self.hecker and st.phase_id in MANEUVERS:
            self.breached_in = (st.turn, st.pair, st.phase_id)
            hex_id = line[1].strip()
            if self.markers_in(hex_id, "cr") or self.markers_in(hex_id, "re"):
                self.find("12.2", f"{p.name} breached a minefield from {hex_id} while unsupplied (a CR or RE "
                          "marker in its hex): Group Hecker breaches only if supplied", p, None, hex_id)
                return
            side = self.side_id(p)
            spent = self.moves.spent(p, side) if side else None
            cost = int(self.tables["movement"].get("hq_actions", {}).get("hecker_breach", 3))
            allowance = self.maneuver_mp(side) if side else 0
            if spent is not None and spent[0] + cost > allowance:
                self.find("12.2", f"{p.name} breached a minefield after a move of {show_mp(spent[0])} MP: with the "
                          f"breach's {cost} MP that is more than the maneuver's {allowance}"
                          f"{self.reconstructed('movement', 'terrain-effects')}", p, None, hex_id)

    def moved(self, e: Moved) -> None:
        uid = self.uid(e.piece)
        if uid not in self.watched:  # every case below is Group Hecker's, Rommel's or the LRDG's: the other
            return  # moves, nearly all of a log's, are passed at once
        if (gone := left_map(e, self.hexes)) is not None:
            self._left_map(e.piece, gone)
        st = self.state
        if e.old.label == e.new.label or st.phase_id is None:
            return
        geo = self.hexes
        if uid == self.lrdg and st.phase_id in COMBATS and e.old.label in geo and e.new.label in geo:
            self.lrdg_moved = ((self.lrdg_moved or (e.old.label,))[0], st.step)
        if uid == self.hecker and self.breached_in == (st.turn, st.pair, st.phase_id) \
                and e.old.label in geo and e.new.label in geo:
            self.find("12.2", f"{e.piece.name} moved after its minefield breach in this maneuver: it may move "
                      "before but not after the breach", e.piece)
        if uid == self.lrdg:
            if e.old.label not in geo and e.new.label in geo and self.lrdg_gone:
                self.lrdg_gone = False
                if e.new.label != self.lrdg_back:
                    self.find("12.4", f"{e.piece.name} came back at {e.new.label}: a destroyed LRDG reappears in "
                              f"hex {self.lrdg_back}", e.piece)

    def removed(self, e: Removed) -> None:
        if (gone := left_map(e, self.hexes)) is not None:
            self._left_map(e.piece, gone)

    def rolled(self, e: Rolled) -> None:
        if e.button == "Commonwealth commando 2d6" and e.dice:
            self.commandos += 1
            if self.commandos > 1:
                self.find("12.3", "a second commando roll against Rommel: once per scenario", side="Commonwealth")
            elif sum(e.dice) in self.commando.get("kills_on", (2, 12)):
                self.rommel_killable = True

    def _left_map(self, p: Piece, hex_id: str) -> None:
        if self.uid(p) == self.rommel and self.state.phase_id is not None and not self.rommel_killable:
            self.find("12.3", f"{p.name} left the map from {hex_id} with no commando roll of 2 or 12: Rommel cannot be "
                      "captured or attacked", p, None, hex_id, side="Axis")
        if self.uid(p) == self.lrdg:
            self.lrdg_gone = True

    def declared(self, d: Declared) -> None:
        uid, piece, hex_id = self.uid(d.piece), d.piece, d.where
        if d.name == "Declare target" and uid == self.lrdg and self.state.phase_id in COMBATS:
            self.lrdg_shot_in = hex_id
        if d.name == "Declare target" and uid == self.rommel:
            self.find("12.3", f"a shot declared at {piece.name} in {hex_id}: Rommel cannot be attacked", piece, None,
                      hex_id)
        if d.name in ("Declare firer", "Coordinated fire") and uid == self.lrdg and self.state.phase_id in COMBATS \
                and self.maneuvering() == self.side_id(piece):
            self.find("12.4", f"{piece.name} fired in the combat after its own side's maneuver: the LRDG cannot "
                      "attack", piece, None, hex_id)
