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
    ("dfd-oconnors-war-legal", "desert-fox-deluxe", []),
    ("dfd-oconnors-war-planted", "desert-fox-deluxe", [
        (3, "13.2", "W1215"), (4, "10.3", "C2332"), (5, "4.1", "C2330"), (11, "13.2.4", "W1710"),
        (12, "13.1", "W2006"), (21, "14.7", "W2005"), (22, "14.6", "W2006"), (28, "4.1", "C2231"),
        (32, "4.1", "C2331")]),
    ("dfd-rommels-war-legal", "desert-fox-deluxe", []),
    ("dfd-desert-war-legal", "desert-fox-deluxe", []),
    ("dfd-desert-war-planted", "desert-fox-deluxe", [  # the road march off the road found (13.2.3 c)
        (4, "13.2.3", "C1121"), (18, "13.1", "W2104"), (31, "4.1", "W2116"), (37, "6.1", None), (42, "4.1", "W2115")]),
    ("dfd-trail-of-the-fox-legal", "desert-fox-deluxe", []),  # 30.1 Phase 12 and 30.2 east-edge arrivals
    ("dfd-north-african-campaign-legal", "desert-fox-deluxe", []),
    ("dfd-desert-fox-legal", "desert-fox-deluxe", []),
    ("dfd-oconnors-war-long-legal", "desert-fox-deluxe", []),
    ("dfd-desert-fox-overstack-legal", "desert-fox-deluxe", []),
])
def test_a_log_the_engine_wrote(log, slug, expected):
    report = audit_file(load_game(ROOT / "sources" / slug, plain=True), ENGINE / f"{log}.vlog")
    assert [(f.step, f.rule, f.to_hex) for f in report.violations] == expected
    assert report.summary.steps > 0
