"""Slouch Hats and Eggshells 10.51: with a German AA unit defending against armor, the first Allied
loss is an armor step (legal and illegal case)."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def attack_on_the_flak(w, lose: str, die: int = 1):
    """I/Flak 6 in 2626; 1 CCC (armor) and 1/1 attack it from 2627; the Allied loss from `lose`."""
    w.move("flak-1", "2626")
    w.move("1-1ff", "2627")
    w.phase(1, "1st Allied Transport")
    w.phase(1, "1st Allied Combat")
    w.combat(["chars-ff", "1-1ff"], "flak-1", die, side="Allied", supply=("chars-ff", "1-1ff"))
    if lose == "chars-ff":
        w.send("chars-ff", "To Cadre Box")
    else:
        w.flip(lose)
    w.phase(1, "1st Allied Exploitation Movement")


def test_10_51_the_first_allied_loss_against_german_aa_is_armor(slouch_module, tmp_path):
    game, vmod = slouch_module
    legal = audit(game, vmod, lambda w: attack_on_the_flak(w, "chars-ff"), tmp_path / "a.vlog", "axis-intervene.vsav")
    assert legal == [], [(f.rule, f.message) for f in legal]
    found = audit(game, vmod, lambda w: attack_on_the_flak(w, "1-1ff"), tmp_path / "b.vlog", "axis-intervene.vsav")
    assert rules(found) == ["10.51"] and "Chars de Combat" in found[0].message


def test_10_51_does_not_apply_without_german_aa(slouch_module, tmp_path):
    """The same loss against a Vichy unit: no first-loss rule."""
    def script(w):
        w.move("6rca", "2626")
        w.move("1-1ff", "2627")
        w.phase(1, "1st Allied Transport")
        w.phase(1, "1st Allied Combat")
        w.combat(["chars-ff", "1-1ff"], "6rca", 1, side="Allied", supply=("chars-ff", "1-1ff"))
        w.flip("1-1ff")
        w.phase(1, "1st Allied Exploitation Movement")
    game, vmod = slouch_module
    assert "10.51" not in rules(audit(game, vmod, script, tmp_path / "c.vlog", "axis-intervene.vsav"))
