"""Hostile input, part 1: a short seeded run of the fuzz harness (benchmarks/fuzz.py) and
property tests of the readers' building blocks.

The full run (a million inputs, not in CI): `.venv/bin/python benchmarks/fuzz.py --inputs 1000000`.
Hypothesis runs derandomized and without its example database, so CI is deterministic.
"""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.vassal.pieces import unchain
from builder.vassal.savefile import ESC, CommandTreeError, decode_tree, deobfuscate, leaves, obfuscate
from builder.vassal.sequence import join, split
from validators.vlog.commands import Command, parse
from validators.vlog.container import LogFormatError, SavedGame, read_saved_game
from validators.vlog.modulegrid import (
    BoardSpec,
    MapSpec,
    ModuleFormatError,
    read_module_grids,
)
from validators.vlog.reader import GameRecord, _top_nodes, parse_record
from tests.conftest import needs_realdata

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import fuzz

SEED = 20260601
INPUTS = 3000
PROPS = settings(derandomize=True, database=None, deadline=None, max_examples=200,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.fixture(scope="module")
def seeds(built):
    """The real files and our own module (built from the sources by conftest)."""
    fuzz._secret_file()
    yield fuzz.load_seeds(built[1])
    fuzz.cleanup_scratch()


@needs_realdata
def test_seeded_fuzz_run_ends_in_results_or_typed_errors(seeds, tmp_path):
    stats = fuzz.run_range(seeds, SEED, 0, INPUTS, time_limit=fuzz.TIME_LIMIT, crash_dir=tmp_path / "crashes")
    summary = fuzz.report(stats, stats.busy, SEED, 1, tmp_path / "crashes")
    assert stats.inputs == INPUTS
    assert stats.failed == 0, summary
    for layer in ("file", "text", "xml", "vmod"):  # every layer fed, and both outcomes seen
        counts = stats.by_layer[layer]
        assert counts["ok"] > 0 and counts["refused"] > 0, summary
    assert stats.slowest < fuzz.TIME_LIMIT


@needs_realdata
def test_fuzz_inputs_depend_on_seed_and_index_only(seeds):
    for i in (0, 1, 17, 2999):
        a, b = fuzz.make_input(seeds, SEED, i), fuzz.make_input(seeds, SEED, i)
        assert (a.layer, a.data, a.what, a.images, a.sizes, a.probe) == (b.layer, b.data, b.what, b.images, b.sizes, b.probe)
    assert fuzz.make_input(seeds, SEED, 5).data != fuzz.make_input(seeds, SEED + 1, 5).data


# ---- SequenceEncoder ----------------------------------------------------------------------------
DELIMS = [";", ",", "/", "\t", "|", ":", "+", ESC]


def _round_trippable(tokens: list[str]) -> bool:
    """VASSAL's documented edge case (vassal-formats.md §3.1): a token ending with a backslash,
    followed by a delimiter, reads back as an escaped delimiter (VASSAL's decoder does the same),
    so such a token is not round-trippable.  Only the last token has no delimiter after it, and
    a token starting with a backslash is quoted ('...'), which protects its end."""
    return not any(t.endswith("\\") and not t.startswith("\\") for t in tokens[:-1])


@PROPS
@given(st.lists(st.text(), min_size=1, max_size=8).filter(_round_trippable), st.sampled_from(DELIMS))
def test_split_inverts_join(tokens, delim):
    assert split(join(tokens, delim), delim) == tokens


@PROPS
@given(st.lists(st.text(st.sampled_from("ab\\';,/\t" + ESC), max_size=6), min_size=1, max_size=6).filter(_round_trippable),
       st.sampled_from([";", ",", "/", "\t", ESC]))
def test_split_inverts_join_on_escape_heavy_tokens(tokens, delim):
    assert split(join(tokens, delim), delim) == tokens


@PROPS
@given(st.text(), st.sampled_from(DELIMS))
def test_split_never_raises_and_always_gives_a_token(text, delim):
    assert len(split(text, delim)) >= 1


# ---- obfuscation ----------------------------------------------------------------------------------
@PROPS
@given(st.text(), st.integers(0, 255))
def test_deobfuscate_inverts_obfuscate(text, key):
    assert deobfuscate(obfuscate(text, key)) == text


# ---- commands, pieces and the command tree --------------------------------------------------------
_prefixed = st.builds(lambda p, t: p + t, st.sampled_from(fuzz.PREFIXES), st.text())


@PROPS
@given(st.one_of(st.text(), _prefixed, st.text(st.sampled_from("+-DM/\t;\\'0123456789" + ESC))))
def test_parse_never_raises(text):
    assert isinstance(parse(text), Command)


@PROPS
@given(st.text(), st.text())
def test_unchain_never_raises_and_keeps_a_trait(typ, state):
    assert len(unchain(typ, state)) >= 1


_tree_text = st.one_of(
    st.text(),
    st.builds(lambda body, k: "begin_save" + ESC + "\\" * k + ESC + body + ESC + "end_save", st.text(), st.integers(0, 80)),
    st.builds(lambda k, leaf: "begin_save" + ESC + "'" * k + leaf + "'" * k + ESC + "end_save", st.integers(0, 80), st.text()),
)


_escapes = st.lists(st.sampled_from(["a", "b", "'", "\\", ESC, "\\" + ESC, "\\\\" + ESC, "'" + ESC, ESC + "'",
                                      "LOG\tnull"]), max_size=16).map("".join)


@PROPS
@given(st.one_of(_escapes, _tree_text))
def test_the_readers_nodes_are_the_command_trees(text):
    """The reader's nodes and leaves (read from one split of the whole text) are exactly the
    top-level nodes of `decode_tree` and their leaves, escaped and quoted ESCs included."""
    try:
        tree = decode_tree(text)
    except CommandTreeError:
        with pytest.raises(CommandTreeError):
            _top_nodes(text)
        return
    top = [tree] if isinstance(tree, str) else tree
    assert _top_nodes(text) == [(True, [n]) if isinstance(n, str) else (False, leaves(n)) for n in top]


@PROPS
@given(_tree_text)
def test_parse_record_returns_or_refuses(text):
    """Any command text, deep nesting included, reads as a record or raises LogFormatError."""
    try:
        record = parse_record(SavedGame("x.vlog", text, {}))
    except LogFormatError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(record, GameRecord)


# ---- containers ------------------------------------------------------------------------------------
_entries = st.lists(st.tuples(st.sampled_from(["savedGame", "savedata", "moduledata", "savedGame\x00x", "../savedGame", "x"]),
                              st.one_of(st.binary(max_size=300), st.text(max_size=200).map(lambda t: obfuscate(t))),
                              st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])),
                    max_size=4).map(fuzz.build_zip)
_save_bytes = st.one_of(
    st.binary(max_size=3000),
    st.binary(max_size=500).map(lambda b: b"PK\x03\x04" + b),
    st.binary(max_size=500).map(lambda b: b"!VCSK" + b),
    st.text(max_size=300).map(lambda t: obfuscate("begin_save" + ESC + t)),
    _entries,
    st.tuples(_entries, st.integers(0, 10_000), st.integers(0, 255)).map(
        lambda t: t[0][: t[1] % (len(t[0]) + 1)] + bytes([t[2]]) + t[0][t[1] % (len(t[0]) + 1) + 1:]),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("props")


@PROPS
@given(data=_save_bytes)
def test_read_saved_game_returns_or_refuses(scratch, data):
    path = scratch / "input.vlog"
    path.write_bytes(data)
    try:
        saved = read_saved_game(path)
    except LogFormatError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(saved.text, str)


# ---- build files ------------------------------------------------------------------------------------
_attr = st.one_of(st.sampled_from(fuzz.XML_VALUES), st.integers().map(str),
                  st.floats(allow_nan=True, allow_infinity=True).map(repr),
                  st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20))
_GRID_KEYS = ["dx", "dy", "x0", "y0", "sideways"]
_NUM_KEYS = ["first", "sep", "hType", "vType", "hLeading", "vLeading", "hOff", "vOff", "hDescend", "vDescend",
             "stagger", "locationFormat"]


def _el(tag: str, attrs: dict[str, str], inner: str = "") -> str:
    a = "".join(f" {k}={quoteattr(v)}" for k, v in attrs.items())
    return f"<{tag}{a}>{inner}</{tag}>"


@st.composite
def _build_files(draw) -> bytes:
    p = "VASSAL.build.module.map.boardPicker."
    kind = draw(st.sampled_from(["HexGrid", "SquareGrid"]))
    numbering = _el(f"{p}board.mapgrid.{kind}Numbering", draw(st.dictionaries(st.sampled_from(_NUM_KEYS), _attr)))
    grid = _el(f"{p}board.{kind}", draw(st.dictionaries(st.sampled_from(_GRID_KEYS), _attr)), numbering)
    if draw(st.booleans()):
        zone = _el(f"{p}board.mapgrid.Zone", {"name": "Z", "path": draw(st.one_of(_attr, st.just("0,0;500,0;500,400;0,400"))),
                                              "useParentGrid": draw(st.sampled_from(["true", "false"]))}, grid)
        grid = _el(f"{p}board.ZonedGrid", {}, zone + (grid if draw(st.booleans()) else ""))
    board = _el(f"{p}Board", {"name": "B", "width": draw(_attr), "height": draw(_attr)}, grid)
    deck = _el("VASSAL.build.module.map.DrawPile", {"name": "D", "owningBoard": "B", "x": draw(_attr), "y": draw(_attr)})
    m = _el("VASSAL.build.module.Map", {"mapName": "M", "edgeWidth": draw(_attr), "edgeHeight": draw(_attr)},
            _el("VASSAL.build.module.map.BoardPicker", {}, board) + deck)
    return _el("VASSAL.build.GameModule", {}, m).encode("utf-8")


@PROPS
@given(st.one_of(st.binary(max_size=2000), _build_files(),
                 st.tuples(_build_files(), st.integers(0, 5000)).map(lambda t: t[0][: t[1]])),
       st.lists(st.tuples(st.integers(), st.integers()), max_size=6),
       st.one_of(st.none(), st.tuples(st.integers(-10, 10**7), st.integers(-10, 10**7))))
def test_read_module_grids_returns_or_refuses_and_location_never_raises(data, points, size):
    try:
        grids = read_module_grids(data, board_sizes={"B": size} if size else None)
    except ModuleFormatError as exc:
        assert "\n" not in str(exc)
        return
    for spec in grids.values():
        for x, y in points + [(0, 0), (10, 10), (100, 100)]:
            assert isinstance(spec.location(x, y), str)


@PROPS
@given(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=6), st.data())
def test_board_origins_sum_the_boards_before_them(sizes, data):
    """MapSpec.origin (computed once per placement) equals the plain sum over the boards in use."""
    boards = {f"b{i}": BoardSpec(f"b{i}", s, None) for i, s in enumerate(sizes)}
    spec = MapSpec("m", (data.draw(st.integers(0, 9)), data.draw(st.integers(0, 9))), boards)
    for _ in range(2):
        spec.placement = {b: (data.draw(st.integers(-2, 2)), data.draw(st.integers(-2, 2)))
                          for b in boards if data.draw(st.booleans())}
        in_use = [n for n in boards if n in spec.placement] or list(boards)[:1]
        for b in [*boards, "elsewhere"]:
            col, row = spec.placement.get(b, (0, 0))
            at = {n: spec.placement.get(n, (0, 0)) for n in in_use}
            x = spec.edge[0] + sum(boards[n].size[0] for n, (c, r) in at.items() if r == row and c < col)
            y = spec.edge[1] + sum(boards[n].size[1] for n, (c, r) in at.items() if c == col and r < row)
            assert spec.origin(b) == (x, y)
