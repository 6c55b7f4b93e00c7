"""Assemble the .vmod: images, help pages, predefined setups, build file and metadata."""
from __future__ import annotations

import io
from collections.abc import Callable
from html import escape

from PIL import Image, ImageDraw

from builder.model.game import Game
from builder.render.counters import all_faces, draw_face, draw_moved_flag
from builder.render.fonts import font
from builder.render.mapimage import render_map
from builder.vassal.archive import zip_bytes_entries
from builder.vassal.buildfile import VASSAL_VERSION, build_xml, plan
from builder.vassal.pieces import MOVED_IMAGE
from builder.vassal.savefile import moduledata_xml, obfuscate, savedata_xml
from builder.vassal.setup import setup_save

DATE_MS = 1637366400000  # fixed "saved" date (20 Nov 2021, Crusader's 80th anniversary): builds are reproducible


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def setup_labels(game: Game) -> dict[str, list[str]]:
    """Division names printed in their set-up hexes (rule 3), from the first scenario."""
    out: dict[str, list[str]] = {}
    for sc in list(game.scenarios.values())[:1]:
        for f in sc.formations:
            out.setdefault(f.hex, []).append(f.formation)
    return out


def map_png(game: Game) -> bytes:
    return png(render_map(game, setup_labels(game)))


def _about(game: Game) -> bytes:
    img = Image.new("RGB", (480, 260), "#f4ecd8")
    d = ImageDraw.Draw(img)
    d.rectangle([6, 6, 473, 253], outline="#1d3047", width=3)
    d.text((240, 90), game.info.title, font=font("black", 40), fill="#1d3047", anchor="mm")
    d.text((240, 140), game.info.description.split(".")[0], font=font("semibold", 16), fill="#1d3047", anchor="mm")
    d.text((240, 220), f"module {game.info.version} - built by hexforge", font=font("regular", 14), fill="#5a4a30", anchor="mm")
    return png(img)


def _html(title: str, body: str) -> bytes:
    return (f"<html><head><meta charset=\"utf-8\"><title>{escape(title)}</title></head>"
            f"<body style=\"font-family: sans-serif\"><h1>{escape(title)}</h1>\n{body}\n</body></html>\n").encode("utf-8")


def _table_page(game: Game, table_id: str) -> bytes:
    t = game.tables[table_id]
    items = "".join(f"<li>{escape(x)}</li>" for x in t.summary)
    body = f"<p>Rule {escape(t.rule)}</p><ul>{items}</ul>"
    mods = t.data.get("modifiers")
    if mods:
        rows = "".join(f"<tr><td>{escape(m['situation'])}</td><td>+{m['value']}{'*' if m.get('negated_by_fortification') else ''}"
                       f"</td><td>{escape(m['rule'])}</td></tr>" for m in mods)
        body += ("<table border=\"1\" cellpadding=\"4\"><tr><th>Situation</th><th>Modifier</th><th>Rule</th></tr>"
                 f"{rows}</table><p>* negated when attacking a unit in a fort or encampment its side controls (9.3).</p>")
    return _html(t.title, body)


def _provenance_page(game: Game) -> bytes:
    """Every reconstructed value, so an owner of the printed game knows what to replace."""
    rows = []
    for what, items in (("formation", game.units_file.formations), ("unit", game.units),
                        ("place", game.map.places), ("marker", game.markers_file.markers)):
        for x in items:
            if x.provenance == "reconstructed":
                rows.append(f"<tr><td>{what}</td><td>{escape(getattr(x, 'name', ''))}</td><td>{escape(x.reason or '')}</td></tr>")
    for what, x in (("grid", game.map.grid), ("numbering", game.map.numbering), ("map terrain", game.map_terrain),
                    ("counter size", game.info.counter)):
        if x.provenance == "reconstructed":
            rows.append(f"<tr><td>{what}</td><td></td><td>{escape(x.reason or '')}</td></tr>")
    body = ("<p>These values are not printed in the rulebook and were reconstructed; they are marked "
            "<code>provenance: reconstructed</code> in the sources.</p><table border=\"1\" cellpadding=\"3\">"
            "<tr><th>What</th><th>Name</th><th>Why</th></tr>" + "".join(rows) + "</table>")
    return _html("Reconstructed data", body)


def build_vmod(game: Game, step: Callable[[str], None] = lambda _: None) -> tuple[bytes, bytes]:
    """The .vmod bytes and the map PNG bytes; `step` is told what is being done."""
    step("counters")
    px = game.info.counter.pixels
    images = [(f"images/{a.file}", png(draw_face(game, a, px))) for a in all_faces(game)]
    step("map")
    board_png = map_png(game)
    images = [("images/map.png", board_png), ("images/about.png", _about(game)),
              (f"images/{MOVED_IMAGE}", png(draw_moved_flag()))] + images
    help_files = [(c.name, f"help/{c.table}.html") for c in game.info.charts]
    help_pages = [(f"help/{c.table}.html", _table_page(game, c.table)) for c in game.info.charts]
    if "sequence" in game.tables:
        help_files.append(("Sequence of Play", "help/sequence.html"))
        help_pages.append(("help/sequence.html", _table_page(game, "sequence")))
    help_files.append(("Reconstructed data", "help/reconstructed.html"))
    help_pages.append(("help/reconstructed.html", _provenance_page(game)))
    setups = [(sc.name, f"{sid}.vsav") for sid, sc in game.scenarios.items()]
    pl = plan(game, help_files, setups)
    step("setups")
    meta = moduledata_xml(game.info.title, game.info.version, VASSAL_VERSION, DATE_MS, game.info.description)
    saves = []
    for sid, sc in game.scenarios.items():
        entries = [("savedGame", obfuscate(setup_save(pl, sc))),
                   ("savedata", savedata_xml(game.info.version, VASSAL_VERSION, DATE_MS, sc.name)),
                   ("moduledata", meta)]
        saves.append((f"{sid}.vsav", zip_bytes_entries(entries)))
    step("build file")
    entries = [("moduledata", meta), ("buildFile.xml", build_xml(pl))] + images + help_pages + saves
    return zip_bytes_entries(entries), board_png
