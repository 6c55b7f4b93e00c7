"""Air bombardment limits (14.2; part of digest §10.1 rank 20) on the combat tests' battlefield:
63cir and 64cat in `d`, within 5 hexes of the Allied depot; the Allies hold 4 ASPs (3.1)."""
from __future__ import annotations

from tests.rules.test_wdf_combat import NEXT, Battle, found, only, play, site, wdf  # noqa: F401


def bombard(w, target: str, dice: list[int]) -> None:
    w.declare(target, "Declare target")
    w.roll("Allied bombardment dice", dice, "Allied")


def test_14_2_at_least_two_asps(play, site):
    def script(w, dice):
        Battle(w, site).setup(attackers=())
        w.move("asp", f"Points {4 - len(dice)}")
        bombard(w, "63cir", dice)
        w.flip("63cir")
        w.turn(3, NEXT)
        return len(w.steps)
    assert found(play(lambda w: script(w, [6, 6]))) == []  # 2 ASPs, one hit
    findings = play(lambda w: script(w, [6]))  # one ASP: no bombardment (and no hit from one 6)
    assert [f.rule for f in findings] == ["14.2", "10.21"] and "at least 2 ASPs" in findings[0].message


def test_14_2_a_unit_is_bombarded_once_a_phase(play, site):
    def script(w, twice):
        Battle(w, site).setup(attackers=())
        w.move("asp", "Points 2")
        bombard(w, "63cir", [1, 1])
        if twice:
            w.move("asp", "Points 0")
            bombard(w, "63cir", [1, 1])
        w.turn(3, NEXT)
        return len(w.steps)
    assert found(play(lambda w: script(w, False))) == []
    findings = play(lambda w: script(w, True))
    assert only(findings, "14.2") and "at most once a combat phase" in findings[0].message


def test_14_2_within_5_hexes_of_a_friendly_unit_or_the_depot(play, wdf, site):
    game, _ = wdf
    tobruk = next(p.hex for p in game.map.places if p.name == "Tobruk")

    def script(w):
        Battle(w, site).setup(attackers=())
        w.move("asp", "Points 2")
        bombard(w, "61sir", [1, 1])  # Tobruk: far from every Allied unit and the depot
        w.turn(3, NEXT)
        return len(w.steps)
    findings = play(script)
    assert only(findings, "14.2") and f"{tobruk} is" in findings[0].message


def test_15_0_naval_bombardment(play, wdf):
    """Turn 1, Naval Support (3.1): the naval bombardment of 64cat on the coast road at 4409; the
    same inland, twice in the turn, or without Naval Support, is refused."""
    game, _ = wdf
    coastal = "4409"
    assert any(game.hex_terrain[n] == "sea" for n in game.geometry.neighbours(coastal))

    def script(w, naval=True, twice=False, target="64cat"):
        if not naval:
            w.move("naval-support", "Markers")  # set-up
        w.turn(1, "Allied Regular Combat")
        w.declare(target, "Declare target")
        w.roll("Allied naval bombardment dice", [6, 1], "Allied")  # a hit on each 6
        w.flip(target)
        if twice:
            w.declare("4ccnn", "Declare target")
            w.roll("Allied naval bombardment dice", [1, 1], "Allied")
        w.turn(1, "Allied Exploitation Movement")
    assert found(play(lambda w: script(w))) == []
    findings = play(lambda w: script(w, twice=True))
    assert [f.rule for f in findings] == ["15.0"] and "already made" in findings[0].message
    findings = play(lambda w: script(w, naval=False))
    assert [f.rule for f in findings] == ["15.0"] and "no Naval Support" in findings[0].message
    inland = next(u.hex for u in game.scenarios["campaign"].units if u.unit == "63cir")  # the Sofafi camps
    findings = play(lambda w: script(w, target="63cir"))
    assert [f.rule for f in findings] == ["15.0"] and f"{inland} is not a coastal hex" in findings[0].message
