"""Stacking points from a table (any game).

The table logic lives in `builder.model.stacking` so that the scenario checks of the builder
(which never imports validators) and the auditors count stacking points alike.
"""
from __future__ import annotations

from builder.model.stacking import StackingCombinations, StackingTable, unit_attrs

__all__ = ["StackingCombinations", "StackingTable", "unit_attrs"]
