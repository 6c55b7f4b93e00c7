"""Attack Combat Supply spent (6.61, 6.63a): digest 10.1 rank 1, 7 (part).

An SP is spent by the module's own means: an MSU or Dump turned to its lower face (its Face
layer, Ctrl+F: 2 SP -> 1, 4 -> 3) or taken off the map (its last SP: 6.13f, to the Used This
Segment box).  The SP an attack with Combat supply spends (6.61 "Each combat requires at least one
SP", 6.63a "the SP providing its Combat Supply is spent. Remove it at the conclusion of that
combat") is one the supplied attackers reach: within a Supply Line of 7 hexes (6.22a).

Choices:
- A spend counts for a combat from its first declaration to its close (the next combat's first
  declaration, or the phase's end); each spend pays one combat.  A combat whose every SP spent
  lies beyond 7 hexes of the supplied attackers is reported at that spend.
- An attack with Combat supply declared and no SP spent is not reported: the module's logs (and
  the test writer's) have always declared Combat supply without a spend, and the declaration is
  what the odds read (combat.py); left open.
- The Supply Line's path (6.22: terrain, enemy units and ZOC) is not traced: an SP farther than 7
  hexes from every supplied attacker is surely out of reach and is reported; a nearer one is
  taken as reached.
- Combats whose dice cannot be told apart (several Defender Hexes declared at once, combat.py)
  and combats with a fault at the die are not judged.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.combat import Combats, SHCombat
from validators.games.slouch_hats_and_eggshells.state import ATTACKER, DEFENDER
from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.replayer import Flipped, Moved, Removed

SUPPLY_UNITS = ("msu-", "dump-", "large-dump-")
LINE = 7  # 6.22a


class CombatSupplySpent(Rule):
    """6.61, 6.63a: the SP an attack with Combat Supply spends is the attacker's, within 7 hexes
    of a supplied attacker."""

    ids = ("6.61",)
    needs = (Forces, Combats)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.forces, self.combats = self.ctx.get(Forces), self.ctx.get(Combats)
        self._opened: dict[int, int] = {}  # id of a combat -> step of its first declaration
        self._spent: list[tuple[int, str, str]] = []  # (step, side, hex) of each SP spent, not yet bound

    def _spend(self, p, hex_id: str) -> None:
        if self.forces.marker_id(p).startswith(SUPPLY_UNITS) and self.board.on_map(hex_id) \
                and (side := self.forces.air_side(p)) is not None:
            self._spent.append((self.state.step, side, hex_id))

    def flipped(self, e: Flipped) -> None:
        if e.layer == "Face" and e.new < e.old:
            self._spend(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        if not self.board.on_map(e.new.label):
            self._spend(e.piece, e.old.label)

    def removed(self, e: Removed) -> None:
        self._spend(e.piece, e.where.label)

    def declared(self, d: Declared) -> None:
        self._closed()
        c = self.combats.combat_now
        if self.combats.taken is d and d.name in (ATTACKER, DEFENDER) and c is not None:
            self._opened.setdefault(id(c), self.state.step)

    def phase_ended(self, pid: str) -> None:
        self._closed()
        self._spent = []

    def _closed(self) -> None:
        for c in self.combats.newly_closed(self):
            opened = self._opened.pop(id(c), None)
            if opened is not None and c.die is not None and not c.more_hexes and c.results and not c.faults:
                self._judge(c, opened)

    def _judge(self, c: SHCombat, opened: int) -> None:
        supplied = {h for pid, h in c.attackers.items() if pid in c.supplied}
        if not supplied:
            return
        geo, side = self.game.geometry, self.board.side_names[c.attacker]
        mine = [s for s in self._spent if s[0] >= opened and s[1] == c.attacker]
        if not mine:
            return  # see Choices
        near = [s for s in mine if min(geo.distance(s[2], h) for h in supplied) <= LINE]
        if not near:
            far = mine[0]
            self.find("6.61", f"combat on {c.defender_hex}: the SP spent in {far[2]} is "
                      f"{min(geo.distance(far[2], h) for h in supplied)} hexes from the supplied attackers "
                      f"({', '.join(sorted(supplied))}): a Supply Line is at most {LINE} hexes (6.22a)", None, None,
                      far[2], side=side, at=far[0])
            self._spent.remove(far)
            return
        self._spent.remove(near[0])
