"""Desert Fox Deluxe victory at the end of play (24.3, 25.3): reported as an event at the Victory Check
Phase of the card's last GT."""
from __future__ import annotations

import pytest

from tests.rules.desert_fox_play import audit, dfd_module  # noqa: F401 (the fixture)


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", events=True, **kw)


def _to_the_end(w, first: int, last: int) -> None:
    w.phase(first, "VI")
    for gt in range(first + 1, last):
        w.phase(gt, "XX")
    w.phase(last, "XIX")
    w.phase(last, "XX")


def _victory(found):
    return [f for f in found if f.rule == "24.3"]


def test_24_3_the_axis_holding_tobruk_with_an_loc_to_el_agheila_wins(play):
    found = _victory(play(lambda w: _to_the_end(w, 4, 9)))
    assert len(found) == 1 and "the Axis wins" in found[0].message and found[0].kind == "event"


def test_24_3_an_allied_unit_last_in_tobruk_makes_it_a_draw(play):
    def script(w):
        w.move("22-bde", "C2331")  # set-up position for the test: the Allies entered Tobruk last
        _to_the_end(w, 4, 9)
    found = _victory(play(script))
    assert len(found) == 1 and "a draw" in found[0].message


def test_24_3_the_axis_cut_off_from_el_agheila_does_not_win(play):
    def script(w):
        for u, h in (("22-bde", "C2330"), ("wdf-bde", "C2332"), ("4-lt-arm", "C2431"), ("7-sg", "C2432"),
                     ("11-huss", "C2231"), ("7-rtr", "C2232")):
            w.move(u, h)  # set-up positions for the test: every land hex around Tobruk C2331 held by the Allies
        _to_the_end(w, 4, 9)
    found = _victory(play(script))
    assert len(found) == 1 and "a draw" in found[0].message


def test_24_3_no_verdict_before_the_last_gt(play):
    def script(w):
        w.phase(4, "VI")
        w.phase(5, "XIX")
        w.phase(5, "XX")
    assert _victory(play(script)) == []


def test_25_3_the_side_controlling_tripoli_wins(play):
    found = _victory(play(lambda w: _to_the_end(w, 4, 11), setup="oconnors-war.vsav"))
    assert len(found) == 1 and "Axis player controls Tripoli" in found[0].message
