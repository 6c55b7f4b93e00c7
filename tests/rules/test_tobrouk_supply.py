"""Supply markers of the Administrative phase (3.1b, 3.3, 3.6c, 3.7), Tobrouk 41-42: real-format
logs over the built module, Battleaxe set-up.  The XXX Corps HQ (0726) has the one range the text
gives (9 hexes between, 10.A), so its units are the ones a test puts out of range: the 11th
Hussars sent to 0512 are unsupplied; 4th Indian's units and 22nd Guards at 1030 stand where the
Alexandria road source begins (3.2b).  Turn 1 is not checked (11.1c)."""
from __future__ import annotations

import pytest

from tests.rules.test_tobrouk_rules import pair
from tests.rules.tobrouk_play import player, rules

FAR = "0512"  # 14 hexes from the XXX Corps HQ, far from every Commonwealth source


@pytest.fixture
def play(tobrouk_module, tmp_path):
    return player(tobrouk_module, tmp_path)


def admin(w, turn: int, *markers, each=()) -> None:
    """Play on to `turn`'s phase A, place `markers` ((marker, hex, side), or 'remove:piece'), end A;
    the earlier turns' phase A place `each`."""
    for t in range(1, turn):
        pair(w, 5, 5, turn=t)
        w.phase(t + 1, "A")
        w.move("mp-cw", "MP 0")
        w.move("mp-axis", "MP 0")
        if t + 1 < turn:
            for m in each:
                w.place(*m[:2], side=m[2])
    for m in markers:
        if isinstance(m, str):
            w.remove(m.split(":", 1)[1])
        else:
            w.place(m[0], m[1], side=m[2])
    w.phase(turn, "B")


def hussars_far(w) -> None:
    w.move("11huss-7ar", FAR)  # set-up adjustment


def test_3_7_a_cr_marker_on_unsupplied_units(play):
    def script(*markers):
        def s(w):
            hussars_far(w)
            w.move("11-4ind", "0724")  # a XIII Corps unit the XXX Corps HQ may supply (3.6c), not surely
            admin(w, 2, *markers)
        return s
    assert play(script(("cr", FAR, "Commonwealth"))) == []
    assert play(script()) == []  # a log without supply markers does not record supply
    found = play(script(("cr", "0724", "Commonwealth")))  # the side records supply, but not at 0512
    assert rules(found) == ["3.7"] and found[0].to_hex == FAR
    assert "Hussars" in found[0].message and "no CR marker placed (reconstructed map)" in found[0].message


def test_3_1_markers_come_in_phase_a(play):
    def in_maneuver(w):
        admin(w, 2)
        w.move("mp-cw", "MP 3")
        w.place("cr", "0726", side="Commonwealth")
    found = play(in_maneuver)
    assert rules(found) == ["3.1"] and "holds for the whole turn" in found[0].message


def test_3_7_no_cr_marker_on_supplied_units(play):
    found = play(lambda w: admin(w, 2, ("cr", "1030", "Commonwealth")))
    assert rules(found) == ["3.7"] and found[0].to_hex == "1030" and "are supplied" in found[0].message


def test_3_7_re_after_a_whole_turn_unsupplied(play):
    cr = [("cr", FAR, "Commonwealth")]

    def re_on_turn_3(w):
        hussars_far(w)
        admin(w, 3, ("re", FAR, "Commonwealth"), f"remove:cr@{FAR}", each=cr)
    assert play(re_on_turn_3) == []

    def cr_stays(w):
        hussars_far(w)
        admin(w, 3, each=cr)
    found = play(cr_stays)
    assert rules(found) == ["3.7"] and "an RE marker, not CR (3.7b)" in found[0].message

    def re_at_once(w):
        hussars_far(w)
        admin(w, 2, ("re", FAR, "Commonwealth"))
    found = play(re_at_once)
    assert rules(found) == ["3.7"] and "no unit there was unsupplied last turn" in found[0].message


def test_3_3_an_hq_out_of_range_of_its_sources(play):
    def hq_far(marker: bool):
        def s(w):
            w.move("hq-xxx", "1010")  # set-up adjustment: the XXX Corps HQ far from the east edge
            extra = [("cr", "1010", "Commonwealth")] if marker else []
            admin(w, 2, ("cr", "0726", "Commonwealth"), *extra)  # its Hussars go unsupplied too
        return s
    assert play(hq_far(True)) == []
    found = play(hq_far(False))
    assert rules(found) == ["3.3"] and found[0].piece.startswith("XXX Corps HQ") and "range of 9 hexes" in found[0].message


def test_3_6_an_hq_supplies_two_cu_of_another_corps(play):
    def foreign(n: int):
        def s(w):
            # XIII Corps units (their HQ is not in Battleaxe) near the XXX Corps HQ, away from the sources
            for unit, to in [("11-4ind", "0724"), ("recce-4ind", "0725"), ("5-4ind", "0625")][:n]:
                w.move(unit, to)
            w.move("7-4ind", "1010")  # out of every range: marked CR
            admin(w, 2, ("cr", "1010", "Commonwealth"))
        return s
    assert play(foreign(2)) == []
    found = play(foreign(3))
    assert rules(found) == ["3.6"] and "beyond the 2 CU a corps HQ" in found[0].message
