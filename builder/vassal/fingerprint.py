"""The module's geometry fingerprint: a digest of everything that decides where a logged
position lands (issue 33): each map's name, its boards (name, size), grids, numbering, zones
and regions, as the build file declares them.

A log holds positions as pixels on a named map; the module reads them back into hex ids and
named places.  The build writes the fingerprint into the module's metadata (`moduledata`
`extra1`, the GameModule's ModuleOther1), which the engine copies into every save and log, so
the audit can tell a log written on another geometry and refuse to read it with today's.
Drawing attributes (colours, which parts are shown, snapping) are left out: they move nothing.
"""
from __future__ import annotations

from builder.model.game import Game

PREFIX = "geometry:"
# the elements a position is read through, by the end of their VASSAL class name
GEOMETRY = ("module.Map", "module.PrivateMap", "module.PlayerHand", "boardPicker.Board", "board.HexGrid",
            "board.SquareGrid", "board.RegionGrid", "board.ZonedGrid", "mapgrid.HexGridNumbering",
            "mapgrid.SquareGridNumbering", "mapgrid.Zone", "board.Region")
COSMETIC = frozenset({"color", "visible", "dotsVisible", "cornersLegal", "edgesLegal", "snapTo", "fontSize",
                      "rotateTextDegrees", "hDrawOff", "vDrawOff", "useHighlight", "highlightProperty", "icon",
                      "buttonText", "tooltip", "hotkey", "backgroundcolor", "showNumbers"})


def fingerprint_of(build_xml: bytes, board_sizes: dict[str, tuple[int, int]]) -> str:
    """16 hex digits over the geometry elements of a build file, in document order, and the
    boards' sizes (a board drawn from an image takes the image's size)."""
    import hashlib  # here, as lxml: hashlib's import loads OpenSSL (issue 36: an audit's start-up)

    from lxml import etree  # here: an audit reads the fingerprint from the model cache, without lxml

    h = hashlib.sha256()
    for e in etree.fromstring(build_xml).iter():
        tag = e.tag if isinstance(e.tag, str) else ""
        if tag.endswith(GEOMETRY):
            attrs = sorted((k, v) for k, v in e.attrib.items() if k not in COSMETIC)
            h.update(repr((tag.rsplit(".", 1)[-1], attrs)).encode("utf-8"))
            if tag.endswith("boardPicker.Board"):
                h.update(repr(board_sizes.get(e.get("name", ""))).encode())
    return h.hexdigest()[:16]


def geometry_fingerprint(game: Game) -> str:
    """The game's fingerprint, from the build file its module gets (help pages and set-ups,
    which move nothing, left out)."""
    from builder.vassal.buildfile import build_xml, plan

    sizes = {x.name: (x.width, x.height) for x in [*(m.board for m in game.map.maps), game.map.board]}
    sizes |= {b.name: (b.width, b.height, b.column, b.row) for m in game.map.maps for b in m.more_boards}
    return fingerprint_of(build_xml(plan(game, [], [])), sizes)


def fingerprint_in(extra1: str | None) -> str | None:
    """The fingerprint a module's or log's `extra1` carries, or None."""
    text = (extra1 or "").strip()
    return text[len(PREFIX):] if text.startswith(PREFIX) else None
