"""Checks of events.yaml against the rest of the game: sides exist, a shared pool's markers say
what they mean for every side, and no two decks, cards or piles share a name (VASSAL finds a
draw pile by its name, and the log names cards by theirs).
"""
from __future__ import annotations

import string
from collections import Counter

from builder.model import schema as s
from builder.model.game import Game
from builder.model.problems import Collector, did_you_mean
from builder.model.yamlsource import Located

CARD_NAME_FIELDS = ("id", "title")


def card_name(deck: s.EventDeck, card: s.EventCard) -> str:
    """The card's piece name: the deck's `card_name` template filled in."""
    return deck.card_name.format(id=card.id, title=card.title or "").strip()


def hand_name(side: s.Side) -> str:
    """The side's private window (VASSAL PlayerHand) and its one zone."""
    return f"{side.name} hand"


def check_events(col: Collector, game: Game, doc: Located) -> None:
    ev = game.events
    sides = game.sides
    taken = {d.name: "a draw pile of map.yaml" for d in game.map.decks}
    taken.update({hand_name(x): "a side's hand" for x in game.info.sides})
    if ev.played in taken:
        col.at(doc, ("played",), f"the played area {ev.played!r} has the name of {taken[ev.played]}",
               "give it another name")
    taken[ev.played] = "the played area"
    deck_ids = Counter(d.id for d in ev.decks)
    names: dict[str, tuple] = {}
    for i, deck in enumerate(ev.decks):
        here = ("decks", i)
        if deck_ids[deck.id] > 1:
            col.at(doc, here + ("id",), f"duplicate deck id {deck.id!r}", "every deck id must be unique")
        if deck.name in taken:
            col.at(doc, here + ("name",), f"deck name {deck.name!r} is already the name of {taken[deck.name]}",
                   "VASSAL finds a draw pile by its name: give the deck another")
        taken.setdefault(deck.name, f"deck {deck.id!r}")
        if deck.side is not None and deck.side not in sides:
            col.at(doc, here + ("side",), f"unknown side {deck.side!r}", did_you_mean(deck.side, sides))
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(deck.card_name) if f is not None]
        except ValueError:  # an unmatched brace
            fields = ["{"]
        bad = [f for f in fields if f not in CARD_NAME_FIELDS]
        if bad:
            col.at(doc, here + ("card_name",), f"card_name: unknown field {{{bad[0]}}}",
                   "a card name may use {id} and {title}")
        elif deck.side is None and "title" in fields:
            col.at(doc, here + ("card_name",), "a shared pool's markers have no one title: {title} cannot name them",
                   "name them by {id} ('Special Event {id}')")
        card_ids = Counter(c.id for c in deck.cards)
        for j, card in enumerate(deck.cards):
            at = here + ("cards", j)
            if card_ids[card.id] > 1:
                col.at(doc, at + ("id",), f"duplicate card id {card.id!r} in deck {deck.id!r}",
                       "every card id must be unique")
            _meanings(col, doc, at, deck, card, sides)
            if bad:
                continue
            name = card_name(deck, card)
            if name in names:
                col.at(doc, at + ("id",), f"two cards are both named {name!r}",
                       f"the log tells cards apart by name; see line {doc.mark(names[name]).line}")
            names.setdefault(name, at + ("id",))


def _meanings(col: Collector, doc: Located, at: tuple, deck: s.EventDeck, card: s.EventCard, sides) -> None:
    """A shared pool's marker says what it means for every side (Slouch Hats 20.15); a side's own
    card has one title and text."""
    if deck.side is not None:
        if card.events:
            col.at(doc, at + ("events",), f"card {card.id!r} belongs to side {deck.side!r}: it has one title and text",
                   "use 'title' and 'text', or make the deck a shared pool (no 'side')")
        return
    if not card.events:
        col.at(doc, at, f"card {card.id!r} of the shared pool {deck.id!r} needs 'events': one meaning per side",
               "add events: {" + ", ".join(f"{x}: {{title, text}}" for x in sides) + "}")
        return
    for side in card.events:
        if side not in sides:
            col.at_key(doc, at + ("events", side), f"unknown side {side!r}", did_you_mean(side, sides))
    missing = [x for x in sides if x not in card.events]
    if missing:
        col.at(doc, at + ("events",), f"card {card.id!r} says nothing for side {missing[0]!r}",
               f"add '{missing[0]}: {{title, text}}'")
