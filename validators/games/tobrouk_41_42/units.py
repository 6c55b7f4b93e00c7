"""What a Tobrouk 41-42 unit and hex are by the rules: combat units and HQs, the markers of a
hex, enemy zones of control (1.34), and the Combat Groups on the map; and `TobroukRule`, the
base of every rule of the game, which names these and the board's and state's words as its own.

Choices:
- Markers lie in hexes, not on units: a hex's markers (T, Retreat, CR, RE, entrenched, rapid
  movement) are read as belonging to every unit of the hex.
- 1.34: no ZoC across minefields, fortifications (the Tobrouk camp), wadis and cliffs; "crests if
  the CU is dug in" is left out (digest O14: which way is not said); HQs, retreating units and the
  LRDG (12.4) have none; none reaches into the sea (4.2e).
"""
from __future__ import annotations

from builder.geometry.hexmap import hexside_key
from validators.kernel.rule import Context, Rule, Tracker
from validators.kernel.stacking import unit_attrs
from validators.kernel.zoc import zone_of_control
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Removed
from validators.vlog.commands import AddPiece, ChangePiece, MovePiece, RemovePiece

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

ZOC_CLOSED = frozenset({"mines-light", "mines-heavy", "camp", "wadi", "cliff"})
HITS = ("t", "t1", "t2")
WRECKS = frozenset({"wreck", "wreck-2", "wreck-3"})


_NOT_YET = object()
PIECE_COMMANDS = (AddPiece, RemovePiece, ChangePiece, MovePiece)  # the commands that change the board


def mid(p: Piece) -> str:
    """A marker's id ('' for a unit)."""
    return p.properties().get("MarkerId", "")


def left_map(e: Moved | Removed, geo) -> str | None:
    """The hex a piece was taken off the map from (deleted or dragged to a box), else None: a player
    removes a marker either way, and a unit leaves by its Send To command or a drag."""
    if isinstance(e, Moved):
        return e.old.label if e.old.label in geo and e.new.label not in geo else None
    return e.where.label if e.where is not None and e.where.label in geo else None


class Units(Tracker):
    """The rules' view of units, hexes and their markers (keeps no facts of its own)."""

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        self.cg_side = {m.id: m.faces[0].side for m in self.game.markers_file.markers
                        if m.id.startswith("cg-") and m.faces and m.faces[0].side}
        self._memo: dict = {}
        lrdg = self.tables.get("optional", {}).get("switches", {}).get("lrdg", {})
        self.no_zoc = frozenset([lrdg["unit"]] if lrdg.get("unit") else ())  # 12.4: the LRDG has no ZoC
        self.free_movers = {lrdg["unit"]: int(lrdg.get("mp", 5))} if lrdg.get("unit") else {}  # 12.4: its own MP
        self.moves_of = {side: 0 for side in self.board.side_names}  # side -> changes to its units so far
        self._zoc: dict[str, tuple] = {}  # side -> (moves_of[enemy] when answered, enemy_zoc(side))
        self._enemy_at: dict[str, tuple] = {}  # side -> (moves_of[enemy] when answered, enemy_hexes(side))
        self._cg_pieces: tuple[int, list[Piece]] = (-1, [])  # (board roster, cg_pieces())
        self._hq_ids: tuple[int, frozenset[str]] = (-1, frozenset())  # (board roster, ids of the HQ pieces)
        self._retreat_markers: tuple[int, list[Piece]] = (-1, [])  # (board roster, retreat_markers())
        self._kinds: dict[str, tuple] = {}  # piece id -> (its state, what _changes reads of it)
        self._reach: dict[str, tuple[str, ...]] = {}  # hex -> _zoc_reach()

    def before_step(self, step) -> None:
        """A step that adds, removes, changes or moves a piece has changed the board (it is applied
        before its events are heard): the memo is dropped, and the sides whose units (or Retreat
        markers) it may have changed are counted as changed.  The board's own version is no
        guide: a die roll's global properties bump it too."""
        changed: set[str] = set()
        for c in step.commands:
            if isinstance(c, PIECE_COMMANDS):
                if self._memo:
                    self._memo = {}
                if not self._changes(c.id, changed):
                    changed = set(self.moves_of)
                    break
        for side in changed:
            self.moves_of[side] += 1

    def _changes(self, pid: str | None, changed: set[str]) -> bool:
        """Adds to `changed` the sides a command on piece `pid` may have changed (a stack's: its
        pieces'); False when it cannot tell (a piece removed, a Retreat marker): any side's."""
        view = self.board
        board = view.replayer.board
        stack = board.stacks.get(pid or "")
        kinds = self._kinds
        for i in stack.children if stack is not None else (pid,):
            p = board.pieces.get(i or "")
            if p is None:
                return False
            kept = kinds.get(p.id)
            if kept is None or kept[0] is not p.state:  # worked out again only when the piece changed
                marker, side = mid(p), view.side_id(p)
                kept = kinds[p.id] = (p.state, False if marker == "retreat" or (not marker and side is None)
                                      else side if view.unit_of(p) is not None else True)
            kind = kept[1]
            if kind is False:
                return False
            if kind is not True:
                changed.add(kind)
        return True

    def said(self, e) -> None:
        """A line of one of game.yaml's templates (the state has read it: `line_of`) is told to the
        rules as `line_said`: the other lines, most of a log's, concern none of them."""
        if self.state.line is not None:
            self.tell("line_said", e)

    def memo(self, key, make):
        """`make()`, kept while the board stays as it is: what several rules, or several phase ends
        with no piece changed between them, ask of one board is worked out once.  Only for facts of
        the board alone (and the tables); callers never change the value."""
        found = self._memo.get(key, _NOT_YET)
        if found is _NOT_YET:
            found = self._memo[key] = make()
        return found

    def cg_pieces(self) -> list[Piece]:
        """The Combat Group counters (markers of `cg_side`), listed again only when a piece comes
        or goes (a marker's id is fixed in the module)."""
        board = self.board.replayer.board
        if self._cg_pieces[0] != board.roster:
            self._cg_pieces = (board.roster, [p for p in board.pieces.values() if mid(p) in self.cg_side])
        return self._cg_pieces[1]

    def retreat_markers(self) -> list[Piece]:
        """The Retreat markers on the board, anywhere, listed again only when a piece comes or goes
        (a marker's id is fixed in the module): most of a game has none, and then no hex has one."""
        board = self.board.replayer.board
        if self._retreat_markers[0] != board.roster:
            self._retreat_markers = (board.roster, [p for p in board.pieces.values() if mid(p) == "retreat"])
        return self._retreat_markers[1]

    def combat_units(self, hex_id: str, side: str | None = None) -> list[Piece]:
        """Combat units (no HQ, no Rommel) of a side in a hex."""
        b = self.board
        return [p for p in b.units_in(hex_id) if self.is_cu(p) and (side is None or b.side_id(p) == side)]

    def is_cu(self, p: Piece) -> bool:
        u = self.board.unit_of(p)
        return u is not None and u.type not in ("hq", "leader", "air")

    def is_hq(self, p: Piece) -> bool:
        u = self.board.unit_of(p)
        return u is not None and u.type in ("hq", "leader")

    def artillery_in_range(self, hex_id: str, side: str, only: frozenset[str] | None = None) -> bool:
        """5.4a, d: a target at most 3 hexes between (3.1d) from a supplied HQ of the side (no CR or
        RE marker in its hex, 3.7) that has artillery (the scenario's `artillery` counts: none for the
        Afrika Korps HQ in Battleaxe, 11.5h), as it stands now (Q&A 9: "checked at the moment of the
        combat phase"); with `only`, one of those HQs (the marker's own, 5.4e)."""
        b, geo = self.board, self.game.geometry
        none = {hq for hq, n in self.state.sc_rules.get("artillery", {}).items() if n == 0}  # 11.5h: AK has none
        hqs = self.memo(("hq hexes", side), lambda: [(h, q) for h, ps in b.by_hex().items()
                                                     if not b.markers_in(h, "cr") and not b.markers_in(h, "re")
                                                     for q in ps if self.is_hq(q) and b.side_id(q) == side
                                                     and b.unit_of(q).id not in none])
        return any(geo.distance(h, hex_id) - 1 <= 3 for h, q in hqs  # asked at every shot: the HQs kept per board
                   if only is None or b.unit_of(q).id in only)

    def retreating(self, hex_id: str) -> bool:
        """A Retreat marker on its front face (the back says reorganised, 4.42c)."""
        if not self.retreat_markers():
            return False  # asked for every hex of the enemy's units (enemy_zoc): spared when none is out
        return any(p.properties().get("MarkerId") == "retreat" and p.layer_level("Face") in (0, 1)
                   for p in self.board.pieces_in(hex_id))

    def stood_retreating(self, hex_id: str) -> bool:
        """A Retreat marker in the hex when the step began (a dragged stack takes its own along)."""
        if not self.retreat_markers():
            return False
        return any(p.properties().get("MarkerId") == "retreat" for p in self.board.stood_in(hex_id))

    def value(self, u: s.Unit, p: Piece, what: str):
        """A printed value of the face the piece shows: ap, at, morale."""
        reduced = getattr(u, f"{what}_reduced", None) if self.board.reduced(p) else None
        return reduced if reduced is not None else getattr(u, what)

    def steps_now(self, u: s.Unit, p: Piece) -> int:
        """Steps the counter stands for now: its strength, one less on its reduced face (6.1d)."""
        return unit_attrs(self.game, u, self.board.reduced(p))["now"]

    def crossing(self, a: str, b: str) -> frozenset[str]:
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def enemy_zoc(self, side: str) -> set[str]:
        """Hexes next to a non-retreating enemy CU (see Choices).  Asked at every step of the side's
        units: kept while no unit of the enemy (and no Retreat marker) changes (`moves_of`)."""
        now, kept = self.moves_of[self.board.other_side[side]], self._zoc.get(side)
        if kept is None or kept[0] != now:
            kept = self._zoc[side] = (now, self._enemy_zoc(side))
        return kept[1]

    def _enemy_zoc(self, side: str) -> set[str]:
        enemy, b = self.board.other_side[side], self.board
        holders = [h for h, ps in b.unit_hexes(enemy).items()  # the hexes of the enemy's units, kept by the board
                   if any(self.is_cu(p) and b.unit_of(p).id not in self.no_zoc for p in ps)
                   and not self.retreating(h)]
        return zone_of_control(holders, self._zoc_reach, None)

    def _zoc_reach(self, h: str) -> tuple[str, ...]:
        """The neighbours a ZoC reaches from `h` (see Choices): the map's alone, listed once."""
        found = self._reach.get(h)
        if found is None:
            terrain = self.game.hex_terrain
            found = self._reach[h] = tuple(n for n in self.game.geometry.neighbours(h)
                                           if not self.crossing(h, n) & ZOC_CLOSED and terrain.get(n) != "sea")
        return found

    def under_fire(self, hex_id: str, side: str) -> bool:
        """Within the fire of the other side's combat units: one in a neighbouring hex, no cliff
        between (5.1d); a minefield does not stop fire (5.9), a retreating unit fires defensively (5.12a)."""
        enemy = self.board.other_side[side]
        return any(self.combat_units(n, enemy) and "cliff" not in self.crossing(hex_id, n)
                   for n in self.game.geometry.neighbours(hex_id))

    def enemy_in(self, hex_id: str, side: str | None, pieces=None) -> bool:
        """A unit of the other side than `side` in the hex (or among `pieces`)."""
        b, enemy = self.board, self.board.other_side.get(side or "")
        return any(b.unit_of(p) and b.side_id(p) == enemy for p in (b.pieces_in(hex_id) if pieces is None else pieces))

    def enemy_hexes(self, side: str) -> frozenset[str]:
        """Hexes holding the other side's combat units (7.1: never entered), kept as `enemy_zoc`."""
        now, kept = self.moves_of[self.board.other_side[side]], self._enemy_at.get(side)
        if kept is None or kept[0] != now:
            kept = self._enemy_at[side] = (now, self._enemy_hexes(side))
        return kept[1]

    def _enemy_hexes(self, side: str) -> frozenset[str]:
        enemy, is_cu = self.board.other_side[side], self.is_cu
        return frozenset(h for h, ps in self.board.unit_hexes(enemy).items() if any(is_cu(p) for p in ps))

    def hqs_on_map(self) -> list[Piece]:
        """The HQ counters on the map (not Rommel), in the board's order (`by_hex`)."""
        return self.memo("hqs", self._hqs_on_map)

    def _hqs_on_map(self) -> list[Piece]:
        """Asked at every phase end: the HQ pieces are listed again only when a piece comes or goes
        (a piece's unit is fixed in the module), and the board's pieces are told apart by id alone."""
        b, board = self.board, self.board.replayer.board
        if self._hq_ids[0] != board.roster:
            self._hq_ids = (board.roster, frozenset(p.id for p in board.pieces.values()
                                                    if (u := b.unit_of(p)) is not None and u.type == "hq"))
        hqs = self._hq_ids[1]
        return [p for ps in b.by_hex().values() for p in ps if p.id in hqs]

    def unit_piece_on_map(self, unit_id: str) -> Piece | None:
        return self.memo(("unit", unit_id), lambda: next((p for ps in self.board.by_hex().values() for p in ps
                                                          if (u := self.board.unit_of(p)) is not None and u.id == unit_id),
                                                         None))


class CombatGroups(Tracker):
    """The Combat Groups of tables/combat-groups.yaml: their display boxes and where each counter
    stands (the last hex it stood in, once it left the map)."""

    acts_in = {"unit_step": ()}

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        table = self.tables.get("combat-groups", {})
        self.specs: dict[str, dict] = dict(table.get("groups", {}))
        self.box = {self.game.zone_name("cg", g["box"]): cg for cg, g in self.specs.items() if "cg" in self.game.tracks}
        self.hex: dict[str, str] = {}  # CG marker id -> its hex
        self._roster, self._counters = -1, {}  # (board roster, counters())
        for p in self.board.replayer.board.pieces.values():
            if mid(p) in self.specs and (h := self.board.hex_of(p)):
                self.hex[mid(p)] = h

    def on_map(self, cg: str) -> str | None:
        hex_of = self.board.hex_of
        return next((h for p in self.counters().get(cg, ()) if (h := hex_of(p))), None)

    def counters(self) -> dict[str, list[Piece]]:
        """The CG counters by CG marker id, in the board's order; listed again only when a piece
        comes or goes (a marker's id is fixed in the module): asked at every phase end."""
        board = self.board.replayer.board
        if self._roster != board.roster:
            found: dict[str, list[Piece]] = {}
            for p in board.pieces.values():
                if (cg := mid(p)) in self.specs:
                    found.setdefault(cg, []).append(p)
            self._roster, self._counters = board.roster, found
        return self._counters

    def added(self, e) -> None:
        self.removed(e)

    def removed(self, e) -> None:
        if mid(e.piece) in self.specs and e.where is not None and e.where.label in self.game.geometry:
            self.hex[mid(e.piece)] = e.where.label

    def moved(self, e: Moved) -> None:
        cg, geo = mid(e.piece), self.game.geometry
        if cg in self.specs and e.old.label != e.new.label and (e.new.label in geo or e.old.label in geo):
            self.hex[cg] = e.new.label if e.new.label in geo else e.old.label


_WORDS = (("board", "replayer units side_names side_ids other_side unit_of side_of side_id side_name hex_of by_hex "
                    "pieces_in units_in units_on_map stood_in reduced markers_in"),
          ("units_view", "combat_units is_cu is_hq retreating value steps_now enemy_zoc crossing cg_side artillery_in_range "
                         "enemy_in unit_piece_on_map memo hqs_on_map under_fire no_zoc free_movers"),
          ("state", "maneuvering box_of track_boxes mp_box maneuver_mp reconstructed sc_rules man"))


def _speak(obj, ctx: Context) -> None:
    """Give a rule (or tracker) of the game the board's, `Units`' and the state's words as its own
    (bound once: the state's changing facts, turn and phase, are read as `self.state.*`)."""
    obj.units_view, obj.geo, obj.hexes = ctx.get(Units), ctx.game.geometry, ctx.game.geometry.ids
    for owner, names in _WORDS:
        for name in names.split():
            setattr(obj, name, getattr(getattr(obj, owner), name))


class TobroukTracker(Tracker):
    """Facts several rules of the game read, kept in the game's words."""

    needs: tuple = (Units,)

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        _speak(self, ctx)


class TobroukRule(Rule):
    """A rule of Tobrouk 41-42: reads the board, the state and `Units` under their own names, and
    keeps what it gathers over one phase in `new_phase`."""

    needs: tuple = (Units,)

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        _speak(self, ctx)

    def start(self) -> None:
        self.new_phase()

    def phase_started(self, pid: str) -> None:
        self.new_phase()

    def new_phase(self) -> None:
        """What the rule gathers over one phase, emptied as play starts and as each phase begins."""
