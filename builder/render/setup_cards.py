"""Set-up cards for the table (issue 18): one page per scenario and side, from scenarios/*.yaml.

A card lists what its side puts where: formations and units to hexes (with the place name) or
to boxes, garrisons, then reinforcements and withdrawals by turn and conditional entry groups.
`card_lines` is pure (tests read it); `draw_card` sets the lines in up to three columns, the
font shrinking until they fit one page.  Markers are not on the cards (they belong to no side).
"""
from __future__ import annotations

from dataclasses import dataclass

from builder.model.game import Game
from builder.render.sheets import PT_PER_MM, _text_fit

MARGIN = 12.0 * PT_PER_MM
MIN_SIZE = 5.0


@dataclass(frozen=True)
class Line:
    kind: str     # head | group | item | note
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


def card_lines(game: Game, sc, side: str) -> list[Line]:
    """The card of `side` for scenario `sc`, line by line."""
    lines: list[Line] = []
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


def draw_card(cv, game: Game, sc, side: str, page: tuple[float, float], fonts: tuple[str, str]) -> None:
    """One card page; the caller ends the page."""
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
    info = f"{game.info.title} {game.info.version}" + (f"  |  rule {sc.rule}" if sc.rule else "") + \
        f"  |  first turn {sc.first_turn}"
    cv.setFont(regular, 8)
    cv.drawString(MARGIN, y - 8, info)
    y -= 12
    cv.setFont(regular, 7.5)
    notes = [sc.description] if sc.description else []
    if getattr(sc, "provenance", None) == "reconstructed":
        notes.append(f"Reconstructed data: {getattr(sc, 'reason', '') or 'not printed in the rulebook'}")
    for note in notes:
        for ln in _wrap(note, regular, 7.5, width):
            cv.drawString(MARGIN, y - 7.5, ln)
            y -= 9
    y -= 4
    cv.setLineWidth(0.5)
    cv.line(MARGIN, y, pw - MARGIN, y)
    y -= 4
    lines = card_lines(game, sc, side)
    if not lines:
        cv.setFont(regular, 9)
        cv.drawString(MARGIN, y - 12, "This side sets up nothing in this scenario.")
        return
    bottom = MARGIN
    best = (MIN_SIZE, 3)  # the largest letters (at most 9 pt) that fit, in 1 to 3 columns
    for ncols in (1, 2, 3):
        size = 9.0
        while size > best[0] and int((y - bottom) // (size * 1.22)) * ncols < len(lines) + ncols:
            size -= 0.25
        if size > best[0]:
            best = (size, ncols)
    size, ncols = best
    gap = 5 * PT_PER_MM
    col_w = (width - (ncols - 1) * gap) / ncols
    lead = size * 1.22
    per_col = max(1, int((y - bottom) // lead))
    slot = 0
    for i, ln in enumerate(lines):
        if ln.kind in ("head", "group") and slot % per_col == per_col - 1 and i + 1 < len(lines) \
                and (slot + 1) // per_col < ncols:
            slot += 1  # a heading never ends a column
        col, row = divmod(slot, per_col)
        slot += 1
        x, yy = MARGIN + col * (col_w + gap), y - (row + 1) * lead
        font = semibold if ln.kind in ("head", "group") else regular
        fs = size * (1.15 if ln.kind == "head" else 1.0)
        indent = {"head": 0, "group": 0, "item": 8, "note": 8}[ln.kind]
        right_w = min(col_w * 0.45, 60 * PT_PER_MM)
        cv.setFillColor("#7a1f1f" if ln.kind == "head" else "#000000")
        left_w = col_w - indent - (right_w + 4 if ln.right else 0)
        cv.setFont(font, _text_fit(ln.left, font, fs, left_w))
        cv.drawString(x + indent, yy, ln.left)
        if ln.right:
            cv.setFont(regular, _text_fit(ln.right, regular, fs, right_w))
            cv.drawRightString(x + col_w, yy, ln.right)
    cv.setFont(regular, 6.5)
    cv.setFillColor("#000000")
    cv.drawRightString(pw - MARGIN, MARGIN / 2, f"{game.info.title}: set-up card, {sc.name}, {game.sides[side].name}")
