"""The player aids on pages (issue 18): the grids of builder/render/aids.py set as tables.

Each aid starts with its title, rule and source file, "Reconstructed: reason" in red as on the
module's help page, and its summary lines; then its grids, each under its caption, with a
shaded heading row (a group heading spans its columns), shaded alternate rows and footnotes
under the grid.  Column widths are natural when the grid fits the page; otherwise every
column keeps at least its longest word (row names their whole text when the others can give
way) and shares the rest by how much it needs, the letters shrinking from 8.5 to 6 pt before
anything is squeezed.  A column of text is set left-aligned, numbers and short values
centred.  A grid split by a page break repeats its caption and heading rows.

`aid_pages` is pure: it returns every page as drawing operations, with the page each aid starts
on, so the kit's contents page knows the page numbers before anything is drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from builder.model.game import Game
from builder.render.aids import Aid, Grid, aids
from builder.render.sheets import PAGES, PT_PER_MM

MARGIN = 15.0 * PT_PER_MM
SIZE = 8.5          # grid text, shrunk to MIN_SIZE for a wide grid
MIN_SIZE = 6.0
PAD = 2.5           # cell padding, pt
INK, RED, HEAD_FILL, ROW_FILL, RULE = "#000000", "#7a1f1f", "#e4dccb", "#f6f2e8", "#5a4a30"


@dataclass
class Page:
    # ("text", font, size, x, y, text, colour) | ("rect", x, y, w, h, fill)
    # | ("hline", x0, x1, y) | ("vline", x, y0, y1)
    ops: list[tuple] = field(default_factory=list)


def _width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, size)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    out: list[str] = []
    for word in text.split(" "):
        if out and _width(f"{out[-1]} {word}", font, size) <= width + 0.01:  # sums of widths round
            out[-1] += f" {word}"
        else:
            out.append(word)
    return out or [""]


def _ncols(g: Grid) -> int:
    return max((sum(c.span for c in row) for row in g.head + g.body), default=1)


def _widths(g: Grid, fonts, size: float, avail: float) -> list[float] | None:
    """Column widths at `size`, or None when even every column at its longest word is too wide."""
    regular, semibold = fonts
    n = _ncols(g)
    nat, least = [2 * PAD + 4] * n, [2 * PAD + 4] * n
    for r, row in enumerate(g.head + g.body):
        c = 0
        for j, cell in enumerate(row):
            f = semibold if r < len(g.head) or (g.labels and j == 0) else regular
            if cell.span == 1:
                extra = _width(cell.mark, regular, size * 0.7) + 1 if cell.mark else 0
                nat[c] = max(nat[c], _width(cell.text, f, size) + 2 * PAD + extra)
                least[c] = max(least[c], max(_width(w, f, size) for w in cell.text.split(" ")) + 2 * PAD + extra)
            c += cell.span
    if sum(nat) <= avail:
        return nat
    if g.labels and sum(least) - least[0] + nat[0] <= avail:
        least[0] = nat[0]  # row names on one line when the others can give way
    if sum(least) > avail:
        return None
    room, want = avail - sum(least), sum(a - b for a, b in zip(nat, least)) or 1
    return [b + (a - b) * room / want for a, b in zip(nat, least)]


def _fit(g: Grid, fonts, avail: float) -> tuple[float, list[float]]:
    """The largest letters (half-point steps) at which the grid fits, and its column widths."""
    for k in range(int((SIZE - MIN_SIZE) / 0.5) + 1):
        w = _widths(g, fonts, SIZE - 0.5 * k, avail)
        if w is not None:
            return SIZE - 0.5 * k, w
    return MIN_SIZE, [avail / _ncols(g)] * _ncols(g)


@dataclass
class _Set:
    """A grid measured for the page: letter size, column edges, which columns are text."""

    g: Grid
    size: float
    xs: list[float]
    text_cols: list[bool]
    fonts: tuple[str, str]

    def row(self, row, header: bool):
        """The row's cells as (cell, column, x0, x1, font, lines, mark width) and its height."""
        regular, semibold = self.fonts
        c, cells = 0, []
        for j, cell in enumerate(row):
            x0, x1 = self.xs[c], self.xs[c + cell.span]
            f = semibold if header or (self.g.labels and j == 0) else regular
            mark_w = _width(cell.mark, regular, self.size * 0.7) + 1 if cell.mark else 0
            lines = _wrap(cell.text, f, self.size, x1 - x0 - 2 * PAD - mark_w) if cell.text else []
            cells.append((cell, c, x0, x1, f, lines, mark_w))
            c += cell.span
        return cells, max([len(x[5]) for x in cells] + [1]) * self.size * 1.2 + 2 * PAD - 1

    def left(self, cell, c: int, header: bool, under: bool) -> bool:
        if header:  # the last heading row follows its column's alignment
            return under and cell.span == 1 and (self.text_cols[c] or (self.g.labels and c == 0))
        return (self.g.labels and c == 0) or self.text_cols[c] or cell.span > 1 or not self.g.head


def _measure(g: Grid, fonts, avail: float) -> _Set:
    size, widths = _fit(g, fonts, avail)
    xs = [MARGIN]
    for w in widths:
        xs.append(xs[-1] + w)
    text_cols = [False] * len(widths)
    for row in g.body:  # a column of text: a cell wraps, or is a phrase
        c = 0
        for cell in row:
            if cell.span == 1 and (len(cell.text) > 14 or
                                   len(_wrap(cell.text, fonts[0], size, widths[c] - 2 * PAD)) > 1):
                text_cols[c] = True
            c += cell.span
    return _Set(g, size, xs, text_cols, fonts)


class _Flow:
    """Places blocks down the pages, starting a new page when one does not fit."""

    def __init__(self, page: str, fonts):
        self.pw, self.ph = PAGES[page]
        self.fonts = fonts
        self.pages: list[Page] = []
        self.new_page()

    def new_page(self) -> None:
        self.pages.append(Page())
        self.y = self.ph - MARGIN

    def room(self, h: float) -> None:
        if self.y - h < MARGIN and self.y < self.ph - MARGIN - 1:
            self.new_page()

    def op(self, *op) -> None:
        self.pages[-1].ops.append(op)

    def para(self, text: str, font: str, size: float, colour=INK, indent: float = 0, bullet: bool = False) -> None:
        lead = size * 1.25
        for i, ln in enumerate(_wrap(text, font, size, self.pw - 2 * MARGIN - indent)):
            self.room(lead)
            self.y -= lead
            if bullet and i == 0:
                self.op("text", font, size, MARGIN + indent - 8, self.y, "\u2022", colour)
            self.op("text", font, size, MARGIN + indent, self.y, ln, colour)

    def draw_row(self, m: _Set, cells, h: float, header: bool, shade: bool, under: bool = True) -> None:
        """One row at the cursor: fill, text, rules.  A blank heading cell above the last heading
        row joins the cell below it (no rule between)."""
        regular, _ = self.fonts
        top, size, xs = self.y, m.size, m.xs
        if header or shade:
            self.op("rect", xs[0], top - h, xs[-1] - xs[0], h, HEAD_FILL if header else ROW_FILL)
        for cell, c, x0, x1, f, lines, mark_w in cells:
            for i, ln in enumerate(lines):
                yy = top - PAD - size - i * size * 1.2 + 1
                w = _width(ln, f, size)
                x = x0 + PAD if m.left(cell, c, header, under) else (x0 + x1) / 2 - (w + mark_w) / 2
                self.op("text", f, size, x, yy, ln, INK)
                if cell.mark and i == 0:
                    self.op("text", regular, size * 0.7, x + w + 1, yy + size * 0.35, cell.mark, INK)
        if not header or under:
            self.op("hline", xs[0], xs[-1], top - h)
        else:
            for cell, c, x0, x1, *_ in cells:
                if cell.text:
                    self.op("hline", x0, x1, top - h)
        for k, (cell, c, x0, *_) in enumerate(cells):
            if k == 0 or not header or under or cell.text or cells[k - 1][0].text:
                self.op("vline", x0, top, top - h)
        self.op("vline", xs[-1], top, top - h)
        self.y -= h

    def grid(self, g: Grid) -> None:
        regular, semibold = self.fonts
        m = _measure(g, self.fonts, self.pw - 2 * MARGIN)
        head = [m.row(row, True) for row in g.head]
        body = [m.row(row, False) for row in g.body]
        cap_h = (m.size + 5) * 1.2 if g.caption else 0

        def start(caption: str) -> None:
            if caption:
                self.y -= cap_h
                self.op("text", semibold, m.size + 1, MARGIN, self.y + 3, caption, INK)
            self.op("hline", m.xs[0], m.xs[-1], self.y)
            for k, (cells, h) in enumerate(head):
                self.draw_row(m, cells, h, True, False, k == len(head) - 1)

        self.room(cap_h + sum(h for _, h in head) + sum(h for _, h in body[:3]))  # never a caption and one row
        start(g.caption)
        for i, (cells, h) in enumerate(body):
            if self.y - h < MARGIN:
                self.new_page()
                start(f"{g.caption} (continued)" if g.caption else "")
            self.draw_row(m, cells, h, False, i % 2 == 1)
        for i, note in enumerate(g.notes):
            colour = RED if note.startswith("Reconstructed") else INK
            self.para(f"{i + 1}  {note}", regular, max(MIN_SIZE, m.size - 1), colour)
        self.y -= 6

    def aid(self, game: Game, aid: Aid) -> None:
        regular, semibold = self.fonts
        self.y -= 16
        self.op("text", semibold, 15, MARGIN, self.y, aid.title, INK)
        self.para(f"{game.info.title}: rule {aid.rule}  |  from {aid.source}" if aid.rule else
                  f"{game.info.title}  |  from {aid.source}", regular, 8)
        if aid.reconstructed:
            self.para(f"Reconstructed: {aid.reconstructed}", regular, 8, RED)
        self.y -= 2
        for s in aid.summary:
            self.para(s, regular, 8, indent=8, bullet=True)
        self.y -= 4
        for g in aid.grids:
            self.grid(g)


def aid_pages(game: Game, page: str, fonts: tuple[str, str]) -> tuple[list[Page], list[tuple[Aid, int]]]:
    """Every aid page's drawing, and each aid with the index of the page it starts on; an aid
    starts a new page unless 100 pt are left for it."""
    flow = _Flow(page, fonts)
    starts = []
    for aid in aids(game):
        flow.room(100)
        if flow.y < flow.ph - MARGIN - 1:
            flow.y -= 10
        starts.append((aid, len(flow.pages) - 1))
        flow.aid(game, aid)
    return flow.pages, starts


def draw_aid_page(cv, page: Page, fonts, footer: str) -> None:
    """Fills first, then rules and text over them; the footer at the bottom right."""
    regular, _ = fonts
    pw, _ = cv._pagesize
    for op in page.ops:
        if op[0] == "rect":
            cv.setFillColor(op[5])
            cv.rect(*op[1:5], stroke=0, fill=1)
    cv.setLineWidth(0.4)
    cv.setStrokeColor(RULE)
    for op in page.ops:
        if op[0] == "hline":
            cv.line(op[1], op[3], op[2], op[3])
        elif op[0] == "vline":
            cv.line(op[1], op[2], op[1], op[3])
        elif op[0] == "text":
            _, font, size, x, y, text, colour = op
            cv.setFillColor(colour)
            cv.setFont(font, size)
            cv.drawString(x, y, text)
    cv.setFillColor(INK)
    cv.setFont(regular, 6.5)
    cv.drawRightString(pw - MARGIN, MARGIN / 2, footer)
