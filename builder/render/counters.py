"""Counter faces (rule 2.1 of Bravery in the Sand): one drawing for the module and the print.

`draw_*` take the edge length in pixels, so the module's 64 px art and a 300 dpi print sheet
come from the same code.  Drawing happens at 4x and is reduced, for smooth edges.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from builder.model import app6
from builder.model import schema as s
from builder.model.game import ChitSpec, Game
from builder.render import unitsymbol
from builder.render.fonts import draw_text, fit, font, mark
from builder.art import art_in, fitted_art

SS = 4  # supersampling factor
REDUCED_BAND = "#f7f3e8"


@dataclass(frozen=True)
class FaceArt:
    """One face to draw: its archive file name and how to draw it."""

    file: str
    kind: str  # unit | leader | marker | chit
    ref: str
    face: int  # 1 full / first face, 2 reduced / second face


def _luma(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def _ink_on(colour: str) -> str:
    return "#000000" if _luma(colour) > 140 else "#ffffff"


def _canvas(px: int, colour: str, art: tuple[Path, str] | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    """A face of `colour`, or of the designer's `art` (game folder, file) on that colour."""
    n = px * SS
    img = fitted_art(art[0], art[1], n, colour) if art else Image.new("RGB", (n, n), colour)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, n - 1, n - 1], outline="#202020", width=_border(n))
    return img, d, n


def _border(n: int) -> int:
    return max(1, n // 64)


def _inside(n: int) -> tuple[float, float, float, float]:
    """The face inside its black edge: no text may touch the edge or the cut line."""
    b = _border(n)
    return (b, b, n - b, n - b)


def _finish(img: Image.Image, px: int) -> Image.Image:
    return img.reduce(SS) if img.width == px * SS else img.resize((px, px), Image.LANCZOS)


def _centred(d: ImageDraw.ImageDraw, xy, text: str, f, fill: str, box) -> None:
    draw_text(d, xy, text, f, fill, box, scale=SS)


def _unit_symbol(img: Image.Image, box, spec: str, ink: str, paper: str, width: int, clip) -> None:
    """The type's APP-6 symbol (builder/render/unitsymbol.py): its frame in `box`, lines `width` wide."""
    unitsymbol.draw(img, box, app6.sidc(spec), ink, paper, width, clip)


def _face_template(game: Game, unit: s.Unit, reduced: bool) -> s.FaceValues:
    faces = game.unit_types[unit.type].faces or game.units_file.faces
    return faces.reduced if reduced else faces.full


class _Fields(dict):
    """A unit's fields by name, for `str.format_map`: read from the unit itself, so that a face
    draws the same from the model and from its plain copy (builder/model/plain.py), as an
    audit's HTML report does."""

    def __init__(self, unit: s.Unit) -> None:
        super().__init__()
        self.unit = unit

    def __missing__(self, key: str):
        try:
            return getattr(self.unit, key)
        except AttributeError:
            raise KeyError(key) from None


def face_values(game: Game, unit: s.Unit, reduced: bool) -> tuple[str, str]:
    """The two corner values a face prints, from the game's face templates."""
    f, fields = _face_template(game, unit, reduced), _Fields(unit)
    return f.left.format_map(fields), f.right.format_map(fields)


def face_extras(game: Game, unit: s.Unit, reduced: bool) -> tuple[str, str, str]:
    """Bottom centre and the top corners: empty unless the game's templates fill them."""
    f, fields = _face_template(game, unit, reduced), _Fields(unit)
    return f.centre.format_map(fields), f.top_left.format_map(fields), f.top_right.format_map(fields)


def reduced_band(n: int, has_size: bool) -> tuple[float, float, float, float]:
    """The light band across a reduced face, behind the unit symbol and clear of every text."""
    top = _symbol_top(has_size)
    b = _border(n)
    return (b, n * (top - 0.015), n - b, n * (top + SYMBOL_H + 0.015))


def _symbol_top(has_size: bool) -> float:
    return 0.35 if has_size else 0.30


SYMBOL_H = 0.24  # of the counter's edge; the symbol is 0.40 wide


def draw_unit(game: Game, unit: s.Unit, reduced: bool, px: int) -> Image.Image:
    """A unit face, top to bottom: division stripe, size, symbol, name, the two values.

    A reduced face carries a light band across the counter behind the symbol, the way
    published step-loss counters do; it runs between the size mark and the name, so it
    never crosses a letter.
    """
    formation = game.formations[unit.formation]
    nat = game.nationality_of_unit(unit)
    art = unit_image(unit, reduced)  # the designer's art, in place of the symbol (issue 35)
    img, d, n = _canvas(px, nat.colour)
    inside = _inside(n)
    ink = nat.text
    stripe = (n * 0.03, n * 0.03, n * 0.97, int(n * 0.24))
    d.rectangle(stripe, fill=formation.stripe)
    centre, corner_l, corner_r = face_extras(game, unit, reduced)
    if formation.division:  # units outside a division print no parent division (WDF 10.51)
        label = formation.id
        _centred(d, (n / 2, (stripe[1] + stripe[3]) / 2), label,
                 fit(label, "bold", int(n * 0.19), n * (0.56 if corner_l or corner_r else 0.88)),
                 _ink_on(formation.stripe), stripe)
    for text, x in ((corner_l, n * 0.12), (corner_r, n * 0.88)):  # Tobrouk 41-42: weapon letter, steps
        if text:
            _centred(d, (x, (stripe[1] + stripe[3]) / 2), text, fit(text, "bold", int(n * 0.15), n * 0.18),
                     _ink_on(formation.stripe), stripe)
    top = _symbol_top(bool(unit.size))
    symbol_ink = ink
    if reduced and not (art and unit.image_reduced):  # a reduced face of its own art shows it itself
        band = reduced_band(n, bool(unit.size))
        d.rectangle(band, fill=REDUCED_BAND)
        mark("band", band, scale=SS)
        symbol_ink = "#202020"
    if unit.size:
        _centred(d, (n / 2, n * 0.29), unit.size, font("bold", int(n * 0.11)), ink,
                 (inside[0], stripe[3], inside[2], n * (top - 0.015)))
    sym = (n * 0.30, n * top, n * 0.70, n * (top + SYMBOL_H))
    if art is None:
        # beyond the frame (an HQ's staff, an echelon mark): down to the old staff's foot, up to the size mark
        clip = (inside[0], n * (top - 0.015) if unit.size else stripe[3], inside[2], n * (top + SYMBOL_H * 1.15))
        _unit_symbol(img, sym, game.unit_types[unit.type].symbol, symbol_ink, REDUCED_BAND if reduced else nat.colour,
                     max(2, n // 40), clip)
    else:  # between the stripe (or the size) and the name, as wide as the face allows
        box = (int(n * 0.07), int(n * (top - 0.04)), int(n * 0.93), int(n * (top + SYMBOL_H + 0.02)))
        picture = art_in(game.root, art.file, (box[2] - box[0], box[3] - box[1]), trim=True)
        img.paste(picture, box[:2], picture)
    name_y = n * (top + SYMBOL_H + 0.085)
    _centred(d, (n / 2, name_y), unit.short, fit(unit.short, "semibold", int(n * 0.14), n * 0.9), ink,
             (inside[0], n * (top + SYMBOL_H + 0.015), inside[2], n * 0.78))
    left, right = face_values(game, unit, reduced)
    big = font("bold", int(n * 0.25))
    draw_text(d, (n * 0.10, n * 0.95), left, big, ink, inside, scale=SS, anchor="ls")
    draw_text(d, (n * 0.90, n * 0.95), right, big, ink, inside, scale=SS, anchor="rs")
    if centre:  # Tobrouk 41-42: morale in a black circle between the two strengths (1.31g)
        r = n * 0.12
        d.ellipse([n / 2 - r, n * 0.86 - r, n / 2 + r, n * 0.86 + r], fill="#1c1c1c")
        _centred(d, (n / 2, n * 0.86), centre, fit(centre, "bold", int(n * 0.17), r * 1.8), "#ffffff", inside)
    return _finish(img, px)


def draw_leader(game: Game, leader: s.Leader, face: int, px: int) -> Image.Image:
    """A leader face: name, a star, attack-defence-range (rule 13.1 of Western Desert Force)."""
    nat = game.nationalities[leader.nationality]
    lf = leader.faces[face - 1]
    img, d, n = _canvas(px, nat.colour)
    inside = _inside(n)
    ink = nat.text
    plate = (n * 0.03, n * 0.03, n * 0.97, n * 0.26)
    d.rectangle(plate, fill="#1c1c1c")
    _centred(d, (n / 2, n * 0.145), lf.name, fit(lf.name, "bold", int(n * 0.17), n * 0.9), "#ffffff", plate)
    cx, cy, r = n / 2, n * 0.50, n * 0.16
    pts = [(cx + (r if i % 2 == 0 else r * 0.42) * math.sin(i * math.pi / 5),
            cy - (r if i % 2 == 0 else r * 0.42) * math.cos(i * math.pi / 5)) for i in range(10)]
    d.polygon(pts, fill=ink)
    if face == 2:
        _centred(d, (n / 2, n * 0.735), "SECONDARY", fit("SECONDARY", "semibold", int(n * 0.11), n * 0.9), ink,
                 inside)
    values = f"{lf.attack}-{lf.defence}-{lf.range}"
    _centred(d, (n / 2, n * 0.88), values, fit(values, "bold", int(n * 0.22), n * 0.9), ink, inside)
    return _finish(img, px)


def unit_image(unit: s.Unit, reduced: bool) -> s.FaceImage | None:
    """A unit face's own art: the reduced face's, else the full face's (issue 35)."""
    return (unit.image_reduced or unit.image) if reduced else unit.image


def draw_art_face(root: Path, image: s.FaceImage, colour: str, px: int) -> Image.Image:
    """A face that is the designer's art alone (`values: false`), in the counters' black edge."""
    img, _, _ = _canvas(px, colour, (root, image.file))
    return _finish(img, px)


def draw_marker(marker: s.Marker, face: int, px: int, root: Path | None = None) -> Image.Image:
    """A marker face: its text on its colour, or on its art (markers.yaml `image`; `root`: the game's folder)."""
    f = marker.faces[face - 1]
    img, d, n = _canvas(px, f.colour, (root, f.image.file) if f.image and root else None)
    words = f.text.split()
    lines = words if len(words) > 1 else [f.text]
    size = int(n * 0.62 / max(1, len(lines)))
    fnt = min((fit(w, "bold", size, n * 0.86) for w in lines), key=lambda x: x.size)
    step = fnt.size * 1.05
    top = n / 2 - step * (len(lines) - 1) / 2
    for i, w in enumerate(lines):
        _centred(d, (n / 2, top + i * step), w, fnt, f.text_colour, _inside(n))
    return _finish(img, px)


def draw_chit(game: Game, chit: ChitSpec, px: int) -> Image.Image:
    nat = game.nationalities[chit.nationality]
    img, d, n = _canvas(px, nat.colour)
    inside = _inside(n)
    band = (n * 0.03, n * 0.32, n * 0.97, n * 0.68)
    d.rectangle(band, fill=chit.stripe)
    _centred(d, (n / 2, n / 2), chit.text, fit(chit.text, "black", int(n * 0.30), n * 0.86), _ink_on(chit.stripe),
             band)
    _centred(d, (n / 2, n * 0.18), "ACTIVATION", fit("ACTIVATION", "semibold", int(n * 0.13), n * 0.86), nat.text,
             (inside[0], inside[1], inside[2], band[1]))
    _centred(d, (n / 2, n * 0.84), nat.name.upper(), fit(nat.name.upper(), "semibold", int(n * 0.13), n * 0.86),
             nat.text, (inside[0], band[3], inside[2], inside[3]))
    return _finish(img, px)


def draw_moved_flag(px: int = 18) -> Image.Image:
    """The small flag VASSAL shows on a piece that moved this turn (Mark When Moved)."""
    n = px * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([SS, SS, n - SS, n - SS], fill="#c0392b", outline="#ffffff", width=2 * SS)
    d.text((n / 2, n / 2), "M", font=font("black", int(n * 0.6)), fill="#ffffff", anchor="mm")
    return img.reduce(SS) if img.width == px * SS else img.resize((px, px), Image.LANCZOS)


def all_faces(game: Game) -> list[FaceArt]:
    """Every face image the module and the sheets need, in a stable order."""
    out = []
    for u in game.units:
        out.append(FaceArt(f"unit-{u.id}-full.png", "unit", u.id, 1))
        if u.steps == 2:
            out.append(FaceArt(f"unit-{u.id}-reduced.png", "unit", u.id, 2))
    for ld in game.units_file.leaders:
        out += [FaceArt(f"leader-{ld.id}-{i}.png", "leader", ld.id, i) for i in range(1, len(ld.faces) + 1)]
    for m in game.markers_file.markers:
        out += [FaceArt(f"marker-{m.id}-{i}.png", "marker", m.id, i) for i in range(1, len(m.faces) + 1)]
    out += [FaceArt(f"{c.id}.png", "chit", c.id, 1) for c in game.chits]
    return out


def face_image(game: Game, art: FaceArt) -> s.FaceImage | None:
    """The designer's art of a unit's or a marker's face, if it has any."""
    if art.kind == "unit":
        return unit_image(next(u for u in game.units if u.id == art.ref), art.face == 2)
    if art.kind == "marker":
        return game.markers[art.ref].faces[art.face - 1].image
    return None


def exact_face_png(game: Game, art: FaceArt) -> bytes | None:
    """The bytes of a face that is its art as it is (`exact`: an imported module's counter image,
    issue 33), for the module to hold unchanged; None for a face hexforge draws."""
    from builder.art import _read

    image = face_image(game, art)
    return _read(game.root, image.file) if image is not None and image.exact else None


def draw_face(game: Game, art: FaceArt, px: int) -> Image.Image:
    if art.kind == "unit":
        unit = next(u for u in game.units if u.id == art.ref)
        image = unit_image(unit, art.face == 2)
        if image is not None and not image.values:
            return draw_art_face(game.root, image, game.nationality_of_unit(unit).colour, px)
        return draw_unit(game, unit, art.face == 2, px)
    if art.kind == "leader":
        return draw_leader(game, game.leaders[art.ref], art.face, px)
    if art.kind == "marker":
        m = game.markers[art.ref]
        image = m.faces[art.face - 1].image
        if image is not None and not image.values:
            return draw_art_face(game.root, image, m.faces[art.face - 1].colour, px)
        return draw_marker(m, art.face, px, game.root)
    return draw_chit(game, next(c for c in game.chits if c.id == art.ref), px)
