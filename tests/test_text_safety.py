"""Names with markup, quotes, delimiters and non-ASCII survive the build file, the piece
encoding, the saved setup, a log and the audit report unchanged (issue 6, text safety)."""
from __future__ import annotations

import io
import json
import zipfile

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from builder.build import build_game
from builder.model import load_game
from builder.vassal.pieces import Trait, chain, unchain
from builder.vassal.savefile import decode_tree, deobfuscate, leaves
from builder.vassal.sequence import join, split
from tests.conftest import SLUG, copy_sources
from validators.audit import audit_file
from validators.replay.board import Board
from validators.vlog.reader import read_record
from validators.replay.writer import LogWriter

NASTY = "Pz <\"Ri&ch'ter\"> / A\\B;C,D\tE | Ünïcødé ✓ 𝔊"


def test_a_hostile_unit_name_round_trips_everywhere(tmp_path):
    src = copy_sources(tmp_path)
    units = src / "units.yaml"
    text = units.read_text(encoding="utf-8")
    old = 'name: "8th Panzer Regiment (I. Abteilung)"'
    assert text.count(old) == 1, "the test expects the first 15PZ unit's name in units.yaml"
    units.write_text(text.replace(old, "name: " + json.dumps(NASTY, ensure_ascii=False), 1), encoding="utf-8")
    game = load_game(src)
    unit = next(u for u in game.units if u.name == NASTY)
    full_name = f"{NASTY} ({unit.formation})"
    result = build_game(SLUG, root=tmp_path)
    vmod = next(p for p in result.outputs if p.suffix == ".vmod")
    z = zipfile.ZipFile(vmod)
    root = etree.fromstring(z.read("buildFile.xml"))
    slots = {e.get("entryName"): e.text for e in root.iter("VASSAL.build.widget.PieceSlot")}
    assert full_name in slots  # the attribute survives XML escaping
    _, typ, state = split(slots[full_name][2:], "/")
    assert unchain(typ, state)[-1].fields[3] == full_name  # ... and the piece encoding
    save = zipfile.ZipFile(io.BytesIO(z.read("campaign.vsav")))
    cmds = leaves(decode_tree(deobfuscate(save.read("savedGame"))))
    board = Board()
    record = read_record(_write(tmp_path / "setup.vsav", z.read("campaign.vsav")))
    for c in record.setup:
        board.apply(c)
    assert any(p.name == full_name for p in board.on_map()) and cmds
    w = LogWriter(vmod)
    w.move(unit.id, "0607")  # before play starts: a set-up adjustment (rule 3 finding)
    w.turn(1, "Chits into the mug")
    w.write(tmp_path / "game.vlog")
    report = audit_file(game, tmp_path / "game.vlog")
    assert [f.piece for f in report.violations] == [full_name]
    assert json.loads(json.dumps(report.to_json()))["violations"][0]["piece"] == full_name


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


tokens = st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(tokens)
def test_traits_nest_and_unnest_for_any_text(texts):
    """A chain of traits with arbitrary text decodes back, level by level (TAB nesting)."""
    traits = [Trait("mark;" + join([t], ","), join([t], ",")) for t in texts] + [Trait("piece;;;;x", "null;0;0;;0")]
    if any(t.endswith("\\") for t in texts):
        return  # VASSAL's own decoder mis-reads a token ending in a backslash (format notes 3.1)
    typ, state = chain(traits)
    back = unchain(typ, state)
    assert [t.type for t in back] == [t.type for t in traits]
    assert [t.state for t in back] == [t.state for t in traits]
