"""An exact port of VASSAL 3.7's HexGrid and HexGridNumbering arithmetic.

VASSAL decides what a player sees as a hex's name; a reader that disagrees by one pixel
reports the wrong hex.  So this module copies the Java code's integer truncation, its
float32 hexagon and its `Area.contains` insideness rule (vassal-formats.md §5, verified
against a Java harness).  Both directions are here: point -> name (`location_name`, what
players and logs see) and name -> point (`location_point`, where Send-To-Location and
grid-located set-ups put a piece); `roundtrip` checks that a map's two agree.  Everything here
works in board-local pixels.
"""
from __future__ import annotations

import math
import struct
import re

from builder.record import FrozenRecord

_FLOAT = struct.Struct("f")


def _f32(v: float) -> float:
    """`v` rounded to Java's float.  One operation on two floats, done in double and rounded once,
    gives exactly the float result (a double carries more than twice a float's precision), so
    this stands in for float arithmetic without importing numpy on the audit's path."""
    return _FLOAT.unpack(_FLOAT.pack(v))[0]


def _round_f32(v) -> int:
    """Java Math.round(float)."""
    return int(math.floor(_f32(_f32(v) + 0.5)))


def _round_f64(v: float) -> int:
    """Java Math.round(double)."""
    return int(math.floor(v + 0.5))


class GridParams(FrozenRecord):
    """The attributes of VASSAL's HexGrid (dx, dy, x0, y0, sideways)."""

    __slots__ = _fields = ("dx", "dy", "x0", "y0", "sideways")

    def __init__(self, dx: float, dy: float, x0: int, y0: int, sideways: bool = False):
        self._set_fields(dx, dy, x0, y0, sideways)


class NumberingParams(FrozenRecord):
    """The attributes of VASSAL's HexGridNumbering that decide a location name."""

    __slots__ = _fields = ("first", "sep", "h_type", "v_type", "h_leading", "v_leading", "h_off", "v_off",
                           "h_descend", "v_descend", "stagger")

    def __init__(self, first: str = "H", sep: str = "", h_type: str = "N", v_type: str = "N",
                 h_leading: int = 1, v_leading: int = 1, h_off: int = 1, v_off: int = 1,
                 h_descend: bool = False, v_descend: bool = False, stagger: bool = True):
        self._set_fields(first, sep, h_type, v_type, h_leading, v_leading, h_off, v_off, h_descend, v_descend,
                         stagger)


def raw_centre(g: GridParams, nx: int, ny: int) -> tuple[int, int]:
    """Centre of raw cell (nx, ny) in board pixels (`hexPointCenterFromRawIndex`)."""
    x = int(g.dx * nx + g.x0)
    if nx % 2 == 0:
        y = int(g.dy * ny + g.y0)
    else:
        y = int(g.dy * ny + int(g.dy / 2) + g.y0)
    return (y, x) if g.sideways else (x, y)


def _hex_polygon(cx: int, cy: int, dx: float, dy: float) -> list[tuple[int, int]]:
    """`getSingleHexShape` in the un-rotated frame, float32 as in Java."""
    x, y, fdx, fdy = _f32(cx), _f32(cy), _f32(dx), _f32(dy)
    r = _f32(_f32(2 * fdx) / 3)
    h = _f32(0.5 * r)
    yt, yb = _f32(y - _f32(0.5 * fdy)), _f32(y + _f32(0.5 * fdy))
    return [
        (_round_f32(x - r), _round_f32(y)),
        (_round_f32(x - h), _round_f32(yt)),
        (_round_f32(x + h) + 1, _round_f32(yt)),
        (_round_f32(x + r) + 1, _round_f32(y)),
        (_round_f32(x + h) + 1, _round_f32(yb) + 1),
        (_round_f32(x - h), _round_f32(yb) + 1),
    ]


def polygon_contains(poly: list[tuple[int, int]], x: float, y: float) -> bool:
    """java.awt.geom.Area.contains: left/top edges inside, right/bottom outside."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    if not (min(xs) <= x < max(xs) and min(ys) <= y < max(ys)):
        return False
    crossings = 0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if y0 == y1:
            continue
        if y0 > y1:
            x0, y0, x1, y1 = x1, y1, x0, y0
        if y0 <= y < y1 and x < max(x0, x1):
            if x < min(x0, x1) or x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                crossings += 1
    return crossings % 2 == 1


def snap(g: GridParams, x: float, y: float) -> tuple[int, int]:
    """The hex centre VASSAL snaps board point (x, y) to (`snapToHex`)."""
    if g.sideways:
        x, y = y, x
    gu = GridParams(g.dx, g.dy, g.x0, g.y0, False)
    nx = math.floor((x - g.x0 + g.dx / 2) / g.dx)
    if nx % 2 == 0:
        ny = math.floor((y - g.y0 + g.dy / 2) / g.dy)
    else:
        ny = math.floor((y - g.y0) / g.dy)
    c = raw_centre(gu, nx, ny)
    if not polygon_contains(_hex_polygon(*c, g.dx, g.dy), x, y):
        offsets = [(-1, -1), (-1, 0), (1, -1), (1, 0)] if nx % 2 == 0 else [(-1, 0), (-1, 1), (1, 0), (1, 1)]
        for ox, oy in offsets:
            c2 = raw_centre(gu, nx + ox, ny + oy)
            if polygon_contains(_hex_polygon(*c2, g.dx, g.dy), x, y):
                c = c2
                break
    return (c[1], c[0]) if g.sideways else c


def _raw_col(g: GridParams, x: float, y: float) -> int:
    if g.sideways:
        x, y = y, x
    return math.floor((x - g.x0) / g.dx + 0.5)


def _raw_row(g: GridParams, x: float, y: float) -> int:
    if g.sideways:
        x, y = y, x
    nx = _round_f64((x - g.x0) / g.dx)
    if nx % 2 == 0:
        return _round_f64((y - g.y0) / g.dy)
    return _round_f64((y - g.y0 - g.dy / 2) / g.dy)


def _part_name(v: int, kind: str, leading: int) -> str:
    """`RegularGridNumbering.getName(int, char, int)`."""
    s = "-" if v < 0 else ""
    v = abs(v)
    if kind == "A":
        while True:
            s += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 26]
            v -= 26
            if v < 0:
                return s
    while leading > 0 and v < 10**leading:
        s += "0"
        leading -= 1
    return s + str(v)


def location_name(g: GridParams, n: NumberingParams, board_w: int, board_h: int, x: float, y: float) -> str:
    """The grid location VASSAL shows for board point (x, y) (`HexGridNumbering.locationName`)."""
    max_rows = math.floor(board_h / g.dx + 0.5)
    max_cols = math.floor(board_w / g.dy + 0.5)
    rc = _raw_col(g, x, y)
    col, row = rc, _raw_row(g, x, y)
    if n.v_descend and g.sideways:
        col = max_rows - col
    if n.h_descend and not g.sideways:
        col = max_cols - col
    if n.v_descend and not g.sideways:
        row = max_rows - row
    if n.h_descend and g.sideways:
        row = max_cols - row
    if n.stagger and rc % 2 != 0:
        row += -1 if (n.h_descend if g.sideways else n.v_descend) else 1
    row_name = _part_name(row + n.v_off, n.v_type, n.v_leading)
    col_name = _part_name(col + n.h_off, n.h_type, n.h_leading)
    return col_name + n.sep + row_name if n.first == "H" else row_name + n.sep + col_name


# -- name -> point: RegularGridNumbering.getLocation and HexGridNumbering.getCenterPoint ---------
class BadCoords(ValueError):
    """VASSAL's MapGrid.BadCoords: the text is not a location of this numbering."""


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALPHABETIC_MATCH = "-?(?:" + "|".join(f"{c}+" for c in _ALPHABET) + ")"


def _format_tokens(fmt: str) -> list[str]:
    """`SequenceEncoder.Decoder(fmt, '$')`: its tokens, escapes (`\\$`) and quotes as in Java."""
    tokens, start, stop, val = [], 0, len(fmt), fmt
    while val is not None:
        if start == stop:
            tokens.append("")
            break
        buf, tok, i = "", None, start
        while i < stop:
            if val[i] == "$":
                if i > 0 and val[i - 1] == "\\":
                    buf += val[start:i - 1]
                    start = i
                else:
                    if not buf:
                        tok = val[start:i]
                    else:
                        buf += val[start:i]
                    start = i + 1
                    break
            i += 1
        if start < i:  # reached the end without a delimiter
            if not buf:
                tok = val[start:]
            else:
                buf += val[start:stop]
            val = None
        t = tok if tok is not None else buf
        tokens.append(t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t)
    return tokens


def _matching_pattern(kind: str, leading: int) -> str:
    """`RegularGridNumbering.getMatchingPattern`."""
    return _ALPHABETIC_MATCH if kind == "A" else "-?[0-9]{" + str(leading + 1) + ",}"


def _location_pattern(n: NumberingParams, fmt: str) -> tuple[re.Pattern, int, int]:
    """The regular expression `getLocation` builds from the location format, with the
    numbers of its row and column groups."""
    tokens = _format_tokens(fmt)
    regex, col_group, row_group, groups, is_property = "", 0, 0, 0, True
    for k, token in enumerate(tokens):
        is_property = not is_property
        more = k < len(tokens) - 1
        if not token:
            continue
        if not is_property or not more:
            regex += re.escape(token)
        elif token == "gridLocation":
            h = "(" + _matching_pattern(n.h_type, n.h_leading) + ")"
            v = "(" + _matching_pattern(n.v_type, n.v_leading) + ")"
            if n.first == "H":
                regex += h + (re.escape(n.sep) if n.sep else "") + v
                col_group, row_group, groups = groups + 1, groups + 2, groups + 2
            else:
                regex += v + re.escape(n.sep) + h
                row_group, col_group, groups = groups + 1, groups + 2, groups + 2
        elif token == "row":
            regex += "(" + _matching_pattern(n.v_type, n.v_leading) + ")"
            groups += 1
            row_group = groups
        elif token == "column":
            regex += "(" + _matching_pattern(n.h_type, n.h_leading) + ")"
            groups += 1
            col_group = groups
    if not regex or not col_group or not row_group:
        raise BadCoords(f"location format {fmt!r} names no row and column")
    return re.compile(regex), row_group, col_group


def _parse_part(name: str, kind: str) -> int:
    """`RegularGridNumbering.parseName`."""
    if kind != "A":
        v = int(name)
        if not -2**31 <= v < 2**31:
            raise BadCoords(f"{name} is out of Java's int range")
        return v
    value, index, negative = 0, 0, name.startswith("-")
    if negative:
        index += 1
    while index < len(name) and name[index].isupper():
        value += 26 if index < len(name) - 1 else _ALPHABET.find(name[index])
        index += 1
    return -value if negative else value


def _java_rem(a: int, b: int) -> int:
    """Java's `%` (the sign of the dividend)."""
    return int(math.fmod(a, b))


def _max_rows(g: GridParams, board_h: int) -> int:
    return math.floor(board_h / g.dx + 0.5)


def _max_cols(g: GridParams, board_w: int) -> int:
    return math.floor(board_w / g.dy + 0.5)


def raw_cell(g: GridParams, n: NumberingParams, board_w: int, board_h: int, col: int, row: int) -> tuple[int, int]:
    """The raw (column, row) of a numbered (col, row), as `getCenterPoint` finds it: the stagger
    undone by the numbered column's parity, then the descending flips."""
    if n.stagger and _java_rem(col, 2) != 0:
        row += 1 if (n.h_descend if g.sideways else n.v_descend) else -1
    if g.sideways:
        if n.v_descend:
            col = _max_rows(g, board_h) - col
        if n.h_descend:
            row = _max_cols(g, board_w) - row
    else:
        if n.h_descend:
            col = _max_cols(g, board_w) - col
        if n.v_descend:
            row = _max_rows(g, board_h) - row
    return col, row


def numbered_cell(n: NumberingParams, location: str) -> tuple[int, int]:
    """The numbered (col, row) of a hex id, offsets taken off (`getLocation`'s parse); raises
    BadCoords when the text is not an id of this numbering."""
    pattern, row_group, col_group = _location_pattern(n, "$gridLocation$")
    m = pattern.fullmatch(location)
    if m is None:
        raise BadCoords(f"{location!r} is not a location of this grid")
    return _parse_part(m.group(col_group), n.h_type) - n.h_off, _parse_part(m.group(row_group), n.v_type) - n.v_off


def center_point(g: GridParams, n: NumberingParams, board_w: int, board_h: int, col: int, row: int) -> tuple[int, int]:
    """`HexGridNumbering.getCenterPoint(col, row)`: the board point of a numbered (col, row).

    Note the order VASSAL uses: the stagger is undone by the parity of the *numbered* column,
    before the descending flip, while `getRow` staggers by the *raw* column.  With a flipped
    column and an odd flip maximum the two disagree: the point lands one hex off.
    """
    col, row = raw_cell(g, n, board_w, board_h, col, row)
    x = int(col * g.dx) + g.x0
    y = int(row * g.dy) if _java_rem(col, 2) == 0 else int(row * g.dy + g.dy / 2)
    y += g.y0
    return (y, x) if g.sideways else (x, y)


def location_point(g: GridParams, n: NumberingParams, board_w: int, board_h: int, location: str,
                   fmt: str = "$gridLocation$") -> tuple[int, int]:
    """The board point VASSAL sends a location name to (`RegularGridNumbering.getLocation`);
    raises BadCoords when the text is not a location of this numbering."""
    pattern, row_group, col_group = _location_pattern(n, fmt)
    m = pattern.fullmatch(location)
    if m is None:
        raise BadCoords(f"{location!r} is not a location of this grid")
    row = _parse_part(m.group(row_group), n.v_type)
    col = _parse_part(m.group(col_group), n.h_type)
    return center_point(g, n, board_w, board_h, col - n.h_off, row - n.v_off)
