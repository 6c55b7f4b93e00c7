"""Initiative (6.1), a card's surprise (6.2) and a fixed scenario end (4.0 with 24.0 d) for the
Desert Fox Deluxe audit."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", **kw)


def test_6_1_the_holder_rolls_for_the_initiative_in_phase_v(play):
    def script(w):
        w.phase(4, "XX")
        w.phase(5, "V")
        w.roll("Axis initiative 2d6", [4, 3], "Axis")  # 24.0: the Axis holds the initiative
        w.roll("Axis initiative 2d6", [3, 2], "Axis")
        w.phase(5, "VI")
    assert play(script) == []


def test_6_1_the_other_side_does_not_roll_first(play):
    def script(w):
        w.phase(4, "XX")
        w.phase(5, "V")
        w.roll("Allied initiative 2d6", [4, 3], "Allied")
    found = play(script)
    assert rules(found) == ["6.1"] and "Axis" in found[0].message


def test_6_1_no_initiative_roll_out_of_phase_v(play):
    def script(w):
        w.phase(4, "VI")
        w.roll("Axis initiative 2d6", [4, 3], "Axis")
    assert rules(play(script)) == ["6.1"]


def test_6_2_under_surprise_the_first_player_may_road_march(play):
    def script(w):
        w.phase(10, "XII")
        w.declare("5-pz", "Road march")
        w.phase(10, "XIII")
    assert play(script, setup="sonnenblume.vsav") == []


def test_6_2_under_surprise_the_second_player_may_not_road_march(play):
    def script(w):
        w.phase(10, "XII")
        w.phase(10, "XV")
        w.declare("3-ind", "Road march")
    found = play(script, setup="sonnenblume.vsav")
    assert rules(found) == ["6.2"] and found[0].piece.startswith("3")


def test_6_2_surprise_lasts_one_gt(play):
    def script(w):
        w.phase(10, "XX")
        w.phase(11, "IX")
        w.declare("3-ind", "Road march")
    assert play(script, setup="sonnenblume.vsav") == []


def test_4_0_fox_killed_ends_after_gt_9(play):
    def script(w):
        w.phase(9, "XIX")
        w.phase(9, "XX")
    assert play(script) == []


def test_4_0_fox_killed_does_not_go_on_to_gt_10(play):
    def script(w):
        w.phase(9, "XX")
        w.phase(10, "I")
    found = play(script)
    assert rules(found) == ["4.0"] and "GT 9" in found[0].message
