"""Combat Groups (7.31-7.33, 4.2a'): digest 10.1 rank 17, the CG's life from its creation.

Evidence: a CG counter brought onto the map (created), taken off it (dissolved or exploded);
a combat unit dragged onto its CG's organisation display box (entering it) or from the box onto
the map (leaving it).  tables/combat-groups.yaml gives each CG its HQ, box and capacities.

- 7.32a: a CG is created in the Administrative phase, its HQ on the map and supplied, the CG's
  hex within the HQ's range along a valid supply path (3.1d-e) and out of enemy fire.
- 7.31h, 7.32b-c, 4.2a', 3.9a: only the CG's HQ's units enter it (VIII Army's: any, 11.2l,
  11.4j; the AK HQ in Crusader commands German and Italian units, 11.4f), in their side's
  maneuver, while the CG is on the map, not when unsupplied, not in contact: the CG's hex in
  no enemy ZoC; paying the cost of the path to the CG's hex plus 2 MP within the maneuver's MP.
- 7.31a: the display holds at most its capacities (reconstructed).
- 7.33: a unit leaving the display in its side's maneuver starts its move at the CG's hex
  (dissolving costs no MP, 7.33a); in phase A the units replace the counter in its hex; a CG
  whose hex takes a Retreat marker in a combat phase explodes: its counter still on the map when
  that phase ends is reported then, as is one a unit of which left its display for an eliminated
  box (or was deleted) in a combat phase.

Choices:
- "Unsupplied" is this turn's supply found surely lost (supply.py), or a CR/RE marker in the
  hex the unit leaves when no other CU of its side stays there.
- A CG counter taken off the map is reported only in phase F: a combat, an air strike's
  retreat (5.5f) or its own maneuver may each dissolve or explode it.
- Over-stacking left by a dissolution (7.33b') is the stacking check at the end of the maneuver
  (stacking.py); the set-up (before the tracker first moves) is not checked.
- Supply and "out of fire" use the lenient reading of supply.py.
"""
from __future__ import annotations

from fractions import Fraction

from validators.games.tobrouk_41_42.movement import MoveRecord, Moves
from validators.games.tobrouk_41_42.state import COMBATS, MANEUVERS
from validators.games.tobrouk_41_42.supply import LENIENT, SupplyLines
from validators.games.tobrouk_41_42.units import CombatGroups, TobroukRule, Units
from validators.kernel.movement import mp, show_mp
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed


class CombatGroupRules(TobroukRule):
    """7.31-7.33, 4.2a': a CG is created in phase A near its supplied HQ and out of fire; only its HQ's
    supplied units enter it, in their maneuver, out of contact, paying 2 MP, within its capacities;
    its units leave it at its hex."""

    ids = ("4.2", "7.31", "7.32", "7.33")
    needs = (Units, CombatGroups, Moves, SupplyLines)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.cgs, self.moves, self.lines = self.ctx.get(CombatGroups), self.ctx.get(Moves), self.ctx.get(SupplyLines)
        self.join_mp = mp(self.tables.get("combat-groups", {}).get("join_mp", {}).get("mp", 2))
        super().start()

    def added(self, e: Added) -> None:
        self._retreat_marker(e.piece, e.where.label)
        mid = e.piece.properties().get("MarkerId", "")
        if mid in self.cgs.specs and e.where.label in self.hexes:
            self._created(e.piece, mid, e.where.label)

    def removed(self, e: Removed) -> None:
        if e.where is not None and e.where.label in self.cgs.box and self.is_cu(e.piece):
            self._lost_from_display(self.cgs.box[e.where.label])
        mid = e.piece.properties().get("MarkerId", "")
        if mid in self.cgs.specs and e.where is not None and e.where.label in self.hexes:
            self._dissolved(e.piece, mid, e.where.label)

    def new_phase(self) -> None:
        self.retreat_hexes: set[str] = set()  # hexes a Retreat marker went to in this combat phase

    def phase_ended(self, pid: str) -> None:
        """7.33: "a CG explodes when one of its units retreats or is eliminated": a CG counter whose hex
        took a Retreat marker in the combat phase, or one of whose units left its display for neither
        the map nor another display, still on the map when the phase ends is reported then."""
        if pid not in COMBATS:
            return
        for cg in sorted(self.cgs.specs):
            h = self.cgs.on_map(cg)
            if h is not None and h in self.retreat_hexes:
                self.find("7.33", f"end of the {self.state.phase}: a unit of the Combat Group in {h} retreated or was "
                          f"eliminated and its counter ({self.cgs.specs[cg].get('box', cg)}) is still on the map: a CG "
                          "explodes when one of its units retreats or is eliminated (7.33)", None, None, h,
                          side=self.side_names.get(self.cg_side.get(cg)))

    def _lost_from_display(self, cg: str) -> None:
        """A unit taken off a CG's display to neither the map nor another display: eliminated."""
        h = self.cgs.on_map(cg)
        if self.state.phase_id in COMBATS and h is not None:
            self.retreat_hexes.add(h)

    def _retreat_marker(self, p: Piece, hex_id: str) -> None:
        if self.state.phase_id in COMBATS and p.properties().get("MarkerId") == "retreat" and hex_id in self.hexes:
            self.retreat_hexes.add(hex_id)

    def moved(self, e: Moved) -> None:
        old, new, p = e.old.label, e.new.label, e.piece
        if old != new and old not in self.hexes:
            self._retreat_marker(p, new)
        if old != new and old in self.cgs.box and new not in self.hexes and new not in self.cgs.box and self.is_cu(p):
            self._lost_from_display(self.cgs.box[old])
        at = self.moves.left_cg
        if at is not None and self.state.phase_id == "A":
            self.find("7.33", f"{p.name} left the {self.cgs.specs[self.cgs.box[old]]['box']} display for {new}: the "
                      f"units of a dissolved CG replace its counter in {at} (7.33b)", p, at, new, side=self.side_of(p))
        if old == new:
            return
        mid = p.properties().get("MarkerId", "")
        if mid in self.cgs.specs:
            if new in self.hexes:
                if old not in self.hexes:
                    self._created(p, mid, new)
            elif old in self.hexes:
                self._dissolved(p, mid, old)
        elif self.is_cu(p) and new in self.cgs.box and old not in self.cgs.box:
            self._enter(e, self.cgs.box[new])

    def _created(self, p: Piece, cg: str, hex_id: str) -> None:
        if self.state.phase_id is None:
            return
        side = self.cg_side.get(cg)
        name = self.side_names.get(side or "", "")
        if self.state.phase_id != "A":
            self.find("7.32", f"{p.name} placed in {hex_id} in the {self.state.phase}: CGs are created in the Administrative "
                      "phase (7.31g, 7.32a)", p, None, hex_id, side=name)
            return
        hq_id = self.cgs.specs[cg]["hq"]
        hq = self.unit_piece_on_map(hq_id)
        if hq is None:
            self.find("7.32", f"{p.name} placed in {hex_id}: its HQ ({self.units[hq_id].name}) is not on the map "
                      "(7.31h, 7.32a)", p, None, hex_id, side=name)
            return
        why = self._creation_fault(side, hq, hex_id)
        if why:
            self.find("7.32", f"{p.name} placed in {hex_id}: {why} (7.32a) (reconstructed map)", p, None, hex_id,
                      side=name)

    def _creation_fault(self, side: str, hq: Piece, hex_id: str) -> str | None:
        forbidden = self.lines.supply_forbidden(side, LENIENT)
        if hex_id in forbidden:
            return f"{hex_id} is under enemy fire"
        if self.state.turn != self.lines.card_first_turn:
            ok, _ = self.lines.supply_map(side, LENIENT)
            if ok.get(hq.id) is False:
                return f"{hq.name} is unsupplied"
        rng = self.lines.hq_supply_range(hq, LENIENT)
        if not self.lines.supply_path_to(side, self.hex_of(hq), hex_id, rng + 1):
            return (f"no valid supply path from {hq.name} in {self.hex_of(hq)} reaches it within the HQ's range of "
                    f"{rng} hexes between")
        return None

    def _dissolved(self, p: Piece, cg: str, hex_id: str) -> None:
        if self.state.phase_id == "F":
            self.find("7.33", f"{p.name} taken off {hex_id} in the {self.state.phase}: a CG is dissolved in the "
                      "Administrative phase or its player's maneuver (7.33b), or explodes in combat (7.33c)", p, hex_id,
                      side=self.side_names.get(self.cg_side.get(cg, ""), ""))

    def _enter(self, e: Moved, cg: str) -> None:
        if self.state.phase_id is None:
            return
        p, u = e.piece, self.unit_of(e.piece)
        side, name = self.side_id(p), self.side_of(p)
        spec = self.cgs.specs[cg]
        label = self.units[spec["hq"]].name if spec["hq"] in self.units else spec["hq"]
        any_unit = self.sc_rules.get("cg_any_unit", {}).get("hq")
        if side != self.cg_side.get(cg) or not (any_unit == spec["hq"] or self.lines.hq_commands(spec["hq"], u)):
            self.find("7.31", f"{p.name} entered the {spec['box']} display: only units of {label} enter its CG (7.31h)",
                      p, side=name)
            return
        if self.state.phase_id not in MANEUVERS or self.maneuvering() not in (None, side):
            self.find("7.32", f"{p.name} entered the {spec['box']} display in the {self.state.phase}: units enter a CG in "
                      "their side's maneuver (7.32b)", p, side=name)
            return
        at = self.cgs.on_map(cg)
        if at is None:
            self.find("7.32", f"{p.name} entered the {spec['box']} display while its CG counter is not on the map "
                      "(7.32b)", p, side=name)
            return
        old = e.old.label
        if old in self.hexes and (self.lines.surely_unsupplied(p) or (
                self.markers_in(old, "cr") + self.markers_in(old, "re") and not self.combat_units(old, side))):
            self.find("7.32", f"{p.name} is unsupplied: it may not enter a CG (3.9a, 7.32a)", p, side=name)
        elif at in self.enemy_zoc(side):
            self.find("7.32", f"{p.name} entered {spec['box']} in {at}, in contact with the enemy (7.32c)", p, side=name)
        self._join_cost(e, side, at)
        self._cg_capacity(cg, spec, side)

    def _join_cost(self, e: Moved, side: str, at: str) -> None:
        p = e.piece
        rec = self.moves.moves.get(p.id)
        start = rec.start if rec is not None else e.old.label
        if start not in self.hexes:
            return
        rec = rec or MoveRecord(start, self.markers_in(start, "rapid") > 0, self.markers_in(start, "re") > 0)
        found = self.moves.path(self.moves.move_class(p), rec, side, at, self.enemy_zoc(side))
        if at not in found:
            return  # no path: movement's own findings speak for the moves
        cost, allowance = found.cost[at] + self.join_mp, Fraction(self.maneuver_mp(side))
        if cost > allowance:
            self.find("4.2", f"{p.name} entered the CG in {at}: {show_mp(found.cost[at])} MP to reach it from {start} "
                      f"+ {show_mp(self.join_mp)} to enter (4.2a') > the maneuver's {show_mp(allowance)} MP"
                      f"{self.reconstructed('movement', 'terrain-effects')}", p, start, at, side=self.side_of(p))

    def _cg_capacity(self, cg: str, spec: dict, side: str) -> None:
        box = self.game.zone_name("cg", spec["box"])
        inside = [p for p in self.replayer.board.pieces.values() if self.is_cu(p)
                  and self.replayer.piece_where(p).label == box]
        arm = sum(1 for p in inside if self.unit_of(p).armoured)
        art = sum(1 for p in inside if not self.unit_of(p).armoured and self.unit_of(p).type == "artillery")
        inf = len(inside) - arm - art
        cap_inf, cap_art, cap_arm = (int(spec.get(k, 0)) for k in ("infantry", "artillery", "armoured"))
        if arm > cap_arm or inf > cap_inf or art > cap_art + (cap_inf - inf):
            self.find("7.31", f"the {spec['box']} display holds {inf} infantry, {art} artillery and {arm} armoured CU: "
                      f"its CG holds at most {cap_inf}, {cap_art} and {cap_arm} (7.31a) (reconstructed table)",
                      None, None, None, side=self.side_names.get(side))

