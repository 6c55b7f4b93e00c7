"""The print-and-play kit (issue 18): map tiles, set-up cards and counter sheets as PDFs.

`hexforge print GAME` writes into generated/GAME/print/: map.pdf (the tiled map with the
module's legend, builder/render/map_pdf.py), setup-cards.pdf (builder/render/setup_cards.py),
aids.pdf (every table as grids, builder/render/aids.py, aidpages.py) and kit.pdf: a contents page (with the
page of each aid), the tiles, the cards, the aids and the counter sheets of `hexforge sheets`
(duplex, the game's margin and bleed).  Every file is rendered before any is written, each written
atomically, so a failure leaves the previous kit whole.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from builder.model.game import Game
from builder.render import aidpages, map_pdf, setup_cards
from builder.render.map_pdf import PrintOptions, TileLayout, tile_layout
from builder.render.sheets import PAGE_NAMES, PAGES, PT_PER_MM, SheetError, parse_length, sheet_options

FILES = ("map.pdf", "setup-cards.pdf", "aids.pdf", "kit.pdf")


def print_options(page: str | None, overlap: str, game: Game) -> PrintOptions:
    """Checked options; raises SheetError naming the option."""
    page_v = page if page is not None else game.info.print.page
    if page_v not in PAGES:
        raise SheetError("--page", f"{page_v!r} is not a page size; use a4 or letter")
    try:
        ov = parse_length(overlap)
    except ValueError as exc:
        raise SheetError("--overlap", str(exc)) from None
    if ov < 0:
        raise SheetError("--overlap", f"{overlap} is negative")
    short = min(PAGES[page_v]) - 2 * map_pdf.MARGIN - map_pdf.HEAD - map_pdf.FOOT
    if ov > short / 3:
        raise SheetError("--overlap", f"{overlap} is too large; at most a third of the tile ({short / 3 / PT_PER_MM:.0f} mm)")
    return PrintOptions(page_v, ov)


@dataclass(frozen=True)
class Kit:
    files: dict[str, bytes]
    layout: TileLayout
    cards: list[tuple[str, str]]    # (scenario file stem, side id), in page order
    sheet_pages: int
    aid_pages: int


def _canvas(buf, size, title: str, subject: str):
    from reportlab.pdfgen.canvas import Canvas

    from builder.render.sheets import _fonts

    cv = Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=_fonts()[0])
    cv.setTitle(title)
    cv.setAuthor("hexforge")
    cv.setCreator("hexforge")
    cv.setSubject(subject)
    return cv


def _tiles(cv, game: Game, lay: TileLayout, fonts) -> None:
    for t in lay.tiles:
        cv.setPageSize(t.page_size)
        map_pdf.draw_tile(cv, game, lay, t, fonts, game.info.title)
        cv.showPage()


def _cards(cv, game: Game, cards, size, fonts) -> None:
    for stem, side in cards:
        cv.setPageSize(size)
        setup_cards.draw_card(cv, game, game.scenarios[stem], side, size, fonts)
        cv.showPage()


def _contents(cv, game: Game, lay: TileLayout, o: PrintOptions, sections, fonts) -> None:
    regular, semibold = fonts
    pw, ph = PAGES[o.page]
    m = 15 * PT_PER_MM
    cv.setPageSize((pw, ph))
    cv.setFillColor("#000000")
    cv.setFont(semibold, 18)
    cv.drawString(m, ph - m - 18, f"{game.info.title} - print-and-play kit")
    cv.setFont(regular, 9)
    cv.drawString(m, ph - m - 32, f"version {game.info.version}  |  {PAGE_NAMES[o.page]}, print every page at 100 % "
                                  f"(no 'fit to page')")
    y = ph - m - 56
    cv.setFont(semibold, 12)
    cv.drawString(m, y, "Contents")
    y -= 16
    for name, first, last in sections:
        sub = name.startswith(" ")
        cv.setFont(regular, 8.5 if sub else 10)
        cv.drawString(m + (20 if sub else 8), y, name.strip())
        cv.drawRightString(pw - m, y, f"page {first}" if first == last else f"pages {first}-{last}")
        y -= 10.5 if sub else 13
    y -= 10
    cv.setFont(semibold, 12)
    cv.drawString(m, y, "Map: page index")
    y -= 14
    cv.setFont(regular, 8.5)
    for text in (map_pdf.scale_text(game, lay),
                 f"board {lay.width / PT_PER_MM:.0f} x {lay.height / PT_PER_MM:.0f} mm on {len(lay.tiles)} tiles "
                 f"({lay.nrows} rows A-{map_pdf._row_name(lay.nrows - 1)}, {lay.ncols} columns); "
                 f"neighbouring tiles overlap by {lay.overlap / PT_PER_MM:g} mm",
                 "Cut each tile along the left and top edges of its frame (not column 1 / row A), lay it over "
                 "its neighbours so the crosses meet, and glue."):
        cv.drawString(m, y, text)
        y -= 11
    box_h = y - m - 10
    map_pdf.draw_index(cv, lay, m, m, pw - 2 * m, box_h, None, semibold, game)


def _pdf(game: Game, o: PrintOptions, what: str, draw) -> bytes:
    """One PDF drawn by `draw(cv)`: binary streams, invariant bytes."""
    from reportlab import rl_config

    saved = rl_config.useA85
    rl_config.useA85 = 0  # binary streams: a quarter smaller than ASCII85 text
    try:
        buf = io.BytesIO()
        cv = _canvas(buf, PAGES[o.page], f"{game.info.title} - {what}", f"{game.info.title} {game.info.version}: {what}")
        draw(cv)
        cv.save()
        return buf.getvalue()
    finally:
        rl_config.useA85 = saved


def kit_cards(game: Game) -> list[tuple[str, str]]:
    """(scenario file stem, side id) of every set-up card, in page order."""
    return [(stem, side) for stem in sorted(game.scenarios) for side in game.sides]


def render_map(game: Game, o: PrintOptions) -> bytes:
    from builder.render.sheets import _fonts

    return _pdf(game, o, "map", lambda cv: _tiles(cv, game, tile_layout(game, o), _fonts()))


def render_cards(game: Game, o: PrintOptions) -> bytes:
    from builder.render.sheets import _fonts

    return _pdf(game, o, "set-up cards", lambda cv: _cards(cv, game, kit_cards(game), PAGES[o.page], _fonts()))


def _aids(cv, game: Game, pages, size, fonts) -> None:
    for i, page in enumerate(pages):
        cv.setPageSize(size)
        aidpages.draw_aid_page(cv, page, fonts, f"{game.info.title}: player aids, page {i + 1} of {len(pages)}")
        cv.showPage()


def render_aids(game: Game, o: PrintOptions) -> bytes:
    from builder.render.sheets import _fonts

    fonts = _fonts()
    pages, _ = aidpages.aid_pages(game, o.page, fonts)
    return _pdf(game, o, "player aids", lambda cv: _aids(cv, game, pages, PAGES[o.page], fonts))


def render_kit(game: Game, o: PrintOptions) -> Kit:
    """Every file of the kit, rendered in memory (same sources and options: same bytes)."""
    from builder.render.sheets import _fonts, draw_sheets, layout as sheet_layout

    fonts = _fonts()
    lay = tile_layout(game, o)
    cards = kit_cards(game)
    sheet_o = sheet_options(game, page=o.page)
    sheet_pages = len(sheet_layout(game, sheet_o).pages)
    aid_pages, aid_starts = aidpages.aid_pages(game, o.page, fonts)
    n, k, a = len(lay.tiles), len(cards), len(aid_pages)
    sections = [("Map tiles", 2, 1 + n), ("Set-up cards (one per scenario and side)", 2 + n, 1 + n + k),
                ("Player aids", 2 + n + k, 1 + n + k + a)]
    sections += [("    " + aid.title, 2 + n + k + first, 2 + n + k + first) for aid, first in aid_starts]
    sections.append(("Counter sheets (fronts, then backs: print double-sided, flip on the long edge)",
                     2 + n + k + a, 1 + n + k + a + sheet_pages))

    def kit(cv):
        _contents(cv, game, lay, o, sections, fonts)
        cv.showPage()
        _tiles(cv, game, lay, fonts)
        _cards(cv, game, cards, PAGES[o.page], fonts)
        _aids(cv, game, aid_pages, PAGES[o.page], fonts)
        draw_sheets(cv, game, sheet_o)

    files = {"map.pdf": render_map(game, o), "setup-cards.pdf": render_cards(game, o),
             "aids.pdf": render_aids(game, o), "kit.pdf": _pdf(game, o, "print-and-play kit", kit)}
    return Kit(files, lay, cards, sheet_pages, a)


def write_kit(kit: Kit, folder: Path) -> list[Path]:
    """Write every file atomically (all were rendered first)."""
    from builder.vassal.archive import write_atomic

    out = []
    for name in FILES:
        write_atomic(folder / name, kit.files[name])
        out.append(folder / name)
    return out
