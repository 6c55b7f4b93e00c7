"""Print-ready counter sheets (issue 3): every counter of a game, fronts and backs, as one PDF.

PDF library: reportlab (PyPI `reportlab`). It is maintained by ReportLab since 2000 with regular
releases and pure-Python wheels, draws text and lines as vectors, embeds a subset of a TrueType
file we register (the project's Source Sans Pro from `font-source-sans-pro`, never a system
font), takes Pillow images as they are (so the colours are the module's RGB values), has Form
XObjects (each counter face is drawn once and placed many times), and with `invariant=1` writes
byte-identical files for identical input (fixed dates and document id), as the build requires.

The one counter renderer draws the art (`builder.render.counters.draw_face`); this module only
decides where each counter goes.  All lengths are PDF points (1/72 in), origin bottom left.

Layout.  `layout()` is a pure function: it returns every page with the cut square (x, y, size) of
every counter it carries, so tests can check the PDF against it and the geometry against the
sources.  Counters are butted (pitch = counter edge, one cut per line) unless a bleed is asked
for; then each counter carries its own bleed and the pitch is edge + 2 * bleed (two cuts per
gap).  Duplex: page 2k-1 has fronts, page 2k the backs; the back of the counter whose front is
at x lies at page width - x - edge, same y, so that with a long-edge flip it lands exactly behind
its front (mirrored columns).  Fold: fronts in the left half of a page, their backs mirrored in
the right half; fold on the centre line.
"""
from __future__ import annotations

import io
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from importlib.resources import files

import numpy as np
from PIL import Image

from builder.model.game import Game
from builder.render.counters import FaceArt, all_faces, draw_face
from builder.render.fonts import _FILES as FONT_FILES

PT_PER_IN = 72.0
PT_PER_MM = 72.0 / 25.4
PAGES = {"a4": (210 * PT_PER_MM, 297 * PT_PER_MM), "letter": (8.5 * PT_PER_IN, 11 * PT_PER_IN)}
PAGE_NAMES = {"a4": "A4", "letter": "US Letter"}
LAYOUTS = ("duplex", "fold")
MIN_DPI, MAX_DPI = 300, 1200

MARK_GAP = 1.5 * PT_PER_MM   # between the counter block and a cut mark
MARK_LEN = 4.0 * PT_PER_MM   # cut mark length
MARK_WIDTH = 0.3             # cut mark line width (pt)
HEAD = 7.0 * PT_PER_MM       # title band under the top margin
FOOT = 6.0 * PT_PER_MM       # footer band over the bottom margin
FOLD_GAP = 3.0 * PT_PER_MM   # between the fold line and the cut marks beside it
SCALE_BAR = 50.0 * PT_PER_MM  # "print at 100 %" check bar in the title band

CHIT_BACK = "#e8e3d6"  # one plain back for every chit, so chits drawn from a cup stay blind

_LENGTH = re.compile(r'^\s*(-?)\s*(?:(0+(?:\.0+)?)|(\d+(?:\.\d+)?|\d+/\d+)\s*(mm|cm|in|pt|"))\s*$')
_UNIT = {"mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": PT_PER_IN, '"': PT_PER_IN, "pt": 1.0}


class SheetError(ValueError):
    """An option (or print setting) that cannot give a sheet; `option` names it."""

    def __init__(self, option: str, message: str):
        super().__init__(f"{option}: {message}")
        self.option = option


def parse_length(text: str) -> float:
    """'10mm', '0.5in', '1/16in', '0.4cm', '12pt', '0.25"' or '0' in points; negatives parse."""
    m = _LENGTH.match(str(text))
    if not m:
        raise ValueError(f"{text!r} is not a length; write e.g. 10mm, 0.5in or 1/16in")
    if m.group(2) is not None:
        return 0.0
    value = float(Fraction(m.group(3))) * _UNIT[m.group(4)]
    return -value if m.group(1) else value


def _mm(pt: float) -> str:
    return f"{round(pt / PT_PER_MM, 3):g} mm"


def _inches(inches: float) -> str:
    f = Fraction(inches).limit_denominator(64)
    return f"{f.numerator}/{f.denominator} in" if abs(float(f) - inches) < 1e-9 and f.denominator > 1 else f"{inches:g} in"


# ---- options ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetOptions:
    page: str          # a4 | letter
    margin: float      # pt, all four sides
    bleed: float       # pt, per counter side
    layout: str        # duplex | fold
    dpi: int           # counter art resolution (>= 300)
    counter: float     # printed counter edge, pt (from the sources)
    title: str

    @property
    def size(self) -> tuple[float, float]:
        return PAGES[self.page]

    @property
    def pitch(self) -> float:
        return self.counter + 2 * self.bleed


def sheet_options(game: Game, page: str | None = None, margin: str | None = None, bleed: str | None = None,
                  layout: str = "duplex", dpi: int = MIN_DPI) -> SheetOptions:
    """Options from the command line where given, else from game.yaml `print:`; checked.

    Raises SheetError naming the option (`--bleed`, or `game.yaml print.bleed` for a source value).
    """
    p = game.info.print

    def pick(value, source, flag):
        return (value, f"--{flag}") if value is not None else (source, f"game.yaml print.{flag}")

    page_v, page_o = pick(page, p.page, "page")
    page_v = str(page_v).strip().lower()
    if page_v not in PAGES:
        raise SheetError(page_o, f"unknown page size {page_v!r}; use a4 or letter")
    if layout not in LAYOUTS:
        raise SheetError("--layout", f"unknown layout {layout!r}; use duplex or fold")
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise SheetError("--dpi", f"{dpi} is out of range; use {MIN_DPI} to {MAX_DPI}")
    counter = game.info.counter.inches * PT_PER_IN
    lengths = {}
    for flag, value, source in (("margin", margin, p.margin), ("bleed", bleed, p.bleed)):
        text, opt = pick(value, source, flag)
        try:
            lengths[flag] = (parse_length(text), opt, text)
        except ValueError as exc:
            raise SheetError(opt, str(exc)) from None
        if lengths[flag][0] < 0:
            raise SheetError(opt, f"{text} is negative")
    bleed_pt, bleed_o, bleed_t = lengths["bleed"]
    if bleed_pt > counter / 4 + 1e-9:
        raise SheetError(bleed_o, f"{bleed_t} is too large; at most a quarter of the "
                                  f"{_inches(game.info.counter.inches)} counter edge ({_mm(counter / 4)}), "
                                  f"usually 1/16in")
    opts = SheetOptions(page_v, lengths["margin"][0], bleed_pt, layout, dpi, counter,
                        p.title or f"{game.info.title} - counters")
    ncols, nrows, _, _ = _grid(opts)
    if ncols < 1 or nrows < 1:
        margin_o, margin_t = lengths["margin"][1], lengths["margin"][2]
        raise SheetError(margin_o, f"{margin_t} leaves no room for a single {_inches(game.info.counter.inches)} "
                                   f"counter on {PAGE_NAMES[page_v]} ({layout} layout)")
    return opts


# ---- what to print -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Counter:
    """One physical counter: its front face, and its back face or plain back colour."""

    kind: str            # unit | leader | marker | chit
    ref: str
    copy: int            # 1..count among counters of the same kind and ref
    group: str           # formation id, '<side> chits', or the marker name
    front: FaceArt
    back: FaceArt | None
    plain: str | None    # colour of a plain back (single-sided counters)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.ref}"


def counter_groups(game: Game) -> list[tuple[str, str, list[Counter]]]:
    """Every counter as many times as the game has it, in sheet order, as (section, group, counters).

    One section per side: a group per formation (its units), then the side's activation chits;
    then a section of markers, a group per marker.  See `_rows` for how they fill the rows.
    """
    faces = {(a.kind, a.ref, a.face): a for a in all_faces(game)}

    def make(kind, ref, group, count, plain=None):
        back = faces.get((kind, ref, 2))
        return [Counter(kind, ref, i, group, faces[(kind, ref, 1)], back, None if back else plain)
                for i in range(1, count + 1)]

    groups: list[tuple[str, str, list[Counter]]] = []
    for side in game.sides.values():
        for f in game.units_file.formations:
            if game.nationalities[f.nationality].side == side.id:
                units = [c for u in game.units if u.formation == f.id
                         for c in make("unit", u.id, f.id, 1, game.nationalities[f.nationality].colour)]
                if units:
                    groups.append((side.name, f.id, units))
        leaders = [c for ld in game.units_file.leaders if game.side_of_leader(ld).id == side.id
                   for c in make("leader", ld.id, "Leaders", 1, game.nationalities[ld.nationality].colour)]
        if leaders:
            groups.append((side.name, "Leaders", leaders))
        chits = [c for ch in game.chits if game.nationalities[ch.nationality].side == side.id
                 for c in make("chit", ch.id, f"{side.name} chits", ch.count, CHIT_BACK)]
        if chits:
            groups.append((side.name, f"{side.name} chits", chits))
    for m in game.markers_file.markers:
        groups.append(("Markers", m.name, make("marker", m.id, m.name, m.count, m.faces[0].colour)))
    return groups


def _rows(groups: list[tuple[str, str, list[Counter]]], ncols: int) -> list[list[Counter]]:
    """Rows of at most `ncols` counters.  A section (side, markers) starts a new row; a group
    (formation, chits, marker) stays in one row when it fits in one, taking the rest of the current
    row if there is room, else a new row; a longer group starts a new row and runs on."""
    rows: list[list[Counter]] = []
    section = None
    for sec, _, group in groups:
        if sec != section or not rows or (len(group) > ncols - len(rows[-1]) and rows[-1]):
            rows.append([])
        section = sec
        for c in group:
            if len(rows[-1]) == ncols:
                rows.append([])
            rows[-1].append(c)
    return [r for r in rows if r]


# ---- layout (pure) ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    counter: Counter
    side: str      # front | back
    row: int       # row and column of the front in its block (the back keeps them)
    col: int
    x: float       # lower-left corner of the cut square, pt
    y: float
    size: float    # cut square edge, pt

    @property
    def form(self) -> str:
        return form_name(self.counter, self.side)


@dataclass(frozen=True)
class Block:
    """A grid of counters on a page: cut lines and marks are drawn around it."""

    x0: float      # left edge (including bleed), pt
    top: float     # top edge (including bleed), pt
    ncols: int
    nrows: int


@dataclass(frozen=True)
class Page:
    number: int    # 1-based
    role: str      # fronts | backs | fold
    cells: tuple[Cell, ...]
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Layout:
    options: SheetOptions
    ncols: int
    nrows: int
    pages: tuple[Page, ...]

    @property
    def counters(self) -> list[Counter]:
        return [c.counter for p in self.pages for c in p.cells if c.side == "front"]


def form_name(counter: Counter, side: str) -> str:
    """The PDF Form XObject name of one face of a counter: F|B.kind.ref (PDF-name safe)."""
    return f"{side[0].upper()}.{counter.kind}.{re.sub(r'[^A-Za-z0-9_-]', '_', counter.ref)}"


def _grid(o: SheetOptions) -> tuple[int, int, float, float]:
    """(ncols, nrows, x0, top) of the front block: margins, marks, title and footer respected."""
    width, height = o.size
    mk = MARK_GAP + MARK_LEN
    top = height - o.margin - HEAD - mk
    bottom = o.margin + FOOT + mk
    left = o.margin + mk
    right = width - o.margin - mk if o.layout == "duplex" else width / 2 - FOLD_GAP - mk
    eps = 1e-6
    ncols = max(0, math.floor((right - left) / o.pitch + eps)) if right > left else 0
    nrows = max(0, math.floor((top - bottom) / o.pitch + eps)) if top > bottom else 0
    x0 = left + (right - left - ncols * o.pitch) / 2
    return ncols, nrows, x0, top


def layout(game: Game, o: SheetOptions) -> Layout:
    ncols, nrows, x0, top = _grid(o)
    width = o.size[0]
    rows = _rows(counter_groups(game), ncols)
    s, b, pitch = o.counter, o.bleed, o.pitch
    pages: list[Page] = []
    for first in range(0, len(rows), nrows):
        chunk = rows[first:first + nrows]
        fronts, backs = [], []
        for r, row in enumerate(chunk):
            for c, counter in enumerate(row):
                x, y = x0 + c * pitch + b, top - (r + 1) * pitch + b
                fronts.append(Cell(counter, "front", r, c, x, y, s))
                backs.append(Cell(counter, "back", r, c, width - x - s, y, s))
        front_block = Block(x0, top, ncols, len(chunk))
        back_block = Block(width - x0 - ncols * pitch, top, ncols, len(chunk))
        if o.layout == "duplex":
            pages.append(Page(len(pages) + 1, "fronts", tuple(fronts), (front_block,)))
            pages.append(Page(len(pages) + 1, "backs", tuple(backs), (back_block,)))
        else:
            pages.append(Page(len(pages) + 1, "fold", tuple(fronts + backs), (front_block, back_block)))
    return Layout(o, ncols, nrows, tuple(pages))


# ---- drawing ---------------------------------------------------------------------------------
def _with_bleed(img: Image.Image, bleed_px: int) -> Image.Image:
    """The face with `bleed_px` pixels added on each side in its background colour: the colour
    met most often on the ring just inside its outline (the outline stays on the cut line)."""
    if not bleed_px:
        return img
    a = np.asarray(img.convert("RGB"))
    k = math.ceil(img.width / 64) + 2  # counters.py's outline is 1/64 of the edge wide
    ring = np.concatenate([a[k, k:-k], a[-k - 1, k:-k], a[k:-k, k], a[k:-k, -k - 1]])
    colours, counts = np.unique(ring, axis=0, return_counts=True)
    out = Image.new("RGB", (img.width + 2 * bleed_px, img.height + 2 * bleed_px),
                    tuple(int(v) for v in colours[np.argmax(counts)]))
    out.paste(img.convert("RGB"), (bleed_px, bleed_px))
    return out


def _fonts() -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    names = []
    for weight in ("regular", "semibold"):
        name = f"hexforge-SourceSansPro-{weight}"
        if name not in pdfmetrics.getRegisteredFontNames():
            path = files("font_source_sans_pro") / "files" / FONT_FILES[weight]
            pdfmetrics.registerFont(TTFont(name, str(path)))
        names.append(name)
    return names[0], names[1]


def _text_fit(text: str, font: str, size: float, width: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while size > 4 and stringWidth(text, font, size) > width:
        size -= 0.25
    return size


def render_sheets(game: Game, o: SheetOptions) -> bytes:
    """The counter-sheet PDF; the same sources and options give the same bytes."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    regular, _ = _fonts()
    saved_a85 = rl_config.useA85
    rl_config.useA85 = 0  # binary streams: a quarter smaller and faster than ASCII85 text
    try:
        buf = io.BytesIO()
        cv = Canvas(buf, pagesize=o.size, invariant=1, pageCompression=1, initialFontName=regular)
        cv.setTitle(o.title)
        cv.setAuthor("hexforge")
        cv.setCreator("hexforge")
        cv.setSubject(f"{game.info.title} {game.info.version}: counter sheets, {o.layout}")
        draw_sheets(cv, game, o)
        cv.save()
        return buf.getvalue()
    finally:
        rl_config.useA85 = saved_a85


def draw_sheets(cv, game: Game, o: SheetOptions) -> None:
    """Every sheet page onto `cv` (also used by the print kit, builder/render/printkit.py)."""
    from reportlab.lib.utils import ImageReader

    lay = layout(game, o)
    width, height = o.size
    s, b = o.counter, o.bleed
    px = math.ceil(game.info.counter.inches * o.dpi)  # >= dpi pixels per inch
    unit = s / px                                      # pt per pixel
    bleed_px = math.ceil(b / unit - 1e-9) if b else 0
    kinds = {}
    for c in lay.counters:
        kinds.setdefault(c.key, c)
    arts = [a for c in kinds.values() for a in (c.front, c.back) if a is not None]
    workers = max(1, min(4, os.cpu_count() or 1))  # Pillow's resampling runs outside the GIL
    with ThreadPoolExecutor(workers) as pool:
        images = dict(zip(arts, pool.map(lambda a: _with_bleed(draw_face(game, a, px), bleed_px), arts)))

    regular, semibold = _fonts()
    # one Form XObject per counter face, clipped to the counter plus its bleed
    for c in kinds.values():
        for side, art in (("front", c.front), ("back", c.back)):
            cv.beginForm(form_name(c, side), -b, -b, s + b, s + b)
            if art is not None:
                img = images[art]
                cv.drawImage(ImageReader(img), -bleed_px * unit, -bleed_px * unit,
                             img.width * unit, img.height * unit)
            else:
                cv.setFillColor(c.plain)
                cv.rect(-b, -b, s + 2 * b, s + 2 * b, stroke=0, fill=1)
            cv.endForm()
    for page in lay.pages:
        cv.setPageSize((width, height))
        _page(cv, game, o, lay, page, regular, semibold)
        cv.showPage()


def _cut_lines(o: SheetOptions, start: float, n: int, direction: int) -> list[float]:
    """Cut line coordinates along one axis of a block: its edges and every line between counters."""
    s, b = o.counter, o.bleed
    out = []
    for i in range(n):
        edge = start + direction * (i * o.pitch + b)
        out += [edge, edge + direction * s]
    return sorted(set(round(v, 6) for v in out))


def _page(cv, game: Game, o: SheetOptions, lay: Layout, page: Page, regular: str, semibold: str) -> None:
    width, height = o.size
    for cell in page.cells:
        cv.saveState()
        cv.translate(cell.x, cell.y)
        cv.doForm(cell.form)
        cv.restoreState()
    # cut marks: outside every block, on every row and column cut line
    cv.setStrokeColor("#000000")
    cv.setLineWidth(MARK_WIDTH)
    lines = []
    for blk in page.blocks:
        right, bottom = blk.x0 + blk.ncols * o.pitch, blk.top - blk.nrows * o.pitch
        for x in _cut_lines(o, blk.x0, blk.ncols, 1):
            lines += [(x, blk.top + MARK_GAP, x, blk.top + MARK_GAP + MARK_LEN),
                      (x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LEN)]
        for y in _cut_lines(o, blk.top, blk.nrows, -1):
            lines += [(blk.x0 - MARK_GAP, y, blk.x0 - MARK_GAP - MARK_LEN, y),
                      (right + MARK_GAP, y, right + MARK_GAP + MARK_LEN, y)]
    cv.lines(lines)
    if page.role == "fold":
        cv.saveState()
        cv.setDash(3, 3)
        blk = page.blocks[0]
        cv.line(width / 2, blk.top + MARK_GAP, width / 2, blk.top - blk.nrows * o.pitch - MARK_GAP)
        cv.restoreState()
    # title band: title left, a 50 mm bar right to check the print scale
    base = height - o.margin - HEAD + 2.2 * PT_PER_MM
    cv.setFillColor("#000000")
    size = _text_fit(o.title, semibold, 10, width - 2 * o.margin - SCALE_BAR - 40)
    cv.setFont(semibold, size)
    cv.drawString(o.margin, base, o.title)
    bar_r = width - o.margin - 0.5  # the end ticks stay inside the margin
    bar_l = bar_r - SCALE_BAR
    cv.setLineWidth(0.5)
    cv.lines([(bar_l, base, bar_r, base), (bar_l, base - 2, bar_l, base + 2), (bar_r, base - 2, bar_r, base + 2)])
    cv.setFont(regular, 6.5)
    cv.drawCentredString((bar_l + bar_r) / 2, base + 2, "50 mm at 100 %")
    # footer
    role = {"fronts": "fronts", "backs": "backs (print double-sided, flip on long edge)",
            "fold": "fronts left, backs right: fold on the dashed line"}[page.role]
    n_units = len(game.units)
    foot = (f"{game.info.title} {game.info.version}  |  page {page.number} of {len(lay.pages)}: {role}  |  "
            f"counters {_inches(game.info.counter.inches)} ({_mm(o.counter)}), "
            f"{PAGE_NAMES[o.page]}, print at 100 %  |  {n_units} units, "
            f"{sum(m.count for m in game.markers.values())} markers, {sum(c.count for c in game.chits)} chits")
    size = _text_fit(foot, regular, 7, width - 2 * o.margin)
    cv.setFont(regular, size)
    cv.drawString(o.margin, o.margin + 1.5 * PT_PER_MM, foot)
