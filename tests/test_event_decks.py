"""Event decks and hidden hands (events.yaml; issues 11 and 12): the data, the checks, the module,
and what the real engine logged when a card was drawn and played."""
from __future__ import annotations

import io
import zipfile
from functools import cache
from pathlib import Path

import pytest
from lxml import etree

from builder.model import SourceError, load_game
from builder.model.event_checks import card_name, hand_name
from builder.model.json_schema import KINDS, schema_files
from builder.render.event_cards import CARD, CUT, all_card_art, draw_card_art
from builder.render.fonts import tracing
from builder.vassal.event_decks import EVENTS_KEY, EVENTS_MAP, HAND_KEYS, MASK_KEY, PLAY_KEY, play_report
from builder.vassal.keys import key_name, piece_keys, toolbar_keys
from builder.vassal.module import build_vmod
from builder.vassal.pieces import unchain
from builder.vassal.sequence import split
from tests.conftest import copy_sources, loaded_game
from validators.replay.replayer import Moved, Replayer, Said
from validators.vlog.modulegrid import read_module_grids
from validators.vlog.reader import read_record

V = "VASSAL.build."
SH, DFD = "slouch-hats-and-eggshells", "desert-fox-deluxe"
ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"


@cache
def _vmod(slug: str) -> bytes:
    """The game's module, built once per test run."""
    return build_vmod(loaded_game(slug))[0]


@pytest.fixture(scope="module", params=[SH, DFD])
def module(request):
    """(game, zipfile, build file root) of a game with events.yaml."""
    z = zipfile.ZipFile(io.BytesIO(_vmod(request.param)))
    return loaded_game(request.param), z, etree.fromstring(z.read("buildFile.xml"))


def _slot_traits(slot):
    _, typ, state = split(slot.text[2:], "/")
    return unchain(typ, state)


def _events_map(root):
    return next(m for m in root.iter(V + "module.Map") if m.get("mapName") == EVENTS_MAP)


# ---- the data --------------------------------------------------------------------------------
def test_slouch_hats_has_one_marker_per_letter_with_both_sides_events():
    """20.15: markers A-R, each the Allied event of its letter for the Allies, the Axis one for the Axis."""
    g = loaded_game(SH)
    (pool,) = g.events.decks
    assert pool.side is None and pool.shuffle  # one shared opaque cup (20.11)
    assert [c.id for c in pool.cards] == [chr(c) for c in range(ord("A"), ord("R") + 1)]
    for c in pool.cards:
        assert set(c.events) == {"allied", "axis"}
        assert c.events["allied"].rule == f"20.21{c.id}" and c.events["axis"].rule == f"20.22{c.id}"
    d = next(c for c in pool.cards if c.id == "D")
    assert (d.events["allied"].title, d.events["axis"].title) == ("Diplomats Active", "Turkish Armor")


def test_desert_fox_has_a_deck_per_side_and_marks_the_cards_it_could_not_read():
    """5.0: 28 ALC and 20 AXC; only AXC-2 and ALC-5 are printed whole, the rest are marked."""
    g = loaded_game(DFD)
    decks = {d.side: d for d in g.events.decks}
    assert [c.id for c in decks["allied"].cards] == [f"ALC-{i}" for i in range(1, 29)]
    assert [c.id for c in decks["axis"].cards] == [f"AXC-{i}" for i in range(1, 21)]
    whole = {c.id for d in decks.values() for c in d.cards if c.provenance == "rulebook"}
    assert whole == {"ALC-5", "AXC-2"}
    assert all(c.reason for d in decks.values() for c in d.cards if c.provenance == "reconstructed")
    assert "Royals 1R-2-28" in next(c for c in decks["allied"].cards if c.id == "ALC-5").text


# ---- the module ------------------------------------------------------------------------------
def test_the_build_file_has_the_decks_the_hands_and_the_played_area_with_the_right_sides(module):
    game, _, root = module
    m = _events_map(root)
    piles = {p.get("name"): p for p in m.iter(V + "module.map.DrawPile")}
    assert list(piles) == [d.name for d in game.events.decks]  # the played area is a zone, not a pile
    for deck in game.events.decks:
        p = piles[deck.name]
        assert p.get("faceDown") == "Always" and p.get("drawFaceUp") == "false"  # drawn cards stay hidden
        assert p.get("shuffle") == ("Always" if deck.shuffle else "Never")
        if deck.side:  # only its side may draw from a side's deck
            assert p.get("deckRestrictAccess") == "true" and p.get("deckOwners") == game.sides[deck.side].name
        else:
            assert p.get("deckRestrictAccess") is None
    zones = [z.get("name") for z in m.iter(V + "module.map.boardPicker.board.mapgrid.Zone")]
    assert zones == [d.name for d in game.events.decks] + [game.events.played]
    hands = list(root.iter(V + "module.PlayerHand"))
    assert [(h.get("mapName"), h.get("side"), h.get("visible")) for h in hands] == \
        [(hand_name(s), s.name, "false") for s in game.info.sides]  # only its own side opens a hand
    ids = [int(e.get("gpid")) for e in root.iter() if e.get("gpid")]
    assert len(ids) == len(set(ids)) and int(root.get("nextPieceSlotId")) > max(ids)


def test_every_card_of_the_sources_is_in_its_pile_with_its_face_and_back(module):
    game, z, root = module
    piles = {p.get("name"): p for p in _events_map(root).iter(V + "module.map.DrawPile")}
    names = set(z.namelist())
    for deck in game.events.decks:
        slots = list(piles[deck.name].iter(V + "widget.CardSlot"))
        assert [s.get("entryName") for s in slots] == [card_name(deck, c) for c in deck.cards]
        for slot, card in zip(slots, deck.cards):
            traits = _slot_traits(slot)
            assert traits[-1].fields[3] == card_name(deck, card)
            assert f"images/{traits[-1].fields[2]}" in names
            (mask,) = [t for t in traits if t.prefix == "obs;"]
            assert traits[0] is mask and mask.fields[0] == MASK_KEY and mask.fields[5] == "side:"
            assert f"images/{mask.fields[1]}" in names  # the deck's back, the same for every card
            props = dict(zip(split(traits[-2].type[5:], ","), split(traits[-2].state, ",")))
            assert (props["Kind"], props["EventId"], props["Deck"]) == ("event", card.id, deck.id)


def test_playing_reports_the_event_of_the_players_own_side(module):
    """A play writes a fixed line per side; a shared marker's line fires only for that side's player."""
    game, _, root = module
    for deck in game.events.decks:
        pile = next(p for p in root.iter(V + "module.map.DrawPile") if p.get("name") == deck.name)
        for slot, card in zip(pile.iter(V + "widget.CardSlot"), deck.cards):
            traits = _slot_traits(slot)
            reports = [t.fields[1] for t in traits if t.prefix == "report;" and "plays event" in t.fields[1]]
            play = next(t for t in traits if t.prefix == "macro;" and t.fields[1] == "Play event")
            assert play.fields[2] == PLAY_KEY
            if card.events:
                expected = [play_report(s, card, card.events[s.id].title, card.events[s.id].rule)
                            for s in game.info.sides]
                conditions = [t.fields[3] for t in traits if t.prefix == "macro;" and t.fields[3].startswith("{Player")]
                assert conditions == [f'{{PlayerSide=="{s.name}"}}' for s in game.info.sides]
            else:
                side = game.sides[deck.side]
                expected = [play_report(side, card, card.title, card.rule or deck.rule)]
                assert any(t.prefix == "restrict;" and t.fields[0] == side.name for t in traits)
            assert reports == expected


def test_the_order_of_battle_leaves_the_event_cards_out_and_the_event_keys_do_one_thing(module):
    _, z, root = module
    oob = next(e for e in root.iter(V + "module.Inventory") if e.get("name") == "Order of Battle")
    assert oob.get("include") == '{Kind!="event"}'  # it would list the cards in the piles and the hands
    keys = toolbar_keys(root) + piece_keys(root)
    ours = {EVENTS_KEY, PLAY_KEY, *HAND_KEYS[:len(module[0].info.sides)]}
    used = [k for k, _ in keys if k in ours]
    assert sorted(used) == sorted(ours), keys  # each once: no other command answers to them
    page = z.read("help/keys.html").decode()
    assert key_name(PLAY_KEY) in page and "Play event" in page
    cards = z.read("help/event-cards.html").decode()
    game = module[0]
    assert all(card_name(d, c) in cards for d in game.events.decks for c in d.cards)


def test_card_faces_keep_their_text_inside_and_say_where_a_cut_text_goes_on():
    g = loaded_game(DFD)
    with tracing() as marks:
        images = [draw_card_art(g, a) for a in all_card_art(g)]
    assert {im.size for im in images} == {CARD}
    texts = [m for m in marks if m.kind == "text" and m.box]
    assert texts and all(m.bbox[0] >= m.box[0] - 1 and m.bbox[2] <= m.box[2] + 1 for m in texts)
    assert any(m.text.endswith(CUT) for m in texts)  # AXC-16's long text is cut, with a pointer to the help


# ---- the sources' checks -----------------------------------------------------------------------
def _break(tmp_path, slug, old, new):
    src = copy_sources(tmp_path, slug)
    path = src / "events.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = text[: text.index(old)].count("\n") + 1
    return src, line


@pytest.mark.parametrize("slug, old, new, below, message", [
    (SH, "          axis:\n            title: \"Active Alawis\"", "          axsi:\n            title: \"Active Alawis\"",
     0, "unknown side 'axsi'"),
    (SH, "    shuffle: true", "    shuffle: true\n    shufle: true", 1, "unknown key 'shufle'"),
    (DFD, "    side: axis", "    side: axsi", 0, "unknown side 'axsi'"),
    (DFD, "      - id: AXC-3", "      - id: AXC-2", 0, "duplicate card id 'AXC-2'"),
])
def test_a_broken_events_file_is_refused_at_its_line(tmp_path, slug, old, new, below, message):
    """`below`: the problem is that many lines under the first line the edit touched."""
    src, line = _break(tmp_path, slug, old, new)
    with pytest.raises(SourceError) as exc:
        load_game(src)
    found = [str(p) for p in exc.value.problems]
    here = [p for p in found if p.startswith(f"sources/{slug}/events.yaml:{line + below}:")]
    assert any(message in p for p in here), found


def test_a_shared_marker_must_say_what_it_means_for_every_side(tmp_path):
    src, _ = _break(tmp_path, SH, "          axis:\n            title: \"Active Alawis\"",
                    "          allied2:\n            title: \"Active Alawis\"")
    with pytest.raises(SourceError) as exc:
        load_game(src)
    assert any("says nothing for side 'axis'" in str(p) for p in exc.value.problems)


def test_a_deck_may_not_take_the_name_of_a_draw_pile_of_the_map(tmp_path):
    """VASSAL finds a draw pile by its name: the Events window's pool cannot share the map's."""
    src, line = _break(tmp_path, SH, "    name: Special Events Pool", "    name: Event Pool")
    with (src / "map.yaml").open("a", encoding="utf-8") as f:
        f.write("decks:\n  - {name: Event Pool, origin: [2830, 2810], box: [130, 90], shuffle: true}\n")
    with pytest.raises(SourceError) as exc:
        load_game(src)
    found = [str(p) for p in exc.value.problems]
    assert any(p.startswith(f"sources/{SH}/events.yaml:{line}:") and "already the name of a draw pile of map.yaml" in p
               for p in found), found


def test_the_schema_covers_events_yaml():
    assert any(k.files == "events.yaml" for k in KINDS)
    schema = schema_files()["events.schema.json"].decode()
    assert '"decks"' in schema and '"card_name"' in schema


# ---- what the real engine logged -------------------------------------------------------------------
@pytest.mark.parametrize("log, slug, card, side, drawn_from", [
    ("sh-events", SH, "D", "allied", "Special Events Pool"),
    ("sh-events", SH, "H", "axis", "Special Events Pool"),
    ("dfd-events", DFD, "AXC-20", "axis", "Axis event cards"),
    ("dfd-events", DFD, "ALC-28", "allied", "Allied event cards"),
])
def test_the_engine_log_of_a_draw_and_a_play_reads_as_moves_of_the_named_card(log, slug, card, side, drawn_from):
    """VASSAL 3.7.26 playing the module (tests/fixtures/engine): the draw is a move into the hand
    whose chat line names only the mask; the play is a move to the played area beside the line
    that names the side's own event."""
    game = loaded_game(slug)
    deck = next(d for d in game.events.decks if any(c.id == card for c in d.cards))
    c = next(c for c in deck.cards if c.id == card)
    s = game.sides[side]
    title, rule = (c.events[side].title, c.events[side].rule) if c.events else (c.title, c.rule or deck.rule)
    with zipfile.ZipFile(io.BytesIO(_vmod(slug))) as z:
        images = {n: z.read(n) for n in z.namelist() if n.startswith("images/") and n.endswith(".png")}
        grids = read_module_grids(z.read("buildFile.xml"), images)  # a board's size is its image's
    record = read_record(ENGINE / f"{log}.vlog")
    rp = Replayer(record, grids)
    steps, moves, masks = [], [], {}
    for step, events in rp.steps():
        steps.append((step, events))
        for e in events:
            if isinstance(e, Moved) and e.piece.name == card_name(deck, c):
                moves.append((step.index, e))
                masks[step.index] = next(t.state for t in e.piece.traits if t.prefix == "obs;")
    (draw_step, draw), = [(i, e) for i, e in moves if e.new.label == hand_name(s)]
    assert draw.old.label == drawn_from
    assert masks[draw_step] == f"{s.name};false|0"  # in the hand, masked by the drawer's side
    draw_chat = [e.text for step, events in steps if step.index == draw_step for e in events if isinstance(e, Said)]
    assert draw_chat and all(title not in t and card_name(deck, c) not in t for t in draw_chat)
    (play_step, play), = [(i, e) for i, e in moves if e.new.label == game.events.played]
    assert play.old.label == hand_name(s)
    assert masks[play_step] == "null;"  # played: face up for both sides
    said = [e.text for step, events in steps if step.index == play_step for e in events if isinstance(e, Said)]
    assert said == [f"* {play_report(s, c, title, rule)}"]
