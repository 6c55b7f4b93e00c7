"""VASSAL's SequenceEncoder: delimiter-joined tokens, escaped once per nesting level.

Exact rules of `tools/SequenceEncoder.java` (3.7), vassal-formats.md §3.1.  Shared by the
piece encoder, the save writer and the log reader.
"""
from __future__ import annotations

import re
from collections.abc import Iterable


def join(tokens: Iterable[object], delim: str) -> str:
    """Encode tokens; None and "" are empty tokens, bools and numbers as Java prints them."""
    out = []
    for tok in tokens:
        s = _java_str(tok)
        quote = bool(s) and (s[0] == "\\" or (s[0] == "'" and s[-1] == "'"))
        escaped = s.replace(delim, "\\" + delim)
        out.append("'" + escaped + "'" if quote else escaped)
    return delim.join(out)


def _java_str(tok: object) -> str:
    if tok is None:
        return ""
    if isinstance(tok, bool):
        return "true" if tok else "false"
    if isinstance(tok, float):
        return repr(tok) if not tok.is_integer() else f"{tok:.1f}"
    return str(tok)


def split(value: str | None, delim: str) -> list[str]:
    """Decode tokens (`SequenceEncoder.Decoder`); tolerant of any input, never raises.

    A delimiter preceded by a backslash (in the raw text, as VASSAL checks it) is part of
    the token, and that one backslash is dropped; a token wrapped in single quotes loses them.
    Most fields hold no escaped delimiter: those are one `str.split` (the fast path).
    """
    if value is None:
        return []
    if len(delim) != 1 or delim == "\\":
        return _split_escaped(value, delim)  # never used by VASSAL's own encoders
    pieces = _split_at_unescaped(value, delim) if "\\" + delim in value else value.split(delim)
    if "'" in value:
        return [p[1:-1] if len(p) > 1 and p[0] == "'" and p[-1] == "'" else p for p in pieces]
    return pieces


def _split_at_unescaped(value: str, delim: str) -> list[str]:
    """Split at the delimiters with no backslash before them, then drop the backslash of each
    escaped one: `a\\/b/c` -> `a/b`, `c` (the same tokens as the walk in `_split_escaped`).

    A character the text lacks stands in for each escaped delimiter while `str.split` cuts at
    the others: three passes in C, three times as fast as a look-behind regex on a long log
    (issue 15).  `\\` + delimiter pairs cannot overlap, so every one is found."""
    mark = _MARKS[0] if _MARKS[0] not in value else next((c for c in _MARKS if c not in value), None)
    if mark is None:  # the text holds every stand-in: the regex (never seen in a real file)
        return _split_by_pattern(value, delim)
    pieces = value.replace("\\" + delim, mark).split(delim)
    for i, p in enumerate(pieces):
        if mark in p:
            pieces[i] = p.replace(mark, delim)  # in place: a whole log's text is never held three times
    return pieces


_MARKS = "\x00\x01\x02\x03\ufffe\uffff"  # characters VASSAL's text should never hold


def _split_by_pattern(value: str, delim: str) -> list[str]:
    pattern = _UNESCAPED.get(delim)
    if pattern is None:
        pattern = _UNESCAPED[delim] = re.compile(r"(?<!\\)" + re.escape(delim))
    esc = "\\" + delim
    pieces = pattern.split(value)
    for i, p in enumerate(pieces):
        if esc in p:
            pieces[i] = p.replace(esc, delim)
    return pieces


_UNESCAPED: dict[str, re.Pattern] = {}  # delimiter -> a delimiter not preceded by a backslash


def _split_escaped(value: str, delim: str) -> list[str]:
    """The general walk over the text, for a delimiter `str.split` cannot stand in for."""
    out: list[str] = []
    n, start = len(value), 0
    while True:
        if start == n:
            out.append("")
            return out
        parts: list[str] = []
        seg, i = start, value.find(delim, start)
        while i > 0 and value[i - 1] == "\\":
            parts.append(value[seg:i - 1])
            seg, i = i, value.find(delim, i + 1)
        last = i == -1
        tok = "".join(parts) + (value[seg:] if last else value[seg:i])
        if not last:
            start = i + 1
        if len(tok) > 1 and tok[0] == "'" and tok[-1] == "'":
            tok = tok[1:-1]
        out.append(tok)
        if last:
            return out
