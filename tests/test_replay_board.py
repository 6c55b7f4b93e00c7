"""Replaying real engine logs ends with exactly the board the real VASSAL engine reported."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from validators.replay.board import Board
from validators.vlog.reader import read_record
from tests.conftest import REALDATA, needs_realdata

ENGINE = REALDATA / "engine-logs"


def replay(path: Path) -> Board:
    record = read_record(path)
    board = Board()
    for c in record.setup:
        board.apply(c)
    for step in record.steps:
        for c in step.commands:
            board.apply(c)
    return board


@needs_realdata
@pytest.mark.parametrize("log", ["kassala-3.7", "ragnarok-3.7", "ragnarok-3.8"])
def test_final_pieces_names_and_pixels_match_the_engine(log):
    """Moves, stacking, Layer flips by menu and key, delete, add, send-to and undo (script.json)."""
    board = replay(ENGINE / f"{log}.vlog")
    ours = sorted((p.name, p.map, f"{p.x},{p.y}") for p in board.on_map())
    expected = json.loads((ENGINE / f"{log}.expected.json").read_text())["pieces_after_log"]
    assert ours == sorted((e["name"], e["map"], e["pos"]) for e in expected)


def test_our_own_setup_replays_to_rule_3(built, game):
    root, _, _ = built
    import io
    import zipfile

    vsav = zipfile.ZipFile(io.BytesIO(built[1])).read("campaign.vsav")
    path = root / "campaign.vsav"
    path.write_bytes(vsav)
    board = replay(path)
    control = {game.geometry.label_at(p.x, p.y): p.name for p in board.on_map() if p.properties().get("MarkerId") == "control"}
    assert control["0904"] == "Control (Commonwealth)" and control["0605"] == "Control (Axis)"
    assert len(control) == 13
    units = [p for p in board.on_map() if p.properties().get("Kind") == "unit"]
    assert len(units) == len(game.units) and all(p.layer_level("Step") == 1 for p in units)


@pytest.mark.parametrize("log,build,sizes", [
    ("kassala-3.7", "engine-logs/kassala-numbered.buildFile.xml", {"Kassala": (5000, 5000)}),
    ("ragnarok-3.7", "ragnarok/buildFile.xml", {"Map": (3300, 2450)}),
    ("ragnarok-3.8", "ragnarok/buildFile.xml", {"Map": (3300, 2450)}),
])
@needs_realdata
def test_location_names_match_the_engine(log, build, sizes):
    """Hex grids (plain and sideways-descending in a zone), square-grid zones, named zones."""
    from validators.vlog.modulegrid import read_module_grids

    maps = read_module_grids((ENGINE.parent / build).read_bytes(), board_sizes=sizes)
    expected = json.loads((ENGINE / f"{log}.expected.json").read_text())["pieces_after_log"]
    for e in expected:
        x, y = map(int, e["pos"].split(","))
        assert maps[e["map"]].location(x, y) == e["location"], e


def test_our_module_names_hexes_like_our_geometry(built, game):
    from validators.vlog.modulegrid import read_vmod_grids

    root, _, _ = built
    (spec,) = read_vmod_grids(root / "generated" / "bravery-in-the-sand" / "bravery-in-the-sand.vmod").values()
    for label in game.geometry.labels:
        assert spec.location(*game.geometry.centre(label)) == label
    assert spec.location(*game.track_box_centre("turn", "3")) == "Turn 3"
    deck = game.map.decks[0]
    assert spec.location(deck.origin[0] + deck.box[0] // 2, deck.origin[1] + deck.box[1] // 2) == "Mug"


@needs_realdata
def test_zxvt_final_positions_are_the_ones_its_chat_lines_announce():
    """A 3.2.17 log: every 'X created in L' report names the location our replay computes."""
    import re

    from validators.replay.replayer import Added, Replayer, Said
    from validators.vlog.modulegrid import read_module_grids

    zxvt = ENGINE.parent / "zxvt"
    replayer = Replayer(read_record(zxvt / "5x5_startup.vlog"), read_module_grids((zxvt / "buildFile").read_bytes()))
    announced, placed = {}, {}
    for _, events in replayer.steps():
        for e in events:
            if isinstance(e, Said) and (m := re.match(r"\* (.+) created in (\S+)", e.text)):
                announced.setdefault(m[1], []).append(m[2])
            elif isinstance(e, Added):
                placed.setdefault(e.piece.name, []).append(e.where.label)
    assert announced == placed and sum(map(len, announced.values())) == 6
    final = sorted((p.name, replayer.piece_where(p).label) for p in replayer.board.on_map())
    assert final == sorted((name, loc) for name, locs in announced.items() for loc in locs)
