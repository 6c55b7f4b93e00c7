"""Audit reports as text or JSON (the HTML report is the page of `hexforge view`: validators/view/page.py)."""
from __future__ import annotations

from validators.findings import AuditReport

# json's own C string encoder, taken without importing the json package (its decoder and scanner
# too): an audit only writes (start-up, issue 29); json.dumps is imported where it is needed
try:
    from _json import encode_basestring
except ImportError:  # a Python built without it
    from json.encoder import encode_basestring


def as_text(r: AuditReport) -> str:
    s = r.summary
    dice = ", ".join(f"{k} {v}" for k, v in s.dice_by_side.items()) or "none"
    last = "no turn read" if s.last_turn is None else f"last turn {s.last_turn}"
    lines = [f"{r.log}: {r.game}, {s.steps} steps, {last}, dice rolled: {dice}, undo: {s.undo_count}"]
    lines += [f"note: {n}" for n in r.notes]  # what no rule reports (pieces a piece map leaves out)
    for f in r.findings:
        where = f"{f.from_hex or '?'} -> {f.to_hex}" if f.to_hex and f.from_hex else (f.to_hex or f.from_hex or "")
        tag = "EVENT " if f.kind != "violation" else ""
        turn = "" if f.turn is None else f" turn {f.turn}"
        bracket = ", ".join(x for x in (_who(f), where) if x)
        lines.append(f"step {f.step}{turn}: {tag}rule {f.rule}: {f.message}" + (f" [{bracket}]" if bracket else ""))
        if f.rule_text:  # the rule itself, under the finding (rules.yaml)
            lines.append(f"    {f.rule}: {f.rule_text}")
    lines.append(f"{len(r.violations)} violation(s)")
    return "\n".join(lines) + "\n"


def _who(f) -> str:
    """The side and the piece, the side once: a piece named "Blue Infantry" is not "Blue Blue Infantry"."""
    if f.side and f.piece and f.piece.lower().startswith(f.side.lower()):
        return f.piece
    return " ".join(x for x in (f.side, f.piece) if x)


def as_json(r: AuditReport) -> str:
    return dumps(r.to_json())


def dumps(doc: object) -> str:
    """`json.dumps(doc, indent=2, ensure_ascii=False) + "\\n"`, byte for byte.

    With an indent the standard library falls back to its pure-Python encoder; a report of many
    findings is plain dicts, lists, strings and numbers, which this writes with the C string
    encoder.  Anything else (a non-string key, another type) goes to json.dumps itself.
    """
    out: list[str] = []
    try:
        _write(doc, "\n", out)
    except _Unsupported:
        import json

        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    out.append("\n")
    return "".join(out)


class _Unsupported(Exception):
    pass


def _write(o: object, nl: str, out: list[str]) -> None:
    """Append `o` as json.dumps(indent=2) writes it; `nl` is the newline and indent of its level."""
    t = type(o)
    if t is str:
        out.append(encode_basestring(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(o))
    elif t is float:
        out.append(_float(o))
    elif t is dict:
        if not o:
            out.append("{}")
            return
        inner = nl + "  "
        sep = "{" + inner
        for k, v in o.items():
            if type(k) is not str:
                raise _Unsupported  # json.dumps turns numbers and None into keys its own way
            out.append(sep)
            out.append(encode_basestring(k))
            out.append(": ")
            _write(v, inner, out)
            sep = "," + inner
        out.append(nl + "}")
    elif t is list or t is tuple:
        if not o:
            out.append("[]")
            return
        inner = nl + "  "
        sep = "[" + inner
        for v in o:
            out.append(sep)
            _write(v, inner, out)
            sep = "," + inner
        out.append(nl + "]")
    else:
        raise _Unsupported


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == float("inf"):
        return "Infinity"
    if o == -float("inf"):
        return "-Infinity"
    return float.__repr__(o)
