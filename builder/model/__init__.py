"""The game model: the only code that reads `sources/`; every back end reads the model."""
from builder.model.game import Game
from builder.model.load import SourceError, SourceProblem, load_game

__all__ = ["Game", "SourceError", "SourceProblem", "load_game"]
