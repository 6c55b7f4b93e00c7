"""Combat from the data: tables/combat.yaml gives the odds columns, the results by die roll and
what each result demands; game.yaml's declarations say who attacks and who defends.

    data:
      declarations: {attacker: Declare attacker, defender: Declare defender}
      columns: ["1-2", "1-1", "2-1", "3-1"]     # attack to defence strength, rounded down to a
                                               # column; below the first, the first
      results: {1: [AE, AE, DR, DR], ...}      # die roll -> result per column
      effects:                                 # what a result demands of each side
        AE: {attacker: eliminated}
        DR: {defender: retreat, hexes: 1}
        DE: {defender: eliminated}

A combat is its declarations, then one roll of a die of the attacker's side.  A result is an
obligation: an act that breaks it - a unit eliminated that the result does not eliminate, a
retreat the result does not give or longer than it allows, an attacker that moves - is reported
at that act; what it demands and was not done, once, when the next combat is declared or the
phase ends.  Strength is the face shown (`cs`, `cs_reduced`).  Choice: a defender whose result
is a retreat may be eliminated instead when no hex next to it is open (on the map, enterable,
free of enemy units)."""
from __future__ import annotations

from dataclasses import dataclass, field

from builder.model.game import Game
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule, Tracker
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed, Rolled


def combat_table(game: Game):
    table = game.tables.get("combat")
    return table if table is not None and "declarations" in table.data else None


@dataclass
class Fight:
    side: str | None  # the attacker's side id
    units: dict[str, tuple[str, str]] = field(default_factory=dict)  # piece id -> (role, its hex)
    result: str | None = None
    what: str = ""  # odds, die and result, for the messages
    due: dict[str, str] = field(default_factory=dict)  # piece id -> what the result still demands
    retreat: int = 0


class Fights(Tracker):
    """The units declared in a combat this phase (a Combat Phase's moves are theirs to judge)."""

    def start(self) -> None:
        self.members: set[str] = set()

    def phase_started(self, pid: str) -> None:
        self.members = set()

    def declared(self, d: Declared) -> None:
        table = combat_table(self.game)
        if table is not None and d.name in table.data["declarations"].values():
            self.members.add(d.piece.id)


class Combat(Rule):
    """The result the table gives, applied as it demands, at the act."""

    needs = (Fights,)

    @classmethod
    def ids_in(cls, game: Game) -> tuple[str, ...]:
        table = combat_table(game)
        return (table.rule,) if table is not None else ()

    def start(self) -> None:
        table = combat_table(self.game)
        self.rule, data = table.rule, table.data
        self.roles = {name: role for role, name in data["declarations"].items()}
        self.columns = [tuple(int(v) for v in c.split("-")) for c in data["columns"]]
        self.results = {int(k): v for k, v in data["results"].items()}
        self.effects = data.get("effects", {})
        self.fight: Fight | None = None

    # -- declarations and the roll ----------------------------------------------------------------
    def declared(self, d: Declared) -> None:
        role = self.roles.get(d.name)
        if role is None or not self.board.on_map(d.where):
            return
        if self.fight is not None and self.fight.result is not None:
            self._close()
        side = self.board.side_id(d.piece)
        if self.fight is None:
            self.fight = Fight(side if role == "attacker" else self.board.other_side.get(side or ""))
        self.fight.units[d.piece.id] = (role, d.where)

    def rolled(self, e: Rolled) -> None:
        f = self.fight
        if f is None or f.result is not None or self.state.dice_side(e.button) != f.side:
            return
        roles = {r for r, _ in f.units.values()}
        if roles != {"attacker", "defender"}:
            return
        geo, targets = self.game.geometry, {h for r, h in f.units.values() if r == "defender"}
        for i, (role, h) in f.units.items():
            far = sorted(t for t in targets if not geo.adjacent(h, t))
            if role == "attacker" and far and i in self.board.replayer.board.pieces:
                self.find(self.rule, f"{self.board.replayer.board.pieces[i].name} attacks from {h}, not next to "
                          f"{', '.join(far)}: attackers are next to the hex they attack",
                          self.board.replayer.board.pieces[i], None, h)
        pieces = self.board.replayer.board.pieces
        strength = {r: sum(self._cs(pieces[i]) for i, (role, _) in f.units.items() if role == r and i in pieces)
                    for r in roles}
        column = 0
        for i, (x, y) in enumerate(self.columns):
            if strength["attacker"] * y >= strength["defender"] * x:
                column = i
        die = sum(e.dice)
        row = self.results.get(die)
        if row is None:
            return
        f.result = str(row[column])
        odds = "-".join(map(str, self.columns[column]))
        f.what = f"{strength['attacker']} against {strength['defender']}, column {odds}, die {die}: {f.result}"
        effect = self.effects.get(f.result, {})
        f.retreat = int(effect.get("hexes", 0))
        for i, (role, _) in f.units.items():
            if effect.get(role):
                f.due[i] = effect[role]

    def _cs(self, p: Piece) -> int:
        u = self.board.unit_of(p)
        if u is None:
            return 0
        return (u.cs_reduced if self.board.reduced(p) and u.cs_reduced is not None else u.cs) or 0

    # -- the acts ------------------------------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        f = self.fight
        if f is None or f.result is None or e.piece.id not in f.units or e.old.label == e.new.label:
            return
        if self.board.on_map(e.new.label):
            self._moved(f, e)
        elif self.board.on_map(e.old.label):
            self._eliminated(f, e.piece, e.new.label)

    def removed(self, e: Removed) -> None:
        f = self.fight
        if f is not None and f.result is not None and e.piece.id in f.units:
            self._eliminated(f, e.piece, None)

    def _moved(self, f: Fight, e: Moved) -> None:
        role, home = f.units[e.piece.id]
        due = f.due.pop(e.piece.id, None)
        far = self.game.geometry.distance(home, e.new.label)
        if due != "retreat":
            self.find(self.rule, f"{e.piece.name} moves {e.old.label} -> {e.new.label} after its combat, but the result "
                      f"({f.what}) moves no {role}", e.piece, e.old.label, e.new.label)
        elif far > f.retreat:
            self.find(self.rule, f"{e.piece.name} retreats {far} hexes from {home}; the result ({f.what}) gives "
                      f"{f.retreat}", e.piece, home, e.new.label)

    def _eliminated(self, f: Fight, p: Piece, where: str | None) -> None:
        role, home = f.units[p.id]
        due = f.due.pop(p.id, None)
        if due == "eliminated" or (due == "retreat" and not self._open(home, p)):
            return
        self.find(self.rule, f"{p.name} is eliminated after its combat, but the result ({f.what}) does not eliminate "
                  f"the {role}", p, home, where)

    def _open(self, home: str, p: Piece) -> list[str]:
        """The hexes next to `home` a retreating unit could enter (see the Choice)."""
        board, geo = self.board, self.game.geometry
        enemy = board.occupied_by_enemy(board.side_of(p) or "")
        kinds = self.game.hex_terrain_types
        return [n for n in geo.neighbours(home) if n not in enemy and not kinds[self.game.hex_terrain[n]].prohibited]

    # -- what was not done ----------------------------------------------------------------------------
    def phase_ended(self, pid: str) -> None:
        self._close()

    def _close(self) -> None:
        f, self.fight = self.fight, None
        if f is None or f.result is None:
            return
        pieces = self.board.replayer.board.pieces
        for i, due in sorted(f.due.items()):
            p = pieces.get(i)
            if p is None:
                continue
            role, home = f.units[i]
            what = "eliminated" if due == "eliminated" else f"to retreat {f.retreat} hex(es)"
            self.find(self.rule, f"the result ({f.what}) demands the {role} {p.name} {what}; it was not",
                      p, home, self.board.where(p), side=self.board.side_names.get(self.board.side_id(p) or ""))
