"""Event decks as VASSAL sees them (events.yaml): an Events window with a face-down draw pile per
deck (DrawPile, its cards as CardSlots, so every new game starts with them), a face-up played
area, and one private hand per side (PlayerHand: only that side can open it).

A card drawn from a face-down pile is masked by the drawer's side (`Deck.pieceRemoved` sets
ObscuredToOthers; the Mask's access is `side:`), so the opponent sees its back even where the
card shows outside the hand; the draw's move report names it by its mask ("Event marker").
"Play event" (Alt+P) writes "<side> plays event D: <title> (<rule>)" in the log, lifts the mask
and sends the card face up to the played area (a move in the log, under the card's own name).
A shared pool's marker means the event of its letter of the side that plays it (Slouch Hats
20.15): one report per side, each behind a trigger that fires only for a player of that side
($PlayerSide$).
"""
from __future__ import annotations

from collections.abc import Callable

from builder.model import schema as s
from builder.model.event_checks import card_name, hand_name
from builder.model.game import Game
from builder.render.event_cards import CARD, back_file, card_file, pile_boxes
from builder.vassal import pieces as p
from builder.vassal.counters import MASK_KEY  # Ctrl+H, as the activation chits: show a held card, or hide it
from builder.vassal.pieces import Trait
from builder.vassal.sequence import join

EVENTS_MAP = "Events"
EVENTS_BOARD = "Events"
EVENTS_KEY = "69,520"  # Alt+E: the Events window
HAND_KEYS = ("49,520", "50,520", "51,520", "52,520")  # Alt+1, Alt+2...: each side's hand
PLAY_KEY = "80,520"  # Alt+P: play the selected event
RETURN_KEY = "82,520"  # Alt+R: a shared pool's marker back into the pool (Slouch Hats 20.11)
_INNER = 715  # Ctrl+Alt+Shift: keys the traits send one another, never typed by a player
UNMASK_KEY, SEND_PLAYED_KEY = f"120,{_INNER}", f"121,{_INNER}"  # F9, F10
HAND_SIZE = (1400, CARD[1] + 60)
MOVE_FORMAT = "$pieceName$ moves $previousLocation$ -> $location$ *"


def side_trigger_key(i: int) -> str:
    return f"{112 + i},{_INNER}"  # F1..F4: the play, for a player of side i


def side_report_key(i: int) -> str:
    return f"{116 + i},{_INNER}"  # F5..F8: its line in the log


def mask_name(game: Game, deck: s.EventDeck) -> str:
    """What the opponent (and the draw's log line) calls a hidden card."""
    return f"{game.sides[deck.side].name} event card" if deck.side else "Event marker"


def play_report(side: s.Side, card: s.EventCard, title: str, rule: str | None) -> str:
    """The log line of a play; fixed text, so the mask (`hideAll` in ReportState) cannot blank it."""
    return f"{side.name} plays event {card.id}: {title}" + (f" ({rule})" if rule else "")


def _macro(description: str, menu: str, key: str, actions: list[str], condition: str = "") -> Trait:
    """A Trigger Action (TriggerAction.myGetType): `menu` empty = no menu item, only `key`;
    `condition` a property expression that must hold; `actions` the keys it sends, in order."""
    return Trait("macro;" + join([description, menu, key, condition, "", join(actions, ","), False, "", "",
                                  "counted", "", "", "1", False, "", "1", "1"], ";"), "")


def _send_to_pile(description: str, menu: str, key: str, pile: str) -> Trait:
    """Send To Location to the zone of a pile on the Events board (its centre is the pile's point,
    so `Map.placeOrMerge` puts the card into the pile)."""
    return Trait("sendto;" + join([menu, key, EVENTS_MAP, "", "", "", "", "", "", "", "", "", description, "Z", pile,
                                   "", "", ""], ";"), ";;")


def card_traits(game: Game, deck: s.EventDeck, card: s.EventCard, gpid: str = "") -> list[Trait]:
    """The card's piece, outermost first: the mask outermost (a hidden card offers its holder's
    opponent nothing), the play, the reports, the sends, its properties."""
    sides = game.info.sides
    meanings = ([(i, x, card.events[x.id].title, card.events[x.id].rule or card.rule) for i, x in enumerate(sides)
                 if x.id in card.events] if card.events
                else [(sides.index(game.sides[deck.side]), game.sides[deck.side], card.title, card.rule or deck.rule)])
    traits = [p.mask(back_file(deck), mask_name(game, deck), MASK_KEY)]
    if deck.side:
        traits.append(p.restricted([game.sides[deck.side].name]))
    if card.events:  # one trigger per side: only the player's own side's event is reported (20.15)
        play_actions = [side_trigger_key(i) for i, *_ in meanings]
    else:
        play_actions = [side_report_key(meanings[0][0])]
    traits.append(_macro("Play event", "Play event", PLAY_KEY, play_actions + [UNMASK_KEY, SEND_PLAYED_KEY]))
    for i, side, title, rule in meanings:
        if card.events:
            traits.append(_macro(f"Play as {side.name}", "", side_trigger_key(i), [side_report_key(i)],
                                 f'{{PlayerSide=="{side.name}"}}'))
        traits.append(p.report([side_report_key(i)], play_report(side, card, title, rule), f"{side.name} plays"))
    traits.append(_macro("Show the played card", "", UNMASK_KEY, [MASK_KEY], "{ObscuredToOthers==true}"))
    traits.append(_send_to_pile(game.events.played, "", SEND_PLAYED_KEY, game.events.played))
    if deck.side is None:  # a pool's marker goes back after use unless its event says otherwise (20.11)
        traits.append(p.report([RETURN_KEY], f"$PieceName$ returns to the {deck.name}", "Report the return"))
        traits.append(_send_to_pile(f"Return to the {deck.name}", f"Return to the {deck.name}", RETURN_KEY, deck.name))
    props = {"Kind": "event", "EventId": card.id, "Deck": deck.id}
    if deck.side:
        props["Side"] = game.sides[deck.side].name
    traits.append(p.properties(props))
    traits.append(p.basic_piece(card_file(deck, card), card_name(deck, card), gpid))
    return traits


def card_count(game: Game) -> int:
    return sum(len(d.cards) for d in game.events.decks) if game.events else 0


El = Callable[..., object]


def _board(el: El, parent, name: str, zones: dict[str, tuple[int, int, int, int]], image: str = "",
           size: tuple[int, int] | None = None):
    picker = el(parent, "module.map.BoardPicker", addColumnText="Add column", addRowText="Add row",
                boardPrompt="Select board", slotHeight="125", slotScale="0.2", slotWidth="350", title="Choose Boards")
    attrs = {"image": image} if image else {"color": "233,226,207", "height": str(size[1]), "width": str(size[0])}
    board = el(picker, "module.map.boardPicker.Board", name=name, reversible=False, **attrs)
    zoned = el(board, "module.map.boardPicker.board.ZonedGrid")
    el(zoned, "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter")
    for zname, (x, y, w, h) in zones.items():
        el(zoned, "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="", locationFormat="$name$", name=zname,
           path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}", useHighlight=False, useParentGrid=False)


def _map_parts(el: El, m) -> None:
    """What a map built from XML needs to be played (vassal-formats.md 2.3)."""
    el(m, "module.map.StackMetrics", bottom="", disabled=False, down="", exSepX="6", exSepY="18", top="", unexSepX="3",
       unexSepY="5", up="")
    for helper in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                   "StackExpander", "PieceMover", "KeyBufferer"):
        el(m, f"module.map.{helper}")
    el(m, "module.map.HighlightLastMoved", color="255,0,0", enabled=True, thickness="2")
    el(m, "module.properties.GlobalProperties")


def _map_attrs(name: str, button: str, key: str, tooltip: str) -> dict:
    return dict(allowMultiple=False, backgroundcolor="255,255,255", buttonName=button, changeFormat="$message$",
                color="0,0,0", createFormat="$pieceName$ created in $location$ *", description="", edgeHeight="0",
                edgeWidth="0", hotkey=key, icon="", launch=True, mapName=name, markMoved="Never",
                markUnmovedHotkey="", markUnmovedIcon="", markUnmovedReport="", markUnmovedText="",
                markUnmovedTooltip="", moveKey="", moveToFormat=MOVE_FORMAT, moveWithinFormat=MOVE_FORMAT,
                onlyReportChangedLocation=True, thickness="3", tooltip=tooltip)


def add_event_windows(root, game: Game, el: El, first_gpid: int) -> None:
    """The Events window (piles) and each side's hand, under the module element `root`."""
    ev = game.events
    m = el(root, "module.Map", **_map_attrs(EVENTS_MAP, "Events", EVENTS_KEY,
                                            "Event decks and the played events (Alt+E)"))
    boxes = pile_boxes(game)
    _board(el, m, EVENTS_BOARD, boxes, image="events.png")
    _map_parts(el, m)
    el(m, "module.map.CounterDetailViewer", delay="500", display="from top-most layer only", hotkey="",
       minDisplayPieces="1", showgraph=True, showtext=True, version="3", zoomlevel="1.0")
    gpid = first_gpid
    # The played cards lie face up in a plain zone, not a pile: a stack there opens out and each
    # card keeps its menu (a card inside a VASSAL draw pile cannot be clicked).
    for deck in ev.decks:
        x, y, w, h = boxes[deck.name]
        attrs = dict(allowMultiple=False, allowSelect=not deck.shuffle, canSave=False, color="0,0,0",
                     draw=True, drawFaceUp=False, expressionCounting=False, faceDown="Always", height=str(h - 16),
                     hotkeyOnEmpty=False, maxStack="10", name=deck.name, owningBoard=EVENTS_BOARD, reshufflable=False,
                     reversible=False, shuffle="Always" if deck.shuffle else "Never", width=str(w - 16),
                     x=str(x + w // 2), y=str(y + h // 2))
        if deck.side:  # a side's own deck: only that side may draw from it
            attrs.update(deckRestrictAccess=True, deckOwners=game.sides[deck.side].name)
        pile = el(m, "module.map.DrawPile", **attrs)
        for card in deck.cards:
            el(pile, "widget.CardSlot", p.add_piece(None, card_traits(game, deck, card, str(gpid))),
               entryName=card_name(deck, card), gpid=str(gpid), height=str(CARD[1]), width=str(CARD[0]))
            gpid += 1
    for side, key in zip(game.info.sides, HAND_KEYS):
        name = hand_name(side)
        hand = el(root, "module.PlayerHand", side=side.name, useBoards="", visible=False,
                  **_map_attrs(name, name, key, f"Your held events: only the {side.name} player can open it"))
        _board(el, hand, name, {name: (0, 0, *HAND_SIZE)}, size=HAND_SIZE)
        _map_parts(el, hand)


