"""Refit (17.2) as far as the log shows it: when units are rebuilt (digest 10.1 rank 12).

Evidence: a unit's flip from its reduced face to its full face (refit on the hex grid), and a
unit's move out of its side's Refit Box or Destroyed Box onto the map (refit of eliminated and
destroyed units).

Checked (17.2):
- a unit is rebuilt only in a Movement Phase of its own side (4.1 VI.2, 17.2);
- on the hex grid only at the start of that phase: not after the unit itself moved in it;
- a destroyed unit first goes to the Refit Box in one Movement Phase and leaves it in a later
  one, except two-step US and Commonwealth units (17.2 Important); a unit moved straight from the
  Destroyed Box onto the map, or out of the Refit Box in the phase it came there from the
  Destroyed Box, is reported;
- a unit surely disrupted (its hex holds as many Disrupted markers as combat units) is not rebuilt on
  the hex grid (8.2 g; 17.2: the unit must not be disrupted); nor one surely OGS (its hex's OGS
  markers), nor one in an enemy ZoC (17.2: in GenS, not disrupted, not in an EZOC);
- 17.2.1: only one unit of each Commonwealth nationality other than British is rebuilt in a
  Movement Phase.

Choices (a false alarm costs more than a miss):
- The 1st player is learnt from play (state.py); a rebuild is judged when its phase ends (and
  reported at the rebuild), and not at all when the phasing side is still unknown then.
- A correction is not a rebuild: a flip back of a unit flipped to its reduced face in the same or
  the previous phase, or a move out of a box of a unit that came into it in the same GT or the
  previous phase, is left alone; a move from the Destroyed to the Refit Box (17.2's first stage,
  or a corrected 8.3 placement) is not judged for its phase.
- Commonwealth includes the Commonwealth Associated nationality (Free French, Greek, Polish) for
  the two-step exception.  The RP spent (the Refit Costs Chart is missing), the RP's nationality
  (17.2.1: the RP markers are one per side), the RP within the unit's RMA and the primary base
  hex are not checked.
- GenS (12.5) is the players' own marking: a hex whose units all carry OGS markers.  EZOC (11.1-11.2):
  the enemy's ZoC as it binds a motorized unit (the kinder reading).
- 17.2.1: the Commonwealth nationalities other than British are units.yaml's formations AUS, IND,
  NZ and SA (their nationality is given as british there).
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.movement import MoveCosts
from validators.games.desert_fox_deluxe.units import Forces
from validators.kernel.rule import Rule
from validators.replay.board import Piece
from validators.replay.replayer import Flipped, Moved

FAST_REBUILD = frozenset({"british", "associated", "us"})  # 17.2 Important
CW_NATIONS = frozenset({"AUS", "IND", "NZ", "SA"})  # 17.2.1 (see Choices)


class Refit(Rule):
    """17.2: units are rebuilt at the start of their side's Movement Phase, destroyed ones in two stages."""

    ids = ("17.2",)
    covers = ("17.0",)
    needs = (Forces, MoveCosts)

    def start(self) -> None:
        self.shifted: list[tuple[Piece, str, int]] = []  # destroyed units shifted to the Refit Box this phase
        boxes = {}
        for side, name in self.board.side_names.items():
            boxes[f"{name} Refit"] = (side, "refit")
            boxes[f"{name} Destroyed"] = (side, "destroyed")
        self.refit_boxes = boxes
        self.rebuilt: list[tuple[Piece, str, str, int]] = []  # (piece, side, how, step) awaiting the phase's end
        self.moved_now: set[str] = set()  # pieces moved on the grid this phase
        self.lost_now: set[str] = set()  # flipped down or sent to a box this phase
        self.lost_before: set[str] = set()  # ... in the previous phase
        self.from_destroyed: set[str] = set()  # moved Destroyed -> Refit this phase
        self.lost_this_gt: set[str] = set()  # ... earlier in this GT
        self.lost_gt: int | None = None

    def _box(self, label: str | None) -> tuple[str, str] | None:
        return self.refit_boxes.get(label or "")

    def _not_refittable(self, p: Piece) -> str | None:
        board, f = self.board, self.ctx.get(Forces)
        here, side = board.hex_of(p), board.side_id(p)
        if here is None or side is None:
            return None
        if f.surely_marked(board.pieces_in(here), "ogs"):
            return "a hex whose units are marked OGS"
        if here in self.ctx.get(MoveCosts).enemy_zoc(side, True):
            return "in an enemy ZoC"
        return None

    def flipped(self, e: Flipped) -> None:
        board = self.board
        if e.layer != "Step" or board.unit_of(e.piece) is None or self.state.phase_id is None:
            return
        if e.new == 2 and e.old != 2:
            self.lost_now.add(e.piece.id)
        elif e.old == 2 and e.new != 2 and board.hex_of(e.piece) is not None:
            if e.piece.id in self.lost_now | self.lost_before:
                return
            how = "after it moved this phase" if e.piece.id in self.moved_now else "grid"
            if self.ctx.get(Forces).surely_disrupted(e.piece):
                self.find("17.2", f"{e.piece.name} is flipped to its full face in {board.hex_of(e.piece)}, a hex whose "
                          "units are disrupted: a disrupted unit may not refit (8.2 g, 17.2)", e.piece)
                return
            why = self._not_refittable(e.piece)
            if why:
                self.find("17.2", f"{e.piece.name} is flipped to its full face in {board.hex_of(e.piece)}, {why}: a "
                          "unit refits on the hex grid in GenS and not in an EZOC (17.2)", e.piece)
                return
            self.rebuilt.append((e.piece, board.side_id(e.piece), how, self.state.step))

    def moved(self, e: Moved) -> None:
        p, old, new, board = e.piece, e.old.label, e.new.label, self.board
        if board.unit_of(p) is None or old == new or self.state.phase_id is None:
            return
        if board.on_map(old) and board.on_map(new):
            self.moved_now.add(p.id)
        if self._box(new) is not None:
            if self._box(old) is None:
                self.lost_now.add(p.id)
            elif self._box(old)[1] == "destroyed" and self._box(new)[1] == "refit":
                self.from_destroyed.add(p.id)  # 17.2: the first stage of a destroyed unit's refit
                self.shifted.append((p, board.side_id(p), self.state.step))
            return
        box = self._box(old)
        if box is None or not board.on_map(new) or p.id in self.lost_now | self.lost_before | self.lost_this_gt:
            return
        u = board.unit_of(p)
        fast = u.steps == 2 and self.game.nationality_of_unit(u).id in FAST_REBUILD
        if not fast and (box[1] == "destroyed" or p.id in self.from_destroyed):
            self.find("17.2", f"{p.name} comes onto the map from the Destroyed Box in one phase: RP first shift a "
                      "destroyed unit to the Refit Box, and it is refitted out of it in a later friendly Movement "
                      "Phase (only two-step US and Commonwealth units are rebuilt in one phase)", p)
        self.rebuilt.append((p, board.side_id(p), box[1], self.state.step))

    def phase_started(self, pid: str) -> None:
        if self.state.turn != self.lost_gt:
            self.lost_gt, self.lost_this_gt = self.state.turn, set()
        self.lost_this_gt |= self.lost_now
        self.lost_before, self.lost_now = self.lost_now, set()
        self.moved_now, self.from_destroyed, self.rebuilt = set(), set(), []
        self.shifted = []

    def phase_ended(self, pid: str) -> None:
        st, board = self.state, self.board
        phasing, names = st.phasing(), board.side_names
        for p, side, how, step in self.rebuilt:
            if st.phase_kind != "movement":
                self.find("17.2", f"{p.name} is rebuilt in the {st.phase} Phase: units refit in a friendly Movement "
                          "Phase (4.1 VI.2, 17.2)", p, None, board.hex_of(p), side=names.get(side), at=step)
            elif phasing is None:
                continue
            elif side != phasing:
                self.find("17.2", f"{p.name} is rebuilt in the {st.phase} Phase, the "
                          f"{names[phasing]} player's: units refit in a friendly Movement Phase (17.2)",
                          p, None, board.hex_of(p), side=names.get(side), at=step)
            elif how.startswith("after"):
                self.find("17.2", f"{p.name} is flipped to its full face {how}: a depleted unit is rebuilt at the "
                          "start of its Movement Phase (4.1 VI.2, 17.2)", p, None, board.hex_of(p),
                          side=names.get(side), at=step)
        if st.phase_kind == "movement" and phasing is not None:
            self._costs(phasing)
        self.rebuilt = []

    def _costs(self, side: str) -> None:
        """17.2.1: one unit of each Commonwealth nationality other than British receives RP in the phase."""
        board, names = self.board, self.board.side_names
        done = [(p, step) for p, s_, how, step in self.rebuilt if s_ == side and not how.startswith("after")]
        done += [(p, step) for p, s_, step in self.shifted if s_ == side]
        done.sort(key=lambda x: x[1])
        seen: dict[str, str] = {}
        for p, step in done:
            u = board.unit_of(p)
            nation = u.formation if u is not None else None
            if nation in CW_NATIONS:
                if nation in seen:
                    self.find("17.2", f"{p.name} is rebuilt in the {self.state.phase} Phase after {seen[nation]}: only one "
                              f"unit of each Commonwealth nationality other than British ({nation}) receives RP in a "
                              "Movement Phase (17.2.1)", p, None, board.hex_of(p), side=names[side], at=step)
                else:
                    seen[nation] = p.name
