"""An audit leaves no reference cycles behind: Python's cycle collector is paused while a log is
read and audited (validators/audit.py, reader.paused_gc), and everything the audit made must be
freed by reference counting as it returns; a cycle would keep the whole record alive until the
collector's next full pass, and make that pass walk it (issue 15).

Played on the real engine's logs of every game (tests/fixtures/engine)."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tests.conftest import loaded_game
from validators.audit import audit_file, module_grids

ENGINE = Path(__file__).parent / "fixtures" / "engine"
LOGS = {
    "bits-all-actions.vlog": "bravery-in-the-sand",
    "wdf-stack-drag.vlog": "western-desert-force",
    "tobrouk-legal.vlog": "tobrouk-41-42",
    "sh-events.vlog": "slouch-hats-and-eggshells",
    "dfd-events.vlog": "desert-fox-deluxe",
}


@pytest.mark.parametrize("log,slug", sorted(LOGS.items()))
def test_an_audit_is_freed_without_the_cycle_collector(log, slug):
    game = loaded_game(slug)
    grids = module_grids(game)
    audit_file(game, ENGINE / log, grids)  # first use fills per-process memos (traits, crossings)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        for _ in range(2):
            report = audit_file(game, ENGINE / log, grids)
        del report
        left = len(gc.get_objects()) - before
        cycles = gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    assert cycles == 0, f"{slug}: two audits left {cycles} objects only the cycle collector frees"
    assert left <= 0, f"{slug}: two audits left {left} objects behind"
