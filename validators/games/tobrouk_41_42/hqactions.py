"""HQ actions (4.4: 4.41b-d, 4.42, 4.43) and the MP they cost: digest 10.1 rank 15; with the
entrenchment's MP (4.3a) and the marker that goes when a unit moves (4.3c).

Evidence, in a maneuver (B, D), for the maneuvering side:
- a Wreck marker taken off the map: a repair (4.41b) by an armoured HQ (tables/supply.yaml
  `armoured_hqs`, Q&A 2) not surely unsupplied (supply.py), with a valid supply path (3.1e) to
  the wreck within its range (hexes between, 3.1d), the wreck out of enemy fire; 3 MP each
  wreck (a double marker is two, Q&A 2);
- a Retreat marker flipped to its reorganised face: a reorganisation (4.42) of the side's CU in
  its hex, not in contact, with a valid path to an HQ of its side within that HQ's range, for
  1 MP; the reorganised unit does not move again in that maneuver (4.42c);
- a breach marker brought onto a hex: a breach (4.43a) by an HQ not surely unsupplied with a
  valid path to the hex within range, the hex empty of enemy units and out of their fire, for
  4 MP (Group Hecker next to the hex may breach instead, 12.2);
- when the maneuver ends, an HQ's move (the cheapest path from where it began) plus its actions
  is at most the maneuver's MP (4.1, 2.22c);
- an entrenchment marker put in a hex costs the units there 2 MP (armoured 3, 4.3a) on top of
  their move: at least one unit of the hex must have that much left.
Any time after the set-up, a combat unit's step regained outside a combat phase is an armoured
replacement step (4.41c): an armoured unit, out of enemy fire, supplied by an armoured corps HQ of
its side (one not surely unsupplied with a valid path to it within range; the unit without a CR or
RE marker), one per 3 wrecks its side repaired.

Choices:
- The MP of an action are charged to an HQ only when a single HQ could have made it.
- "Out of enemy fire" / "not in contact" is the enemy ZoC of units.py; paths are the lenient
  paths of supply.py (minefields and breaches are not read).  But 4.43a's "out of range of their
  firing" is the enemy's fire (`under_fire`: any enemy combat unit next to the hex, no cliff
  between): units fire across a minefield (5.9), which stops no fire though it stops a ZoC (1.34).
- 4.3c (the marker goes when the unit moves) is not checked: a stack dragged whole carries
  its markers, which the players' logs leave in place (the rules tests' legal drags do too).
- A reorganisation flip outside a maneuver is reported; a wreck taken off outside a maneuver
  is not (a correction), nor are replacement counters swapped back (6.1d).
"""
from __future__ import annotations

from fractions import Fraction

from validators.games.tobrouk_41_42.movement import Moves
from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.supply import LENIENT, SupplyLines
from validators.games.tobrouk_41_42.units import TobroukRule, Units, left_map
from validators.kernel.movement import show_mp
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed

WRECK_SIZE = {"wreck": 1, "wreck-2": 2, "wreck-3": 3}
COSTS = {"repair": 3, "reorganise": 1, "breach": 4}  # 4.41b, 4.42b, 4.43a'
ENTRENCH = {"armoured": 3, "other": 2}  # 4.3a
MAP_NOTE = " (reconstructed map)"


class HQActions(TobroukRule):
    """4.1, 4.3a, 4.41b-c, 4.42, 4.43: HQ actions (repair, reorganisation, breach) in their side's
    maneuver by an HQ in reach and not unsupplied, out of enemy fire; an HQ's move and actions within
    the maneuver's MP; an entrenching unit with 2 MP (armoured 3) left; replacement steps from repairs."""

    ids = ("4.1", "4.3", "4.41", "4.42", "4.43")
    needs = (Units, Moves, SupplyLines)

    def start(self) -> None:
        self.moves, self.lines = self.ctx.get(Moves), self.ctx.get(SupplyLines)
        self.armoured_hqs = set(self.lines.supply_t.get("armoured_hqs", {}).get("hqs", []))
        self.wrecks_repaired: dict[str, int] = {s: 0 for s in self.side_names}  # wrecks repaired so far (4.41c)
        self.replacement_steps: dict[str, int] = {s: 0 for s in self.side_names}  # replacement steps taken
        super().start()

    def new_phase(self) -> None:
        self.hq_actions: dict[str, list[tuple[str, int]]] = {}  # HQ piece id -> (action, MP)
        self.reorganised: set[str] = set()  # CU piece ids reorganised in this maneuver

    def phase_ended(self, pid: str) -> None:
        if pid in MANEUVERS:
            self._check_hq_mp()

    def removed(self, e: Removed) -> None:
        if (gone := left_map(e, self.hexes)) is not None:
            self._gone(e.piece, gone)

    def added(self, e: Added) -> None:
        self._arrived(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        old, new = e.old.label, e.new.label
        geo = self.hexes
        if old in geo and new in geo:  # a step on the map (the commonest move): it neither leaves nor arrives
            if e.piece.id in self.reorganised and old != new and self.state.phase_id in MANEUVERS:
                self.find("4.42", f"{e.piece.name} was reorganised in this maneuver: it may not move at all (4.42c)",
                          e.piece)
            return
        if (gone := left_map(e, geo)) is not None:
            self._gone(e.piece, gone)
        if old != new and new in geo and old not in geo:
            self._arrived(e.piece, new)

    def flipped(self, e: Flipped) -> None:
        if self.state.phase_id is None or e.where is None or e.where.label not in self.hexes:
            return
        mid = e.piece.properties().get("MarkerId", "")
        if mid == "retreat" and e.layer == "Face" and e.new == 2 and e.old != 2:
            self._reorganise(e.piece, e.where.label)
        elif e.layer == "Step" and e.new < e.old and self.is_cu(e.piece) and self.state.phase_id not in COMBATS:
            self._replacement(e.piece, e.where.label)

    def _gone(self, p: Piece, hex_id: str) -> None:
        size = WRECK_SIZE.get(p.properties().get("MarkerId", ""))
        if size and self.state.phase_id in MANEUVERS and self.maneuvering():
            self._repair(p, hex_id, size)

    def _arrived(self, p: Piece, hex_id: str) -> None:
        mid = p.properties().get("MarkerId", "")
        if hex_id not in self.hexes or self.state.phase_id is None:
            return
        if mid in WRECK_SIZE and self.state.phase_id in MANEUVERS and self.maneuvering():
            self.wrecks_repaired[self.maneuvering()] -= WRECK_SIZE[mid]  # a smaller marker left after a repair
        elif mid == "breach":
            self._breach(p, hex_id)
        elif mid == "entrenched" and self.state.phase_id in MANEUVERS:
            self._entrench_cost(p, hex_id)

    def _acting_hqs(self, side: str, hex_id: str, armoured: bool = False) -> list[Piece]:
        """The side's HQs that may act on `hex_id`: not surely unsupplied, a valid path within range."""
        lines = self.lines
        return [p for p in self.hqs_on_map() if self.side_id(p) == side and not lines.surely_unsupplied(p)
                and (not armoured or self.unit_of(p).id in self.armoured_hqs)
                and lines.supply_path_to(side, self.hex_of(p), hex_id, lines.hq_supply_range(p, LENIENT) + 1)]

    def _charge(self, hqs: list[Piece], action: str, times: int = 1) -> None:
        if len(hqs) == 1:
            self.hq_actions.setdefault(hqs[0].id, []).append((action, COSTS[action] * times))

    def _repair(self, p: Piece, hex_id: str, size: int) -> None:
        side = self.maneuvering()
        name = self.side_names[side]
        self.wrecks_repaired[side] += size
        if hex_id in self.enemy_zoc(side):
            self.find("4.41", f"a wreck repaired in {hex_id}, under enemy fire (4.41b)", p, hex_id, side=name)
            return
        hqs = self._acting_hqs(side, hex_id, armoured=True)
        if not hqs:
            self.find("4.41", f"a wreck taken off {hex_id} in the {name} maneuver: no supplied {name} armoured HQ "
                      f"has a valid supply path to it within its range (4.41b){MAP_NOTE}", p, hex_id,
                      side=name)
            return
        self._charge(hqs, "repair", size)

    def _in_maneuver(self, number: str, why: str, p: Piece, hex_id: str) -> str | None:
        """The maneuvering side, when an HQ action may be judged (reported outside a maneuver)."""
        if self.state.phase_id not in MANEUVERS:
            self.find(number, why.format(hex_id, self.state.phase), p, None, hex_id)
        return self.maneuvering() if self.state.phase_id in MANEUVERS else None  # None: not known yet

    def _reorganise(self, marker: Piece, hex_id: str) -> None:
        side = self._in_maneuver("4.42", "a Retreat marker in {} flipped to reorganised in the {}: an HQ reorganises "
                                 "in its side's maneuver (4.42b)", marker, hex_id)
        if side is None:
            return
        units = self.combat_units(hex_id, side)
        if not units:
            return
        name = self.side_names[side]
        if hex_id in self.enemy_zoc(side):
            self.find("4.42", f"{units[0].name} reorganised in {hex_id}, in contact with the enemy (4.42a)", units[0],
                      None, hex_id, side=name)
            return
        hqs = self._acting_hqs(side, hex_id)
        if not hqs:
            self.find("4.42", f"{units[0].name} reorganised in {hex_id}: no {name} HQ has a valid supply path to it "
                      f"within its range (4.42a){MAP_NOTE}", units[0], None, hex_id, side=name)
            return
        self.reorganised.update(p.id for p in units)
        own = [h for h in hqs if len(units) == 1 and self.unit_of(h).id == self.unit_of(units[0]).hq]
        self._charge(own or hqs, "reorganise")

    def _breach(self, p: Piece, hex_id: str) -> None:
        side = self._in_maneuver("4.43", "a breach marker placed in {} in the {}: minefields are breached during a "
                                 "maneuver (4.43a)", p, hex_id)
        if side is None:
            return
        name = self.side_names[side]
        if self.enemy_in(hex_id, side):
            why = "it holds enemy units"
        elif self.under_fire(hex_id, side):
            why = "it is within the enemy's fire (an enemy combat unit next to it, a minefield between or not)"
        else:
            why = None
        if why:
            self.find("4.43", f"a minefield breached in {hex_id}: {why} (4.43a)", p, None, hex_id, side=name)
            return
        hecker = [q for q in self.units_on_map() if self.unit_of(q).id == "hecker" and self.side_id(q) == side
                  and self.geo.distance(self.hex_of(q), hex_id) <= 1]
        if hecker:
            return  # 12.2: Group Hecker breaches for 3 MP
        hqs = self._acting_hqs(side, hex_id)
        if not hqs:
            self.find("4.43", f"a minefield breached in {hex_id}: no supplied {name} HQ has a valid supply path to it "
                      f"within its range (4.43a){MAP_NOTE}", p, None, hex_id, side=name)
            return
        self._charge(hqs, "breach")

    def _replacement(self, p: Piece, hex_id: str) -> None:
        side, u = self.side_id(p), self.unit_of(p)
        name = self.side_names.get(side or "")
        bank = self.wrecks_repaired.get(side, 0) // 3 - self.replacement_steps.get(side, 0)
        if not u.armoured:
            why = "only armoured units receive replacement steps (4.41c)"
        elif bank <= 0:
            why = (f"no replacement step in hand: one per three wrecks repaired ({self.wrecks_repaired.get(side, 0)} repaired, "
                   f"{self.replacement_steps.get(side, 0)} step(s) taken) (4.41c)")
        elif hex_id in self.enemy_zoc(side):
            why = "it is under enemy fire (4.41c)"
        elif self.markers_in(hex_id, "cr") or self.markers_in(hex_id, "re") or not self._acting_hqs(side, hex_id, armoured=True):
            why = (f"it is not supplied by an armoured corps HQ of its side (a supplied armoured HQ with a valid supply "
                   f"path to it within range, and no CR or RE marker on it, 4.41c){MAP_NOTE}")
        else:
            self.replacement_steps[side] = self.replacement_steps.get(side, 0) + 1
            return
        self.find("4.41", f"{p.name} regained a step in {hex_id} in the {self.state.phase}: {why}", p, None, hex_id, side=name)

    def _entrench_cost(self, marker: Piece, hex_id: str) -> None:
        side = self.maneuvering()
        units = self.combat_units(hex_id, side) if side else []
        if not units:
            return
        allowance = Fraction(self.maneuver_mp(side))
        left = []
        for p in units:
            spent = self.moves.spent(p, side)
            if spent is None:
                return  # movement reports the move itself
            need = ENTRENCH["armoured" if self.unit_of(p).armoured else "other"]
            left.append((spent[0] + need, p, need))
        cost, p, need = min(left, key=lambda x: x[0])
        if cost > allowance:
            self.find("4.3", f"{p.name} entrenches in {hex_id}: {show_mp(cost - need)} MP of movement + {need} to "
                      f"entrench (4.3a) > the maneuver's {show_mp(allowance)} MP{self.reconstructed('movement', 'terrain-effects')}",
                      p, None, hex_id, side=self.side_names[side])

    def _check_hq_mp(self) -> None:
        side = self.maneuvering()
        if side is None:
            return
        allowance = Fraction(self.maneuver_mp(side))
        board = self.replayer.board.pieces
        for hq_id, acts in sorted(self.hq_actions.items()):
            p = board.get(hq_id)
            if p is None or self.hex_of(p) is None:
                continue
            spent = self.moves.spent(p, side)
            if spent is None:
                continue
            total = spent[0] + sum(n for _, n in acts)
            if total > allowance:
                what = ", ".join(f"{a} {n}" for a, n in acts)
                self.find("4.1", f"end of the {self.state.phase}: {p.name} spent {show_mp(spent[0])} MP moving and "
                          f"{what} MP on actions (4.41b, 4.42b, 4.43a'): {show_mp(total)} > the maneuver's "
                          f"{show_mp(allowance)} MP{self.reconstructed('movement', 'terrain-effects')}", p, None, self.hex_of(p),
                          side=self.side_names[side])
