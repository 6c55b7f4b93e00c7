"""Western Desert Force on the rules kernel: every rule of the package, run alone over the planted
full game (test_wdf_full_game.py), finds exactly what it finds in the whole audit."""
from __future__ import annotations

import pytest

from tests.rules.test_wdf_full_game import play
from tests.rules.kernel_checks import whole_and_parts

SLUG = "western-desert-force"


@pytest.fixture(scope="module")
def planted(wdf_module, tmp_path_factory):
    game, _ = wdf_module
    tmp = tmp_path_factory.mktemp("wdf-kernel")
    play(wdf_module, tmp, plant=True)
    return game, tmp / "planted.vlog"


def test_every_rule_runs_alone_and_finds_what_it_finds_in_the_whole(planted):
    game, path = planted
    whole, parts = whole_and_parts(SLUG, game, path)
    assert sum(whole.values()) >= 25
    assert parts == whole  # no rule needs another to find what it finds, and none finds more alone
