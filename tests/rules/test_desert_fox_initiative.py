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


def _kdg_reacts(w, to: str) -> None:
    """Sonnenblume GT 10 (Axis surprise): KDG (recon, MA 28: RMA 7), set up on the coast road at C0804
    two hexes from the Axis in C0702, reacts east along the road in XIII (1 MP a hex, then desert)."""
    w.move("kdg", "C0804")  # set-up adjustment
    w.phase(10, "XII")
    w.phase(10, "XIII")
    w.move("kdg", to)
    w.declare("kdg", "Morale check")  # 13.5 c: a reacting unit checks its morale
    w.roll("Allied morale 1d6", [1], "Allied")
    w.phase(10, "XIV")


def test_6_2_under_surprise_a_reacting_motorized_unit_moves_up_to_6(play):
    assert play(lambda w: _kdg_reacts(w, "C1008"), setup="sonnenblume.vsav") == []  # within 6 MP


def test_6_2_under_surprise_a_reacting_motorized_unit_moves_no_more_than_6(play):
    found = play(lambda w: _kdg_reacts(w, "C1009"), setup="sonnenblume.vsav")  # 7 MP: its RMA, but the 1d6 gives 6 at most
    assert rules(found) == ["13.2.1"] and "spends 7 MP" in found[0].message and "6.2" in found[0].message


def _rtr_reacts(w, to: str, *, rolled: bool) -> None:
    """Fox Killed GT 5: 7 RTR (tank, MA 14: RMA 4), Ragg X two hexes off, reacts in VII after the
    Axis moved first; `rolled`: the Axis rolled for the initiative in Phase V (the table may have given
    surprise, 6.2, which the audit does not judge)."""
    w.move("ragg-x", "W1917")  # set-up adjustment
    w.phase(4, "XX")
    w.phase(5, "V")
    if rolled:
        w.roll("Axis initiative 2d6", [4, 3], "Axis")
    w.phase(5, "VI")
    w.move("62-mmrirca", "C2331")
    w.phase(5, "VII")
    w.move("7-rtr", to)
    w.declare("7-rtr", "Morale check")  # 13.5 c: a reacting unit checks its morale
    w.roll("Allied morale 1d6", [1], "Allied")
    w.phase(5, "VIII")


def test_6_2_after_an_initiative_roll_the_2nd_player_may_react_up_to_6(play):
    assert play(lambda w: _rtr_reacts(w, "W1718", rolled=True)) == []  # 6 MP: the 1d6 of a surprise may allow it


def test_6_2_after_an_initiative_roll_a_reaction_past_6_is_reported(play):
    found = play(lambda w: _rtr_reacts(w, "W1618", rolled=True))  # 8 MP
    assert rules(found) == ["13.2.1"] and "spends 8 MP" in found[0].message


def test_13_2_1_without_surprise_a_unit_reacts_its_rma(play):
    found = play(lambda w: _rtr_reacts(w, "W1718", rolled=False))  # 6 MP > RMA 4 (no roll: no surprise)
    assert rules(found) == ["13.2.1"] and "RMA of 4" in found[0].message


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


def test_6_1_a_card_starting_before_phase_v_gives_the_first_roll_to_its_holder(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module

    def script(w):
        w.phase(1, "II")
        w.phase(1, "V")
        w.roll("Allied initiative 2d6", [4, 3], "Allied")  # 33.0: the Axis holds the initiative on GT 1
    found = audit(game, vmod, script, tmp_path / "g.vlog", setup="north-african-campaign.vsav")
    assert rules(found) == ["6.1"] and "Axis" in found[0].message


def test_6_1_the_holder_rolls_first_in_a_card_starting_before_phase_v(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module

    def script(w):
        w.phase(1, "II")
        w.phase(1, "V")
        w.roll("Axis initiative 2d6", [4, 3], "Axis")
    assert audit(game, vmod, script, tmp_path / "g.vlog", setup="north-african-campaign.vsav") == []
