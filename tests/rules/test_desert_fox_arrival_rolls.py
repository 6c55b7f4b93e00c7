"""The arrival rolls and arrival morale checks of 26.2 (Sonnenblume) for the Desert Fox Deluxe
audit: "Arrival roll" and "Morale check" declarations bind the next roll to the waiting unit."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", setup="sonnenblume.vsav", **kw)


@pytest.fixture
def nrv(dfd_module):  # noqa: F811
    return dfd_module[0].zone_name("offmap", "NRV")


def to_gt(w, gt):
    for h in ("C0701", "C0702"):  # the card's stacks at El Agheila are over 6 points (10.3)
        w.place("disrupted", h)
    w.phase(10, "XII")
    for t in range(11, gt):
        w.phase(t, "I")
    w.phase(gt, "III")


def gt12_roll(w, nrv, die):
    to_gt(w, 12)
    w.declare("7-ind-bg", "Arrival roll")
    w.roll("Allied arrival 1d6", [die], "Allied")
    w.move("7-ind-bg", nrv)
    w.phase(12, "IV")


def test_26_2_a_unit_rolling_1_to_3_arrives_this_gt(play, nrv):
    assert play(lambda w: gt12_roll(w, nrv, 3)) == []


def test_26_2_a_unit_rolling_4_to_6_arrives_next_gt(play, nrv):
    found = play(lambda w: gt12_roll(w, nrv, 4))
    assert rules(found) == ["26.2"] and found[0].piece.startswith("7") and "GT 13" in found[0].message


def gt13_check(w, nrv, die, *, arrive_gt=13, flip=False):
    to_gt(w, 13)
    w.declare("1-lt-arm", "Morale check")
    w.roll("Allied morale 1d6", [die], "Allied")
    if arrive_gt == 14:
        w.phase(14, "III")
    if flip:
        w.flip("1-lt-arm")
    w.move("1-lt-arm", nrv)
    w.phase(arrive_gt, "IV")


def test_26_2_a_unit_passing_its_arrival_check_arrives_on_gt_13(play, nrv):
    assert play(lambda w: gt13_check(w, nrv, 1)) == []


def test_26_2_a_unit_failing_its_arrival_check_arrives_depleted_on_gt_14(play, nrv):
    assert play(lambda w: gt13_check(w, nrv, 6, arrive_gt=14, flip=True)) == []


def test_26_2_a_unit_failing_its_arrival_check_does_not_arrive_on_gt_13(play, nrv):
    found = play(lambda w: gt13_check(w, nrv, 6))
    assert rules(found) == ["26.2", "26.2"] and "GT 14" in found[0].message and "depleted" in found[1].message
