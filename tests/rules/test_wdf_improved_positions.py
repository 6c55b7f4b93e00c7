"""Improved Positions (12.1-12.3, digest §10.1 rank 15): who may build or upgrade one, where,
and when its marker goes, from real-format logs over the built module.

The campaign set-up: the Mersa Matruh garrison (4ind-7, 6aus-16) in 5110, two Australian
brigades in Alexandria (6508), the 4th Indian Division in 4611 beside the Italian camps; the
Allies have 4 AP.  An IP is built by dragging the IP marker from its box onto the stack (it
lands on top: every unit of the stack is under it) and upgraded by flipping it.
"""
from __future__ import annotations

from tests.rules import test_wdf_movement as mv
from tests.rules.test_wdf_combat import site  # noqa: F401  (the combat tests' battlefield)
from tests.rules.test_wdf_movement import to_reserve

wdf, play, desert = mv.wdf, mv.play, mv.desert  # the movement tests' fixtures: module, log runner, open ground

GARRISON = "5110"


def rules(found) -> list[tuple[str, int]]:
    return [(f.rule, f.step) for f in found]


def at(w) -> int:
    return len(w.steps)


def build(w, hex_id: str = GARRISON, ap: str = "Points 3", turn: int = 2) -> int:
    """An IP dragged onto `hex_id` in the Allied Regular Movement Phase, its AP paid; its step."""
    w.turn(turn, "Allied Regular Movement")
    w.move("ip", hex_id)
    step = at(w)
    w.move("ap-allied", ap)
    return step


def test_12_1_an_ip_built_on_units_that_did_not_move(play):
    def script(w):
        build(w)
        w.move("6aus-17", "6408")  # another unit moves on: nothing to do with the IP
        w.turn(2, "Allied Regular Combat")
    assert play(script) == []


def test_12_1_a_stack_dragged_elsewhere_is_no_concern_of_the_ip(play):
    def script(w):
        build(w)
        w.move("6aus-17", "6408", stack=True)  # the Alexandria stack dragged whole
        w.turn(2, "Allied Regular Combat")
    assert play(script) == []


def test_12_1_an_ip_only_in_the_regular_movement_phase(play):
    def script(w):
        w.turn(2, "Allied Exploitation Movement")
        w.move("ip", GARRISON)
        w.turn(2, "Allied Exploitation Combat")
    found = play(script)
    assert rules(found) == [("12.1", 2)] and "Regular Movement" in found[0].message


def test_12_1_the_builder_must_not_have_moved(play):
    def script(w):
        w.turn(2, "Allied Regular Movement")
        w.move("6aus-17", "6408")
        w.move("ip", "6408")
        w.move("ap-allied", "Points 3")
        w.turn(2, "Allied Regular Combat")
    found = play(script)
    assert rules(found) == [("12.1", 3)] and "moved in this Regular Movement Phase (from 6508)" in found[0].message


def test_12_1_the_builder_does_not_move_after(play):
    """The garrison builds, then leaves: one finding per unit, whether dragged one by one or as a stack."""
    def one_by_one(w):
        build(w)
        w.move("4ind-7", "5111")
        w.move("6aus-16", "5111")
        w.move("ip", "Markers")  # nothing left under it: the marker goes
        w.turn(2, "Allied Regular Combat")
    found = play(one_by_one)
    assert rules(found) == [("12.1", 4), ("12.1", 5)]

    def dragged(w):
        build(w)
        w.move("4ind-7", "5111", stack=True)  # the garrison with its IP marker on top
        w.turn(2, "Allied Regular Combat")
    found = play(dragged)
    assert rules(found) == [("12.1", 4), ("12.1", 4)] and len({f.piece for f in found}) == 2


def test_12_1_the_builder_must_be_supplied(play, desert):
    def script(w):
        to_reserve(w, keep=("4ind-5",))
        w.move("4ind-5", desert())  # set-up: far from any road, track or source
        build(w, desert())
        w.turn(2, "Allied Regular Combat")
    found = play(script)
    assert [f.rule for f in found] == ["12.1"] and "unsupplied" in found[0].message


def test_12_1_an_ip_is_placed_on_a_unit(play, wdf):
    game, _ = wdf
    empty = next(n for n in game.geometry.neighbours("6508") if game.hex_terrain[n] == "clear")

    def script(w):
        step = build(w, empty)
        w.turn(2, "Allied Regular Combat")
        return step
    found = play(script)
    assert [f.rule for f in found][:1] == ["12.1"] and "no Allied unit lies under" in found[0].message
    # and, left on the map with no unit under it, the marker should have gone by the phase's end
    assert [f.rule for f in found] == ["12.1", "12.1"] and "removed when no units" in found[1].message


def test_12_2_no_ip_in_alexandria(play):
    def script(w):
        build(w, "6508")
        w.turn(2, "Allied Regular Combat")
    found = play(script)
    assert rules(found) == [("12.2", 2)] and "Alexandria" in found[0].message


def test_12_2_no_ip_in_an_enemy_zoc(play):
    """An Italian division beside the garrison: its ZOC bars the IP, though the garrison's own
    units would negate it for supply (friendly units do not negate it for IPs)."""
    def script(w, where):
        w.move("64cat", where)  # set-up
        build(w)
        w.turn(2, "Allied Regular Combat")
    assert play(lambda w: script(w, "5112")) == []  # two hexes away: no ZOC on 5110
    found = play(lambda w: script(w, "5111"))
    assert rules(found) == [("12.2", 3)] and "enemy zone of control" in found[0].message


def test_12_2_one_ip_a_hex(play):
    def script(w):
        build(w)
        w.move("ip#2", GARRISON)
        w.move("ap-allied", "Points 2")
        w.turn(2, "Allied Regular Combat")
    found = play(script)
    assert rules(found) == [("12.2", 4)] and "one IP marker a hex" in found[0].message


def test_12_1_upgrade_in_the_next_regular_movement_phase(play):
    def script(w, turn):
        build(w)
        w.turn(2, "Allied Regular Combat")
        w.turn(turn, "Allied Regular Movement")
        w.flip("ip")
        w.move("ap-allied", "Points 2")
        w.turn(turn, "Allied Regular Combat")
    assert rules(play(lambda w: script(w, 3))) == []


def test_12_1_no_upgrade_in_the_turn_it_was_built(play):
    def script(w):
        build(w)
        w.flip("ip")
        w.move("ap-allied", "Points 2")
        w.turn(2, "Allied Regular Combat")
    found = play(script)
    assert rules(found) == [("12.1", 4)] and "next Regular Movement" in found[0].message


def test_12_1_an_upgraded_ip_keeps_its_units_in_place(play):
    def script(w):
        build(w)
        w.turn(2, "Allied Regular Combat")
        w.turn(3, "Allied Regular Movement")
        w.flip("ip")
        w.move("ap-allied", "Points 2")
        w.move("4ind-7", "5111")
        w.turn(3, "Allied Regular Combat")
    found = play(script)
    assert rules(found) == [("12.1", 8)] and "7th Indian" in found[0].piece


def test_12_1_an_ip_without_units_is_removed(play):
    """The garrison eliminated by its menu command (Ctrl+E): the IP marker must go in that phase."""
    def script(w, remove):
        build(w)
        w.turn(2, "Allied Regular Combat")
        w.send("4ind-7", "Eliminate")
        w.send("6aus-16", "Eliminate")
        if remove:
            w.move("ip", "Markers")
        w.turn(2, "Allied Exploitation Movement")
    assert [f for f in play(lambda w: script(w, True)) if f.rule.startswith("12")] == []
    found = [f for f in play(lambda w: script(w, False)) if f.rule.startswith("12")]
    assert rules(found) == [("12.1", 7)] and "removed when no units" in found[0].message


def test_12_3_an_ip_1_is_removed_when_its_units_attack(play, wdf, site):
    """The armoured brigades attack from under an IP-1 (placed in the set-up): its marker goes."""
    from tests.rules.test_wdf_combat import ARMOURED, COMBAT, Battle, armoured_cs, dice, strength
    game, _ = wdf

    def script(w, remove):
        for u in ARMOURED:  # set-up: the attackers, the IP marker on top of them, the defenders
            w.move(u, site.a)
        w.move("ip", site.a)
        for u in ("63cir", "64cat"):
            w.move(u, site.d)
        w.turn(3, COMBAT)
        b = Battle(w, site)
        b.declare()
        b.roll("Allied", "6 dice", dice(armoured_cs(game, site)))
        b.roll("Axis", "6 dice", dice(strength(game, ("63cir", "64cat"), site.axis)))
        if remove:
            w.move("ip", "Markers")
        b.close()
    assert play(lambda w: script(w, True)) == []
    found = play(lambda w: script(w, False))
    assert [f.rule for f in found] == ["12.3"] and "IP-1" in found[0].message and found[0].phase == "Allied Regular Combat"


def drop_onto(w, ref: str, to: str, onto: str) -> None:
    """A drag dropped onto one piece of an expanded stack: VASSAL's MovePiece names that piece as
    the one underneath, and the moved piece goes just above it (under what lay above it)."""
    from validators.replay.writer import _fmt, chat_cmd
    pid, below = w.piece(ref), w.piece(onto)
    p = w.board.pieces[pid]
    map_id, dest = p.map, w.point(p.map, to)
    user, from_loc = w._user(None, pid)[0], w.location(p.map, p.x, p.y)
    comm = w._moved_piece(pid, dest).append(w._move_cmd(pid, map_id, dest, below, user))
    fmt = w._map(map_id).get("moveWithinFormat", "")
    text = _fmt(fmt, pieceName=w.reported_name(pid), previousLocation=from_loc, location=to, mapName=map_id,
                oldMapName=map_id)
    w._log(comm.append(w._apply(chat_cmd("* " + text))) if text else comm)


def test_12_2_entering_an_ip_costs_1_mp(play):
    """6aus-17 (MA 4) from 5413 to the garrison in 5110 costs exactly 4 MP: on top of the IP
    marker that is legal; under it (dropped there, or put there by a second drop in the hex) the
    IP's 1 MP makes 5 > 4 (12.2)."""
    def script(w, how):
        to_reserve(w, keep=("4ind-7", "6aus-16", "6aus-17"))
        w.move("6aus-17", "5413")  # set-up
        w.move("ip", GARRISON)  # set-up: the garrison in its IP
        w.turn(2, "Allied Regular Movement")
        if how == "under":
            drop_onto(w, "6aus-17", GARRISON, "6aus-16")
        else:
            w.move("6aus-17", GARRISON)
            if how == "then under":
                drop_onto(w, "6aus-17", GARRISON, "6aus-16")
        w.turn(2, "Allied Regular Combat")
    assert play(lambda w: script(w, "on top")) == []
    for how in ("under", "then under"):
        found = play(lambda w: script(w, how))
        assert [f.rule for f in found] == ["12.2"], how
        assert "1 MP to enter the IP" in found[0].message and found[0].to_hex == GARRISON


def test_12_2_a_unit_that_starts_in_the_hex_enters_the_ip_by_the_same_cost(play):
    """A unit beside the IP (on top of its marker) may step under it when it can pay 1 MP."""
    def script(w):
        to_reserve(w, keep=("4ind-7", "6aus-16", "6aus-17"))
        w.move("ip", GARRISON)  # set-up
        w.move("6aus-17", "5209")  # set-up: next to the garrison
        w.turn(2, "Allied Regular Movement")
        drop_onto(w, "6aus-17", GARRISON, "6aus-16")  # 1 hex + 1 MP: within MA 4
        w.turn(2, "Allied Regular Combat")
    assert play(script) == []
