"""Combat (10.0-10.51, 3.2, 9.4, 11.2, 13.3, 14, 15, 16.2): digest §10.1 ranks 6-9, 12 and 13.

How a combat shows in a log made with our module (the conventions this module checks by):

- It happens in a phase of kind `combat` or `exploitation-combat` (tables/sequence.yaml).
  The active player's units are named with the "Declare attacker" command ("Combat: NAME
  attacks from HEX"), and a unit of each hex attacked with "Declare target" ("Combat: NAME
  defends in HEX").  The first declaration after a combat's dice opens the next combat; the
  end of the phase closes the last one.  Every unit in a declared target hex defends (10.1);
  units retreated into it earlier in the phase take its hits but add no CS (10.26).
- Between the declarations and the dice, the side's AP marker moving down one box of the
  points track ("Points N" -> "Points N-1") is the AP spent for the attack (10.3); the ASP
  marker moving down k boxes is k ASPs of ground support (14.1); moved before the first
  declaration, they count for the combat declared next.  After the dice, the AP marker moving
  up one box is the refund of an overwhelming attack (10.24).
- The first die rolled is the moment of resolution: both sides' final CS are worked out then
  (combat_state.py).  Dice come from the side's buttons: "<Side> 5-6 dice", "<Side> 6 dice",
  "<Side> leader dice", "<Side> support dice", "<Side> bombardment dice", "Allied naval
  bombardment dice"; hits are counted per button (tables/combat.yaml `dice`).  The hits a side
  scores are not typed into the log: they follow from the dice.
- A combat with targets and no attacker is a bombardment (14.2, 15.0).
- After the dice, results are the participants' changes until the combat closes: a Step flip
  1->2 is one step; a removal or a move to an Eliminated box is the unit's remaining steps
  (2 for a full two-step unit, else 1); a move of a defender, or of an attacker away from the
  attacked hexes, is a retreat; a move of an attacker into an attacked hex, or on from it to
  a hex next to it, is an advance.

Checks, made when the combat closes unless said otherwise:

- rank 6/7: unit dice (5-6 and 6 buttons) = the side's final CS; dice on the 5-6 button no more
  than the CS of units that hit on 5-6; leader dice = one leader's value (13.3); support dice =
  ASPs spent (at most 2), plus 2 for the Allied naval attack (14.1, 15.0); the defender uses
  no ASPs (14.0) and bombarded units do not fire back (14.2).
- rank 8: step losses + retreat hexes = hits (10.21); at least one step before retreating
  (10.25); the attacker retreats at most 1 hex (10.22); if it did not retreat, a retreating
  defender first loses at least half the hits, rounded down (10.23); a side that retreats
  retreats every unit able to (10.25, 10.26); bombardment hits are steps (14.2); no Italian
  retreat on Turns 1-2 (3.2, when the move is made).
- rank 9: hits >= 150 % of the defender's final CS rounded up eliminate every defender, the
  defender must not roll (at its roll) and the AP spent comes back; no refund otherwise (10.24).
- rank 12: advances only by an attacker that did not retreat, first into the vacated attacked
  hex, then armor, motorized and recon one more empty hex next to it that the unit could
  enter; stacking at the end; the defender never advances (10.27; at the move).
- rank 13: each retreat step (at the move) leads one hex farther from the hex retreated from
  - Choice (10.26, "away from the original hex attacked"): a defender's retreat ends R hexes
  from its own hex, each hex one farther than the last; an attacker's single hex is two hexes
  from every attacked hex - and avoids prohibited terrain, enemy units and enemy ZOC without a
  friendly unit (9.32; Choice: a unit of the same retreat that got there first counts);
  stacking at the end of the retreat (10.26).  A move dragged over several hexes at once is
  legal when some such path joins its ends.  The hexes a side retreated are its shortest
  retreat (10.26 lets a unit go farther to meet stacking); "toward a friendly supply source"
  is not checked (digest §10.3).
- Attack Points (10.3, at the move): the marker goes down one box per attack, and only for an
  attack declared in the phase; the attacker rolls first (10.24, at the defender's roll);
  combat dice with no combat declared cannot be checked (10.1, once a phase).
- at resolution: only the active player attacks, enemy units (10.0); each unit attacks once
  and each hex is attacked once a phase; every attacker is next to every hex attacked; a
  stack attacks whole except units in an IP (10.1); no attack across an escarpment without a
  road or track (11.2); no Regular Combat for a unit that used Strategic Movement (9.4); in
  Exploitation Combat only units able to exploit attack (10.0, 9.5).

Where the log cannot show a choice (which unit takes a hit, which Axis leader counts), only
its constraints are checked.
"""
from __future__ import annotations

from validators.games.western_desert_force.state import ROLES
from validators.kernel.declarations import Declared
from validators.games.western_desert_force.combat_results import ATTACK_GROUPS, CombatResults
from validators.games.western_desert_force.combat_state import CombatView, DesertCombat
from validators.games.western_desert_force.movement import Moves
from validators.kernel.combat import hits, retreat_path, steps_left
from validators.kernel.stacking import StackingTable
from validators.replay.board import Piece
from validators.replay.replayer import Flipped, Moved, Removed, Rolled


class CombatResolution(CombatResults):
    """Part of the Western Desert Force auditor; see __init__.py."""

    def start(self) -> None:
        super().start()
        self.combat_view = self.ctx.get(CombatView)
        self.combat_table = self.combat_view.ct
        self.combat_now: DesertCombat | None = None
        self.combats: list[DesertCombat] = []  # the phase's closed combats (other rules may read them)
        self._cb_dice = {f"{side.name} {suffix}": (side.id, spec)
                         for side in self.game.info.sides for suffix, spec in self.combat_table.get("dice", {}).items()}
        track = self.combat_table.get("eliminated_track", "")
        self._cb_eliminated = ({self.game.zone_name(track, b) for b in self.game.tracks[track].boxes}
                               if track in self.game.tracks else set())
        stacking = self.game.table("stacking")
        self._cb_stacking = StackingTable.from_data(stacking.data["stacking"]) if stacking else None
        self._cb_naval_turn: int | None = None
        self._cb_phase_reset()
        self.acts_in = {"moved": tuple(self.combat_table.get("phases", ()))}  # in_combat_phase

    def _cb_phase_reset(self) -> None:
        self.combats = []
        self._cb_attackers: set[str] = set()  # units that attacked this phase
        self._cb_defended: set[str] = set()  # hexes attacked this phase (bombardment aside)
        self._cb_retreated: set[str] = set()  # units that retreated this phase
        self._cb_undeclared = False
        self._cb_pending = [False, 0]  # AP and ASPs spent before the next combat's first declaration

    def in_combat_phase(self) -> bool:
        return self.phase_kind in self.combat_table.get("phases", ())

    # -- hooks ------------------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind = self.phase_kind
        if kind in self.combat_table.get("phases", ()):
            self._cb_phase_reset()
        super().phase_started(pid)

    def phase_ended(self, pid: str) -> None:
        kind = self.phase_kind
        self._close()
        if kind in self.combat_table.get("phases", ()) and self._cb_pending[0]:
            self.find(self.combat_table["attack_points"]["rule"].split(",")[0],
                      "an AP was spent in the combat phase with no attack declared after it", side=self.side_acting)
        super().phase_ended(pid)

    def finish(self) -> None:
        self._close()
        super().finish()

    def declared(self, d: Declared) -> None:
        role, piece, hex_id = ROLES[d.name], d.piece, d.where
        if role in ("attacker", "target") and self.in_combat_phase() and self.active_side and self.board.unit_of(piece):
            c = self.combat_now
            if c is not None and c.resolved_at is not None:
                self._close()
                c = None
            if c is None:
                other = next(x for x in self.game.sides if x != self.active_side)
                c = self.combat_now = DesertCombat(len(self.combats) + 1, self.active_side, other,
                                                   declared_at=self.state.step, phase_kind=self.phase_kind)
                (c.ap_spent, c.asp_spent), self._cb_pending = self._cb_pending, [False, 0]
            want = c.attacker if role == "attacker" else c.defender
            if self.board.side_id(piece) != want:
                self.find("10.0", f"only the active player ({self.game.sides[c.attacker].name}) attacks, and only enemy "
                          f"units: {piece.name} cannot be declared {role} in {hex_id}", piece, hex_id)
            else:
                c.members(want)[piece.id] = hex_id
        super().declared(d)

    def rolled(self, e: Rolled) -> None:
        found = self._cb_dice.get(e.button)
        if found and self.in_combat_phase():
            c = self.combat_now
            if c is None:
                if not self._cb_undeclared:
                    self._cb_undeclared = True
                    self.find("10.1", f"{e.button} rolled with no combat declared (Declare attacker / Declare target): "
                              "the combat cannot be checked", side=self.game.sides[found[0]].name)
            else:
                if c.resolved_at is None:
                    self._resolve(c)
                self._roll(c, found[0], found[1], e)
        super().rolled(e)

    def moved(self, e: Moved) -> None:
        c = self.combat_now
        if self.in_combat_phase() and self.active_side:
            marker = e.piece.properties().get("MarkerId")
            if marker:
                self._marker_moved(c, marker, e)
            elif c is not None and c.resolved_at is not None and c.side_of(e.piece.id):
                self._result_move(c, e)
        super().moved(e)

    def flipped(self, e: Flipped) -> None:
        c = self.combat_now
        if c is not None and c.resolved_at is not None and e.layer == "Step" and c.side_of(e.piece.id):
            c.lose(e.piece.id, e.new - e.old)  # 1 -> 2: a step lost; 2 -> 1: taken back
        super().flipped(e)

    def removed(self, e: Removed) -> None:
        c = self.combat_now
        if c is not None and c.resolved_at is not None and c.side_of(e.piece.id) and e.piece.id not in c.eliminated:
            self._eliminated(c, e.piece)
        super().removed(e)

    # -- the combat's course ---------------------------------------------------------------------
    def _resolve(self, c: DesertCombat) -> None:
        """The first die: participants fixed, eligibility checked, final CS worked out."""
        c.resolved_at = self.state.step
        c.major = self.combat_view.major_offensive(c.attacker)
        name = self.game.sides[c.defender].name
        for h in sorted(c.attacked_hexes):
            for p in self.board.units_in(h, name):
                c.defenders.setdefault(p.id, h)
                if p.id in self._cb_retreated:
                    c.passengers.add(p.id)
        if c.attackers:
            self._check_participants(c)
        c.strength = {x: self.combat_view.side_strength(c, x) for x in (c.attacker, c.defender)}

    def _roll(self, c: DesertCombat, side: str, spec: dict, e: Rolled) -> None:
        if side == c.defender and c.attackers and spec["group"] in ATTACK_GROUPS and not c.dice(c.defender):
            if not c.dice(c.attacker) and c.strength[c.attacker].total > 0:
                self._once(c, "10.24", "the attacker rolls first: an overwhelming attack leaves the defender no roll",
                           side=self.game.sides[side].name)
            elif self._attack_hits(c) >= self._threshold(c):
                self._once(c, "10.24", f"{self._attack_hits(c)} hits overwhelm a defence of final CS "
                           f"{c.strength[c.defender].total} (at least {self._threshold(c)}): the defender rolls no dice "
                           f"in {self._where(c)}", side=self.game.sides[side].name)
        if spec.get("naval"):
            self._cb_naval_turn = self.turn
        c.roll(side, spec["group"], e.dice, hits(e.dice, spec["hit_on"], spec.get("per_hit", 1)))

    def _marker_moved(self, c: DesertCombat | None, marker: str, e: Moved) -> None:
        """AP and ASP markers on the points track: spent for the open combat (or the next one), refunded."""
        old, new = self.combat_view.points.get(e.old.label), self.combat_view.points.get(e.new.label)
        if old is None or new is None:
            return
        ap = self.combat_table["attack_points"]
        open_ = c is not None and c.resolved_at is None
        if marker == ap["markers"][self.active_side]:
            if new < old:
                spent = (c.ap_spent if open_ else self._cb_pending[0])
                if new != old - ap["cost"] or spent:
                    self.find(ap["rule"].split(",")[0], f"an attack costs {ap['cost']} AP, once: the AP marker went from "
                              f"{old} to {new}", e.piece, e.old.label, e.new.label)
                if open_:
                    c.ap_spent = True
                else:
                    self._cb_pending[0] = True
            elif c is not None and c.resolved_at is not None and new == old + ap["cost"]:
                c.ap_refunded = True
        elif marker == self.combat_table["air_support"]["marker"] and new < old:
            if open_:
                c.asp_spent += old - new
            else:
                self._cb_pending[1] += old - new

    def _result_move(self, c: DesertCombat, e: Moved) -> None:
        p, old, new = e.piece, e.old.label, e.new.label
        if new in self._cb_eliminated:
            if p.id not in c.eliminated:
                self._eliminated(c, p)
            return
        geo = self.game.geometry
        if old not in geo or new not in geo:
            return
        side = c.side_of(p.id)
        if side == c.attacker and (p.id in c.advances or self._advancing(c, old, new)):
            self._advance(c, p, old, new)
        elif side == c.defender and new in c.attacking_hexes:
            self.find("10.27", f"the defender never advances: {p.name} moved into the attacker's hex {new}", p, old, new)
        else:
            self._retreat(c, p, side, old, new)

    def _eliminated(self, c: DesertCombat, p: Piece) -> None:
        unit = self.board.unit_of(p)
        c.lose(p.id, steps_left(self.board.reduced(p), unit.steps if unit else 1), eliminated=True)

    # -- eligibility (10.0, 10.1, 9.4, 11.2) ------------------------------------------------------
    def _check_participants(self, c: DesertCombat) -> None:
        geo, strategic = self.game.geometry, self.ctx.get(Moves).strategic_movers
        for pid, h in sorted(c.attackers.items()):
            p = self.board.replayer.board.pieces[pid]
            if pid in self._cb_attackers:
                self.find("10.1", f"{p.name} already attacked in this combat phase: a unit attacks once", p, h)
            if c.phase_kind == "combat" and pid in strategic:
                self.find("9.4", f"{p.name} used Strategic Movement this turn: no attack in the Regular Combat Phase", p, h)
            if c.phase_kind == "exploitation-combat" and not self._can_exploit(p, c.major):
                self.find("10.0", f"only units able to exploit attack in the Exploitation Combat Phase; {p.name} is "
                          f"{self.board.unit_of(p).type}{self.state.reconstructed('unit-classes')}", p, h)
            for d in sorted(c.attacked_hexes):
                if not geo.adjacent(h, d):
                    self.find("10.1", f"{p.name} in {h} is not next to the attacked hex {d}: every attacker of a combat "
                              "is next to every defender", p, h, d)
                elif self._escarpment_bars(h, d):
                    self.find("11.2", f"no attack across the escarpment {h}/{d}: no road or track crosses it", p, h, d)
        for d in sorted(c.attacked_hexes & self._cb_defended):
            self.find("10.1", f"{d} was already attacked in this combat phase: a hex is attacked once", to_hex=d)
        for h in sorted(c.attacking_hexes):
            for q in self.board.units_in(h, self.game.sides[c.attacker].name):
                if q.id not in c.attackers and q.id not in self._cb_attackers and self._may_attack(q, c) \
                        and not self.combat_view.ip_level(q):
                    self.find("10.1", f"{q.name} stays out of the attack from {h}: a stack attacks as a whole "
                              "(only units in an IP may stay out)", q, h)
        self._cb_attackers |= set(c.attackers)
        self._cb_defended |= c.attacked_hexes

    def _can_exploit(self, p: Piece, major: bool) -> bool:
        """9.5, 10.0: a unit able to move in the Exploitation Movement Phase (tables/unit-classes.yaml)."""
        spec = self.combat_view.unit_classes.get(self.board.unit_of(p).type, {}).get("exploitation")
        return spec is None or str(spec.get("major" if major else "normal", 0)) not in ("0", "")

    def _may_attack(self, p: Piece, c: DesertCombat) -> bool:
        if c.phase_kind == "combat":
            return p.id not in self.ctx.get(Moves).strategic_movers
        return self._can_exploit(p, c.major)

    def _escarpment_bars(self, a: str, b: str) -> bool:
        """11.2: a hexside feature across which no attack goes unless a road or track crosses it."""
        side = self.combat_view.features(a, b)
        barred = self.combat_table.get("attack_prohibited_across", {})
        return any(f in side and not side & set(unless) for f, unless in barred.items())

    # -- advances (10.27) ---------------------------------------------------------------------------
    def _emptied(self, c: DesertCombat) -> set[str]:
        name = self.game.sides[c.defender].name
        return {h for h in c.attacked_hexes if not self.board.units_in(h, name)}

    def _advancing(self, c: DesertCombat, old: str, new: str) -> bool:
        geo = self.game.geometry
        return new in c.attacked_hexes or any(geo.adjacent(new, h) and geo.adjacent(old, h) for h in self._emptied(c))

    def _advance(self, c: DesertCombat, p: Piece, old: str, new: str) -> None:
        geo, emptied = self.game.geometry, self._emptied(c)
        trail = c.advances.setdefault(p.id, [old])
        if trail[-1] != old:
            trail.append(old)
        if not geo.adjacent(old, new):
            trail += [h for h in sorted(emptied) if geo.adjacent(old, h) and geo.adjacent(h, new)][:1]
        trail.append(new)
        problem = self._advance_problem(c, p, trail, emptied)
        if problem and ("10.27", p.id) not in c.reported:
            c.reported.add(("10.27", p.id))
            self.find("10.27", problem, p, trail[0], trail[-1], path=trail)

    def _advance_problem(self, c: DesertCombat, p: Piece, trail: list[str], emptied: set[str]) -> str | None:
        unit, adv = self.board.unit_of(p), self.combat_table["advance"]
        most = adv["hexes"] + (adv["extra_hexes"] if unit.type in adv["extra_types"] else 0)
        first = trail[1]
        if first not in c.attacked_hexes:
            return f"an advance enters the attacked hex first ({', '.join(sorted(c.attacked_hexes))}), not {first}"
        if first not in emptied and len(trail) == 2:
            return f"{first} still holds defending units: no advance into it"
        if len(trail) - 1 > most:
            return (f"{unit.type.capitalize()} units advance at most {most} hex(es); {p.name} advanced {len(trail) - 1} "
                    f"({'-'.join(trail)})")
        if len(trail) == 3:
            second = trail[2]
            others = [q for q in self.board.units_in(second) if q.id != p.id and q.id not in c.advances]
            if others:
                return f"the second hex of an advance is an empty hex; {second} holds {others[0].name}"
            if not self.game.geometry.adjacent(first, second):
                return f"the second hex of an advance is next to the attacked hex {first}; {second} is not"
            why = self.combat_view.blocked_step(unit, first, second)
            if why:
                return f"no move from {first} into {second}: {why}{self.state.reconstructed('terrain-effects')}"
        return None

    # -- retreats (10.25, 10.26, 9.32, 3.2) -----------------------------------------------------------
    def _retreat(self, c: DesertCombat, p: Piece, side: str, old: str, new: str) -> None:
        c.moved(p.id, old, new)
        trail = c.trails[p.id]
        away = self._away(c, side, trail[0])
        c.retreat_len[p.id] = away(new) - away(trail[0])
        self._cb_retreated.add(p.id)
        r = self._no_retreat(p)
        if r and ("3.2", p.id) not in c.reported:
            c.reported.add(("3.2", p.id))
            turns = " and ".join(map(str, r["turns"]))
            self.find(r["rule"], f"no {r['nationality']} unit retreats to satisfy hits on Turns {turns}: {p.name} "
                      f"retreated {old}-{new}", p, old, new)
        _, why = retreat_path(self.game.geometry, [old, new], away, lambda a, b: self._retreat_blocked(p, side, a, b))
        if why and ("10.26", p.id) not in c.reported:
            c.reported.add(("10.26", p.id))
            rule = "9.32" if "enemy ZOC" in why else "10.26"
            self.find(rule, f"retreat {old}-{new}: {why}", p, old, new, path=trail)
