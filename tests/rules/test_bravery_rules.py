"""Per-rule scenarios for Bravery in the Sand: from the campaign set-up, one legal and one
illegal case each, written as real-format logs and audited as a player's log would be."""
from __future__ import annotations


import pytest

from validators.audit import audit_file
from validators.replay.writer import LogWriter
from tests.conftest import SLUG

FORMATION_UNITS = {
    "15PZ": ["15pz-8pz-1", "15pz-8pz-2", "15pz-115sr", "15pz-33ar"],
    "7A": ["7a-7h", "7a-2rtr", "7a-6rtr", "7a-7sg"],
    "ARI": ["ari-132tk", "ari-8bers", "ari-132ar"],
    "90LT": ["90lt-155ir", "90lt-361ar", "90lt-iii-347"],
    "PAV": ["pav-27inf", "pav-28inf"],
    "21PZ": ["21pz-5pz-1", "21pz-5pz-2", "21pz-104sr", "21pz-155ar"],
    "22A": ["22a-2rgh", "22a-3cly", "22a-4cly"],
    "1SA": ["1sa-1bde", "1sa-5bde"],
}


@pytest.fixture(params=["one by one", "stack drags"])
def play(built, game, tmp_path, request):
    """Run a script on a LogWriter over the built module; return the audit's findings.

    Every scenario is played twice: moving units one by one, and as players mostly do,
    dragging a formation's stack whole whenever its units are the whole stack (`move_all`).
    """
    root, _, _ = built
    vmod = root / "generated" / SLUG / f"{SLUG}.vmod"

    def run(script) -> list:
        w = LogWriter(vmod)
        w.drag_stacks = request.param == "stack drags"
        script(w)
        path = tmp_path / "game.vlog"
        w.write(path)
        return list(audit_file(game, path).findings)
    return run


def rules(findings) -> list[str]:
    return [f.rule for f in findings if f.kind == "violation"]


def start(w: LogWriter, phase: str = "Activations", chits=("chit-15pz#1", "chit-7a"), turn: int = 1) -> None:
    w.turn(turn, "Chits into the mug")
    for chit in chits:
        w.move(chit, "Mug")
    w.turn(turn, phase)


def move_all(w: LogWriter, formation: str, *hexes: str, skip=()) -> None:
    """The formation's units (less `skip`) to each hex in turn: one drag of their stack when they
    are the whole stack and the play drags stacks, else one unit at a time."""
    units = [u for u in FORMATION_UNITS[formation] if u not in skip]
    for h in hexes:
        w.move_units(units, h, whole_stacks=getattr(w, "drag_stacks", False))


def test_a_chit_draw_and_a_legal_road_move(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0606")  # two road hexsides: 1 MP
    assert rules(play(script)) == []


def test_4_chits_fill_the_activation_track_from_the_turns_box(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 9")
    assert rules(play(script)) == ["4"]


def test_5_2_units_move_only_after_their_chit(play):
    def script(w):
        start(w)
        w.move("15pz-8pz-1", "0607")
    assert rules(play(script)) == ["5.2"]


def test_5_2_1_only_the_drawn_division_moves(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        w.move("21pz-5pz-1", "0509")
    assert rules(play(script)) == ["5.2.1"]


def test_6_2_cost_beyond_the_movement_allowance(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        w.move("15pz-8pz-1", "0508")  # desert: 2 MP
        w.move("15pz-8pz-1", "0408")  # desert: 4 MP > 3
    found = [f for f in play(script) if f.kind == "violation"]
    assert [f.rule for f in found] == ["6.2"]
    assert "cost 4 MP via 0608-0508-0408 > MA 3" in found[0].message


def test_6_1_4_no_crossing_of_a_cliff(play):
    def script(w):
        start(w)
        w.move("chit-7a", "Activation 8")
        w.move("7a-7h", "0605")  # the southern Sidi Rezegh escarpment, no road or track
    assert rules(play(script)) == ["6.1.4"]


def test_6_7_garrisons_never_move(play):
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        w.move("sollum-ob300", "0412")
    assert rules(play(script)) == ["6.7"]


def test_3_setup_adjustments_are_checked_against_the_card(play):
    def script(w):
        w.move("7a-7h", "0506")  # before play starts: an adjustment, left off its hex
        start(w)
    found = [f for f in play(script) if f.kind == "violation"]
    assert [f.rule for f in found] == ["3"] and found[0].to_hex == "0506"


def test_undone_moves_are_never_made(play):
    def script(w):
        start(w)
        w.move("15pz-8pz-1", "0607")  # illegal (no chit) ...
        w.undo()  # ... and taken back
    assert rules(play(script)) == []


def ari_attacks_22a(w: LogWriter, axis_dice=(6, 2, 3), cw_dice=(6, 6, 1)) -> None:
    """Ariete (3 x C) moves along the track into 22nd Armoured (3 x B armor) at 0404 and fights a round."""
    start(w, chits=("chit-ari", "chit-22a"))
    w.move("chit-ari", "Activation 8")
    move_all(w, "ARI", "0404")
    w.roll("Axis dice", list(axis_dice), "Axis")
    w.roll("Commonwealth dice", list(cw_dice), "Commonwealth")


def test_7_combat_round_damage_and_retreat_by_the_book(play):
    def script(w):
        ari_attacks_22a(w)  # Axis 1 hit (a 6), Commonwealth 2 hits
        w.flip("ari-132tk")
        w.flip("ari-8bers")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0403")  # damaged: may retreat, back where it came from
    assert rules(play(script)) == []


def test_6_4_entering_an_enemy_hex_ends_movement(play):
    def script(w):
        start(w, chits=("chit-ari",))
        w.move("chit-ari", "Activation 8")
        move_all(w, "ARI", "0404")
        w.move("ari-132tk", "0304")
    assert rules(play(script)) == ["6.4"]


def test_7_1_1_one_die_per_combat_strength_point(play):
    def script(w):
        ari_attacks_22a(w, axis_dice=(6, 2))  # Ariete has strength 3
        w.flip("ari-132tk")
        w.flip("ari-8bers")
        w.flip("22a-2rgh")
    found = [f for f in play(script) if f.kind == "violation"]
    assert [f.rule for f in found] == ["7.1.1"]
    assert "Axis rolled 2 dice in 0404; Combat Strength 3 gives 3" in found[0].message


def test_7_2_3_damage_equals_the_enemy_hits(play):
    def script(w):
        ari_attacks_22a(w)
        w.flip("ari-132tk")  # only 1 of the 2 hits taken
        w.flip("22a-2rgh")
        w.roll("Axis dice", [1, 1], "Axis")  # next round (strength 2.5): the first round closes
        w.roll("Commonwealth dice", [1, 1], "Commonwealth")
    assert rules(play(script)) == ["7.2.3"]


def test_7_3_3_no_retreat_without_damage(play):
    def script(w):
        ari_attacks_22a(w, axis_dice=(1, 2, 3), cw_dice=(6, 1, 1))
        w.flip("ari-132tk")
        for u in ("22a-2rgh", "22a-3cly", "22a-4cly"):
            w.move(u, "0405")  # the Commonwealth took no damage
    assert rules(play(script)) == ["7.3.3"]


def test_7_4_tank_recovery_needs_a_success(play):
    def legal(w):
        ari_attacks_22a(w, axis_dice=(6, 1, 1), cw_dice=(6, 1, 1))
        w.flip("ari-132tk")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0403")  # Axis retreats; the Commonwealth stays and may recover
        w.roll("Commonwealth dice", [6], "Commonwealth")  # 7.4.3: a 6 recovers
        w.flip("22a-2rgh")

    def illegal(w):
        ari_attacks_22a(w, axis_dice=(6, 1, 1), cw_dice=(6, 1, 1))
        w.flip("ari-132tk")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0403")
        w.roll("Commonwealth dice", [5], "Commonwealth")  # a 5 is not enough for British armor
        w.flip("22a-2rgh")
    assert rules(play(legal)) == []
    assert rules(play(illegal)) == ["7.4"]


def test_7_4_2_an_eliminated_armor_unit_comes_back_by_tank_recovery(play):
    def script(w, recovery_dice):
        ari_attacks_22a(w, axis_dice=(6, 6, 6), cw_dice=(6, 1, 1))
        for u in ("22a-2rgh", "22a-3cly", "22a-4cly", "ari-132tk"):
            w.flip(u)
        w.roll("Axis dice", [6, 1], "Axis")  # round 2
        w.roll("Commonwealth dice", [1], "Commonwealth")
        w.move("22a-2rgh", "Commonwealth eliminated")
        move_all(w, "ARI", "0403")  # Ariete retreats; 22nd Armoured stays and may recover
        w.roll("Commonwealth dice", recovery_dice, "Commonwealth")  # one die per damaged armor unit
        w.move("22a-2rgh", "0404")  # back into the hex at reduced strength (7.4.2, 7.4.3)
    assert rules(play(lambda w: script(w, [6, 1, 1]))) == []
    assert rules(play(lambda w: script(w, [5, 1, 1]))) == ["7.4.2"]  # British armor recovers on a 6 only


def test_a_flip_made_by_mistake_and_flipped_back_costs_nothing(play):
    def script(w):
        start(w)
        w.flip("15pz-8pz-1")  # Ctrl+F on the wrong counter, no combat anywhere near
        w.flip("15pz-8pz-1")  # and back: no replacement point, no recovery needed (11.1, 7.4)
    assert rules(play(script)) == []


def test_6_6_italian_infantry_moves_only_with_a_german_stack(play):
    def legal(w):
        start(w, chits=("chit-90lt", "chit-dak#1"))
        w.move("chit-90lt", "Activation 8")
        move_all(w, "90LT", "0704")  # into Pavia's hex
        w.move("chit-dak#1", "Activation 7")  # DAK: any one German division
        move_all(w, "90LT", "0605")
        move_all(w, "PAV", "0605")  # road hexside: 1/2 MP of Pavia's 1

    def illegal(w):
        start(w, chits=("chit-15pz#1",))
        w.move("chit-15pz#1", "Activation 8")
        w.move("pav-27inf", "0605")  # 15PZ is not in Pavia's hex
    assert rules(play(legal)) == []
    assert rules(play(illegal)) == ["6.6"]


def test_6_6_italians_pulled_out_with_the_germans_then_dragged_on_with_them(play, game):
    """Issue 31: the German stack and Pavia leave their shared hex piece by piece, then go on as
    one drag along the road (1/2 MP a hexside: Pavia's 1 MP holds): legal however the stack moves."""
    from builder.geometry.hexmap import hexside_key

    on = next(n for n in sorted(game.geometry.neighbours("0605"))
              if n != "0704" and "road" in game.hexside_features.get(hexside_key("0605", n), ()))

    def script(w):
        start(w, chits=("chit-90lt", "chit-dak#1"))
        w.move("chit-90lt", "Activation 8")
        move_all(w, "90LT", "0704")  # into Pavia's hex
        w.move("chit-dak#1", "Activation 7")  # DAK: any one German division
        for unit in FORMATION_UNITS["90LT"] + FORMATION_UNITS["PAV"]:
            w.move(unit, "0605")  # out of the shared hex one by one
        w.move_units(FORMATION_UNITS["90LT"] + FORMATION_UNITS["PAV"], on, whole_stacks=True)  # on as one drag
    assert rules(play(script)) == []


def test_10_1_rommel_directive_from_turn_4(play):
    def script(w):
        start(w, chits=("chit-dak#1",))
        w.move("chit-dak#1", "Activation 8")
        w.move("rommel", "Activation 8")
    assert rules(play(script)) == ["10.1"]


def test_11_replacements_and_5_1_4(play):
    def script(w):
        ari_attacks_22a(w, axis_dice=(6, 1, 1), cw_dice=(6, 1, 1))
        w.flip("ari-132tk")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0403")
        w.move("chit-ari", "Axis chits")  # rule 4: chits go back to their owners
        w.move("chit-22a", "Commonwealth chits")
        w.turn(2, "Replacements")
        w.flip("22a-2rgh")  # 11.1: one replacement point brings it back to full strength
        w.turn(2, "Chits into the mug")
        w.move("chit-22a", "Mug")
        w.turn(2, "Activations")
        w.move("chit-22a", "Activation 9")  # 11.4 / 5.1.4: not this turn
    assert rules(play(script)) == ["5.1.4"]


def test_11_1_replacements_only_from_turn_2(play):
    def script(w):
        ari_attacks_22a(w, axis_dice=(6, 1, 1), cw_dice=(6, 1, 1))
        w.flip("ari-132tk")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0403")
        w.turn(1, "End of turn")
        w.turn(1, "Replacements")  # going back to the phase: still turn 1
        w.flip("22a-2rgh")
    assert rules(play(script)) == ["11.1"]


def test_12_1_control_follows_the_units_and_13_1_1_1(play):
    def legal(w):
        start(w, chits=("chit-21pz#1",))
        w.move("chit-21pz#1", "Activation 8")
        move_all(w, "21PZ", "0511")  # into Sidi Azeiz (Commonwealth control, empty)
        w.flip("control@0511")

    def illegal(w):
        start(w)
        w.flip("control@0904")  # Tobruk to the Axis with 70D inside
    assert rules(play(legal)) == []
    found = play(illegal)
    assert [f.rule for f in found if f.kind == "violation"] == ["12.1"]
    assert [f.rule for f in found if f.kind == "event"] == ["13.1.1.1"]


def events(findings) -> list[str]:
    return [f.rule for f in findings if f.kind == "event"]


def test_13_1_2_2_relief_of_the_west(play):
    def script(w):
        for u in ("2sa-3bde", "2sa-4bde", "2sa-6bde"):
            w.move(u, "0901")  # set-up adjustments (rule 3 findings), then play starts
        start(w)
    assert events(play(script)) == ["13.1.2.2"]


def test_13_1_1_3_breakthrough_needs_a_line_clear_of_enemy_markers(play):
    def blocked(w):
        for u in FORMATION_UNITS["15PZ"]:
            w.move(u, "0314")
        start(w)

    def open_road(w):
        for u in FORMATION_UNITS["15PZ"]:
            w.move(u, "0314")
        w.flip("control@0412")  # Fort Capuzzo no longer blocks the coast road
        start(w)
    assert events(play(blocked)) == []
    assert events(play(open_road)) == ["13.1.1.3"]


def test_8_1_5_a_german_stack_under_a_combined_attack_marker_stays(play):
    def script(w, leave: bool):
        start(w, chits=("chit-15pz#1", "chit-15pz#2"))
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0606", "0605", "0704", "0805", "0904")  # 3 MP into Tobruk
        w.move("combined-attack#1", "0904")  # 8.1.2: declared; the activation ends
        w.move("chit-15pz#2", "Activation 7")
        if leave:
            w.move("15pz-8pz-1", "0805")
    assert rules(play(lambda w: script(w, False))) == []
    assert rules(play(lambda w: script(w, True))) == ["8.1.5"]


def test_7_2_1_half_the_damage_on_the_highest_strength_level(play):
    def script(w, on_armor: bool):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0606", "0605", "0704", "0805", "0904")  # into Tobruk, a fort
        w.roll("Axis dice", [1, 1, 1, 1], "Axis")
        w.roll("Commonwealth dice", [5, 5, 1, 1, 1, 1, 1], "Commonwealth")  # 9.4: hits on 5+
        w.flip("15pz-8pz-1" if on_armor else "15pz-33ar")  # the A armor must take one of the 2
        w.flip("15pz-115sr")
        move_all(w, "15PZ", "0805")  # 9.2: one round, then the attackers retreat
    assert rules(play(lambda w: script(w, True))) == []
    assert rules(play(lambda w: script(w, False))) == ["7.2.1"]


def test_7_2_2_full_units_are_reduced_before_any_is_eliminated(play):
    def script(w, by_the_book: bool):
        ari_attacks_22a(w, axis_dice=(1, 1, 1), cw_dice=(6, 6, 6))
        w.flip("ari-132tk")
        if by_the_book:
            w.flip("ari-8bers")
            w.flip("ari-132ar")
        else:
            w.move("ari-132tk", "Axis eliminated")  # a reduced unit eliminated while two are full
            w.flip("ari-8bers")
        move_all(w, "ARI", "0403", skip=("ari-132tk",))
    assert rules(play(lambda w: script(w, True))) == []
    assert rules(play(lambda w: script(w, False))) == ["7.2.2"]


def test_7_3_5_no_retreat_into_enemy_units(play):
    def script(w):
        ari_attacks_22a(w)
        w.flip("ari-132tk")
        w.flip("ari-8bers")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0304")  # 1st South African Division is there
    assert rules(play(script)) == ["7.3.5"]


def test_11_2_returned_units_come_back_in_a_controlled_strategic_hex(play):
    def script(w, hex_id: str):
        ari_attacks_22a(w, axis_dice=(6, 6, 6), cw_dice=(1, 1, 1))
        for u in ("22a-2rgh", "22a-3cly", "22a-4cly"):
            w.flip(u)
        w.roll("Axis dice", [6, 1, 1], "Axis")  # round 2
        w.roll("Commonwealth dice", [1], "Commonwealth")
        w.move("22a-2rgh", "Commonwealth eliminated")
        for u in ("22a-3cly", "22a-4cly"):
            w.move(u, "0405")  # damaged: may retreat
        w.move("chit-ari", "Axis chits")
        w.move("chit-22a", "Commonwealth chits")
        w.turn(2, "Replacements")
        w.move("22a-2rgh", hex_id)  # one point: back at reduced strength
    assert rules(play(lambda w: script(w, "0308"))) == []  # Gabr Saleh, Commonwealth control
    assert rules(play(lambda w: script(w, "0403"))) == ["11.2"]  # Bir el Gubi is Axis


def test_10_1_1_the_rommel_directive_gives_ma_4(play):
    def script(w, rommel: bool):
        start(w, chits=("chit-dak#1",), turn=4)
        w.move("chit-dak#1", "Activation 11")
        if rommel:
            w.move("rommel", "Activation 11")
        w.move("15pz-8pz-1", "0508")
        w.move("15pz-8pz-1", "0408")  # 4 MP of desert
    assert rules(play(lambda w: script(w, True))) == []
    assert rules(play(lambda w: script(w, False))) == ["6.2"]


def test_7_3_5_attackers_go_back_where_they_came_from(play):
    def script(w):
        ari_attacks_22a(w)
        w.flip("ari-132tk")
        w.flip("ari-8bers")
        w.flip("22a-2rgh")
        move_all(w, "ARI", "0405")  # free of enemies, but Ariete came from 0403
    found = [f for f in play(script) if f.kind == "violation"]
    assert [f.rule for f in found] == ["7.3.5"] and "entered from (0403)" in found[0].message


def test_7_3_3_a_single_reduced_attacker_must_retreat(play):
    def script(w):
        ari_attacks_22a(w, axis_dice=(1, 1, 1), cw_dice=(6, 6, 6))
        for u in FORMATION_UNITS["ARI"]:
            w.flip(u)
        w.roll("Axis dice", [1], "Axis")  # round 2: strength 1.5
        w.roll("Commonwealth dice", [6, 6, 1], "Commonwealth")
        w.move("ari-132tk", "Axis eliminated")
        w.move("ari-8bers", "Axis eliminated")
        w.roll("Commonwealth dice", [1, 1, 1], "Commonwealth")  # round 3 with one reduced attacker left
    assert rules(play(script)) == ["7.3.3"]


def tri_joins_the_combined_attack(w) -> None:
    """Ariete declares a Combined Attack on 22nd Armoured; Trieste joins it (8.2.1)."""
    start(w, chits=("chit-ari", "chit-tri"))
    w.move("chit-ari", "Activation 8")
    move_all(w, "ARI", "0404")
    w.move("combined-attack#1", "0404")  # 8.1.2: the activation ends
    w.move("chit-tri", "Activation 7")
    for u in ("tri-65inf", "tri-66inf", "tri-9bers"):
        w.move(u, "0403")
        w.move(u, "0404")
    w.roll("Axis dice", [6, 1, 1, 1, 1, 1], "Axis")  # 8.2.2: Trieste 3 + Ariete 3
    w.roll("Commonwealth dice", [6, 1, 1], "Commonwealth")
    w.flip("ari-132tk")
    w.flip("22a-2rgh")


def test_8_2_4_a_combined_attack_lasts_a_round_per_attacking_stack(play):
    def legal(w):
        tri_joins_the_combined_attack(w)
        w.roll("Axis dice", [1, 1, 1, 1, 1], "Axis")  # round 2 (two stacks)
        w.roll("Commonwealth dice", [1, 1], "Commonwealth")
        for u in ("tri-65inf", "tri-66inf", "tri-9bers", "ari-132tk", "ari-8bers", "ari-132ar"):
            w.move(u, "0403")

    def illegal(w):
        tri_joins_the_combined_attack(w)
        for u in ("tri-65inf", "tri-66inf", "tri-9bers", "ari-132tk", "ari-8bers", "ari-132ar"):
            w.move(u, "0403")  # after one round only
    assert rules(play(legal)) == []
    assert rules(play(illegal)) == ["8.2.4"]


def test_8_4_combined_attacks_left_at_the_end_of_the_turn(play):
    def script(w, axis_dice):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0606", "0605", "0704", "0805", "0904")
        w.move("combined-attack#1", "0904")
        w.move("chit-7a", "Activation 7")  # 7A passes
        w.turn(1, "Combined attacks")
        w.roll("Axis dice", axis_dice, "Axis")  # 8.4.2: the first to declare attacks with all its units
        w.roll("Commonwealth dice", [1, 1, 1, 1, 1, 1, 1], "Commonwealth")
        move_all(w, "15PZ", "0805")  # 9.2: one round against a fort, then the attackers retreat
    assert rules(play(lambda w: script(w, [1, 1, 1, 1]))) == []
    assert rules(play(lambda w: script(w, [1, 1, 1]))) == ["7.1.1"]


def test_13_2_tactical_victory_after_turn_7(play):
    def tied(w):
        start(w, turn=7)
        w.turn(8, "Replacements")  # the set-up's control: 7 VP each (Tobruk counts 2)

    def axis_ahead(w):
        start(w, chits=("chit-21pz#1",), turn=7)
        w.move("chit-21pz#1", "Activation 14")
        for u in FORMATION_UNITS["21PZ"]:
            w.move(u, "0511")  # Sidi Azeiz, empty
        w.flip("control@0511")
        w.turn(8, "Replacements")
    found = [f for f in play(tied) if f.kind == "event"]
    assert [f.rule for f in found] == ["13.2"] and "tied (Axis 7 VP, Commonwealth 7 VP)" in found[0].message
    found = [f for f in play(axis_ahead) if f.kind == "event"]
    assert [f.rule for f in found] == ["13.2"] and "Axis tactical victory (Axis 8 VP, Commonwealth 6 VP)" in found[0].message


def gubi_falls(w, chits=("chit-22a", "chit-ari", "chit-15pz#1")) -> None:
    """22nd Armoured (3 x B armor) destroys Ariete (3 x C) in Bir el Gubi in three rounds."""
    start(w, chits=chits)
    w.move("chit-22a", "Activation 8")
    move_all(w, "22A", "0403")  # the track: 1 MP
    w.roll("Commonwealth dice", [6, 6, 6], "Commonwealth")
    w.roll("Axis dice", [6, 1, 1], "Axis")
    for u in FORMATION_UNITS["ARI"]:
        w.flip(u)
    w.flip("22a-2rgh")
    w.roll("Commonwealth dice", [6, 6], "Commonwealth")  # round 2: strength 2.5; 5+ on an all-reduced enemy
    w.roll("Axis dice", [1], "Axis")
    w.move("ari-132tk", "Axis eliminated")
    w.move("ari-8bers", "Axis eliminated")
    w.roll("Commonwealth dice", [6, 1], "Commonwealth")  # round 3: Ariete's 1/2 rolls no die
    w.move("ari-132ar", "Axis eliminated")


def test_12_1_4_the_side_left_controls_even_after_retreating(play):
    drawn = []

    def script(w, flip: bool):
        gubi_falls(w)
        move_all(w, "22A", "0404")  # damaged in round 1: it may retreat (7.3.3)
        if flip:
            w.flip("control@0403")
        w.move("chit-15pz#1", "Activation 7")  # the activation is over: a missing flip is reported here
        drawn.append(len(w.steps))
    assert rules(play(lambda w: script(w, True))) == []
    found = [f for f in play(lambda w: script(w, False)) if f.kind == "violation"]
    assert [f.rule for f in found] == ["12.1.4"]
    assert found[0].step == drawn[-1] and found[0].message == (
        "control of 0403 passes to Commonwealth (Axis was destroyed there, even though Commonwealth retreated); "
        "its Control Marker still shows Axis")


def gubi_both_retreat(w, cw_dice, first: str, flip: bool) -> None:
    """22nd Armoured attacks Ariete in Bir el Gubi; after one round both retreat, `first` first."""
    start(w, chits=("chit-22a", "chit-15pz#1"))
    w.move("chit-22a", "Activation 8")
    move_all(w, "22A", "0403")
    w.roll("Commonwealth dice", list(cw_dice), "Commonwealth")
    w.roll("Axis dice", [6, 1, 1], "Axis")
    for u in ["ari-132tk", "ari-8bers"][:sum(d >= 6 for d in cw_dice)]:
        w.flip(u)
    w.flip("22a-2rgh")
    retreats = {"Axis": lambda: move_all(w, "ARI", "0402"), "Commonwealth": lambda: move_all(w, "22A", "0404")}
    retreats[first]()  # 7.3.2: the smaller Combat Strength (the attacker if tied) retreats first
    retreats["Axis" if first == "Commonwealth" else "Commonwealth"]()
    if flip:
        w.flip("control@0403")
    w.move("chit-15pz#1", "Activation 7")


def test_12_1_2_both_retreat_the_last_to_go_controls(play):
    def legal(w):  # Ariete (2) is weaker than 22nd Armoured (2.5): it goes first
        gubi_both_retreat(w, (6, 6, 1), "Axis", flip=True)

    def wrong_flip(w):  # tied at 2.5: the attacker goes first, Ariete last keeps Bir el Gubi
        gubi_both_retreat(w, (6, 1, 1), "Commonwealth", flip=True)

    def no_flip(w):
        gubi_both_retreat(w, (6, 6, 1), "Axis", flip=False)
    assert rules(play(legal)) == []
    assert rules(play(wrong_flip)) == ["12.1.2"]
    assert rules(play(no_flip)) == ["12.1.2"]


def tobruk_both_destroyed(w, flip: bool) -> None:
    """15th Panzer (3 units) is destroyed attacking Tobruk; 70th Division, damaged, retreats
    but every hex around Tobruk holds Axis units (0903, 0804, 0805) or is sea: eliminated (7.3.5)."""
    start(w)
    w.move("chit-15pz#1", "Activation 8")
    move_all(w, "15PZ", "0607", "0606", "0605", "0704")
    move_all(w, "15PZ", "0805", "0904", skip=("15pz-8pz-2",))  # 8pz-2 dropped off with Pavia
    w.roll("Axis dice", [6, 1, 1], "Axis")  # 9.3: no modifier against the fort
    w.roll("Commonwealth dice", [5, 5, 5, 5, 5, 5, 1], "Commonwealth")  # 9.4: 5+ in the fort
    attackers = ("15pz-8pz-1", "15pz-115sr", "15pz-33ar")
    for u in attackers:
        w.flip(u)
    for u in attackers:
        w.move(u, "Axis eliminated")
    w.flip("70d-1rtr")  # 7.2.1: the B armor takes the hit
    for u in ("70d-14bde", "70d-16bde", "70d-23bde", "70d-polbde", "70d-2-13aus", "70d-1rtr", "70d-4rtr"):
        w.move(u, "Commonwealth eliminated")
    if flip:
        w.flip("control@0904")
    w.move("chit-7a", "Activation 7")


def test_12_1_3_both_destroyed_control_stays(play):
    assert rules(play(lambda w: tobruk_both_destroyed(w, flip=False))) == []
    found = play(lambda w: tobruk_both_destroyed(w, flip=True))
    assert rules(found) == ["12.1.3"]
    assert "both sides were destroyed there: it belongs to Commonwealth" in found[0].message


def test_12_1_5_a_combined_attack_leaves_control_as_it_was(play):
    def script(w, flip: bool):
        start(w, chits=("chit-22a", "chit-15pz#1"))
        w.move("chit-22a", "Activation 8")
        move_all(w, "22A", "0403")  # into Ariete at Bir el Gubi
        w.move("combined-attack#5", "0403")  # a Commonwealth Combined Attack Marker (8.1.2)
        if flip:
            w.flip("control@0403")
        w.move("chit-15pz#1", "Activation 7")
    assert rules(play(lambda w: script(w, False))) == []
    assert rules(play(lambda w: script(w, True))) == ["12.1.5"]


def test_5_1_3_a_destroyed_division_has_no_chit_in_the_mug(play):
    def script(w, chits):
        gubi_falls(w, chits=("chit-22a", "chit-ari"))
        w.flip("control@0403")  # 12.1.4
        w.move("chit-ari", "Axis chits")  # rule 4: chits go back to their owners
        w.move("chit-22a", "Commonwealth chits")
        w.turn(2, "Chits into the mug")
        for chit in chits:
            w.move(chit, "Mug")
        w.turn(2, "Activations")
        w.move(chits[-1], "Activation 9")
    assert rules(play(lambda w: script(w, ("chit-22a",)))) == []
    assert rules(play(lambda w: script(w, ("chit-22a", "chit-ari")))) == ["5.1.3"]


def test_5_1_6_the_chit_of_a_division_destroyed_this_turn_is_placed_normally(play):
    def script(w, on_the_track: bool):
        gubi_falls(w)
        w.flip("control@0403")  # 12.1.4: 22nd Armoured stays in Bir el Gubi
        w.move("chit-ari", "Activation 7" if on_the_track else "Axis chits")  # Ariete has no units left
        w.move("chit-15pz#1", "Activation 6" if on_the_track else "Activation 7")
        move_all(w, "15PZ", "0607")
    assert rules(play(lambda w: script(w, True))) == []
    assert rules(play(lambda w: script(w, False))) == ["5.1.6"]


def test_6_4_all_armor_may_go_on_through_reduced_infantry(play):
    def script(w, chit: str, formation: str, path):
        start(w, chits=("chit-22a",))
        w.move("chit-22a", "Activation 8")  # 22nd Armoured leaves Ariete's two infantry reduced
        move_all(w, "22A", "0403")
        w.roll("Commonwealth dice", [6, 6, 6], "Commonwealth")
        w.roll("Axis dice", [6, 1, 1], "Axis")
        for u in FORMATION_UNITS["ARI"]:
            w.flip(u)
        w.flip("22a-2rgh")
        w.roll("Commonwealth dice", [6, 1], "Commonwealth")
        w.roll("Axis dice", [1], "Axis")
        w.move("ari-132tk", "Axis eliminated")
        move_all(w, "22A", "0404")  # damaged: it may retreat
        w.move("chit-22a", "Commonwealth chits")
        w.turn(2, "Chits into the mug")
        w.move(chit, "Mug")
        w.turn(2, "Activations")
        w.move(chit, "Activation 9")
        move_all(w, formation, *path)
    assert rules(play(lambda w: script(w, "chit-22a", "22A", ("0403", "0402")))) == []  # all armor
    infantry = rules(play(lambda w: script(w, "chit-1sa", "1SA", ("0404", "0403", "0402"))))
    assert infantry == ["6.4", "6.4"]  # each 1st South African brigade that went on


def test_6_5_combat_without_moving(play):
    def script(w, chit: str, cw_dice):
        start(w, chits=("chit-ari", "chit-22a", "chit-7a"))
        w.move("chit-ari", "Activation 8")
        move_all(w, "ARI", "0404")
        w.move("combined-attack#1", "0404")  # 8.1.2: declared; the activation ends
        w.move(chit, "Activation 7")  # 22nd Armoured attacks where it stands (6.5)
        w.roll("Commonwealth dice", list(cw_dice), "Commonwealth")
        w.roll("Axis dice", [1, 1, 1], "Axis")  # 8.2.3: all of Ariete defends
        if chit == "chit-22a":
            w.flip("ari-132tk")  # the 6 hits
    assert rules(play(lambda w: script(w, "chit-22a", (6, 1, 1)))) == []
    assert rules(play(lambda w: script(w, "chit-22a", (6, 1)))) == ["7.1.1"]  # the combat is audited
    assert rules(play(lambda w: script(w, "chit-7a", (6, 1, 1, 1)))) == ["6.5"]  # 7th Armoured has no enemy


def test_6_a_stack_may_double_back_and_go_on(play):
    """Rule 6 forbids dividing the stack, not going back over a hex: 0608-0607-0608-0607-0606 is
    four road hexsides (2 MP), one stack all the way."""
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0608", "0607", "0606")
    assert rules(play(script)) == []


def test_6_2_a_doubled_back_trail_is_charged_hexside_by_hexside(play):
    """Each unit's place on the trail is kept: seven road hexsides to and fro are 3.5 MP > MA 3."""
    def script(w):
        start(w)
        w.move("chit-15pz#1", "Activation 8")
        move_all(w, "15PZ", "0607", "0608", "0607", "0608", "0607", "0608", "0607")
    found = [f for f in play(script) if f.kind == "violation"]
    assert found and {f.rule for f in found} == {"6.2"}
    assert "cost 3.5 MP via 0608-0607-0608-0607-0608-0607-0608-0607 > MA 3" in found[0].message
