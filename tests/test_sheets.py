"""Counter sheets (issue 3): the PDF is read back and measured against the sources and the layout."""
from __future__ import annotations

import io
from collections import Counter as Tally

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

import builder.paths
from builder.cli import app
from builder.render.sheets import (PT_PER_IN, PT_PER_MM, SheetError, layout, parse_length, render_sheets,
                                   sheet_options)
from tests.conftest import SLUG, copy_sources

TOL = 0.1 * PT_PER_MM  # ±0.1 mm
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


# ---- reading the PDF back ----------------------------------------------------------------------
def _mul(m, n):
    """m then n, as PDF matrices [a b c d e f]."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _walk(reader, stream, resources, ctm, on_do):
    stack = []
    for operands, op in ContentStream(stream, reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            xobj = resources["/XObject"][operands[0]].get_object()
            on_do(str(operands[0]), xobj, ctm)


def placements(data: bytes):
    """Per page: (width, height, [dict(form, x, y, bbox, images=[(x, y, w, h, px_w, px_h)])])."""
    reader = PdfReader(io.BytesIO(data))
    pages = []
    for page in reader.pages:
        found = []

        def on_page_do(name, xobj, ctm):
            assert xobj["/Subtype"] == "/Form", f"{name}: only counter forms are placed on a page"
            entry = {"form": name.removeprefix("/FormXob."), "x": ctm[4], "y": ctm[5],
                     "bbox": [float(v) for v in xobj["/BBox"]], "images": []}
            inner = _mul(tuple(float(v) for v in xobj.get("/Matrix", [1, 0, 0, 1, 0, 0])), ctm)

            def on_form_do(_, img, m):
                assert img["/Subtype"] == "/Image"
                entry["images"].append((m[4], m[5], m[0], m[3], int(img["/Width"]), int(img["/Height"])))

            _walk(reader, xobj, xobj.get("/Resources", page["/Resources"]), inner, on_form_do)
            found.append(entry)

        _walk(reader, page.get_contents(), page["/Resources"], (1, 0, 0, 1, 0, 0), on_page_do)
        box = page.mediabox
        pages.append((float(box.width), float(box.height), found))
    return pages


def _key(form: str) -> tuple[str, str, str]:
    side, kind, ref = form.split(".", 2)
    return side, kind, ref


# ---- fixtures: three renders of the real game ---------------------------------------------------
@pytest.fixture(scope="module")
def default_pdf(game):
    opts = sheet_options(game)
    return opts, render_sheets(game, opts)


@pytest.fixture(scope="module")
def a4_bleed_pdf(game):
    opts = sheet_options(game, page="a4", bleed="1/16in")
    return opts, render_sheets(game, opts)


@pytest.fixture(scope="module")
def fold_pdf(game):
    opts = sheet_options(game, page="a4", margin="0.5in", layout="fold")
    return opts, render_sheets(game, opts)


# ---- tests -----------------------------------------------------------------------------------
def test_lengths_parse_to_points():
    assert parse_length("1/16in") == pytest.approx(4.5)
    assert parse_length("10mm") == pytest.approx(28.3465, abs=1e-3)
    assert parse_length("0.25\"") == pytest.approx(18)
    assert parse_length("0") == parse_length(" 0 ") == 0
    assert parse_length("-1mm") < 0
    for bad in ("", "5", "1/16", "mm", "2 furlongs"):
        with pytest.raises(ValueError):
            parse_length(bad)


@pytest.mark.parametrize("which,size", [("default_pdf", LETTER), ("a4_bleed_pdf", A4), ("fold_pdf", A4)])
def test_page_size_matches_paper(request, which, size):
    opts, data = request.getfixturevalue(which)
    for width, height, _ in placements(data):
        assert abs(width - size[0]) <= TOL and abs(height - size[1]) <= TOL


def test_default_comes_from_the_sources(game, default_pdf):
    opts, _ = default_pdf
    assert game.info.print.page == opts.page == "letter"
    assert opts.margin == pytest.approx(parse_length(game.info.print.margin)) and opts.bleed == 0


def test_counter_pitch_is_the_printed_counter_size(game, default_pdf):
    """Butted counters: the distance between neighbours in the PDF is the counter edge of game.yaml."""
    _, data = default_pdf
    edge = game.info.counter.inches * PT_PER_IN
    assert edge == pytest.approx(0.625 * 72)
    for _, _, found in placements(data):
        rows: dict[float, list[float]] = {}
        for p in found:
            rows.setdefault(round(p["y"], 2), []).append(p["x"])
            (ix, iy, iw, ih, pxw, pxh), = p["images"] or [(p["x"], p["y"], edge, edge, 300, 300)]
            assert abs(ix - p["x"]) <= TOL and abs(iy - p["y"]) <= TOL  # the art fills the cut square
            assert abs(iw - edge) <= TOL and abs(ih - edge) <= TOL
            assert pxw / (iw / PT_PER_IN) >= 300 and pxh / (ih / PT_PER_IN) >= 300  # >= 300 dpi
        xs_steps = [b - a for xs in rows.values() for a, b in zip(sorted(xs), sorted(xs)[1:])]
        ys = sorted(rows)
        assert xs_steps and all(abs(d - edge) <= TOL for d in xs_steps)
        assert all(abs((b - a) - edge) <= TOL for a, b in zip(ys, ys[1:]))


def test_bleed_extends_the_art_past_the_cut(game, a4_bleed_pdf):
    opts, data = a4_bleed_pdf
    edge, bleed = game.info.counter.inches * PT_PER_IN, 72 / 16
    for _, _, found in placements(data):
        xs = sorted({round(p["x"], 3) for p in found})
        assert all(abs((b - a) - (edge + 2 * bleed)) <= TOL for a, b in zip(xs, xs[1:]))
        for p in found:
            assert p["bbox"] == pytest.approx([-bleed, -bleed, edge + bleed, edge + bleed], abs=1e-3)
            for ix, iy, iw, ih, pxw, _ in p["images"]:
                # the image covers the cut square plus at least the bleed on every side
                assert ix <= p["x"] - bleed + 1e-3 and ix + iw >= p["x"] + edge + bleed - 1e-3
                assert iy <= p["y"] - bleed + 1e-3 and iy + ih >= p["y"] + edge + bleed - 1e-3
                # and the face itself sits exactly on the cut square (whole pixels of the bleed)
                off = (p["x"] - ix) / (iw / pxw)  # in image pixels
                assert abs(off - round(off)) < 1e-3


@pytest.mark.parametrize("which", ["default_pdf", "a4_bleed_pdf", "fold_pdf"])
def test_pdf_content_is_the_layout(game, request, which):
    opts, data = request.getfixturevalue(which)
    lay = layout(game, opts)
    read = placements(data)
    assert len(read) == len(lay.pages)
    for (_, _, found), page in zip(read, lay.pages):
        got = sorted((p["form"], round(p["x"], 2), round(p["y"], 2)) for p in found)
        want = sorted((c.form, round(c.x, 2), round(c.y, 2)) for c in page.cells)
        assert got == want


def test_each_back_lands_behind_its_front(game, default_pdf, a4_bleed_pdf):
    """Long-edge duplex: the back in cell (row, col) of page 2k is the counter whose front is in cell
    (row, ncols-1-col) of page 2k-1; physically its x-centre is page width - the front's x-centre."""
    edge = game.info.counter.inches * PT_PER_IN
    for opts, data in (default_pdf, a4_bleed_pdf):
        lay = layout(game, opts)
        pages = placements(data)
        assert len(pages) % 2 == 0 and len(pages) >= 2
        for k in range(0, len(pages), 2):
            width, _, fronts = pages[k]
            _, _, backs = pages[k + 1]
            assert all(_key(p["form"])[0] == "F" for p in fronts) and all(_key(p["form"])[0] == "B" for p in backs)
            by_pos = {(round(p["x"] + edge / 2, 2), round(p["y"], 2)): p for p in backs}
            assert len(by_pos) == len(backs) == len(fronts)
            for f in fronts:
                b = by_pos.pop((round(width - (f["x"] + edge / 2), 2), round(f["y"], 2)))
                assert _key(b["form"])[1:] == _key(f["form"])[1:]  # same counter, its back face
            assert not by_pos
            # the same in grid cells, columns counted from the left of each page's own block
            block_f = min(p["x"] for p in fronts) - opts.bleed  # left edge of the front block (column 0)
            block_b = width - (block_f + lay.ncols * opts.pitch)  # the back block is its mirror image
            assert block_b == pytest.approx(block_f, abs=TOL)  # centred: both grids share the cut lines

            def cell(p, x0):
                return round(p["y"], 2), round((p["x"] - opts.bleed - x0) / opts.pitch)

            fronts_by_cell = {cell(p, block_f): _key(p["form"])[1:] for p in fronts}
            for p in backs:
                row, col = cell(p, block_b)
                assert fronts_by_cell[(row, lay.ncols - 1 - col)] == _key(p["form"])[1:]


def test_backs_are_the_right_faces(game, default_pdf):
    _, data = default_pdf
    lay = layout(game, sheet_options(game))
    back_cells = [c for p in lay.pages for c in p.cells if c.side == "back"]
    for c in back_cells:
        k = c.counter
        if k.kind == "unit":
            assert k.back.face == 2 and k.back.file.endswith("-reduced.png")
        elif k.kind == "marker" and len(game.markers[k.ref].faces) == 2:
            assert k.back.face == 2 and k.plain is None
        else:  # chits and one-faced markers: a plain back
            assert k.back is None and k.plain
    chit_backs = {c.counter.plain for c in back_cells if c.counter.kind == "chit"}
    assert len(chit_backs) == 1  # all chits look alike from behind: drawn blind from the cup
    # plain backs are vector fills, two-faced backs are images
    for _, _, found in placements(data)[1::2]:
        for p in found:
            kind, ref = _key(p["form"])[1:]
            two_faced = kind == "unit" or (kind == "marker" and len(game.markers[ref].faces) == 2)
            assert bool(p["images"]) == two_faced


def test_counts_per_counter_match_the_sources(game, default_pdf, fold_pdf):
    want = Tally({("unit", u.id): 1 for u in game.units})
    want.update({("marker", m.id): m.count for m in game.markers.values()})
    want.update({("chit", c.id): c.count for c in game.chits})
    assert want[("marker", "control")] == 13
    for opts, data in (default_pdf, fold_pdf):
        pages = placements(data)
        for side in ("F", "B"):
            got = Tally()
            for _, _, found in pages:
                for p in found:
                    s, kind, ref = _key(p["form"])
                    if s == side:
                        got[(kind, ref)] += 1
            # form names replace characters outside [A-Za-z0-9_-]; this game's ids need none
            assert got == want, side


def test_sheet_is_grouped_by_side_and_formation(game):
    lay = layout(game, sheet_options(game))
    order = lay.counters
    sides = [game.nationalities[game.formations[c.group].nationality].side for c in order if c.kind == "unit"]
    assert sides == sorted(sides, key=list(game.sides).index)  # every Axis unit before the Commonwealth
    groups = [c.group for c in order]
    for g in set(groups):  # each formation / chit set / marker is one run
        first, last = groups.index(g), len(groups) - 1 - groups[::-1].index(g)
        assert set(groups[first:last + 1]) == {g}
    assert [c.kind for c in order][-sum(m.count for m in game.markers.values()):] == ["marker"] * 23
    fronts = [c for c in lay.pages[0].cells]
    formation_rows = {}
    for c in fronts:  # a formation that fits in one row is not split over two
        if c.counter.kind == "unit":
            formation_rows.setdefault(c.counter.group, set()).add(c.row)
    assert all(len(rows) == 1 for rows in formation_rows.values())


def test_fold_layout_puts_mirrored_backs_beside_the_fronts(game, fold_pdf):
    opts, data = fold_pdf
    edge = game.info.counter.inches * PT_PER_IN
    for width, _, found in placements(data):
        fronts = [p for p in found if p["form"].startswith("F.")]
        backs = {(round(p["x"], 2), round(p["y"], 2)): p["form"] for p in found if p["form"].startswith("B.")}
        assert fronts and len(backs) == len(fronts)
        for f in fronts:
            assert f["x"] + edge <= width / 2 - 3 * PT_PER_MM  # left of the fold line
            assert backs[(round(width - f["x"] - edge, 2), round(f["y"], 2))][1:] == f["form"][1:]


def test_fonts_are_the_projects_and_embedded(default_pdf):
    reader = PdfReader(io.BytesIO(default_pdf[1]))
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        assert fonts
        for ref in fonts.values():
            font = ref.get_object()
            assert "SourceSansPro" in font["/BaseFont"]
            assert "/FontFile2" in font["/FontDescriptor"].get_object()


def test_same_sources_give_the_same_bytes(game, default_pdf):
    opts, data = default_pdf
    assert render_sheets(game, opts) == data


def test_impossible_print_settings_in_the_sources_are_named(game):
    bad = game.replace(info=game.info.model_copy(
        update={"print": game.info.print.model_copy(update={"margin": "140mm"})}))
    with pytest.raises(SheetError, match=r"game.yaml print.margin: 140mm leaves no room"):
        sheet_options(bad)


@pytest.mark.parametrize("args,option", [
    (["--page", "a5"], "--page"),
    (["--bleed", "-1mm"], "--bleed"),
    (["--bleed", "1in"], "--bleed"),
    (["--bleed", "2 parsecs"], "--bleed"),
    (["--margin", "150mm"], "--margin"),
    (["--margin", "-3mm"], "--margin"),
    (["--layout", "zigzag"], "--layout"),
    (["--dpi", "72"], "--dpi"),
])
def test_broken_options_are_one_clear_line(tmp_path, monkeypatch, args, option):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["sheets", SLUG, *args])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "Traceback" not in result.output
    assert not (tmp_path / "generated" / SLUG).exists()  # no output (the model cache may be kept)


def test_unknown_game_for_sheets(tmp_path, monkeypatch):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["sheets", "no-such-game"])
    assert result.exit_code == 2 and "unknown game 'no-such-game'" in result.output


def test_sheets_command_and_build_write_the_pdf(tmp_path, monkeypatch, built, default_pdf):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = CliRunner().invoke(app, ["sheets", "--all"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "generated" / SLUG
    assert (out / f"{SLUG}-counters.pdf").read_bytes() == default_pdf[1]
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    root, _, _ = built  # `hexforge build` writes the same sheet beside the module
    assert (root / "generated" / SLUG / f"{SLUG}-counters.pdf").read_bytes() == default_pdf[1]
