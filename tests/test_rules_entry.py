"""Games name their rules package in game.yaml (`rules:`); `rules_for` finds it there (issue 16)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

import builder.paths
from builder.model import load_game
from validators.games import NoRules, auditable, rules_for, rules_package

ROOT = Path(__file__).resolve().parent.parent
REAL = {"bravery-in-the-sand": "validators.games.bravery_in_the_sand",
        "western-desert-force": "validators.games.western_desert_force",
        "tobrouk-41-42": "validators.games.tobrouk_41_42",
        "slouch-hats-and-eggshells": "validators.games.slouch_hats_and_eggshells",
        "desert-fox-deluxe": "validators.games.desert_fox_deluxe"}


def test_every_audited_game_declares_its_package():
    assert auditable() == REAL
    for slug, package in REAL.items():
        assert rules_for(slug) is sys.modules[package].Auditor


def test_the_loaded_game_carries_the_entry():
    game = load_game(ROOT / "sources" / "western-desert-force")
    assert game.info.rules == REAL["western-desert-force"]
    assert rules_for(game) is rules_for("western-desert-force")


def _copy(tmp_path: Path, slug: str, new: str, rules_line: str | None) -> Path:
    game_yaml = shutil.copytree(ROOT / "sources" / slug, tmp_path / "sources" / new) / "game.yaml"
    lines = [l for l in game_yaml.read_text(encoding="utf-8").splitlines(keepends=True) if not l.startswith("rules:")]
    if rules_line is not None:
        lines.append(rules_line + "\n")
    game_yaml.write_text("".join(lines), encoding="utf-8")
    return game_yaml.parent


def test_a_game_in_another_folder_is_found_by_its_entry(tmp_path, monkeypatch):
    """No registry: a game of any slug naming a package is auditable, one without is not."""
    _copy(tmp_path, "bravery-in-the-sand", "my-own-game", "rules: validators.games.bravery_in_the_sand")
    _copy(tmp_path, "bravery-in-the-sand", "no-rules-yet", None)
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    assert auditable() == {"my-own-game": "validators.games.bravery_in_the_sand"}
    assert rules_for("my-own-game").__module__.startswith("validators.games.bravery_in_the_sand")
    with pytest.raises(NoRules, match=r"^no-rules-yet: no rules module, .*games that can be audited: my-own-game$"):
        rules_for("no-rules-yet")
    assert rules_package("not-a-game") is None
    loaded = load_game(tmp_path / "sources" / "no-rules-yet")  # it still loads (and so builds)
    assert loaded.info.rules is None
    with pytest.raises(NoRules):
        rules_for(loaded)


def test_a_package_that_is_not_there_is_one_line(tmp_path, monkeypatch):
    _copy(tmp_path, "bravery-in-the-sand", "typo", "rules: validators.games.bravery_in_the_snad")
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    with pytest.raises(NoRules, match=r"^typo: rules package 'validators.games.bravery_in_the_snad' .* not installed$"):
        rules_for("typo")


def test_a_package_without_an_auditor_is_refused(tmp_path, monkeypatch):
    _copy(tmp_path, "bravery-in-the-sand", "bare", "rules: validators.kernel")
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    with pytest.raises(NoRules, match="has no Auditor class"):
        rules_for("bare")


def test_the_entry_must_be_a_module_path(tmp_path):
    from builder.model import SourceError

    root = _copy(tmp_path, "bravery-in-the-sand", "bad", "rules: ../evil.py")
    with pytest.raises(SourceError) as exc:
        load_game(root)
    assert any(p.file.endswith("game.yaml") and "rules" in str(p) for p in exc.value.problems)
