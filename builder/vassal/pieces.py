"""Game-piece definitions: traits and their nested TAB encoding (vassal-formats.md §3).

A piece is a chain of traits, outermost first, ending with the BasicPiece.  Each trait is a
(type, state) pair; `chain` nests them the way `Decorator.getType/getState` does and
`unchain` takes them apart again (the log reader uses it too).
"""
from __future__ import annotations

from functools import cached_property

from builder.record import FrozenRecord
from builder.vassal.sequence import join, split

BASIC = "piece;"
MAP_ID = "Main Map"  # the one map of every module
FLIP_KEY = "70,130"  # Ctrl+F
DELETE_KEY = "68,130"  # Ctrl+D
CTRL = 130


class Trait(FrozenRecord):
    """One trait of a piece definition: its type and its state."""

    _fields = ("type", "state")
    __slots__ = (*_fields, "__dict__")  # __dict__: the cached properties

    def __init__(self, type: str, state: str = ""):  # noqa: A002 - VASSAL's word for it
        object.__setattr__(self, "type", type)  # one a trait of every piece a log adds: no _set_fields loop
        object.__setattr__(self, "state", state)

    @cached_property  # asked for every trait of a piece on every stacking and property look
    def prefix(self) -> str:
        """The factory key VASSAL dispatches on: up to and including the first ';'."""
        i = self.type.find(";")
        return self.type if i < 0 else self.type[: i + 1]

    @cached_property
    def fields(self) -> list[str]:
        return split(self.type[len(self.prefix):], ";")


def chain(traits: list[Trait]) -> tuple[str, str]:
    """Nest traits (outermost first, BasicPiece last) into one type and one state string."""
    typ, state = traits[-1].type, traits[-1].state
    for t in reversed(traits[:-1]):
        typ, state = join([t.type, typ], "\t"), join([t.state, state], "\t")
    return typ, state


MAX_TRAITS = 300  # traits of one piece; each level re-reads the rest, so the work grows with their square


class PieceTooDeep(ValueError):
    """A piece definition nesting more than MAX_TRAITS traits (hostile: real pieces hold tens)."""


def unchain(typ: str, state: str) -> list[Trait]:
    """Split a nested type/state pair back into traits, outermost first.

    The innermost BasicPiece (`piece;`) is never split further: its own fields may hold
    TABs, exactly as VASSAL's `createPiece` hands it over whole.  Raises PieceTooDeep past
    MAX_TRAITS traits (a run of that many escapes before a TAB says so before any split).
    """
    if "\\" * (MAX_TRAITS - 1) + "\t" in typ:
        raise PieceTooDeep(f"a piece nests more than {MAX_TRAITS} traits")
    out = []
    while not typ.startswith(BASIC):
        if len(out) >= MAX_TRAITS:
            raise PieceTooDeep(f"a piece nests more than {MAX_TRAITS} traits")
        tt, ss = split(typ, "\t"), split(state, "\t")
        out.append(Trait(tt[0], ss[0] if ss else ""))
        if len(tt) < 2:
            return out
        typ, state = tt[1], (ss[1] if len(ss) > 1 else "")
    out.append(Trait(typ, state))
    return out


def add_piece(piece_id: str | None, traits: list[Trait]) -> str:
    """The AddPiece command text `+/id/type/state` (PieceSlot and save form)."""
    typ, state = chain(traits)
    return "+/" + join([piece_id or "null", typ, state], "/")


# ---- trait constructors ---------------------------------------------------------------
def basic_piece(image: str, name: str, gpid: str = "", where: tuple[str, int, int] | None = None) -> Trait:
    map_id, x, y = where or ("null", 0, 0)
    return Trait("piece;" + join(["", "", image, name], ";"), join([map_id, x, y, gpid, 0], ";"))


def properties(props: dict[str, str]) -> Trait:
    """Marker trait: fixed piece properties readable as $Name$ and by the auditor."""
    return Trait("mark;" + join(props.keys(), ","), join(props.values(), ","))


def two_sided_layer(name: str, images: tuple[str, str], level_names: tuple[str, str],
                    menu: str = "Flip", key: str = FLIP_KEY, level: int = 1) -> Trait:
    """An always-active two-level Layer stepped by `key` (pattern B of §3.6); state = level."""
    fields = [
        "", CTRL, "",                 # activate command, modifiers, key (unused)
        menu, CTRL, "",               # increase command
        "", CTRL, "",                 # decrease command
        "", "", "1",                  # reset command, key, level
        False, 0, 0,                  # draw underneath, x/y offset
        join(images, ","), join(level_names, ","),
        True, name, "", "",           # loop levels, layer name, random key/text
        False, "", 1, 1,              # follow property, property, first level value, version
        True, "", key, "",            # always active, activate/increase/decrease keys
        "", 1.0, "", True,            # description, scale, only-if property, state
    ]
    return Trait("emb2;" + join(fields, ";"), str(level))


def prototype(name: str) -> Trait:
    return Trait("prototype;" + name, "")


def report(keys: list[str], fmt: str, description: str = "") -> Trait:
    return Trait("report;" + join([join(keys, ","), fmt, "", "", description, False], ";"), "-1")


def trigger(name: str, key: str) -> Trait:
    """A Trigger Action that only offers a menu command and its keystroke (no actions)."""
    return Trait("macro;" + join([name, name, key, "", "", "", False, "", "", "counted", "", "", "1", False, "",
                                  "1", "1"], ";"), "")


def send_to_zone(name: str, key: str, map_id: str, zone: str) -> Trait:
    """A Send To Location command to a zone's centre (SendToLocation.myGetType, destination `Z`);
    state: the map and point it was sent from, empty until it is used."""
    return Trait("sendto;" + join([name, key, map_id, "", "", "", "", "", "", "", "", "", name, "Z", zone, "", "", ""], ";"),
                 ";;")


def restricted(sides: list[str]) -> Trait:
    """Only players of these sides may move the piece or use its menu."""
    return Trait("restrict;" + join([join(sides, ","), False, True, ""], ";"), "")


def mask(image: str, mask_name: str, key: str, menu: str = "Hide from opponent") -> Trait:
    """A Mask (`obs;`, Obscurable.myGetType) any player of the owning side may set or lift.

    Access `side:` makes the owner a side name, not a player's password, so a set-up can start
    the piece masked (state `<side>;false|0`: GlobalOptions nonOwnerUnmaskable=Never writes the
    options `false|0`).  Display `I` (inset): the owner sees the face with the mask in a corner.
    """
    return Trait("obs;" + join([key, image, menu, "I", mask_name, "side:", "Peek", "Hidden from the opponent",
                                False, "", ""], ";"), "null;")


def masked_state(side: str) -> str:
    """The Mask state of a piece masked by a side (Obscurable.myGetState)."""
    return join([side, "false|0"], ";")


MOVED_IMAGE = "moved.png"


def mark_moved() -> Trait:
    return Trait("markmoved;" + join([MOVED_IMAGE, 20, -24, "Mark Moved", "77,130", "", False,
                                       "Mark Moved", "", "Mark Not Moved", ""], ";"), "false")


def delete() -> Trait:
    """A Delete command (Delete.myGetType): the engine logs a RemovePiece, as a marker taken off the
    table.  Markers only: a unit leaves play by its Send To commands, to its box."""
    return Trait("delete;" + join(["Delete", DELETE_KEY, ""], ";"), "")


def placeholder_piece() -> Trait:
    """The innermost BasicPiece of a prototype definition, discarded when spliced in."""
    return Trait("piece;;;;", "null;0;0;;0")
