"""An audit leaves no reference cycles behind: Python's cycle collector is paused while a log is
read and audited (validators/audit.py, reader.paused_gc), and everything the audit made must be
freed by reference counting as it returns; a cycle would keep the whole record alive until the
collector's next full pass, and make that pass walk it (issue 15).

Played on the real engine's logs of every game (tests/fixtures/engine)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, loaded_game

ENGINE = Path(__file__).parent / "fixtures" / "engine"
LOGS = {
    "bits-all-actions.vlog": "bravery-in-the-sand",
    "wdf-stack-drag.vlog": "western-desert-force",
    "tobrouk-legal.vlog": "tobrouk-41-42",
    "sh-events.vlog": "slouch-hats-and-eggshells",
    "dfd-events.vlog": "desert-fox-deluxe",  # written on release 0.1: read with its module (below)
}


MEASURE = """
import gc, sys
from pathlib import Path
from builder.model import load_game
from validators.audit import audit_file, module_grids
from validators.vlog.modulegrid import read_vmod_grids
from validators.written_with import module_id
game = load_game(Path(sys.argv[1]))
kept = Path(sys.argv[3]) if len(sys.argv) > 3 else None  # the module of an earlier release that wrote the log
grids, module = (read_vmod_grids(kept), module_id(kept)) if kept else (module_grids(game), None)
log = Path(sys.argv[2])
for _ in range(2):  # first uses fill per-process memos (traits, crossings, the ABCs' isinstance caches)
    audit_file(game, log, grids, module=module)
gc.collect()
gc.disable()
before = len(gc.get_objects())
for _ in range(2):
    report = audit_file(game, log, grids, module=module)
del report
print(len(gc.get_objects()) - before, gc.collect())
"""


@pytest.mark.parametrize("log,slug", sorted(LOGS.items()))
def test_an_audit_is_freed_without_the_cycle_collector(log, slug):
    """Measured in a fresh interpreter: threads that other tests leave running (Dask's IO loop after
    a LocalCluster) make garbage of their own, which the collector would count here."""
    loaded_game(slug)  # a source problem fails with its message, not in the child
    from tests.rules.test_engine_logs import RELEASED, written_on

    kept = RELEASED.get((slug, written_on(ENGINE / log)))
    r = subprocess.run([sys.executable, "-c", MEASURE, str(ROOT / "sources" / slug), str(ENGINE / log),
                        *([str(kept)] if kept else [])], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    left, cycles = map(int, r.stdout.split())
    assert cycles == 0, f"{slug}: two audits left {cycles} objects only the cycle collector frees"
    assert left <= 0, f"{slug}: two audits left {left} objects behind"
