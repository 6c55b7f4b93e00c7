"""The Air/Naval Support Phase (6.1, 6.2; part of digest §10.1 rank 20) on Turn 2 of the campaign.

Depots: Allied 5110 (zone A, +1), Axis 4009 (zone D, 0).  The reconstructed table's Turn 2-3
row: Allied modified 5 scores 4, 6 scores 5; Axis 3 scores 1, 6 scores 3; Allied 2 scores 2.
The game starts with 4 Allied ASPs and Naval Support (3.1).
"""
from __future__ import annotations

from tests.rules import test_wdf_movement as mv

wdf, play = mv.wdf, mv.play


def rules(found) -> list[str]:
    return [f.rule for f in found]


def air(w, allied: int, axis: int, acts) -> None:
    w.turn(2, "Air/Naval Support")
    w.roll("Allied Air Superiority die", [allied], "Allied")
    w.roll("Axis Air Superiority die", [axis], "Axis")
    for act in acts:
        act(w)
    w.turn(2, "Allied Depot Removal")


def asp(box, flip=False):
    def act(w):
        if flip:
            w.flip("asp")
        w.move("asp", box)
    return act


def no_naval(w):
    w.move("naval-support", "Markers")


def test_6_1_the_higher_score_receives_the_difference(play):
    assert play(lambda w: air(w, 4, 3, [asp("Points 3"), no_naval])) == []  # Allied 4 - Axis 1
    found = play(lambda w: air(w, 4, 3, [no_naval]))  # the marker left at 4
    assert rules(found) == ["6.1"] and "3 Allied ASPs" in found[0].message


def test_6_1_the_axis_side_of_the_marker(play):
    assert play(lambda w: air(w, 1, 6, [asp("Points 1", flip=True), no_naval])) == []  # Axis 3 - Allied 2
    assert rules(play(lambda w: air(w, 1, 6, [asp("Points 1"), no_naval]))) == ["6.1"]  # still Allied


def test_6_2_naval_support_on_an_allied_6_with_the_asps(play):
    assert play(lambda w: air(w, 6, 1, [asp("Points 5")])) == []  # Allied 5 - Axis 0; the marker stays
    found = play(lambda w: air(w, 6, 1, [asp("Points 5"), no_naval]))
    assert rules(found) == ["6.2"] and "rolled a 6" in found[0].message
    found = play(lambda w: air(w, 4, 3, [asp("Points 3")]))  # no 6: the marker must go
    assert rules(found) == ["6.2"]
