"""Leaders (13.1, 13.6; digest §10.1 rank 19) from real-format logs over the built module.

Casualty checks: Graziani defends with 63cir and 64cat on the combat tests' battlefield and one
of them is eliminated by its menu command (a casualty on a 1), or he stands alone and an Allied
unit enters his hex (a casualty on 1-3).  The roll is the "Axis 1d6".
"""
from __future__ import annotations

from tests.rules.test_wdf_combat import (ARMOURED, COMBAT, NEXT, Battle, armoured_cs, dice, found, only, play,  # noqa: F401
                                         site, strength, wdf)

DEFENDERS = ("63cir", "64cat")


def eliminated_beside_graziani(w, game, site, roll, after=()) -> int:
    """Two Allied hits: 63cir (two steps) eliminated by Ctrl+E; Graziani's check; `after` acts."""
    b = Battle(w, site).setup(then=lambda w: w.move("graziani", site.d))
    b.declare()
    b.roll("Allied", "6 dice", dice(armoured_cs(game, site), sixes=2))
    b.roll("Axis", "6 dice", dice(strength(game, DEFENDERS, site.axis)))
    b.roll("Axis", "leader dice", [1])  # Graziani's defence value (13.3)
    w.send("63cir", "Eliminate")
    if roll is not None:
        w.roll("Axis 1d6", [roll], "Axis")
    for act in after:
        act(w)
    return b.close()


def test_13_6_a_unit_stacked_with_the_leader_eliminated(play, wdf, site):
    game, _ = wdf
    assert found(play(lambda w: eliminated_beside_graziani(w, game, site, 2))) == []  # 2: no casualty

    def casualty(w):  # a 1: Graziani turns to Gariboldi and goes to the next turn's box
        w.flip("graziani")
        w.move("graziani", "Turn 4")
    assert found(play(lambda w: eliminated_beside_graziani(w, game, site, 1, [casualty]))) == []
    findings = play(lambda w: eliminated_beside_graziani(w, game, site, 1))
    assert only(findings, "13.6") and "is a casualty" in findings[0].message


def test_13_6_the_check_must_be_rolled(play, wdf, site):
    game, _ = wdf
    findings = play(lambda w: eliminated_beside_graziani(w, game, site, None))
    assert only(findings, "13.6") and "rolls for casualty" in findings[0].message


def alone(w, site, roll, after=()) -> int:
    """Graziani alone in d, 63cir and 64cat two hexes away; an Allied brigade enters his hex."""
    w.move("graziani", site.d)  # set-up
    for u in DEFENDERS:
        w.move(u, site.d_back[1])
    w.move("4ind-5", site.a)
    w.turn(3, "Allied Regular Movement")
    w.move("4ind-5", site.d)
    if roll is not None:
        w.roll("Axis 1d6", [roll], "Axis")
    for act in after:
        act(w)
    w.turn(3, COMBAT)
    return len(w.steps)  # the check is judged when the phase ends


def test_13_6_an_enemy_unit_enters_the_leader_s_hex(play, site):
    to_friends = lambda w: w.move("graziani", site.d_back[1])  # noqa: E731  the nearest Axis units
    assert found(play(lambda w: alone(w, site, 5, [to_friends]))) == []  # survives, joins his units
    findings = play(lambda w: alone(w, site, 5))
    assert only(findings, "13.6") and "nearest friendly unit" in findings[0].message

    def casualty(w):
        w.flip("graziani")
        w.move("graziani", "Turn 4")
    assert found(play(lambda w: alone(w, site, 3, [casualty]))) == []  # 1-3: a casualty
    assert only(play(lambda w: alone(w, site, 3, [to_friends])), "13.6")


def test_13_1_one_leader_of_each_nationality_on_the_map(play):
    """Turn 21: Montgomery arrives (13.7); O'Connor, on the map since the set-up, must go."""
    def script(w, swap):
        w.turn(21, "Allied Reinforcement-Withdrawal")
        for u in ("44d-131", "44d-132", "44d-133", "10a-8arm"):
            w.move(u, "6508")
        if swap:
            w.remove("oconnor")  # the swap: a withdrawal (13.7)
        w.move("montgomery", "6508")
        w.turn(21, "Allied Major Offensive")
        return len(w.steps)
    assert found(play(lambda w: script(w, True))) == []
    findings = play(lambda w: script(w, False))
    assert only(findings, "13.1") and "Montgomery" in findings[0].message


def test_5_0_rommel_assassination_makes_him_a_casualty(play):
    """Random event 34 with Rommel on the map (5.0): he turns to his secondary face and goes to
    the next turn's box (13.6) before the Random Events phase ends."""
    def script(w, obey):
        w.move("rommel", "1019")  # set-up
        w.turn(4, "Random Events")
        w.roll("Random Events d66", [3, 4], "Allied")
        if obey:
            w.flip("rommel")
            w.move("rommel", "Turn 5")
        w.turn(4, "Air/Naval Support")
        return len(w.steps)
    assert found(play(lambda w: script(w, True))) == []
    findings = play(lambda w: script(w, False))
    assert only(findings, "13.6") and "is a casualty" in findings[0].message
