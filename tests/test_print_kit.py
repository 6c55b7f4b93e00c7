"""The print-and-play kit (issue 18): the PDFs are read back and measured against the sources."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from typer.testing import CliRunner

import builder.paths
from builder.cli import app
from builder.model import load_game
from builder.paths import REPO as ROOT
from builder.render import printkit
from builder.render.aids import aid_tables
from builder.render.map_pdf import HEX_MARGIN, registration_points, tile_layout
from builder.render.printkit import PrintOptions, print_options, render_cards, render_kit
from builder.render.thumbnail import thumbnail
from builder.render.sheets import PAGES, PT_PER_MM, _fonts, render_sheets, sheet_options
from tests.conftest import SLUG, copy_sources

TOL = 0.1 * PT_PER_MM
GAMES = ["bravery-in-the-sand", "western-desert-force", "tobrouk-41-42", "slouch-hats-and-eggshells",
         "desert-fox-deluxe"]


@pytest.fixture(scope="module")
def games():
    return {slug: load_game(ROOT / "sources" / slug) for slug in GAMES}


@pytest.fixture(scope="module")
def kits(games):
    """The kit of the two original games, A4, 10 mm overlap."""
    return {slug: render_kit(games[slug], PrintOptions("a4", 10 * PT_PER_MM))
            for slug in ("bravery-in-the-sand", "western-desert-force")}


def _texts(pdf: bytes) -> list[list[tuple[str, float, float, str, float]]]:
    """Per page, every text run as (text, x, y, font, size): where reportlab's Tm put it."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        runs = []

        def visit(text, cm, tm, font, size, runs=runs):
            if text.strip():
                runs.append((text.strip(), tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5],
                             (font or {}).get("/BaseFont", ""), size))
        page.extract_text(visitor_text=visit)
        pages.append(runs)
    return pages


def _images(page) -> int:
    xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
    return sum(1 for v in xobjects.values() if v.get_object().get("/Subtype") == "/Image")


# ---- pages ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", ["bravery-in-the-sand", "western-desert-force"])
def test_kit_pages_are_contents_tiles_cards_and_sheets(games, kits, slug):
    g, kit = games[slug], kits[slug]
    sheets = PdfReader(io.BytesIO(render_sheets(g, sheet_options(g, page="a4"))))
    n_tiles = len(tile_layout(g, PrintOptions("a4", 10 * PT_PER_MM)).tiles)
    n_cards = len(g.scenarios) * len(g.sides)
    n_aids = len(PdfReader(io.BytesIO(kit.files["aids.pdf"])).pages)
    assert n_aids > 0
    reader = PdfReader(io.BytesIO(kit.files["kit.pdf"]))
    assert len(reader.pages) == 1 + n_tiles + n_cards + n_aids + len(sheets.pages)
    assert len(PdfReader(io.BytesIO(kit.files["map.pdf"])).pages) == n_tiles
    assert len(PdfReader(io.BytesIO(kit.files["setup-cards.pdf"])).pages) == n_cards
    contents = reader.pages[0].extract_text()
    assert f"pages 2-{1 + n_tiles}" in contents and "Contents" in contents
    # every table has an aid, and the contents send the reader to the page its title is on
    for tid, t in g.tables.items():
        m = re.search(re.escape(t.title) + r"\s*page (\d+)", contents)
        assert m, f"{t.title} not in the contents"
        assert t.title in reader.pages[int(m.group(1)) - 1].extract_text()
    # the sheets in the kit are the sheet pages: the same counter faces (Form XObjects) on each
    for i, page in enumerate(sheets.pages):
        faces = sorted(page["/Resources"]["/XObject"])
        assert faces and sorted(reader.pages[1 + n_tiles + n_cards + n_aids + i]["/Resources"]["/XObject"]) == faces


# ---- the map -------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", ["bravery-in-the-sand", "western-desert-force"])
def test_map_tiles_are_vector_with_every_hex_id(games, kits, slug):
    g = games[slug]
    reader = PdfReader(io.BytesIO(kits[slug].files["map.pdf"]))
    # the map is vector: the one picture on a tile page is the tile index's small map (issue 35)
    assert all(_images(p) == 1 for p in reader.pages)
    assert {(img.image.width, img.image.height) for p in reader.pages for img in p.images} == {thumbnail(g).size}
    found = set()
    for runs in _texts(kits[slug].files["map.pdf"]):
        found |= {t for t, *_ in runs}
    assert set(g.geometry.labels) <= found
    fonts = [f.get_object() for p in reader.pages for f in p["/Resources"]["/Font"].values()]
    assert all("/FontFile2" in f["/DescendantFonts"][0].get_object()["/FontDescriptor"] if "/DescendantFonts" in f
               else "/FontFile2" in f["/FontDescriptor"] for f in fonts)


@pytest.mark.parametrize("slug", GAMES)
def test_map_tiles_carry_the_modules_legend(games, slug):
    """The legend of the module's map (legend.py: its rows and its place) is on the tiles that
    cover its place, every row's text in the text layer, and on no other tile."""
    from builder.render.legend import legend_rows, place_legend

    g = games[slug]
    o = PrintOptions("a4", 10 * PT_PER_MM)
    lay = tile_layout(g, o)
    (x0, y0, x1, y1), _ = place_legend(g, legend_rows(g))
    s = lay.scale
    pages = [{t for t, *_ in runs} for runs in _texts(printkit.render_map(g, o))]
    under = [i for i, t in enumerate(lay.tiles)
             if x0 * s < t.x0 + t.w and t.x0 < x1 * s and y0 * s < t.y0 + t.h and t.y0 < y1 * s]
    assert under
    rows = [r.text for r in legend_rows(g)]
    assert len(rows) >= 5
    for row in rows:
        assert any(row in pages[i] for i in under), row
    title = g.info.title.upper()
    assert all((title in p) == (i in under) for i, p in enumerate(pages))


def _id_centres(runs, geo):
    """hex id -> (x, y) of the id text's centre on the page."""
    regular, semibold = _fonts()

    def width(t, font, size):
        return stringWidth(t, semibold if "semibold" in font.lower() else regular, size)
    return {t: (x + width(t, font, size) / 2, y) for t, x, y, font, size in runs if t in geo}


@pytest.mark.parametrize("slug", ["bravery-in-the-sand", "western-desert-force"])
def test_printed_hexes_hold_a_counter(games, kits, slug):
    """Measured on the page: adjacent hexes' ids are one hex across flats apart, >= counter + 3 mm."""
    g = games[slug]
    lay = kits[slug].layout
    counter = g.info.counter.inches * 72
    assert lay.hex_flats >= counter + HEX_MARGIN - 1e-6
    runs = _texts(kits[slug].files["map.pdf"])[0]
    ids = _id_centres(runs, g.geometry)
    measured = []
    for a, (ax, ay) in ids.items():
        for b in g.geometry.neighbours(a):
            if b in ids:  # each id sits at the same offset above its hex's centre
                measured.append(((ids[b][0] - ax) ** 2 + (ids[b][1] - ay) ** 2) ** 0.5)
    assert len(measured) > 20
    assert all(abs(d - lay.hex_flats) < TOL for d in measured)
    text = " ".join(t for t, *_ in runs)
    assert f"1 hex = {round(lay.hex_flats / PT_PER_MM, 3):g} mm across flats" in text


def _staircase(tmp_path):
    """Desert Fox's maps where the coast lays them (release 0.1's board, 8,000 x 3,045 px): the
    sections' `at` and `trim` taken out of a copy of the sources, the tracks left in a strip
    above them."""
    root = copy_sources(tmp_path, "desert-fox-deluxe")
    text = (root / "map.yaml").read_text(encoding="utf-8")
    text = re.sub(r", at: \[\d+, \d+\](, trim: \[[\d, ]+\])?", "", text)
    text = re.sub(r"\nlattice: .*", "", text)
    text = text.replace("width: 4760", "width: 8000").replace("height: 2523", "height: 3045")
    text = text.replace("area: [0, 0, 4760, 2523]", "area: [0, 10, 8000, 2985]")
    text = re.sub(r"origin: \[(\d+), (\d+)\]", lambda m: f"origin: [{2700 + int(m[1]) // 4}, {30 + int(m[2]) // 6}]", text)
    (root / "map.yaml").write_text(text, encoding="utf-8")
    return load_game(root)


def _every_hex_on_a_printed_tile(g, lay):
    printed = {(t.row, t.col) for t in lay.tiles}
    cw, ch = lay.content
    step_x, step_y = cw - lay.overlap, ch - lay.overlap
    s = lay.scale
    for label in g.geometry.labels:
        x, y = (v * s for v in g.geometry.ideal_centre(label))
        rows = {r for r in range(lay.nrows) if r * step_y <= y <= r * step_y + ch}
        cols = {c for c in range(lay.ncols) if c * step_x <= x <= c * step_x + cw}
        assert any((r, c) in printed for r in rows for c in cols), label


def test_tiles_with_nothing_on_them_are_not_printed(games, tmp_path):
    """Desert Fox's maps in the staircase of the coast leave whole tiles of background: they are
    left out, and every hex still lies on a printed tile.  The packed board (issue 35) prints
    every tile: nothing on it is empty."""
    g = _staircase(tmp_path)
    lay = tile_layout(g, PrintOptions("letter", 10 * PT_PER_MM))
    assert 0 < len(lay.tiles) < lay.nrows * lay.ncols
    _every_hex_on_a_printed_tile(g, lay)
    g = games["desert-fox-deluxe"]
    lay = tile_layout(g, PrintOptions("letter", 10 * PT_PER_MM))
    assert len(lay.tiles) == lay.nrows * lay.ncols
    _every_hex_on_a_printed_tile(g, lay)


@pytest.mark.parametrize("overlap_mm", [10, 25])
def test_tiles_overlap_and_reassemble_to_the_board(games, overlap_mm):
    g = games["western-desert-force"]
    o = PrintOptions("a4", overlap_mm * PT_PER_MM)
    lay = tile_layout(g, o)
    assert lay.nrows * lay.ncols == len(lay.tiles) > 1
    grid = {(t.row, t.col): t for t in lay.tiles}
    for (r, c), t in grid.items():
        if (r, c + 1) in grid:
            assert abs(t.x0 + t.w - grid[r, c + 1].x0 - o.overlap) < 1e-6
        if (r + 1, c) in grid:
            assert abs(t.y0 + t.h - grid[r + 1, c].y0 - o.overlap) < 1e-6
    last = grid[lay.nrows - 1, lay.ncols - 1]
    assert abs(last.x0 + last.w - g.map.board.width * lay.scale) < 1e-6
    assert abs(last.y0 + last.h - g.map.board.height * lay.scale) < 1e-6
    # measured on the pages: a hex id in a seam prints on both tiles, shifted by the tile offset
    runs = _texts(printkit.render_map(g, o))
    geo = g.geometry
    seams = 0
    for (r, c), t in grid.items():
        if (r, c + 1) not in grid:
            continue
        right = grid[r, c + 1]
        i, j = lay.tiles.index(t), lay.tiles.index(right)
        a, b = _id_centres(runs[i], geo), _id_centres(runs[j], geo)
        for hex_id in set(a) & set(b):
            assert abs((a[hex_id][0] - b[hex_id][0]) - (right.x0 - t.x0)) < TOL
            assert abs(a[hex_id][1] - b[hex_id][1]) < TOL
            seams += 1
    assert seams > 0
    # registration crosses sit inside the overlap bands
    for x, y in registration_points(lay):
        assert any(t.x0 <= x <= t.x0 + t.w and t.y0 <= y <= t.y0 + t.h for t in lay.tiles)
        assert sum(t.x0 <= x <= t.x0 + t.w and t.y0 <= y <= t.y0 + t.h for t in lay.tiles) >= 2


# ---- set-up cards --------------------------------------------------------------------------------
def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("slug", GAMES)
def test_every_unit_of_a_scenario_is_on_its_sides_card(games, slug):
    g = games[slug]
    reader = PdfReader(io.BytesIO(render_cards(g, PrintOptions("a4", 0))))
    pages = [_squash(p.extract_text()) for p in reader.pages]
    units = {u.id: (u.name, g.side_of_unit(u).id) for u in g.units}
    units |= {ld.id: (ld.faces[0].name, g.side_of_leader(ld).id) for ld in g.units_file.leaders}
    cards = [(stem, side) for stem in sorted(g.scenarios) for side in g.sides]
    assert len(pages) == len(cards)
    for stem, sc in g.scenarios.items():
        named = {u.id for f in sc.formations for u in g.units if u.formation == f.formation}
        named |= {u.unit for u in sc.units} | set(sc.garrisons)
        named |= {p for r in sc.reinforcements for p in r.units} | {p for c in sc.conditional_groups for p in c.units}
        assert named
        for pid in named:
            name, side = units[pid]
            text = pages[cards.index((stem, side))]
            assert _squash(name) in text, f"{stem}: {name} not on the {side} card"
        for side in g.sides:
            assert _squash(sc.name)[:20] in pages[cards.index((stem, side))]


def _sentences(text: str) -> list[str]:
    return [x for x in re.split(r"(?<=[.)])\s+", text.strip()) if x]


@pytest.mark.parametrize("slug", GAMES)
def test_cards_give_special_rules_and_victory(games, slug):
    """Both cards of a scenario carry its special rules (or its description, which words them)
    and its victory conditions (or the game's victory table), wrapped, none cut off."""
    g = games[slug]
    reader = PdfReader(io.BytesIO(render_cards(g, PrintOptions("a4", 0))))
    pages = [_squash(p.extract_text().replace("\u2022", "")) for p in reader.pages]
    cards = [(stem, side) for stem in sorted(g.scenarios) for side in g.sides]
    for stem, sc in g.scenarios.items():
        special = [r.text for r in getattr(sc, "special_rules", [])] or _sentences(sc.description)
        victory = [v.text for v in getattr(sc, "victory", [])] or \
            (g.tables["victory"].summary if "victory" in g.tables else [])
        assert special
        for side in g.sides:
            text = pages[cards.index((stem, side))]
            assert "Specialrules" in text
            for x in special + victory:
                assert _squash(x) in text, f"{stem}/{side}: {x[:60]}"
            if victory:
                assert "Victory" in text


def test_card_places_units_on_their_hexes(games):
    g = games["western-desert-force"]
    sc = g.scenarios["campaign"]
    pages = _texts(render_cards(g, PrintOptions("a4", 0)))
    cards = [(stem, side) for stem in sorted(g.scenarios) for side in g.sides]
    checked = 0
    for u in sc.units:
        if u.hex is None or u.unit not in {x.id for x in g.units}:
            continue
        unit = next(x for x in g.units if x.id == u.unit)
        runs = pages[cards.index(("campaign", g.side_of_unit(unit).id))]
        y = next(y for t, x, y, *_ in runs if t == unit.name)
        same_line = [t for t, x, yy, *_ in runs if abs(yy - y) < 0.5]
        assert any(t.split()[0] == u.hex for t in same_line if t != unit.name), (unit.name, same_line)
        checked += 1
    assert checked > 10


# ---- player aids ---------------------------------------------------------------------------------
def _norm(text) -> str:
    return re.sub(r"\s+", "", str(text)).lower()


def _cell(v) -> str:
    """A source value as a cell shows it (the test's own reading of the sources)."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    return str(v)


def _runs(pdf: bytes):
    """Per page, every text run as (normalised text, x0, x1, y)."""
    regular, semibold = _fonts()
    return [[(_norm(t), x, x + stringWidth(t, semibold if "semibold" in font.lower() else regular, size), y)
             for t, x, y, font, size in page] for page in _texts(pdf)]


def _names(g, key) -> set[str]:
    """How a key may head a row or column: itself, with spaces, or its terrain's name."""
    out = {_norm(key), _norm(str(key).replace("_", " "))}
    for kinds in (g.hex_terrain_types, g.hexside_feature_types):
        if str(key) in kinds:
            out.add(_norm(kinds[str(key)].name))
    return out


def _expected(rec: dict) -> list[tuple[set[str] | None, str]]:
    """(column heading names, cell text) of a record's scalar values, nested mappings flattened."""
    out = []
    for k, v in rec.items():
        if k in ("provenance", "reason", "note"):
            continue
        if isinstance(v, dict) and all(not isinstance(x, (dict, list)) or
                                       (isinstance(x, list) and not any(isinstance(y, (dict, list)) for y in x))
                                       for x in v.values()):
            out += [(kk, _cell(x)) for kk, x in v.items()]
        elif not isinstance(v, dict) and not (isinstance(v, list) and any(isinstance(y, (dict, list)) for y in v)):
            out.append((k, _cell(v)))
    return out


def _row_found(g, pages, label: set[str] | None, cells) -> bool:
    """A row whose label (or first cell) and every cell sit on one line, each cell under a
    heading of its column (the heading's extent overlaps the cell's) above it on the page."""
    cells = [(k, v) for k, v in cells if v != ""]  # an empty list prints an empty cell

    def text_at(runs, first):
        """A cell's text from its first line down: the runs starting where it starts."""
        acc, want = "", None
        for t, x0, _, y in sorted((r for r in runs if abs(r[1] - first[1]) < 1 and r[3] <= first[3] + 0.5),
                                  key=lambda r: -r[3]):
            if y < first[3] - 60:
                break
            acc += t
            yield acc

    for runs in pages:
        anchors = [r for r in runs if r[0] in label] if label else \
            [r for r in runs if cells and _norm(cells[0][1]).startswith(r[0]) and r[0]]
        for anchor in anchors:
            y = anchor[3]
            line = [r for r in runs if abs(r[3] - y) < 0.5]
            ok = True
            for key, value in cells:
                names = _names(g, key)  # a heading may wrap: a line of it names the column
                heads = [r for r in runs if r[3] > y + 0.5 and
                         (r[0] in names or (len(r[0]) >= 4 and any(r[0] in n for n in names)))]
                if not any(_norm(value) in text_at(runs, r) and any(h[1] < r[2] and r[1] < h[2] for h in heads)
                           for r in line):
                    ok = False
                    break
            if ok:
                return True
    return False


def _records_in(data):
    """Every mapping of records (all values mappings) and list of records in table data."""
    if isinstance(data, dict):
        if data and all(isinstance(v, dict) for v in data.values()):
            yield [(k, v) for k, v in data.items()]
        for k, v in data.items():
            if k != "results":
                yield from _records_in(v)
    elif isinstance(data, list):
        if data and all(isinstance(v, dict) for v in data):
            yield [(None, v) for v in data]
        for v in data:
            yield from _records_in(v)


def _check_results(pages, data) -> int:
    """A combat results table cell by cell: die rolls down, columns across, each result centred
    under its column heading on its die roll's line."""
    res = data["results"]
    if isinstance(data.get("columns"), list):
        heads = [str(c) for c in data["columns"]]
        n = len(next(iter(res.values())))
        dice = [_cell(x) for x in data["die"]] if isinstance(data.get("die"), list) else [str(i + 1) for i in range(n)]
        rows = [(dice[i], [_cell(res[c][i]) for c in res]) for i in range(n)]
    else:
        heads = [_cell(x) for x in next(iter(data["lines"].values()))]
        rows = [(k, [_cell(x) for x in v]) for k, v in res.items()]
    checked = 0
    for runs in pages:
        head_line = next((y for *_, y in runs if [r[0] for r in sorted((r for r in runs if abs(r[3] - y) < 0.5),
                          key=lambda r: r[1])][-len(heads):] == [_norm(h) for h in heads]), None)
        if head_line is None:
            continue
        centres = [(r[1] + r[2]) / 2 for r in sorted((r for r in runs if abs(r[3] - head_line) < 0.5),
                                                       key=lambda r: r[1])][-len(heads):]
        for die, cells in rows:
            label = next(r for r in runs if r[0] == _norm(die) and r[3] < head_line and r[1] < centres[0])
            line = sorted((r for r in runs if abs(r[3] - label[3]) < 0.5 and r[1] > label[2]), key=lambda r: r[1])
            assert [r[0] for r in line] == [_norm(c) for c in cells], (die, line)
            assert all(abs((r[1] + r[2]) / 2 - c) < 1 for r, c in zip(line, centres)), die
            checked += len(cells)
    return checked


@pytest.mark.parametrize("slug", GAMES)
def test_aids_terrain_and_combat_tables_equal_the_sources_cell_by_cell(games, slug):
    g = games[slug]
    pages = _runs(printkit.render_aids(g, PrintOptions("a4", 0)))
    terrain = [t for t in ("terrain-effects", "movement") if t in g.tables and
               any("cost" in k or k in ("hex", "terrain") for k in g.tables[t].data)]
    combat = [t for t in g.tables if "results" in g.tables[t].data or t == "combat"]
    assert combat
    sources = [g.tables[t].data for t in terrain + combat]
    if not terrain:  # the terrain key of terrain.yaml
        sources.append({"hex": {t.name: {"prohibited": t.prohibited, "rule": t.rule} for t in g.terrain.hex_terrain},
                        "side": {f.name: {"rule": f.rule} | ({"MP to cross": f.cost} if f.cost is not None else {})
                                 for f in g.terrain.hexside_features}})
    rows = 0
    for data in sources:
        if isinstance(data.get("results"), dict):
            assert _check_results(pages, data) == sum(len(v) for v in data["results"].values())
        for records in (r for k, v in data.items() if k != "results" for r in _records_in(v)):
            for key, rec in records:
                cells = _expected(rec)
                assert _row_found(g, pages, _names(g, key) if key is not None else None, cells), (key, cells)
                rows += 1
    assert rows >= 3


@pytest.mark.parametrize("slug", GAMES)
def test_aids_print_every_table_as_the_sources_give_it(games, slug):
    g = games[slug]
    pdf = printkit.render_aids(g, PrintOptions("a4", 0))
    text = _norm(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    for tid, t in g.tables.items():
        assert _norm(t.title) in text and all(_norm(x) in text for x in t.summary), tid
        values, keys = set(), set()
        _leaves(t.data, values, keys)
        missing = [v for v in values if _norm(v) not in text]
        assert not missing, f"{tid}: {missing[:5]}"
        grid = {"results", "columns", "die", "lines"} if "results" in t.data else set()  # the results grid's own axes
        unnamed = [k for k in keys - grid if not any(n in text for n in _names(g, k))]
        assert not unnamed, f"{tid}: {unnamed[:5]}"
        if t.provenance == "reconstructed":
            assert _norm(f"Reconstructed: {t.reason}") in text
    for tr in g.map.tracks:  # the tracks page: every box and caption
        assert _norm(tr.name) in text and all(_norm(b) in text for b in tr.boxes + list(tr.captions.values()))
    fonts = [f.get_object() for p in PdfReader(io.BytesIO(pdf)).pages for f in p["/Resources"]["/Font"].values()]
    assert fonts and all("/FontFile2" in (f["/DescendantFonts"][0].get_object() if "/DescendantFonts" in f else f)
                         ["/FontDescriptor"] for f in fonts)  # every font embedded


@pytest.mark.parametrize("slug", GAMES)
def test_aids_and_cards_text_stays_on_the_page_and_apart(games, slug):
    """Measured on the pages, A4 and Letter: no text run leaves the margins or runs into another
    on its line, none is set smaller than 5 pt (a wide grid or a long card shrinks, within
    reason), and no page holds an image (text and rules are vector)."""
    g = games[slug]
    for page in ("a4", "letter"):
        o = PrintOptions(page, 0)
        for pdf in (printkit.render_aids(g, o), render_cards(g, o)):
            _text_apart(pdf, PAGES[page][0])
            assert all(_images(p) == 0 for p in PdfReader(io.BytesIO(pdf)).pages)  # all vector


def _text_apart(pdf: bytes, pw: float) -> None:
    regular, semibold = _fonts()
    for page in _texts(pdf):
        runs = [(x, x + stringWidth(t, semibold if "semibold" in f.lower() else regular, size), y, size, t)
                for t, x, y, f, size in page if t != "\u2022"]
        assert all(x0 >= 10 * PT_PER_MM and x1 <= pw - 10 * PT_PER_MM for x0, x1, *_ in runs)
        assert min(size for *_, size, _ in runs) >= 4.9
        for i, (a0, a1, ay, _, at) in enumerate(runs):
            for b0, b1, by, _, bt in runs[i + 1:]:
                if abs(ay - by) < 1:
                    assert a1 <= b0 + 0.5 or b1 <= a0 + 0.5, (at, bt)


def _leaves(v, values, keys):
    """Every scalar of table data as a cell shows it, and every key."""
    if isinstance(v, dict):
        for k, x in v.items():
            keys.add(str(k))
            _leaves(x, values, keys)
    elif isinstance(v, list):
        for x in v:
            _leaves(x, values, keys)
    else:
        values.add(_cell(v))


# ---- the command ---------------------------------------------------------------------------------
def test_print_command_writes_the_kit_atomically(tmp_path, monkeypatch, kits):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["print", SLUG, "--page", "a4"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "generated" / SLUG / "print"
    assert sorted(p.name for p in out.iterdir()) == sorted(printkit.FILES)
    assert (out / "kit.pdf").read_bytes() == kits[SLUG].files["kit.pdf"]
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken(*a, **k):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(printkit, "render_cards", broken)  # fails after the map was rendered
    with pytest.raises(RuntimeError):
        CliRunner().invoke(app, ["print", SLUG, "--page", "letter"], catch_exceptions=False)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing half-written, no temp files


@pytest.mark.parametrize("args, option", [(["--page", "a3"], "--page"), (["--overlap", "2 parsecs"], "--overlap"),
                                          (["--overlap", "-1mm"], "--overlap"), (["--overlap", "200mm"], "--overlap")])
def test_bad_options_are_one_line_exit_2(tmp_path, monkeypatch, args, option):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["print", SLUG, *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "Traceback" not in result.output
    assert not (tmp_path / "generated" / SLUG).exists()  # no output (the model cache may be kept)


def test_options_default_to_the_games_page(games):
    g = games[SLUG]
    assert print_options(None, "10mm", g).page == g.info.print.page
    assert abs(print_options("letter", "1/2in", g).overlap - 36) < 1e-9
