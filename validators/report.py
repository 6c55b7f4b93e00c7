"""Audit reports as text or JSON (the HTML report is in report_html.py)."""
from __future__ import annotations

import json

from validators.findings import AuditReport


def as_text(r: AuditReport) -> str:
    s = r.summary
    dice = ", ".join(f"{k} {v}" for k, v in s.dice_by_side.items()) or "none"
    lines = [f"{r.log}: {r.game}, {s.steps} steps, last turn {s.last_turn}, dice rolled: {dice}, undo: {s.undo_count}"]
    for f in r.findings:
        where = f"{f.from_hex or '?'} -> {f.to_hex}" if f.to_hex and f.from_hex else (f.to_hex or f.from_hex or "")
        who = " ".join(x for x in (f.side, f.piece) if x)
        tag = "EVENT " if f.kind != "violation" else ""
        lines.append(f"step {f.step} turn {f.turn}: {tag}rule {f.rule}: {f.message}" +
                     (f" [{who}{', ' + where if where else ''}]" if who or where else ""))
        if f.rule_text:  # the rule itself, under the finding (rules.yaml)
            lines.append(f"    {f.rule}: {f.rule_text}")
    lines.append(f"{len(r.violations)} violation(s)")
    return "\n".join(lines) + "\n"


def as_json(r: AuditReport) -> str:
    return json.dumps(r.to_json(), indent=2, ensure_ascii=False) + "\n"
