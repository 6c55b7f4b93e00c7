"""A legal three-turn game, and the same game with 16 illegal moves of different kinds planted.

The legal game must give no violation; the planted one must give each planted move, with its
rule number, and nothing else (issue 4 acceptance).
"""
from __future__ import annotations

from tests.conftest import SLUG
from tests.rules.test_bravery_rules import move_all
from validators.audit import audit_file
from validators.replay.writer import LogWriter


class Game:
    """The script, with planted moves switched on or off; `planted` lists (step, rule)."""

    def __init__(self, w: LogWriter, plant: bool, drag: bool = False):
        self.w, self.plant, self.planted = w, plant, []
        w.drag_stacks = drag  # whole stacks dragged where a formation is its whole stack

    def illegal(self, rule: str, action) -> None:
        if self.plant:
            action()
            self.planted.append((self.w_steps(), rule))

    def w_steps(self) -> int:
        return len(self.w.steps)

    def move_all(self, formation: str, *hexes: str, skip=()) -> None:
        move_all(self.w, formation, *hexes, skip=skip)


def turn_1(g: Game) -> None:
    w = g.w
    if g.plant:  # an adjustment left off the set-up card: found when play starts
        w.move("2sa-6bde", "0112")
    w.turn(1, "Chits into the mug")
    if g.plant:
        g.planted.append((g.w_steps(), "3"))
    for chit in ("chit-ari", "chit-22a", "chit-15pz#1", "chit-7a", "chit-90lt", "chit-4a"):
        w.move(chit, "Mug")
    g.illegal("5.2", lambda: w.move("2nz-6bde", "0309"))  # no chit drawn yet
    w.turn(1, "Activations")
    # Ariete attacks 22nd Armoured at 0404 (7.1): 3 dice each, a 6 hits.
    w.move("chit-ari", "Activation 8")
    g.move_all("ARI", "0404")
    w.roll("Axis dice", [6, 2] if g.plant else [6, 2, 3], "Axis")
    if g.plant:
        g.planted.append((g.w_steps(), "7.1.1"))
    w.roll("Commonwealth dice", [6, 6, 1], "Commonwealth")
    w.flip("ari-132tk")
    w.flip("ari-8bers")
    w.flip("22a-2rgh")
    g.move_all("ARI", "0403")  # 7.3: damaged, back to where it came from
    w.roll("Commonwealth dice", [3], "Commonwealth")  # 7.4.3: tank recovery fails
    w.move("chit-22a", "Activation 7")  # 22A passes
    w.move("chit-15pz#1", "Activation 6")
    g.move_all("15PZ", "0607", "0606")  # road: 1 MP
    g.illegal("6.7", lambda: w.move("sollum-ob300", "0412"))
    g.illegal("5.2.1", lambda: w.move("21pz-155ar", "0509"))
    g.illegal("6.6", lambda: w.move("bre-19inf", "0802"))
    w.move("chit-7a", "Activation 5")
    g.move_all("7A", "0506", skip=("7a-7sg",))
    if g.plant:
        g.illegal("6", lambda: w.move("7a-7sg", "0504"))  # the stack cannot divide
    else:
        w.move("7a-7sg", "0506")
    w.move("chit-90lt", "Activation 4")
    g.move_all("90LT", "0704")
    w.move("chit-4a", "Activation 3")
    g.illegal("6.2", lambda: (w.move("4a-5rtr", "0208"), w.move("4a-5rtr", "0108")))
    for chit in ("chit-ari", "chit-15pz#1", "chit-90lt"):
        w.move(chit, "Axis chits")
    for chit in ("chit-22a", "chit-7a", "chit-4a"):
        w.move(chit, "Commonwealth chits")
    g.illegal("12.1", lambda: w.flip("control@0308"))  # Gabr Saleh to the Axis, 4A still there


def turn_2(g: Game) -> None:
    w = g.w
    w.turn(2, "Replacements")
    w.flip("22a-2rgh")  # 11.1: one point
    g.illegal("11.1", lambda: w.flip("ari-132tk"))  # the Axis has no replacements
    w.turn(2, "Chits into the mug")
    chits = ["chit-dak#1", "chit-7a", "chit-15pz#1", "chit-4a"] + (["chit-22a"] if g.plant else [])
    for chit in chits:
        w.move(chit, "Mug")
    w.turn(2, "Activations")
    if g.plant:
        g.illegal("5.1.4", lambda: w.move("chit-22a", "Activation 9"))  # 22A was replaced this turn
    else:
        w.move("chit-4a", "Activation 9")
    w.move("chit-dak#1", "Activation 8")
    g.illegal("10.1", lambda: w.move("rommel", "Activation 8"))  # not before turn 4
    g.move_all("15PZ", "0605", "0604")  # road 1/2 + track 1
    w.move("chit-7a", "Activation 7")
    w.move("chit-15pz#1", "Activation 6")
    for chit in ("chit-dak#1", "chit-15pz#1"):
        w.move(chit, "Axis chits")
    for chit in ("chit-7a", "chit-4a") + (("chit-22a",) if g.plant else ()):
        w.move(chit, "Commonwealth chits")
    if g.plant:
        w.move("rommel", "Markers")


def turn_3(g: Game) -> None:
    w = g.w
    w.turn(3, "Chits into the mug")
    for chit in ("chit-90lt", "chit-22a", "chit-ari"):
        w.move(chit, "Mug")
    w.turn(3, "Activations")
    # 90th Light attacks Tobruk, a fort the Commonwealth controls: one round (9.2), defender +1 (9.4).
    w.move("chit-90lt", "Activation 10")
    g.move_all("90LT", "0805", "0904")
    w.roll("Axis dice", [6, 1, 1], "Axis")
    w.roll("Commonwealth dice", [5, 1, 1, 1, 1, 1, 1], "Commonwealth")  # 5 hits in the fort
    w.flip("90lt-155ir")
    w.flip("70d-1rtr")  # 7.2.1: the highest level (B armor) takes it
    if g.plant:  # a second round: found at its first roll
        w.roll("Axis dice", [1, 1], "Axis")
        g.planted.append((g.w_steps(), "9.2"))
        w.roll("Commonwealth dice", [1, 1, 1, 1, 1, 1], "Commonwealth")
    g.move_all("90LT", "0805")  # 9.2: the attackers must retreat
    # 22nd Armoured attacks Ariete at 0403 along the track.
    w.move("chit-22a", "Activation 9")
    g.move_all("22A", "0403")
    w.roll("Commonwealth dice", [6, 6, 1], "Commonwealth")
    w.roll("Axis dice", [6, 1], "Axis")
    w.flip("ari-132ar")
    if g.plant:
        w.flip("ari-132tk")  # back at full strength after the planted 11.1: reduce it first (7.2.2)
        # The Commonwealth takes none of its hit and retreats undamaged: both found when it retreats.
        w.move("22a-2rgh", "0404")
        g.planted += [(g.w_steps(), "7.2.3"), (g.w_steps(), "7.3.3")]
        w.move("22a-3cly", "0404")
        w.move("22a-4cly", "0404")
    else:
        w.move("ari-8bers", "Axis eliminated")
        w.flip("22a-3cly")
        g.move_all("ARI", "0402", skip=("ari-8bers",))  # damaged: may retreat
        w.roll("Commonwealth dice", [6], "Commonwealth")  # 7.4.3: recovery on a 6
        w.flip("22a-3cly")
        w.flip("control@0403")  # 12.1: Ariete retreated, 22nd Armoured holds Bir el Gubi
    w.move("chit-ari", "Activation 5" if g.plant else "Activation 8")
    if g.plant:
        g.planted.append((g.w_steps(), "4"))


def play(built, tmp_path, plant: bool, drag: bool = False):
    root, _, _ = built
    w = LogWriter(root / "generated" / SLUG / f"{SLUG}.vmod")
    g = Game(w, plant, drag)
    for turn in (turn_1, turn_2, turn_3):
        turn(g)
    path = tmp_path / ("planted.vlog" if plant else "legal.vlog")
    w.write(path)
    return g, path


def test_the_legal_game_has_no_violation(built, game, tmp_path, drag):
    _, path = play(built, tmp_path, plant=False, drag=drag)
    report = audit_file(game, path)
    assert [(f.step, f.rule, f.message) for f in report.violations] == []
    assert report.summary.last_turn == 3 and report.summary.steps > (80 if drag else 100)  # a drag is one step


def test_every_planted_move_is_found_and_nothing_else(built, game, tmp_path, drag):
    g, path = play(built, tmp_path, plant=True, drag=drag)
    report = audit_file(game, path)
    kinds = {rule for _, rule in g.planted}
    assert len(g.planted) >= 15 and len(kinds) >= 15
    found = sorted((f.step, f.rule) for f in report.violations)
    assert found == sorted(g.planted), [(f.step, f.rule, f.message) for f in report.violations]
