"""Combat (14.0-14.7): declarations in their phase, participation, the result the Combat Results
Table gives against the steps lost and the retreats made (digest 10.1 rank 2).

Evidence: the module's declarations ("Declare attacker", Ctrl+Shift+A, then "Declare target",
Ctrl+Shift+T, on every unit of the combat), then one "<Side> combat 2d6" roll; then the flips to
the reduced face and the units sent to the Refit or Destroyed Box (the losses), and the
defenders' moves (retreats) and attackers' moves (advance, 14.8) before the next declaration.

The CRT (tables/combat.yaml) is reconstructed (it is on the missing Player Aid Card), so every
result finding says so: odds of the attackers' CF to the defenders' (14.3: rounded down to a
ratio of the defender hex's terrain line, 14.5; forts raise the line one a level, 14.4), the
column, and the 2d6 row; results Ax/Dx = steps lost, W withdraw (1-3 hexes), R rout (4-6
hexes, 3 less in cities, forts and mountains), 14.7.1.

Choices (a false alarm costs more than a miss):
- 14.0: all combats are declared before the first is resolved; the module's declarations carry no
  combat number, so attackers named after a combat's targets begin the next combat, and the rolls
  resolve the declared combats in their declaration order (the attacker may choose another order:
  the log cannot tell it).  A combat declared after the phase's first roll is reported at its
  first declaration.
- 14.2: every enemy unit that projects a ZoC onto an attacker's hex when the attacker is declared
  (11.1, 11.3; non-motorized ZoC count, 11.2 Exception; none into a city or fortified hex, none
  where no unit of that hex could enter the defender's, 14.4) must be a target in the phase: reported
  once when the Combat Phase ends.  Units of one hex attacking in two combats of the phase are
  reported at the first roll that shows it (both declared).
- 14.5 d-e, 14.1 step 7: the losses come before the retreats and advances; a combat side still short
  of what every result of the window gives when one of its units retreats or advances is reported at
  that move (under 14.6) if the loss is still short when the combat closes (a late loss is no finding).
- 14.6: "no unit can suffer a second step loss until all units have suffered at least one" is judged
  while the side's losses stay within what every result gives (a loss beyond may be 14.7.1's).
- 14.7 with the Example of Play ("disrupt the KDG and hold in place or retreat"): where every result
  withdraws or routs, a defender that stays has a Disrupted marker in its hex when the phase ends.
- 19.5, 20.4.2: air support counts only from air units on a defender's hex at the roll (offensive, two
  at most), on or next to one (defensive, one: the text does not say where it is placed); a fleet
  only next to a defender's hex.  Only one attacking artillery unit gives shifts (15.1).
- Modifiers the log cannot show are bounded, not guessed: each infantry CF may be halved in a
  desert hex unless a fort or a non-infantry, non-light unit stands with it (15.9: which infantry is
  standard or light is on the missing counter chart), each defending anti-tank or support unit may take 2 from an attacker (15.2);
  the odds column then lies between the worst and best case.  A unit surely disrupted (its hex
  holds as many Disrupted markers as combat units) has lost its special functions (8.2 d): its
  anti-tank cut and artillery shift are not counted.  Column shifts (14.5) widen the
  window: to the right, for the defender's result, 2 for surprise (6.2, the card's first GT),
  2 for an attacking artillery unit (15.1), the best two of the attacker's air units' ground
  support + 1 (19.5) and 1 naval (20.4.2), as placed (below); to the left, for the
  attacker's result, 2 for each defending-side artillery unit in or next to the defenders' hexes,
  the defender's best air unit + 1 and 1 naval.  A finding is made only when the steps lost fall
  outside every result of the window.
- Steps lost: a flip to the reduced face is one step; a unit sent to a box or deleted, the steps
  its face still had.  A division's step counts 2 (15.10), and one more than the result is
  allowed where only a division step could be lost; a unit that cannot retreat loses a step
  (14.7.1), so extra defender losses are not reported when a retreat result is possible.
- A combat with a Special Forms of Combat marker in an attacker's hex (deliberate or mobile
  battle, 14.9), on a terrain line the table lacks, or in a phase with a declared overrun
  (13.4.4, not followed) is not checked for its result.
- The defenders are every combat unit of the defending side in a target hex when the dice are
  rolled (14.2), whether or not the player named each one a target; supply units stacked with
  them are not (12.2.6: no strength, no step losses).
- Retreats: a defender that moves when no result of the window has W or R is reported (14.7),
  and one that ends more than 6 hexes from its combat hex (14.7.1); a W that was not taken is not
  reported (the Example of Play lets a defender "disrupt and hold").  A retreat is at most 3 hexes
  when the window's results withdraw at most, 6 when one routs (14.7.1; in a city, fort or mountain
  hex withdrawals are ignored and routs 3 hexes shorter), along a way (14.7.2) through no enemy unit,
  no terrain the unit could not enter and no enemy ZoC but the hex where it ends (11.4: "into but
  not through"; ZoC as it binds the unit when it moves, 11.2; a hex a friendly combat unit holds is
  let through).  Where every result of the window routs, each defender left on the map must be
  disrupted and 4 hexes away (1 from a city, fort or mountain hex) when the phase ends, unless it
  stopped in such a hex or no legal retreat that long was open (then it loses a step: not judged);
  reported at its last retreat move.
- Advance (14.8): an attacker moves after its combat only into the defenders' hex once no defending
  combat unit is left in it, and not when surely disrupted; a unit that did not attack may not move
  into a vacated defender hex; an MSU that stood with the attackers, and an attacker of CF 0, advance
  only accompanied by an attacker of a CF above 0 advancing into the same hex (judged when the phase
  ends, reported at the advance).  Captured supply: a dump or a Captured Supply marker coming onto
  the map in a Combat Phase must go to a hex attackers advanced into after a combat whose defenders
  lost steps to the Destroyed Box, after a 1d6 (the side's die for any purpose) of the attacker no
  higher than those steps (a division's step counts 2); reported at its placing.  Exploitation
  (14.9.3) is not followed.  Attackers may advance, and
  units that stood with a Reserve marker may exploit (14.9.3).
"""
from __future__ import annotations

import math
import re

from validators.games.desert_fox_deluxe.movement import MoveCosts
from validators.games.desert_fox_deluxe.state import ATTACK, TARGET
from validators.games.desert_fox_deluxe.units import Forces
from validators.kernel.declarations import Declared
from validators.kernel.movement import search
from validators.kernel.rule import Rule
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Added, Flipped, Moved, Removed, Rolled

SHIFT_SURPRISE, SHIFT_ARTILLERY, SHIFT_NAVAL, AT_CUT = 2, 2, 1, 2
INFANTRY = frozenset({"infantry", "airborne", "special-forces"})
RESULT = re.compile(r"^(?:A(?P<a>\d))?(?:D(?P<d>\d))?(?P<r>[WR])?$")
ROUT_MIN, ROUT_MAX, WITHDRAW_MAX, OBSTRUCTED_CUT = 4, 6, 3, 3  # 14.7.1


class _Stops:
    """Hexes a search may enter but not leave, asked one by one."""

    def __init__(self, test):
        self.test = test

    def __contains__(self, h: object) -> bool:
        return self.test(h)


class Fight(Record):
    """One combat: the attackers and targets, the dice and what followed them."""

    __slots__ = ("side", "attackers", "targets", "dice", "window", "points", "lost", "moved", "what", "over",
                 "advanced", "escorted", "destroyed", "into", "early")

    def __init__(self, side: str):
        self.side = side  # attacker side id
        self.attackers: dict[str, str] = {}  # piece id -> hex
        self.targets: dict[str, str] = {}
        self.dice: tuple[int, ...] | None = None
        self.window: dict[str, list[tuple[int, int, str | None]]] = {}  # 'attacker'/'defender' -> results
        self.points: dict[str, int] = {}  # piece id -> step points at the roll
        self.lost: dict[str, int] = {}  # piece id -> step points lost since the roll
        self.moved: dict[str, int] = {}  # defender piece id -> the step of its last retreat move
        self.what = ""  # the odds and column, for the messages
        self.over: dict[str, int] = {}  # role -> the step its losses passed the table's most
        self.advanced: set[str] = set()  # attackers of a CF above 0 that advanced (14.8)
        self.escorted: dict[str, tuple[str, int]] = {}  # MSU or 0-CF unit -> (hex, step) it advanced
        self.destroyed = 0  # defending step points sent to the Destroyed Box (14.8: the capture roll's bound)
        self.into: set[str] = set()  # hexes attackers advanced into
        # role -> the step a unit of it retreated or advanced before its side had lost what every
        # result of the window gives (14.5 d-e, 14.1 step 7)
        self.early: dict[str, int] = {}


class Combat(Rule):
    """14.0-14.7: who fights, the odds and the result against the steps lost and the retreats made."""

    ids = ("4.1", "14.0", "14.2", "14.3", "14.6", "14.7", "14.7.1", "14.7.2", "14.8")
    covers = ("14.5", "15.2", "15.9")
    needs = (Forces, MoveCosts)

    def start(self) -> None:
        self.forces, self.costs = self.ctx.get(Forces), self.ctx.get(MoveCosts)
        self.tec = self.game.table("terrain-effects").data  # schema.TerrainEffectsData
        self.crt = self.tables["combat"]
        self.fight: Fight | None = None  # the combat being resolved (its dice rolled)
        self.pending: list[Fight] = []  # declared, not yet rolled, in declaration order (14.0)
        self.destroyed_boxes = {f"{name} Destroyed" for name in self.board.side_names.values()}  # 8.3
        self.fought: list[Fight] = []  # resolved in this phase
        self.attacked: set[str] = set()  # attackers this phase (14.2: each unit fights once)
        self.capture_rolls: list[tuple[str, int, int]] = []  # (side, 1d6, step): this phase's generic rolls (14.8)
        self.captured: set[str] = set()  # pieces judged as captured supply

    def phase_started(self, pid: str) -> None:
        self.fought, self.attacked, self.capture_rolls, self.pending = [], set(), [], []
        self.owed: dict[str, tuple[str, str, str]] = {}  # defender id -> (its hex, attacker's name, hex): 14.2

    def phase_ended(self, pid: str) -> None:
        self._close()
        self.pending = []
        for f in self.fought:
            self._routs(f)
            self._held_on_withdrawal(f)
            self._escorts(f)
        self._mandatory()

    def _mandatory(self) -> None:
        """14.2, when the Combat Phase ends: every enemy unit that projected a ZoC onto an attacker's
        hex (as it stood when the attacker was declared) was attacked in the phase."""
        if not self.owed:  # nothing owed: no attacker declared next to an enemy in this phase
            return
        attacked = {pid for f in self.fought for pid in f.targets}
        board = self.board.replayer.board.pieces
        for pid, (h, name, where) in self.owed.items():
            p = board.get(pid)
            if pid in attacked or p is None or self.board.hex_of(p) is None:
                continue
            self.find("14.2", f"{p.name} in {h} projected a ZoC onto {where}, from which {name} attacked, and was not "
                      f"attacked in the {self.state.phase} Phase: every defending unit projecting a ZoC onto an "
                      "attacker's hex must be attacked in the same Combat Phase", p, None, h)

    def _owe(self, piece: Piece, here: str) -> None:
        """14.2: the enemy units projecting a ZoC onto `here` (11.1, 11.3; non-motorized ZoC count for
        combat, 11.2), which the attacker's hex could attack (14.4: not into prohibited terrain)."""
        costs, board, geo = self.costs, self.board, self.game.geometry
        if self.game.hex_terrain.get(here) == "city" or self.forces.fort_level(here) is not None:
            return  # 11.3: no ZoC extends into a city or fortified hex
        enemy = board.other_side.get(board.side_id(piece) or "")
        mine = [q for q in board.units_in(here) if board.side_id(q) == board.side_id(piece)
                and self.forces.is_combat_unit(q)] or [piece]
        for n in geo.neighbours(here):
            if "escarpment" in costs.crossing(n, here):
                continue
            for q in board.units_in(n):
                if (q.id in self.owed or board.side_id(q) != enemy or not costs.exerts_zoc(q, n)
                        or costs.unit_step(q)(n, here) is None
                        or all(costs.unit_step(m)(here, n) is None for m in mine)):
                    continue
                self.owed[q.id] = (n, piece.name, here)

    def _held_on_withdrawal(self, f: Fight) -> None:
        """14.7-14.7.1 with the Example of Play ("disrupt the KDG and hold in place or retreat"): where
        every result of the window retreats, a defender that stayed in its hex (not a city, fort or
        mountain hex) is disrupted by the end of the phase, unless no retreat was open to it."""
        results = f.window.get("defender") if f.window else None
        if not results or not all(r[2] for r in results) or all(r[2] == "R" for r in results):
            return  # (every result routs: _routs)
        board = self.board.replayer.board.pieces
        for pid, home in f.targets.items():
            p = board.get(pid)
            if (p is None or self.board.hex_of(p) != home or pid in f.moved or self._obstructed(home)
                    or self.forces.disrupted_in(home)):
                continue
            reach = self._retreats(p, home, WITHDRAW_MAX)
            if reach is not None and not any(h != home for h in reach.cost):
                continue  # 14.7.1: it could not retreat (it loses a step instead)
            self.find("14.7", f"{p.name} stays in {home} after its combat, where every result the table can give "
                      f"({f.what}) makes it withdraw or rout, and has no Disrupted marker at the end of the "
                      f"{self.state.phase} Phase: a unit that does not retreat on a withdrawal holds disrupted (Example "
                      f"of Play, 14.7.1){self.state.reconstructed('combat')}", p, None, home)

    def _escorts(self, f: Fight) -> None:
        """14.8, judged when the phase ends: an MSU or a unit of CF 0 that advanced stands with an
        attacker of a CF above 0 that advanced into the same hex."""
        board = self.board.replayer.board.pieces
        for pid, (h, at) in f.escorted.items():
            p = board.get(pid)
            if p is None or self.board.hex_of(p) != h:
                continue
            if not any(i in board and self.board.hex_of(board[i]) == h for i in f.advanced):
                self.find("14.8", f"{p.name} advanced into {h} after combat and no attacking unit with a combat factor "
                          "above 0 advanced with it: MSU and zero-factor units advance only so accompanied", p, None, h,
                          at=at)

    def _routs(self, f: Fight) -> None:
        """14.7.1, judged when the phase ends: where every result of the window routs the defenders,
        each one left on the map is disrupted, and retreated at least 4 hexes (1 from a city, fort or
        mountain hex) unless it stopped in such a hex or no retreat that long was open to it."""
        results = f.window.get("defender") if f.window else None
        if not results or not all(r[2] == "R" for r in results):
            return
        board = self.board.replayer.board.pieces
        for pid, home in f.targets.items():
            p = board.get(pid)
            here = self.board.hex_of(p) if p is not None else None
            if here is None:
                continue
            at = f.moved.get(pid)
            need = ROUT_MIN - (OBSTRUCTED_CUT if self._obstructed(home) else 0)
            far = self.game.geometry.distance(home, here)
            if far < need and not (far and self._obstructed(here)) and self._rout_open(p, home, need):
                self.find("14.7.1", f"{p.name} routs {far} hex(es) from {home}: a rout is at least {need} hexes when "
                          f"a retreat that long is open{self.state.reconstructed('combat')}", p, home, here, at=at)
            elif not self.forces.disrupted_in(here):
                self.find("14.7.1", f"{p.name} routed from {home} and has no Disrupted marker in {here} at the end of the "
                          f"{self.state.phase} Phase: a rout disrupts every unit{self.state.reconstructed('combat')}",
                          p, home, here, at=at)

    def _rout_open(self, p: Piece, home: str, need: int) -> bool:
        """Whether some legal retreat (14.7.2) ends `need` hexes or more from home."""
        geo, reach = self.game.geometry, self._retreats(p, home, ROUT_MAX)
        return reach is None or any(geo.distance(home, h) >= need for h in reach.cost)

    # -- declarations --------------------------------------------------------------------------
    def declared(self, d: Declared) -> None:
        if d.name not in (ATTACK, TARGET):
            return
        piece, hex_id, st = d.piece, d.where, self.state
        side = self.board.side_id(piece)
        last = self.pending[-1] if self.pending else None
        begins = last is None or (d.name == ATTACK and bool(last.targets))  # this declaration begins a combat
        if (begins and (self.fight is not None or self.fought) and st.phase_kind == "combat" and not st.overruns()
                and st.phasing() in (None, side if d.name == ATTACK else self.board.other_side.get(side or ""))):
            self.find("14.0", f"{piece.name} is declared {'to attack' if d.name == ATTACK else 'a target'} in a new combat "
                      f"after the first combat of the {st.phase} Phase was resolved: all combats are declared before "
                      "the resolution of the first begins (14.0)", piece, None, hex_id)
        if self.fight is not None:
            self._close()  # 14.8: the advance is taken before the next combat is declared
        if d.name == ATTACK:
            if st.phase_id is not None and not st.overruns() and (
                    st.phase_kind != "combat" or st.phasing() not in (None, side)):
                self.find("4.1", f"{piece.name} is declared to attack in the {st.phase} Phase: a side attacks in its "
                          "own Combat Phase (4.1, 14.0)", piece, None, hex_id)
            if piece.id in self.attacked:
                self.find("14.2", f"{piece.name} attacks a second time in the {st.phase} Phase: each unit fights "
                          "once a phase", piece, None, hex_id)
            self.attacked.add(piece.id)
            if last is None or last.targets:  # attackers named after targets begin the next combat (14.0)
                last = Fight(side)
                self.pending.append(last)
            last.attackers[piece.id] = hex_id
            if st.phase_kind == "combat" and not st.overruns() and hex_id:
                self._owe(piece, hex_id)
        else:
            if last is None:
                last = Fight(self.board.other_side.get(side or "", side))
                self.pending.append(last)
            last.targets[piece.id] = hex_id

    # -- the roll --------------------------------------------------------------------------------
    def rolled(self, e: Rolled) -> None:
        if self.state.phase_kind == "combat" and len(e.dice) == 1 and e.button.endswith(" 1d6") \
                and e.button.count(" ") == 1:
            side = self.state.dice_side(e.button)
            if side is not None:
                self.capture_rolls.append((side, e.dice[0], self.state.step))
        if not e.button.endswith("combat 2d6") or not self.pending:
            return
        f = self.pending[0]
        while (not f.attackers or not f.targets) and len(self.pending) > 1:  # a combat declared in pieces
            nxt = self.pending.pop(1)
            f.attackers.update(nxt.attackers)
            f.targets.update(nxt.targets)
        if not f.attackers or not f.targets:
            return
        self._close()
        self.pending.pop(0)
        self.fight = f
        f.dice = e.dice
        self._stacked_attackers(f)
        self._whole_stacks(f)
        board = self.board.replayer.board.pieces
        for pid in [*f.attackers, *f.targets]:
            p = board.get(pid)
            if p is not None:
                f.points[pid] = self.step_points(p)
        if self._adjacent(f) and not self.state.overruns():
            self._window(f)  # (a combat with an attacker out of reach is reported once, under 14.2)

    def _stacked_attackers(self, f: Fight) -> None:
        """14.2: stacked attacking units may not participate in different combats (judged at the roll,
        once the combat's declarations are in; reported once a hex and phase)."""
        mine = set(f.attackers.values())
        for other in [*self.fought, *self.pending]:
            both = sorted(mine & set(other.attackers.values()))
            if both and other.targets and self.once(("14.2 stacked", both[0], self.state.turn, self.state.phase_id)):
                self.find("14.2", f"units of {both[0]} attack in two combats of the {self.state.phase} Phase: stacked "
                          "attacking units may not participate in different combats", None, None, both[0],
                          side=self.board.side_names.get(f.side))
                return

    def _whole_stacks(self, f: Fight) -> None:
        """14.2: stacked defenders are attacked together: every combat unit of the defending side in a
        target hex defends (its CF counts, 14.3) and may take the losses (14.6: the owner chooses),
        named as a target or not; supply units stacked with them add nothing and absorb no loss (12.2.6)."""
        defender = self.board.other_side.get(f.side)
        for h in set(f.targets.values()):
            for p in self.board.units_in(h):
                if p.id not in f.targets and self.board.side_id(p) == defender and self.forces.is_combat_unit(p):
                    f.targets[p.id] = h

    def step_points(self, p: Piece) -> int:
        """Loss points a unit still has (15.10: a division step counts 2)."""
        u = self.board.unit_of(p)
        steps = 1 if self.board.reduced(p) or u.steps == 1 else 2
        return steps * (2 if self.forces.is_division(u) else 1)

    def _adjacent(self, f: Fight) -> bool:
        """14.2: every attacker next to every defender (False: one is not, and was reported)."""
        geo = self.game.geometry
        board = self.board.replayer.board.pieces
        ok = True
        for pid, h in f.attackers.items():
            far = sorted({t for t in f.targets.values() if not geo.adjacent(h, t)})
            if far:
                ok = False
                self.find("14.2", f"{board[pid].name} attacks from {h}, not next to {', '.join(far)}: every attacker is "
                          "adjacent to every defender", board[pid], None, h)
        return ok

    def _window(self, f: Fight) -> None:
        board = self.board.replayer.board.pieces
        att = [board[i] for i in f.attackers if i in board]
        dfn = [board[i] for i in f.targets if i in board]
        if any(self.board.markers_in(h, "combat-form") for h in set(f.attackers.values())):
            return
        lines = set()
        for h in set(f.targets.values()):
            line = self.tec["hex"].get(self.game.hex_terrain.get(h), {}).get("crt_line", "all-other")
            fort = self.forces.fort_level(h)
            if fort:
                n = 1 if line == "all-other" else int(line)
                line = str(min(5, n + fort))
            lines.add(str(line))
        table = self.crt["lines"]
        if any(line not in table for line in lines):
            return
        at_cut = AT_CUT * sum(1 for p in dfn if self.board.unit_of(p).type in ("anti-tank", "support")
                              and not self.forces.surely_disrupted(p))  # 8.2 d
        a_max = sum(self.forces.cf(p) for p in att)
        a_min = max(0, sum(self.forces.cf(p) / (2 if self._may_halve(p) else 1) for p in att) - at_cut)
        d_max = max(1, sum(self.forces.cf(p) for p in dfn))
        d_min = max(1, sum(self.forces.cf(p) / (2 if self._may_halve(p) else 1) for p in dfn))
        if a_max <= 0:
            self.find("14.3", f"the attackers ({', '.join(p.name for p in att)}) total a CF of 0: they cannot attack",
                      None, None, next(iter(f.targets.values())), side=self.board.side_names.get(f.side))
            return
        right, left = self._shifts(f, att)
        row = self._row(sum(f.dice))
        if row is None:
            return
        results = self.crt["results"][row]
        window: dict[str, list] = {"attacker": [], "defender": []}
        spans = []
        for line in sorted(lines):
            ratios = table[line]
            lo, hi = self._column(ratios, a_min, d_max), self._column(ratios, a_max, d_min)
            spans.append(f"line {line}: {ratios[lo]} to {ratios[hi]}")
            for c in range(lo, min(len(results) - 1, hi + right) + 1):
                window["defender"].append(self._parse(results[c]))
            for c in range(max(0, lo - left), hi + 1):
                window["attacker"].append(self._parse(results[c]))
        f.window = window
        f.what = (f"attack {a_max:g} (at least {math.floor(a_min * 2) / 2:g}) against {d_max:g} (at least {d_min:g}), "
                  f"odds {'; '.join(spans)}, up to {right} column(s) right and {left} left, 2d6 = {sum(f.dice)}")

    def _may_halve(self, p: Piece) -> bool:
        """15.9: whether the unit may be standard or light infantry fighting at half CF: an infantry
        unit in a desert hex with no fort marker and no non-infantry, non-light unit of its side."""
        u, board = self.board.unit_of(p), self.board
        h = board.hex_of(p)
        if u.type not in INFANTRY or h is None or self.game.hex_terrain.get(h) != "desert" or self.forces.fort_level(h):
            return False
        side = board.side_id(p)
        return not any(board.side_id(q) == side and self.forces.is_combat_unit(q) and board.unit_of(q).type not in INFANTRY
                       and board.unit_of(q).cf_suffix != "L" for q in board.pieces_in(h))

    @staticmethod
    def _column(ratios: list[str], a: float, d: float) -> int:
        """14.5: the odds rounded down to a ratio of the line; below the lowest, the lowest."""
        best = 0
        for i, r in enumerate(ratios):
            x, y = (int(v) for v in r.split("-"))
            if a * y >= d * x:
                best = i
        return best

    def _row(self, total: int) -> str | None:
        for key in self.crt["results"]:
            lo, _, hi = str(key).partition("-")
            if int(lo) <= total <= int(hi or lo):
                return key
        return None

    @staticmethod
    def _parse(code: str) -> tuple[int, int, str | None]:
        m = RESULT.match(code)
        return (int(m["a"] or 0), int(m["d"] or 0), m["r"]) if m else (0, 0, None)

    def _shifts(self, f: Fight, att: list[Piece]) -> tuple[int, int]:
        """Most column shifts right (the attacker's, for the defender's result) and left (see Choices)."""
        geo = self.game.geometry
        attacker, defender = f.side, self.board.other_side.get(f.side)
        right = SHIFT_ARTILLERY if any(self.board.unit_of(p).type == "artillery" and not self.forces.surely_disrupted(p)
                                       for p in att) else 0  # 15.1: one attacking artillery unit; 8.2 d
        card = self.state.card
        if card is not None and card.surprise and self.state.turn == card.first_turn:
            right += SHIFT_SURPRISE
        held = set(f.targets.values())
        near = held | {n for h in held for n in geo.neighbours(h)}
        right += self._air(attacker, 2, held) + self._naval(attacker, near)
        left = SHIFT_ARTILLERY * sum(1 for h in near for p in self.board.units_in(h)
                                     if self.board.side_id(p) == defender and self.board.unit_of(p).type == "artillery"
                                     and not self.forces.surely_disrupted(p))  # 8.2 d
        left += self._air(defender, 1, near) + self._naval(defender, near)
        return right, left

    def _air(self, side: str | None, most: int, hexes: set[str]) -> int:
        """19.5: the ground support (+1 near an airfield) of the side's air units placed on the combat when
        the dice are rolled: offensive support on a defender's hex (two at most), defensive on or next to
        one (one; where it is placed the text does not say: see Choices)."""
        ratings = sorted(((self.board.unit_of(p).support or 0) + 1 for h in hexes for p in self.board.pieces_in(h)
                          if self.board.unit_of(p) and self.board.unit_of(p).type == "air"
                          and self.board.side_id(p) == side), reverse=True)
        return sum(ratings[:most])

    def _naval(self, side: str | None, hexes: set[str]) -> int:
        """20.4.2: a fleet placed next to the defender's hex before combat gives one shift."""
        return SHIFT_NAVAL if any(self.board.unit_of(p) and self.board.unit_of(p).type == "fleet"
                                  and self.board.side_id(p) == side for h in hexes for p in self.board.pieces_in(h)) else 0

    # -- losses and retreats ------------------------------------------------------------------------
    def _lose(self, p: Piece, points: int) -> None:
        f = self.fight
        if f is not None and f.dice is not None and (p.id in f.attackers or p.id in f.targets):
            f.lost[p.id] = f.lost.get(p.id, 0) + points
            if f.window:
                role = "attacker" if p.id in f.attackers else "defender"
                members = f.attackers if role == "attacker" else f.targets
                if points > 0:
                    self._second_step(f, p, role, members, points)
                if role not in f.over and sum(f.lost.get(i, 0) for i in members) > self._most(f, role):
                    f.over[role] = self.state.step  # reported at this act when the combat closes (a correction
                    # made before then undoes it)

    def _second_step(self, f: Fight, p: Piece, role: str, members: dict[str, str], now: int) -> None:
        """14.6: no unit suffers a second step loss until every unit of its side in the combat has
        suffered one; judged while the side's losses are within what every result of the window gives
        (a loss beyond it may be 14.7.1's for a retreat that could not be made)."""
        per = 2 if self.forces.is_division(self.board.unit_of(p)) else 1
        points = f.lost[p.id]
        if not points - now < 2 * per <= points:
            return  # not the act that takes its second step
        want = min(r[1] if role == "defender" else r[0] for r in f.window[role])
        if sum(f.lost.get(i, 0) for i in members) > want:
            return
        board = self.board.replayer.board.pieces
        spared = [board[i].name for i in members if i != p.id and i in board and f.points.get(i, 0) > 0
                  and not f.lost.get(i)]
        if spared and self.once(("14.6 second", id(f))):
            self.find("14.6", f"{p.name} loses a second step ({points} step point(s) in this combat) while "
                      f"{', '.join(spared)} lost none: no unit suffers a second step loss until all have suffered "
                      f"one{self.state.reconstructed('combat')}", p, None, members.get(p.id))

    def _most(self, f: Fight, role: str) -> float:
        """The most steps the table's window lets a side lose (see Choices); no most for a
        defender a retreat result could cost a step more."""
        results = f.window[role]
        if role == "defender" and any(r[2] for r in results):
            return float("inf")
        board = self.board.replayer.board.pieces
        members = f.attackers if role == "attacker" else f.targets
        division = any(self.forces.is_division(self.board.unit_of(board[i])) for i in members if i in board)
        return max(r[1] if role == "defender" else r[0] for r in results) + (1 if division else 0)

    def flipped(self, e: Flipped) -> None:
        if e.layer == "Step" and self.board.unit_of(e.piece):
            u = self.board.unit_of(e.piece)
            per = 2 if self.forces.is_division(u) else 1
            if e.new == 2 and e.old != 2:
                self._lose(e.piece, per)
            elif e.old == 2 and e.new != 2:
                self._lose(e.piece, -per)

    def removed(self, e: Removed) -> None:
        if self.board.unit_of(e.piece):
            self._lose(e.piece, self.step_points(e.piece))

    def added(self, e: Added) -> None:
        if self.board.on_map(e.where.label):
            self._capture(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        old, new, board = e.old.label, e.new.label, self.board
        if board.unit_of(e.piece) and board.on_map(old) and not board.on_map(new) and old != new:
            points = self.step_points(e.piece)
            self._lose(e.piece, points)
            if new in self.destroyed_boxes:
                for f in self._fights():
                    if e.piece.id in f.targets:
                        f.destroyed += points
                        break
        if not board.on_map(old) and board.on_map(new):
            self._capture(e.piece, new)
        if (self.state.phase_kind == "combat" and old != new and board.on_map(old) and board.on_map(new)
                and self.forces.is_ground(e.piece)):
            self._combat_move(e)

    def _fights(self, newest_first: bool = False) -> list:
        """The combats rolled so far in the phase: the one being resolved, then those fought (oldest
        first, or newest)."""
        live = [self.fight] if self.fight is not None and self.fight.dice is not None else []
        return live + (self.fought[::-1] if newest_first else self.fought)

    def _combat_move(self, e: Moved) -> None:
        pid = e.piece.id
        fights = self._fights(newest_first=True)
        for f in fights:
            if pid in f.attackers:
                self._early(f, "attacker")
                self._advance(f, e, late=f is not self.fight)
                return
            if pid in f.targets:
                f.moved[pid] = self.state.step
                self._retreat(f, e, f.targets[pid])
                return
        if any(p.properties().get("MarkerId") == "reserve" for p in self.board.stood_in(e.old.label)):
            return  # 14.9.3: units in reserve may exploit after a mobile battle
        u = self.board.unit_of(e.piece)
        for f in fights:
            if (u is not None and u.type == "msu" and e.old.label in f.attackers.values()
                    and e.new.label in f.targets.values() and not self._held(f, e.new.label)):
                f.escorted[pid] = (e.new.label, self.state.step)  # 14.8: an MSU stacked with the attackers
                return
        if any(e.new.label in f.targets.values() for f in fights):
            self.find("14.8", f"{e.piece.name} moves into {e.new.label}, a hex vacated by combat, but did not attack it: "
                      "only attacking units advance", e.piece)
            return
        self.find("4.1", f"in the {self.state.phase} Phase units move only to retreat after a combat result (14.7) or to "
                  "advance after combat (14.8)", e.piece)

    def _advance(self, f: Fight, e: Moved, late: bool = False) -> None:
        """14.8: an attacker advances only into the defenders' hex once they have left it, and not
        while disrupted (after a mobile battle, 14.9.3 exploitation is not followed)."""
        if any(self.board.markers_in(h, "combat-form") for h in set(f.attackers.values())):
            return
        new, old = e.new.label, e.old.label
        if new == f.attackers.get(e.piece.id):
            return  # back where it attacked from (a drag put right)
        held = self._held(f, new)
        if new not in set(f.targets.values()):
            why = f"{new} is not the defenders' hex ({', '.join(sorted(set(f.targets.values())))})"
        elif held:
            why = f"defending units still hold {new}"
        elif self.forces.surely_marked(self.board.stood_in(old), "disrupted"):
            why = "a disrupted unit may not advance"
        elif late:
            why = "the advance is taken before the next combat is declared"
        else:
            f.into.add(new)
            if self.forces.cf(e.piece) > 0:
                f.advanced.add(e.piece.id)
            else:
                f.escorted[e.piece.id] = (new, self.state.step)
            return
        self.find("14.8", f"{e.piece.name} advances from {old} to {new} after its combat: {why}", e.piece, old)

    def _capture(self, p: Piece, hex_id: str) -> None:
        """14.8: a dump or a Captured Supply marker that comes onto the map in a Combat Phase is supply
        captured: in a hex attackers advanced into where defending steps went to the Destroyed Box, after
        a 1d6 of the advancing side no higher than the steps destroyed (a division's step counts 2)."""
        u, board = self.board.unit_of(p), self.board
        kind = "dump" if u is not None and u.type == "dump" else "marker" if board.marker_id(p) == "captured-supply" \
            else None
        if kind is None or self.state.phase_kind != "combat" or p.id in self.captured:
            return
        self.captured.add(p.id)
        fights = self._fights()
        for f in fights:
            if hex_id in f.into and f.destroyed and any(
                    side == f.side and die <= f.destroyed for side, die, _ in self.capture_rolls):
                return
        why = next((f"{f.destroyed} defending step(s) went to the Destroyed Box and no 1d6 of the "
                    f"{board.side_names.get(f.side, f.side)} player came up {f.destroyed} or less"
                    for f in fights if hex_id in f.into and f.destroyed),
                   "no attacker advanced there where a defending unit went to the Destroyed Box")
        self.find("14.8", f"{p.name} is placed in {hex_id} in the {self.state.phase} Phase: supply is captured only "
                  f"by an advance after combat with a 1d6 no higher than the defending steps destroyed; {why}", p,
                  None, hex_id)

    def _held(self, f: Fight, hex_id: str) -> bool:
        """Whether a defending combat unit still holds the hex."""
        defender = self.board.other_side.get(f.side)
        return any(self.board.side_id(p) == defender and self.forces.is_combat_unit(p)
                   for p in self.board.pieces_in(hex_id))

    def _retreat(self, f: Fight, e: Moved, home: str) -> None:
        """14.7-14.7.2: a defender's move after its combat against the retreats its window allows."""
        end, note = e.new.label, self.state.reconstructed("combat")
        far = self.game.geometry.distance(home, end)
        self._early(f, "defender")
        most = self._retreat_most(f, home)
        if most == 0:
            self.find("14.7", f"{e.piece.name} leaves {home} after its combat, but no result the table can give "
                      f"({f.what}) makes it retreat{self._obstructed_note(home)}{note}", e.piece, home)
        elif far > most:
            self.find("14.7.1", f"{e.piece.name} retreats {far} hexes from {home}: its result allows at most {most} "
                      f"(withdraw 1-3, rout 4-6{self._obstructed_note(home)}){note if f.window else ''}", e.piece, home)
        elif not self._retreat_open(e.piece, home, end, most):
            self.find("14.7.2", f"{e.piece.name} retreats from {home} to {end}: no retreat of at most {most} hexes "
                      "leads there without passing through an enemy ZoC, enemy units or terrain it could not enter "
                      "(it may end in an enemy ZoC, 11.4)", e.piece, home)

    def _retreat_most(self, f: Fight, home: str) -> int:
        """The longest retreat a result of the window allows (14.7.1): 6 hexes with a rout, 3 with a
        withdrawal; in a city, fort or mountain hex a withdrawal is ignored and a rout is 3 hexes
        shorter; 0: no retreat.  Without a window (the result not judged), 6."""
        if not f.window:
            return ROUT_MAX
        letters = {r for _, _, r in f.window["defender"] if r}
        if self._obstructed(home):
            return ROUT_MAX - OBSTRUCTED_CUT if "R" in letters else 0
        return ROUT_MAX if "R" in letters else WITHDRAW_MAX if "W" in letters else 0

    def _obstructed(self, hex_id: str) -> bool:
        return self.game.hex_terrain.get(hex_id) in ("city", "mountain") or self.forces.fort_level(hex_id) is not None

    def _obstructed_note(self, hex_id: str) -> str:
        return "; in a city, fort or mountain hex a withdrawal is ignored, a rout 3 hexes shorter" \
            if self._obstructed(hex_id) else ""

    def _retreat_open(self, p: Piece, home: str, end: str, most: int) -> bool:
        """14.7.2 with 11.4: a retreat home -> end of at most `most` hexes (see `_retreats`)."""
        reach = self._retreats(p, home, most, end)
        return reach is None or end in reach.cost

    def _retreats(self, p: Piece, home: str, most: int, goal: str | None = None):
        """Where a retreat of at most `most` hexes can end: through no enemy unit, no terrain the unit
        could not enter, and no enemy ZoC but where it ends (a hex a friendly combat unit holds is
        let through: see Choices); None for a piece of no side."""
        side = self.board.side_id(p)
        if side is None:
            return None
        motorized = self.forces.may_be_motorized(self.board.unit_of(p))
        enemy, zoc, base = self.costs.enemy_hexes(side), self.costs.enemy_zoc(side, motorized), self.costs.unit_step(p)
        board = self.board

        def step(a: str, b: str) -> int | None:
            return None if base(a, b) is None else 1

        def friendly(h: str) -> bool:
            return any(board.side_id(q) == side and self.forces.is_combat_unit(q) and q.id != p.id
                       for q in board.pieces_in(h))

        def stops(h: str) -> bool:  # entered, not left
            return h in zoc and not friendly(h)
        # a hex both sides hold got so by an illegal act already reported (13.1): not held against the retreat
        blocked = [h for h in enemy if not friendly(h)]
        return search(self.game.geometry.neighbours, home, step, allowance=most, blocked=blocked, goal=goal,
                      stop=_Stops(stops))

    def _early(self, f: Fight, role: str) -> None:
        """A unit of the side retreats or advances while the side has lost less than the table surely gives:
        the loss owed is reported at this move if it is still short when the combat closes."""
        if f is self.fight and f.window and role not in f.early and self._short(f, role):
            f.early[role] = self.state.step

    def _short(self, f: Fight, role: str) -> bool:
        """Whether the side has lost less, so far, than every result of the window gives it."""
        members = f.attackers if role == "attacker" else f.targets
        want = min(r[1] if role == "defender" else r[0] for r in f.window[role])
        have = sum(f.points.get(i, 0) for i in members)
        return sum(f.lost.get(i, 0) for i in members) < min(want, have)

    def _close(self) -> None:
        f, self.fight = self.fight, None
        if f is None or f.dice is None:
            return
        self.fought.append(f)
        if not f.window:
            return
        note = self.state.reconstructed("combat")
        board = self.board.replayer.board.pieces
        for role, members in (("defender", f.targets), ("attacker", f.attackers)):
            results = f.window[role]
            have = sum(f.points.get(i, 0) for i in members)
            lost = sum(f.lost.get(i, 0) for i in members)
            want = [r[1] if role == "defender" else r[0] for r in results]
            lo, hi = min(want), max(want)
            side = f.side if role == "attacker" else self.board.other_side.get(f.side)
            names = ", ".join(board[i].name for i in members if i in board)
            where = next(iter(f.targets.values()))
            if lost < min(lo, have):
                early = f.early.get(role)
                before = (f" and {'retreated' if role == 'defender' else 'advanced'} before taking it (14.1, 14.5: the "
                          "losses, then the retreats and advances)") if early else ""
                self.find("14.6", f"the {role}s ({names}) lost {lost} step(s); the table gives the {role} at least {lo} "
                          f"({f.what}){before}{note}", None, None, where, side=self.board.side_names.get(side), at=early)
            elif lost > self._most(f, role):
                self.find("14.6", f"the {role}s ({names}) lost {lost} step(s); the table gives the {role} at most {hi} "
                          f"({f.what}){note}", None, None, where, side=self.board.side_names.get(side),
                          at=f.over.get(role))
