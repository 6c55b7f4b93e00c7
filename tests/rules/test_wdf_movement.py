"""Per-rule scenarios for Western Desert Force movement, ZOC, stacking, attrition and phase
eligibility (digest §10.1 ranks 1-5 and 14): real-format logs written over the built module
and audited as a player's log would be.

Positions are set up by moves before the turn tracker starts (set-up adjustments, not
movement).  Places come from the map data, not from fixed hex ids where terrain matters:
`site` is open clear ground far from every road, track, place and set-up unit, so that a
unit there is out of supply (more than 4 MP from any road, track or source, 8.1) and moves
at half its MA (8.2).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.geometry.hexmap import hexside_key
from validators.audit import audit_file
from validators.replay.writer import LogWriter
from tests.rules.wdf_probe import audited

SLUG = "western-desert-force"
PLAYERS = {"Allied": ("allied-user", "Al"), "Axis": ("axis-user", "Ax")}


@pytest.fixture(scope="module")
def wdf(wdf_module):
    """(game, path of the built module)."""
    return wdf_module


def run_log(wdf, script, path: Path, auditor: bool = False):
    """Write a log from a script, audit it: the violations, or the auditor after the replay."""
    game, vmod = wdf
    w = LogWriter(vmod, players=PLAYERS)
    script(w)
    w.write(path)
    if auditor:
        return audited(game, path)
    return [f for f in audit_file(game, path).findings if f.kind == "violation"]


@pytest.fixture
def play(wdf, tmp_path):
    return lambda script, auditor=False: run_log(wdf, script, tmp_path / "game.vlog", auditor)


def rules(findings) -> list[tuple[str, int]]:
    return [(f.rule, f.step) for f in findings]


def ball(game, centre: str, radius: int) -> set[str]:
    out, front = {centre}, {centre}
    for _ in range(radius):
        front = {n for h in front for n in game.geometry.neighbours(h)} - out
        out |= front
    return out


def open_ground(game, centre: str) -> bool:
    """Clear hexes within 3 of the centre, and no road, track, escarpment... between them."""
    geo, b = game.geometry, ball(game, centre, 3)
    if len(b) != 37 or any(game.hex_terrain[h] != "clear" for h in b):
        return False
    return not any(game.hexside_features.get(hexside_key(a, n)) for a in b for n in geo.neighbours(a) if n in b)


def offsets(game, centre: str):
    """(dq, dr) axial offsets from the centre -> hex ids."""
    axial = {game.geometry._axial(h): h for h in game.geometry.labels}
    q, r = game.geometry._axial(centre)
    return lambda dq=0, dr=0: axial[(q + dq, r + dr)]


def set_up_hexes(game) -> list[str]:
    return [u.hex for u in game.scenarios["campaign"].units if u.hex]


@pytest.fixture(scope="module")
def desert(wdf):
    """Open ground out of supply: 8 hexes or more from any road, track or named place (and so more
    than 4 MP from any supply leg, 8.1) and from the set-up units."""
    game, _ = wdf
    geo = game.geometry
    lines = {h for f in ("road", "track") for p in game.map_terrain.hexside_paths.get(f, []) for h in p.hexes}
    lines |= {p.hex for p in game.map.places}
    units = set_up_hexes(game)
    centre = min((c for c in geo.labels if open_ground(game, c) and min(geo.distance(c, x) for x in lines) >= 8
                  and min(geo.distance(c, u) for u in units) >= 8), key=lambda c: (geo.distance(c, "6508"), c))
    return offsets(game, centre)


# A wall of three Allied brigades: E1 at the centre, E2 and E3 two hexes away on either side; the
# hexes at (2, 0) and (-2, 1) lie outside their ZOCs, 4 hexes apart, and the only way between them
# within 4 hexes is (1, 0)-(0, 1)-(-1, 1), each hex in an enemy ZOC.
WALL = {"4ind-5": (0, 0), "4ind-11": (0, 2), "70d-16": (0, -2)}
EAST, WEST, WAY = (2, 0), (-2, 1), [(1, 0), (0, 1), (-1, 1)]


def wall(w, site) -> None:
    for unit, off in WALL.items():
        w.move(unit, site(*off))


@pytest.fixture(scope="module")
def front(wdf, tmp_path_factory):
    """(site, start, way, end): open ground where an Axis unit at `start` is supplied with the
    Allied wall in place (checked by a replay), `way` the three ZOC hexes to `end`."""
    game, _ = wdf
    geo = game.geometry
    units = set_up_hexes(game)
    log = tmp_path_factory.mktemp("front") / "probe.vlog"
    plain = run_log(wdf, lambda w: None, log, auditor=True)  # supply without the wall, to sort out candidates
    for centre in sorted(c for c in geo.labels if open_ground(game, c) and min(geo.distance(c, u) for u in units) >= 4):
        site = offsets(game, centre)
        for start, way, end in ((EAST, WAY, WEST), (WEST, WAY[::-1], EAST)):
            if not (plain.supplied(site(*start), "axis") and plain.supplied(site(*end), "axis")):
                continue
            def probe(w, site=site, start=start):
                wall(w, site)
                w.move("164lt-125", site(*start))
            a = run_log(wdf, probe, log, auditor=True)
            if a.supplied(site(*start), "axis") and a.supplied(site(*end), "axis"):
                return site, start, way, end
    pytest.fail("no open ground where the Axis is in supply")


# -- rank 1: movement cost (9.0, 9.1, 8.2, 9.6, 11.1) ---------------------------------------------
def road_from(game, start: str, steps: int) -> list[str]:
    """The hexes of the road through `start`, `steps` road hexsides long, starting there."""
    for path in game.map_terrain.hexside_paths["road"]:
        if start in path.hexes:
            hexes = path.hexes if path.hexes[0] == start else path.hexes[::-1]
            assert len(hexes) > steps, "the road from Alexandria is long enough"
            return hexes[: steps + 1]
    raise AssertionError(f"no road through {start}")


def test_9_1_twelve_road_hexes_cost_exactly_4_mp(play, wdf):
    road = road_from(wdf[0], "6508", 12)

    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", road[-1])  # 12 x 1/3 MP = 4 MP: a normal move
    a = play(script, auditor=True)
    assert a.findings == [] and a.strategic_movers == set()


def test_9_4_thirteen_road_hexes_are_a_strategic_move(play, wdf):
    road = road_from(wdf[0], "6508", 13)

    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", road[-1])  # 4 1/3 MP > MA 4: only a Strategic Movement fits
    a = play(script, auditor=True)
    assert a.findings == [] and len(a.strategic_movers) == 1


def test_9_1_cost_beyond_the_movement_allowance(play, desert):
    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-17", desert())  # off the road, 8 hexes or more from any road
    found = play(script)
    assert rules(found) == [("9.1", 2)]
    assert "> allowance 4 (MA 4)" in found[0].message and found[0].message.endswith("(reconstructed table)")


def test_8_2_an_unsupplied_unit_moves_half_its_ma(play, desert):
    def script(w):
        w.move("4ind-5", desert(-3, 0))
        w.move("4ind-11", desert(-3, 1))
        w.turn(1, "Allied Regular Movement")
        w.move("4ind-5", desert(-1, 0))  # 2 MP = ceil(4 / 2)
        w.move("4ind-11", desert(0, 1))  # 3 MP
    found = play(script)
    assert rules(found) == [("8.2", 5)]
    assert "cost 3 MP" in found[0].message
    assert "> allowance 2 (MA 4; unsupplied: halved, rounded up: 2)" in found[0].message


def test_9_6_supply_level_penalty_comes_before_the_halving(play, desert):
    def script(w):
        w.move("supply-level", "Supply Bad")
        w.move("babini", desert(-3, 0))  # Italian armour, MA 6
        w.move("maletti", desert(-3, 1))  # Italian motorized, MA 6
        w.turn(1, "Axis Regular Movement")
        w.move("babini", desert(-1, 0))  # 2 MP = ceil((6 - 2) / 2)
        w.move("maletti", desert(0, 1))  # 3 MP > 2
    found = play(script)
    assert rules(found) == [("8.2", 6)]
    assert "MA 6; Supply Bad -2: 4; unsupplied: halved, rounded up: 2" in found[0].message


def test_9_6_poor_supply_level_cuts_the_ma(play, desert):
    def script(w):
        w.move("supply-level", "Supply Poor")
        w.move("babini", desert(3, 0))
        w.turn(1, "Axis Regular Movement")
        w.move("babini", desert(-3, 0))  # 6 MP: within MA 6, beyond 6 - 1
    found = play(script)
    assert rules(found) == [("9.6", 4)] and "Supply Poor -1: 5" in found[0].message


def test_9_0_a_unit_may_always_move_one_hex(play, wdf):
    game = wdf[0]
    geo = game.geometry
    dear = sorted(h for h, t in game.hex_terrain.items() if t in ("mountain", "salt-marsh"))  # 3 MP for armour
    pairs = [(n, m) for m in dear for n in geo.neighbours(m) if game.hex_terrain[n] in ("clear", "rough")
             and not game.hexside_features.get(hexside_key(n, m), frozenset()) - {"ridge", "river"}]
    assert pairs, "an open hex beside a mountain or salt marsh hex"
    start, peak = pairs[0]

    def script(w):
        w.move("supply-level", "Supply Bad")
        w.move("babini", start)
        w.turn(1, "Axis Exploitation Movement")
        w.move("babini", peak)  # 3 MP for armour > ceil((6 - 2) / 2), but one hex
    assert play(script) == []


def test_11_1_qattara_is_open_only_to_recon(play, wdf):
    game = wdf[0]
    geo = game.geometry
    edge = sorted((n, q) for q, t in game.hex_terrain.items() if t == "qattara" for n in geo.neighbours(q)
                  if game.hex_terrain[n] == "clear" and not game.hexside_features.get(hexside_key(n, q)))
    start, low = edge[0]

    def script(w):
        w.move("11h", start)
        w.move("7a-7sg", start)
        w.turn(1, "Allied Regular Movement")
        w.move("11h", low)  # recon: 2 MP
        w.move("7a-7sg", low)  # motorized: prohibited
    assert rules(play(script)) == [("11.1", 5)]


# -- rank 2: zones of control (9.3, 9.31) --------------------------------------------------------------
def test_9_31_a_unit_stops_on_entering_an_enemy_zoc(play, front):
    site, start, _, end = front

    def script(w):
        wall(w, site)
        w.move("164lt-125", site(*start))  # German infantry, MA 4
        w.turn(1, "Axis Regular Movement")
        w.move("164lt-125", site(*end))  # 4 hexes, but it must stop in the first enemy ZOC hex
    found = play(script)
    assert rules(found) == [("9.31", 6)]


def test_9_31_no_move_from_one_enemy_zoc_hex_into_another(play, front):
    site, _start, way, _end = front

    def script(w):
        wall(w, site)
        w.move("1lib", site(*way[0]))
        w.move("2lib", site(*way[0]))
        w.move("60sab", site(*way[2]))
        w.turn(1, "Axis Regular Movement")
        w.move("1lib", site(*way[1]))  # enemy ZOC to enemy ZOC
        w.move("2lib", site(*way[1]))  # now that hex holds a friendly unit: negated
        w.move("60sab", site(*way[1]))  # idem
    assert rules(play(script)) == [("9.31", 8)]


def test_9_31_german_motorized_go_through_enemy_zocs_italian_do_not(play, front):
    site, start, _way, end = front

    def script(w):
        wall(w, site)
        w.move("21pz-104", site(*start))  # German motorized, MA 7
        w.move("maletti", site(*start))  # Italian motorized, MA 6
        w.turn(1, "Axis Regular Movement")
        w.move("21pz-104", site(*end))  # 4 hexes + 3 enemy-ZOC hexes = 7 MP
        w.move("maletti", site(*end))
    assert rules(play(script)) == [("9.31", 8)]


def test_9_31_exempt_units_pay_1_mp_for_each_enemy_zoc_hex(play, front):
    site, start, _way, end = front

    def script(w):
        w.move("supply-level", "Supply Poor")
        wall(w, site)
        w.move("21pz-2mg", site(*start))  # German motorized battalion, MA 7, at Poor 6
        w.turn(1, "Axis Regular Movement")
        w.move("21pz-2mg", site(*end))
    found = play(script)
    assert rules(found) == [("9.6", 7)] and "cost 7 MP" in found[0].message


def test_9_3_battalions_have_no_zoc(play, front):
    site, _start, way, _end = front

    def script(w):
        w.move("7rtr", site())  # a British tank battalion
        w.move("1lib", site(*way[0]))
        w.turn(1, "Axis Regular Movement")
        w.move("1lib", site(*way[2]))  # two hexes beside the battalion
    assert play(script) == []


def test_9_3_zoc_does_not_cross_an_escarpment(play, wdf):
    game = wdf[0]
    geo = game.geometry
    units = set_up_hexes(game)
    sides = sorted(k for k, v in game.hexside_features.items() if v == frozenset({"escarpment"}))
    a, b = next((a, b) for a, b in sides if game.hex_terrain[a] == game.hex_terrain[b] == "clear"
                and min(geo.distance(a, u) for u in units) >= 4)

    def script(w):
        w.move("64cat", a)
    auditor = play(script, auditor=True)
    zoc = auditor.ezoc("allied")
    assert b not in zoc
    assert any(n in zoc for n in geo.neighbours(a))


def test_11_2_a_step_across_an_escarpment_is_reported_under_11_2_not_the_zoc(play, wdf):
    """Issue 31: a unit in an enemy ZOC steps across an escarpment with no road (11.2 forbids it).
    The only way round leads through another enemy ZOC hex (9.31), but the move the log shows is
    the one step across the hexside: 11.2 is the rule it breaks."""
    game = wdf[0]
    geo, feats = game.geometry, game.hexside_features
    units = set_up_hexes(game)

    def clear(*hexes):
        return all(game.hex_terrain.get(h) == "clear" and min(geo.distance(h, u) for u in units) >= 4 for h in hexes)

    def free(x, y):
        return not feats.get(hexside_key(x, y))

    sides = sorted(k for k, v in feats.items() if v == frozenset({"escarpment"}))
    a, b, c, e = next((a, b, c, e) for a, b in sides for c in sorted(set(geo.neighbours(a)) & set(geo.neighbours(b)))
                      for e in sorted(set(geo.neighbours(a)) & set(geo.neighbours(c)) - {b})
                      if clear(a, b, c, e) and free(a, c) and free(c, b) and free(e, a) and free(e, c))

    def script(w):
        w.move("64cat", a)
        w.move("4ind-5", e)  # its ZOC covers a and c, the way round
        w.turn(1, "Axis Regular Movement")
        w.move("64cat", b)
    assert rules(play(script)) == [("11.2", 4)]


# -- rank 3: enemy hexes (9.0, 13.4) ------------------------------------------------------------------
def test_9_0_no_unit_enters_an_enemy_combat_units_hex(play, desert):
    def script(w):
        w.move("64cat", desert())
        w.move("4ind-5", desert(1, 0))
        w.turn(1, "Allied Regular Movement")
        w.move("4ind-5", desert())
    assert rules(play(script)) == [("9.0", 4)]


def test_13_4_a_leader_may_not_enter_the_enemy_depot_hex(play, desert):
    def script(w):
        w.move("depot-axis", desert())
        w.move("graziani", desert(-1, 0))
        w.move("oconnor", desert(1, 0))
        w.turn(1, "Allied Regular Movement")
        w.move("oconnor", desert(1, -1))  # a leader alone
        w.move("oconnor", desert())  # the Axis depot
    assert rules(play(script)) == [("13.4", 6)]


def test_13_4_a_leader_may_not_enter_the_enemy_leaders_hex(play, desert):
    def script(w):
        w.move("graziani", desert())
        w.move("oconnor", desert(1, 0))
        w.turn(1, "Allied Regular Movement")
        w.move("oconnor", desert())
    assert rules(play(script)) == [("13.4", 4)]


# -- rank 4: stacking (9.2, 7.7) -------------------------------------------------------------------
def test_9_2_four_points_and_a_free_battalion(play, desert):
    def script(w):
        for u in ("4ind-5", "4ind-11", "70d-16", "7a-4arm", "7rtr"):  # 4 points + 1 battalion
            w.move(u, desert(1, 0))
        w.turn(1, "Allied Regular Movement")
        w.turn(1, "Allied Regular Combat")
    assert play(script) == []


def test_9_2_excess_at_the_end_of_a_phase(play, desert):
    def script(w):
        for u in ("4ind-5", "4ind-11", "70d-16", "7a-4arm", "7a-7arm"):  # 5 points
            w.move(u, desert(1, 0))
        w.turn(1, "Allied Regular Movement")
        w.turn(1, "Allied Regular Combat")  # the excess is still there
        w.remove("7a-7arm")
        w.turn(1, "Allied Exploitation Movement")
    found = play(script)
    assert rules(found) == [("9.2", 7)] and "5 stacking points" in found[0].message


def test_9_2_italian_divisions_count_two_points(play, desert):
    def script(w):
        for u in ("64cat", "63cir", "4ccnn"):
            w.move(u, desert())
        w.turn(1, "Axis Regular Movement")
        w.turn(1, "Axis Regular Combat")
    found = play(script)
    assert rules(found) == [("9.2", 5)] and "6 stacking points" in found[0].message


def test_7_7_reinforcements_overstack_on_their_entry_hex_until_their_first_movement_phase(play):
    def script(w):
        w.turn(4, "Allied Reinforcement-Withdrawal")
        for u in ("9aus-20", "9aus-24", "9aus-26", "3ind-mot"):  # with 6aus-17 and 6aus-19: 6 points
            w.move(u, "6508")
        w.turn(4, "Allied Major Offensive")
        w.turn(4, "Allied Regular Movement")
        w.turn(4, "Allied Regular Combat")
    assert rules(play(script)) == [("9.2", 8)]


# -- rank 5: attrition (8.3, 10.21) -----------------------------------------------------------------
ALLIED_UNITS = ["7a-4arm", "7a-7arm", "7a-7sg", "11h", "4ind-5", "4ind-11", "70d-16", "7rtr", "selby", "4ind-7",
                "6aus-16", "6aus-17", "6aus-19"]


def to_reserve(w, keep=()) -> None:
    """Every Allied set-up unit but `keep` into the Reserve Box, where supply does not apply (8.0)."""
    for u in ALLIED_UNITS:
        if u not in keep:
            w.move(u, "Allied Reserve")


def test_8_3_unsupplied_units_lose_one_step(play, desert):
    def script(w):
        to_reserve(w, keep=("4ind-5", "6aus-17"))
        w.move("4ind-5", desert())
        w.turn(1, "Allied Attrition")
        w.flip("4ind-5")
        w.turn(1, "Axis Depot Removal")
    assert play(script) == []


def test_8_3_an_unsupplied_unit_that_loses_no_step(play, desert):
    def script(w):
        to_reserve(w, keep=("4ind-5", "6aus-17"))
        w.move("4ind-5", desert())
        w.turn(1, "Allied Attrition")
        w.turn(1, "Axis Depot Removal")
    found = play(script)
    assert rules(found) == [("8.3", 14)] and "lost 0" in found[0].message


def test_8_3_a_supplied_unit_loses_no_step(play):
    def script(w):
        to_reserve(w, keep=("6aus-17",))
        w.turn(1, "Allied Attrition")
        w.flip("6aus-17")
        w.turn(1, "Axis Depot Removal")
    found = play(script)
    assert rules(found) == [("8.3", 15)] and "supplied in 6508" in found[0].message


def test_8_3_cut_off_units_are_eliminated_permanently(play, desert):
    def script(w):
        to_reserve(w, keep=("4ind-5", "4ind-11"))
        w.flip("4ind-5")
        w.flip("4ind-11")
        w.move("4ind-5", desert())
        w.move("4ind-11", desert(0, 3))
        w.move("64cat", desert(1, 0))  # enemies on two opposite sides: every hex around 4ind-5 is
        w.move("63cir", desert(-1, 0))  # enemy-held or in an enemy ZOC
        w.turn(1, "Allied Attrition")
        w.move("4ind-5", "Allied Permanent Eliminated")
        w.move("4ind-11", "Allied Permanent Eliminated")  # it has a path: Recoverable
        w.turn(1, "Axis Depot Removal")
    found = play(script)
    assert rules(found) == [("8.3", 21)] and "Allied Recoverable Eliminated box" in found[0].message


# -- rank 14: phase eligibility (4.0, 9.4, 9.5, 9.7) ----------------------------------------------
def test_4_0_units_move_only_in_movement_phases(play):
    def script(w):
        w.turn(1, "Allied Replacements")
        w.move("6aus-17", "6409")
        w.turn(1, "Allied Regular Movement")
        w.move("6aus-19", "6409")
    assert rules(play(script)) == [("4.0", 2)]


def test_9_0_only_the_active_side_moves(play):
    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.move("62mar", "4210")
    assert rules(play(script)) == [("9.0", 2)]


def test_9_1_several_drags_are_one_move_from_where_the_phase_began(play, desert):
    def script(w):
        w.move("4ind-5", desert(-3, 0))
        w.turn(1, "Allied Regular Movement")
        w.move("4ind-5", desert(-2, 0))
        w.move("4ind-5", desert(-1, 0))  # 2 MP so far: the allowance of an unsupplied infantry unit
        w.move("4ind-5", desert(0, 0))
    found = play(script)
    assert rules(found) == [("8.2", 5)] and "cost 3 MP" in found[0].message


def test_9_5_only_armor_motorized_and_recon_exploit_in_a_normal_offensive(play, desert):
    def script(w):
        w.move("4ind-5", desert(-3, 0))
        w.move("7a-4arm", desert(-3, 0))
        w.turn(1, "Allied Exploitation Movement")
        w.move("7a-4arm", desert(-1, 0))  # 2 MP = ceil(ceil(8 / 2) / 2)
        w.move("4ind-5", desert(-2, 0))
    assert rules(play(script)) == [("9.5", 5)]


def test_9_5_all_units_exploit_in_a_major_offensive(play, desert):
    def script(w):
        w.flip("ap-allied")  # Major Offensive
        w.move("4ind-5", desert(-3, 0))
        w.move("7a-4arm", desert(-3, 0))
        w.turn(1, "Allied Exploitation Movement")
        w.move("7a-4arm", desert(1, 0))  # 4 MP = ceil(8 / 2): full MA, unsupplied
        w.move("4ind-5", desert(-2, 0))  # 1 MP = ceil(ceil(4 / 2) / 2)
    assert play(script) == []


def test_9_4_strategic_movement_along_the_road(play, wdf):
    road = road_from(wdf[0], "6508", 14)

    def script(w):
        w.turn(1, "Allied Regular Movement")
        w.declare("6aus-17", "Strategic movement")
        w.move("6aus-17", road[-1])
    a = play(script, auditor=True)
    assert a.findings == [] and len(a.strategic_movers) == 1


def test_9_4_strategic_movement_starts_supplied_on_a_road_or_track(play, desert):
    def script(w):
        w.move("4ind-5", desert())
        w.turn(1, "Allied Regular Movement")
        w.declare("4ind-5", "Strategic movement")
        w.move("4ind-5", desert(1, 0))
    found = play(script)
    assert rules(found) == [("9.4", 4)] and "unsupplied" in found[0].message


def test_9_4_strategic_movement_enters_no_enemy_zoc(play, wdf):
    road = road_from(wdf[0], "6508", 6)

    def script(w):
        w.move("64cat", road[5])
        w.turn(1, "Allied Regular Movement")
        w.declare("6aus-17", "Strategic movement")
        w.move("6aus-17", road[4])  # next to the Italians: in their ZOC
    assert rules(play(script)) == [("9.4", 4)]


def test_9_7_a_sea_transferred_unit_does_not_exploit(play, wdf):
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")

    def script(w):
        w.move("61sir", "Axis Recoverable Eliminated")
        w.move("70d-16", tobruk)  # the Allies hold Tobruk
        w.turn(1, "Allied Regular Movement")
        w.declare("6aus-17", "Sea transfer")
        w.move("6aus-17", tobruk)
        w.turn(1, "Allied Exploitation Movement")
        w.move("6aus-17", "6508")
    assert rules(play(script)) == [("9.7", 7)]


def test_9_7_one_unit_a_turn_two_with_naval_support(play, wdf):
    """Turn 1: the Allies have Naval Support (3.1): two of the Alexandria brigades and the
    returning 4ind-7 - one too many; without it (its marker put away), the second is one too many."""
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")

    def script(w, units, naval=True):
        w.move("61sir", "Axis Recoverable Eliminated")
        w.move("70d-16", tobruk)  # the Allies hold Tobruk
        w.move("4ind-7", "6508")
        if not naval:
            w.move("naval-support", "Markers")
        w.turn(1, "Allied Regular Movement")
        for u in units:
            w.declare(u, "Sea transfer")
            w.move(u, tobruk)
        w.turn(1, "Allied Regular Combat")
    assert rules(play(lambda w: script(w, ("6aus-17", "6aus-19")))) == []
    found = play(lambda w: script(w, ("6aus-17", "6aus-19", "4ind-7")))
    assert [f.rule for f in found] == ["9.7"] and "2 unit(s) a turn with" in found[0].message
    found = play(lambda w: script(w, ("6aus-17", "6aus-19"), naval=False))
    assert [f.rule for f in found] == ["9.7"] and "1 unit(s) a turn without" in found[0].message


def test_9_7_only_while_the_allies_control_tobruk(play, wdf):
    tobruk = next(p.hex for p in wdf[0].map.places if p.name == "Tobruk")

    def script(w):
        w.move("61sir", "Axis Recoverable Eliminated")  # set-up: Tobruk empty, the Axis held it last (8.4)
        w.turn(1, "Allied Regular Movement")
        w.declare("6aus-17", "Sea transfer")
        w.move("6aus-17", tobruk)
    found = play(script)
    assert [f.rule for f in found] == ["9.7"] and "control Tobruk" in found[0].message
