"""The module's buildFile.xml, written from the game model (vassal-formats.md §2).

Elements are VASSAL class names; attributes are written sorted, as VASSAL itself saves
them, so the file is stable byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from builder.model.game import Game
from builder.model.schema import HexGrid, RegionGrid
from builder.vassal import pieces as p
from builder.vassal.counters import LAYER_PROPERTY, CounterDef, counter_defs, layer_order, prototypes
from builder.vassal.event_decks import add_event_windows, card_count

VASSAL_VERSION = "3.7.0"  # oldest 3.7: every 3.7.x opens it without a "newer version" warning
MAP_ID = p.MAP_ID
V = "VASSAL.build."
# Toolbar keys (code,modifiers; 195 = Ctrl+Shift): none may equal a piece key (module help lists them)
PALETTE_KEY, OVERVIEW_KEY, LOS_KEY, LAYER_KEY = "67,195", "79,195", "76,195", "72,195"
RAISE_KEY = "85,195"  # Ctrl+Shift+U: the hex-status markers drawn over the units, and back
NEXT_TURN_KEY, PREV_TURN_KEY = "39,130", "37,130"  # Ctrl+Right, Ctrl+Left
SIDE_INVENTORY_KEYS = ("49,195", "50,195", "51,195", "52,195")  # Ctrl+Shift+1, 2...
# The map image prints hex ids at 10 px: below 0.7 they blur, so the levels start there and
# the overview window (GlobalMap) gives the whole board instead.
ZOOM_LEVELS = "0.7,0.85,1.0,1.25,1.6,2.0"
ZOOM_START = "4"  # 1-based from the most zoomed in: 1.0


@dataclass(frozen=True)
class ModulePlan:
    """The decisions shared by the build file and the predefined setups."""

    game: Game
    defs: list[CounterDef]
    gpids: dict[str, str]  # counter key -> palette gpid
    help_files: list[tuple[str, str]]  # (title, archive path)
    setups: list[tuple[str, str]]  # (menu name, archive path)
    deck_gpids: dict[str, int] = field(default_factory=dict)  # counter key -> its slots in draw piles so far


def plan(game: Game, help_files, setups) -> ModulePlan:
    defs = counter_defs(game)
    return ModulePlan(game, defs, {d.key: str(i + 1) for i, d in enumerate(defs)}, help_files, setups)


def _el(parent, cls: str, body: str | None = None, /, **attrs):
    """A child element; `body` is its text (PieceSlot, PrototypeDefinition), keywords its attributes
    (`text=` is the button-text attribute of toolbar items; `global_` writes `global`)."""
    e = etree.SubElement(parent, cls if cls.startswith("VASSAL.") else V + cls)
    attrs = {k.rstrip("_"): v for k, v in attrs.items()}
    for k in sorted(attrs):
        v = attrs[k]
        e.set(k, "true" if v is True else "false" if v is False else str(v))
    if body is not None:
        e.text = body
    return e


def build_xml(pl: ModulePlan, extra1: str = "") -> bytes:
    """The build file; `extra1` is the GameModule's ModuleOther1 (the geometry fingerprint,
    builder/vassal/fingerprint.py), which moduledata repeats."""
    g = pl.game
    root = etree.Element(V + "GameModule")
    for k, v in sorted({"ModuleOther1": extra1, "ModuleOther2": "", "VassalVersion": VASSAL_VERSION,
                        "description": g.info.description, "name": g.info.title,
                        "nextPieceSlotId": str(len(pl.defs) + card_count(g) + 1),
                        "version": g.info.version}.items()):
        root.set(k, v)
    _el(root, "module.BasicCommandEncoder")
    doc = _el(root, "module.Documentation")
    _el(doc, "module.documentation.AboutScreen", fileName="about.png", title=f"About {g.info.title}")
    for title, path in pl.help_files:
        _el(doc, "module.documentation.HelpFile", fileName=path, fileType="archive", title=title)
    roster = _el(root, "module.PlayerRoster", buttonKeyStroke="", buttonText="Retire", buttonToolTip="Switch sides")
    for side in g.info.sides:
        etree.SubElement(roster, "entry").text = side.name
    _el(root, "module.GlobalOptions", autoReport="Always", chatterHTMLSupport="Never", hotKeysOnClosedWindows="Never",
        inventoryForAll="Always", nonOwnerUnmaskable="Never", playerIdFormat="$PlayerName$",
        promptString="Opponents can unmask pieces")
    _el(root, "module.Chatter")
    _el(root, "module.KeyNamer")
    _el(root, "VASSAL.i18n.Language")
    _el(root, "module.gamepieceimage.GamePieceImageDefinitions")
    _el(root, "module.properties.GlobalProperties")
    _el(root, "module.properties.GlobalTranslatableMessages")
    protos = _el(root, "module.PrototypesContainer")
    for name, traits in prototypes(g).items():
        _el(protos, "module.PrototypeDefinition", p.add_piece(None, traits), description="", name=name)
    _map(root, pl)
    _other_maps(root, pl)
    if g.events:  # events.yaml: the Events window and each side's hand (event_decks.py)
        add_event_windows(root, g, _el, len(pl.defs) + 1)
    _palette(root, pl)
    for dice in g.info.dice:
        n = dice.dice or 2
        _el(root, "module.DiceButton", addToTotal="0", canDisable=False, hotkey="", icon="/images/die.gif",
            keepCount="1", keepDice=False, keepOption=">", lockAdd=False, lockDice=False, lockPlus=False,
            lockSides=False, nDice=str(n), nSides=str(dice.sides), name=dice.name, plus="0",
            prompt=dice.dice is None, propertyGate="", reportFormat="** $name$ = $result$ *** &lt;$PlayerName$&gt;",
            reportTotal=False, sortDice=False, text=dice.name, tooltip=dice.tooltip or dice.name)
    _turns(root, g)
    # event cards are left out: the inventory would name the cards in the piles and the hands
    _inventory(root, groupBy="Side,Formation", hotkey="", include='{Kind!="event"}' if g.events else "",
               leafFormat="$PieceName$ ($LocationName$)",
               name="Order of Battle", text="OOB", tooltip="Units by side and division")
    for side, key in zip(g.info.sides, SIDE_INVENTORY_KEYS):
        # units and leaders only: a side's chits may be masked (5.1.2) and markers have no side
        _inventory(root, groupBy="Formation,LocationName", hotkey=key, leafFormat="$PieceName$",
                   include=f'{{Side=="{side.name}" && (Kind=="unit" || Kind=="leader")}}',
                   name=f"{side.name} forces", text=f"{side.name} forces",
                   tooltip=f"The {side.name} units and leaders, by formation and location")
    _el(root, "module.NotesWindow", buttonText="Notes", hotkey="", icon="/images/notes.gif", tooltip="Notes")
    for name, path in pl.setups:
        _el(root, "module.PredefinedSetup", file=path, isMenu=False, name=name, useFile=True)
    etree.indent(root, space="    ")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False) + b"\n"


def _inventory(root, **attrs) -> None:
    """A Game Piece Inventory with every attribute `Inventory.getAttributeNames` lists."""
    _el(root, "module.Inventory", **({"canDisable": False, "centerOnPiece": True, "disabledIcon": "", "drawPieces": True,
                                      "foldersOnly": False, "forwardKeystroke": True, "hideWhenDisabled": False,
                                      "icon": "", "launchFunction": "functionHide", "nonLeafFormat": "$PropertyValue$",
                                      "pieceZoom": "0.33", "pieceZoom2": "0.5", "pieceZoom3": "1.0",
                                      "propertyGate": "", "refreshHotkey": "", "showMenu": True, "sides": "",
                                      "sortFormat": "$PieceName$", "sortPieces": True, "sorting": "alpha",
                                      "zoomOn": False} | attrs))


def _map(root, pl: ModulePlan) -> None:
    g = pl.game
    m = _el(root, "module.Map", allowMultiple=False, backgroundcolor="255,255,255", buttonName="Map",
            changeFormat="$message$", color="0,0,0", createFormat="$pieceName$ created in $location$ *",
            description="", edgeHeight="0", edgeWidth="0", hotkey="", icon="/images/map.gif", launch=False,
            mapName=MAP_ID, markMoved="Always", markUnmovedHotkey="", markUnmovedIcon="/images/unmoved.gif",
            markUnmovedReport="", markUnmovedText="", markUnmovedTooltip="Mark all pieces as not moved",
            moveKey="", moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
            moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
            onlyReportChangedLocation=False, thickness="3")
    picker = _el(m, "module.map.BoardPicker", addColumnText="Add column", addRowText="Add row",
                 boardPrompt="Select board", slotHeight="125", slotScale="0.2", slotWidth="350", title="Choose Boards")
    board = _el(picker, "module.map.boardPicker.Board", image=g.map.board.image or "map.png", name=g.map.board.name, reversible=False)
    zoned = _el(board, "module.map.boardPicker.board.ZonedGrid")
    _el(zoned, "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter")
    for t in g.map.tracks:
        for box in t.boxes:
            x, y, w, h = g.track_box_rect(t.id, box)
            _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="", locationFormat="$name$",
                name=g.zone_name(t.id, box), path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}",
                useHighlight=False, useParentGrid=False)
    for hx in g.map.hexes:
        _hex_zone(zoned, hx)
    for rg in g.map.regions:
        _region_zone(zoned, rg)
    for sq in g.map.squares:
        _square_zone(zoned, sq)
    gr, n = g.map.grid, g.map.numbering
    zones = getattr(g.geometry, "sections", ())  # where each section is drawn, numbered there (sections.py)
    for sec, z in zip(g.map.sections, zones):  # map sections with ids of their own: a zone with its own grid
        x, y, w, h = z.area
        zone = _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="",
                   locationFormat=sec.prefix + "$gridLocation$", name=sec.name,
                   path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}", useHighlight=False, useParentGrid=False)
        zgrid = _el(zone, "module.map.boardPicker.board.HexGrid", color="0,0,0", cornersLegal=False,
                    dotsVisible=False, dx=repr(float(gr.dx)), dy=repr(float(gr.dy)), edgesLegal=False,
                    sideways=gr.sideways, snapTo=True, visible=False, x0=str(gr.x0), y0=str(gr.y0))
        _el(zgrid, "module.map.boardPicker.board.mapgrid.HexGridNumbering", color="0,0,0", first=n.first,
            fontSize="9", hDescend=n.h_descend, hDrawOff="0", hLeading=str(n.h_leading), hOff=str(z.numbering.h_off),
            hType=n.h_type, locationFormat="$gridLocation$", rotateText="0", sep=n.sep, stagger=n.stagger,
            vDescend=n.v_descend, vDrawOff="0", vLeading=str(n.v_leading), vOff=str(z.numbering.v_off), vType=n.v_type,
            visible=False)
    hexgrid = _el(zoned, "module.map.boardPicker.board.HexGrid", color="0,0,0", cornersLegal=False,
                  dotsVisible=False, dx=repr(float(gr.dx)), dy=repr(float(gr.dy)), edgesLegal=False,
                  sideways=gr.sideways, snapTo=True, visible=False, x0=str(gr.x0), y0=str(gr.y0))
    _el(hexgrid, "module.map.boardPicker.board.mapgrid.HexGridNumbering", color="0,0,0", first=n.first,
        fontSize="9", hDescend=n.h_descend, hDrawOff="0", hLeading=str(n.h_leading), hOff=str(n.h_off),
        hType=n.h_type, locationFormat="$gridLocation$", rotateText="0", sep=n.sep, stagger=n.stagger,
        vDescend=n.v_descend, vDrawOff="0", vLeading=str(n.v_leading), vOff=str(n.v_off), vType=n.v_type,
        visible=False)
    _el(m, "module.map.StackMetrics", bottom="40,0", disabled=False, down="37,0", exSepX="6", exSepY="18",
        top="38,0", unexSepX="3", unexSepY="5", up="39,0")
    layers = layer_order(g)
    if layers:  # hex-status markers under the units, never in their stacks (markers.yaml `layer`)
        lpc = _el(m, "module.map.LayeredPieceCollection", description="Hex status markers under the units",
                  layerOrder=",".join(x.replace(",", "\\,") for x in layers), property=LAYER_PROPERTY)
        # Show or hide the markers; and, since a marker under a unit stack cannot be clicked,
        # rotate the two layers to bring the markers over the units (a second press: back under).
        for command, key, names, text, tip in (
                ("Switch Layer between Active and Inactive", LAYER_KEY, layers, "Hex markers",
                 f"Show or hide the markers under the units ({', '.join(layers)})"),
                ("Rotate Layer Order Up", RAISE_KEY, [], "Markers on top",
                 "Draw the hex-status markers over the units (again: under them)")):
            _el(lpc, "module.map.LayerControl", canDisable=False, command=command, description="", disabledIcon="",
                hideWhenDisabled=False, hotkey=key, icon="", layers=",".join(x.replace(",", "\\,") for x in names),
                propertyGate="", skip=False, text=text, tooltip=tip)
    for helper in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                   "StackExpander", "PieceMover", "KeyBufferer"):
        _el(m, f"module.map.{helper}")
    _el(m, "module.map.ImageSaver", buttonText="", hotkey="", icon="/images/camera.gif", tooltip="Save map as PNG image")
    # all layers: hovering over a stack also shows the hex-status marker its units hide
    _el(m, "module.map.CounterDetailViewer", delay="700", display="from all layers", hotkey="",
        minDisplayPieces="2", showgraph=True, showtext=True, version="3", zoomlevel="1.0")
    _el(m, "module.map.Zoomer", inButtonText="", inIconName="/images/zoomIn.gif", inTooltip="Zoom in",
        outButtonText="", outIconName="/images/zoomOut.gif", outTooltip="Zoom out", pickButtonText="",
        pickIconName="/images/zoom.png", pickTooltip="Select Zoom", zoomInKey="", zoomLevels=ZOOM_LEVELS,
        zoomOutKey="", zoomPickKey="", zoomStart=ZOOM_START)
    w, h = g.map.board.width, g.map.board.height
    _el(m, "module.map.GlobalMap", buttonText="", color="255,0,0", hotkey=OVERVIEW_KEY, icon="/images/overview.gif",
        scale=repr(round(320 / max(w, h), 4)), tooltip="Show/Hide overview window")
    if any(f.range for ld in g.units_file.leaders for f in ld.faces):  # ranges in hexes: a thread counts them
        _el(m, "module.map.LOS_Thread", canDisable=False, disabledIcon="", drawRange=True, global_="Always",
            hideCounters=False, hideOpacity="0", hideWhenDisabled=False, hotkey=LOS_KEY, iconName="/images/thread.gif",
            label="Range", losThickness="2", persistence="Ctrl-Click & Drag", persistentIconName="/images/thread.gif",
            propertyGate="", rangeBg="0,0,0", rangeFg="255,255,255", report="* Range $FromLocation$ - $ToLocation$: $Range$ *", round="Nearest whole number", scale="0",
            snapEnd=True, snapStart=True, threadColor="255,0,0", threadName="Range",
            tooltip="Range thread: counts hexes (leader ranges)")
    _el(m, "module.map.HighlightLastMoved", color="255,0,0", enabled=True, thickness="2")
    _el(m, "module.properties.GlobalProperties")
    for deck in g.map.decks:
        _draw_pile(m, pl, deck, g.map.board.name)


EXTRA_GPIDS = 100_000  # gpids of a draw pile's further copies of a counter


def deck_pieces(g: Game) -> set[str]:
    """The counters that start in a draw pile (map.yaml `decks` `pieces`): the pile's slots, not the palette's."""
    return {k for d in [*g.map.decks, *(x for om in g.map.maps for x in om.decks)] for k in d.pieces}


def _draw_pile(m, pl: ModulePlan, deck, board: str) -> None:
    """A draw pile (VASSAL DrawPile) with the counters it starts a new game with, each a slot of its own."""
    (x, y), (w, h) = deck.origin, deck.box
    pile = _el(m, "module.map.DrawPile", allowMultiple=False, allowSelect=False, canSave=False, color="0,0,0",
               draw=True, drawFaceUp=True, expressionCounting=False, faceDown="Always", height=str(h - 16),
               hotkeyOnEmpty=False, maxStack="10", name=deck.name, owningBoard=board,
               reshufflable=False, reversible=False, shuffle="Always" if deck.shuffle else "Never",
               width=str(w - 16), x=str(x + w // 2), y=str(y + h // 2))
    size = pl.game.info.counter.pixels
    defs = {d.key: d for d in pl.defs}
    for key in deck.pieces:
        d = defs.get(key)
        if d is None:
            raise ValueError(f"draw pile {deck.name!r}: {key!r} is no unit or marker")
        # the first copy has the counter's own gpid; a further copy one past the palette's and the event cards'
        gpid = pl.gpids[key] if not pl.deck_gpids.get(key) else str(EXTRA_GPIDS + sum(pl.deck_gpids.values()))
        pl.deck_gpids[key] = pl.deck_gpids.get(key, 0) + 1
        _el(pile, "widget.PieceSlot", p.add_piece(None, d.with_gpid(gpid)), entryName=d.name, gpid=gpid,
            height=str(size), width=str(size))


def _hex_zone(zoned, hx) -> None:
    """A hex grid (map.yaml `hexes`) as VASSAL holds one on part of a board: a Zone with a HexGrid."""
    x, y, w, h = hx.area
    zone = _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="", locationFormat=hx.location,
               name=hx.name, path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}", useHighlight=False,
               useParentGrid=False)
    grid = _el(zone, "module.map.boardPicker.board.HexGrid", color="0,0,0", cornersLegal=False, dotsVisible=False,
               dx=repr(float(hx.dx)), dy=repr(float(hx.dy)), edgesLegal=False, sideways=hx.sideways, snapTo=True,
               visible=False, x0=str(hx.x0), y0=str(hx.y0))
    n = hx.numbering
    _el(grid, "module.map.boardPicker.board.mapgrid.HexGridNumbering", color="0,0,0", first=n.first, fontSize="9",
        hDescend=n.h_descend, hDrawOff="0", hLeading=str(n.h_leading), hOff=str(n.h_off), hType=n.h_type,
        locationFormat="$gridLocation$", rotateText="0", sep=n.sep, stagger=n.stagger, vDescend=n.v_descend,
        vDrawOff="0", vLeading=str(n.v_leading), vOff=str(n.v_off), vType=n.v_type, visible=False)


def _region_zone(zoned, rg) -> None:
    """Named points (map.yaml `regions`) as VASSAL holds them on part of a board: a Zone with a RegionGrid."""
    x, y, w, h = rg.area
    zone = _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="", locationFormat=rg.location,
               name=rg.name, path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}", useHighlight=False,
               useParentGrid=False)
    grid = _el(zone, "module.map.boardPicker.board.RegionGrid", fontsize="9", snapto=True, visible=False)
    for r in rg.regions:
        _el(grid, "module.map.boardPicker.board.Region", name=r.name, originx=str(r.at[0]), originy=str(r.at[1]))


def _square_zone(zoned, sq) -> None:
    """A square grid (map.yaml `squares`) as VASSAL holds one on part of a board: a Zone with a SquareGrid."""
    x, y, w, h = sq.area
    zone = _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="", locationFormat=sq.location,
               name=sq.name, path=f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}", useHighlight=False,
               useParentGrid=False)
    grid = _el(zone, "module.map.boardPicker.board.SquareGrid", color="0,0,0", cornersLegal=False,
               dotsVisible=False, dx=repr(float(sq.dx)), dy=repr(float(sq.dy)), edgesLegal=False, range="Metric",
               snapTo=True, visible=sq.drawn, x0=str(sq.x0), y0=str(sq.y0))
    n = sq.numbering
    _el(grid, "module.map.boardPicker.board.mapgrid.SquareGridNumbering", color="0,0,0", first=n.first,
        fontSize="9", hDescend=n.h_descend, hDrawOff="0", hLeading=str(n.h_leading), hOff=str(n.h_off),
        hType=n.h_type, locationFormat="$gridLocation$", rotateText="0", sep=n.sep, vDescend=n.v_descend,
        vDrawOff="0", vLeading=str(n.v_leading), vOff=str(n.v_off), vType=n.v_type, visible=False)


def board_element(picker, b):
    """A board: its art (map.yaml `board.image`), else a plain board of its size and colour."""
    if b.image:
        return _el(picker, "module.map.boardPicker.Board", image=b.image, name=b.name, reversible=False)
    rgb = ",".join(str(int(b.background[i:i + 2], 16)) for i in (1, 3, 5))
    return _el(picker, "module.map.boardPicker.Board", color=rgb, height=str(b.height), name=b.name,
               reversible=False, width=str(b.width))


def _other_maps(root, pl: ModulePlan) -> None:
    g = pl.game
    """Each further map (map.yaml `maps`) as a Map window of its own, with a toolbar button."""
    for om in g.map.maps:
        m = _el(root, "module.Map", allowMultiple=False, backgroundcolor="255,255,255", buttonName=om.name,
                changeFormat="$message$", color="0,0,0", createFormat="$pieceName$ created in $location$ *",
                description=om.name, edgeHeight="0", edgeWidth="0", hotkey="", icon="", launch=True,
                mapName=om.id, markMoved="Always", markUnmovedHotkey="", markUnmovedIcon="/images/unmoved.gif",
                markUnmovedReport="", markUnmovedText="", markUnmovedTooltip="Mark all pieces as not moved",
                moveKey="", moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                onlyReportChangedLocation=False, thickness="3")
        picker = _el(m, "module.map.BoardPicker", addColumnText="Add column", addRowText="Add row",
                     boardPrompt="Select board", slotHeight="125", slotScale="0.2", slotWidth="350",
                     title="Choose Boards")
        for b, grids in [(om.board, [*om.hexes, *om.regions, *om.squares]),
                         *((x, [*x.hexes, *x.regions, *x.squares]) for x in om.more_boards)]:
            board = board_element(picker, b)
            if grids:
                zoned = _el(board, "module.map.boardPicker.board.ZonedGrid")
                _el(zoned, "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter")
                # a grid over the whole board (the board's own) last: VASSAL's ZonedGrid asks the zones in order
                for x in sorted(grids, key=lambda x: tuple(x.area) == (0, 0, b.width, b.height)):
                    (_hex_zone if isinstance(x, HexGrid) else _region_zone if isinstance(x, RegionGrid)
                     else _square_zone)(zoned, x)
        _el(m, "module.map.StackMetrics", bottom="40,0", disabled=False, down="37,0", exSepX="6", exSepY="18",
            top="38,0", unexSepX="3", unexSepY="5", up="39,0")
        for helper in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                       "StackExpander", "PieceMover", "KeyBufferer"):
            _el(m, f"module.map.{helper}")
        _el(m, "module.map.CounterDetailViewer", delay="700", display="from all layers", hotkey="",
            minDisplayPieces="2", showgraph=True, showtext=True, version="3", zoomlevel="1.0")
        _el(m, "module.map.HighlightLastMoved", color="255,0,0", enabled=True, thickness="2")
        for deck in om.decks:
            _draw_pile(m, pl, deck, om.board.name)


def _palette(root, pl: ModulePlan) -> None:
    size = pl.game.info.counter.pixels
    win = _el(root, "module.PieceWindow", defaultWidth="0", hidden=False, hotkey=PALETTE_KEY, icon="/images/counter.gif",
              name="Counters", scale="1.0", text="Counters", tooltip="Show the counters")
    tabs = _el(win, "widget.TabWidget", entryName="Counters")
    lists: dict[str, object] = {}
    panels: dict[tuple[str, str], object] = {}
    in_decks = deck_pieces(pl.game)
    for d in pl.defs:
        if d.key in in_decks:  # a draw pile's own slot (map.yaml decks `pieces`)
            continue
        tab, panel = d.palette
        if tab not in lists:
            lists[tab] = _el(tabs, "widget.ListWidget", divider="200", entryName=tab, height="0", scale="1.0", width="0")
        if (tab, panel) not in panels:
            panels[(tab, panel)] = _el(lists[tab], "widget.PanelWidget", entryName=panel, fixed=False,
                                       nColumns="6", scale="1.0", vert=False)
        gpid = pl.gpids[d.key]
        _el(panels[(tab, panel)], "widget.PieceSlot", p.add_piece(None, d.with_gpid(gpid)),
            entryName=d.name, gpid=gpid, height=str(size), width=str(size))


def _turns(root, g: Game) -> None:
    t = _el(root, "module.turn.TurnTracker", buttonText="Turn", hotkey="", icon="", length="-1",
            lengthStyle="Maximum", name="Turn", nexthotkey=NEXT_TURN_KEY, prevhotkey=PREV_TURN_KEY,
            reportFormat="* &lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$",
            turnFormat="Turn $level1$: $level2$")
    level = _el(t, "module.turn.CounterTurnLevel", incr="1", loop=False, loopLimit="-1", name="Turn",
                property="Turn", start=str(g.info.turns.first), turnFormat="$value$")
    phases = g.table("sequence")
    names = phases.data["phases"] if phases else []
    if names:
        _el(level, "module.turn.ListTurnLevel", configFirst=False, configList=False,
            list=",".join(x["name"].replace(",", "\\,") for x in names), name="Phase", property="Phase",
            turnFormat="$value$")
