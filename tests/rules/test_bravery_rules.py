"""Per-rule scenarios for Bravery in the Sand: from the campaign set-up, one legal and one
illegal case each, written as real-format logs and audited as a player's log would be."""
from __future__ import annotations

from pathlib import Path

import pytest

from validators.audit import audit_file
from validators.vlog.writer import LogWriter
from tests.conftest import SLUG

FORMATION_UNITS = {
    "15PZ": ["15pz-8pz-1", "15pz-8pz-2", "15pz-115sr", "15pz-33ar"],
    "7A": ["7a-7h", "7a-2rtr", "7a-6rtr", "7a-7sg"],
}


@pytest.fixture
def play(built, game, tmp_path):
    """Run a script on a LogWriter over the built module; return the audit's findings."""
    root, _, _ = built
    vmod = root / "generated" / SLUG / f"{SLUG}.vmod"

    def run(script) -> list:
        w = LogWriter(vmod)
        script(w)
        path = tmp_path / "game.vlog"
        w.write(path)
        return list(audit_file(game, path).findings)
    return run


def rules(findings) -> list[str]:
    return [f.rule for f in findings if f.kind == "violation"]


def start(w: LogWriter, phase: str = "Activations") -> None:
    w.turn(1, "Chits into the mug")
    for chit in ("chit-15pz#1", "chit-7a"):
        w.move(chit, "Mug")
    w.turn(1, phase)


def move_all(w: LogWriter, formation: str, *hexes: str) -> None:
    for h in hexes:
        for u in FORMATION_UNITS[formation]:
            w.move(u, h)


def test_a_chit_draw_and_a_legal_road_move(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0606")  # two road hexsides: 1 MP
    assert rules(play(script)) == []


def test_4_chits_fill_the_activation_track_from_the_turns_box(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 9")
    assert rules(play(script)) == ["4"]


def test_5_2_units_move_only_after_their_chit(play):
    def script(w):
        start(w)
        w.move("15pz-8pz-1", "0607")
    assert rules(play(script)) == ["5.2"]


def test_5_2_1_only_the_drawn_division_moves(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        w.move("21pz-5pz-1", "0509")
    assert rules(play(script)) == ["5.2.1"]


def test_6_2_cost_beyond_the_movement_allowance(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        w.move("15pz-8pz-1", "0508")  # desert: 2 MP
        w.move("15pz-8pz-1", "0408")  # desert: 4 MP > 3
    found = [f for f in play(script) if f.kind == "violation"]
    assert [f.rule for f in found] == ["6.2"]
    assert "cost 4 MP via 0608-0508-0408 > MA 3" in found[0].message


def test_6_1_4_no_crossing_of_a_cliff(play):
    def script(w):
        start(w)
        w.move("chit-7a", "Activation 8")
        w.move("7a-7h", "0605")  # the southern Sidi Rezegh escarpment, no road or track
    assert rules(play(script)) == ["6.1.4"]


def test_6_7_garrisons_never_move(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        w.move("sollum-ob300", "0412")
    assert rules(play(script)) == ["6.7"]


def test_3_setup_adjustments_are_checked_against_the_card(play):
    def script(w):
        w.move("7a-7h", "0506")  # before play starts: an adjustment, left off its hex
        start(w)
    found = [f for f in play(script) if f.kind == "violation"]
    assert [f.rule for f in found] == ["3"] and found[0].to_hex == "0506"


def test_undone_moves_are_never_made(play):
    def script(w):
        start(w)
        w.move("15pz-8pz-1", "0607")  # illegal (no chit) ...
        w.undo()  # ... and taken back
    assert rules(play(script)) == []
