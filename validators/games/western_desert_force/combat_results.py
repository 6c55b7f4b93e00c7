"""Combat results (10.11-10.27, 13.3, 14, 15): the checks made when a combat closes, and the
retreat geometry they share with the moves (10.26, 9.32).  Part of `CombatRules` (combat.py,
whose docstring gives the log conventions); the state it reads is set up there.
"""
from __future__ import annotations

import math

from validators.games.western_desert_force.combat_state import DesertCombat
from validators.games.western_desert_force.base import WdfRule
from validators.kernel.combat import distance_from, ratio_threshold, retreat_ends
from validators.replay.board import Piece

ATTACK_GROUPS = ("5-6", "6", "leader", "support")  # dice that score a combat's hits (not bombardment)


class CombatResults(WdfRule):
    """Closing checks of a combat: dice, overwhelming, losses, retreats, advances, stacking."""

    # -- retreat geometry (10.26, 9.32) ---------------------------------------------------------------
    def _away(self, c: DesertCombat, side: str, start: str):
        """Choice (10.26): a defender moves away from its own hex, an attacker from the hexes it attacked."""
        return distance_from(self.game.geometry, sorted(c.attacked_hexes) if side == c.attacker else [start])

    def _retreat_blocked(self, p: Piece, side: str, a: str, b: str) -> str | None:
        why = self.combat_view.blocked_step(self.board.unit_of(p), a, b)
        if why:
            return f"terrain prohibits {a}-{b}: {why}{self.state.reconstructed('terrain-effects')}"
        mine = self.game.sides[side].name
        here = [q for q in self.board.units_in(b) if q.id != p.id]
        if any(self.board.side_of(q) != mine for q in here):
            return f"{b} holds enemy units"
        if b in self.supply.ezoc(side) and not any(self.board.side_of(q) == mine for q in here):
            return f"{b} is in an enemy ZOC and holds no friendly unit (9.32)"
        return None

    def _can_retreat(self, c: DesertCombat, p: Piece, side: str, hexes: int) -> bool:
        start = c.members(side)[p.id]
        ends = retreat_ends(self.game.geometry, start, hexes, self._away(c, side, start),
                            lambda a, b: self._retreat_blocked(p, side, a, b))
        return bool(ends)

    # -- closing checks ------------------------------------------------------------------------------
    def _close(self) -> None:
        c, self.combat_now = self.combat_now, None
        if c is None or c.resolved_at is None:
            return
        if c.attackers:
            self._check_overwhelming(c)
        self._check_dice(c)
        self._check_losses(c)
        self._check_ends(c)
        self.combats.append(c)

    def _where(self, c: DesertCombat) -> str:
        kind = "bombardment" if c.bombardment_only else "attack"
        return f"the {kind} on {', '.join(sorted(c.attacked_hexes))}"

    def _once(self, c: DesertCombat, rule: str, message: str, **kw) -> None:
        if (rule, message) not in c.reported:
            c.reported.add((rule, message))
            self.find(rule, message, **kw)

    def _attack_hits(self, c: DesertCombat) -> int:
        return c.hits_by(c.attacker, ATTACK_GROUPS)

    def _threshold(self, c: DesertCombat) -> int:
        o = self.combat_table["overwhelming"]
        return ratio_threshold(c.strength[c.defender].total, o["factor"], o.get("least", 0))

    def _check_overwhelming(self, c: DesertCombat) -> None:
        """10.24: every defender eliminated, the AP refunded; below the threshold no refund."""
        scored, need, name = self._attack_hits(c), self._threshold(c), self.game.sides[c.defender].name
        c.overwhelmed = scored >= need
        if c.overwhelmed:
            left = [self.board.replayer.board.pieces[i].name for i in sorted(c.defenders)
                    if i not in c.eliminated and i in self.board.replayer.board.pieces]
            if left:
                self.find("10.24", f"{scored} hits overwhelm a defence of final CS {c.strength[c.defender].total} (at least "
                          f"{need}) in {self._where(c)}: every defender is eliminated; {', '.join(left)} remain", side=name)
            if c.ap_spent and not c.ap_refunded:
                self.find("10.24", f"the AP spent on the overwhelming {self._where(c)[4:]} is refunded; the AP marker "
                          "did not move back up", side=self.game.sides[c.attacker].name)
        elif c.ap_refunded:
            self.find("10.24", f"an AP was refunded after {self._where(c)}, which was not overwhelming: {scored} hits "
                      f"< {need}", side=self.game.sides[c.attacker].name)

    def _check_dice(self, c: DesertCombat) -> None:
        """10.11, 10.21, 13.3, 14.0-14.2, 15.0: each group of dice as many as its strength allows."""
        for side in (c.attacker, c.defender):
            st, name = c.strength[side], self.game.sides[side].name
            silent = side == c.defender and (c.overwhelmed or c.bombardment_only)
            n = c.count(side, "5-6") + c.count(side, "6")
            recon = " (reconstructed unit values)" if st.reconstructed else ""
            if silent and n + c.count(side, "leader"):
                if c.bombardment_only:
                    self.find("14.2", f"bombarded units do not fire back: {name} rolled in {self._where(c)}", side=name)
            elif not silent and n != st.total:
                self.find("10.11", f"{name} rolled {n} combat dice in {self._where(c)}; its final CS is {st.total}: "
                          f"{st.explain()}{recon}", side=name)
            most = st.most_dice_hitting_on(self.combat_table["hit_on"]["major_offensive"])
            if not silent and c.count(side, "5-6") > most:
                self.find("10.21", f"{name} rolled {c.count(side, '5-6')} dice hitting on 5-6 in {self._where(c)}; only "
                          f"{most} of its CS hit on 5-6 ({st.explain()}){recon}", side=name)
            lead = c.count(side, "leader")
            if not silent and lead not in st.leader_dice():
                values = ", ".join(f"{k} {v}" for k, v in st.leaders.items()) or "no leader"
                self.find("13.3", f"{name} rolled {lead} leader dice in {self._where(c)}; one leader's value counts "
                          f"({values}){recon}", side=name)
            if side == c.defender and (c.count(side, "support") or c.count(side, "bombardment")):
                self.find("14.0", f"the defender never uses ASPs in combat: {name} rolled support or bombardment dice "
                          f"in {self._where(c)}", side=name)
        if c.attackers:
            self._check_support(c)

    def _check_support(self, c: DesertCombat) -> None:
        n, asp, air = c.count(c.attacker, "support"), c.asp_spent, self.combat_table["air_support"]
        name = self.game.sides[c.attacker].name
        if asp > air["most"]:
            self.find(air["rule"], f"at most {air['most']} ASPs support one attack; {asp} spent on {self._where(c)[4:]}",
                      side=name)
        naval = self.combat_table["naval_support"]
        if n == asp + naval["dice"] and self._naval_possible(c):
            c.naval, self._cb_naval_turn = True, self.turn
        elif n != asp:
            extra = f", +{naval['dice']} for the naval attack" if self._naval_possible(c) else ""
            self.find(air["rule"], f"{name} rolled {n} support dice in {self._where(c)}; {asp} ASP(s) spent{extra}",
                      side=name)

    def _naval_possible(self, c: DesertCombat) -> bool:
        """15.0: the Allies' one naval attack a turn, Regular Combat only, on a coastal hex."""
        nv = self.combat_table["naval_support"]
        geo = self.game.geometry
        coastal = any(self.game.hex_terrain.get(n) == nv["coast"] for h in c.attacked_hexes for n in geo.neighbours(h))
        m = self.board.marker(nv["marker"]) if nv["marker"] in self.game.markers else None
        held = m is not None and self.combat_view.where_label(m) in self.combat_view.points
        unused = self._cb_naval_turn != self.turn
        return c.attacker == nv["side"] and c.phase_kind in nv["phases"] and coastal and held and unused

    def _check_losses(self, c: DesertCombat) -> None:
        """10.21-10.26, 14.2: steps + retreat hexes = hits, and how a side may retreat."""
        retreat = {x: self._retreat_hexes(c, x) for x in (c.attacker, c.defender)}
        for side in (c.attacker, c.defender):
            if side == c.defender and c.overwhelmed:
                continue
            other = c.defender if side == c.attacker else c.attacker
            combat_hits = c.hits_by(other, ATTACK_GROUPS)
            bombs = c.hits_by(c.attacker, ["bombardment"]) if side == c.defender else 0
            steps, back, name = c.steps.get(side, 0), retreat[side], self.game.sides[side].name
            left = [i for i in c.members(side) if i not in c.eliminated and i in self.board.replayer.board.pieces]
            due = combat_hits + bombs
            if (left and steps + back != due) or (not left and steps > due):
                rolls = [f"{','.join(map(str, r.dice))} on the {r.group} dice" for r in c.rolls if r.side == other]
                dice = "; ".join(rolls) or "no dice"
                self.find("10.21", f"{name} lost {steps} step(s) and retreated {back} hex(es) in {self._where(c)}; "
                          f"{self.game.sides[other].name} scored {due} hit(s) ({dice}): each hit is one step or one hex",
                          side=name)
            if back:
                self._check_retreat_claim(c, side, steps - bombs, back, combat_hits, retreat[c.attacker], left)

    def _retreat_hexes(self, c: DesertCombat, side: str) -> int:
        """The hexes a side retreated: the shortest retreat of its units (10.26 lets a unit go farther to stack)."""
        lens = [n for i, n in c.retreat_len.items() if c.side_of(i) == side and i not in c.eliminated and n > 0]
        return min(lens) if lens else 0

    def _check_retreat_claim(self, c: DesertCombat, side: str, steps: int, back: int, combat_hits: int,
                             attacker_back: int, left: list[str]) -> None:
        name, where = self.game.sides[side].name, self._where(c)
        if c.bombardment_only:
            self.find("14.2", f"bombardment hits are step losses, never retreats: {name} retreated in {where}", side=name)
            return
        if steps < 1:
            self.find("10.25", f"{name} retreated in {where} without a step loss: one hit at least is a step loss",
                      side=name)
        if side == c.attacker and back > self.combat_table["attacker_retreat_most"]:
            self.find("10.22", f"the attacker retreats one hex at most; {name} retreated {back} in {where}", side=name)
        need = math.floor(combat_hits * self.combat_table["defender_min_steps"]["fraction"])
        if side == c.defender and not attacker_back and steps < need:
            self.find("10.23", f"the attacker did not retreat, so the defender takes at least half of {combat_hits} hits "
                      f"({need}) as steps before retreating; {name} lost {steps} in {where}", side=name)
        for i in sorted(left):
            p = self.board.replayer.board.pieces[i]
            if i in c.retreat_len or self._no_retreat(p) or not self._can_retreat(c, p, side, back):
                continue
            self.find("10.25", f"{name} retreated {back} hex(es) in {where} but {p.name} stayed in {self.board.hex_of(p)}: "
                      "a side that retreats retreats all its units", p, self.board.hex_of(p))

    def _no_retreat(self, p: Piece) -> dict | None:
        """3.2: the no-retreat order that holds this unit now, if any."""
        attrs = self.combat_view.attrs(self.board.unit_of(p))
        return next((r for r in self.combat_table.get("no_retreat", ())
                     if self.combat_view.matches(r, attrs) and self.turn in r["turns"]), None)

    def _check_ends(self, c: DesertCombat) -> None:
        """10.27: no advance after an attacker's retreat; 10.26, 10.27: stacking where they end."""
        if c.advances and self._retreat_hexes(c, c.attacker):
            for i in sorted(c.advances):
                p = self.board.replayer.board.pieces.get(i)
                self.find("10.27", "an attacker that retreated may not advance", p, c.advances[i][0], c.advances[i][-1])
        if self._cb_stacking is None:
            return
        ends = {(self.board.hex_of(p), "10.26" if i in c.retreat_len else "10.27", c.side_of(i))
                for i in (set(c.retreat_len) | set(c.advances)) - c.eliminated
                if (p := self.board.replayer.board.pieces.get(i)) and self.board.hex_of(p)}
        for h, rule, side in sorted(ends):
            units = [self.combat_view.attrs(self.board.unit_of(q)) for q in self.board.units_in(h, self.game.sides[side].name)]
            over = self._cb_stacking.over(units)
            if over:
                what = "retreat" if rule == "10.26" else "advance"
                self.find(rule, f"stacking at the end of the {what} into {h}: {self._cb_stacking.total(units)} points > "
                          f"{self._cb_stacking.limit}", to_hex=h, side=self.game.sides[side].name)
