"""Every way the engine records a move, audited alike, in both games (issue 19).

The log writer writes each act as VASSAL 3.7.26 does (`engine-logs/kassala-3.7.vlog` step 12: a
stack dragged whole is one step with a move of each of its pieces, the first starting a new
Stack; a piece pulled out of a stack is a move of that piece alone; a drop onto a stack names
the piece it lands on; an undo is the step's inverse).  Legal play gives no finding; an illegal
act gives exactly one finding per unit with its rule, at the first offending hex, and names
where the unit went.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import SLUG as BITS, needs_realdata
from tests.rules.test_bravery_rules import FORMATION_UNITS, ari_attacks_22a, start
from tests.rules.test_wdf_movement import desert, road_from, run_log, wdf  # noqa: F401 (fixtures)
from validators.audit import audit_file
from validators.vlog.reader import read_record
from validators.replay.writer import LogWriter

PANZER = FORMATION_UNITS["15PZ"]  # the 15PZ stack at Gambut 0608


@pytest.fixture
def bits(built, game, tmp_path):
    """Write a Bravery in the Sand log from a script; its violations."""
    root, _, _ = built

    def run(script) -> list:
        w = LogWriter(root / "generated" / BITS / f"{BITS}.vmod")
        script(w)
        w.write(tmp_path / "game.vlog")
        return [f for f in audit_file(game, tmp_path / "game.vlog").findings if f.kind == "violation"]
    return run


def panzer_drawn(w: LogWriter) -> None:
    start(w)
    w.move("chit-15pz#1", "Activation 8")


def test_the_engine_writes_a_stack_drag_as_one_step_of_moves_of_each_piece(built, tmp_path):
    """The shape the tests below rely on, read back from the written log."""
    root, _, _ = built
    w = LogWriter(root / "generated" / BITS / f"{BITS}.vmod")
    panzer_drawn(w)
    w.move("15pz-8pz-1", "0607", stack=True)
    w.write(tmp_path / "drag.vlog")
    last = read_record(tmp_path / "drag.vlog").steps[-1]
    moved = [c.id for c in last.commands if type(c).__name__ == "MovePiece"]
    assert len(moved) >= len(PANZER) and len(set(moved)) == len(moved)


# -- Bravery in the Sand ------------------------------------------------------------------------
def test_bits_a_stack_dragged_whole_along_the_road(bits):
    """The issue's case: the 15PZ stack dragged 0608 -> 0607 -> 0606 in two steps."""
    def script(w):
        panzer_drawn(w)
        w.move("15pz-8pz-1", "0607", stack=True)
        w.move("15pz-8pz-1", "0606", stack=True)
    assert bits(script) == []


def test_bits_a_stack_dragged_too_far_is_one_finding_per_unit_at_the_first_hex(bits):
    act = []

    def script(w):
        panzer_drawn(w)
        w.move("15pz-8pz-1", "0508", stack=True)  # desert: 2 MP
        w.move("15pz-8pz-1", "0408", stack=True)  # 4 MP > MA 3: the act
        act.append(len(w.steps))
        w.move("15pz-8pz-1", "0409", stack=True)  # farther still: the same act, no new finding
    found = bits(script)
    assert [f.rule for f in found] == ["6.2"] * len(PANZER)
    assert {f.step for f in found} == set(act) and {f.to_hex for f in found} == {"0408"}
    assert len({f.piece for f in found}) == len(PANZER)


def test_bits_a_unit_dragged_out_of_its_stack(bits):
    def legal(w):
        panzer_drawn(w)
        w.move("15pz-8pz-1", "0607")  # one unit leaves the stack, the rest follow one by one
        for u in PANZER[1:]:
            w.move(u, "0607")

    def illegal(w):
        panzer_drawn(w)
        w.move("21pz-5pz-1", "0509")  # a 21PZ unit out of its stack: 21PZ is not activated
        w.move("21pz-5pz-1", "0508")  # on again: the same act
    assert bits(legal) == []
    found = bits(illegal)
    assert [(f.rule, f.from_hex, f.to_hex) for f in found] == [("5.2.1", "0510", "0509")]


def test_bits_a_stack_dragged_onto_another_stack(bits):
    def legal(w):
        start(w, chits=("chit-90lt",))
        w.move("chit-90lt", "Activation 8")
        w.move("90lt-155ir", "0704", stack=True)  # onto Pavia's stack

    def illegal(w):
        panzer_drawn(w)
        w.move("90lt-155ir", "0704", stack=True)  # 90LT is not the drawn division
    assert bits(legal) == []
    found = bits(illegal)
    assert sorted(f.rule for f in found) == ["5.2.1"] * 3 and len({f.piece for f in found}) == 3
    assert {f.to_hex for f in found} == {"0704"}


def test_bits_units_dropped_off_on_the_way(bits):
    def legal(w):
        panzer_drawn(w)
        w.move("15pz-8pz-1", "0607", stack=True)
        for u in PANZER[:-1]:  # the artillery stays in 0607
            w.move(u, "0606")

    def illegal(w):
        legal(w)
        w.move(PANZER[-1], "0507")  # the dropped unit turns off the stack's path
    assert bits(legal) == []
    found = bits(illegal)
    assert [(f.rule, f.from_hex, f.to_hex) for f in found] == [("6", "0607", "0507")]


def test_bits_an_illegal_drag_undone_and_a_legal_one_made(bits):
    def legal(w):
        panzer_drawn(w)
        w.move("15pz-8pz-1", "0408", stack=True)  # too far ...
        w.undo()  # ... taken back
        w.move("15pz-8pz-1", "0607", stack=True)

    def illegal(w):
        panzer_drawn(w)
        w.move("15pz-8pz-1", "0607", stack=True)
        w.undo()
        w.move("15pz-8pz-1", "0408", stack=True)  # the drag that stays is too far
    assert bits(legal) == []
    assert Counter(f.rule for f in bits(illegal)) == {"6.2": len(PANZER)}


def test_bits_a_unit_eliminated_by_its_menu_command(bits):
    """Eliminate (Send To Location, Ctrl+E) moves the unit to its side's box, as a drag would."""
    def legal(w):
        ari_attacks_22a(w, axis_dice=(6, 6, 6), cw_dice=(6, 1, 1))
        for u in ("22a-2rgh", "22a-3cly", "22a-4cly", "ari-132tk"):
            w.flip(u)
        w.roll("Axis dice", [6, 1], "Axis")  # round 2: one more hit on 22nd Armoured
        w.roll("Commonwealth dice", [1], "Commonwealth")
        w.send("22a-2rgh", "Eliminate")

    def illegal(w):
        panzer_drawn(w)
        w.send("15pz-8pz-1", "Eliminate")  # no combat in Gambut
    assert bits(legal) == []
    found = bits(illegal)
    assert [(f.rule, f.from_hex, f.to_hex) for f in found] == [("7.2.3", "0608", "Axis eliminated")]


# -- Western Desert Force -----------------------------------------------------------------------
ALEXANDRIA = ["6aus-17", "6aus-19"]  # the stack in Alexandria 6508 at set-up


@pytest.fixture
def wdf_play(wdf_module, tmp_path):
    return lambda script: run_log(wdf_module, script, tmp_path / "game.vlog")


@pytest.fixture(scope="module")
def road(wdf_module):
    return road_from(wdf_module[0], "6508", 12)


def test_wdf_a_stack_dragged_whole_along_the_road(wdf_play, road):
    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", road[6], stack=True)
        w.move("6aus-17", road[12], stack=True)  # 12 road hexsides: 4 MP, a normal move
    assert wdf_play(script) == []


def test_wdf_a_stack_dragged_too_far_is_one_finding_per_unit(wdf_play, desert):
    act = []

    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", desert(), stack=True)  # off the road, 8 hexes or more from it: the act
        act.append(len(w.steps))
        w.move("6aus-17", desert(1, 0), stack=True)  # and on: the same act
    found = wdf_play(script)
    assert Counter(f.rule for f in found) == {"9.1": 2} and {f.step for f in found} == set(act)
    assert {f.to_hex for f in found} == {desert()} and len({f.piece for f in found}) == 2


def test_wdf_a_unit_dragged_out_of_its_stack_and_one_onto_another(wdf_play, road):
    def legal(w):
        w.move("4ind-7", road[6])  # set-up adjustment: a brigade waits on the road
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", road[3])  # out of the Alexandria stack
        w.move("6aus-19", road[6], stack=True)  # what is left, dragged onto the brigade
        w.move("6aus-17", road[6])  # and the first onto them

    def illegal(w):
        w.turn(1, "Allied Regular Movement")
        w.move("1ccnn", "4109")  # an Axis unit out of its stack in the Allied phase
        w.move("1ccnn", "4209")
    assert wdf_play(legal) == []
    found = wdf_play(illegal)
    assert [(f.rule, f.from_hex, f.to_hex) for f in found] == [("9.0", "4009", "4109")]


def test_wdf_an_illegal_drag_undone(wdf_play, desert, road):
    def legal(w):
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", road[12], stack=True)
        w.move("6aus-17", desert(), stack=True)  # too far ...
        w.undo()  # ... and taken back

    def illegal(w):
        legal(w)
        w.undo()  # the legal drag goes too: the stack is back in Alexandria, whole
        w.move("6aus-17", desert(), stack=True)
    assert wdf_play(legal) == []
    found = wdf_play(illegal)
    assert [f.rule for f in found] == ["9.1", "9.1"] and len({f.piece for f in found}) == 2


@needs_realdata
def test_the_engines_own_send_to_location_is_a_move(tmp_path):
    """Ragnarok's 'Deadpile' key, played by VASSAL 3.7.26 (engine-logs step 14): a ChangePiece of
    the Send To Location trait, then the move: the replay reports it as a move like any drag."""
    from validators.replay.replayer import Moved, Replayer
    from validators.vlog.modulegrid import read_module_grids

    real = Path(__file__).resolve().parents[3] / "shared" / "realdata"
    record = read_record(real / "engine-logs" / "ragnarok-3.7.vlog")
    grids = read_module_grids((real / "ragnarok" / "buildFile.xml").read_bytes())
    moves = {step.index: [e for e in events if isinstance(e, Moved)] for step, events in Replayer(record, grids).steps()}
    (sent,) = moves[14]
    assert sent.piece.name == "hero-thor" and (sent.old.x, sent.old.y) == (529, 900) and sent.new.map == "DeadPile"
