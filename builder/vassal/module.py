"""Assemble the .vmod: images, help pages, predefined setups, build file and metadata."""
from __future__ import annotations

import io
from collections.abc import Callable
from html import escape

from PIL import Image, ImageDraw

from builder.art import MAX_ART
from builder.model.event_checks import card_name
from builder.model.game import Game
from builder.paths import inside
from builder.render.event_cards import all_card_art, draw_board as draw_events_board, draw_card_art
from builder.render.counters import FaceArt, all_faces, draw_face, draw_moved_flag, exact_face_png
from builder.render.fonts import draw_text, fit, font, wrap
from builder.render.mapimage import render_map_png
from builder.vassal.archive import zip_bytes_entries
from builder.vassal.buildfile import VASSAL_VERSION, build_xml, plan
from builder.vassal.counters import CHIT_BACK
from builder.vassal.keys import KEYS_PAGE, keys_page
from builder.vassal.pieces import MOVED_IMAGE
from builder.vassal.fingerprint import PREFIX, geometry_fingerprint
from builder.vassal.images import require_images
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
    return render_map_png(game, setup_labels(game))


MAX_ART = 64 * 1024 * 1024  # bytes of a board's art file; an 8000 x 8000 scan compresses far below it


def board_art(game: Game, board=None) -> bytes:
    """The bytes of the board's art (map.yaml `board.image`, or a further map's), checked to be an
    image of the board's size: VASSAL takes a board's size from its image, and the hex ids depend on it.
    (The loader checks the same at map.yaml's line, builder/model/references.py: this is the
    last look before the bytes go into the module.)"""
    from builder.model.problems import SourceError, SourceProblem

    b = board or game.map.board
    path = game.root / b.image

    def problem(msg: str) -> SourceError:
        return SourceError([SourceProblem(f"sources/{game.root.name}/map.yaml", 1, 1, msg,
                                          "name an image file in the game's folder of the board's width x height")])
    try:
        if not inside(game.root, path) or not path.is_file() or path.stat().st_size > MAX_ART:  # a link out: refused
            raise problem(f"board image {b.image}: no such file in the game's folder, or larger than {MAX_ART} bytes")
        data = path.read_bytes()
        with Image.open(io.BytesIO(data)) as img:
            size = img.size
    except OSError as exc:
        raise problem(f"board image {b.image}: cannot read it ({exc})") from None
    if size != (b.width, b.height):
        raise problem(f"board image {b.image} is {size[0]} x {size[1]} px; the board says {b.width} x {b.height}")
    return data


def _about(game: Game) -> bytes:
    img = Image.new("RGB", (480, 260), "#f4ecd8")
    d = ImageDraw.Draw(img)
    d.rectangle([6, 6, 473, 253], outline="#1d3047", width=3)
    inner = 440  # every text fits inside the frame: the title shrinks, the subtitle wraps
    draw_text(d, (240, 80), game.info.title, fit(game.info.title, "black", 40, inner), "#1d3047", (20, 20, 460, 130))
    sub = font("semibold", 16)
    lines = wrap(game.info.description.split(".")[0], sub, inner, balance=True)[:3]
    for i, line in enumerate(lines):
        draw_text(d, (240, 150 + 20 * (i - (len(lines) - 1) / 2)), line, sub, "#1d3047", (20, 110, 460, 200))
    draw_text(d, (240, 225), f"module {game.info.version} - built by hexforge", font("regular", 14), "#5a4a30",
              (20, 205, 460, 245))
    return png(img)


def chit_back(px: int) -> Image.Image:
    """The one back every chit shows in the mug and to the opponent (5.1.2): no side, no colour."""
    ss = 4
    img = Image.new("RGB", (px * ss, px * ss), "#cfc6b4")
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, px * ss - 1, px * ss - 1], outline="#3b3428", width=2 * ss)
    d.rectangle([5 * ss, 5 * ss, px * ss - 5 * ss, px * ss - 5 * ss], outline="#8a7f6a", width=ss)
    d.text((px * ss / 2, px * ss / 2), "?", font=font("black", int(px * ss * 0.55)), fill="#3b3428", anchor="mm")
    return img.resize((px, px), Image.LANCZOS)


def _html(title: str, body: str) -> bytes:
    return (f"<html><head><meta charset=\"utf-8\"><title>{escape(title)}</title></head>"
            f"<body style=\"font-family: sans-serif\"><h1>{escape(title)}</h1>\n{body}\n</body></html>\n").encode("utf-8")


def _table_page(game: Game, table_id: str) -> bytes:
    """A chart as a help page: its summary lines, then its data as nested tables."""
    t = game.tables[table_id]
    items = "".join(f"<li>{escape(x)}</li>" for x in t.summary)
    note = f"<p><i>Reconstructed: {escape(t.reason or '')}</i></p>" if t.provenance == "reconstructed" else ""
    return _html(t.title, f"<p>Rule {escape(t.rule)}</p>{note}<ul>{items}</ul>{_data_html(t.data)}")


def _data_html(v) -> str:
    """Any table data readable: a list of records as a table, a mapping as key/value rows."""
    if isinstance(v, dict):
        rows = "".join(f"<tr><th align=\"left\">{escape(str(k))}</th><td>{_data_html(x)}</td></tr>" for k, x in v.items())
        return f"<table border=\"1\" cellpadding=\"3\">{rows}</table>"
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        cols = list(dict.fromkeys(k for x in v for k in x))
        head = "".join(f"<th>{escape(str(c))}</th>" for c in cols)
        body = "".join("<tr>" + "".join(f"<td>{_data_html(x.get(c, ''))}</td>" for c in cols) + "</tr>" for x in v)
        return f"<table border=\"1\" cellpadding=\"3\"><tr>{head}</tr>{body}</table>"
    if isinstance(v, list):
        return escape(", ".join(str(x) for x in v))
    return escape(str(v))


def _provenance_page(game: Game) -> bytes:
    """Every reconstructed value, so an owner of the printed game knows what to replace."""
    rows = []
    for what, items in (("formation", game.units_file.formations), ("unit", game.units),
                        ("leader", game.units_file.leaders), ("place", game.map.places),
                        ("marker", game.markers_file.markers), ("table", game.tables.values()),
                        ("scenario", game.scenarios.values())):
        for x in items:
            if x.provenance == "reconstructed":
                name = getattr(x, "name", None) or getattr(x, "title", None) or getattr(x, "id", "")
                if what == "leader":
                    name = " / ".join(f.name for f in x.faces)
                rows.append(f"<tr><td>{what}</td><td>{escape(name)}</td><td>{escape(x.reason or '')}</td></tr>")
    for sc in game.scenarios.values():  # set-up entries a lost card supplies (Desert Fox AXC-1, ALC-1...)
        for x in [*sc.units, *sc.reinforcements]:
            if x.provenance == "reconstructed":
                who = getattr(x, "unit", None) or ", ".join(x.units)
                rows.append(f"<tr><td>set-up: {escape(sc.name)}</td><td>{escape(who)}</td><td>{escape(x.reason or '')}</td></tr>")
    for deck in game.events.decks if game.events else []:
        rows += [f"<tr><td>event card</td><td>{escape(card_name(deck, c))}</td><td>{escape(c.reason or '')}</td></tr>"
                 for c in deck.cards if c.provenance == "reconstructed"]
    for what, x in (("grid", game.map.grid), ("numbering", game.map.numbering), ("map terrain", game.map_terrain),
                    ("counter size", game.info.counter)):
        if x.provenance == "reconstructed":
            rows.append(f"<tr><td>{what}</td><td></td><td>{escape(x.reason or '')}</td></tr>")
    body = ("<p>These values are not printed in the rulebook and were reconstructed; they are marked "
            "<code>provenance: reconstructed</code> in the sources.</p><table border=\"1\" cellpadding=\"3\">"
            "<tr><th>What</th><th>Name</th><th>Why</th></tr>" + "".join(rows) + "</table>")
    return _html("Reconstructed data", body)


def events_page(game: Game) -> bytes:
    """Every event card whole (a card's face may cut a long text), deck by deck, and how to use them."""
    from builder.vassal.event_decks import hand_name
    ev = game.events
    hands = ", ".join(hand_name(x) for x in game.info.sides)
    body = [f"<p>Draw a card by dragging it from its pile in the <b>Events</b> window (Alt+E) into your hand "
            f"({escape(hands)}: Alt+1, Alt+2...; only its side can open it). A drawn card stays hidden from the "
            f"opponent{' (rule ' + escape(ev.rule) + ')' if ev.rule else ''}. <b>Play event</b> (Alt+P) on a held card "
            f"writes the play in the log and lays the card face up on <b>{escape(ev.played)}</b>"
            f"{' (rule ' + escape(ev.played_rule) + ')' if ev.played_rule else ''}. "
            f"Ctrl+H shows a held card to the opponent, or hides it again. A played marker of a shared pool goes "
            f"back with <b>Return to the ...</b> (Alt+R) or a drag onto its pool.</p>"]
    for deck in ev.decks:
        who = f"the {game.sides[deck.side].name} player's deck" if deck.side else "a pool both players draw from"
        how = "drawn at random" if deck.shuffle else "the player picks the card (right-click the pile: Draw specific cards)"
        rule = f", rule {escape(deck.rule)}" if deck.rule else ""
        body.append(f"<h2>{escape(deck.name)}</h2><p>{who}; {how}{rule}.</p>")
        for c in deck.cards:
            note = f"<p><i>Reconstructed: {escape(c.reason or '')}</i></p>" if c.provenance == "reconstructed" else ""
            if c.events:
                parts = "".join(f"<h4>{escape(game.sides[sid].name)}: {escape(m.title)}"
                                f"{' (' + escape(m.rule) + ')' if m.rule else ''}</h4>"
                                + "".join(f"<p>{escape(line)}</p>" for line in m.text.splitlines() if line.strip())
                                for sid, m in c.events.items())
                body.append(f"<h3>{escape(card_name(deck, c))}</h3>{note}{parts}")
            else:
                text = "".join(f"<p>{escape(line)}</p>" for line in c.text.splitlines() if line.strip())
                rule = f" ({escape(c.rule)})" if c.rule else ""
                body.append(f"<h3>{escape(card_name(deck, c))}{rule}</h3>{note}{text}")
    return _html("Event cards", "\n".join(body))


def build_vmod(game: Game, step: Callable[[str], None] = lambda _: None,
               face_png: Callable[[FaceArt, Callable[[], bytes]], bytes] = lambda _, make: make(),
               board_png_of: Callable[[Callable[[], bytes]], bytes] = lambda make: make()) -> tuple[bytes, bytes]:
    """The .vmod bytes and the map PNG bytes; `step` is told what is being done.  `face_png(art,
    make)` and `board_png_of(make)` give a counter face's PNG and the board's, by calling `make` or from a
    store of earlier builds (builder/incremental.py)."""
    step("counters")
    px = game.info.counter.pixels
    images = [(f"images/{a.file}", face_png(a, lambda a=a: exact_face_png(game, a) or png(draw_face(game, a, px))))
              for a in all_faces(game)]
    step("map")
    if game.map.board.image:  # the board's own art, kept as it is (issue 33: an imported module's map)
        art = board_art(game)
        board_png = board_png_of(lambda: png(Image.open(io.BytesIO(art))))
        board = [(f"images/{game.map.board.image}", art)]
    else:
        board_png = board_png_of(lambda: map_png(game))
        board = [("images/map.png", board_png)]
    board += [(f"images/{b.image}", board_art(game, b)) for m in game.map.maps for b in [m.board, *m.more_boards]
              if b.image]
    images = [*board, ("images/about.png", _about(game)),
              (f"images/{MOVED_IMAGE}", png(draw_moved_flag()))] + images
    if game.chits:
        images.append((f"images/{CHIT_BACK}", png(chit_back(px))))
    if game.events:  # events.yaml: card faces, deck backs and the Events window's board
        images += [(f"images/{a.file}", png(draw_card_art(game, a))) for a in all_card_art(game)]
        images.append(("images/events.png", png(draw_events_board(game))))
    help_files = [(c.name, f"help/{c.table}.html") for c in game.info.charts]
    help_pages = [(f"help/{c.table}.html", _table_page(game, c.table)) for c in game.info.charts]
    if "sequence" in game.tables and all(c.table != "sequence" for c in game.info.charts):  # once, charted or not
        help_files.append(("Sequence of Play", "help/sequence.html"))
        help_pages.append(("help/sequence.html", _table_page(game, "sequence")))
    if game.events:
        help_files.append(("Event cards", "help/event-cards.html"))
        help_pages.append(("help/event-cards.html", events_page(game)))
    help_files.append(("Keys and mouse", KEYS_PAGE))
    help_files.append(("Reconstructed data", "help/reconstructed.html"))
    help_pages.append(("help/reconstructed.html", _provenance_page(game)))
    setups = [(sc.name, f"{sid}.vsav") for sid, sc in game.scenarios.items()]
    pl = plan(game, help_files, setups)
    step("setups")
    extra1 = PREFIX + geometry_fingerprint(game)  # where logged positions land (the engine copies it into logs)
    meta = moduledata_xml(game.info.title, game.info.version, VASSAL_VERSION, DATE_MS, game.info.description, extra1)
    saves, texts = [], []
    for sid, sc in game.scenarios.items():
        texts.append(setup_save(pl, sc))
        entries = [("savedGame", obfuscate(texts[-1])),
                   ("savedata", savedata_xml(game.info.version, VASSAL_VERSION, DATE_MS, sc.name)),
                   ("moduledata", meta)]
        saves.append((f"{sid}.vsav", zip_bytes_entries(entries)))
    step("build file")
    xml = build_xml(pl, extra1)
    help_pages.append((KEYS_PAGE, _html("Keys and mouse", keys_page(xml))))
    entries = [("moduledata", meta), ("buildFile.xml", xml)] + images + help_pages + saves
    require_images([xml.decode("utf-8"), *texts], [name for name, _ in entries])
    return zip_bytes_entries(entries), board_png
