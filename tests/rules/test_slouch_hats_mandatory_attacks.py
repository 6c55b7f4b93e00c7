"""Slouch Hats and Eggshells 10.15: an enemy unit whose ZOC reaches an attacker's hex must be
attacked in the same Combat phase (legal and illegal case)."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def attack_from_1525(w, *, also: bool):
    """21/7A and 6 Cav in 1525 attack I/24 RMIC in 1524; I/22 RTA in 1625 reaches 1525 with its ZOC;
    with `also` 2/3 MG attacks it from 1725."""
    w.phase(1, "1st Allied Movement")
    w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
    w.phase(1, "1st Allied Combat")
    w.combat(["21-7a", "6cav-a"], "i-24rmic", 4, side="Allied", support=("2-4fd-a",), supply=("21-7a", "6cav-a"))
    w.send("i-24rmic", "To Cadre Box")
    if also:
        w.combat(["2-3mg-a"], "i-22rta", 2, side="Allied", supply=("2-3mg-a", "i-22rta"))
        w.send("2-3mg-a", "To Cadre Box")
    w.phase(1, "1st Allied Exploitation Movement")


def test_10_15_every_enemy_zoc_on_an_attacker_is_attacked(slouch_module, tmp_path):
    assert audit(*slouch_module, lambda w: attack_from_1525(w, also=True), tmp_path / "a.vlog") == []
    found = audit(*slouch_module, lambda w: attack_from_1525(w, also=False), tmp_path / "b.vlog")
    assert rules(found) == ["10.15"] and "1625" in found[0].message and found[0].side == "Allied"
    assert "(reconstructed table)" in found[0].message


def test_10_15_a_unit_may_stay_in_an_enemy_zoc_without_attacking(slouch_module, tmp_path):
    """No attack from 1525: I/22 RTA need not be attacked (10.15, last sentence)."""
    def script(w):
        w.phase(1, "1st Allied Movement")
        w.move_units(["21-7a", "6cav-a", "2-4fd-a"], "1525")
        w.phase(1, "1st Allied Combat")
        w.phase(1, "1st Allied Exploitation Movement")
    assert audit(*slouch_module, script, tmp_path / "a.vlog") == []
