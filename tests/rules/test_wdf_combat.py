"""Western Desert Force combat (10.0-10.51, 3.2, 9.4, 11.2, 13.3, 14, 16.2): one legal and one
illegal case per check, as real-format logs audited as a player's log would be.

Units are moved into place before play starts (set-up adjustments, not moves), then the turn
tracker jumps to the combat phase.  The battlefield is found on the map, not hard-coded: open
clear ground near the Allied depot, so that the tests follow the map and order of battle as
they are edited.  Supply at the site is read from the auditor itself (the supply rules are
tested elsewhere); the expected dice follow from it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from validators.audit import audit_file
from validators.replay.writer import LogWriter
from tests.rules.wdf_probe import audited

SLUG = "western-desert-force"
PLAYERS = {"Allied": ("allied-user", "Bob"), "Axis": ("axis-user", "Alice")}
ARMOURED = ("7a-4arm", "7a-7arm", "7a-7sg")  # 2 British armour brigades + 1 motor brigade (10.51)
COMBAT, EXPLOIT, NEXT = "Allied Regular Combat", "Allied Exploitation Combat", "Allied Exploitation Movement"


@dataclass(frozen=True)
class Site:
    d: str  # the defending hex
    a: str  # the attacking hex, next to it
    a_back: tuple[str, str]  # two and three hexes from d, the first next to a: the attacker's retreat
    d_back: tuple[str, str, str]  # one, two and three hexes from d, away from a: the defender's retreat
    sideways: str  # next to both d and a
    beyond: str  # next to d, two hexes from a: a second advance hex
    allied: bool  # units of each side supplied there
    axis: bool


@pytest.fixture(scope="module")
def wdf(wdf_module):
    return wdf_module


def _clear_around(game, h: str, occupied: set[str], radius: int = 2) -> bool:
    geo = game.geometry
    near = [x for x in geo.labels if geo.distance(h, x) <= radius]
    return all(game.hex_terrain[x] == "clear" and x not in occupied for x in near) and not any(
        game.hexside_features.get(tuple(sorted((x, n)))) for x in near for n in geo.neighbours(x) if n in near)


def _layout(game, d: str, depot: str, occupied: set[str]) -> tuple | None:
    """The hexes of a site around the defending hex d, or None when d does not fit."""
    geo = game.geometry
    a = next((x for x in geo.neighbours(d) if geo.distance(depot, x) <= 4 and _clear_around(game, x, occupied, 1)), None)
    if a is None or not _clear_around(game, d, occupied):
        return None
    try:
        d1 = next(x for x in geo.neighbours(d) if geo.distance(a, x) == 2)
        d2 = next(x for x in geo.neighbours(d1) if geo.distance(d, x) == 2 and geo.distance(a, x) == 3)
        d3 = next(x for x in geo.neighbours(d2) if geo.distance(d, x) == 3 and game.hex_terrain[x] in ("clear", "rough"))
        a1 = next(x for x in geo.neighbours(a) if geo.distance(d, x) == 2)
        a2 = next(x for x in geo.neighbours(a1) if geo.distance(d, x) == 3 and game.hex_terrain[x] == "clear")
        sideways = next(x for x in geo.neighbours(d) if geo.adjacent(a, x))
        beyond = next(x for x in geo.neighbours(d) if geo.distance(a, x) == 2 and x != d1)
    except StopIteration:
        return None
    return a, (a1, a2), (d1, d2, d3), sideways, beyond


@pytest.fixture(scope="module")
def site(wdf, tmp_path_factory) -> Site:
    game = wdf[0]
    setup = game.scenarios["campaign"]
    occupied = {u.hex for u in setup.units if u.hex}
    depot = next(m.hex for m in setup.markers if m.marker == "depot-allied")
    d, hexes = next(((d, x) for d in game.geometry.labels if (x := _layout(game, d, depot, occupied))), (None, None))
    if d is None:
        pytest.skip("no open clear ground near the Allied depot")
    a = hexes[0]

    def place(w):
        for u in ARMOURED:
            w.move(u, a)
        for u in ("63cir", "64cat"):
            w.move(u, d)
    allied, axis = supplied(wdf, tmp_path_factory.mktemp("site"), place, (a, "allied"), (d, "axis"))
    return Site(d, *hexes, allied, axis)


def supplied(wdf, folder: Path, setup, *where: tuple[str, str]) -> list[bool]:
    """Whether units of a side are in supply in these hexes once `setup` has placed the pieces."""
    game, vmod = wdf
    w = LogWriter(vmod, players=PLAYERS)
    setup(w)
    w.turn(3, COMBAT)
    w.write(folder / "setup.vlog")
    auditor = audited(game, folder / "setup.vlog")
    return [auditor.supplied(h, side) for h, side in where]


@pytest.fixture
def play(wdf, tmp_path):
    game, vmod = wdf

    def run(script) -> Findings:
        w = LogWriter(vmod, players=PLAYERS)
        at = script(w)
        path = tmp_path / "game.vlog"
        w.write(path)
        return Findings([f for f in audit_file(game, path).findings if f.kind == "violation"], at)
    return run


class Findings(list):
    """The violations found, and `at`: the step the script marked (its return value)."""

    def __init__(self, items, at):
        super().__init__(items)
        self.at = at


def found(findings) -> list[tuple[str, int]]:
    return [(f.rule, f.step) for f in findings]


def only(findings: Findings, rule: str) -> bool:
    """Exactly one violation: of `rule`, at the step the script returned."""
    assert found(findings) == [(rule, findings.at)], [(f.rule, f.step, f.message) for f in findings]
    return True


def strength(game, ids, supplied: bool, mods: int = 0, reduced=()) -> int:
    """Sum of the units' CS, each modified by `mods`, halved (rounded up) out of supply."""
    units = {u.id: u for u in game.units}
    total = 0
    for i in ids:
        cs = max(0, (units[i].cs_reduced if i in reduced else units[i].cs) + mods)
        total += cs if supplied else math.ceil(cs / 2)
    return total


def dice(n: int, sixes: int = 0, fives: int = 0) -> list[int]:
    assert sixes + fives <= n
    return [6] * sixes + [5] * fives + [1] * (n - sixes - fives)


class Battle:
    """A log around one site: set-up moves, then the combat phase and the combat's steps."""

    def __init__(self, w: LogWriter, site: Site):
        self.w, self.site, self.turn = w, site, 3

    def setup(self, attackers=ARMOURED, defenders=("63cir", "64cat"), turn: int = 3, phase: str = COMBAT,
              attack_from: str | None = None, then=None) -> Battle:
        """Set-up moves (and `then(w)`, more set-up), then the turn tracker to the phase."""
        for u in attackers:
            self.w.move(u, attack_from or self.site.a)
        for u in defenders:
            self.w.move(u, self.site.d)
        if then is not None:
            then(self.w)
        self.w.turn(turn, phase)
        self.turn = turn
        return self

    def declare(self, attackers=ARMOURED, targets=("63cir",), ap: bool = True) -> Battle:
        for u in attackers:
            self.w.declare(u, "Declare attacker")
        for u in targets:
            self.w.declare(u, "Declare target")
        if ap:
            self.w.move("ap-allied", "Points 3")  # 3.1: the Allies begin with 4 AP
        return self

    def roll(self, side: str, button: str, values: list[int]) -> Battle:
        if values:
            self.w.roll(f"{side} {button}", values, side)
        return self

    def close(self) -> int:
        """The next phase: the combat closes at this step, which is returned."""
        self.w.turn(self.turn, NEXT)
        return len(self.w.steps)


def armoured_cs(game, site) -> int:
    return strength(game, ARMOURED, site.allied) + 1  # 10.51: +1 British armoured division


# -- a whole combat by the book -----------------------------------------------------------------
def test_a_combat_by_the_book(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup().declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site), sixes=3))  # 3 hits
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis), sixes=1))  # 1 hit
        w.flip("7a-7sg")  # the attacker takes its hit as a step (10.22)
        w.flip("63cir")  # the defender: 2 steps (at least half of 3, 10.23) ...
        w.flip("64cat")
        w.move("63cir", site.d_back[0])  # ... and 1 hex of retreat, all together (10.25)
        w.move("64cat", site.d_back[0])
        w.move("7a-4arm", site.d)  # advance: the attacked hex first, armour one more (10.27)
        w.move("7a-4arm", site.beyond)
        w.move("7a-7arm", site.d)
        return b.close()
    assert found(play(script)) == []


# -- rank 6/7: dice (10.11, 10.21, 13.3, 14.1) -----------------------------------------------------------
def test_10_11_the_attacker_rolls_one_die_per_point_of_final_cs(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup().declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site) + 1))  # one die too many, no hit
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        return b.close()
    findings = play(script)
    assert found(findings) == [("10.11", findings.at)]
    assert f"its final CS is {armoured_cs(game, site)}" in findings[0].message
    assert "+1 British armoured division" in findings[0].message


def test_7_no_attack_point_costs_each_attacking_unit_2(play, wdf, site):
    game, _ = wdf
    penalised = strength(game, ARMOURED, site.allied, mods=-2) + 1

    def script(w):
        b = Battle(w, site).setup().declare(ap=False)
        b.roll("Allied", "6 dice", dice(penalised))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        return b.close()
    assert found(play(script)) == []


def test_10_21_units_hitting_on_6_roll_no_5_6_dice(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup().declare()
        b.roll("Allied", "5-6 dice", dice(armoured_cs(game, site)))  # British units hit on 6 in a Normal Offensive
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        return b.close()
    assert only(play(script), "10.21")


def test_10_21_a_major_offensive_hits_on_5_6(play, wdf, site):
    game, _ = wdf

    def script(w):
        w.flip("ap-allied")  # set-up: the Allied AP marker on its Major Offensive face (7.9)
        b = Battle(w, site).setup().declare()
        b.roll("Allied", "5-6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "5-6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))  # Choice: both sides
        return b.close()
    assert found(play(script)) == []


def test_13_3_leader_dice_are_the_leaders_value(play, wdf, site):
    game, _ = wdf
    attack = game.leaders["oconnor"].faces[0].attack

    def script(w, n):
        w.move("oconnor", site.a)
        b = Battle(w, site).setup().declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Allied", "leader dice", dice(n))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        return b.close()
    assert found(play(lambda w: script(w, attack))) == []
    assert only(play(lambda w: script(w, attack + 1)), "13.3")


def test_14_1_support_dice_are_the_asps_spent(play, wdf, site):
    game, _ = wdf

    def script(w, n):
        b = Battle(w, site).setup().declare()
        w.move("asp", "Points 2")  # 2 ASPs of ground support (3.1: the Allies begin with 4)
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Allied", "support dice", dice(n))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        return b.close()
    assert found(play(lambda w: script(w, 2))) == []
    assert only(play(lambda w: script(w, 3)), "14.1")


def test_10_13_division_integrity_and_terrain_modifiers_count(play, wdf, site):
    game, _ = wdf
    division = ("4ind-5", "4ind-7", "4ind-11")  # three units of 4th Indian Division: +2 (10.5)

    def script(w, extra):
        b = Battle(w, site).setup(attackers=division).declare(attackers=division)
        b.roll("Allied", "6 dice", dice(strength(game, division, site.allied) + 2 + extra))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        return b.close()
    assert found(play(lambda w: script(w, 0))) == []
    assert only(play(lambda w: script(w, -2)), "10.11")


def test_12_3_units_under_an_ip_defend_at_plus_1(play, wdf, site):
    game, _ = wdf

    def script(w, ip):
        # set-up: the IP marker on top of the stack, the defenders under it (built before play: 12.1)
        b = Battle(w, site).setup(then=lambda w: w.move("ip", site.d))
        b.declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis, mods=ip)))
        return b.close()
    assert found(play(lambda w: script(w, 1))) == []
    assert only(play(lambda w: script(w, 0)), "10.11")


# -- rank 8: results (10.21-10.26, 3.2) ----------------------------------------------------------------
def attack(w, site, game, allied_hits: int, axis_hits: int, turn: int = 3) -> Battle:
    """The armoured brigades attack 63cir and 64cat with these hits; results follow."""
    b = Battle(w, site).setup(turn=turn).declare()
    b.roll("Allied", "6 dice", dice(armoured_cs(game, site), sixes=allied_hits))
    b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis), sixes=axis_hits))
    return b


def test_10_21_a_unit_eliminated_by_its_menu_command(play, wdf, site):
    """The Eliminate command (Send To Location, Ctrl+E) is a move like a drag: two hits, two
    steps; with one hit, a full two-step unit eliminated loses a step too many."""
    game, _ = wdf

    def script(w, hits):
        b = attack(w, site, game, hits, 0)
        w.send("63cir", "Eliminate")  # both of its steps, into the Axis Recoverable Eliminated box
        return b.close()
    assert found(play(lambda w: script(w, 2))) == []
    assert only(play(lambda w: script(w, 1)), "10.21")


def test_10_21_each_hit_is_a_step_or_a_hex(play, wdf, site):
    game, _ = wdf

    def script(w, flips):
        b = attack(w, site, game, 2, 0)
        for u in flips:
            w.flip(u)
        return b.close()
    assert found(play(lambda w: script(w, ("63cir", "64cat")))) == []
    assert only(play(lambda w: script(w, ("63cir",))), "10.21")


def test_10_22_the_attacker_retreats_one_hex_at_most(play, wdf, site):
    game, _ = wdf

    def script(w, steps, hexes):
        b = attack(w, site, game, 0, 3)
        for u in ("7a-4arm", "7a-7arm", "7a-7sg")[:steps]:
            w.flip(u)
        for u in ARMOURED:
            w.move(u, site.a_back[hexes - 1])
        return b.close()
    assert found(play(lambda w: script(w, 2, 1))) == []
    assert only(play(lambda w: script(w, 1, 2)), "10.22")


def test_10_23_the_defender_takes_half_the_hits_as_steps_first(play, wdf, site):
    game, _ = wdf

    def script(w, steps, hexes):
        b = attack(w, site, game, 4, 0)
        for u in ("63cir", "64cat")[:steps]:
            w.flip(u)
        for u in ("63cir", "64cat"):
            w.move(u, site.d_back[hexes - 1])
        return b.close()
    assert found(play(lambda w: script(w, 2, 2))) == []
    assert only(play(lambda w: script(w, 1, 3)), "10.23")


def test_10_25_a_step_before_retreating_and_all_units_retreat(play, wdf, site):
    game, _ = wdf

    def no_step(w):
        b = attack(w, site, game, 1, 0)
        for u in ("63cir", "64cat"):
            w.move(u, site.d_back[0])
        return b.close()

    def one_stays(w):
        b = attack(w, site, game, 2, 0)
        w.flip("63cir")
        w.move("63cir", site.d_back[0])
        return b.close()
    assert only(play(no_step), "10.25")
    assert only(play(one_stays), "10.25")


def test_3_2_no_italian_retreat_on_turns_1_and_2(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = attack(w, site, game, 2, 0, turn=1)
        w.flip("63cir")
        w.move("63cir", site.d_back[0])
        at = len(w.steps)
        w.move("64cat", site.d_back[0])
        b.close()
        return at
    findings = play(script)
    assert found(findings) == [("3.2", findings.at), ("3.2", findings.at + 1)]


# -- rank 9: overwhelming attacks (10.24) --------------------------------------------------------------------
def overwhelm(w, site, game, axis_rolls=False, refund=True, eliminate=True) -> int:
    b = Battle(w, site).setup(defenders=("maletti",)).declare(targets=("maletti",))
    need = math.ceil(1.5 * strength(game, ("maletti",), site.axis))
    b.roll("Allied", "6 dice", dice(armoured_cs(game, site), sixes=need))
    if axis_rolls:
        b.roll("Axis", "6 dice", dice(strength(game, ("maletti",), site.axis)))
    at = len(w.steps)
    if eliminate:
        w.move("maletti", "Axis Recoverable Eliminated")
    if refund:
        w.move("ap-allied", "Points 4")
    close = b.close()
    return at if axis_rolls else close


def test_10_24_an_overwhelming_attack_by_the_book(play, wdf, site):
    assert found(play(lambda w: overwhelm(w, site, wdf[0]))) == []


def test_10_24_the_overwhelmed_defender_rolls_no_dice(play, wdf, site):
    assert only(play(lambda w: overwhelm(w, site, wdf[0], axis_rolls=True)), "10.24")


def test_10_24_every_defender_is_eliminated_and_the_ap_refunded(play, wdf, site):
    assert only(play(lambda w: overwhelm(w, site, wdf[0], eliminate=False)), "10.24")
    assert only(play(lambda w: overwhelm(w, site, wdf[0], refund=False)), "10.24")


def test_10_24_no_refund_below_the_threshold(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = attack(w, site, game, 2, 0)
        w.flip("63cir")
        w.flip("64cat")
        w.move("ap-allied", "Points 4")
        return b.close()
    assert only(play(script), "10.24")


# -- rank 12: advance after combat (10.27) -------------------------------------------------------------
def cleared(w, site, game, attackers=ARMOURED) -> Battle:
    """The defenders take 2 hits as 2 steps and retreat 1 hex: the attacked hex is empty."""
    b = Battle(w, site).setup(attackers=attackers).declare(attackers=attackers)
    cs = strength(game, attackers, site.allied) + (1 if attackers == ARMOURED else 2)  # 10.51, 10.5
    b.roll("Allied", "6 dice", dice(cs, sixes=3))
    b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
    for u in ("63cir", "64cat"):
        w.flip(u)
        w.move(u, site.d_back[0])
    return b


def test_10_27_infantry_advances_one_hex(play, wdf, site):
    game, _ = wdf
    infantry = ("4ind-5", "4ind-7", "4ind-11")  # one division: +2 (10.5)

    def script(w, second):
        b = cleared(w, site, game, attackers=infantry)
        w.move("4ind-5", site.d)
        at = len(w.steps) + 1
        if second:
            w.move("4ind-5", site.beyond)
        b.close()
        return at
    assert found(play(lambda w: script(w, False))) == []
    assert only(play(lambda w: script(w, True)), "10.27")


def test_10_27_the_second_hex_is_empty(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = cleared(w, site, game)
        w.move("7a-4arm", site.d)
        w.move("7a-4arm", site.d_back[0])  # where the defenders retreated
        at = len(w.steps)
        b.close()
        return at
    assert only(play(script), "10.27")


def test_10_27_an_attacker_that_retreated_does_not_advance(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup().declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site), sixes=4))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis), sixes=2))
        w.flip("7a-4arm")
        for u in ARMOURED:
            w.move(u, site.a_back[0])  # 1 step and 1 hex
        for u in ("63cir", "64cat"):
            w.flip(u)
            w.move(u, site.d_back[1])  # 2 steps and 2 hexes
        w.move("7a-7arm", site.d)
        return b.close()
    assert only(play(script), "10.27")


# -- rank 13: retreat geometry (10.26, 9.32) -------------------------------------------------------------
def test_10_26_each_retreat_hex_is_farther_from_the_hex_attacked(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = attack(w, site, game, 2, 0)
        w.flip("63cir")
        w.move("63cir", site.d_back[0])
        w.move("64cat", site.d_back[0])
        w.move("63cir", site.beyond)  # back next to the hex it left: one hex, not two
        at = len(w.steps)
        w.move("64cat", site.beyond)
        b.close()
        return at
    findings = play(script)
    assert found(findings) == [("10.26", findings.at), ("10.26", findings.at + 1)]


def test_9_32_no_retreat_into_an_enemy_zoc_without_a_friendly_unit(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = attack(w, site, game, 2, 0)
        w.flip("63cir")
        w.move("63cir", site.sideways)  # next to the attacking stack
        at = len(w.steps)
        w.move("64cat", site.sideways)
        b.close()
        return at
    findings = play(script)
    assert found(findings) == [("9.32", findings.at)]  # the second unit finds a friendly unit there


def test_10_26_an_attacker_retreats_away_from_the_attacked_hex(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = attack(w, site, game, 0, 2)
        w.flip("7a-4arm")
        w.move("7a-4arm", site.sideways)  # still next to the attacked hex
        at = len(w.steps)
        w.move("7a-7arm", site.a_back[0])
        w.move("7a-7sg", site.a_back[0])
        b.close()
        return at
    assert only(play(script), "10.26")


def test_10_26_stacking_holds_at_the_end_of_a_retreat(play, wdf, site):
    game, _ = wdf

    def script(w):
        for u in ("62mar", "4ccnn"):
            w.move(u, site.d_back[1])  # 4 stacking points already there
        b = attack(w, site, game, 3, 0)
        w.flip("63cir")
        w.move("63cir", site.d_back[1])  # 1 step + 2 hexes
        w.move("64cat", site.d_back[1])
        return b.close()
    findings = play(script)
    assert found(findings) == [("10.26", findings.at), ("9.2", findings.at)]  # 9.2: the stacking rules, at the phase's end


def test_10_27_the_defender_never_advances(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = attack(w, site, game, 2, 3)
        w.flip("7a-4arm")
        w.flip("7a-7arm")
        for u in ARMOURED:
            w.move(u, site.a_back[0])
        w.flip("63cir")
        w.flip("64cat")
        w.move("63cir", site.a)
        at = len(w.steps)
        b.close()
        return at
    assert only(play(script), "10.27")


# -- who attacks whom (10.0, 10.1, 11.2, 9.4) -----------------------------------------------------------
def test_10_1_a_unit_attacks_once_and_a_hex_is_attacked_once_a_phase(play, wdf, site):
    game, _ = wdf

    def twice(w, attacker, target, defenders):
        w.move("2lib", site.sideways)  # next to the attackers
        w.move("4ind-5", site.beyond)  # next to the defenders
        b = attack(w, site, game, 0, 0)
        w.declare(attacker, "Declare attacker")
        w.declare(target, "Declare target")
        w.roll("Allied 6 dice", dice(strength(game, (attacker,), site.allied, mods=-2)), "Allied")  # no AP: -2
        at = len(w.steps)
        w.roll("Axis 6 dice", dice(strength(game, defenders, site.axis)), "Axis")
        b.close()
        return at
    assert only(play(lambda w: twice(w, "7a-4arm", "2lib", ("2lib",))), "10.1")  # 7a-4arm again
    findings = play(lambda w: twice(w, "4ind-5", "64cat", ("63cir", "64cat")))  # the same hex again
    assert found(findings)[0] == ("10.1", findings.at) and "already attacked" in findings[0].message
    # and 2lib, next to the armour that attacked, was never attacked (the duty to attack, 10.1)
    assert [f.rule for f in findings[1:]] == ["10.1"] and site.sideways in findings[1].message


def test_10_1_every_attacker_is_next_to_every_defender(play, wdf, site):
    game, _ = wdf

    def script(w):
        b = Battle(w, site).setup(attack_from=site.a_back[0]).declare()
        at = len(w.steps) + 1
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        b.close()
        return at
    findings = play(script)
    assert found(findings) == [("10.1", findings.at)] * 3


def test_10_1_a_stack_attacks_as_a_whole(play, wdf, site):
    game, _ = wdf
    two = ARMOURED[:2]

    def script(w):
        b = Battle(w, site).setup().declare(attackers=two)
        at = len(w.steps) + 1
        b.roll("Allied", "6 dice", dice(strength(game, two, site.allied)))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        b.close()
        return at
    assert only(play(script), "10.1")


def test_10_0_only_units_able_to_exploit_attack_in_exploitation_combat(play, wdf, site):
    game, _ = wdf

    def script(w, attackers, bonus):
        b = Battle(w, site).setup(attackers=attackers, phase=EXPLOIT).declare(attackers=attackers)
        at = len(w.steps) + 1
        b.roll("Allied", "6 dice", dice(strength(game, attackers, site.allied) + bonus))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        w.turn(3, "Allied Attrition")
        return at
    assert found(play(lambda w: script(w, ARMOURED, 1))) == []
    findings = play(lambda w: script(w, ("4ind-5", "4ind-7", "4ind-11"), 2))
    assert found(findings) == [("10.0", findings.at)] * 3


def _far_from_units(game, *hexes: str, radius: int = 2) -> bool:
    occupied = {u.hex for u in game.scenarios["campaign"].units if u.hex}
    return all(game.geometry.distance(h, o) > radius for h in hexes for o in occupied)


def hexside_site(game, feature: str) -> tuple[str, str] | None:
    """Two clear hexes, far from the set-up, whose hexside carries `feature` and nothing else."""
    for (x, y), features in sorted(game.hexside_features.items()):
        if features == {feature} and game.hex_terrain[x] == game.hex_terrain[y] == "clear" and _far_from_units(game, x, y):
            return x, y
    return None


def one_on_one(w, a: str, d: str, allied: int, axis: int, phase: str = COMBAT) -> int:
    """7a-4arm attacks 63cir from a into d, no AP spent; returns the step of the first roll."""
    w.move("7a-4arm", a)
    w.move("63cir", d)
    w.turn(3, phase)
    w.declare("7a-4arm", "Declare attacker")
    w.declare("63cir", "Declare target")
    w.roll("Allied 6 dice", dice(allied), "Allied")
    at = len(w.steps)
    w.roll("Axis 6 dice", dice(axis), "Axis")
    w.turn(3, NEXT)
    return at


@pytest.mark.parametrize("feature", ["ridge"])  # the river hexsides lie by Alexandria, among the set-up
def test_11_2_each_unit_attacking_across_a_ridge_or_river_is_minus_1(play, wdf, feature, tmp_path):
    game, _ = wdf
    where = hexside_site(game, feature)
    if where is None:
        pytest.skip(f"no clear {feature} hexside on the map")
    a, d = where
    ok_a, ok_d = supplied(wdf, tmp_path, lambda w: (w.move("7a-4arm", a), w.move("63cir", d)), (a, "allied"), (d, "axis"))
    axis = strength(game, ("63cir",), ok_d)
    assert found(play(lambda w: one_on_one(w, a, d, strength(game, ("7a-4arm",), ok_a, mods=-3), axis))) == []
    findings = play(lambda w: one_on_one(w, a, d, strength(game, ("7a-4arm",), ok_a, mods=-2), axis))
    assert [f.rule for f in findings] == ["10.11"]


def test_11_2_no_attack_across_an_escarpment_without_road_or_track(play, wdf, tmp_path):
    game, _ = wdf
    where = hexside_site(game, "escarpment")
    if where is None:
        pytest.skip("no clear escarpment hexside on the map")
    a, d = where
    ok_a, ok_d = supplied(wdf, tmp_path, lambda w: (w.move("7a-4arm", a), w.move("63cir", d)), (a, "allied"), (d, "axis"))
    findings = play(lambda w: one_on_one(w, a, d, strength(game, ("7a-4arm",), ok_a, mods=-3),
                                         strength(game, ("63cir",), ok_d)))
    assert only(findings, "11.2")


def test_16_2_attackers_of_a_fortress_hit_on_6_only(play, wdf, tmp_path):
    game, _ = wdf
    tobruk = next(p.hex for p in game.map.places if p.name == "Tobruk")
    a = next(n for n in game.geometry.neighbours(tobruk) if game.hex_terrain[n] == "clear"
             and not game.hexside_features.get(tuple(sorted((n, tobruk)))))
    ok_a, ok_d = supplied(wdf, tmp_path, lambda w: w.move("7a-4arm", a), (a, "allied"), (tobruk, "axis"))
    allied = strength(game, ("7a-4arm",), ok_a, mods=-3)  # no AP -2, armor attacking a fortress -1
    axis = strength(game, ("61sir",), ok_d, mods=1)  # +1 defending in a fortress

    def script(w, button):
        w.flip("ap-allied")  # a Major Offensive: every unit hits on 5-6 ... but not against a fortress
        w.move("7a-4arm", a)
        w.turn(3, COMBAT)
        w.declare("7a-4arm", "Declare attacker")
        w.declare("61sir", "Declare target")
        w.roll(f"Allied {button}", dice(allied), "Allied")
        w.roll("Axis 5-6 dice", dice(axis), "Axis")  # fortress defenders hit on 5-6
        w.turn(3, NEXT)
        return len(w.steps)
    assert found(play(lambda w: script(w, "6 dice"))) == []
    assert only(play(lambda w: script(w, "5-6 dice")), "10.21")


def test_9_4_no_regular_combat_after_strategic_movement(play, wdf, tmp_path):
    game, _ = wdf
    geo = game.geometry
    road = ["6508"]
    for _ in range(3):
        road.append(next(n for n in geo.neighbours(road[-1]) if n not in road
                         and "road" in game.hexside_features.get(tuple(sorted((road[-1], n))), ())))
    end = road[-1]
    enemy = next(n for n in geo.neighbours(end) if game.hex_terrain[n] == "clear" and all(
        geo.distance(n, h) > 1 for h in road[:-1]))

    def place(w):
        w.move("21pz-3rec", enemy)  # a battalion: no ZOC to stop the strategic move (9.3)
    ok_a, ok_d = supplied(wdf, tmp_path, lambda w: (place(w), w.move("6aus-17", end)), (end, "allied"), (enemy, "axis"))

    def script(w, strategic):
        place(w)
        w.turn(3, "Allied Regular Movement")
        if strategic:
            w.declare("6aus-17", "Strategic movement")
        w.move("6aus-17", end)
        w.turn(3, COMBAT)
        w.declare("6aus-17", "Declare attacker")
        w.declare("21pz-3rec", "Declare target")
        w.roll("Allied 6 dice", dice(strength(game, ("6aus-17",), ok_a, mods=-2)), "Allied")
        at = len(w.steps)
        w.roll("Axis 6 dice", dice(strength(game, ("21pz-3rec",), ok_d)), "Axis")
        w.turn(3, NEXT)
        return at
    assert found(play(lambda w: script(w, False))) == []
    assert only(play(lambda w: script(w, True)), "9.4")


# -- bombardment (14.2) ------------------------------------------------------------------------------------
def test_14_2_bombardment_hits_are_steps_and_draw_no_fire(play, wdf, site):
    def script(w, retreat=False, fire=False):
        Battle(w, site).setup(attackers=())
        w.declare("63cir", "Declare target")
        w.move("asp", "Points 1")  # 3 ASPs (3.1: the Allies begin with 4)
        w.roll("Allied bombardment dice", [6, 6, 2], "Allied")  # two 6s: one hit
        if fire:
            w.roll("Axis 6 dice", [6], "Axis")
        if retreat:
            w.move("63cir", site.d_back[0])
            w.move("64cat", site.d_back[0])
        else:
            w.flip("63cir")
        w.turn(3, NEXT)
        return len(w.steps)
    assert found(play(script)) == []
    assert only(play(lambda w: script(w, retreat=True)), "14.2")
    assert only(play(lambda w: script(w, fire=True)), "14.2")


# -- more dice and Attack Points -------------------------------------------------------------------------
def test_12_3_defenders_in_an_ip_2_hit_on_5_6(play, wdf, site):
    game, _ = wdf

    def script(w, level):
        def ip(w):  # set-up: the IP (IP-2 flipped) over the defenders, before play (12.1)
            w.move("ip", site.d)
            if level == 2:
                w.flip(f"ip@{site.d}")
        b = Battle(w, site).setup(then=ip)
        b.declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "5-6 dice", dice(strength(game, ("63cir", "64cat"), site.axis, mods=1)))
        return b.close()
    assert found(play(lambda w: script(w, 2))) == []
    assert only(play(lambda w: script(w, 1)), "10.21")


def test_10_21_attacking_german_armor_hits_on_5_6_out_of_ap_range_minus_2(play, wdf, site):
    game, _ = wdf  # the Axis depot is far away: the AP is spent, the panzers are out of its range (10.31)

    def script(w, button):
        w.move("21pz-5pz", site.d)
        w.move("7a-7sg", site.a)
        w.turn(3, "Axis Regular Combat")
        w.declare("21pz-5pz", "Declare attacker")
        w.declare("7a-7sg", "Declare target")
        w.move("ap-axis", "Points 1")
        w.roll(f"Axis {button}", dice(strength(game, ("21pz-5pz",), site.axis, mods=-2)), "Axis")
        w.roll("Allied 6 dice", dice(strength(game, ("7a-7sg",), site.allied)), "Allied")
        w.turn(3, "Axis Exploitation Movement")
        return len(w.steps)
    assert found(play(lambda w: script(w, "5-6 dice"))) == []
    assert found(play(lambda w: script(w, "6 dice"))) == []  # rolling worse dice is the player's loss


def test_10_3_an_attack_costs_one_ap(play, wdf, site):
    game, _ = wdf

    def script(w, box):
        b = Battle(w, site).setup().declare(ap=False)
        w.move("ap-allied", box)
        at = len(w.steps)
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        b.close()
        return at
    assert found(play(lambda w: script(w, "Points 3"))) == []
    assert only(play(lambda w: script(w, "Points 2")), "10.3")


def test_10_3_no_ap_spent_without_an_attack(play, wdf, site):
    def script(w):
        Battle(w, site).setup()
        w.move("ap-allied", "Points 3")
        w.turn(3, NEXT)
        return len(w.steps)
    assert only(play(script), "10.3")


def test_10_1_dice_of_an_undeclared_combat_cannot_be_checked(play, wdf, site):
    def script(w):
        Battle(w, site).setup()
        w.roll("Allied 6 dice", [6, 6], "Allied")
        return len(w.steps)
    assert only(play(script), "10.1")


@pytest.mark.parametrize("terrain, per_unit, per_stack", [("mountain", 1, 0), ("rough", 0, 1)])
def test_11_0_mountain_counts_per_unit_rough_per_stack(play, wdf, tmp_path, terrain, per_unit, per_stack):
    game, _ = wdf
    geo = game.geometry
    found_at = next(((t, a) for t in geo.labels if game.hex_terrain[t] == terrain for a in geo.neighbours(t)
                     if game.hex_terrain[a] in ("clear", "rough", "mountain")  # no effect on an attacker
                     and not game.hexside_features.get(tuple(sorted((a, t))))
                     and _far_from_units(game, a, t)), None)
    if found_at is None:
        pytest.skip(f"no {terrain} hex to attack from open ground, away from the set-up")
    d, a = found_at
    both = ("63cir", "64cat")

    def place(w):
        w.move("7a-4arm", a)
        for u in both:
            w.move(u, d)
    ok_a, ok_d = supplied(wdf, tmp_path, place, (a, "allied"), (d, "axis"))

    def script(w, axis):
        place(w)
        w.turn(3, COMBAT)
        w.declare("7a-4arm", "Declare attacker")
        w.declare("63cir", "Declare target")
        w.roll("Allied 6 dice", dice(strength(game, ("7a-4arm",), ok_a, mods=-2)), "Allied")
        w.roll("Axis 6 dice", dice(axis), "Axis")
        w.turn(3, NEXT)
        return len(w.steps)
    right = strength(game, both, ok_d, mods=per_unit) + per_stack
    assert found(play(lambda w: script(w, right))) == []
    assert only(play(lambda w: script(w, strength(game, both, ok_d))), "10.11")
