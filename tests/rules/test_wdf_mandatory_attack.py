"""The duty to attack (10.1, 7.92; digest §10.1 rank 18) on the combat tests' battlefield: the
7th Armoured Division's brigades in `a` attack 63cir and 64cat in `d`; 62mar stands in
`sideways`, next to both.  Once they attack, 62mar's hex must be attacked too.
"""
from __future__ import annotations

from tests.rules.test_wdf_combat import (ARMOURED, COMBAT, Battle, armoured_cs, dice, found, only, play,  # noqa: F401
                                         site, strength, wdf)

DEFENDERS = ("63cir", "64cat")


def side_unit(w, site) -> None:
    w.move("62mar", site.sideways)  # set-up


def test_10_1_every_enemy_hex_next_to_an_attacker_is_attacked(play, wdf, site):
    """One combat against both hexes (every attacker is next to every defender): legal."""
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup(then=lambda w: side_unit(w, site))
        b.declare(targets=("63cir", "62mar"))
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, DEFENDERS + ("62mar",), site.axis)))
        return b.close()
    assert found(play(script)) == []


def test_10_1_an_enemy_hex_left_unattacked(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup(then=lambda w: side_unit(w, site))
        b.declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, DEFENDERS, site.axis)))
        return b.close()
    findings = play(script)
    assert only(findings, "10.1") and site.sideways in findings[0].message and findings[0].to_hex == site.sideways


def test_10_1_a_stack_dragged_in_owes_the_same(play, wdf, site):
    """The brigades dragged as one stack into `a` in the Regular Movement Phase, then attacking."""
    game, _ = wdf

    def script(w, both):
        for u in ARMOURED:
            w.move(u, site.a_back[0])  # set-up: one hex back
        for u in DEFENDERS:
            w.move(u, site.d)
        side_unit(w, site)
        w.turn(3, "Allied Regular Movement")
        w.move(ARMOURED[0], site.a, stack=True)
        w.turn(3, COMBAT)
        b = Battle(w, site)
        b.declare(targets=("63cir", "62mar") if both else ("63cir",))
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, DEFENDERS + (("62mar",) if both else ()), site.axis)))
        return b.close()
    assert found(play(lambda w: script(w, True))) == []
    assert only(play(lambda w: script(w, False)), "10.1")


def test_10_1_a_hex_emptied_in_the_phase_is_owed_no_more(play, wdf, site):
    """62mar eliminated by its menu command (Ctrl+E) before the phase ends: its hex holds no
    enemy unit when the duty is judged."""
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup(then=lambda w: side_unit(w, site))
        b.declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, DEFENDERS, site.axis)))
        w.send("62mar", "Eliminate")
        return b.close()
    assert [f.rule for f in play(script) if f.rule == "10.1"] == []


def test_7_92_a_surprise_offensive_owes_nothing(play, wdf, site):
    """With surprise rolled in the Major Offensive segment, the attacker picks his hexes."""
    game, _ = wdf

    def script(w, die):
        for u in ARMOURED:
            w.move(u, site.a)
        for u in DEFENDERS:
            w.move(u, site.d)
        side_unit(w, site)
        w.turn(3, "Allied Major Offensive")
        w.flip("ap-allied")  # the Major Offensive face (7.9)
        w.move("ap-allied", "Points 2")  # zone A, row A: 2 AP (4 - 2)
        w.roll("Allied Surprise die", [die], "Allied")
        w.turn(3, COMBAT)
        b = Battle(w, site)
        for u in ARMOURED:
            w.declare(u, "Declare attacker")
        w.declare("63cir", "Declare target")
        w.move("ap-allied", "Points 1")
        b.roll("Allied", "5-6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "5-6 dice", dice(strength(game, DEFENDERS, site.axis)))
        return b.close()
    assert [f.rule for f in play(lambda w: script(w, 1))] == []
    assert [f.rule for f in play(lambda w: script(w, 6))] == ["10.1"]
