"""Desert Fox Deluxe combat, morale and reaction audit (issue 30): each rule's legal case gives no
finding, and a planted act is found once, at its step (an omission at its deadline).  Fox Killed
set-up, GT 4 (the Axis moves first); units placed before the tracker first moves are the set-up."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)

DESTROYED = ("allied-boxes", "Allied Destroyed")


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", **kw)


def _axis_attacks(w, targets: list[str], dice: list[int]) -> None:
    """22 Gds in C2129 and 7 SG in C2128, both projecting a ZoC onto C2229 (1 CCNN and 2 Libyan)."""
    w.move("22-bde", "C2129")
    w.move("7-sg", "C2128")
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.combat(["1-ccnn", "2-libyan"], targets, dice, side="Axis")


# ---- 14.2 (14.0): mandatory attacks ----------------------------------------------------------------
def test_14_2_every_unit_projecting_a_zoc_onto_the_attackers_is_attacked(play):
    def script(w):
        _axis_attacks(w, ["22-bde", "7-sg"], [1, 1])  # row 2-4: A1 or A2, D0 or D1, no retreat
        w.flip("1-ccnn")
        w.phase(4, "IX")
    assert play(script) == []


def test_14_2_a_unit_projecting_a_zoc_onto_an_attacker_left_unattacked_is_reported_at_the_phase_end(play):
    at = []

    def script(w):
        _axis_attacks(w, ["22-bde"], [1, 1])
        w.flip("1-ccnn")
        w.phase(4, "IX")
        at.append(len(w.steps))
    found = play(script)
    assert rules(found) == ["14.2"] and found[0].piece.startswith("7 SG") and found[0].step == at[0]


# ---- 14.6: losses before retreats and advances, and one step each before a second -----------------
def test_14_6_a_retreat_before_the_loss_is_reported_at_the_retreat(play):
    at = []

    def script(w):
        _axis_attacks(w, ["22-bde", "7-sg"], [6, 6])  # row 11-12: D1 W at the least
        w.move("22-bde", "C2029")  # withdraws, and no step is ever lost
        at.append(len(w.steps))
        w.move("7-sg", "C2028")
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.6"] and found[0].step == at[0] and "before taking it" in found[0].message


def test_14_6_the_loss_taken_after_the_retreat_is_no_finding(play):
    def script(w):
        _axis_attacks(w, ["22-bde", "7-sg"], [6, 6])
        w.move("22-bde", "C2029")
        w.flip("22-bde")  # late, but taken before the combat closes
        w.move("7-sg", "C2028")
        w.phase(4, "IX")
    assert play(script) == []


def _allied_attack_on_babini(w) -> None:
    """11 Huss (two steps) and CIH (one) in C2131 attack Babini (reduced, CF 2): 1-1, row 2-4: A2."""
    w.move("11-huss", "C2131")
    w.move("cih", "C2131")
    w.phase(4, "VI")
    w.phase(4, "XI")
    w.combat(["11-huss", "cih"], ["babini"], [1, 1], side="Allied")


def test_14_6_each_unit_loses_a_step_before_any_loses_a_second(play):
    def script(w):
        _allied_attack_on_babini(w)
        w.move("cih", w.game.zone_name(*DESTROYED))
        w.flip("11-huss")
        w.phase(4, "XII")
    assert play(script) == []


def test_14_6_a_second_step_lost_while_a_unit_lost_none_is_reported_at_the_loss(play):
    at = []

    def script(w):
        _allied_attack_on_babini(w)
        w.move("11-huss", w.game.zone_name(*DESTROYED))  # both its steps; CIH keeps its own
        at.append(len(w.steps))
        w.phase(4, "XII")
    found = play(script)
    assert rules(found) == ["14.6"] and found[0].step == at[0] and "second step" in found[0].message


# ---- 14.7: a withdrawal not taken is held disrupted -----------------------------------------------
def _holds(w) -> None:
    """22 Gds alone in C2129, attacked by 1 CCNN and 2 Libyan: row 11-12, every result withdraws."""
    w.move("22-bde", "C2129")
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.combat(["1-ccnn", "2-libyan"], ["22-bde"], [6, 6], side="Axis")
    w.flip("22-bde")


def test_14_7_a_defender_holding_on_a_withdrawal_without_a_disrupted_marker_is_reported(play):
    def script(w):
        _holds(w)
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.7"] and found[0].piece.startswith("22")


def test_14_7_a_defender_holding_disrupted_on_a_withdrawal_is_legal(play):
    def script(w):
        _holds(w)
        w.place("disrupted", "C2129", side="Allied")  # Example of Play: "disrupt the KDG and hold in place"
        w.phase(4, "IX")
    assert play(script) == []


# ---- 14.5, 19.5: an air unit shifts the column only when placed on the combat ----------------------
def _babini_on_7_sg(w, air: bool) -> None:
    """Babini (reduced, CF 2) attacks 7 SG (CF 3, AT: 15.2) in XIV: 1-2, row 11-12: D1, no retreat,
    unless an Axis air unit supports it on 7 SG's hex (19.5)."""
    w.move("babini", "W1905")
    w.move("7-sg", "W1906")
    w.phase(4, "VI")
    w.phase(4, "XIV")
    if air:
        w.move("libya-air", "W1906")
    w.combat(["babini"], ["7-sg"], [6, 6], side="Axis")
    w.flip("7-sg")
    w.move("7-sg", "W2007")  # withdraws 1 hex
    w.phase(4, "XV")


def test_19_5_an_air_unit_placed_on_the_defender_shifts_the_column(play):
    assert play(lambda w: _babini_on_7_sg(w, air=True)) == []


def test_19_5_an_air_unit_off_the_combat_shifts_nothing(play):
    found = play(lambda w: _babini_on_7_sg(w, air=False))
    assert rules(found) == ["14.7"] and "no result" in found[0].message


# ---- 13.5 c, 8.1: a reacting unit checks its morale ------------------------------------------------
def _react(w, check: bool) -> None:
    w.move("ragg-x", "W1917")  # within two hexes of 22 Gds at W2118 (13.5)
    w.phase(4, "VI")
    w.phase(4, "VII")
    w.move("22-bde", "W2017")
    if check:
        w.declare("22-bde", "Morale check")
        w.roll("Allied morale 1d6", [2], "Allied")
    w.phase(4, "VIII")


def test_13_5_a_reacting_unit_that_checks_its_morale_is_legal(play):
    assert play(lambda w: _react(w, True)) == []


def test_13_5_a_reacting_unit_with_no_morale_check_is_reported_at_the_phase_end(play):
    found = play(lambda w: _react(w, False))
    assert rules(found) == ["13.5"] and "no morale check" in found[0].message


# ---- 12.5.1: an isolated unit checks for supply attrition ------------------------------------------
def _isolated(w, check: bool) -> None:
    w.move("5-ind-bg", "W2017")  # set-up: 7 RTR alone in W2018, marked isolated (12.5: OGS and Disrupted)
    w.place("ogs", "W2018", side="Allied")
    w.place("disrupted", "W2018", side="Allied")
    w.phase(4, "XVIII")
    if check:
        w.declare("7-rtr", "Morale check")
        w.roll("Allied morale 1d6", [1], "Allied")
    w.phase(4, "XIX")


def test_12_5_1_an_isolated_unit_that_checks_is_legal(play):
    assert play(lambda w: _isolated(w, True)) == []


def test_12_5_1_an_isolated_unit_with_no_check_is_reported(play):
    found = play(lambda w: _isolated(w, False))
    assert rules(found) == ["12.5.1"] and found[0].piece.startswith("7 RTR")


# ---- 13.4.1, 13.5 b: who may overrun ---------------------------------------------------------------
def test_13_4_1_a_foot_unit_may_not_overrun_a_hex_of_non_zero_combat_units(play):
    def script(w):
        w.move("22-bde", "C2129")  # next to 1 CCNN and 2 Libyan (C2229)
        w.phase(4, "VI")
        w.declare("1-ccnn", "Declare overrun")  # an Italian infantry division: a foot unit (13.7, 15.10)
    found = play(script)
    assert rules(found) == ["13.4.1"] and "foot" in found[0].message


def test_13_5_a_reacting_unit_may_not_overrun(play):
    def script(w):
        w.move("ragg-x", "W1917")
        w.move("22-bde", "W1918")  # next to Ragg X
        w.phase(4, "VI")
        w.phase(4, "VII")
        w.declare("22-bde", "Declare overrun")
    found = play(script)
    assert rules(found) == ["13.5"] and "overrun" in found[0].message


# ---- 14.0: every combat declared before the first is resolved ---------------------------------------
def _two_combats(w, together: bool) -> list[int]:
    """1 CCNN and 2 Libyan on 22 Gds (C2129), Maletti on 11 Huss (C2130): row 2-4 twice (no retreat)."""
    at = []
    w.move("22-bde", "C2129")
    w.move("11-huss", "C2130")
    w.phase(4, "VI")
    w.phase(4, "VIII")
    w.declare("1-ccnn", "Declare attacker")
    w.declare("2-libyan", "Declare attacker")
    w.declare("22-bde", "Declare target")
    if together:
        w.declare("maletti", "Declare attacker")
        w.declare("11-huss", "Declare target")
    w.roll("Axis combat 2d6", [1, 1], "Axis")
    w.flip("1-ccnn")
    if not together:
        w.declare("maletti", "Declare attacker")
        at.append(len(w.steps))
        w.declare("11-huss", "Declare target")
    w.roll("Axis combat 2d6", [1, 1], "Axis")
    w.flip("maletti")
    w.phase(4, "IX")
    return at


def test_14_0_combats_declared_before_the_first_is_resolved_are_legal(play):
    assert play(lambda w: _two_combats(w, True)) == []


def test_14_0_a_combat_declared_after_a_resolution_is_reported_at_its_declaration(play):
    at = []
    found = play(lambda w: at.extend(_two_combats(w, False)))
    assert rules(found) == ["14.0"] and found[0].step == at[0] and found[0].piece.startswith("Maletti")


def _msu_reacts(w, with_unit: bool) -> list[int]:
    at = []
    w.move("ragg-x", "W1917")  # within two hexes of W2118 (13.5)
    w.phase(4, "VI")
    w.phase(4, "VII")
    if with_unit:
        w.move("22-bde", "W2017")
        w.declare("22-bde", "Morale check")
        w.roll("Allied morale 1d6", [2], "Allied")
    w.move("allied-msu-1", "W2017")
    at.append(len(w.steps))
    w.phase(4, "VIII")
    return at


def test_13_5_an_msu_reacting_with_a_combat_unit_of_its_stack_is_legal(play):
    assert play(lambda w: _msu_reacts(w, True)) == []


def test_13_5_an_msu_reacting_alone_is_reported_at_its_move(play):
    at = []
    found = play(lambda w: at.extend(_msu_reacts(w, False)))
    assert rules(found) == ["13.5"] and found[0].step == at[0] and "MSU" in found[0].message


def test_14_2_stacked_attackers_in_two_combats_are_reported_at_the_first_roll(play):
    """1 CCNN on 22 Gds (C2129) and 2 Libyan, of the same stack (C2229), on 7 SG (C2128)."""
    at = []

    def script(w):
        w.move("22-bde", "C2129")
        w.move("7-sg", "C2128")
        w.phase(4, "VI")
        w.phase(4, "VIII")
        for unit, order in (("1-ccnn", "attacker"), ("22-bde", "target"), ("2-libyan", "attacker"),
                            ("7-sg", "target")):
            w.declare(unit, f"Declare {order}")
        w.roll("Axis combat 2d6", [1, 1], "Axis")
        at.append(len(w.steps))
        w.flip("1-ccnn")
        w.roll("Axis combat 2d6", [1, 1], "Axis")
        w.flip("2-libyan")
        w.phase(4, "IX")
    found = play(script)
    assert rules(found) == ["14.2"] and found[0].step == at[0] and "two combats" in found[0].message
