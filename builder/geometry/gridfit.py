"""The hex grid of a scanned board from a few hexes the designer knows (`hexforge fit-grid`, issue 35).

Given the pixel centres of three or more hexes with their printed ids, the map's numbering
turns each id into VASSAL's raw cell (nx, ny) (`javagrid.raw_cell`, as `getCenterPoint` does),
and a cell's centre is linear in the grid: along the columns `x0 + dx * nx`, across them
`y0 + dy * (ny + 1/2 if nx is odd)` (swapped on a sideways grid).  Two independent least-squares
lines give (x0, dx) and (y0, dy); both orientations are tried unless one is asked for, and the
one whose worst hex lies nearest its click wins.  A descending numbering counts from the
board's far edge, which depends on dx or dy: the fit is repeated until the cells stop changing.
The result is checked as every module is: each known hex is named by VASSAL at its click, and
every hex id round-trips (builder/geometry/roundtrip.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from builder.geometry import javagrid, roundtrip
from builder.geometry.hexmap import HexMap
from builder.geometry.javagrid import GridParams, NumberingParams

MAX_OFF = 0.25  # of a hex (dy): a known hex farther than this from the fitted centre is a wrong id or click


class FitError(ValueError):
    """The hexes given do not fix a grid, or fix one VASSAL cannot use; one line with the fix."""


@dataclass(frozen=True)
class Known:
    label: str
    x: float
    y: float


@dataclass(frozen=True)
class Fit:
    grid: GridParams
    area: tuple[int, int, int, int]
    rms: float                       # px, over the known hexes
    worst: tuple[str, float]         # the known hex farthest from its fitted centre, and how far (px)
    hexes: int                       # hexes on the board with this grid


def _line(ts: list[float], ps: list[float]) -> tuple[float, float]:
    """Least squares p = a + b t: (a, b)."""
    n = len(ts)
    mt, mp = sum(ts) / n, sum(ps) / n
    stt = sum((t - mt) ** 2 for t in ts)
    b = sum((t - mt) * (p - mp) for t, p in zip(ts, ps)) / stt
    return mp - b * mt, b


def _fit_one(known: list[Known], n: NumberingParams, board: tuple[int, int], sideways: bool,
             start: GridParams) -> tuple[GridParams, list[float]]:
    numbered = []
    for k in known:
        try:
            numbered.append(javagrid.numbered_cell(n, k.label))
        except javagrid.BadCoords:
            raise FitError(f"{k.label} is not a hex id of this map's numbering (map.yaml numbering)") from None
    g = GridParams(start.dx, start.dy, start.x0, start.y0, sideways)
    cells = None
    for _ in range(12):  # a descending numbering moves the cells with dx/dy: until they settle
        new = [javagrid.raw_cell(g, n, board[0], board[1], c, r) for c, r in numbered]
        if new == cells:
            break
        cells = new
        along = [float(nx) for nx, _ in cells]
        across = [ny + (0.5 if nx % 2 else 0.0) for nx, ny in cells]
        if len(set(along)) < 2 or len(set(across)) < 2:
            raise FitError("the hexes given lie in one line of hexes: give at least three hexes, not all in one "
                           "column or row (two far apart and one off their line fit best)")
        pa = [k.y if sideways else k.x for k in known]
        pb = [k.x if sideways else k.y for k in known]
        x0, dx = _line(along, pa)
        y0, dy = _line(across, pb)
        if dx <= 0 or dy <= 0:
            raise FitError("the hexes given run against the numbering (ids grow the other way): check the ids "
                           "and the numbering's h_descend / v_descend")
        g = GridParams(dx, dy, round(x0), round(y0), sideways)
    errs = []
    for k, (nx, ny) in zip(known, cells):
        a = g.x0 + g.dx * nx
        b = g.y0 + g.dy * (ny + (0.5 if nx % 2 else 0.0))
        cx, cy = (b, a) if sideways else (a, b)
        errs.append(math.hypot(cx - k.x, cy - k.y))
    return g, errs


def fit_grid(known: list[Known], n: NumberingParams, board: tuple[int, int], start: GridParams,
             sideways: bool | None = None, area: tuple[int, int, int, int] | None = None) -> Fit:
    """The grid through the known hexes (see the module docstring); raises FitError."""
    if len(known) < 3:
        raise FitError(f"{len(known)} hex(es) given: give the centres of at least three hexes")
    if len({k.label for k in known}) != len(known):
        raise FitError("a hex id is given twice: give each hex once")
    tried, problems = [], []
    for side in ((False, True) if sideways is None else (sideways,)):
        try:
            g, errs = _fit_one(known, n, board, side, start)
        except (FitError, ZeroDivisionError) as exc:
            problems.append(str(exc) if isinstance(exc, FitError) else "the hexes given fix no grid")
            continue
        tried.append((max(errs), g, errs))
    if not tried:
        raise FitError(problems[0])
    worst_err, g, errs = min(tried, key=lambda t: t[0])
    i = max(range(len(known)), key=lambda j: errs[j])
    if worst_err > MAX_OFF * g.dy:
        raise FitError(f"{known[i].label} lies {errs[i]:.0f} px from where the other hexes put its centre (a hex is "
                       f"{g.dy:.0f} px across): check its id and its position")
    if not (10 < g.dx <= 400 and 10 < g.dy <= 400):
        raise FitError(f"the fitted hexes are {g.dx:.1f} x {g.dy:.1f} px; map.yaml takes 10 to 400 px: check the positions")
    area = area or (0, 0, board[0], board[1])
    geo = HexMap(g, n, board, area)
    try:
        labels = geo.labels
    except ValueError as exc:
        raise FitError(f"{exc}: check the numbering") from None
    for k in known:
        named = geo.label_at(k.x, k.y)
        if named != k.label:
            raise FitError(f"VASSAL would name the point {k.x:g},{k.y:g} {named}, not {k.label}: check its id and position")
        if k.label not in geo:
            raise FitError(f"{k.label} is not wholly inside the grid area {list(area)}: enlarge the area")
    bad = roundtrip.problem(geo)
    if bad:
        raise FitError(f"{bad}; {roundtrip.hint(geo)}")
    rms = math.sqrt(sum(e * e for e in errs) / len(errs))
    return Fit(g, area, rms, (known[i].label, errs[i]), len(labels))
