"""The audit report as one self-contained HTML page: a match summary, a table of every finding,
and for each finding with hexes a crop of the module's own board with the move drawn on it, the
counters as they stood at the finding's step (validators/situation.py) and the hexes its message
names outlined.

No external resources: the CSS is inline and every picture is a base64 PNG `data:` URI.
The same report always gives the same string (PNG encoding carries no timestamps).
"""
from __future__ import annotations

import base64
import io
import math
import re
from html import escape
from pathlib import Path

from PIL import Image, ImageDraw

from builder.model import Game
from builder.render.fonts import font
from builder.vassal.module import map_png
from builder.vassal.pieces import MOVED_IMAGE
from validators.findings import AuditReport, Finding
from validators.situation import Situation, face_image

MAX_SIDE = 480  # largest width (and height) of a map picture, in CSS pixels
MARGIN_HEXES = 3.5  # board shown around the outermost hex centres, in hex spacings
SS = 2  # the overlay is drawn at twice the final size, then scaled down (anti-aliasing)
PATH_INK = "#7b1fa2"  # purple: no road, track, sea or desert on the board has this colour
START_INK = "#1565c0"
END_INK = "#e00000"
NAMED_INK = "#00e5ff"  # cyan on a dark edge: a hex the message names (no board or counter colour)
LINE_PX, OUTLINE_PX = 6, 4  # final widths
STACK_SEP = (3, 5)  # a stack's pieces shifted right and up by (unexSepX, unexSepY), as the module's StackMetrics
MIN_SEP = 2.0  # ...but at least this many final pixels per piece, so a stack shows at any scale
MOVED_AT = (20, -24)  # top-left of the moved flag from the piece's centre (pieces.mark_moved)

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em;color:#1d3047;background:#fbf8f1}
h1{margin:0 0 .2em}h2{margin-top:1.5em}
.log{color:#5a4a30;margin:0 0 1em}
dl.summary{display:grid;grid-template-columns:max-content auto;gap:.2em 1em;margin:0}
dl.summary dt{font-weight:600}dl.summary dd{margin:0}
table.findings{border-collapse:collapse;width:100%;font-size:.92em}
.findings th,.findings td{border:1px solid #c9bfa8;padding:.3em .5em;text-align:left;vertical-align:top}
.findings th{background:#1d3047;color:#fff}
tr.violation{background:#fff}tr.event{background:#e3f1e0}
.badge{display:inline-block;font-size:.78em;font-weight:700;padding:0 .4em;border-radius:.3em;color:#fff}
.violation .badge{background:#c62828}.event .badge{background:#2e7d32}
.maps{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
figure{margin:0;background:#fff;border:1px solid #c9bfa8;padding:.5em;max-width:480px}
figure img{display:block;max-width:100%;height:auto}
figcaption{font-size:.88em;margin-top:.4em}
.clean{font-weight:600;color:#2e7d32}
"""


def as_html(game: Game, report: AuditReport, situations: dict[int, Situation] | None = None) -> str:
    """The whole report page; `situations` (step -> counters on the map) puts the counters in
    the pictures."""
    board, situations = _Board(game), situations or {}
    pictures = {i: board.picture(f, situations.get(f.step)) for i, f in enumerate(report.findings, 1)
                if _hexes(game, f) or _named(game, f)}
    title = f"Audit of {Path(str(report.log)).name} - {game.info.title}"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title>\n<style>{CSS}</style></head>\n<body>\n"
            f"{_header(game, report)}\n{_table(report, pictures)}\n{_figures(report, pictures)}\n</body>\n</html>\n")


def _header(game: Game, report: AuditReport) -> str:
    """Title, log name and the match summary."""
    s = report.summary
    n_viol = len(report.violations)
    dice = ", ".join(f"{side} {n}" for side, n in s.dice_by_side.items()) or "none"
    rows = [("Steps", s.steps), ("Turns seen", ", ".join(map(str, s.turns)) or "none"),
            ("Last turn", "-" if s.last_turn is None else s.last_turn), ("Dice rolled", dice),
            ("Undo", s.undo_count), ("Violations", n_viol), ("Events", len(report.findings) - n_viol)]
    dl = "".join(f"<dt>{escape(k)}</dt><dd class=\"{escape(k.lower().replace(' ', '-'))}\">{escape(str(v))}</dd>"
                 for k, v in rows)
    return (f"<header><h1>{escape(game.info.title)}</h1>\n"
            f"<p class=\"log\">Log: <code>{escape(Path(str(report.log)).name)}</code></p>\n"
            f"<dl class=\"summary\">{dl}</dl></header>")


def _cell(v: object) -> str:
    return f"<td>{escape('' if v is None else str(v))}</td>"


def _table(report: AuditReport, pictures: dict[int, str]) -> str:
    """One row per finding; events get their own class and badge."""
    if not report.findings:
        return "<h2>Findings</h2>\n<p class=\"clean\">No findings: every move in the log is legal.</p>"
    head = "".join(f"<th>{h}</th>" for h in ("Step", "Turn", "Phase", "Side", "Piece", "From", "To", "Rule", "Message", "Map"))
    rows = []
    for i, f in enumerate(report.findings, 1):
        kind = "event" if f.kind != "violation" else "violation"
        badge = f"<span class=\"badge\">{escape(kind.upper())}</span> "
        link = f"<td><a href=\"#map-{i}\">map</a></td>" if i in pictures else "<td></td>"
        rows.append(f"<tr class=\"{kind}\" id=\"finding-{i}\">" +
                    "".join(_cell(v) for v in (f.step, f.turn, f.phase, f.side, f.piece, f.from_hex, f.to_hex)) +
                    _rule_cell(f) + f"<td>{badge}{escape(f.message)}</td>{link}</tr>")
    return (f"<h2>Findings</h2>\n<table class=\"findings\"><thead><tr>{head}</tr></thead>\n<tbody>\n"
            + "\n".join(rows) + "\n</tbody></table>")


def _rule_cell(f: Finding) -> str:
    """The rule number, and under it the rule's short text when the game's catalogue has it."""
    text = (f"<div class=\"rule-text\" style=\"font-size:.85em;color:#5a4a30;min-width:14em\">{escape(f.rule_text)}</div>"
            if f.rule_text else "")
    return f"<td class=\"rule\">{escape(f.rule)}{text}</td>"


def _figures(report: AuditReport, pictures: dict[int, str]) -> str:
    """The map pictures, one figure per finding that has hexes."""
    if not pictures:
        return ""
    figs = []
    for i, uri in pictures.items():
        f = report.findings[i - 1]
        where = " - ".join(_hexes_raw(f))
        cap = f"Step {f.step}, rule {f.rule}: {f.message}"
        figs.append(f"<figure id=\"map-{i}\"><img src=\"{uri}\" alt=\"{escape(f'{where} (rule {f.rule})')}\">"
                    f"<figcaption><a href=\"#finding-{i}\">{escape(cap)}</a></figcaption></figure>")
    return "<h2>Maps</h2>\n<div class=\"maps\">\n" + "\n".join(figs) + "\n</div>"


def _hexes_raw(f: Finding) -> list[str]:
    """The hexes of a move: its path if given, else from -> to (either may be missing)."""
    seq = list(f.path) if f.path else [h for h in (f.from_hex, f.to_hex) if h]
    return [h for i, h in enumerate(seq) if i == 0 or h != seq[i - 1]]  # no zero-length legs


def _hexes(game: Game, f: Finding) -> list[str]:
    """The move's hexes that exist on this map (a label off the map cannot be drawn)."""
    return [h for h in _hexes_raw(f) if h in game.geometry]


_WORD = re.compile(r"(?<![\w.])\w+(?![\w.])")  # "3.5" is a number, not hexes "3" and "5"


def _named(game: Game, f: Finding) -> list[str]:
    """The map hexes the message names (e.g. 0607 in "... via 0605-0606-0607"), in order, once."""
    words = _WORD.findall(f.message)
    return list(dict.fromkeys(w for w in words if any(c.isdigit() for c in w) and w in game.geometry))


class _Board:
    """The module's board image, rendered once on first use, and the crops drawn from it."""

    def __init__(self, game: Game):
        self.game = game
        self._img: Image.Image | None = None

    @property
    def img(self) -> Image.Image:
        if self._img is None:
            self._img = Image.open(io.BytesIO(map_png(self.game))).convert("RGB")
        return self._img

    def crop_box(self, hexes: list[str]) -> tuple[int, int, int, int]:
        """Board rectangle around the hexes' centres with a margin, clamped to the board."""
        geo = self.game.geometry
        m = MARGIN_HEXES * max(geo.grid.dx, geo.grid.dy)
        xs, ys = zip(*(geo.ideal_centre(h) for h in hexes))
        w, h = self.img.size
        return (max(0, math.floor(min(xs) - m)), max(0, math.floor(min(ys) - m)),
                min(w, math.ceil(max(xs) + m)), min(h, math.ceil(max(ys) + m)))

    def picture(self, f: Finding, situation: Situation | None = None) -> str:
        """The finding's crop with the counters of `situation`, the hexes its message names and
        its move drawn on it, as a data: URI."""
        hexes, named = _hexes(self.game, f), _named(self.game, f)
        box = self.crop_box(hexes + [h for h in named if h not in hexes])
        k = min(1.0, MAX_SIDE / (box[2] - box[0]), MAX_SIDE / (box[3] - box[1]))
        size = (max(1, round((box[2] - box[0]) * k)), max(1, round((box[3] - box[1]) * k)))
        big = self.img.crop(box).resize((size[0] * SS, size[1] * SS), Image.LANCZOS)
        to_px = lambda p: ((p[0] - box[0]) * k * SS, (p[1] - box[1]) * k * SS)  # noqa: E731
        if situation:
            _draw_counters(big, self.game, situation, to_px, k)
        d = ImageDraw.Draw(big)
        for h in named:
            if hexes and h in (hexes[0], hexes[-1]):
                continue  # outlined as the move's start or end
            pts = [to_px(p) for p in self.game.geometry.outline(h)]
            d.polygon(pts, outline="#1d3047", width=(OUTLINE_PX + 2) * SS)
            d.polygon(pts, outline=NAMED_INK, width=(OUTLINE_PX - 1) * SS)
        if hexes:
            _draw_move(d, self.game, hexes, to_px, k * SS, f.rule)
        else:  # no move: the rule's tag on the first hex named
            geo = self.game.geometry
            _label(d, to_px(geo.ideal_centre(named[0])), max(geo.grid.dx, geo.grid.dy) * k * SS, f"rule {f.rule}")
        buf = io.BytesIO()
        big.resize(size, Image.LANCZOS).save(buf, format="PNG")
        return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _draw_move(d: ImageDraw.ImageDraw, game: Game, hexes: list[str], to_px, scale: float, rule: str) -> None:
    """Start hex outline, end hex outline in red, the path with an arrow head, the rule label."""
    geo = game.geometry
    outline = lambda h, ink: d.polygon([to_px(p) for p in geo.outline(h)], outline=ink, width=OUTLINE_PX * SS)  # noqa: E731
    if len(hexes) > 1:
        outline(hexes[0], START_INK)
    outline(hexes[-1], END_INK)
    pts = [to_px(geo.ideal_centre(h)) for h in hexes]
    spacing = max(geo.grid.dx, geo.grid.dy) * scale
    if len(pts) > 1:
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        ln = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / ln, (by - ay) / ln
        tip = (bx + ux * 0.25 * spacing, by + uy * 0.25 * spacing)
        base = (tip[0] - ux * 0.55 * spacing, tip[1] - uy * 0.55 * spacing)
        half = 0.25 * spacing
        d.line(pts[:-1] + [base], fill=PATH_INK, width=LINE_PX * SS, joint="curve")
        r = LINE_PX * SS * 0.9
        d.ellipse([pts[0][0] - r, pts[0][1] - r, pts[0][0] + r, pts[0][1] + r], fill=PATH_INK)
        d.polygon([tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)],
                  fill=PATH_INK)
    _label(d, pts[-1], spacing, f"rule {rule}")


def _draw_counters(big: Image.Image, game: Game, situation: Situation, to_px, k: float) -> None:
    """Each counter near the crop with the module's image (a labelled square when the image is
    not the module's), scaled to the crop, a stack's pieces shifted right and up from its bottom."""
    n = max(2, round(game.info.counter.pixels * k * SS))
    sep = [max(s * k, MIN_SEP) * SS for s in STACK_SEP]
    scaled: dict[str, Image.Image] = {}
    flag = face_image(game, MOVED_IMAGE)
    flag = flag.resize([max(1, round(v * k * SS)) for v in flag.size], Image.LANCZOS)
    for c in situation:
        cx, cy = to_px((c.x, c.y))
        cx, cy = cx + c.level * sep[0], cy - c.level * sep[1]  # this piece's centre as drawn
        x0, y0 = round(cx - n / 2), round(cy - n / 2)
        if x0 >= big.width or y0 >= big.height or x0 + n <= 0 or y0 + n <= 0:
            continue
        if c.image not in scaled:
            art = face_image(game, c.image) if c.image else None
            scaled[c.image] = art.resize((n, n), Image.LANCZOS) if art else None
        big.paste(scaled[c.image] or _plain_counter(c.name, n), (x0, y0))
        if c.moved:
            big.paste(flag, (round(cx + MOVED_AT[0] * k * SS), round(cy + MOVED_AT[1] * k * SS)), flag)


def _plain_counter(name: str, n: int) -> Image.Image:
    """A counter whose image is unknown: a grey square with its name."""
    img = Image.new("RGB", (n, n), "#d9d4c7")
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, n - 1, n - 1], outline="#202020", width=max(1, n // 32))
    f = font("bold", max(6, n // 6))
    words, lines = name.split(), []
    for w in words:
        if lines and d.textlength(f"{lines[-1]} {w}", font=f) <= n * 0.9:
            lines[-1] += f" {w}"
        else:
            lines.append(w)
    d.multiline_text((n / 2, n / 2), "\n".join(lines[:4]), font=f, fill="#202020", anchor="mm", align="center")
    return img


def _label(d: ImageDraw.ImageDraw, centre: tuple[float, float], spacing: float, text: str) -> None:
    """A small white tag with the rule number, just above the end hex."""
    f = font("bold", 13 * SS)
    x, y = centre[0], centre[1] - 0.62 * spacing
    pad = 3 * SS
    l, t, r, b = d.textbbox((x, y), text, font=f, anchor="mm")
    w, h = d.im.size
    x += max(0, pad - l) - max(0, r + pad - w)  # keep the tag inside the picture
    y += max(0, pad - t) - max(0, b + pad - h)
    l, t, r, b = d.textbbox((x, y), text, font=f, anchor="mm")
    d.rounded_rectangle([l - pad, t - pad, r + pad, b + pad], radius=3 * SS, fill="#ffffff", outline=END_INK, width=SS)
    d.text((x, y), text, font=f, fill=END_INK, anchor="mm")
