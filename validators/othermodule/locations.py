"""Their location names as ours, worked out by geometry.

Both modules draw the same printed map, so a hex of theirs covers the same part of the board as
one of ours, whatever either calls it.  Their board is laid over ours (scaled to the same size:
another scan may have another resolution) and sampled on a fine lattice; each of their
locations becomes ours where most of its samples fall.  This needs no knowledge of either
numbering scheme (letters, offsets, descending rows), so it holds where guessing an offset would
not: a scheme that differs only in part of the map, or two boards numbered differently.  It does
assume the boards are the same print with the same margins: when their aspect differs from ours
it refuses, and the user fills `locations` in.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from validators.vlog.modulegrid import OFFBOARD, MapSpec

STEP = 8  # pixels of our board between samples: tens per hex, tens per box
ASPECT = 0.02  # the largest difference of aspect taken as the same print


class GeometryMismatch(ValueError):
    """The two boards are not the same print: their locations cannot be laid over ours."""


def _board(spec: MapSpec):
    name = spec._in_use()[0]
    return name, spec.boards[name]


def pair_maps(theirs: dict[str, MapSpec], ours: dict[str, MapSpec]) -> list[tuple[str, str]]:
    """Their maps with ours: by name, or the only one with the only one."""
    pairs = [(n, n) for n in theirs if n in ours]
    if not pairs and len(theirs) == 1 and len(ours) == 1:
        pairs = [(next(iter(theirs)), next(iter(ours)))]
    return pairs


def by_geometry(theirs: MapSpec, ours: MapSpec) -> dict[str, str]:
    """Their location name -> ours, where they differ (the same names need no entry)."""
    if not theirs.boards or not ours.boards:
        raise GeometryMismatch(f"map {theirs.name!r} has no board to lay over ours; fill in 'locations' by hand")
    (tb, tboard), (ob, oboard) = _board(theirs), _board(ours)
    (tw, th), (ow, oh) = tboard.size, oboard.size
    if not (tw and th and ow and oh) or abs(tw / th - ow / oh) > ASPECT * (ow / oh):
        raise GeometryMismatch(f"their board {tb!r} is {tw}x{th} pixels, ours {ob!r} {ow}x{oh}: not the same print "
                               "(another aspect); fill in 'locations' by hand")
    tx, ty = theirs.origin(tb)
    ox, oy = ours.origin(ob)
    hits: dict[str, Counter] = defaultdict(Counter)
    for y in range(STEP // 2, oh, STEP):
        for x in range(STEP // 2, ow, STEP):
            mine = ours.location(ox + x, oy + y)
            them = theirs.location(tx + x * tw // ow, ty + y * th // oh)
            if them != OFFBOARD:
                hits[them][mine] += 1
    out = {}
    for them, c in hits.items():
        mine, n = c.most_common(1)[0]
        if mine != them and mine != OFFBOARD and n * 2 > sum(c.values()):
            out[them] = mine
    return out
