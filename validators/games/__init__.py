"""One rules module per game, registered by slug."""
from __future__ import annotations

from importlib import import_module

GAMES = {"bravery-in-the-sand": "validators.games.bravery_in_the_sand",
         "western-desert-force": "validators.games.western_desert_force",
         "tobrouk-41-42": "validators.games.tobrouk_41_42"}


def rules_for(slug: str):
    """The auditor class of a game; KeyError with the known games when there is none."""
    if slug not in GAMES:
        raise KeyError(f"no rules module for {slug!r}; known: {', '.join(sorted(GAMES))}")
    return import_module(GAMES[slug]).Auditor
