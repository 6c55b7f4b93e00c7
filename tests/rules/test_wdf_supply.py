"""Supply paths (8.1, 8.4) on the Western Desert Force map: the rulebook's own examples (8.3
Ex 1-3), leader ranges (13.5) and Tobruk as a limited source, read from the auditor after a
short log of set-up moves; and the attrition count when Tobruk supplies too many (8.3, 8.4)."""
from __future__ import annotations

import pytest

from builder.geometry.hexmap import hexside_key
from tests.rules import test_wdf_movement as mv
from tests.rules.test_wdf_movement import ALLIED_UNITS, run_log, to_reserve

wdf, play, desert = mv.wdf, mv.play, mv.desert  # the movement tests' fixtures: module, log runner, open ground

AXIS_UNITS = ["4ccnn", "1lib", "2lib", "maletti", "64cat", "63cir", "62mar", "1ccnn", "2ccnn", "61sir", "60sab",
              "babini"]


def axis_off(w, keep=()) -> None:
    for u in AXIS_UNITS:
        if u not in keep:
            w.move(u, "Axis Recoverable Eliminated")


@pytest.fixture
def after(wdf, tmp_path):
    """The auditor after the set-up moves of a script."""
    return lambda script: run_log(wdf, script, tmp_path / "game.vlog", auditor=True)


def test_8_3_example_1_overland_then_track_then_road(after):
    """3617: 3 MP to track hex 3819, 10 track hexes to road hex 4110, the road to Alexandria."""
    a = after(lambda w: axis_off(w))
    assert a.supply_status("3617", "allied") == "main"


def test_8_3_example_2_a_leader_lends_his_supply_range(after):
    """3117 is more than 4 MP from any track, road or source; Rommel's range is 6 MP."""
    def script(w):
        axis_off(w)
        w.move("60sab", "3117")
    assert after(script).supply_status("3117", "axis") is None

    def with_rommel(w):
        script(w)
        w.move("rommel", "3117")
    a = after(with_rommel)
    assert a.supply_range("3117", "axis") == 6 and a.supply_status("3117", "axis") == "main"


def test_8_3_example_3_axis_tobruk_bars_the_road_but_not_the_tracks(after, wdf):
    """Axis Tobruk's ZOC reaches road hexes 3309 and 3409; Barce (1908) still traces 8 track
    hexes (its 4 MP) to 2710, 10 track hexes to the road at 3609, then the road east."""
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")

    def script(w):
        axis_off(w)
        w.move("61sir", tobruk)
    a = after(script)
    assert {"3309", "3409"} <= a.ezoc("allied")
    assert a.supply_status("1908", "allied") == "main"


def test_8_4_tobruk_supplies_its_holder(after, wdf):
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")

    def script(w):
        axis_off(w)
        to_reserve(w)
        w.move("64cat", "6508")  # Alexandria taken: only Tobruk is left
        w.move("4ind-5", tobruk)
    a = after(script)
    assert a.tobruk_controller == "allied" and a.supply_status(tobruk, "allied") == "limited"
    assert a.limited_capacity("allied") == 6 and a.limited_capacity("axis") == 0


def test_8_4_tobruk_supplies_six_allied_units_at_most(play, wdf):
    game = wdf[0]
    tobruk = next(p.hex for p in game.map.places if p.name == "Tobruk")
    land = [n for n in game.geometry.neighbours(tobruk) if game.hex_terrain[n] == "clear"
            and "escarpment" not in game.hexside_features.get(hexside_key(tobruk, n), frozenset())]
    inside, beside = ALLIED_UNITS[:4], ALLIED_UNITS[4:7]  # 7 units that only Tobruk can supply

    def script(w, steps_lost):
        axis_off(w)
        to_reserve(w, keep=inside + beside)
        w.move("64cat", "6508")
        for u in inside:
            w.move(u, tobruk)
        for u in beside:
            w.move(u, land[0])
        w.turn(1, "Allied Attrition")
        for u in beside[:steps_lost]:
            w.flip(u)
        w.turn(1, "Axis Depot Removal")
    assert play(lambda w: script(w, 1)) == []
    found = play(lambda w: script(w, 0))
    assert [f.rule for f in found] == ["8.3"] and "exactly 1" in found[0].message and "0 did" in found[0].message


def test_stacking_points_and_ezoc_for_the_other_rules(after, desert):
    def script(w):
        w.move("64cat", desert())
        w.move("63cir", desert())
        w.move("21pz-3rec", desert(0, 3))  # a battalion: no ZOC
    a = after(script)
    assert a.stacking_points(desert(), "axis") == 4 and a.stacking_points(desert(), "Axis") == 4
    assert set(a.game.geometry.neighbours(desert())) <= a.ezoc("allied")
    assert not set(a.game.geometry.neighbours(desert(0, 3))) & a.ezoc("allied")
