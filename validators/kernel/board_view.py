"""The board as the rules see it: units on hexes, sides, and where a step's pieces stood.

Real play moves pieces in every way the table allows: the engine logs a dragged stack as one
step with a move of each of its pieces, a unit pulled out of a stack as a step of its own, an
undo as the step's inverse.  Rules see the board as it stands after the whole step, so the view
also keeps the step's moves (`step_moves`) and answers where pieces stood when the step began
(`stood_in`).  It is read-only for rules: only the replay changes the board.
"""
from __future__ import annotations

from builder.model.game import Game
from validators.replay.board import Piece
from validators.replay.replayer import Moved, Replayer

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


def _same(kept: list[Piece] | None, now: list[Piece]) -> bool:
    """The same pieces in the same order (by identity: a piece is one object for the whole replay)."""
    return kept is not None and len(kept) == len(now) and all(a is b for a, b in zip(kept, now))


class BoardView:
    """Pieces by hex, kept up to date from the positions the replay changes (issue 15)."""

    def __init__(self, game: Game, replayer: Replayer):
        self.game, self.replayer = game, replayer
        self.units = {u.id: u for u in game.units}
        self.side_ids = {x.name: x.id for x in game.info.sides}  # the Side property's value -> side id
        self.side_names = {x.id: x.name for x in game.info.sides}
        self.other_side = {a: b for a in self.side_names for b in self.side_names if a != b}
        self._index: dict[str, list[Piece]] = {}
        self._hex_keys: dict[str, set] = {}  # hex -> board positions inside it
        self._key_hex: dict[tuple, str | None] = {}  # board position -> its hex (None: not in a hex)
        self._stale: set[str] = set()  # hexes whose list in _index waits to be rebuilt
        self._on_map: tuple[int, list[Piece]] = (-1, [])  # (board version, units_on_map())
        self._whos: dict[str, tuple] = {}  # piece id -> _who()
        self._who_mark = object()  # this view's own, in the answers of _who it keeps on the pieces
        self.step_events: list = []  # the events of the step being audited, in log order
        self.step_moves: list[Moved] = []  # of those, the moves
        self._step_start: dict[str, str] = {}  # piece id -> where it stood when the step began
        self._marker_ids: dict[str, tuple | None] = {}  # marker id -> (the piece last found for it, its state)
        self._seq: dict[str, int] = {}  # hex -> when it last came into _index: the order of by_hex()
        self._next_seq = 0
        self._leaders: dict[str, tuple] = {}  # hex -> (its pieces, the leaders among them): leaders_in()
        self._all_leaders: tuple[int, tuple[Piece, ...]] = (-1, ())  # (board roster, the leader pieces)
        self._placed: dict[str, int | None] = {}  # hex -> its _seq when _side_units last took it in
        self._units_stale: set[str] = set()  # hexes whose entries in _side_units wait to be rebuilt
        self._side_units: dict[str | None, dict[str, list[Piece]]] = {}  # side id -> unit_hexes(side)
        self._track_boxes: dict[str, dict[str, str]] = {}  # track -> location name -> box (track_boxes())

    def begin_step(self, events) -> None:
        """A new step: its events and moves, and where each moving piece stood before it."""
        self.step_events = events
        self.step_moves = [e for e in events if isinstance(e, Moved)]
        self._step_start = {}
        for m in self.step_moves:
            self._step_start.setdefault(m.piece.id, m.old.label)

    def _who(self, p: Piece) -> tuple:
        """(state, unit, Side property, side id, leader, this view's mark) of a piece, worked out
        again only when its state changes: rules ask several times for each piece an event names
        (issue 29).  Kept by piece id, and on the piece itself (`Piece.seen`), where the three
        below read it without a look-up.  The mark, not the view, tells whose answer it is: a
        piece holding its view would make a reference cycle, which an audit must not leave."""
        found = self._whos.get(p.id)
        if found is None or found[0] is not p.state:
            props = p.properties()
            side = props.get("Side")
            found = self._whos[p.id] = (p.state, self.units.get(props.get("UnitId", "")), side,
                                        self.side_ids.get(side or ""), self.game.leaders.get(props.get("LeaderId", "")),
                                        self._who_mark)
        p.seen = found
        return found

    # the three below are asked hundreds of thousands of times in a long log: each reads the
    # answer kept on the piece (made for its state by this view) and calls _who only when there is none
    def unit_of(self, p: Piece) -> s.Unit | None:
        found = p.seen
        return found[1] if found is not None and found[0] is p.state and found[5] is self._who_mark else self._who(p)[1]

    def side_of(self, p: Piece) -> str | None:
        found = p.seen
        return found[2] if found is not None and found[0] is p.state and found[5] is self._who_mark else self._who(p)[2]

    def side_id(self, p: Piece) -> str | None:
        found = p.seen
        return found[3] if found is not None and found[0] is p.state and found[5] is self._who_mark else self._who(p)[3]

    def side_name(self, side: str | None) -> str | None:
        return self.side_names.get(side or "")

    def hex_of(self, p: Piece) -> str | None:
        key = (p.map, p.x, p.y)
        label = self._key_hex.get(key, "")  # the hex of a board position, kept (asked at every move)
        if label == "":
            where = self.replayer.where(*key).label
            label = self._key_hex[key] = where if where in self.game.geometry else None
        return label

    def by_hex(self) -> dict[str, list[Piece]]:
        """Pieces by hex (read, never change, the lists), updated from the positions the board
        changed since the last look."""
        self._note_moves()
        if self._stale:
            for label in self._stale:
                self._rebuild(label)
            self._stale.clear()
        return self._index

    def _in_hex(self, hex_id: str) -> list[Piece]:
        """`by_hex()[hex_id]`, rebuilding only that hex: a move leaves its old hex stale too,
        and most rules ask about the new one only (issue 15)."""
        self._note_moves()
        if hex_id in self._stale:
            self._stale.discard(hex_id)
            self._rebuild(hex_id)
        return self._index.get(hex_id, [])

    def _note_moves(self) -> None:
        """Which hexes the board positions changed since the last look lie in (made stale)."""
        board = self.replayer.board
        if not board.dirty:
            return
        at, key_hex, hex_keys = board.at, self._key_hex, self._hex_keys
        for key in board.dirty:
            label = key_hex.get(key, "")
            if label == "":  # a position not seen before: which hex is it in, if any
                where = self.replayer.where(*key).label if key[0] is not None else None
                label = key_hex[key] = where if where in self.game.geometry else None
            if label is not None:
                keys = hex_keys.setdefault(label, set())
                (keys.add if key in at else keys.discard)(key)
                self._stale.add(label)
                self._units_stale.add(label)
        board.dirty.clear()

    def _rebuild(self, label: str) -> None:
        at, pieces_of = self.replayer.board.at, self.replayer.board.pieces
        keys = self._hex_keys[label]
        ordered = sorted(keys, key=str) if len(keys) > 1 else keys
        pieces = [pieces_of[i] for key in ordered for i in at[key]]
        if pieces:
            if label not in self._index:
                self._seq[label] = self._next_seq
                self._next_seq += 1
            self._index[label] = pieces
        else:
            self._index.pop(label, None)

    def pieces_in(self, hex_id: str) -> list[Piece]:
        return list(self._in_hex(hex_id))

    def units_in(self, hex_id: str, side: str | None = None) -> list[Piece]:
        return self._units(self._in_hex(hex_id), side)

    def enemies_in(self, hex_id: str, side: str | None) -> list[Piece]:
        """The units in a hex of another side than `side`."""
        return self._units(self._in_hex(hex_id), side, enemy=True)

    def _units(self, pieces, side: str | None = None, enemy: bool = False) -> list[Piece]:
        """The units among `pieces`: all, those of `side`, or (`enemy`) those of any other side.
        `unit_of` and `side_of` in one look at each piece's properties (a hot path)."""
        units, out = self.units, []
        for p in pieces:
            props = p.properties()
            if props.get("UnitId", "") in units and (props.get("Side") != side if enemy else
                                                     side is None or props.get("Side") == side):
                out.append(p)
        return out

    def stood_in(self, hex_id: str) -> list[Piece]:
        """The pieces in a hex when the current step began (a dragged stack has left it by now)."""
        start = self._step_start
        here = [p for p in self.pieces_in(hex_id) if p.id not in start]
        board = self.replayer.board.pieces
        return here + [board[i] for i, h in start.items() if h == hex_id and i in board]

    def leaders_in(self, hex_id: str) -> list[Piece]:
        """The leaders in a hex (read, never change, the list), kept while its pieces stay: a
        piece is a leader by its LeaderId, fixed in the module.  Asked at every move, and a game
        has a few leaders: a hex none of them is in is answered without listing its pieces."""
        board = self.replayer.board
        roster, leaders = self._all_leaders
        if roster != board.roster:
            who = self._who
            roster, leaders = self._all_leaders = (board.roster, tuple(p for p in board.pieces.values() if who(p)[4]))
        hex_of = self.hex_of
        for p in leaders:
            if hex_of(p) == hex_id:
                break
        else:
            return []
        pieces = self._in_hex(hex_id)
        kept = self._leaders.get(hex_id)
        if kept is None or kept[0] is not pieces:
            who = self._who
            kept = self._leaders[hex_id] = (pieces, [p for p in pieces if who(p)[4]])
        return kept[1]

    def board_order(self, pieces: list[Piece]) -> list[Piece]:
        """Pieces on the map in the order `by_hex()` lists them."""
        index, seq = self.by_hex(), self._seq
        return sorted(pieces, key=lambda p: (seq[h := self.hex_of(p)], index[h].index(p)))

    def started_in(self, hex_id: str) -> list[Piece]:
        """The pieces that stood in a hex when the current step began and have moved in it."""
        start = self._step_start
        if not start:
            return []
        board = self.replayer.board.pieces
        return [board[i] for i, h in start.items() if h == hex_id and i in board]

    def moved_with(self, e: Moved) -> list[Piece]:
        """The pieces that made the same move as `e` in its step: a stack dragged as one."""
        return [m.piece for m in self.step_moves if m.old.label == e.old.label and m.new.label == e.new.label]

    def units_on_map(self) -> list[Piece]:
        version = self.replayer.board.version  # rules ask several times per step: kept until the board changes
        if self._on_map[0] != version:
            self._on_map = (version, self._units(p for ps in self.by_hex().values() for p in ps))
        return list(self._on_map[1])

    def unit_hexes(self, side: str) -> dict[str, list[Piece]]:
        """The units of a side (its id) on the map, by hex, in the order of `by_hex()` (read,
        never change, the dict).  Kept from one call to the next and worked out again only for
        the hexes the board changed since (issue 29): a move changes two hexes, and a new dict
        comes only when a hex changes, so an answer kept by a caller stays what it was.  A
        piece's unit and side are its Marker traits' values, fixed in the module."""
        self._note_moves()
        if self._units_stale:
            self._refresh_units()
        found = self._side_units.get(side)
        return {} if found is None else found

    def _refresh_units(self) -> None:
        index, who, whos, seq, placed = self.by_hex(), self._who, self._whos, self._seq, self._placed
        stale, self._units_stale = self._units_stale, set()
        sides = self._side_units
        fresh: dict[str | None, dict[str, list[Piece]]] = {}  # side -> its new dict (a copy, changed)
        unsorted: set[str | None] = set()
        for label in stale:
            here: dict[str | None, list[Piece]] = {}
            for p in index.get(label, ()):
                found = whos.get(p.id)  # _who's kept answer read here: the hot path of a long log
                if found is None or found[0] is not p.state:
                    found = who(p)
                if found[1] is not None:
                    units = here.get(found[3])
                    if units is None:
                        here[found[3]] = [p]
                    else:
                        units.append(p)
            now = seq.get(label)
            again = placed.get(label) != now  # the hex left by_hex() and came back: its place moved
            placed[label] = now
            for side, m in sides.items():  # a side whose units all left the hex
                if side not in here and label in m:
                    m = fresh.get(side)
                    if m is None:
                        m = fresh[side] = dict(sides[side])
                    m.pop(label, None)
            for side, units in here.items():
                m = fresh.get(side)
                if m is None:
                    kept = sides.get(side)
                    if not again and kept is not None and _same(kept.get(label), units):
                        continue  # the side's units there are as they were: its dict stays
                    m = fresh[side] = dict(kept or ())
                if again:
                    m.pop(label, None)
                if label not in m and m and seq[label] < seq[next(reversed(m))]:
                    unsorted.add(side)
                m[label] = units
        for side, m in fresh.items():
            self._side_units[side] = dict(sorted(m.items(), key=lambda kv: seq[kv[0]])) if side in unsorted else m

    def occupied_by_enemy(self, side: str) -> set[str]:
        """Hexes holding units of another side than `side`."""
        return {h for h, ps in self.by_hex().items() if self._units(ps, side, enemy=True)}

    @staticmethod
    def reduced(p: Piece) -> bool:
        return p.layer_level("Step") == 2

    def on_map(self, label: str | None) -> bool:
        """Whether a location is a hex of the map (not a box, a track or off the board)."""
        return label in self.game.geometry

    def where(self, p: Piece) -> str:
        """A piece's location name: its hex, box or track name, or "offboard"."""
        return self.replayer.piece_where(p).label

    def marker(self, marker_id: str) -> Piece | None:
        """The piece of a one-off marker (a depot, a points marker), wherever it is; None when
        none is on the board."""
        pieces = self.replayer.board.pieces
        kept = self._marker_ids.get(marker_id)
        if kept is not None and pieces.get(kept[0].id) is kept[0] and kept[0].state is kept[1]:
            return kept[0]  # the piece found last, on the board and unchanged since
        p = pieces.get(kept[0].id if kept else "")
        if p is None or p.properties().get("MarkerId") != marker_id:
            p = next((q for q in pieces.values() if q.properties().get("MarkerId") == marker_id), None)
        self._marker_ids[marker_id] = (p, p.state) if p else None
        return p

    def track_boxes(self, track: str) -> dict[str, str]:
        """A track's boxes by the location name a piece in one shows ("VP 3" -> "3"; the first
        box of a name two share); {} for a track the game lacks."""
        found = self._track_boxes.get(track)
        if found is None:
            t = self.game.tracks.get(track)
            found = self._track_boxes[track] = {self.game.zone_name(track, b): b for b in reversed(t.boxes)} if t else {}
        return found

    def printed(self, u: s.Unit, p: Piece, what: str):
        """A value printed on the face a piece shows: `what` ("attack"), or on a reduced face the
        unit's `what_reduced` when it has one."""
        reduced = getattr(u, f"{what}_reduced", None) if self.reduced(p) else None
        return reduced if reduced is not None else getattr(u, what)

    def leader_of(self, p: Piece):
        """The leader a piece is (game.yaml `leaders`), None for any other piece."""
        return self._who(p)[4]

    def marker_id(self, p: Piece) -> str | None:
        return p.properties().get("MarkerId")

    def face_side(self, marker_id: str, level: int) -> str | None:
        """The side (its name) that face `level` (1: the first) of a marker of markers.yaml shows."""
        m = self.game.markers.get(marker_id)
        faces = m.faces if m is not None else ()
        return self.side_names.get(faces[max(0, level - 1)].side or "") if faces else None

    def markers_in(self, hex_id: str, *markers: str) -> int:
        """How many markers of the given ids lie in a hex."""
        return sum(1 for p in self.pieces_in(hex_id) if p.properties().get("MarkerId") in markers)

    def named(self, name: str, where: str) -> Piece | None:
        """The unit called `name` at `where` as a log line names them: in a hex, in a box, or,
        when no unit of that name is at that location, the only unit of that name."""
        if where in self.game.geometry:
            return next((p for p in self.pieces_in(where) if p.name == name and self.unit_of(p) is not None), None)
        named = [p for p in self.replayer.board.pieces.values() if p.name == name and self.unit_of(p) is not None]
        here = [p for p in named if self.replayer.piece_where(p).label == where]
        return here[0] if here else named[0] if len(named) == 1 else None
