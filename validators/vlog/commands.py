"""Typed VASSAL commands, parsed from one leaf of the command tree (vassal-formats.md §4.5-4.7).

Field orders are VASSAL's.  The records are plain slotted records (builder/record.py: equal
by value, shown with their fields), read and never changed once parsed: a frozen dataclass
costs several times as much to make, and a long log is tens of thousands of them (issue 15);
written out rather than made by `dataclass`, whose machinery cost every audit start-up time.
Anything no known prefix claims becomes `Unknown`: kept and reported, never fatal, exactly as
VASSAL ignores a string no encoder claims.
"""
from __future__ import annotations

from builder.vassal.sequence import split
from builder.record import Record


class AddPiece(Record):
    __slots__ = ("id", "type", "state")

    def __init__(self, id: str | None, type: str, state: str):
        self.id, self.type, self.state = id, type, state


class RemovePiece(Record):
    __slots__ = ("id",)

    def __init__(self, id: str):
        self.id = id


class ChangePiece(Record):
    __slots__ = ("id", "new_state", "old_state")

    def __init__(self, id: str, new_state: str, old_state: str | None):
        self.id, self.new_state, self.old_state = id, new_state, old_state


class MovePiece(Record):
    __slots__ = ("id", "new_map", "new_x", "new_y", "new_under", "old_map", "old_x", "old_y", "old_under", "player")

    def __init__(self, id: str, new_map: str | None, new_x: int, new_y: int, new_under: str | None,
                 old_map: str | None, old_x: int, old_y: int, old_under: str | None, player: str | None):
        self.id, self.new_map, self.new_x, self.new_y, self.new_under = id, new_map, new_x, new_y, new_under
        self.old_map, self.old_x, self.old_y, self.old_under, self.player = old_map, old_x, old_y, old_under, player


class Chat(Record):
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class PlayerJoin(Record):
    __slots__ = ("user", "name", "side")

    def __init__(self, user: str, name: str, side: str):
        self.user, self.name, self.side = user, name, side


class PlayerRemove(Record):
    __slots__ = ("user",)

    def __init__(self, user: str):
        self.user = user


class BoardPicker(Record):
    __slots__ = ("map_id", "boards")

    def __init__(self, map_id: str, boards: tuple[tuple[str, bool, int, int], ...]):
        self.map_id, self.boards = map_id, boards  # boards: (name, reversed, column, row) each


class Turn(Record):
    __slots__ = ("tracker", "state")

    def __init__(self, tracker: str, state: str):
        self.tracker, self.state = tracker, state


class PropertyChange(Record):
    __slots__ = ("name", "old", "new", "container")

    def __init__(self, name: str, old: str, new: str, container: str):
        self.name, self.old, self.new, self.container = name, old, new, container


class PropertyRestore(Record):
    __slots__ = ("name", "value", "container")

    def __init__(self, name: str, value: str, container: str):
        self.name, self.value, self.container = name, value, container


class SpecialDice(Record):
    """A Special Dice button's results (`SHOW_RESULTS`): button name and the face indexes rolled."""

    __slots__ = ("name", "results")

    def __init__(self, name: str, results: tuple[str, ...]):
        self.name, self.results = name, results


class UndoMarker(Record):
    __slots__ = ("start",)

    def __init__(self, start: bool):
        self.start = start


class Marker(Record):
    """Framing and bookkeeping with no effect on the board (begin/end save, at-start marker, notes...)."""

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str = ""):
        self.kind, self.text = kind, text


class Unknown(Record):
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


Command = (AddPiece | RemovePiece | ChangePiece | MovePiece | Chat | PlayerJoin | PlayerRemove | BoardPicker
           | Turn | PropertyChange | PropertyRestore | SpecialDice | UndoMarker | Marker | Unknown)

_MARKERS = {"begin_save": "begin_save", "end_save": "end_save", "SETUP_STACK\t": "setup_stack"}
_NOTES = ("NOTES\t", "PNOTES\t", "PNOTE\t", "SNOTE\t")


def _int(s: str) -> int:
    try:
        return int(s)
    except ValueError:
        return 0


_NULLS = frozenset(("", "null"))


def _null(s: str | None) -> str | None:
    return None if s is None or s in _NULLS else s


def parse(text: str) -> Command:
    """One leaf command, by its prefix.  No two prefixes claim the same text, so the order is
    free: the commands a log is mostly made of come first, each told by comparing its first two
    characters (issue 29: a long log is tens of thousands of them)."""
    kind = text[:2]
    if kind == "M/":
        return _move(text[2:])
    if kind == "CH" and text.startswith("CHAT"):
        return Chat(text[4:])
    if kind == "+/":
        f = _fields(text[2:]) + ["", "", ""]
        return AddPiece(_null(f[0]), f[1], f[2])
    if kind == "D/":
        f = _fields(text[2:])
        return ChangePiece(f[0], f[1] if len(f) > 1 else "", f[2] if len(f) > 2 else None)
    if kind == "-/":
        return RemovePiece(text[2:])
    if text.startswith("MutableProperty\t"):
        f = split(text, "\t") + ["", "", "", ""]
        return PropertyChange(f[1], f[2], f[3], f[4])
    if text == "":
        return Marker("null")
    if text in _MARKERS or text.startswith("SETUP_STACK\t"):
        return Marker(_MARKERS.get(text, "setup_stack"))
    if text.startswith("UNDO\t"):
        return UndoMarker(text[5:] == "true")
    if text.startswith("PLAYER\t"):
        f = split(text, "\t") + ["", "", ""]
        return PlayerJoin(f[1], f[2], f[3])
    if text.startswith("PYREMOVE\t"):
        return PlayerRemove(text[len("PYREMOVE\t"):])
    if text.startswith("GlobalProperty\t"):
        f = split(text, ";") + ["", "", ""]
        return PropertyRestore(f[1], f[2], f[3])
    if text.startswith("TURN"):
        f = split(text, "\t")
        return Turn(f[0][4:], f[1] if len(f) > 1 else "")
    if text.startswith("SHOW_RESULTS\t"):
        f = split(text, "\t") + [""]
        return SpecialDice(f[1], tuple(f[2:-1]))
    if text.startswith(_NOTES):
        return Marker("notes", text)
    head = text.split("\t", 1)[0]
    if head.endswith("BoardPicker") and "\t" in text:
        return _board_picker(text)
    return Unknown(text)


def _fields(body: str) -> list[str]:
    """`split(body, "/")`: one `str.split` when there is no backslash or quote to decode (nearly
    every piece command)."""
    return body.split("/") if "\\" not in body and "'" not in body else split(body, "/")


def _move(body: str) -> MovePiece:
    f = _fields(body)
    if len(f) != 10:
        f = (f + [""] * 10)[:10]
    i, mp, x, y, under, old_mp, old_x, old_y, old_under, player = f
    try:  # the four numbers at once (a move is most of a log's commands); any bad one: each alone
        nx, ny, ox, oy = int(x), int(y), int(old_x), int(old_y)
    except ValueError:
        nx, ny, ox, oy = _int(x), _int(y), _int(old_x), _int(old_y)
    # `_null` of each text field, written out: no call and no hash of the field (a hot path)
    return MovePiece(i, None if mp == "" or mp == "null" else mp, nx, ny,
                     None if under == "" or under == "null" else under,
                     None if old_mp == "" or old_mp == "null" else old_mp, ox, oy,
                     None if old_under == "" or old_under == "null" else old_under,
                     None if player == "" or player == "null" else player)


def _board_picker(text: str) -> BoardPicker:
    f = split(text, "\t")
    boards = []
    for i in range(1, len(f) - 2, 3):
        name, _, rev = f[i].partition("/")
        boards.append((name, rev == "rev", _int(f[i + 1]), _int(f[i + 2])))
    return BoardPicker(f[0][: -len("BoardPicker")], tuple(boards))
