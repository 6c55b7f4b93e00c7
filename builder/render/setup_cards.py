"""Set-up cards for the table (issue 18): one page per scenario and side, from scenarios/*.yaml.

A card gives the scenario's special rules and victory conditions, then what its side puts
where: formations and units to hexes (with the place name) or to boxes, garrisons, then
reinforcements and withdrawals by turn and conditional entry groups.  Special rules are the
card's `special_rules` (and event `cards`), else its `description`, which words them for the
games whose cards have no such list; victory is the card's `victory`, else the game's
`victory` table (its summary: the same for every scenario).  `card_lines` is pure (tests read
it); `draw_card` sets the lines in up to three columns, rules text wrapped to the column, the
font shrinking until they fit one page.  Markers are not on the cards (they belong to no side).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from builder.model.game import Game
from builder.render.sheets import PT_PER_MM, _text_fit

MARGIN = 12.0 * PT_PER_MM
MIN_SIZE = 5.0


@dataclass(frozen=True)
class Line:
    kind: str     # head | group | item | note | text (a paragraph, wrapped)
    left: str
    right: str = ""


def _piece(game: Game, pid: str) -> tuple[str, str | None, str]:
    """(name, side id, group) of a unit or leader id."""
    units = {u.id: u for u in game.units}
    if pid in units:
        u = units[pid]
        return u.name, game.side_of_unit(u).id, u.formation
    ld = game.leaders[pid]
    return ld.faces[0].name, game.side_of_leader(ld).id, "Leaders"


def _where(game: Game, hex_id: str | None, track: str | None, box: str | None) -> str:
    if hex_id is not None:
        place = game.places.get(hex_id)
        return f"{hex_id} {place.name}" if place else hex_id
    return game.zone_name(track, box)


LEVELS = {"win": "wins", "smashing": "smashing victory", "marginal": "marginal victory", "instant": "wins at once",
          "draw": "draw"}


def _ruled(text: str, rule: str | None) -> str:
    return f"{text} ({rule})" if rule and rule not in text else text


def rules_lines(game: Game, sc) -> list[Line]:
    """Special rules and victory conditions of a scenario, the same on both sides' cards."""
    lines: list[Line] = []
    special = [_ruled(r.text, r.rule) for r in getattr(sc, "special_rules", [])]
    cards = getattr(sc, "cards", [])
    if special or cards or sc.description:
        lines.append(Line("head", "Special rules"))
        if not special and sc.description:  # one point a sentence
            lines += [Line("text", x) for x in re.split(r"(?<=[.)])\s+(?=[A-Z])", sc.description.strip()) if x]
        lines += [Line("text", x) for x in special]
        if cards:
            lines.append(Line("text", "Event cards: " + "; ".join(
                f"{c.card} {c.status}" + (f" ({c.note})" if c.note else "") for c in cards) + "."))
    victory = getattr(sc, "victory", [])
    if victory:
        lines.append(Line("head", "Victory"))
        for v in victory:
            who = game.sides[v.side].name if v.side in game.sides else ("Draw" if v.level == "draw" else "Either side")
            level = LEVELS.get(v.level, v.level)
            lines.append(Line("text", _ruled(f"{who}{'' if level == 'draw' else ', ' + level}: {v.text}", v.rule)))
    elif "victory" in game.tables:
        t = game.tables["victory"]
        lines.append(Line("head", "Victory", f"{t.title}, rule {t.rule}"))
        lines += [Line("text", x) for x in t.summary]
    return lines


def card_lines(game: Game, sc, side: str) -> list[Line]:
    """The card of `side` for scenario `sc`, line by line."""
    lines: list[Line] = rules_lines(game, sc)
    mine = lambda pid: _piece(game, pid)[1] == side  # noqa: E731
    setup: dict[str, list[Line]] = {}
    for f in sc.formations:
        units = [u for u in game.units if u.formation == f.formation]
        if not units or game.side_of_unit(units[0]).id != side:
            continue
        where = _where(game, f.hex, None, None)
        group = setup.setdefault(f.formation, [])
        group += [Line("item", u.name, where) for u in units]
    for u in sc.units:
        if mine(u.unit):
            name, _, group = _piece(game, u.unit)
            setup.setdefault(group, []).append(
                Line("item", name + (" (reduced)" if u.reduced else ""), _where(game, u.hex, u.track, u.box)))
    garrisons = [g for g in sc.garrisons if mine(g)]
    if setup or garrisons:
        lines.append(Line("head", "Set-up"))
    for group, items in setup.items():
        f = game.formations.get(group)
        lines.append(Line("group", f"{f.name} ({f.id})" if f else group))
        lines += items
    if garrisons:
        lines.append(Line("group", "Garrisons"))
        lines += [Line("item", _piece(game, g)[0], "garrison") for g in garrisons]
    arrivals = sorted((r for r in sc.reinforcements if any(mine(p) for p in r.units)), key=lambda r: r.turn)
    if arrivals:
        lines.append(Line("head", "Reinforcements"))
        for r in arrivals:
            where = _where(game, r.hex, r.track, r.box) if (r.hex or r.track) else "as the rules say"
            lines.append(Line("group", f"Turn {r.turn}", where + (f" (rule {r.rule})" if r.rule else "")))
            lines += [Line("item", _piece(game, p)[0]) for p in r.units if mine(p)]
    groups = [g for g in sc.conditional_groups if any(mine(p) for p in g.units)]
    if groups:
        lines.append(Line("head", "Conditional entry"))
        for g in groups:
            where = _where(game, g.hex, g.track, g.box) if (g.hex or g.track) else ""
            lines.append(Line("group", f"{g.name}: turns {g.first_turn}-{g.last_turn}", where))
            lines.append(Line("note", f"after: {g.event}" + (f" (rule {g.rule})" if g.rule else "")))
            lines += [Line("item", _piece(game, p)[0]) for p in g.units if mine(p)]
    outs = sorted((w for w in sc.withdrawals if any(mine(p) for p in w.units)), key=lambda w: w.turn)
    if outs:
        lines.append(Line("head", "Withdrawals"))
        for w in outs:
            lines.append(Line("group", f"Turn {w.turn}", f"rule {w.rule}" if w.rule else ""))
            lines += [Line("item", _piece(game, p)[0]) for p in w.units if mine(p)]
    return lines


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    out: list[str] = []
    for word in text.split():
        if out and stringWidth(f"{out[-1]} {word}", font, size) <= width:
            out[-1] += f" {word}"
        else:
            out.append(word)
    return out


def _card_info(game: Game, sc) -> str:
    """The card's header line: game, rule, turns, maps, initiative."""
    parts = [f"{game.info.title} {game.info.version}"] + ([f"rule {sc.rule}"] if sc.rule else [])
    start = f"turn {sc.first_turn}" + (f" phase {sc.start_phase}" if getattr(sc, "start_phase", None) else "")
    last = getattr(sc, "last_turn", None)
    parts.append(f"{start} to turn {last}" if last else f"first turn {sc.first_turn}")
    if getattr(sc, "maps", None):
        parts.append("maps " + ", ".join(sc.maps))
    if getattr(sc, "initiative", None):
        who = game.sides[sc.initiative].name if sc.initiative in game.sides else sc.initiative
        parts.append(f"{who} initiative" + (" with surprise" if getattr(sc, "surprise", False) else ""))
    return "  |  ".join(parts)


def _rows(lines: list[Line], regular: str, semibold: str, size: float, col_w: float) -> list[tuple[Line, str]]:
    """The lines as printed rows: a paragraph wrapped to the column, every other line one row."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    rows = []
    for ln in lines:
        if ln.kind == "text":
            parts = _wrap(ln.left, regular, size, col_w - 8)
            rows += [(ln if i == 0 else Line("text+", ln.left), part) for i, part in enumerate(parts)]
        elif ln.right and ln.kind == "group" and \
                stringWidth(ln.left, semibold, size) + stringWidth(ln.right, regular, size) + 6 > col_w:
            rows.append((Line("group", ln.left), ln.left))  # a long right text goes under it, wrapped
            rows += [(Line("note", part), part) for part in _wrap(ln.right, regular, size, col_w - 8)]
        else:
            rows.append((ln, ln.left))
    return rows


def _slots(rows, per_col: int, ncols: int) -> list[int]:
    """The slot (column * per_col + row) of every row: a blank row before a heading, and a
    heading or group title never last in its column."""
    out, slot = [], 0
    for i, (ln, _) in enumerate(rows):
        if ln.kind == "head" and slot % per_col and i:
            slot += 1
        if ln.kind in ("head", "group") and slot % per_col >= per_col - (2 if ln.kind == "head" else 1) \
                and i + 1 < len(rows) and slot // per_col + 1 < ncols:
            slot += per_col - slot % per_col
        out.append(slot)
        slot += 1
    return out or [0]


def draw_card(cv, game: Game, sc, side: str, page: tuple[float, float], fonts: tuple[str, str]) -> None:
    """One card page; the caller ends the page."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    regular, semibold = fonts
    pw, ph = page
    width = pw - 2 * MARGIN
    y = ph - MARGIN
    cv.setFillColor("#000000")
    title = f"{sc.name} - {game.sides[side].name} set-up"
    size = _text_fit(title, semibold, 14, width)
    cv.setFont(semibold, size)
    cv.drawString(MARGIN, y - size, title)
    y -= size + 4
    info = _card_info(game, sc)
    cv.setFont(regular, _text_fit(info, regular, 8, width))
    cv.drawString(MARGIN, y - 8, info)
    y -= 12
    cv.setFont(regular, 7.5)
    # the description is the special rules' text unless the card lists them (rules_lines)
    notes = [sc.description] if sc.description and getattr(sc, "special_rules", None) else []
    if getattr(sc, "provenance", None) == "reconstructed":
        notes.append(f"Reconstructed data: {getattr(sc, 'reason', '') or 'not printed in the rulebook'}")
    for note in notes:
        cv.setFillColor("#7a1f1f" if note.startswith("Reconstructed") else "#000000")
        for ln in _wrap(note, regular, 7.5, width):
            cv.drawString(MARGIN, y - 7.5, ln)
            y -= 9
    y -= 4
    cv.setFillColor("#000000")
    cv.setLineWidth(0.5)
    cv.line(MARGIN, y, pw - MARGIN, y)
    y -= 4
    lines = card_lines(game, sc, side)
    if not any(ln.kind == "item" for ln in lines):
        lines.append(Line("head", "Set-up"))
        lines.append(Line("note", "This side sets up nothing in this scenario."))
    bottom = MARGIN
    gap = 5 * PT_PER_MM
    best = None  # the largest letters (at most 9 pt) that fit, in 1 to 3 columns
    for ncols in (1, 2, 3):
        col_w = (width - (ncols - 1) * gap) / ncols
        size = 9.0
        while size > MIN_SIZE:
            per_col = max(1, int((y - bottom) // (size * 1.22)))
            if _slots(_rows(lines, regular, semibold, size, col_w), per_col, ncols)[-1] < per_col * ncols:
                break
            size -= 0.25
        if best is None or size > best[0]:
            best = (size, ncols)
    size, ncols = best
    col_w = (width - (ncols - 1) * gap) / ncols
    rows = _rows(lines, regular, semibold, size, col_w)
    lead = size * 1.22
    per_col = max(1, int((y - bottom) // lead))
    for (ln, text), slot in zip(rows, _slots(rows, per_col, ncols)):
        col, row = divmod(slot, per_col)
        x, yy = MARGIN + col * (col_w + gap), y - (row + 1) * lead
        kind = ln.kind.rstrip("+")
        font = semibold if kind in ("head", "group") else regular
        fs = size * (1.15 if kind == "head" else 1.0)
        indent = {"head": 0, "group": 0, "item": 8, "note": 8, "text": 8}[kind]
        cv.setFillColor("#7a1f1f" if kind == "head" else "#000000")
        if kind == "text":
            if ln.kind == "text":
                cv.setFont(regular, size)
                cv.drawString(x + 2, yy, "\u2022")
            cv.setFont(regular, size)
            cv.drawString(x + indent, yy, text)
            continue
        # a line too long for the column shrinks both its texts alike
        lw, rw = stringWidth(ln.left, font, fs), stringWidth(ln.right, regular, fs) if ln.right else 0
        avail = col_w - indent - (6 if ln.right else 0)
        fit = fs * min(1.0, avail / (lw + rw)) if lw + rw else fs
        cv.setFont(font, fit)
        cv.drawString(x + indent, yy, ln.left)
        if ln.right:
            cv.setFont(regular, fit)
            cv.drawRightString(x + col_w, yy, ln.right)
    cv.setFont(regular, 6.5)
    cv.setFillColor("#000000")
    cv.drawRightString(pw - MARGIN, MARGIN / 2, f"{game.info.title}: set-up card, {sc.name}, {game.sides[side].name}")
