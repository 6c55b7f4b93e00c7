"""Logs the real VASSAL 3.7.26 engine wrote while playing our modules (tests/fixtures/engine):
the audit finds in them exactly what their scripts planted, and nothing on legal play."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.model import load_game
from builder.paths import ROOT
from validators.audit import audit_file

ENGINE = Path(__file__).resolve().parents[1] / "fixtures" / "engine"


@pytest.mark.parametrize("log, slug, expected", [
    ("bits-stack-drag", "bravery-in-the-sand", []),
    ("bits-all-actions", "bravery-in-the-sand", [(11, "7.2.3", "Axis eliminated"), (13, "7.2.3", "Axis eliminated")]),
    ("bits-double-back", "bravery-in-the-sand", []),
    ("bits-double-back-over-ma", "bravery-in-the-sand", [(12, "6.2", "0607")] * 4),
    ("wdf-stack-drag", "western-desert-force", []),
])
def test_a_log_the_engine_wrote(log, slug, expected):
    report = audit_file(load_game(ROOT / "sources" / slug, plain=True), ENGINE / f"{log}.vlog")
    assert [(f.step, f.rule, f.to_hex) for f in report.violations] == expected
    assert report.summary.steps > 0
