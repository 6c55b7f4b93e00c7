"""A designer's own art (issue 35): a scanned board whose hex grid `fit-grid` finds from a few
clicks, counter faces that are pictures (PNG, SVG) with or without the values over them, the
print kit's tile index over the map, and no image a module names without holding it."""
from __future__ import annotations

import io
import os
import random
import zipfile
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

import builder.paths
from builder.build import build_game
from builder.geometry import roundtrip
from builder.model import SourceError, load_game
from builder.new_game import new_game
from builder.render.counters import all_faces, draw_face
from builder.render.map_pdf import PrintOptions
from builder.render.printkit import render_kit
from builder.render.sheets import PT_PER_MM
from builder.render.thumbnail import thumbnail
from builder.vassal import counters as vcounters
from builder.vassal.images import MissingImages, named_images
from builder.vassal.module import build_vmod
from tests.conftest import loaded_game
from tests.scan_art import draw_png_art, draw_scan, scan_centre, write_svg_art
from validators.cli import app

runner = CliRunner()
DX, DY, OX, OY = 73.6, 85.0, 61, 58  # the scan's own hexes (unknown to hexforge)
COLS, ROWS = 15, 7
SIZE = (1200, 900)
AREA = "0,0,1150,660"  # the part of the scan with hexes (the track boxes lie below)
GAMES = ["bravery-in-the-sand", "western-desert-force", "tobrouk-41-42", "slouch-hats-and-eggshells",
         "desert-fox-deluxe"]


def hexforge(root: Path, *args: str):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", root)
        result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


def clicks(labels, seed: int = 5, transpose: bool = False) -> list[str]:
    """HEX=X,Y arguments: each hex's drawn centre, off by up to 1.5 px as a click would be."""
    rnd, out = random.Random(seed), []
    for lab in labels:
        x, y = scan_centre(int(lab[:2]) - 1, int(lab[2:]) - 1, DX, DY, OX, OY)
        x, y = x + rnd.uniform(-1.5, 1.5), y + rnd.uniform(-1.5, 1.5)
        out.append(f"{lab}={y:.0f},{x:.0f}" if transpose else f"{lab}={x:.0f},{y:.0f}")
    return out


def scanned_game(tmp: Path, transpose: bool = False) -> Path:
    """`hexforge new scan` whose board is a scan (map.yaml `board.image`), tracks moved onto the
    scan's printed boxes; returns the workspace root."""
    new_game("scan", tmp / "sources")
    root = tmp / "sources" / "scan"
    boxes = [(20 + 70 * i, 720, 70, 70, str(i + 1)) for i in range(4)]
    boxes += [(330 + 110 * i, 720, 110, 70, s) for i, s in enumerate(["Blue", "Red"])]
    draw_scan(root / "scan.png", SIZE, COLS, ROWS, DX, DY, OX, OY, {"0203": "#9bbf85", "0404": "#8fb8d8"},
              ["0102", "0202", "0302"], boxes=boxes)
    text = (root / "map.yaml").read_text(encoding="utf-8")
    text = text.replace('  background: "#f4ecd8"', "  image: scan.png")
    text = text.replace("origin: [20, 520]", "origin: [20, 720]").replace("origin: [330, 520]", "origin: [330, 720]")
    (root / "map.yaml").write_text(text, encoding="utf-8")
    if transpose:  # the same map turned a quarter (rows of hexes): a sideways grid
        with Image.open(root / "scan.png") as img:
            img.transpose(Image.Transpose.TRANSPOSE).save(root / "scan.png")
    return tmp


# ---- fit-grid ------------------------------------------------------------------------------------
@pytest.mark.parametrize("transpose", [False, True], ids=["upright", "sideways"])
def test_fit_grid_puts_every_hex_of_a_scan_where_it_is_printed(tmp_path, transpose):
    ws = scanned_game(tmp_path, transpose)
    before = (ws / "sources/scan/map.yaml").read_text(encoding="utf-8")
    area = ",".join(AREA.split(",")[i] for i in ((1, 0, 3, 2) if transpose else (0, 1, 2, 3)))
    done = hexforge(ws, "fit-grid", "scan", *clicks(["0101", "1203", "0706", "1405"], transpose=transpose),
                    "--area", area)
    assert done.exit_code == 0, done.stderr
    assert ("sideways" if transpose else "upright") + " hexes" in done.stdout
    game = load_game(ws / "sources" / "scan")
    geo = game.geometry
    assert (game.map.board.width, game.map.board.height) == (SIZE[::-1] if transpose else SIZE)
    assert len(geo.labels) == COLS * ROWS and roundtrip.problem(geo) is None
    for c in range(COLS):  # every printed hex: VASSAL names it at its printed centre, and snaps there
        for r in range(ROWS):
            x, y = scan_centre(c, r, DX, DY, OX, OY)
            x, y = (y, x) if transpose else (x, y)
            label = f"{c + 1:02d}{r + 1:02d}"
            assert geo.label_at(x, y) == label
            cx, cy = geo.centre(label)
            assert abs(cx - x) <= 2.5 and abs(cy - y) <= 2.5, (label, (cx, cy), (x, y))
    # only the board's size and the grid block changed; the rest of map.yaml is as written
    after = (ws / "sources/scan/map.yaml").read_text(encoding="utf-8")
    kept = [ln for ln in before.splitlines() if not ln.startswith(("grid:", "  ")) or "numbering" in ln]
    assert all(ln in after.splitlines() for ln in kept)
    assert "numbering:\n  first: H" in after and "fitted by `hexforge fit-grid` to 4 hex centres on scan.png" in after
    assert hexforge(ws, "check", "scan").exit_code == 0


def test_fit_grid_reads_the_hexes_from_a_yaml_file(tmp_path):
    ws = scanned_game(tmp_path)
    points = tmp_path / "points.yaml"
    points.write_text("".join(f'"{a.split("=")[0]}": [{a.split("=")[1]}]\n'
                              for a in clicks(["0101", "1203", "0706"])), encoding="utf-8")
    done = hexforge(ws, "fit-grid", "scan", "--points", str(points), "--area", AREA)
    assert done.exit_code == 0, done.stderr
    assert load_game(ws / "sources/scan").geometry.label_at(*scan_centre(9, 4, DX, DY, OX, OY)) == "1005"


@pytest.mark.parametrize("args, message", [
    (["0101=61,58", "1203=871,272"], "at least three hexes"),
    (["0101=61,58", "0102=61,143", "0105=61,398"], "one line of hexes"),
    (["0101=61,58", "1203=871,272", "x706=503,484"], "x706 is not a hex id"),
    (["0101=61,58", "1203=871,272", "0706=503,484", "1405=1016,490"], "1405 lies"),
    (["0101=61,58", "1203=871"], "is not HEX=X,Y"),
    (["0101=61,58", "1203=871,272", "0706=503,484", "--orientation", "diagonal"], "--orientation 'diagonal'"),
    (["0101=61,58", "1203=871,272", "0706=503,484", "--area", "0,0,big"], "--area '0,0,big'"),
])
def test_fit_grid_refuses_what_fixes_no_grid_and_writes_nothing(tmp_path, args, message):
    ws = scanned_game(tmp_path)
    before = (ws / "sources/scan/map.yaml").read_bytes()
    done = hexforge(ws, "fit-grid", "scan", *args)
    assert done.exit_code == 1
    assert message in done.stderr and done.stderr.count("\n") == 1 and "nothing was written" in done.stderr
    assert (ws / "sources/scan/map.yaml").read_bytes() == before


def test_fit_grid_refuses_a_bad_points_file(tmp_path):
    ws = scanned_game(tmp_path)
    points = tmp_path / "points.yaml"
    points.write_text('"0101": [61]\n', encoding="utf-8")
    done = hexforge(ws, "fit-grid", "scan", "--points", str(points))
    assert done.exit_code == 1 and "is not [x, y]" in done.stderr and done.stderr.count("\n") == 1


# ---- image faces ---------------------------------------------------------------------------------
def art_game(tmp: Path) -> Path:
    """The starter with art: an SVG tank under Blue Armor's values, a PNG helmet under Blue
    Infantry's, Red Infantry all picture (its own reduced picture), a picture turn marker."""
    new_game("art", tmp / "sources")
    root = tmp / "sources" / "art"
    (root / "art").mkdir()
    write_svg_art(root / "art" / "tank.svg")
    draw_png_art(root / "art" / "helmet.png")
    draw_png_art(root / "art" / "helmet-reduced.png", "#8a8a5a")
    Image.new("RGB", (100, 100), "#3060c0").save(root / "art" / "clock.png")
    units = (root / "units.yaml").read_text(encoding="utf-8")
    for uid, image in (("blue-armor", "image: {file: art/tank.svg}"), ("blue-infantry", "image: {file: art/helmet.png}"),
                       ("red-infantry", "image: {file: art/helmet.png, values: false}, "
                                        "image_reduced: {file: art/helmet-reduced.png, values: false}")):
        units = units.replace(f"{{id: {uid}, ", f"{{id: {uid}, {image}, ")
    (root / "units.yaml").write_text(units, encoding="utf-8")
    markers = (root / "markers.yaml").read_text(encoding="utf-8")
    (root / "markers.yaml").write_text(markers.replace('text_colour: "#000000"}', 'text_colour: "#000000", '
                                                       'image: {file: art/clock.png, values: false}}'), encoding="utf-8")
    return root


def _faces(game, px: int = 96) -> dict[str, Image.Image]:
    return {a.file: draw_face(game, a, px) for a in all_faces(game)}


def test_faces_show_the_designers_art_in_the_module_and_the_sheets(tmp_path):
    root = art_game(tmp_path)
    game = load_game(root)
    plain = load_game(_plain(tmp_path))
    faces, before = _faces(game), _faces(plain)
    # values over the art: the stripe and the numbers as before, the middle is the picture
    tank, old = faces["unit-blue-armor-full.png"], before["unit-blue-armor-full.png"]
    assert tank.crop((0, 0, 96, 22)).tobytes() == old.crop((0, 0, 96, 22)).tobytes()  # the stripe
    assert tank.crop((0, 82, 96, 96)).tobytes() == old.crop((0, 82, 96, 96)).tobytes()  # the values' baseline
    assert tank.crop((0, 24, 96, 56)).tobytes() != old.crop((0, 24, 96, 56)).tobytes()  # the symbol is the tank
    assert (0x3d, 0x4a, 0x2a) in {c for _, c in tank.crop((0, 24, 96, 56)).getcolors(9216)}  # the tank's hull colour
    # the reduced face of a unit without its own reduced art: the same art, behind the reduced band
    assert faces["unit-blue-infantry-reduced.png"].tobytes() != faces["unit-blue-infantry-full.png"].tobytes()
    # a face that is the picture alone: no stripe, no values; its reduced face its own picture
    full, reduced = faces["unit-red-infantry-full.png"], faces["unit-red-infantry-reduced.png"]
    red_stripe = (0x7f, 0x1f, 0x1f)
    assert red_stripe not in {c for _, c in full.getcolors(9216)}
    assert (0x2f, 0x5d, 0x2f) in {c for _, c in full.getcolors(9216)}
    assert (0x8a, 0x8a, 0x5a) in {c for _, c in reduced.getcolors(9216)}
    assert (0x30, 0x60, 0xc0) in {c for _, c in faces["marker-game-turn-1.png"].getcolors(9216)}
    # the module holds exactly these faces; the sheets draw the same faces (same renderer, sheet size)
    vmod = build_game("art", root=tmp_path).outputs[0]
    with zipfile.ZipFile(vmod) as z:
        px = game.info.counter.pixels
        got = Image.open(io.BytesIO(z.read("images/unit-red-infantry-full.png")))
        assert got.tobytes() == draw_face(game, next(a for a in all_faces(game) if a.file == "unit-red-infantry-full.png"),
                                          px).tobytes()
        assert named_images(z.read("buildFile.xml").decode()) == {n[7:] for n in z.namelist() if n.startswith("images/")}
    sheets = PdfReader(tmp_path / "generated" / "art" / "art-counters.pdf")
    assert len(sheets.pages) == 2


def _plain(tmp: Path) -> Path:
    new_game("plain", tmp / "sources")
    return tmp / "sources" / "plain"


def _problem(root: Path, units_text: str):
    (root / "units.yaml").write_text(units_text, encoding="utf-8")
    with pytest.raises(SourceError) as e:
        load_game(root)
    (p,) = e.value.problems
    line = (root / "units.yaml").read_text(encoding="utf-8").splitlines()[p.line - 1]
    return p, line


def test_a_missing_outside_or_unreadable_image_is_a_problem_at_its_line(tmp_path):
    root = art_game(tmp_path)
    text = (root / "units.yaml").read_text(encoding="utf-8")
    p, line = _problem(root, text.replace("art/tank.svg", "art/panzer.svg"))
    assert "art/panzer.svg: no such file in the game's folder" in p.message and "art/panzer.svg" in line
    assert p.file == "sources/art/units.yaml" and "PNG or SVG" in p.hint
    outside = tmp_path / "secret.png"
    draw_png_art(outside)
    os.symlink(outside, root / "art" / "link.png")
    p, line = _problem(root, text.replace("art/tank.svg", "art/link.png"))
    assert "art/link.png lies outside the game's folder" in p.message and "art/link.png" in line
    (root / "art" / "broken.png").write_bytes(b"not a picture")
    p, _ = _problem(root, text.replace("art/tank.svg", "art/broken.png"))
    assert "art/broken.png is not an image" in p.message
    (root / "art" / "broken.svg").write_text("<svg><rect", encoding="utf-8")
    p, _ = _problem(root, text.replace("art/tank.svg", "art/broken.svg"))
    assert "art/broken.svg is not an SVG image" in p.message
    p, _ = _problem(root, text.replace("art/tank.svg", "../outside.png"))  # the schema refuses a path out
    assert "is not a picture file name" in p.message and "no '..'" in p.hint


# ---- the print kit: the tile index over the map ------------------------------------------------
def test_the_tile_index_shows_the_map_and_a_scan_prints_on_the_tiles(tmp_path):
    ws = scanned_game(tmp_path)
    assert hexforge(ws, "fit-grid", "scan", *clicks(["0101", "1203", "0706"]), "--area", AREA).exit_code == 0
    game = load_game(ws / "sources" / "scan")
    kit = render_kit(game, PrintOptions("a4", 10 * PT_PER_MM))
    reader = PdfReader(io.BytesIO(kit.files["kit.pdf"]))
    index = thumbnail(game)
    assert index.size == (1200, 900) and index.getpixel((20, 20)) != (255, 255, 255)  # the scan, reduced
    tiles = reader.pages[1:1 + len(kit.layout.tiles)]
    for page in [reader.pages[0], *tiles]:
        sizes = {(i.image.width, i.image.height) for i in page.images}
        assert index.size in sizes  # the index's picture on the contents page and on every tile
    for page in tiles:  # each tile carries the scan (one image in the PDF, however many tiles show it)
        assert SIZE in {(i.image.width, i.image.height) for i in page.images}
    refs = {x.idnum for page in [reader.pages[0], *tiles] for x in page["/Resources"]["/XObject"].values()}
    assert len(refs) <= 2  # the scan and the index, each stored once however many pages show them


# ---- no image a module names without holding it -------------------------------------------------
@pytest.mark.parametrize("slug", GAMES + ["new"])
def test_every_module_holds_every_image_it_names(slug, tmp_path):
    if slug == "new":
        new_game("demo", tmp_path / "sources")
        game = load_game(tmp_path / "sources" / "demo")
    else:
        game = loaded_game(slug)
    data, _ = build_vmod(game)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        xml = z.read("buildFile.xml").decode()
        held = {n[len("images/"):] for n in z.namelist() if n.startswith("images/")}
    named = named_images(xml)
    assert named and named <= held
    assert ('name="Chit"' in xml) == bool(game.chits)  # the chit prototype only where there are chits
    assert ("chit-back.png" in held) == bool(game.chits)


def test_the_build_refuses_a_module_naming_an_image_it_lacks(monkeypatch, tmp_path):
    """The prototype every module once defined, chits or none (issue 35), is caught by the build."""
    new_game("demo", tmp_path / "sources")
    game = load_game(tmp_path / "sources" / "demo")
    real = vcounters.prototypes

    def with_chit(g):
        out = real(g)
        out["Chit"] = [vcounters.p.mask(vcounters.CHIT_BACK, vcounters.CHIT_MASK, vcounters.MASK_KEY),
                       vcounters.p.placeholder_piece()]
        return out
    monkeypatch.setattr("builder.vassal.buildfile.prototypes", with_chit)
    with pytest.raises(MissingImages) as e:
        build_vmod(game)
    assert e.value.missing == ["chit-back.png"]


def test_a_broken_or_missized_scan_is_a_problem_at_map_yaml_board_image(tmp_path):
    ws = scanned_game(tmp_path)
    root = ws / "sources" / "scan"
    with pytest.raises(SourceError) as e:  # the scan is 1200 x 900, the starter's board 880 x 620
        load_game(root)
    (p,) = e.value.problems
    assert "scan.png is 1200 x 900 px; the board says 880 x 620" in p.message and "fit-grid" in p.hint
    line = (root / "map.yaml").read_text(encoding="utf-8").splitlines()[p.line - 1]
    assert line.strip() == "image: scan.png"
    (root / "scan.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    with pytest.raises(SourceError) as e:
        load_game(root)
    assert "board image: scan.png is not an image" in e.value.problems[0].message
