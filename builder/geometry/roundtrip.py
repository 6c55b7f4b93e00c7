"""Every hex id must lead VASSAL back to its own hex.

VASSAL turns a point into a hex id with `locationName` (what players and logs see) and a hex id
into a point with `getLocation` (Send-To-Location traits, at-start stacks placed by grid
location, the module editor).  They are separate pieces of Java code that disagree on some
grids (see `javagrid.center_point`): such a module sends every piece placed by hex id to a
neighbouring hex.  `require_round_trip` refuses such a map with the failing ids and the change
that fixes it, so every game inherits the check.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from builder.geometry import javagrid
from builder.geometry.hexmap import HexMap


@dataclass(frozen=True)
class Miss:
    """A hex id VASSAL does not lead back to its own hex."""

    label: str
    centre: tuple[int, int]  # where the hex is (VASSAL's snap centre)
    point: tuple[int, int] | None  # where `getLocation` sends its id (None: the id does not parse)
    named: str | None  # what VASSAL names that point
    snapped: tuple[int, int] | None  # the centre that point snaps to

    def __str__(self) -> str:
        if self.point is None:
            return f"{self.label} does not parse as a location"
        return (f"{self.label} -> point {self.point[0]},{self.point[1]}, which VASSAL names {self.named} "
                f"(snaps to {self.snapped[0]},{self.snapped[1]}, not {self.centre[0]},{self.centre[1]})")


def point_of(geo: HexMap, label: str) -> tuple[int, int]:
    """The board point VASSAL sends hex id `label` to (`getLocation`)."""
    if hasattr(geo, "location_point"):  # a map of sections (sections.py): the zones' getLocation
        return geo.location_point(label)
    w, h = geo.board
    return javagrid.location_point(geo.grid, geo.numbering, w, h, label)


def misses(geo: HexMap) -> list[Miss]:
    """The hexes whose id fails either direction: name -> point -> name, and centre -> name ->
    point -> snapped centre."""
    out = []
    for label in geo.labels:
        centre = geo.centre(label)
        named_centre = geo.label_at(*centre)
        try:
            p = point_of(geo, named_centre)
        except javagrid.BadCoords:
            out.append(Miss(label, centre, None, None, None))
            continue
        named, snapped = geo.label_at(*p), geo.snap(*p)
        if named_centre != label or named != label or snapped != centre:
            out.append(Miss(label, centre, p, named, snapped))
    return out


def _whole(step: float, count: int) -> int:
    """A board size of `count` whole steps: VASSAL's `floor(size / step + 0.5)` is `count`, half
    a step away from either neighbouring count, so a pixel more or less does not undo the fix."""
    return round(count * step)


def round_trip_fix(geo: HexMap) -> tuple[tuple[int, int], int, int] | None:
    """The smallest board enlargement, with the numbering offsets' changes (h, v) that keep every
    id, after which every hex round-trips: ((width, height), dh, dv); None when none is found."""
    g, n = geo.grid, geo.numbering
    w, h = geo.board
    rows, cols = math.floor(h / g.dx + 0.5), math.floor(w / g.dy + 0.5)
    boards = sorted({(w, _whole(g.dx, rows + k)) for k in (1, 2)} |
                    {(_whole(g.dy, cols + k), h) for k in (1, 2)} |
                    {(_whole(g.dy, cols + 1), _whole(g.dx, rows + 1))},
                    key=lambda b: (b[0] - w) + (b[1] - h))
    offsets = sorted(((dh, dv) for dh in (0, -1, 1, -2, 2) for dv in (0, -1, 1, -2, 2)),
                     key=lambda d: abs(d[0]) + abs(d[1]))
    for board in boards:
        for dh, dv in offsets:
            trial = HexMap(g, n.replace(h_off=n.h_off + dh, v_off=n.v_off + dv), board, geo.area)
            try:
                same = trial.labels == geo.labels and all(trial.centre(x) == geo.centre(x) for x in geo.labels)
            except ValueError:  # the trial numbering gives two hexes one id
                continue
            if same and not misses(trial):
                return board, dh, dv
    return None


def suggest_fix(geo: HexMap) -> str | None:
    """`round_trip_fix` as an instruction for map.yaml; None when none is found."""
    found = round_trip_fix(geo)
    if found is None:
        return None
    board, dh, dv = found
    (w, h), n = geo.board, geo.numbering
    changes = [f"board.{k} {old} -> {new}" for k, old, new in
               (("width", w, board[0]), ("height", h, board[1])) if old != new]
    changes += [f"numbering.{k} {old} -> {old + d}" for k, old, d in
                (("h_off", n.h_off, dh), ("v_off", n.v_off, dv)) if d]
    return ", ".join(changes) + " (every hex keeps its id and centre)"


def problem(geo: HexMap) -> str | None:
    """One line naming the failing hex ids and what to change, or None when every id round-trips."""
    bad = misses(geo)
    if not bad:
        return None
    ids = ", ".join(m.label for m in bad)
    return (f"{len(bad)} of {len(geo.labels)} hex ids do not lead VASSAL back to their own hex "
            f"(getLocation then locationName), e.g. {bad[0]}: {ids}")


def hint(geo: HexMap) -> str:
    fix = suggest_fix(geo)
    why = ("VASSAL's getCenterPoint staggers by the parity of the numbered column, getRow by the raw "
           "column: with stagger and a descending column numbering, the board must span an even "
           "number of columns (height / dx on a sideways grid, width / dy otherwise)")
    return f"change {fix}; {why}" if fix else why


def require_round_trip(game) -> None:
    """Raise SourceError (pointing at map.yaml's numbering) unless every hex id round-trips."""
    from builder.model.load import SourceError, SourceProblem
    from builder.model.yamlsource import YamlProblem, load_located

    message = problem(game.geometry)
    if message is None:
        return
    display = f"sources/{game.slug}/map.yaml"
    line, column = 1, 1
    try:
        mark = load_located(Path(game.root) / "map.yaml", display).key_mark(("numbering",))
        line, column = mark.line, mark.column
    except (OSError, YamlProblem):
        pass
    raise SourceError([SourceProblem(display, line, column, message, hint(game.geometry))])
