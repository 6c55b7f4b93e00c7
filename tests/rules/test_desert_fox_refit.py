"""Refit timing for the Desert Fox Deluxe audit (17.2): units are rebuilt in a friendly Movement
Phase, on the grid at its start, and a destroyed unit passes through the Refit Box.  Fox Killed
set-up; the Axis is the 1st player (it moves first in VI)."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", **kw)


def to_ix(w):
    w.phase(4, "VI")
    w.move("62-mmrirca", "C2331")
    w.phase(4, "VII")
    w.phase(4, "VIII")


def test_17_2_a_depleted_unit_refits_at_the_start_of_its_movement_phase(play):
    def script(w):
        w.flip("22-bde")  # set-up adjustment: 22 Gds Bde depleted
        to_ix(w)
        w.phase(4, "IX")
        w.flip("22-bde")
        w.move("22-bde", "W2017")
        w.phase(4, "X")
    assert play(script) == []


def test_8_2_g_a_disrupted_unit_does_not_refit(play):
    def script(w):
        w.flip("22-bde")  # set-up adjustments: 22 Gds Bde depleted and disrupted, alone in W2118
        w.place("disrupted", "W2118", side="Allied")
        to_ix(w)
        w.phase(4, "IX")
        w.flip("22-bde")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["17.2"] and "disrupted" in found[0].message and found[0].piece.startswith("22")


def test_17_2_no_refit_in_the_enemy_phase(play):
    def script(w):
        w.flip("22-bde")
        to_ix(w)
        w.flip("22-bde")  # VIII: the Axis Combat Phase
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["17.2"] and found[0].piece.startswith("22")


def test_17_2_no_refit_after_the_unit_moved(play):
    def script(w):
        w.flip("22-bde")
        to_ix(w)
        w.phase(4, "IX")
        w.move("22-bde", "W2017")
        w.flip("22-bde")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["17.2"] and "after it moved" in found[0].message


def test_17_2_a_loss_taken_back_is_not_a_refit(play):
    def script(w):
        to_ix(w)
        w.flip("22-bde")  # a mistaken loss...
        w.flip("22-bde")  # ...taken back in the same phase
        w.phase(4, "IX")
    assert play(script) == []


def test_17_2_a_unit_leaves_the_refit_box_in_its_movement_phase(play):
    def script(w):
        w.move("7-rtr", "Allied Refit")  # set-up adjustment
        to_ix(w)
        w.phase(4, "IX")
        w.move("7-rtr", "W2118")
        w.phase(4, "X")
    assert play(script) == []


def test_17_2_a_unit_does_not_leave_the_refit_box_in_another_phase(play):
    def script(w):
        w.move("7-rtr", "Allied Refit")
        to_ix(w)
        w.move("7-rtr", "W2118")  # VIII
        w.phase(4, "IX")
    assert rules(play(script)) == ["17.2"]


def test_17_2_a_destroyed_one_step_unit_goes_through_the_refit_box(play):
    def script(w):
        w.move("7-rtr", "Allied Destroyed")
        to_ix(w)
        w.phase(4, "IX")
        w.move("7-rtr", "W2118")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["17.2"] and "Destroyed Box" in found[0].message


def test_17_2_a_two_step_commonwealth_unit_is_rebuilt_in_one_phase(play):
    def script(w):
        w.move("22-bde", "Allied Destroyed")
        to_ix(w)
        w.phase(4, "IX")
        w.move("22-bde", "W2118")
        w.phase(4, "X")
    assert play(script) == []


def test_17_2_a_unit_in_an_enemy_zoc_does_not_refit(play):
    def script(w):
        w.flip("22-bde")  # set-up adjustments: 22 Gds Bde depleted, Babini (tanks) next to it
        w.move("babini", "W2218")
        to_ix(w)
        w.phase(4, "IX")
        w.flip("22-bde")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["17.2"] and "enemy ZoC" in found[0].message


def test_17_2_1_one_unit_of_a_commonwealth_nationality_a_movement_phase(play):
    def script(w):
        w.flip("5-ind-bg")  # set-up adjustments: two Indian units depleted
        w.flip("11-ind-bg")
        to_ix(w)
        w.phase(4, "IX")
        w.flip("5-ind-bg")
        w.flip("11-ind-bg")
        w.phase(4, "X")
    found = play(script)
    assert rules(found) == ["17.2"] and "(IND)" in found[0].message
