"""Event cards drawn from events.yaml: each card's face with its text, one back per deck (what
the opponent and the face-down pile show), and the board of the Events window.

A face prints as much of the text as fits at a readable size; the rest is cut with a pointer
to the module's help page "Event cards", which always has every text whole.
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from builder.model import schema as s
from builder.model.event_checks import card_name
from builder.model.game import Game
from builder.render.fonts import draw_text, fit, font, wrap

CARD = (270, 378)  # pixels at 100 % zoom: a 2.5 x 3.5 card
PAPER, INK, NEUTRAL = "#f7f1e1", "#1f1a12", "#6b5a3a"
MIN_TEXT, MAX_TEXT = 9, 13  # text sizes in pixels: below 9 a card cannot be read at 100 %
CUT = " ... (Help > Event cards)"
BOX_PAD, LABEL_H = 20, 34  # the Events board: room around a pile and its label


@dataclass(frozen=True)
class CardArt:
    file: str  # archive image name
    deck: str
    card: str | None  # None: the deck's back


def card_file(deck: s.EventDeck, card: s.EventCard) -> str:
    return f"event-{_slug(deck.id)}-{_slug(card.id)}.png"


def back_file(deck: s.EventDeck) -> str:
    return f"event-{_slug(deck.id)}-back.png"


def _slug(x: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in x.lower())


def side_colour(game: Game, side_id: str | None) -> str:
    """A side's colour: its first nationality's counter colour (events have no colour of their own)."""
    nat = next((n for n in game.info.nationalities if n.side == side_id), None)
    return nat.colour if nat else NEUTRAL


def all_card_art(game: Game) -> list[CardArt]:
    out = []
    for deck in game.events.decks if game.events else []:
        out.append(CardArt(back_file(deck), deck.id, None))
        out += [CardArt(card_file(deck, c), deck.id, c.id) for c in deck.cards]
    return out


def draw_card_art(game: Game, art: CardArt) -> Image.Image:
    deck = next(d for d in game.events.decks if d.id == art.deck)
    if art.card is None:
        return draw_back(game, deck)
    return draw_card(game, deck, next(c for c in deck.cards if c.id == art.card))


def _frame(colour: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    w, h = CARD
    img = Image.new("RGB", CARD, PAPER)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([1, 1, w - 2, h - 2], radius=10, outline=colour, width=5)
    return img, d


def _text_block(d: ImageDraw.ImageDraw, text: str, box: tuple[int, int, int, int]) -> None:
    """`text` (paragraphs on their own lines) wrapped into `box`, as large as fits; cut if it never does."""
    x0, y0, x1, y1 = box
    paragraphs = [p.strip() for p in text.split("\n") if p.strip()]
    for size in range(MAX_TEXT, MIN_TEXT - 1, -1):
        f = font("regular", size)
        lines = [line for p in paragraphs for line in wrap(p, f, x1 - x0)]
        step = size + 2
        if len(lines) * step <= y1 - y0 or size == MIN_TEXT:
            break
    room = max(1, (y1 - y0) // step)
    if len(lines) > room:  # too long even at the smallest size: cut, and say where the rest is
        lines = lines[:room]
        last = lines[-1]
        while last and f.getlength(last + CUT) > x1 - x0:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        lines[-1] = last + CUT
    for i, line in enumerate(lines):
        draw_text(d, (x0, y0 + i * step), line, f, INK, box, anchor="la")


def draw_card(game: Game, deck: s.EventDeck, card: s.EventCard) -> Image.Image:
    """A card's face: its name on a band of its side's colour, its rule, then its text; a shared
    marker shows each side's meaning in its half (20.15: the player's own event applies)."""
    w, h = CARD
    img, d = _frame(side_colour(game, deck.side))
    name = card_name(deck, card)
    band = side_colour(game, deck.side)
    d.rectangle([6, 6, w - 7, 48], fill=band)
    draw_text(d, (w / 2, 27), name, fit(name, "bold", 20, w - 24), "#ffffff", (6, 6, w - 7, 48),
              stroke_width=1, stroke_fill=INK)
    if card.events:
        halves = [(game.sides[sid], meaning) for sid, meaning in card.events.items()]
        top, bottom = 54, h - 22
        weights = [max(len(m.text), 250) for _, m in halves]  # a longer text gets more room
        y = top
        for (side, meaning), weight in zip(halves, weights):
            part = (bottom - top) * weight / sum(weights)
            colour = side_colour(game, side.id)
            head = f"{side.name}: {meaning.title}"
            d.rectangle([10, y, w - 11, y + 22], fill=colour)
            draw_text(d, (w / 2, y + 11), head, fit(head, "semibold", 14, w - 28), "#ffffff", (10, y, w - 11, y + 22),
                      stroke_width=1, stroke_fill=INK)
            _text_block(d, meaning.text, (14, y + 26, w - 14, int(y + part) - 4))
            y = int(y + part)
    else:
        _text_block(d, card.text, (14, 58, w - 14, h - 24))
    rule = card.rule or deck.rule
    foot = f"rule {rule}" if rule else ""
    if card.provenance == "reconstructed":
        foot = (foot + " - reconstructed").strip(" -")
    if foot:
        draw_text(d, (w / 2, h - 13), foot, fit(foot, "semibold", 11, w - 24), NEUTRAL, (6, h - 22, w - 7, h - 4))
    return img


def draw_back(game: Game, deck: s.EventDeck) -> Image.Image:
    """The one back of a deck: what a face-down pile and the opponent see, no card told apart."""
    w, h = CARD
    colour = side_colour(game, deck.side)
    img, d = _frame(colour)
    d.rounded_rectangle([14, 14, w - 15, h - 15], radius=8, outline=colour, width=2)
    draw_text(d, (w / 2, h / 2 - 20), "?", font("black", 120), colour, (14, 14, w - 15, h - 15))
    draw_text(d, (w / 2, h - 60), deck.name, fit(deck.name, "bold", 22, w - 40), INK, (14, h - 80, w - 15, h - 40))
    return img


# ---- the Events window ---------------------------------------------------------------------------
def pile_names(game: Game) -> list[str]:
    """The piles of the Events window, left to right: the decks, then the played area."""
    return [d.name for d in game.events.decks] + [game.events.played]


def pile_boxes(game: Game) -> dict[str, tuple[int, int, int, int]]:
    """Pile name -> its box (x, y, w, h) on the Events board; a pile lies at its box's centre."""
    w, h = CARD[0] + 2 * BOX_PAD, CARD[1] + 2 * BOX_PAD
    return {name: (BOX_PAD + i * (w + BOX_PAD), LABEL_H + BOX_PAD, w, h) for i, name in enumerate(pile_names(game))}


def board_size(game: Game) -> tuple[int, int]:
    boxes = list(pile_boxes(game).values())
    x, y, w, h = boxes[-1]
    return x + w + BOX_PAD, y + h + BOX_PAD


def draw_board(game: Game) -> Image.Image:
    """The Events window's board: a labelled box for each pile."""
    img = Image.new("RGB", board_size(game), "#e9e2cf")
    d = ImageDraw.Draw(img)
    owner = {d_.name: d_.side for d_ in game.events.decks}
    for name, (x, y, w, h) in pile_boxes(game).items():
        colour = side_colour(game, owner.get(name)) if name in owner else NEUTRAL
        d.rectangle([x, y, x + w - 1, y + h - 1], outline=colour, width=3)
        label = name if name in owner else f"{name} (face up)"
        draw_text(d, (x + w / 2, y - LABEL_H / 2), label, fit(label, "bold", 18, w), INK, (x, y - LABEL_H, x + w, y))
    return img
