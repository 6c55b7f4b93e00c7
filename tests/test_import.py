"""`hexforge import VMOD [SLUG]` (issue 33): the sources of a game from any module, which then
builds into a module with the same piece slots, the same hex names at the same points and every
at-start piece on the same named location; what cannot be carried is listed, with why.

The two modules are read by the repo's readers (validators/vlog: grids and saves), not by the
importer's own code, so a mistake in the importer cannot agree with itself.
"""
from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

import builder.paths
from builder.build import build_game
from builder.importer.archive import ImportFailed
from builder.importer.game import NOTES, import_game
from builder.model import load_game
from builder.new_game import new_game
from builder.vassal.pieces import unchain
from builder.vassal.savefile import deobfuscate
from builder.vassal.sequence import split
from tests.conftest import REALDATA, needs_realdata
from validators.cli import app
from validators.vlog.commands import AddPiece
from validators.vlog.modulegrid import read_vmod_grids
from validators.vlog.reader import read_record

REAL = sorted([*(REALDATA / "modules").glob("*.vmod"), *(REALDATA / "hexcounters-template").glob("*.vmod")]) \
    if REALDATA.is_dir() else []


def slot_count(vmod: Path) -> int:
    with zipfile.ZipFile(vmod) as z:
        name = "buildFile.xml" if "buildFile.xml" in z.namelist() else "buildFile"
        root = etree.fromstring(z.read(name))
    return sum(1 for e in root.iter() if isinstance(e.tag, str) and e.tag.endswith(("widget.PieceSlot", "widget.CardSlot")))


def setups(vmod: Path) -> dict[str, str]:
    """Predefined setup name -> its file in the module (those that load a saved game)."""
    with zipfile.ZipFile(vmod) as z:
        name = "buildFile.xml" if "buildFile.xml" in z.namelist() else "buildFile"
        root = etree.fromstring(z.read(name))
    return {e.get("name"): e.get("file") for e in root.iter()
            if isinstance(e.tag, str) and e.tag.endswith("PredefinedSetup") and e.get("useFile") == "true"}


def at_start(vmod: Path, file: str, tmp: Path, placement: dict | None = None) -> list[tuple[str, str, str]]:
    """(piece name, map, location name) of every piece a setup adds, by the repo's log readers; `placement`:
    map -> {board: (column, row)} of a map of several boards (the setup's BoardPicker says it to VASSAL)."""
    with zipfile.ZipFile(vmod) as z:
        save = tmp / f"{vmod.stem}-{Path(file).name}"
        save.write_bytes(z.read(file))
    maps = read_vmod_grids(vmod)
    for name, boards in (placement or {}).items():
        maps[name].placement.update(boards)
    out = []
    for cmd in read_record(save).setup:
        if not isinstance(cmd, AddPiece) or not cmd.type:
            continue
        basic = unchain(cmd.type, cmd.state)[-1]
        if not basic.type.startswith("piece;"):
            continue
        name = split(basic.type[len("piece;"):], ";")[3]
        mp, x, y = split(basic.state, ";")[:3]
        where = maps[mp].location(int(x), int(y)) if mp in maps else "?"
        out.append((name, mp, where))
    return out


def rebuilt(vmod: Path, tmp: Path, slug: str):
    """(result of the import, the rebuilt module) of `vmod` imported and built in `tmp`."""
    r = import_game(vmod, tmp / "sources", slug)
    return r, build_game(slug, root=tmp).outputs[0]


def check_round_trip(vmod: Path, tmp: Path, slug: str) -> None:
    r, vmod2 = rebuilt(vmod, tmp, slug)
    notes = (r.dest / NOTES).read_text(encoding="utf-8")
    assert r.notes and all(n in notes for n in r.notes)  # what was left out is written in the game's folder
    # the same piece slots
    assert slot_count(vmod2) == slot_count(vmod)
    # the same hex names at the same points: every hex centre of the game, named by both modules' grids
    game = load_game(r.dest)
    old, new = read_vmod_grids(vmod), read_vmod_grids(vmod2)
    main_new = next(iter(new.values()))
    main_old = old.get(main_new.name) or next(iter(old.values()))
    centres = {h: game.geometry.centre(h) for h in game.geometry.labels}
    b = game.map.board
    if any(sq.area == (0, 0, b.width, b.height) for sq in [*game.map.squares, *game.map.regions]):  # the board's own grid,
        assert same_names(main_old, main_new, b.width, b.height)  # carried whole: every point named as before
    else:  # each hex of the game is named by its id in the rebuilt module (but where a zone covers it)
        assert sum(main_new.location(*c) == h for h, c in centres.items()) > 0.8 * len(centres)
        for sq in [*game.map.squares, *game.map.hexes, *game.map.regions]:  # a zone's own grid: every point of it
            x, y, w, h = sq.area
            assert same_names(main_old, main_new, w, h, origin=(x, y)), sq.name
    zones_left = set(re.findall(r"map '([^']*)': zone '[^']*' (?:\([^)]*\) )?is not carried over", notes))
    for om in game.map.maps:  # each further map: every point of its board named as before (unless a
        if om.name not in zones_left:  # zone of it is not carried, and the notes say so)
            assert same_names(old[om.id], new[om.id], om.board.width, om.board.height), om.id
    if "grid:" not in notes and "hex names:" not in notes:  # else our own grid stands in, and says so
        differ = [(h, main_old.location(*c), main_new.location(*c)) for h, c in centres.items()
                  if main_old.location(*c) != main_new.location(*c)]
        assert not differ, differ[:5]
    # every at-start piece of each setup on the same named location, or listed as left out
    new_setups = setups(vmod2)
    for name, file in setups(vmod).items():
        before = at_start(vmod, file, tmp)
        after = at_start(vmod2, new_setups[name], tmp)
        left = sum(int(n) for n in re.findall(rf"setup {re.escape(repr(name))}: (\d+) piece\(s\)", notes))
        assert len(after) + left == len(before)
        main = lambda mp: "Main Map" if mp == main_old.name else mp  # noqa: E731  (the rebuilt main map's name)
        wanted = Counter((r.names[n], main(mp), where) for n, mp, where in before)
        got = Counter(after)
        assert not got - wanted, sorted(got - wanted)[:5]  # nothing moved: each piece is where it was, on its map


def same_names(old, new, w: int, h: int, step: int = 7, origin: tuple[int, int] = (0, 0)) -> bool:
    """Two modules' grids of one map name every point of a board (or of a w x h area at `origin`) alike (a
    lattice of points)."""
    x0, y0 = origin
    differ = [(x, y, old.location(x, y), new.location(x, y)) for x in range(x0, x0 + w, step)
              for y in range(y0, y0 + h, step) if old.location(x, y) != new.location(x, y)]
    assert not differ, differ[:5]
    return True


@needs_realdata
@pytest.mark.parametrize("vmod", REAL, ids=lambda p: p.stem)
def test_import_of_a_real_module_rebuilds_it(vmod, tmp_path):
    check_round_trip(vmod, tmp_path, re.sub(r"[^a-z0-9-]", "-", vmod.stem.lower())[:40])


@needs_realdata
def test_every_at_start_piece_of_ragnarok_is_kept_on_its_own_map(tmp_path):
    """Ragnarok sets 13 pieces on its main map and 86 on a second map, 'deployment' (issue 33: one
    map per game kept 13): both maps are carried, and every piece with them."""
    vmod = REALDATA / "modules" / "ragnarok.vmod"
    r, vmod2 = rebuilt(vmod, tmp_path, "ragnarok")
    assert "piece(s)" not in (r.dest / NOTES).read_text(encoding="utf-8")
    before, after = at_start(vmod, "ragnarok-start.vsav", tmp_path), at_start(vmod2, setups(vmod2)["At Start"], tmp_path)
    assert len(after) == len(before) == 99
    assert Counter(mp for _, mp, _ in after) == {"deployment": 86, "Main Map": 13}
    assert Counter((r.names[n], mp, w) for n, mp, w in before) == Counter(after)
    game = load_game(r.dest)
    assert [m.id for m in game.map.maps] == ["deployment", "DeadPile"]
    # its square-grid zones are square grids (were one-box tracks, one per cell): every point of each is named
    # as the module names it, and the pieces set up in them keep their points
    assert [sq.name for sq in game.map.squares] == ["endurance", "rainbow"] and [t.id for t in game.map.tracks] == ["warrior"]
    old, new = read_vmod_grids(vmod)["Main Map"], read_vmod_grids(vmod2)["Main Map"]
    for sq in game.map.squares:
        assert same_names(old, new, *sq.area[2:], step=3, origin=sq.area[:2])
    assert Counter(w.split()[0] for _, mp, w in after if mp == "Main Map") == {"Endurance": 12, "0101": 1}


@needs_realdata
def test_zxvt_keeps_its_whole_board_square_grid(tmp_path):
    """zxvt's board has a square grid of its own (cells "B01"...): carried as a square grid over the
    whole board, so every point of the rebuilt board has the module's cell name."""
    vmod = REALDATA / "modules" / "zxvt.vmod"
    r, vmod2 = rebuilt(vmod, tmp_path, "zxvt")
    game = load_game(r.dest)
    (sq,) = game.map.squares
    assert (sq.dx, sq.dy, sq.x0, sq.y0, sq.area) == (50.0, 50.0, 36, 36, (0, 0, 275, 275))
    old, new = read_vmod_grids(vmod)["Main Map"], read_vmod_grids(vmod2)["Main Map"]
    assert new.location(36, 36) == "B01" and new.location(236, 236) == "F05"
    assert same_names(old, new, 275, 275, step=3)


def _two_map_game(tmp_path) -> Path:
    """The starter game with a whole-board square grid zone of its own, and a further map (art, a
    square grid) and a dead pile (no grid), pieces set on them by point."""
    from PIL import Image

    new_game("two", tmp_path / "sources")
    root = tmp_path / "sources" / "two"
    Image.new("RGB", (400, 300), "#335577").save(root / "reserve.png")
    with (root / "map.yaml").open("a", encoding="utf-8") as f:
        f.write("""squares:
  - {name: Corner, area: [600, 450, 280, 170], dx: 40, dy: 40, x0: 620, y0: 470, location: "K$gridLocation$",
     numbering: {h_type: A, h_off: 1, v_off: 1}}
maps:
  - id: Reserve
    name: Reserve pool
    board: {name: Pool, width: 400, height: 300, image: reserve.png}
    squares:
      - {name: Rows, area: [0, 0, 400, 300], dx: 100, dy: 60, x0: 50, y0: 30, numbering: {first: V, v_descend: true}}
  - id: Dead
    name: Dead pile
    board: {name: Dead, width: 300, height: 200, background: "#cccccc"}
""")
    sc = root / "scenarios" / "meeting.yaml"
    text = sc.read_text(encoding="utf-8")
    text = text.replace('  - {unit: red-recon, hex: "0501"}', '  - {unit: red-recon, map: Reserve, at: [250, 90]}')
    text = text.replace('  - {unit: blue-recon, hex: "0101"}', '  - {unit: blue-recon, at: [700, 520]}')
    text = text.replace('  - {marker: game-turn, track: turn, box: "1"}',
                        '  - {marker: game-turn, track: turn, box: "1"}\n  - {marker: game-turn, map: Dead, at: [120, 80]}')
    sc.write_text(text, encoding="utf-8")
    return root


def test_further_maps_and_square_grids_are_built_and_imported_back(tmp_path):
    """map.yaml `maps` and `squares` (issue 33): each further map is a VASSAL Map of its own with its
    board and grids, its set-up pieces on it; a square grid names its cells; and the module imported
    again gives the same maps, the same names at every point and every piece on its map and place."""
    root = _two_map_game(tmp_path)
    text = (root / "markers.yaml").read_text(encoding="utf-8")
    (root / "markers.yaml").write_text(text.replace("count: 1", "count: 2", 1), encoding="utf-8")
    vmod = build_game("two", root=tmp_path).outputs[0]
    grids = read_vmod_grids(vmod)
    assert list(grids) == ["Main Map", "Reserve", "Dead"]
    assert grids["Main Map"].location(700, 520) == "KD02"  # column 2 from x0 + 1 (A is 0), row 1 + 1
    assert grids["Reserve"].location(250, 90) == "0402"  # V first: row 4 (counted up from the bottom), column 2
    assert grids["Dead"].location(120, 80) == "offboard"  # a board with no grid names no point
    placed = at_start(vmod, setups(vmod)["Meeting engagement"], tmp_path)
    assert ("Red Recon (2)", "Reserve", "0402") in placed and ("Blue Recon (1)", "Main Map", "KD02") in placed
    assert ("Game Turn", "Dead", "offboard") in placed
    with zipfile.ZipFile(vmod) as z:
        assert z.read("images/reserve.png") == (root / "reserve.png").read_bytes()
    check_round_trip(vmod, tmp_path / "again", "two-again")
    game = load_game(tmp_path / "again" / "sources" / "two-again")
    assert [(m.id, m.name, m.board.width, m.board.height) for m in game.map.maps] == [
        ("Reserve", "Reserve", 400, 300), ("Dead", "Dead", 300, 200)]
    assert [sq.location for sq in game.map.maps[0].squares] == ["$gridLocation$"]


@pytest.mark.parametrize("entry, says", [
    ("{unit: red-recon, map: Nowhere, at: [10, 10]}", "unknown map 'Nowhere'"),
    ("{unit: red-recon, map: Reserve, at: [450, 10]}", "off the board 'Pool'"),
    ("{unit: red-recon, map: Reserve, hex: '0501'}", "needs 'at'"),
    ("{unit: red-recon, hex: '0501', at: [10, 10]}", "give either"),
])
def test_a_piece_on_a_further_map_is_checked(tmp_path, entry, says):
    from builder.model import SourceError

    root = _two_map_game(tmp_path)
    sc = root / "scenarios" / "meeting.yaml"
    sc.write_text(sc.read_text(encoding="utf-8").replace("{unit: red-recon, map: Reserve, at: [250, 90]}", entry),
                  encoding="utf-8")
    with pytest.raises(SourceError) as e:
        load_game(root)
    assert any(says in p.message for p in e.value.problems), [p.message for p in e.value.problems]


BUILT = sorted((builder.paths.ROOT / "generated").glob("*/*.vmod"))


@pytest.mark.skipif(not BUILT, reason="no module of ours is built (hexforge build --all)")
@pytest.mark.parametrize("vmod", BUILT, ids=lambda p: p.stem)
def test_import_of_each_module_we_built_rebuilds_it(vmod, tmp_path):
    check_round_trip(vmod, tmp_path, vmod.stem)


def test_import_of_our_own_module_rebuilds_it(tmp_path):
    """The starter game, built, imported and built again: nothing is left out of its set-up."""
    new_game("demo", tmp_path / "sources")
    vmod = build_game("demo", root=tmp_path).outputs[0]
    r, vmod2 = rebuilt(vmod, tmp_path, "demo-again")
    assert slot_count(vmod2) == slot_count(vmod)
    assert "piece(s)" not in (r.dest / NOTES).read_text(encoding="utf-8")
    a = at_start(vmod, setups(vmod)["Meeting engagement"], tmp_path)
    b = at_start(vmod2, setups(vmod2)["Meeting engagement"], tmp_path)
    assert sorted(w for _, _, w in a) == sorted(w for _, _, w in b) and len(a) == 7
    # the imported pieces keep their names, and their sides as palette and unit sides
    names = {n for n, _, _ in b}
    assert {r.names[n] for n, _, _ in a} == names
    src = load_game(r.dest)
    assert {u.name for u in src.units} == {"Blue Armor (1)", "Blue Infantry (1)", "Blue Recon (1)",
                                           "Red Armor (2)", "Red Infantry (2)", "Red Recon (2)"}
    assert {src.side_of_unit(u).name for u in src.units if u.name.startswith("Red")} == {"Red"}
    check_round_trip(vmod, tmp_path / "again", "demo")


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for k, v in entries.items():
            z.writestr(k, v)
    return buf.getvalue()


GOOD_BUILD = b'<VASSAL.build.GameModule name="X" version="1"/>'


@pytest.mark.parametrize("data, says", [
    (b"not a zip at all", "not a zip"),
    (b"PK\x03\x04broken", "broken zip"),
    (_zip({"moduledata": b"<data/>"}), "no buildFile"),
    (_zip({"buildFile.xml": b"<a><b></a>"}), "not well-formed"),
    (_zip({"buildFile.xml": b'<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>'}), "DOCTYPE"),
    (_zip({"buildFile.xml": GOOD_BUILD, "../evil.png": b"x"}), "outside the module"),
    (_zip({"buildFile.xml": b'<VASSAL.build.GameModule><VASSAL.build.module.Map mapName="M">'
                            b'<VASSAL.build.module.map.BoardPicker><VASSAL.build.module.map.boardPicker.Board name="B">'
                            b'<VASSAL.build.module.map.boardPicker.board.HexGrid dx="1e999" dy="64"/>'
                            b'</VASSAL.build.module.map.boardPicker.Board></VASSAL.build.module.map.BoardPicker>'
                            b'</VASSAL.build.module.Map></VASSAL.build.GameModule>'}), "out of range"),
    (_zip({"buildFile.xml": GOOD_BUILD, "/abs/evil.png": b"x"}), "outside the module"),
])
def test_bad_modules_get_one_line_and_nothing_is_written(tmp_path, data, says):
    vmod = tmp_path / "bad.vmod"
    vmod.write_bytes(data)
    with pytest.raises(ImportFailed, match=says) as e:
        import_game(vmod, tmp_path / "sources", "bad")
    assert "\n" not in str(e.value)
    assert not (tmp_path / "sources" / "bad").exists()


def test_a_zip_bomb_build_file_is_refused(tmp_path):
    """A build file that declares a small size but inflates further, or declares a huge one."""
    big = _zip({"buildFile.xml": b"<x>" + b" " * (80 * 1024 * 1024) + b"</x>"})
    vmod = tmp_path / "bomb.vmod"
    vmod.write_bytes(big)
    with pytest.raises(ImportFailed, match="limit"):
        import_game(vmod, tmp_path / "sources", "bomb")
    raw = bytearray(_zip({"buildFile.xml": GOOD_BUILD + b" " * 5000}))
    # lower the declared size (local header and central directory) below what the entry inflates to
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = raw.index(sig) + off
        raw[at:at + 4] = (10).to_bytes(4, "little")
    vmod.write_bytes(bytes(raw))
    with pytest.raises(ImportFailed, match="zip bomb|broken"):
        import_game(vmod, tmp_path / "sources", "bomb")


def test_an_existing_game_is_kept_unless_forced(tmp_path, monkeypatch):
    new_game("demo", tmp_path / "sources")
    vmod = build_game("demo", root=tmp_path).outputs[0]
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    runner = CliRunner()
    refused = runner.invoke(app, ["import", str(vmod), "demo"])
    assert refused.exit_code == 2 and "already exists" in refused.stderr and "Traceback" not in refused.stderr
    assert (tmp_path / "sources" / "demo" / "rules.yaml").exists()  # the starter's own file: untouched
    done = runner.invoke(app, ["import", str(vmod), "demo", "--force"])
    assert done.exit_code == 0, done.stderr
    assert "not carried over" in done.stdout
    assert not (tmp_path / "sources" / "demo" / "rules.yaml").exists()  # replaced whole
    assert [p.name for p in (tmp_path / "sources").iterdir() if p.name.startswith(".")] == []  # no leftovers
    bad = runner.invoke(app, ["import", str(tmp_path / "nothing.vmod"), "x"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "no such file" in bad.stderr


def test_a_board_image_is_the_module_board_and_must_have_its_size(tmp_path):
    """map.yaml `board.image`: the file goes into the module as the board; a wrong size or a
    missing file is a source problem (the hex ids depend on the board's size)."""
    from PIL import Image

    from builder.model import SourceError

    new_game("art", tmp_path / "sources")
    root = tmp_path / "sources" / "art"
    text = (root / "map.yaml").read_text(encoding="utf-8")
    (root / "map.yaml").write_text(text.replace('  background: "#f4ecd8"', '  image: scan.png'), encoding="utf-8")
    with pytest.raises(SourceError) as e:
        build_game("art", root=tmp_path)
    assert "no such file" in e.value.problems[0].message
    Image.new("RGB", (880, 600), "#123456").save(root / "scan.png")
    with pytest.raises(SourceError) as e:
        build_game("art", root=tmp_path)
    assert "880 x 600 px; the board says 880 x 620" in e.value.problems[0].message
    Image.new("RGB", (880, 620), "#123456").save(root / "scan.png")
    vmod = build_game("art", root=tmp_path).outputs[0]
    with zipfile.ZipFile(vmod) as z:
        assert z.read("images/scan.png") == (root / "scan.png").read_bytes()
        assert "images/map.png" not in z.namelist()
        assert b'image="scan.png"' in z.read("buildFile.xml")


def test_the_board_image_is_inflated_once(tmp_path, monkeypatch):
    """The board's size comes from its image's header; its pixels are inflated once, for the art."""
    from builder.importer.archive import ModuleArchive

    root = _two_map_game(tmp_path)
    text = (root / "markers.yaml").read_text(encoding="utf-8")
    (root / "markers.yaml").write_text(text.replace("count: 1", "count: 2", 1), encoding="utf-8")
    vmod = build_game("two", root=tmp_path).outputs[0]
    reads = Counter()
    real = ModuleArchive.read
    monkeypatch.setattr(ModuleArchive, "read", lambda self, name, limit: reads.update([name]) or real(self, name, limit))
    r = import_game(vmod, tmp_path / "again", "two-again")
    assert reads["images/reserve.png"] == 1 and reads["images/map.png"] == 1
    assert (r.dest / "board-reserve.png").read_bytes() == (root / "reserve.png").read_bytes()


def kassala_module(tmp: Path) -> Path:
    """../shared/realdata/kassala (a build file, its moduledata and its predefined setup) zipped into a module:
    its images are not in the repository, so the module has none."""
    vmod = tmp / "kassala.vmod"
    with zipfile.ZipFile(vmod, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((REALDATA / "kassala").iterdir()):
            z.write(f, f.name)
    return vmod


@needs_realdata
def test_import_of_kassala_rebuilds_it_with_every_set_up_piece(tmp_path):
    """Kassala's board image is not in the module (VASSAL, and our reader, name every point of a board
    without its image "offboard"): a plain board large enough for every set-up piece's hex stands in (was
    1000 x 800 px, and 22 of its 23 pieces were left out).  Every piece keeps its point, and is named as the
    module names it once its board has that size."""
    vmod = kassala_module(tmp_path)
    r, vmod2 = rebuilt(vmod, tmp_path, "kassala")
    notes = (r.dest / NOTES).read_text(encoding="utf-8")
    assert "its image 'Mapboard.png' is not in the module" in notes and "piece(s)" not in notes
    assert slot_count(vmod2) == slot_count(vmod) == 36
    b = load_game(r.dest).map.board
    # the module's grid has no numbering (VASSAL names none of its points: "offboard"): compare with the same
    # module given VASSAL's default numbering (../shared's engine-logs/kassala-numbered.buildFile.xml) and a
    # board of that size instead of the missing image
    sized = tmp_path / "kassala-sized.vmod"
    numbered = (REALDATA / "engine-logs" / "kassala-numbered.buildFile.xml").read_bytes()
    with zipfile.ZipFile(vmod) as z, zipfile.ZipFile(sized, "w") as out:
        for name in z.namelist():
            data = numbered if name == "buildFile.xml" else z.read(name)
            if name == "buildFile.xml":
                data = data.replace(b'image="Mapboard.png"', f'width="{b.width}" height="{b.height}"'.encode())
            out.writestr(name, data)
    before = at_start(sized, "Default Setup.vsav", tmp_path)
    after = at_start(vmod2, setups(vmod2)["Default Setup"], tmp_path)
    assert len(after) == len(before) == 23
    assert Counter((r.names[n], "Main Map", w) for n, _, w in before) == Counter(after)
    assert all(re.fullmatch(r"0\d0\d", w) for _, _, w in after)


def piece_images(vmod: Path, file: str, tmp: Path, skip: frozenset[str] = frozenset()) -> Counter:
    """(piece name, map, location, the pixels of each image it can show) of every piece a setup adds, read from
    the save by the repo's readers: the BasicPiece's image and every Layer's (emb2) level images that the
    module holds (but `skip`), each as a digest of its decoded pixels, so a PNG copied as it is matches."""
    import hashlib

    from PIL import Image

    with zipfile.ZipFile(vmod) as z:
        entries = set(z.namelist())

        def pixels(name: str) -> str:
            with Image.open(io.BytesIO(z.read(f"images/{name}"))) as img:
                rgba = img.convert("RGBA")
                return hashlib.sha1(f"{rgba.size}".encode() + rgba.tobytes()).hexdigest()[:12]

        placed = at_start(vmod, file, tmp)
        save = tmp / f"{vmod.stem}-{Path(file).name}"
        out = Counter()
        adds = [c for c in read_record(save).setup if isinstance(c, AddPiece) and c.type]
        adds = [t for t in (unchain(c.type, c.state) for c in adds) if t[-1].type.startswith("piece;")]
        for (name, mp, where), traits in zip(placed, adds, strict=True):
            names = {split(traits[-1].type[len("piece;"):], ";")[2]}
            names |= {i for t in traits if t.prefix == "emb2;" for i in split(split(t.type[5:], ";")[15], ",")}
            out[(name, mp, where, frozenset(pixels(n) for n in names - skip if n and f"images/{n}" in entries))] += 1
    return out


def _art_game(tmp_path) -> Path:
    """The starter game whose Blue Armor shows two PNGs as they are (not square, with transparency), set up
    reduced, and whose turn marker shows a third."""
    from PIL import Image, ImageDraw

    new_game("art", tmp_path / "sources")
    root = tmp_path / "sources" / "art"
    (root / "art").mkdir()
    for name, size, colour in (("front", (52, 40), "#aa3311"), ("back", (52, 40), "#3311aa"), ("turn", (30, 30), "#ffee00")):
        img = Image.new("RGBA", size, (0, 0, 0, 0))
        ImageDraw.Draw(img).ellipse([2, 2, size[0] - 3, size[1] - 3], fill=colour)
        img.save(root / "art" / f"{name}.png")
    units = (root / "units.yaml").read_text(encoding="utf-8")
    units = units.replace("ma: 3, cs: 4, cs_reduced: 2,\n", "ma: 3, cs: 4, cs_reduced: 2,\n"
                          "     image: {file: art/front.png, values: false, exact: true},\n"
                          "     image_reduced: {file: art/back.png, values: false, exact: true},\n", 1)
    (root / "units.yaml").write_text(units, encoding="utf-8")
    markers = (root / "markers.yaml").read_text(encoding="utf-8")
    markers = markers.replace('text_colour: "#000000"}', 'text_colour: "#000000",\n'
                              '         image: {file: art/turn.png, values: false, exact: true}}', 1)
    (root / "markers.yaml").write_text(markers, encoding="utf-8")
    sc = root / "scenarios" / "meeting.yaml"
    sc.write_text(sc.read_text(encoding="utf-8").replace('{unit: blue-armor, hex: "0102"}',
                                                         '{unit: blue-armor, hex: "0102", reduced: true}'), encoding="utf-8")
    return root


def test_piece_art_is_carried_as_it_is_and_a_second_import_keeps_the_names(tmp_path):
    """Issue 33: each piece's images (the BasicPiece's, its Layer's levels: front and back) become its faces
    (`exact`: the module holds the bytes unchanged), copied into the game's folder, so the rebuilt module shows
    the same counter art, piece by piece, and a piece set up on its back stays on it.  An imported unit's
    name is not given its formation suffix twice by a second import."""
    root = _art_game(tmp_path)
    vmod = build_game("art", root=tmp_path).outputs[0]
    with zipfile.ZipFile(vmod) as z:  # an exact face: the file's bytes, unchanged
        assert z.read("images/unit-blue-armor-full.png") == (root / "art" / "front.png").read_bytes()
        assert z.read("images/unit-blue-armor-reduced.png") == (root / "art" / "back.png").read_bytes()
        assert z.read("images/marker-game-turn-1.png") == (root / "art" / "turn.png").read_bytes()
    r1, vmod1 = rebuilt(vmod, tmp_path / "one", "art-one")
    r2, vmod2 = rebuilt(vmod1, tmp_path / "two", "art-two")
    setup = "Meeting engagement"
    before = piece_images(vmod, setups(vmod)[setup], tmp_path)
    once = piece_images(vmod1, setups(vmod1)[setup], tmp_path)
    twice = piece_images(vmod2, setups(vmod2)[setup], tmp_path)
    assert len(before) == 7 and all(k[3] for k in before)  # every piece shows images the module holds
    assert Counter({(r1.names[n], *rest): c for (n, *rest), c in before.items()}) == once
    assert once == twice  # the same names (one formation suffix), places and images
    game = load_game(r1.dest)
    armor = next(u for u in game.units if u.name == "Blue Armor (1)")
    assert armor.steps == 2 and armor.image.exact and armor.image_reduced.exact
    assert (r1.dest / armor.image.file).read_bytes() == (root / "art" / "front.png").read_bytes()
    assert (r1.dest / armor.image_reduced.file).read_bytes() == (root / "art" / "back.png").read_bytes()
    sc = next(iter(game.scenarios.values()))
    assert [u.reduced for u in sc.units if u.unit == armor.id] == [True]
    assert {u.name for u in load_game(r2.dest).units} == {u.name for u in game.units}


@needs_realdata
def test_ragnarok_pieces_keep_their_art(tmp_path):
    """Every one of Ragnarok's 99 set-up pieces shows the same images (front and flipped side, by their pixels)
    in the rebuilt module, on the same map and named location."""
    vmod = REALDATA / "modules" / "ragnarok.vmod"
    r, vmod2 = rebuilt(vmod, tmp_path, "ragnarok")
    notes = (r.dest / NOTES).read_text(encoding="utf-8")
    assert "piece art: image" not in notes  # no piece of it has an overlay left out
    before = piece_images(vmod, "ragnarok-start.vsav", tmp_path)
    after = piece_images(vmod2, setups(vmod2)["At Start"], tmp_path)
    assert sum(before.values()) == 99 and all(len(k[3]) == (1 if k[0].startswith("mkr-") else 2) for k in before)
    main = lambda mp: "Main Map" if mp == "Main Map" else mp  # noqa: E731
    assert Counter({(r.names[n], main(mp), w, i): c for (n, mp, w, i), c in before.items()}) == after
    assert len(list((r.dest / "art").iterdir())) == 60  # 29 pieces' fronts and backs, 2 markers' faces, as they are


def test_a_face_shown_as_it_is_must_be_a_png_alone(tmp_path):
    from builder.model import SourceError

    root = _art_game(tmp_path)
    units = (root / "units.yaml").read_text(encoding="utf-8")
    (root / "units.yaml").write_text(units.replace("image: {file: art/front.png, values: false, exact: true}",
                                                   "image: {file: art/front.png, exact: true}"), encoding="utf-8")
    with pytest.raises(SourceError) as e:
        load_game(root)
    assert any("an exact face is a PNG shown as it is" in p.message for p in e.value.problems)


def _piles(vmod: Path) -> dict[tuple[str, str], list[str]]:
    """(map, draw pile) -> the entry names of the slots it starts with, from the build file."""
    with zipfile.ZipFile(vmod) as z:
        root = etree.fromstring(z.read("buildFile.xml" if "buildFile.xml" in z.namelist() else "buildFile"))
    return {(m.get("mapName"), d.get("name")): [s.get("entryName") for s in d if isinstance(s.tag, str)
                                                 and s.tag.endswith(("widget.PieceSlot", "widget.CardSlot"))]
            for m in root.iter() if isinstance(m.tag, str) and m.tag.endswith("module.Map")
            for d in m if isinstance(d.tag, str) and d.tag.endswith("map.DrawPile")}


def test_a_draw_pile_starts_with_its_pieces_and_is_imported_back(tmp_path):
    """map.yaml decks `pieces` (issue 33): a draw pile, on the main map or a further one, starts a new game with
    its counters, its own slots (not the palette's); the module imported again has the same piles and slots."""
    root = _two_map_game(tmp_path)
    text = (root / "markers.yaml").read_text(encoding="utf-8")
    (root / "markers.yaml").write_text(text.replace("count: 1", "count: 2", 1), encoding="utf-8")
    with (root / "map.yaml").open("a", encoding="utf-8") as f:
        f.write("decks:\n  - {name: Cup, origin: [700, 60], pieces: [red-armor, game-turn]}\n")
    text = (root / "map.yaml").read_text(encoding="utf-8")
    text = text.replace("    board: {name: Dead, width: 300, height: 200, background: \"#cccccc\"}\n",
                        "    board: {name: Dead, width: 300, height: 200, background: \"#cccccc\"}\n"
                        "    decks: [{name: Reserve pile, origin: [150, 40], box: [80, 90], shuffle: false,"
                        " pieces: [blue-armor, blue-armor]}]\n")
    (root / "map.yaml").write_text(text, encoding="utf-8")
    vmod = build_game("two", root=tmp_path).outputs[0]
    piles = _piles(vmod)
    assert piles == {("Main Map", "Cup"): ["Red Armor (2)", "Game Turn"],
                     ("Dead", "Reserve pile"): ["Blue Armor (1)", "Blue Armor (1)"]}
    with zipfile.ZipFile(vmod) as z:
        build = etree.fromstring(z.read("buildFile.xml"))
    gpids = [e.get("gpid") for e in build.iter() if isinstance(e.tag, str) and e.tag.endswith("widget.PieceSlot")]
    assert len(gpids) == len(set(gpids))  # a further copy has a gpid of its own
    palette = [e.get("entryName") for e in build.iter() if isinstance(e.tag, str) and e.tag.endswith("PieceWindow")
               for e in e.iter() if isinstance(e.tag, str) and e.tag.endswith("widget.PieceSlot")]
    assert "Red Armor (2)" not in palette and "Blue Armor (1)" not in palette and "Red Infantry (2)" in palette
    r, vmod2 = rebuilt(vmod, tmp_path / "again", "two-again")
    assert slot_count(vmod2) == slot_count(vmod)
    assert {k: [r.names[n] for n in v] for k, v in piles.items()} == _piles(vmod2)
    game = load_game(r.dest)
    (cup,) = game.map.decks
    assert (cup.origin, cup.box, cup.shuffle) == ((700, 60), (100, 80), True)
    (pile,) = game.map.maps[1].decks
    assert (pile.origin, pile.box, pile.shuffle) == ((150, 40), (80, 90), False)


def test_a_draw_pile_names_counters_of_the_game(tmp_path):
    from builder.model import SourceError

    new_game("cup", tmp_path / "sources")
    root = tmp_path / "sources" / "cup"
    with (root / "map.yaml").open("a", encoding="utf-8") as f:
        f.write("decks:\n  - {name: Cup, origin: [700, 60], pieces: [red-armour]}\n")
    with pytest.raises(SourceError) as e:
        load_game(root)
    assert any("no unit or marker 'red-armour'" in p.message and "red-armor" in (p.hint or "") for p in e.value.problems), \
        [(p.message, p.hint) for p in e.value.problems]


@needs_realdata
def test_the_template_draw_pile_keeps_its_pieces(tmp_path):
    """The template's 'Draw' map has a draw pile that starts with three pieces (was: not carried, its pieces
    put in the palette): the rebuilt pile starts with the same three, and the slots are as many as before."""
    vmod = REALDATA / "hexcounters-template" / "jzhex-n-counters-template-v12-379.vmod"
    r, vmod2 = rebuilt(vmod, tmp_path, "template")
    assert "draw pile" not in (r.dest / NOTES).read_text(encoding="utf-8")
    before = _piles(vmod)
    assert before == {("Draw", "Draw"): ["INF-lIII-1", "INF-lIII-2", "INF-lIII-3"]}
    assert {k: [r.names[n] for n in v] for k, v in before.items()} == _piles(vmod2)
    assert slot_count(vmod2) == slot_count(vmod) == 13


def test_a_map_of_several_boards_is_built_and_imported_back(tmp_path):
    """A further map's more_boards (issue 33): each board at its column and row of the map (VASSAL puts a
    board right of those before it in its row and below those above it in its column), with its art and
    square grids, written to the set-ups' BoardPicker; the module imported again has the same boards at the
    same places, names every point of each alike and keeps a piece set on the second board where it was."""
    from PIL import Image

    root = _two_map_game(tmp_path)
    text = (root / "markers.yaml").read_text(encoding="utf-8")
    (root / "markers.yaml").write_text(text.replace("count: 1", "count: 2", 1), encoding="utf-8")
    Image.new("RGB", (300, 250), "#557733").save(root / "east.png")
    text = (root / "map.yaml").read_text(encoding="utf-8")
    text = text.replace("    board: {name: Pool, width: 400, height: 300, image: reserve.png}\n",
                        "    board: {name: Pool, width: 400, height: 300, image: reserve.png}\n"
                        "    more_boards:\n"
                        "      - {name: East, width: 300, height: 250, image: east.png, column: 1, row: 0,\n"
                        "         squares: [{name: Boxes, area: [0, 0, 300, 250], dx: 60, dy: 50, x0: 30, y0: 25,"
                        " location: \"E$gridLocation$\"}]}\n"
                        "      - {name: South, width: 400, height: 200, background: \"#dddddd\", column: 0, row: 1}\n")
    (root / "map.yaml").write_text(text, encoding="utf-8")
    sc = root / "scenarios" / "meeting.yaml"
    sc.write_text(sc.read_text(encoding="utf-8").replace('{unit: red-infantry, hex: "0503"}',
                                                         '{unit: red-infantry, map: Reserve, at: [490, 130]}'), encoding="utf-8")
    vmod = build_game("two", root=tmp_path).outputs[0]
    placement = {"Pool": (0, 0), "East": (1, 0), "South": (0, 1)}
    with zipfile.ZipFile(vmod) as z:  # the set-up lays the boards out for VASSAL
        assert "ReserveBoardPicker\tPool\t0\t0\tEast\t1\t0\tSouth\t0\t1" in deobfuscate(
            zipfile.ZipFile(io.BytesIO(z.read(setups(vmod)["Meeting engagement"]))).read("savedGame"))
    placed = at_start(vmod, setups(vmod)["Meeting engagement"], tmp_path, {"Reserve": placement})
    assert ("Red Infantry (2)", "Reserve", "E0102") in placed  # on East: (90, 130) of it, column 1 (from 0), row 2
    r, vmod2 = rebuilt(vmod, tmp_path / "again", "two-again")
    again = at_start(vmod2, setups(vmod2)["Meeting engagement"], tmp_path, {"Reserve": placement})
    assert Counter((r.names[n], mp, w) for n, mp, w in placed) == Counter(again)
    game = load_game(r.dest)
    reserve = game.map.maps[0]
    assert [(b.name, b.column, b.row, b.width, b.height) for b in reserve.more_boards] == [
        ("East", 1, 0, 300, 250), ("South", 0, 1, 400, 200)]
    assert [(b.name, x, y) for b, x, y in reserve.board_rects()] == [("Pool", 0, 0), ("East", 400, 0), ("South", 0, 300)]
    assert (r.dest / reserve.more_boards[0].image).read_bytes() == (root / "east.png").read_bytes()
    check_round_trip(vmod, tmp_path / "third", "two-third")
    old, new = read_vmod_grids(vmod)["Reserve"], read_vmod_grids(vmod2)["Reserve"]
    old.placement.update(placement)
    new.placement.update(placement)
    assert same_names(old, new, 700, 500, step=5)
    assert new.location(490, 130) == "E0102" and new.location(100, 400) == "offboard"


def test_the_boards_of_a_map_have_their_own_names_and_places(tmp_path):
    from builder.model import SourceError

    root = _two_map_game(tmp_path)
    text = (root / "map.yaml").read_text(encoding="utf-8")
    text = text.replace("    board: {name: Pool, width: 400, height: 300, image: reserve.png}\n",
                        "    board: {name: Pool, width: 400, height: 300, image: reserve.png}\n"
                        "    more_boards: [{name: Pool, width: 300, height: 250, column: 1},"
                        " {name: Other, width: 300, height: 250}]\n")
    (root / "map.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as e:
        load_game(root)
    said = [p.message for p in e.value.problems]
    assert any("a second board named 'Pool'" in m for m in said) and any("where another board is" in m for m in said)


def _grids_game(tmp_path, main: str, dead: str, red: str, blue: str) -> Path:
    """The two-map game with grids added to map.yaml (`main`: lines for the main map, `dead`: keys of the
    further map 'Dead'), two counts of the first marker, and the meeting's red infantry set on Dead (`red`)
    and the blue on the main map (`blue`) by point: the module built."""
    root = _two_map_game(tmp_path)
    text = (root / "markers.yaml").read_text(encoding="utf-8")
    (root / "markers.yaml").write_text(text.replace("count: 1", "count: 2", 1), encoding="utf-8")
    with (root / "map.yaml").open("a", encoding="utf-8") as f:
        f.write(main)
    text = (root / "map.yaml").read_text(encoding="utf-8")
    board = "    board: {name: Dead, width: 300, height: 200, background: \"#cccccc\"}\n"
    (root / "map.yaml").write_text(text.replace(board, board + dead), encoding="utf-8")
    sc = root / "scenarios" / "meeting.yaml"
    sc.write_text(sc.read_text(encoding="utf-8").replace('{unit: red-infantry, hex: "0503"}',
                                                         f'{{unit: red-infantry, map: Dead, at: {red}}}')
                  .replace('{unit: blue-infantry, hex: "0103"}', f'{{unit: blue-infantry, at: {blue}}}'),
                  encoding="utf-8")
    return build_game("two", root=tmp_path).outputs[0]


def test_hex_grids_of_zones_and_further_maps_are_built_and_imported_back(tmp_path):
    """map.yaml `hexes` (issue 33): a hex grid of a zone of the main map, and a further map's board's own hex
    grid, each a VASSAL Zone with a HexGrid named as its numbering and location say; imported again, each is a
    hex grid that names every point as before (was: left out, pieces kept their points unnamed)."""
    vmod = _grids_game(
        tmp_path,
        'hexes:\n  - {name: Inset, area: [600, 300, 160, 120], dx: 30, dy: 34, x0: 610, y0: 310, '
        'location: "I$gridLocation$", numbering: {h_off: 1, v_off: 1}}\n',
        "    hexes: [{name: Dead hexes, area: [0, 0, 300, 200], dx: 40, dy: 46, x0: 20, y0: 23,"
        " sideways: true, location: \"D$gridLocation$\", numbering: {v_descend: true, stagger: false}}]\n",
        "[100, 80]", "[675, 360]")
    grids = read_vmod_grids(vmod)
    placed = dict((n, (mp, w)) for n, mp, w in at_start(vmod, setups(vmod)["Meeting engagement"], tmp_path))
    assert placed["Red Infantry (2)"][0] == "Dead" and placed["Red Infantry (2)"][1].startswith("D")
    assert placed["Blue Infantry (1)"] == ("Main Map", grids["Main Map"].location(675, 360))
    assert grids["Main Map"].location(675, 360).startswith("I")
    check_round_trip(vmod, tmp_path / "again", "two-again")
    game = load_game(tmp_path / "again" / "sources" / "two-again")
    assert [h.name for h in game.map.hexes] == ["Inset"]
    assert [(h.name, h.area, h.sideways, h.numbering.v_descend) for h in game.map.maps[1].hexes] == [
        ("Dead hexes", (0, 0, 300, 200), True, True)]


def test_region_grids_are_built_and_imported_back(tmp_path):
    """map.yaml `regions` (issue 33): named points (a VASSAL RegionGrid in a Zone: a point is named after the
    nearest region), on a zone of the main map and over a further map's whole board; imported again, each is
    a region grid that names every point as before (was: left out)."""
    vmod = _grids_game(
        tmp_path,
        'regions:\n  - {name: Harbour, area: [600, 300, 160, 120], location: "Port of $gridLocation$", '
        'regions: [{name: North quay, at: [640, 320]}, {name: South quay, at: [700, 400]}]}\n',
        "    regions: [{name: Boxes, area: [0, 0, 300, 200], regions: [{name: Killed, at: [60, 50]},"
        " {name: Captured, at: [200, 60]}, {name: Routed, at: [150, 170]}]}]\n",
        "[190, 70]", "[690, 390]")
    placed = dict((n, (mp, w)) for n, mp, w in at_start(vmod, setups(vmod)["Meeting engagement"], tmp_path))
    assert placed["Red Infantry (2)"] == ("Dead", "Captured")
    assert placed["Blue Infantry (1)"] == ("Main Map", "Port of South quay")
    check_round_trip(vmod, tmp_path / "again", "two-again")
    game = load_game(tmp_path / "again" / "sources" / "two-again")
    assert [(r.name, [x.name for x in r.regions]) for r in game.map.regions] == [("Harbour", ["North quay", "South quay"])]
    assert [[x.at for x in r.regions] for r in game.map.maps[1].regions] == [[(60, 50), (200, 60), (150, 170)]]
