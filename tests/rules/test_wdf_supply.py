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


def _untyped(a, side: str):
    """The supply legs as the kernel's SupplyNet sees them: path types not followed (for contrast)."""
    from validators.kernel.supply import Leg, SupplyNet
    data = a.supply_table
    legs = [Leg(leg["feature"], leg.get("max_hexes")) for leg in data["legs"]]
    return SupplyNet(a.game.geometry.neighbours, a.chart.features, (data["sources"][side],),
                     a.blocked_for_supply(side), legs, a.chart.cost(data["overland"]["movement_class"]))


def test_8_3_example_3_road_track_road_is_no_supply_path(after, wdf):
    """8.3 Ex 3: with Axis Tobruk's ZOC on road hexes 3309 and 3409, an Allied unit on the Via
    Balbia west of Tobruk (1709) is unsupplied: the road to the tracks, the tracks past Tobruk,
    then the road again would return to a path type already used (8.1).  West of Mechili the
    road meets the Derna track within 4 MP and the tracks lead on to the road at 3609 within
    10 hexes: only the path types forbid it, and the auditor must see that."""
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")
    a = after(lambda w: axis_off(w, keep=("61sir",)))  # 61sir holds Tobruk in the set-up
    assert a.controller(tobruk) == "axis" and {"3309", "3409"} <= a.ezoc("allied")
    assert a.supply_status("1709", "allied") is None  # the example's own hex
    road_track_road = [h for h in ("2306", "2406", "2507", "2606") if _untyped(a, "allied").traces(h, 4)]
    assert road_track_road, "a road hex whose only supply path is road-track-road"
    for h in road_track_road:
        assert a.supply_status(h, "allied") is None, h
    assert a.supply_status("1908", "allied") == "main"  # Barce: track, track, road (one track run)
    assert a.supply_status("2710", "allied") == "main"  # Mechili: 10 track hexes to the road at 3609


def test_8_3_example_3_attrition_of_a_unit_on_the_road_west_of_tobruk(play, wdf):
    """The audit agrees in the Attrition Phase: the unit on the road west of Tobruk loses its step."""
    def script(w, flip):
        axis_off(w, keep=("61sir",))
        to_reserve(w, keep=["4ind-5"])
        w.move("4ind-5", "2406")
        w.turn(1, "Allied Attrition")
        if flip:
            w.flip("4ind-5")
        w.turn(1, "Axis Depot Removal")
    assert play(lambda w: script(w, True)) == []
    found = play(lambda w: script(w, False))
    assert [(f.rule, f.piece) for f in found] == [("8.3", found[0].piece)] and "unsupplied in 2406" in found[0].message


def test_8_3_a_unit_eliminated_by_attrition_goes_to_the_box_its_path_to_the_source_gives(play, wdf):
    """8.3: the unsupplied unit on the road west of Tobruk, reduced already, is eliminated by
    attrition; a path of any length (round Tobruk's ZOC, through the desert) still joins 2406 to
    Alexandria, so it goes to the Recoverable Eliminated box, not the Permanent one."""
    def script(w, box):
        axis_off(w, keep=("61sir",))
        to_reserve(w, keep=["4ind-5"])
        w.move("4ind-5", "2406")
        w.flip("4ind-5")  # reduced in the set-up
        w.turn(1, "Allied Attrition")
        w.move("4ind-5", box)
        w.turn(1, "Axis Depot Removal")
    assert play(lambda w: script(w, "Allied Recoverable Eliminated")) == []
    found = play(lambda w: script(w, "Allied Permanent Eliminated"))
    assert [f.rule for f in found] == ["8.3"] and "it has a path to its source" in found[0].message
    assert "goes to the Allied Recoverable Eliminated box, not Allied Permanent Eliminated" in found[0].message


def test_8_4_tobruk_supplies_its_holder(after, wdf):
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")

    def script(w):
        axis_off(w)
        to_reserve(w)
        w.move("64cat", "6508")  # Alexandria taken: only Tobruk is left
        w.move("4ind-5", tobruk)
    a = after(script)
    assert a.controller(tobruk) == "allied" and a.supply_status(tobruk, "allied") == "limited"
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
