"""Player aids for the print kit (issue 18): the charts of game.yaml and the sequence of play.

The same tables the module shows as help pages (builder/vassal/module.py `_table_page`): the
title and rule, `provenance: reconstructed` said as on the help page, the summary lines, then
the data as indented `key: value` lines (a list of records: one line per record).  `aid_pages`
is pure and paginated, so the kit's contents page knows the page numbers before drawing.
"""
from __future__ import annotations

from dataclasses import dataclass

from builder.model.game import Game
from builder.render.sheets import PAGES, PT_PER_MM

MARGIN = 15.0 * PT_PER_MM
SIZE = 8.5
LEAD = SIZE * 1.3
INDENT = 10.0


@dataclass(frozen=True)
class AidLine:
    kind: str      # title | rule | note | bullet | data
    text: str
    indent: int = 0


def aid_tables(game: Game) -> list[str]:
    """Table ids in aid order: the charts game.yaml lists, then the sequence of play."""
    ids = [c.table for c in game.info.charts if c.table in game.tables]
    if "sequence" in game.tables and "sequence" not in ids:
        ids.append("sequence")
    return ids


def _scalar(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _compact(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_compact(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_compact(x) for x in v) + "]"
    return _scalar(v)


def _data(v, indent: int) -> list[AidLine]:
    out: list[AidLine] = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x and not (isinstance(x, list) and all(not isinstance(y, (dict, list)) for y in x)):
                out.append(AidLine("data", f"{k}:", indent))
                out += _data(x, indent + 1)
            else:
                out.append(AidLine("data", f"{k}: {_compact(x)}", indent))
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict):
                out.append(AidLine("data", "- " + "; ".join(f"{k}: {_compact(y)}" for k, y in x.items()), indent))
            else:
                out.append(AidLine("data", f"- {_compact(x)}", indent))
    else:
        out.append(AidLine("data", _scalar(v), indent))
    return out


def aid_lines(game: Game, table_id: str) -> list[AidLine]:
    t = game.tables[table_id]
    lines = [AidLine("title", t.title), AidLine("rule", f"{game.info.title}: rule {t.rule}")]
    if t.provenance == "reconstructed":
        lines.append(AidLine("note", f"Reconstructed: {t.reason or 'not printed in the rulebook'}"))
    lines += [AidLine("bullet", s) for s in t.summary]
    return lines + _data(t.data, 0)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    out: list[str] = []
    for word in text.split(" "):
        if out and stringWidth(f"{out[-1]} {word}", font, size) <= width:
            out[-1] += f" {word}"
        else:
            out.append(word)
    return out or [""]


def aid_pages(game: Game, page: str, fonts: tuple[str, str]) -> list[list[tuple[AidLine, str, float, float]]]:
    """Every aid page as (line, wrapped text, x, y) rows; each table starts a page."""
    regular, semibold = fonts
    pw, ph = PAGES[page]
    pages = []
    for tid in aid_tables(game):
        rows: list[tuple[AidLine, str, float, float]] = []
        y = ph - MARGIN
        for ln in aid_lines(game, tid):
            font, size = (semibold, 14) if ln.kind == "title" else (regular, SIZE)
            x = MARGIN + ln.indent * INDENT + (8 if ln.kind == "bullet" else 0)
            for i, part in enumerate(_wrap(ln.text, font, size, pw - MARGIN - x)):
                lead = size * 1.3
                if y - lead < MARGIN:
                    pages.append(rows)
                    rows, y = [], ph - MARGIN
                y -= lead
                rows.append((ln if i == 0 else AidLine(ln.kind + "+", ln.text, ln.indent), part, x, y))
            if ln.kind in ("title", "note") or (ln.kind == "bullet"):
                y -= 2
        pages.append(rows)
    return pages


def draw_aid_page(cv, rows, fonts) -> None:
    regular, semibold = fonts
    for ln, text, x, y in rows:
        kind = ln.kind.rstrip("+")
        cv.setFillColor("#7a1f1f" if kind == "note" else "#000000")
        if kind == "title":
            cv.setFont(semibold, 14)
        else:
            cv.setFont(semibold if kind == "data" and text.endswith(":") else regular, SIZE)
        if kind == "bullet" and not ln.kind.endswith("+"):
            cv.drawString(x - 8, y, "\u2022")
        cv.drawString(x, y, text)
