"""The board as VASSAL's commands leave it: every piece with its traits, map, pixel and stack.

`Board.apply` does what VASSAL's command classes do to its game state (§4.5): AddPiece,
RemovePiece, ChangePiece (full new state), MovePiece (with stacking at the destination).
Undo steps carry their inverse commands, so applying them restores the earlier board.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from builder.vassal.pieces import Trait, unchain
from builder.vassal.sequence import join, split
from validators.vlog.commands import AddPiece, ChangePiece, Command, MovePiece, RemovePiece


@dataclass
class Piece:
    id: str
    type: str
    state: str
    map: str | None = None
    x: int = 0
    y: int = 0
    stack: str | None = None  # id of the Stack holding it
    _parsed: tuple = field(default=(None, None, []), repr=False, compare=False)
    _props: tuple = field(default=(None, {}), repr=False, compare=False)

    @property
    def traits(self) -> list[Trait]:
        """The traits, parsed once per state (parsing is the costly part of a replay)."""
        if self._parsed[0] is not self.type or self._parsed[1] is not self.state:
            self._parsed = (self.type, self.state, unchain(self.type, self.state))
        return self._parsed[2]

    @property
    def name(self) -> str:
        """The name VASSAL shows: the BasicPiece name changed by active Layer level names."""
        traits = self.traits
        name = traits[-1].fields[3] if len(traits[-1].fields) > 3 else ""
        for t in reversed(traits[:-1]):
            if t.prefix == "emb2;":
                name = _layer_name(t, name)
        return name

    def properties(self) -> dict[str, str]:
        """Marker-trait properties (fixed properties such as Side or UnitId)."""
        traits = self.traits
        if self._props[0] is traits:
            return self._props[1]
        out: dict[str, str] = {}
        for t in traits:
            if t.prefix == "mark;":
                out.update(zip(split(t.type[5:], ","), split(t.state, ",")))
        self._props = (traits, out)
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


@dataclass
class Stack:
    id: str
    map: str | None
    x: int
    y: int
    children: list[str] = field(default_factory=list)
    deck: bool = False  # a draw pile: pieces dropped on it join it even when it is empty


def _position(state: str) -> tuple[str | None, int, int]:
    f = split(state, ";") + ["", "", ""]
    try:
        return (None if f[0] in ("", "null") else f[0]), int(f[1] or 0), int(f[2] or 0)
    except ValueError:
        return None, 0, 0


class Board:
    def __init__(self) -> None:
        self.pieces: dict[str, Piece] = {}
        self.stacks: dict[str, Stack] = {}
        self._next_local = 0
        self.version = 0  # bumped by every command, so views of the board know when to refresh
        self.at: dict[tuple[str | None, int, int], dict[str, None]] = {}  # position -> piece ids (ordered)
        self.dirty: set[tuple[str | None, int, int]] = set()  # positions changed since a view last looked
        self._stacks_at: dict[tuple[str | None, int, int], dict[str, None]] = {}  # position -> stack ids

    def apply(self, c: Command) -> None:
        self.version += 1
        if isinstance(c, AddPiece):
            self._add(c)
        elif isinstance(c, RemovePiece):
            self._remove(c.id)
        elif isinstance(c, ChangePiece):
            self._change(c)
        elif isinstance(c, MovePiece):
            self._move(c)

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
        self.pieces[pid] = p
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
        target = self._stack_at(c.new_map, c.new_x, c.new_y)
        if target is not None:
            under = c.new_under
            at = target.children.index(under) + 1 if under in target.children else len(target.children)
            target.children.insert(at, p.id)
            p.stack = target.id

    # -- helpers ----------------------------------------------------------------------------
    def _local_id(self) -> str:
        self._next_local += 1
        return f"local-{self._next_local}"

    def _set_stack(self, sid: str, state: str) -> None:
        f = split(state, ";")
        map_id, x, y = _position(state)
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
                    other = self.stacks[p.stack].children
                    if child in other:
                        other.remove(child)
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

    def _stack_at(self, map_id: str | None, x: int, y: int) -> Stack | None:
        """The first (oldest) non-empty stack or deck at a point, as VASSAL merges onto it."""
        found = [self.stacks[i] for i in self._stacks_at.get((map_id, x, y), ()) if i in self.stacks]
        found = [st for st in found if st.children or st.deck]
        if len(found) < 2:
            return found[0] if found else None
        ids = {st.id for st in found}
        return next(st for st in self.stacks.values() if st.id in ids)  # rare: the oldest wins

    def on_map(self) -> list[Piece]:
        return [p for p in self.pieces.values() if p.map is not None]
