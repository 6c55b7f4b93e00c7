"""The board as VASSAL's commands leave it: every piece with its traits, map, pixel and stack.

`Board.apply` does what VASSAL's command classes do to its game state (§4.5): AddPiece,
RemovePiece, ChangePiece (full new state), MovePiece (with stacking at the destination).
Undo steps carry their inverse commands, so applying them restores the earlier board.
"""
from __future__ import annotations

from collections.abc import Callable

from builder.vassal.pieces import PieceTooDeep, Trait, unchain
from builder.vassal.sequence import join, split
from builder.record import Record
from validators.vlog.commands import AddPiece, ChangePiece, Command, MovePiece, RemovePiece
from validators.vlog.container import LogFormatError


STACK_NORMAL = "L"  # Immobilized: the stacking option that lets a piece stack


class Piece(Record):
    """A piece on the replayed board: its definition, state and place.

    Equal by id, type, state, map, point and stack, and shown with those (as the dataclass it
    was); the parsed traits and properties it keeps, and the identity another maker's piece is
    given, take no part."""

    __slots__ = ("id", "type", "state", "map", "x", "y", "stack", "_parsed", "_props", "identity", "known_as", "seen")
    _fields = ("id", "type", "state", "map", "x", "y", "stack")  # what __eq__ and __repr__ read

    def __init__(self, id: str, type: str, state: str, map: str | None = None, x: int = 0, y: int = 0,
                 stack: str | None = None, _parsed: tuple = (None, None, []), _props: tuple = (None, None, None, {}),
                 identity: dict[str, str] | None = None, known_as: str | None = None):
        self.id, self.type, self.state, self.map, self.x, self.y = id, type, state, map, x, y
        self.stack = stack  # id of the Stack holding it
        self._parsed = _parsed  # (type, state, traits), kept
        self._props = _props  # (state, type, traits, properties), kept
        # Another maker's piece read as ours (issue 33, validators/replay/identity.py): our piece's
        # Marker properties laid over its own, and our name for it
        self.identity, self.known_as = identity, known_as
        # what a view of the board (validators/kernel/board_view.py) last worked out about the piece,
        # kept on it for that view: asked hundreds of thousands of times in a long log
        self.seen: tuple | None = None

    @property
    def traits(self) -> list[Trait]:
        """The traits, parsed once per state (parsing is the costly part of a replay)."""
        if self._parsed[0] is not self.type or self._parsed[1] is not self.state:
            self._parsed = (self.type, self.state, _unchain(self.type, self.state))
        return self._parsed[2]

    @property
    def name(self) -> str:
        """The name VASSAL shows: the BasicPiece name changed by active Layer level names."""
        traits = self.traits
        name = self.known_as or (traits[-1].fields[3] if len(traits[-1].fields) > 3 else "")
        for t in reversed(traits[:-1]):
            if t.prefix == "emb2;":
                name = _layer_name(t, name)
        return name

    def properties(self) -> dict[str, str]:
        """Marker-trait properties (fixed properties such as Side or UnitId)."""
        kept = self._props  # issue 15: the hot path (unit_of, side_of) skips the traits property
        if kept[0] is self.state and kept[1] is self.type:
            return kept[3]
        traits = self.traits
        if kept[2] is traits:  # a state of the same traits again
            out = kept[3]
        else:
            out = {}
            for t in traits:
                if t.prefix == "mark;":
                    out.update(zip(split(t.type[5:], ","), split(t.state, ",")))
            if self.identity:
                out.update(self.identity)
        self._props = (self.state, self.type, traits, out)
        return out

    def layer_level(self, layer: str) -> int:
        """Current level of a named Layer (negative: inactive), 0 if the piece has none."""
        for t in self.traits:
            if t.prefix == "emb2;" and len(t.fields) > 18 and t.fields[18] == layer:
                try:
                    return int(t.state)
                except ValueError:
                    return 0
        return 0


_TRAITS: dict[tuple[str, str], list[Trait]] = {}  # (type, state) -> traits, shared by every log of a process
_NO_STACK: dict[str, bool] = {}  # piece type -> Board.no_stack
_TRAITS_MAX = 4096


def _unchain(typ: str, state: str) -> list[Trait]:
    """`unchain`, memoised per process (issue 15): every log of a module starts from the same
    pieces, so a batch worker parses each piece definition once.  The lists and the frozen
    Traits are only read, never changed, so pieces may share them."""
    key = (typ, state)
    found = _TRAITS.get(key)
    if found is None:
        if len(_TRAITS) >= _TRAITS_MAX:
            _TRAITS.clear()  # a bound on memory; states that come back are parsed again
        try:
            found = _TRAITS[key] = unchain(typ, state)
        except PieceTooDeep as exc:
            raise LogFormatError(f"{exc}: refused") from None
    return found


def _layer_name(t: Trait, name: str) -> str:
    try:
        value = int(t.state)
    except ValueError:
        return name
    names = split(t.fields[16], ",") if len(t.fields) > 16 else []
    if not 0 < value <= len(names) or not names[value - 1]:
        return name
    parts = split(names[value - 1], "+")
    if len(parts) == 1:
        return parts[0]
    return name + parts[1] if parts[0] == "" else parts[0] + name


class Stack(Record):
    """A stack of pieces at one point of a map."""

    __slots__ = ("id", "map", "x", "y", "children", "deck")

    def __init__(self, id: str, map: str | None, x: int, y: int, children: list[str] | None = None,
                 deck: bool = False):
        self.id, self.map, self.x, self.y = id, map, x, y
        self.children = [] if children is None else children
        self.deck = deck  # a draw pile: pieces dropped on it join it even when it is empty


def _position(state: str) -> tuple[str | None, int, int]:
    return _position_of(split(state, ";"))


def _position_of(fields: list[str]) -> tuple[str | None, int, int]:
    """(map, x, y) of a state's fields split at ';' (a stack's state: split once for both)."""
    f = fields + ["", "", ""]
    try:
        return (None if f[0] in ("", "null") else f[0]), int(f[1] or 0), int(f[2] or 0)
    except ValueError:
        return None, 0, 0


class Board:
    def __init__(self) -> None:
        self.pieces: dict[str, Piece] = {}
        self.identify: Callable[[Piece], None] | None = None  # gives a new piece our identity (identity.py)
        self.stacks: dict[str, Stack] = {}
        self._next_local = 0
        self.layers: dict[str | None, tuple[str, tuple[str, ...]]] = {}  # map -> (layer property, layer order)
        self.version = 0  # bumped by every command, so views of the board know when to refresh
        self.roster = 0  # bumped when a piece is added or removed: views that list pieces by kind
        self.at: dict[tuple[str | None, int, int], dict[str, None]] = {}  # position -> piece ids (ordered)
        self.dirty: set[tuple[str | None, int, int]] = set()  # positions changed since a view last looked
        self._stacks_at: dict[tuple[str | None, int, int], dict[str, None]] = {}  # position -> stack ids

    def apply(self, c: Command) -> None:
        self.version += 1
        if isinstance(c, MovePiece):  # the commonest first (the types are disjoint: the order is free)
            self._move(c)
        elif isinstance(c, AddPiece):
            self._add(c)
        elif isinstance(c, RemovePiece):
            self._remove(c.id)
        elif isinstance(c, ChangePiece):
            self._change(c)

    # -- commands ---------------------------------------------------------------------------
    def _add(self, c: AddPiece) -> None:
        pid = c.id or self._local_id()
        if c.type == "stack":
            self._set_stack(pid, c.state)
            return
        if c.type.startswith("deck;"):
            self._set_deck(pid, c.state)
            return
        p = Piece(pid, c.type, c.state)
        if self.identify is not None:
            self.identify(p)
        self.pieces[pid] = p
        self.roster += 1
        self._place_from_state(p)

    def _remove(self, pid: str) -> None:
        if pid in self.stacks:
            stack = self.stacks.pop(pid)
            self._unindex_stack(stack)
            for child in stack.children:
                if child in self.pieces:
                    self.pieces[child].stack = None
            return
        p = self.pieces.pop(pid, None)
        if p:
            self.roster += 1
            self._leave_stack(p)
            here = self.at.get((p.map, p.x, p.y))
            self.dirty.add((p.map, p.x, p.y))
            if here is not None:
                here.pop(p.id, None)
                if not here:
                    del self.at[(p.map, p.x, p.y)]

    def _change(self, c: ChangePiece) -> None:
        if c.id in self.stacks and self.stacks[c.id].deck:
            self._set_deck(c.id, c.new_state)
            return
        if c.id in self.stacks or (c.id not in self.pieces and split(c.new_state, ";")[-1:][0].startswith("@@")):
            self._set_stack(c.id, c.new_state)
            return
        p = self.pieces.get(c.id)
        if p is None:
            return
        p.state = c.new_state
        if p.stack is None:
            self._place_from_state(p)

    def _move(self, c: MovePiece) -> None:
        if c.id in self.stacks:
            s = self.stacks[c.id]
            self._unindex_stack(s)
            s.map, s.x, s.y = c.new_map, c.new_x, c.new_y
            self._stacks_at.setdefault((s.map, s.x, s.y), {})[s.id] = None
            for child in s.children:
                if child in self.pieces:
                    self._set_pos(self.pieces[child], c.new_map, c.new_x, c.new_y)
            return
        p = self.pieces.get(c.id)
        if p is None:
            return
        self._leave_stack(p)
        self._set_pos(p, c.new_map, c.new_x, c.new_y)
        if c.new_map is None:
            return
        under = self.pieces.get(c.new_under or "")
        if under is not None and under.id != p.id and (under.map, under.x, under.y) == (p.map, p.x, p.y):
            self._merge(under, p)
            return
        self._merge_at_point(p)
        if c.new_under is None and p.stack:  # no piece named underneath: to the bottom
            children = self.stacks[p.stack].children
            if children[0] != p.id:  # (a stack just made for it has it there already)
                children.remove(p.id)
                children.insert(0, p.id)

    # -- helpers ----------------------------------------------------------------------------
    def _local_id(self) -> str:
        self._next_local += 1
        return f"local-{self._next_local}"

    def _set_stack(self, sid: str, state: str) -> None:
        f = split(state, ";")
        map_id, x, y = _position_of(f)
        children = [i for i in f[3:] if i and not i.startswith("@@")]
        old = self.stacks.get(sid)
        for child in old.children if old else []:
            if child in self.pieces and child not in children:
                self.pieces[child].stack = None
        if old:
            self._unindex_stack(old)
        self.stacks[sid] = Stack(sid, map_id, x, y, children)
        self._stacks_at.setdefault((map_id, x, y), {})[sid] = None
        for child in children:
            p = self.pieces.get(child)
            if p is not None:
                if p.stack and p.stack != sid and p.stack in self.stacks:
                    self._leave_stack(p)  # a stack left empty is dropped, as VASSAL drops it
                p.stack = sid
                self._set_pos(p, map_id, x, y)

    def _set_deck(self, did: str, state: str) -> None:
        """Deck state: map;x;y;faceDown;id,id,... (counters/Deck.getState)."""
        f = split(state, ";")
        map_id, x, y = _position(state)
        children = [i for i in split(f[4], ",") if i] if len(f) > 4 else []
        self._set_stack(did, join([map_id or "null", x, y, *children], ";"))
        self.stacks[did].deck = True

    def _place_from_state(self, p: Piece) -> None:
        map_id, x, y = _position(p.traits[-1].state)
        self._set_pos(p, map_id, x, y)

    def _set_pos(self, p: Piece, map_id: str | None, x: int, y: int) -> None:
        key = (p.map, p.x, p.y)
        here = self.at.get(key)
        if here is not None:
            here.pop(p.id, None)
            if not here:
                del self.at[key]
        self.dirty.add(key)
        self.dirty.add((map_id, x, y))
        p.map, p.x, p.y = map_id, x, y
        self.at.setdefault((map_id, x, y), {})[p.id] = None

    def _unindex_stack(self, s: Stack) -> None:
        ids = self._stacks_at.get((s.map, s.x, s.y))
        if ids is not None:
            ids.pop(s.id, None)
            if not ids:
                del self._stacks_at[(s.map, s.x, s.y)]

    def _leave_stack(self, p: Piece) -> None:
        s = self.stacks.get(p.stack) if p.stack else None
        if s and p.id in s.children:
            s.children.remove(p.id)
            if not s.children and not s.deck:  # VASSAL drops a stack once it is empty
                del self.stacks[s.id]
                self._unindex_stack(s)
        p.stack = None

    def _merge(self, fixed: Piece, moving: Piece) -> None:
        """`StackMetrics.merge(fixed, moving)`: just above `fixed`, in a stack made for it if need be."""
        stack = self.stacks.get(fixed.stack or "")
        if stack is None:
            stack = self._new_stack(fixed)
        stack.children.insert(stack.children.index(fixed.id) + 1, moving.id)
        moving.stack = stack.id

    def _merge_at_point(self, p: Piece) -> None:
        """The merge finder of `MovePiece`: a stack or deck at the point, else a lone piece there,
        else a new local Stack (`stackOrPlacePiece`); a piece that does not stack stays alone."""
        if self.no_stack(p):
            return
        key = (p.map, p.x, p.y)
        # most moves end on a point with no stack and no other piece: nothing to look through
        target = self._stack_at(p.map, p.x, p.y, self.layer_of(p)) if key in self._stacks_at else None
        if target is not None:
            target.children.append(p.id)  # on top (`merge(stack, p)` merges onto its top piece)
            p.stack = target.id
            return
        here = self.at.get(key, ())
        alone = next((self.pieces[i] for i in here if i != p.id
                      and self.pieces[i].stack is None and not self.no_stack(self.pieces[i])
                      and self.layer_of(self.pieces[i]) == self.layer_of(p)), None) if len(here) > 1 else None
        if alone is not None:
            self._merge(alone, p)
        else:
            self._new_stack(p)

    def _new_stack(self, p: Piece) -> Stack:
        """A Stack the engine makes while replaying (its id is local, never logged)."""
        sid = self._local_id()
        stack = self.stacks[sid] = Stack(sid, p.map, p.x, p.y, [p.id])
        self._stacks_at.setdefault((p.map, p.x, p.y), {})[stack.id] = None
        p.stack = stack.id
        return stack

    @staticmethod
    def no_stack(p: Piece) -> bool:
        """`Properties.NO_STACK`: an Immobilized (`immob;`) trait unless its stacking option
        starts with STACK_NORMAL (`Immobilized.mySetType`).  It lies in the piece's type, so it
        is worked out once per type (every move of a piece asks)."""
        found = _NO_STACK.get(p.type)
        if found is None:
            found = False
            for t in p.traits:
                if t.prefix == "immob;":
                    f = t.fields
                    found = not (len(f) > 2 and f[2][:1] == STACK_NORMAL)
                    break
            if len(_NO_STACK) >= _TRAITS_MAX:
                _NO_STACK.clear()
            _NO_STACK[p.type] = found
        return found

    def layer_of(self, p: Piece) -> int:
        """The Game Piece Layer of a piece on its map (pieces of different layers never stack):
        one layer unless the map has layers (`layers`, from the module's LayeredPieceCollection)."""
        spec = self.layers.get(p.map)
        if spec is None:
            return 0
        prop, order = spec
        value = p.properties().get(prop, "")
        return order.index(value) if value in order else len(order)

    def _stack_at(self, map_id: str | None, x: int, y: int, layer: int | None = None) -> Stack | None:
        """The first (oldest) non-empty stack or deck at a point, as VASSAL merges onto it."""
        found = [self.stacks[i] for i in self._stacks_at.get((map_id, x, y), ()) if i in self.stacks]
        found = [st for st in found if (st.children or st.deck) and (layer is None or st.deck or self._stack_layer(st) == layer)]
        if len(found) < 2:
            return found[0] if found else None
        ids = {st.id for st in found}
        return next(st for st in self.stacks.values() if st.id in ids)  # rare: the oldest wins

    def _stack_layer(self, st: Stack) -> int:
        first = self.pieces.get(st.children[0]) if st.children else None
        return self.layer_of(first) if first else 0

    def on_map(self) -> list[Piece]:
        return [p for p in self.pieces.values() if p.map is not None]
