"""The text report's words: never "None", the side never twice."""
from __future__ import annotations

from validators.findings import AuditReport, Finding, MatchSummary
from validators.report import as_text


def report(last_turn, *findings) -> str:
    return as_text(AuditReport("demo", "game.vlog", MatchSummary(12, (), {}, 0, last_turn), findings))


def test_a_log_whose_turn_was_never_read_says_so():
    head = report(None).split("\n")[0]
    assert "None" not in head and "no turn read" in head
    assert "last turn 3" in report(3).split("\n")[0]


def test_a_piece_named_for_its_side_names_the_side_once():
    named = Finding(4, 1, "Blue", "Blue Infantry (1)", "0101", "0102", "2", "too far")
    other = Finding(5, None, "Axis", "15 Pz Div", None, "C2231", "10.3", "overstacked")
    lines = report(1, named, other).split("\n")
    assert lines[1] == "step 4 turn 1: rule 2: too far [Blue Infantry (1), 0101 -> 0102]"
    assert lines[2] == "step 5: rule 10.3: overstacked [Axis 15 Pz Div, C2231]"
