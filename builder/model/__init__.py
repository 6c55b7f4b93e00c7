"""The game model: the only code that reads `sources/`; every back end reads the model.

The names below are looked up on first use (PEP 562), so that code needing only the model (an
audit, whose model comes from the cache) never imports the YAML loader, nor pydantic when it
asks for the plain model (plain.py).
"""
from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

if TYPE_CHECKING:
    from builder.model.cache import load_game
    from builder.model.game import Game
    from builder.model.problems import SourceError, SourceProblem

__all__ = ["Game", "SourceError", "SourceProblem", "load_game"]
_WHERE = {"Game": "builder.model.game", "SourceError": "builder.model.problems",
          "SourceProblem": "builder.model.problems", "load_game": "builder.model.cache"}


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'builder.model' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)
