"""Morale checks for the Desert Fox Deluxe audit (8.1 with 13.5 c, 14.5 and 12.5.1): a "Morale
check" declaration binds the side's next morale roll to its unit; a certain failure must show its
effect (a Disrupted marker, or a step lost) by the end of the next phase.  Fox Killed set-up."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", **kw)


def enemy_near(w):
    """Set-up: Ragg X within two hexes of the Allied units at Matruh, so that they may react (13.5)."""
    w.move("ragg-x", "W1917")


def react(w, die, *, marker=False):
    """The Axis moves in VI; 22 Gds Bde (morale 2) reacts in VII and checks its morale."""
    enemy_near(w)
    w.phase(4, "VI")
    w.move("62-mmrirca", "C2331")
    w.phase(4, "VII")
    w.move("22-bde", "W2017")
    w.declare("22-bde", "Morale check")
    w.roll("Allied morale 1d6", [die], "Allied")
    if marker:
        w.place("disrupted", "W2017", side="Allied")
    w.phase(4, "VIII")
    w.phase(4, "IX")


def test_13_5_a_reacting_unit_that_fails_and_is_disrupted_is_legal(play):
    assert play(lambda w: react(w, 5, marker=True)) == []


def test_13_5_a_reacting_unit_that_fails_must_be_disrupted(play):
    found = play(lambda w: react(w, 5))  # 5 + 2 = 7: a failure
    assert rules(found) == ["13.5"] and found[0].piece.startswith("22") and "= 7" in found[0].message


def test_8_1_a_roll_that_may_pass_is_not_reported(play):
    assert play(lambda w: react(w, 4)) == []  # 4 + 2 = 6: passes unless modifiers the log hides apply


def test_8_1_a_morale_roll_without_a_declaration_names_no_unit(play):
    def script(w):
        enemy_near(w)
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("22-bde", "W2017")
        w.roll("Allied morale 1d6", [6], "Allied")
        w.phase(4, "VIII")
        w.phase(4, "IX")
    assert play(script) == []


def test_8_1_declarations_pair_with_rolls_in_order(play):
    def script(w):
        enemy_near(w)
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("22-bde", "W2017")
        w.move("7-rtr", "W2017")
        w.declare("22-bde", "Morale check")
        w.declare("7-rtr", "Morale check")
        w.roll("Allied morale 1d6", [1], "Allied")  # 22 Gds Bde passes
        w.roll("Allied morale 1d6", [6], "Allied")  # 7 RTR: a natural 6 always fails
        w.phase(4, "VIII")
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["13.5"] and found[0].piece.startswith("7") and "always a failure" in found[0].message


def combat_m(w, *, marker):
    """An Axis attack (D1 for the defender); 1 CCNN (morale 2) takes the "m" check and fails."""
    w.move("22-bde", "C2129")
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.combat(["1-ccnn", "2-libyan"], ["22-bde"], [6, 6], side="Axis")
    w.flip("22-bde")
    w.place("disrupted", "C2129", side="Allied")  # 14.7.1, Example of Play: 22 Gds holds on its W, disrupted
    w.declare("1-ccnn", "Morale check")
    w.roll("Axis morale 1d6", [5], "Axis")
    if marker:
        w.place("disrupted", "C2229")
    w.phase(4, "IX")
    w.phase(4, "X")


def test_14_5_a_failed_combat_check_with_its_disruption_is_legal(play):
    assert play(lambda w: combat_m(w, marker=True)) == []


def test_14_5_a_failed_combat_check_must_disrupt(play):
    found = play(lambda w: combat_m(w, marker=False))
    assert rules(found) == ["14.5"] and found[0].piece.startswith("1")


def attrition(w, *, flip):
    w.phase(4, "XVIII")
    w.declare("22-bde", "Morale check")
    w.roll("Allied morale 1d6", [6], "Allied")
    if flip:
        w.flip("22-bde")
    w.phase(4, "XIX")
    w.phase(4, "XX")


def test_12_5_1_a_failed_attrition_check_depletes_the_unit(play):
    assert play(lambda w: attrition(w, flip=True)) == []


def test_12_5_1_a_failed_attrition_check_without_a_loss_is_reported(play):
    found = play(lambda w: attrition(w, flip=False))
    assert rules(found) == ["12.5.1"] and found[0].piece.startswith("22")


def _attrition_at_4(w, *, disrupted: bool) -> None:
    """22 Gds Bde (morale 2), alone in W2118 (its base and MSU are not combat units), rolls 4 for its
    supply attrition check: 6, a pass, unless it is disrupted (8.2 a: morale +1, so 7 fails)."""
    if disrupted:
        w.place("disrupted", "W2118", side="Allied")  # set-up adjustment
    w.phase(4, "XVIII")
    w.declare("22-bde", "Morale check")
    w.roll("Allied morale 1d6", [4], "Allied")
    w.phase(4, "XIX")
    w.phase(4, "XX")


def test_8_2_a_a_unit_not_disrupted_may_pass_on_die_and_morale_6(play):
    assert play(lambda w: _attrition_at_4(w, disrupted=False)) == []


def test_8_2_a_a_disrupted_unit_adds_1_to_its_morale_check(play):
    found = play(lambda w: _attrition_at_4(w, disrupted=True))
    assert rules(found) == ["12.5.1"] and "+ 1 disrupted (8.2 a)" in found[0].message


def test_13_5_a_unit_stacked_with_an_hq_makes_no_check_after_reacting(play):
    def script(w):
        enemy_near(w)
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("4-lt-arm", "W2116")  # stacked with the WDF HQ when the phase began (15.6)
        w.declare("4-lt-arm", "Morale check")
        w.roll("Allied morale 1d6", [6], "Allied")
        w.phase(4, "VIII")
        w.phase(4, "IX")
    assert play(script) == []


def test_13_5_the_hq_counts_where_it_stood_when_the_phase_began(play):
    """The HQ reacts away first: its stack is still judged as it stood at the phase's start."""
    def script(w):
        enemy_near(w)
        w.phase(4, "VI")
        w.move("62-mmrirca", "C2331")
        w.phase(4, "VII")
        w.move("wdf-bde", "W2118")
        w.move("4-lt-arm", "W2116")
        w.declare("4-lt-arm", "Morale check")
        w.roll("Allied morale 1d6", [6], "Allied")
        w.phase(4, "VIII")
        w.phase(4, "IX")
    assert play(script) == []
