"""`hexforge new`: the starter game checks, builds and is audited by the generic rules; `--from`
copies a game; an existing slug is refused (issue 16)."""
from __future__ import annotations

import re
import shutil

from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.model import load_game
from builder.model.json_schema import schema_line
from builder.new_game import starter_files
from tests.conftest import SLUG, copy_sources
from validators.cli import app
from validators.games import rules_for
from validators.kernel.movement import Blocked, TerrainCosts
from validators.replay.writer import LogWriter

runner = CliRunner()
PLAYERS = {"Blue": ("blue-user", "Alice"), "Red": ("red-user", "Bob")}


def hexforge(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """(root, game, vmod) of `hexforge new demo` then `hexforge build demo` in a scratch root."""
    root = tmp_path_factory.mktemp("new")
    mp = pytest.MonkeyPatch()
    mp.setattr(builder.paths, "ROOT", root)
    try:
        made = hexforge("new", "demo")
        assert made.exit_code == 0, made.stderr
        checked = hexforge("check", "demo")
        assert checked.exit_code == 0, checked.stderr
        assert "20 hexes, 6 units in 2 formations" in checked.stdout
        built = hexforge("build", "demo")
        assert built.exit_code == 0, built.stderr
    finally:
        mp.undo()
    vmod = root / "generated" / "demo" / "demo.vmod"
    assert vmod.is_file()
    return root, load_game(root / "sources" / "demo"), vmod


def audit(root: Path, log: Path):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", root)
        return hexforge("audit", "demo", str(log))


def violations(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("step ")]


def test_the_starter_is_small_and_complete(demo):
    _, game, _ = demo
    assert len(game.sides) == 2 and len(game.scenarios) == 1 and game.tables
    assert sorted(game.side_of_unit(u).id for u in game.units) == ["blue"] * 3 + ["red"] * 3
    assert game.info.rules == "validators.kernel.generic"
    assert rules_for(game).__module__ == "validators.kernel.generic"
    assert [r.__name__ for r in rules_for(game).RULES] == ["SequenceOfPlay", "Movement", "Stacking", "Combat"]
    for rel in starter_files("Demo"):
        first = (game.root / rel).read_text(encoding="utf-8").split("\n", 1)[0]
        assert first == schema_line(rel)


def game_log(demo, tmp_path, script, name: str = "game.vlog") -> list[str]:
    """The findings of `hexforge audit` on a log the script writes."""
    root, _, vmod = demo
    w = LogWriter(vmod, setup="meeting.vsav", players=PLAYERS)
    script(w)
    w.write(tmp_path / name)
    return violations(audit(root, tmp_path / name).stdout)


def test_a_legal_and_an_illegal_move(demo, tmp_path):
    def script(w):
        w.move("blue-armor", "0202")
        w.move("blue-armor", "0302")      # two road hexsides: 1 MP of its 3 - legal
        w.move("blue-infantry", "0203")   # the forest: 2 MP of 2 - legal
        w.move("blue-infantry", "0204")   # another forest hex: over its MA however it went
    found = game_log(demo, tmp_path, script)
    assert len(found) == 1, found  # costed by the cheapest way from where the unit began the phase
    assert "rule 2: Blue Infantry spends 3 MP via 0103-0104-0204, more than its MA of 2" in found[0]
    assert "0103 -> 0204" in found[0]


def test_the_forest_costs_each_class_its_own(demo, tmp_path):
    def script(w):
        w.move("blue-infantry", "0203")   # infantry: 2 MP of 2
        w.move("blue-armor", "0202")
        w.move("blue-armor", "0203")      # armor: 1/2 + 3 MP of 3
    found = game_log(demo, tmp_path, script)
    assert len(found) == 1 and "rule 2: Blue Armor spends 3 1/2 MP" in found[0], found


def test_the_allowance_starts_again_each_movement_phase_and_an_undone_move_costs_nothing(demo, tmp_path):
    def script(w):
        w.move("blue-infantry", "0202")
        w.move("blue-infantry", "0302")   # 2 MP: the whole MA
        w.turn(1, "Blue Combat")
        w.turn(1, "Red Movement")
        w.turn(1, "Red Combat")
        w.turn(2, "Blue Movement")
        w.move("blue-infantry", "0303")
        w.move("blue-infantry", "0403")   # 2 MP again in turn 2
        w.undo()
        w.move("blue-infantry", "0304")   # the undone move is left out: 0302-0303-0304 is 1 + 2 (forest) MP
    found = game_log(demo, tmp_path, script)
    assert len(found) == 1 and "rule 2: Blue Infantry spends 3 MP via 0302-0303-0304" in found[0], found


def test_a_prohibited_hex_cannot_be_entered(demo, tmp_path):
    _, game, _ = demo
    assert isinstance(TerrainCosts(game).step("0403", "0404", "infantry"), Blocked)  # the lake, next to 0403

    def script(w):
        w.turn(1, "Red Movement")
        w.move("red-infantry", "0403")
        w.move("red-infantry", "0404")
    found = game_log(demo, tmp_path, script, "lake.vlog")
    assert len(found) == 1 and "rule 2:" in found[0] and "lake cannot be entered" in found[0], found


def test_a_side_moves_in_its_own_movement_phase(demo, tmp_path):
    def script(w):
        w.move("red-infantry", "0403")    # Red in Blue's Movement Phase
        w.turn(1, "Blue Combat")
        w.move("blue-armor", "0202")      # a move in a Combat Phase, with no combat
        w.turn(1, "Blue Movement")        # the tracker goes back
    found = game_log(demo, tmp_path, script)
    assert [re.search(r"rule (\S+):", f).group(1) for f in found] == ["1"] * 3, found


def combat(w, retreat: str | None = "0503", die: int = 5, eliminate: str | None = None) -> None:
    """Blue's recon enters Red's zone of control at 0401 and attacks Red's armor in 0502: 1
    against 4, column 1-2; die 5: DR (die 1: AE); Red's armor retreats to `retreat`, or the unit
    `eliminate` is eliminated; then the Combat Phase ends."""
    w.move("blue-recon", "0301")
    w.move("blue-recon", "0401")          # 3 MP of 4: it stops in the zone of control
    w.turn(1, "Blue Combat")
    w.declare("blue-recon", "Declare attacker")
    w.declare("red-armor", "Declare defender")
    w.roll("Blue 1d6", [die], "Blue")
    if retreat:
        w.move("red-armor", retreat, side="Red")
    if eliminate:
        w.send(eliminate, "Eliminate")
    w.turn(1, "Red Movement")


def test_a_result_carried_out_as_it_demands_is_legal(demo, tmp_path):
    assert game_log(demo, tmp_path, lambda w: combat(w)) == []


def test_an_attacker_eliminated_on_ae_is_legal_and_one_left_standing_is_not(demo, tmp_path):
    assert game_log(demo, tmp_path, lambda w: combat(w, retreat=None, die=1, eliminate="blue-recon")) == []
    found = game_log(demo, tmp_path, lambda w: combat(w, retreat=None, die=1), "kept.vlog")
    assert len(found) == 1 and "rule 3: the result (1 against 4, column 1-2, die 1: AE) demands the attacker" in found[0]


def test_a_defender_eliminated_on_a_retreat_result_is_reported_at_the_elimination(demo, tmp_path):
    found = game_log(demo, tmp_path, lambda w: combat(w, retreat=None, eliminate="red-armor"))
    assert len(found) == 1 and "rule 3: Red Armor" in found[0] and "does not eliminate the defender" in found[0]


def test_a_result_not_carried_out_is_reported_once_when_the_phase_ends(demo, tmp_path):
    found = game_log(demo, tmp_path, lambda w: combat(w, retreat=None))
    assert len(found) == 1 and "rule 3: the result (1 against 4, column 1-2, die 5: DR) demands the defender" in found[0]
    assert "to retreat 1 hex" in found[0], found


def test_a_retreat_longer_than_the_result_gives_is_reported_at_the_retreat(demo, tmp_path):
    found = game_log(demo, tmp_path, lambda w: combat(w, retreat="0504"))
    assert len(found) == 1 and "rule 3: Red Armor" in found[0] and "retreats 2 hexes from 0502" in found[0], found


def test_an_attacker_not_next_to_the_defender_is_reported(demo, tmp_path):
    def script(w):
        w.turn(1, "Blue Combat")
        w.declare("blue-armor", "Declare attacker")
        w.declare("red-armor", "Declare defender")
        w.roll("Blue 1d6", [4], "Blue")
    found = game_log(demo, tmp_path, script)
    assert any("rule 3:" in f and "not next to" in f for f in found), found


def test_an_existing_slug_is_refused_and_nothing_changes(demo):
    root, _, _ = demo
    before = {p: p.read_bytes() for p in (root / "sources").rglob("*") if p.is_file()}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", root)
        for args, fragment in ((["new", "demo"], "sources/demo already exists"),
                               (["new", "Bad Slug"], "is not a game slug"),
                               (["new", "other", "--from", "nope"], "--from 'nope': no such game; games: demo")):
            result = hexforge(*args)
            assert result.exit_code == 2 and not result.stdout
            assert result.stderr.count("\n") == 1 and fragment in result.stderr, result.stderr
    assert {p: p.read_bytes() for p in (root / "sources").rglob("*") if p.is_file()} == before


def test_from_copies_a_game_with_its_rules(tmp_path, monkeypatch):
    copy_sources(tmp_path)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = hexforge("new", "my-crusader", "--from", SLUG)
    assert result.exit_code == 0, result.stderr
    src, dst = tmp_path / "sources" / SLUG, tmp_path / "sources" / "my-crusader"
    files = sorted(p.relative_to(src) for p in src.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(dst) for p in dst.rglob("*") if p.is_file())
    assert all((src / f).read_bytes() == (dst / f).read_bytes() for f in files)
    assert hexforge("check", "my-crusader").exit_code == 0
    assert rules_for("my-crusader") is rules_for(SLUG)


def test_the_tables_the_generic_rules_read_are_checked_against_the_other_files(demo, tmp_path):
    """A misspelt movement class, phase side, declaration or result would silently switch a rule
    off: check names each at its file:line."""
    root, _, _ = demo
    shutil.copytree(root / "sources" / "demo", tmp_path / "sources" / "bad")

    def swap(rel: str, old: str, new: str) -> None:
        path = tmp_path / "sources" / "bad" / rel
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        path.write_text(text.replace(old, new), encoding="utf-8")
    swap("terrain.yaml", "cost: {armor: 3,", "cost: {armour: 3,")
    swap("tables/sequence.yaml", "kind: movement, side: red,", "kind: movement, side: rde,")
    swap("tables/combat.yaml", "defender: Declare defender}", "defender: Declare defence}")
    swap("tables/combat.yaml", "DE: {defender: eliminated}", "DX: {defender: eliminated}")
    swap("tables/combat.yaml", "6: [DR, DE, DE, DE]", "6: [DR, DE, DE]")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", tmp_path)
        result = hexforge("check", "bad")
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("sources/bad/")]
    assert len(lines) == 5, result.stderr
    for fragment in ("terrain.yaml:7:", "no unit type has movement class 'armour' (hint: did you mean 'armor'?)",
                     "sequence.yaml:", "unknown side 'rde' (hint: did you mean 'red'?)",
                     "game.yaml declares no 'Declare defence'", "the row of 6 has 3 results for 4 columns",
                     "no result 'DX' in the table"):
        assert fragment in result.stderr, fragment


def test_a_game_without_the_tables_is_checked_for_what_it_has(demo, tmp_path):
    """A game an older `hexforge new` wrote has no sequence of play, movement table or combat
    declarations: the generic rules cost its moves per turn, under the rule name 'movement'."""
    root, _, _ = demo
    game_dir = tmp_path / "sources" / "old"
    shutil.copytree(root / "sources" / "demo", game_dir)
    for rel in ("tables/sequence.yaml", "tables/movement.yaml", "tables/stacking.yaml", "rules.yaml"):
        (game_dir / rel).unlink()
    text = (game_dir / "game.yaml").read_text(encoding="utf-8")
    for line in ("  - {name: Sequence of Play, table: sequence}\n", "  - {name: Movement, table: movement}\n",
                 "  - {name: Stacking, table: stacking}\n"):
        assert line in text
        text = text.replace(line, "")
    (game_dir / "game.yaml").write_text(text, encoding="utf-8")
    combat = (game_dir / "tables" / "combat.yaml").read_text(encoding="utf-8")
    (game_dir / "tables" / "combat.yaml").write_text(
        combat.replace("  declarations: {attacker: Declare attacker, defender: Declare defender}\n", ""), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(builder.paths, "ROOT", tmp_path)
        assert hexforge("check", "old").exit_code == 0
        built = hexforge("build", "old")
        assert built.exit_code == 0, built.stderr
        w = LogWriter(tmp_path / "generated" / "old" / "old.vmod", setup="meeting.vsav", players=PLAYERS)
        w.move("blue-armor", "0402")      # the road: 1 1/2 MP of 3
        w.move("blue-infantry", "0303")   # 2 MP of 2
        w.move("red-infantry", "0403")    # Red too: no phases to keep it out
        w.move("blue-infantry", "0304")   # the forest: 4 MP
        w.write(tmp_path / "old.vlog")
        result = hexforge("audit", "old", str(tmp_path / "old.vlog"))
    found = violations(result.stdout)
    assert len(found) == 1 and "rule movement: Blue Infantry spends 4 MP" in found[0], result.stdout
    assert "last turn 1" in result.stdout  # the game's first turn, not None


def test_a_stack_dragged_whole_is_costed_unit_by_unit(demo, tmp_path):
    """The engine logs a dragged stack as one step moving each piece: each unit pays its own
    class's cost from where it began the phase, and only the one over its MA is reported, at the
    drag; a unit pulled out of the stack then moves alone."""
    at = []

    def script(w):
        w.move("blue-infantry", "0102")   # joins the armor (1 MP of 2)
        w.move("blue-infantry", "0202", stack=True)   # the stack dragged whole: the road, 1/2 MP each
        w.move("blue-armor", "0203", stack=True)      # again, into the forest: infantry 2 of 2, armor 3 1/2 of 3
        at.append(len(w.steps))
        w.move("blue-recon", "0201")
    found = game_log(demo, tmp_path, script)
    assert len(found) == 1 and "rule 2: Blue Armor spends 3 1/2 MP" in found[0], found
    assert found[0].startswith(f"step {at[0]} "), found
