"""Fortress status (16.1) and the Tobruk Reconstruction event (5.0): digest §10.1 ranks 22-23.

Tobruk (Axis, 61sir) is attacked by the 4th and 7th Armoured Brigades from a clear hex beside
it: two hits, 61sir loses a step and retreats one hex (or is eliminated by its menu command),
a brigade advances into Tobruk: the fortress changed hands because of combat and its status marker must
drop from Intact to Reduced before the combat phase ends.
"""
from __future__ import annotations

from tests.rules.test_wdf_combat import COMBAT, NEXT, dice, found, only, play, strength, supplied, wdf  # noqa: F401


ATTACKERS = ("7a-4arm", "7a-7arm")


def tobruk_attack(game, wdf, tmp_path):
    """(tobruk, attack hex, retreat hex, Allied dice, Axis dice)."""
    geo = game.geometry
    tobruk = next(p.hex for p in game.map.places if p.name == "Tobruk")
    open_side = [n for n in geo.neighbours(tobruk) if game.hex_terrain[n] == "clear"
                 and not game.hexside_features.get(tuple(sorted((n, tobruk))))]
    a, back = next((x, y) for x in open_side for y in open_side if geo.distance(x, y) == 2)  # opposite sides
    ok_a, ok_d = supplied(wdf, tmp_path, lambda w: [w.move(u, a) for u in ATTACKERS], (a, "allied"), (tobruk, "axis"))
    allied = strength(game, ATTACKERS, ok_a, mods=-3)  # no AP -2, armor attacking a fortress -1
    axis = strength(game, ("61sir",), ok_d, mods=1)  # +1 defending in a fortress
    return tobruk, a, back, allied, axis


def capture(w, tobruk, a, back, allied, axis, eliminate=False) -> None:
    for u in ATTACKERS:
        w.move(u, a)  # set-up
    w.turn(3, COMBAT)
    for u in ATTACKERS:
        w.declare(u, "Declare attacker")
    w.declare("61sir", "Declare target")
    w.roll("Allied 6 dice", dice(allied, sixes=2), "Allied")
    w.roll("Axis 5-6 dice", dice(axis), "Axis")
    if eliminate:
        w.send("61sir", "Eliminate")  # two hits, two steps: eliminated by its menu command (Ctrl+E)
    else:
        w.flip("61sir")  # two hits: a step (10.25) ...
        w.move("61sir", back)  # ... and a one-hex retreat
    w.move("7a-4arm", tobruk)  # the advance into the vacated fortress (10.27)


def test_16_1_tobruk_taken_in_combat_drops_one_level(play, wdf, tmp_path):
    game, _ = wdf
    t, a, back, allied, axis = tobruk_attack(game, wdf, tmp_path)

    def script(w, flip):
        capture(w, t, a, back, allied, axis)
        if flip:
            w.flip("fortress-tobruk")  # Intact -> Reduced
        w.turn(3, NEXT)
        return len(w.steps)
    assert found(play(lambda w: script(w, True))) == []
    findings = play(lambda w: script(w, False))
    assert only(findings, "16.1") and "changed hands because of combat" in findings[0].message


def test_16_1_with_the_defender_eliminated_by_its_menu_command(play, wdf, tmp_path):
    game, _ = wdf
    t, a, back, allied, axis = tobruk_attack(game, wdf, tmp_path)
    def script(w):
        capture(w, t, a, back, allied, axis, eliminate=True)
        w.flip("fortress-tobruk")
        w.turn(3, NEXT)
    assert found(play(script)) == []


def test_16_1_no_status_change_without_a_cause(play):
    def script(w):
        w.turn(3, "Allied Regular Movement")
        w.flip("fortress-tobruk")
        step = len(w.steps)
        w.turn(3, "Allied Regular Combat")
        return step
    assert only(play(script), "16.1")


def test_5_0_tobruk_reconstruction_raises_the_status(play):
    """With Tobruk reduced (set-up), event 22 lets its marker go back to Intact; without the
    event, the same flip is a status change with no cause."""
    def script(w, code):
        w.flip("fortress-tobruk")  # set-up: Reduced
        w.turn(2, "Random Events")
        w.roll("Random Events d66", code, "Allied")
        w.flip("fortress-tobruk")  # back to Intact
        step = len(w.steps)
        w.turn(2, "Air/Naval Support")
        return step
    assert found(play(lambda w: script(w, [2, 2]))) == []
    assert only(play(lambda w: script(w, [1, 4])), "16.1")  # 14: No Event
