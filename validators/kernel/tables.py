"""Reading rows of a game's tables by ranges: "3-5" (three to five), "6", "-" (none)."""
from __future__ import annotations


def parse_range(text: str) -> tuple[int, int] | None:
    """ "3-5" -> (3, 5); "6" -> (6, 6); "-" -> None."""
    text = text.strip()
    if text in ("-", ""):
        return None
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def by_turn(rows: list[dict], turn: int, key: str = "turns") -> dict | None:
    """The row of a table whose range of turns ("4-8") holds `turn`."""
    for r in rows:
        lo, hi = parse_range(str(r[key])) or (0, -1)
        if lo <= turn <= hi:
            return r
    return None
