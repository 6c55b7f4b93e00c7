"""The turn tracker in a scenario's saved setup (builder/vassal/setup.py): a card that starts
elsewhere than the game's first turn and phase saves the tracker there, the others save nothing
of it (their setups stay as they were), and a `start_phase` that is no phase of the sequence of
play is a source problem, not a traceback."""
from __future__ import annotations

import pytest

from builder.model import SourceError, load_game
from builder.vassal.sequence import split
from builder.vassal.setup import tracker_command
from tests.conftest import copy_sources, loaded_game
from validators.replay.replayer import parse_turn_state


def test_a_card_starting_later_saves_the_tracker_at_its_gt_and_phase():
    game = loaded_game("desert-fox-deluxe")
    ids = [p["id"] for p in game.tables["sequence"].data["phases"]]
    command = tracker_command(game, game.scenarios["sonnenblume"])  # 26.0: GT 10 Phase XII
    name, state = split(command, "\t")
    start = parse_turn_state(state)
    assert name == "TURNTurnTracker0" and (start.turn, ids[start.phase_index]) == (10, "XII")
    command = tracker_command(game, game.scenarios["north-african-campaign"])  # GT 1, but Phase II
    assert parse_turn_state(split(command, "\t")[1]).phase_index == ids.index("II")


@pytest.mark.parametrize("slug", ["bravery-in-the-sand", "tobrouk-41-42"])
def test_a_card_starting_where_the_tracker_does_saves_nothing_of_it(slug):
    game = loaded_game(slug)
    assert [tracker_command(game, sc) for sc in game.scenarios.values()] == [None] * len(game.scenarios)


def test_a_start_phase_outside_the_sequence_is_a_source_problem(tmp_path):
    src = copy_sources(tmp_path, "desert-fox-deluxe")
    card = src / "scenarios" / "sonnenblume.yaml"
    card.write_text(card.read_text().replace("start_phase: XII\n", "start_phase: XXII\n"))
    with pytest.raises(SourceError) as caught:
        load_game(src)
    messages = [p.message for p in caught.value.problems]
    assert messages == ["start_phase XXII is not a phase of tables/sequence.yaml"]
