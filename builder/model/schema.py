"""The shape of each source file, as pydantic models.

These are the *file formats*: what an author may write, with types and allowed values.
References between files (a unit's formation, a setup hex) are checked afterwards in
`references.py`, where every problem still points back at its file:line.
"""

import re
from functools import cached_property
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, computed_field, model_validator

Ident = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._-]*$", max_length=40)]
Colour = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]
HexId = Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z-]{2,8}$")]
Text = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Sourced(Strict):
    """Where a value came from: the printed game, or our reconstruction (with the reason)."""

    provenance: Literal["rulebook", "reconstructed"] = "rulebook"
    reason: str | None = None

    @model_validator(mode="after")
    def _reason_for_reconstructed(self):
        if self.provenance == "reconstructed" and not self.reason:
            raise ValueError("a reconstructed item needs a one-line 'reason'")
        return self


# ---- game.yaml ---------------------------------------------------------------------------
class Side(Strict):
    id: Ident
    name: Text


class Nationality(Sourced):
    id: Ident
    name: Text
    side: Ident
    colour: Colour
    text: Colour = "#000000"
    rule: str | None = None


class CounterSize(Sourced):
    """Printed counter edge (inches) and its size in the module (pixels at 100 % zoom)."""

    inches: float = Field(gt=0.2, lt=2.0)
    pixels: int = Field(ge=32, le=160)


class Turns(Sourced):
    first: int = 1
    last: int = Field(ge=1)
    extension: bool = False
    rule: str | None = None


class Dice(Strict):
    name: Text
    dice: int | None = Field(default=None, ge=1, le=30)  # None: asks how many
    sides: int = Field(default=6, ge=2, le=100)
    tooltip: str = ""
    side: Ident | None = None  # the side this button rolls for: the log then shows who rolled


class Declaration(Strict):
    """A unit menu command (Ctrl+Shift+key) whose only effect is a line in the log.

    Players use them to say what the log cannot show by itself: which units attack which
    hex, which units move strategically.  `report` is a VASSAL message format.
    """

    name: Text
    key: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")]
    report: Text
    rule: str | None = None
    # The rules give it to the opposing player too (Desert Fox 14.1: the attacker names the
    # defenders): it sits outside the unit's Restricted Access, open to every side.
    opponent: bool = False


class SendTo(Strict):
    """A unit menu command (Ctrl+key) that sends the unit to one of its side's boxes (VASSAL's
    Send To Location), so that a player eliminates a unit with a key instead of a drag.
    `zone` names the box's zone; `{side}` stands for the unit's side name."""

    name: Text
    key: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")]
    zone: Text
    report: Text
    rule: str | None = None


class Chart(Strict):
    name: Text
    table: Ident  # a file in tables/


# a printed length: 10mm, 0.5in, 1/16in, 0.4cm, 12pt, 0.25" (0 alone is allowed)
Length = Annotated[str, StringConstraints(
    pattern=r'^\s*(0|(\d+(\.\d+)?|\d+/\d+)\s*(mm|cm|in|pt|"))\s*$')]


class PrintSettings(Sourced):
    """Counter sheets (`hexforge sheets`): paper, margins, bleed and the sheet title."""

    page: Literal["a4", "letter"] = "a4"
    margin: Length = "10mm"
    bleed: Length = "0"
    title: str | None = Field(default=None, max_length=80)


class GameFile(Strict):
    title: Text
    version: Text
    description: str = ""
    rulebook: str
    sides: list[Side] = Field(min_length=2)
    nationalities: list[Nationality] = Field(min_length=1)
    counter: CounterSize
    turns: Turns
    dice: list[Dice] = []
    declarations: list[Declaration] = []
    send_to: list[SendTo] = []
    charts: list[Chart] = []
    print: PrintSettings = Field(default_factory=PrintSettings)
    # The Python package of the game's rules, whose Auditor class `audit` runs (e.g.
    # validators.games.western_desert_force); none: the game builds but cannot be audited yet.
    rules: Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")] | None = None


# ---- terrain.yaml ------------------------------------------------------------------------
MpCost = Annotated[float, Field(ge=0, le=99)]


class HexTerrain(Sourced):
    id: Ident
    name: Text
    colour: Colour
    prohibited: bool = False
    fortification: Literal["fort", "encampment"] | None = None
    rule: str | None = None
    # MP to enter a hex of this type: one cost for every unit, or a cost per movement class
    # (unit_types' `movement_class`); a class the map of costs leaves out may not enter.  None:
    # the hexside's cost alone (`hexside_default_cost`).  A road across the hexside costs its own.
    cost: MpCost | dict[Ident, MpCost] | None = None


class HexsideFeature(Sourced):
    id: Ident
    name: Text
    colour: Colour
    width: float = Field(default=4, gt=0, le=30)
    style: Literal["line", "dashed", "cliff", "ridge", "river"] = "line"
    cost: float | None = Field(default=None, ge=0)  # MP to cross; None: no effect on cost
    prohibited: bool = False  # crossing forbidden unless a costed feature shares the hexside
    rule: str | None = None


class TerrainFile(Strict):
    hex_terrain: list[HexTerrain] = Field(min_length=1)
    hexside_features: list[HexsideFeature] = []
    hexside_default_cost: float = Field(gt=0)
    hexside_default_rule: str | None = None


# ---- map.yaml ----------------------------------------------------------------------------
ImageFile = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.(png|jpg|jpeg|gif)$")]


class Board(Strict):
    name: Text
    width: int = Field(ge=200, le=8000)
    height: int = Field(ge=200, le=8000)
    background: Colour = "#ffffff"
    # The board's art: an image file in the game's folder (a scanned or imported map, issue 33),
    # shown instead of the map drawn from the terrain; its size must be width x height.
    image: ImageFile | None = None


class Grid(Sourced):
    """VASSAL HexGrid parameters; `area` (x, y, w, h) bounds the hexes that exist."""

    sideways: bool = False
    dx: float = Field(gt=10, le=400)
    dy: float = Field(gt=10, le=400)
    x0: int
    y0: int
    area: tuple[int, int, int, int]


class Numbering(Sourced):
    """VASSAL HexGridNumbering parameters that reproduce the printed hex ids."""

    first: Literal["H", "V"] = "H"
    sep: str = ""
    h_type: Literal["N", "A"] = "N"
    v_type: Literal["N", "A"] = "N"
    h_leading: int = Field(default=1, ge=0, le=3)
    v_leading: int = Field(default=1, ge=0, le=3)
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True


class Section(Sourced):
    """A map section with ids of its own (Desert Fox Deluxe 2.2.2: "C2331"): a VASSAL Zone
    over `area` (x, y, w, h) with its own copy of the map's grid, numbered with these offsets
    and written `prefix` + grid location.  A hex belongs to the first section holding its
    centre, as VASSAL's ZonedGrid decides."""

    prefix: Annotated[str, StringConstraints(pattern=r"^[A-Z]{1,2}$")]
    name: Text
    area: tuple[int, int, int, int]
    h_off: int = 1
    v_off: int = 1
    # issue 35: where the section is drawn on the board, apart from its place in the lattice
    # (`area`, where ids, neighbours and distances are counted): the board point `area`'s corner
    # moves to (a whole number of hexes), and the pixels cut off each side of the moved area
    # (left, top, right, bottom) where another section draws the hexes the two share (S34 = C01)
    at: tuple[int, int] | None = None
    trim: tuple[int, int, int, int] = (0, 0, 0, 0)


class Place(Sourced):
    hex: HexId
    name: Text
    terrain: Ident | None = None
    strategic: bool = False
    vp: int = Field(default=0, ge=0)
    exit: bool = False  # a map-edge hex such as "To Alexandria"


class Track(Sourced):
    """A row of boxes printed on the board (turn record, activation track...)."""

    id: Ident
    name: Text
    origin: tuple[int, int]
    box: tuple[int, int] = (70, 70)
    boxes: list[Text] = Field(min_length=1)
    captions: dict[str, str] = {}  # box -> small text printed under it
    zone_format: str = "{track} {box}"


class Deck(Strict):
    """A draw cup or pile on the board (VASSAL DrawPile): pieces put in, drawn at random."""

    name: Text
    origin: tuple[int, int]
    box: tuple[int, int] = (100, 80)
    shuffle: bool = True  # every draw takes a random piece
    rule: str | None = None
    # the counters (unit or marker ids) the pile starts a new game with (an imported module's DrawPile, issue
    # 33): the pile's own piece slots, so they are not in the palette
    pieces: list[Ident] = []


class SquareNumbering(Strict):
    """VASSAL SquareGridNumbering parameters (VASSAL's defaults)."""

    first: Literal["H", "V"] = "H"
    sep: str = ""
    h_type: Literal["N", "A"] = "N"
    v_type: Literal["N", "A"] = "N"
    h_leading: int = Field(default=1, ge=0, le=3)
    v_leading: int = Field(default=1, ge=0, le=3)
    h_off: int = 0
    v_off: int = 0
    h_descend: bool = False
    v_descend: bool = False


class SquareGrid(Strict):
    """A square grid over `area` (x, y, w, h) of a board: a VASSAL Zone holding a SquareGrid,
    its cells named by `location` (the zone's locationFormat, around `$gridLocation$`) as the
    numbering says.  Over the whole board it is the board's own square grid (an imported module's,
    issue 33); pieces in it snap to its cells."""

    name: Text
    area: tuple[int, int, int, int]
    dx: float = Field(gt=1, le=2000)
    dy: float = Field(gt=1, le=2000)
    x0: int = 0
    y0: int = 0
    location: Annotated[str, StringConstraints(max_length=200)] = "$gridLocation$"
    numbering: SquareNumbering = Field(default_factory=SquareNumbering)
    drawn: bool = False  # its lines drawn on the board (a board with no art of its own)


class HexNumbering(SquareNumbering):
    """VASSAL HexGridNumbering parameters, VASSAL's defaults (a further map's hex grid)."""

    stagger: bool = True


class HexGrid(Strict):
    """A hex grid over `area` (x, y, w, h) of a board besides the map's own (an imported module's grid of a
    further map, or of a zone, issue 33): a VASSAL Zone holding a HexGrid, its hexes named by `location`
    (around `$gridLocation$`) as the numbering says; over the whole board it is the board's own grid.
    Pieces on it are set by point (`at`)."""

    name: Text
    area: tuple[int, int, int, int]
    dx: float = Field(gt=1, le=2000)
    dy: float = Field(gt=1, le=2000)
    x0: int = 0
    y0: int = 0
    sideways: bool = False
    location: Annotated[str, StringConstraints(max_length=200)] = "$gridLocation$"
    numbering: HexNumbering = Field(default_factory=HexNumbering)


class Region(Strict):
    name: Text
    at: tuple[int, int]  # its point on the board


class RegionGrid(Strict):
    """Named points over `area` (x, y, w, h) of a board (an imported module's VASSAL RegionGrid, issue 33): a
    point is named after the nearest region, as VASSAL's RegionGrid snaps, wrapped by `location`.  A VASSAL
    Zone holding a RegionGrid; pieces on it are set by point (`at`)."""

    name: Text
    area: tuple[int, int, int, int]
    location: Annotated[str, StringConstraints(max_length=200)] = "$gridLocation$"
    regions: list[Region] = Field(min_length=1, max_length=5000)


class MoreBoard(Board):
    """A further board of a further map (an imported module's map of several boards, issue 33): at
    `column`, `row` of the map's layout (its `board` is at 0, 0); VASSAL puts a board right of the boards
    before it in its row and below those above it in its column.  Its square grids are its own."""

    column: int = Field(default=0, ge=0, le=20)
    row: int = Field(default=0, ge=0, le=20)
    squares: list[SquareGrid] = []
    hexes: list[HexGrid] = []
    regions: list[RegionGrid] = []


class OtherMap(Strict):
    """A further map window of the module (an imported module's deployment or dead-pile map,
    issue 33): its own board, with square grids if any; pieces are set on it by point (`at`)."""

    id: Ident  # VASSAL's mapName
    name: Text  # its toolbar button
    board: Board
    squares: list[SquareGrid] = []
    hexes: list[HexGrid] = []  # hex grids on its board (zones, or the board's own)
    regions: list[RegionGrid] = []  # named points on its board (zones, or the board's own)
    decks: list[Deck] = []  # draw piles on its board
    more_boards: list[MoreBoard] = []  # its further boards, each at its place in the map's layout

    def board_rects(self) -> list[tuple[Board, int, int]]:
        """Each board with its top-left point on the map (VASSAL's Map.getBoardBounds, no edge)."""
        placed = [(self.board, 0, 0), *((b, b.column, b.row) for b in self.more_boards)]
        out = []
        for b, c, r in placed:
            x = sum(o.width for o, oc, orow in placed if orow == r and oc < c)
            y = sum(o.height for o, oc, orow in placed if oc == c and orow < r)
            out.append((b, x, y))
        return out


class MapFile(Strict):
    board: Board
    grid: Grid
    numbering: Numbering
    sections: list[Section] = []  # map sections with their own ids (see Section); none: one numbering
    lattice: tuple[int, int, int, int] | None = None  # sections drawn apart (Section.at): the lattice's grid area (default grid.area)
    default_terrain: Ident
    places: list[Place] = []
    tracks: list[Track] = []
    decks: list[Deck] = []
    squares: list[SquareGrid] = []  # square grids on the board (each a zone over the hex grid)
    hexes: list[HexGrid] = []  # hex grids of zones of their own on the board (over the map's hex grid)
    regions: list[RegionGrid] = []  # named points of zones of their own on the board (over the map's hex grid)
    maps: list[OtherMap] = []  # further maps, each its own VASSAL Map


class HexPath(Sourced):
    name: Text
    hexes: list[HexId] = Field(min_length=2)


class HexsideRun(Sourced):
    name: Text
    hexsides: list[Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z-]{2,8}/[0-9A-Za-z-]{2,8}$")]] = Field(min_length=1)


class MapTerrainFile(Sourced):
    hexes: dict[Ident, list[HexId]] = {}
    hexside_paths: dict[Ident, list[HexPath]] = {}
    hexside_runs: dict[Ident, list[HexsideRun]] = {}


# ---- counter art (units.yaml, markers.yaml) ------------------------------------------------
# a file in the game's folder or a folder of it ("art/tank.svg"): no "..", no absolute path
ArtPath = Annotated[str, StringConstraints(
    pattern=r"^([A-Za-z0-9][A-Za-z0-9._-]{0,60}/){0,3}[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.([Pp][Nn][Gg]|[Ss][Vv][Gg])$")]


class FaceImage(Strict):
    """A counter face's own art (issue 35): a PNG or SVG in the game's folder, fitted to the face
    on the face's colour; `values` prints the generated values over it (a unit's stripe, size,
    name and numbers, with the art in place of the unit symbol; a marker's text), else the art is
    the whole face."""

    file: ArtPath
    values: bool = True
    # the file is the face as it is (an imported module's counter art, issue 33): the module holds
    # its bytes unchanged, at its own size and shape, with no edge or values drawn (a PNG; values: false)
    exact: bool = False

    @model_validator(mode="after")
    def _exact_is_a_png_alone(self):
        if self.exact and (self.values or not self.file.lower().endswith(".png")):
            raise ValueError("an exact face is a PNG shown as it is: give 'values: false' and a .png file")
        return self


# ---- units.yaml --------------------------------------------------------------------------
class Formation(Sourced):
    id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9][A-Z0-9. ]{0,11}$")]
    name: Text
    nationality: Ident
    stripe: Colour
    chits: int = Field(default=0, ge=0, le=6)
    garrison: bool = False
    division: bool = True  # False: a grouping of units with no parent division on the counter


def _roman(n: int | None) -> str:
    """A step count as the counters print it (1.31b): Roman numerals."""
    if not n:
        return ""
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


def _app6(v):
    """An APP-6 symbol the library draws (builder/model/app6.py), checked when the sources are read."""
    if isinstance(v, str):
        from builder.model import app6
        app6.sidc(v)  # SymbolError (a ValueError) says what to write instead
    return v


Symbol = Annotated[str, AfterValidator(_app6)]  # "infantry", "armor + headquarters", "infantry + airborne", a SIDC


class FaceValues(Strict):
    """What a unit's face prints in its bottom corners: templates over the unit's fields.

    `centre` (bottom middle) and `top_left` / `top_right` (the corners of the top stripe)
    print nothing unless a game fills them (Tobrouk 41-42 prints morale, weapon and steps).
    """

    left: str = "{level}"
    right: str = "{ma}"
    centre: str = ""
    top_left: str = ""
    top_right: str = ""


class UnitFaces(Strict):
    full: FaceValues = Field(default_factory=FaceValues)
    reduced: FaceValues = Field(default_factory=FaceValues)


class UnitType(Strict):
    """A kind of unit the rules tell apart (armor, motorized, recon...) and its NATO symbol."""

    id: Ident
    name: Text
    symbol: Symbol
    rule: str | None = None
    faces: UnitFaces | None = None  # this type's own face templates (an HQ prints its range)
    movement_class: Ident | None = None  # the class terrain costs are given for (default: the type's id)
    # a one-step unit of this type has a Fired side the player flips (Slouch Hats 3.43, 11.18): the
    # marker (markers.yaml id) whose face the counter shows when Fired
    fired_face: Ident | None = None


class Unit(Sourced):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")]
    name: Text
    short: Annotated[str, StringConstraints(min_length=1, max_length=10)]
    formation: str
    type: Ident  # one of the file's unit_types
    ma: int = Field(default=0, ge=0, le=40)  # Tobrouk 41-42 has no MA: every unit may spend the maneuver's MP (2.22c)
    level: Literal["A", "B", "C", "D"] | None = None  # Bravery in the Sand's Strength Level
    size: Literal["I", "II", "III", "X", "XX"] | None = None
    steps: Literal[1, 2] = 2
    cs: int | None = Field(default=None, ge=0, le=30)  # combat strength, full (or only) face
    cs_reduced: int | None = Field(default=None, ge=0, le=30)
    # Tobrouk 41-42 (1.31-1.32): AP/AT strengths and morale per face, weapon letter (5.2),
    # movement mode (Q&A 12), fragile armour (5.6), steps printed on the full face (a reduced
    # face has one fewer; 6.1d: a weaker counter, `replaced_by`, takes over after that),
    # morale on yellow = surrenders on a failed check (6.4c), commanding HQ (3.6), HQ range.
    ap: int | None = Field(default=None, ge=0, le=30)
    ap_reduced: int | None = Field(default=None, ge=0, le=30)
    at: int | None = Field(default=None, ge=0, le=30)
    at_reduced: int | None = Field(default=None, ge=0, le=30)
    morale: int | None = Field(default=None, ge=0, le=12)  # Desert Fox Deluxe rates morale 0-3 (8.1)
    morale_reduced: int | None = Field(default=None, ge=0, le=12)
    weapon: Literal["A", "B", "C", "D"] | None = None
    mode: Literal["foot", "motorised", "mechanised"] | None = None
    armoured: bool = False
    fragile: bool = False
    fragile_reduced: bool = False
    surrenders_reduced: bool = False
    strength: int | None = Field(default=None, ge=1, le=12)
    replaced_by: str | None = None
    hq: str | None = None
    range: int | None = Field(default=None, ge=0, le=30)
    range_reduced: int | None = Field(default=None, ge=0, le=30)
    counter_set: Literal["gazala", "crusader"] | None = None  # 11.1f: yellow circle / red square
    # Slouch Hats and Eggshells (2.24, 3.14): attack and defense strength per face, stacking
    # value, support strength (artillery), motorized (MA in a red box), the yellow No-ZOC band,
    # Light (10.53) and mountain (10.52) units, and garrisons (5.6).
    attack: int | None = Field(default=None, ge=0, le=30)
    attack_reduced: int | None = Field(default=None, ge=0, le=30)
    defense: int | None = Field(default=None, ge=0, le=30)
    defense_reduced: int | None = Field(default=None, ge=0, le=30)
    stacking: int | None = Field(default=None, ge=0, le=9)
    support: int | None = Field(default=None, ge=0, le=30)
    motorized: bool = False
    no_zoc: bool = False
    light: bool = False
    mountain: bool = False
    # Desert Fox Deluxe (Counter Details): the combat factor's letter (L light, R recon)
    cf_suffix: Literal["", "L", "R"] = ""
    # the unit's own art (issue 35): the full face's, and the reduced face's (default: the full face's)
    image: FaceImage | None = None
    image_reduced: FaceImage | None = None

    @computed_field
    @property
    def strength_roman(self) -> str:
        return _roman(self.strength)

    @computed_field
    @property
    def strength_reduced_roman(self) -> str:
        return _roman(self.strength - 1 if self.strength else None)

    @model_validator(mode="after")
    def _reduced_needs_two_steps(self):
        if self.steps == 1 and self.cs_reduced is not None:
            raise ValueError("a one-step unit has no reduced face: drop 'cs_reduced'")
        return self


class LeaderFace(Strict):
    name: Text
    attack: int = Field(ge=0, le=9)
    defence: int = Field(ge=0, le=9)
    range: int = Field(ge=0, le=20)  # AP / supply range in hexes or MP, as the game says


class Leader(Sourced):
    """A leader counter: the front is the primary leader, the back (if any) the secondary."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")]
    nationality: Ident
    faces: list[LeaderFace] = Field(min_length=1, max_length=2)
    rule: str | None = None


def default_unit_types() -> list[UnitType]:
    """A factory, not a module constant: building models at import would build their validators."""
    return [UnitType(id="armor", name="Armor", symbol="armor"),
            UnitType(id="infantry", name="Infantry", symbol="infantry")]


class UnitsFile(Strict):
    unit_types: list[UnitType] = Field(default_factory=default_unit_types)
    faces: UnitFaces = Field(default_factory=UnitFaces)
    formations: list[Formation] = Field(min_length=1)
    units: list[Unit] = Field(min_length=1)
    leaders: list[Leader] = []


# ---- markers.yaml ------------------------------------------------------------------------
class Face(Strict):
    text: str
    colour: Colour
    text_colour: Colour = "#000000"
    side: Ident | None = None
    image: FaceImage | None = None  # the face's own art (issue 35)


class Marker(Sourced):
    id: Ident
    name: Text
    count: int = Field(ge=1, le=99)
    faces: list[Face] = Field(min_length=1, max_length=2)
    rule: str | None = None
    # A marker that shows the state of its hex (control, depot) names the Game Piece Layer it
    # lies in, under the units: it never stacks with them, so dragging a stack leaves it behind.
    # Markers without a layer (hits, states) stack with their unit and move with it.
    layer: Text | None = None


class Chit(Sourced):
    """An activation chit not tied to one formation (e.g. DAK); formation chits come from units."""

    id: Ident
    name: Text
    text: Text
    nationality: Ident
    stripe: Colour
    count: int = Field(ge=1, le=9)
    rule: str | None = None


class MarkersFile(Strict):
    markers: list[Marker] = []
    chits: list[Chit] = []


# ---- scenarios/*.yaml --------------------------------------------------------------------
def _one_place(item, what: str):
    """A set-up piece is on a hex, in a track's box, or at a point (`at`); on a further map only at a point."""
    if (item.hex is not None) + (item.track is not None) + (item.at is not None) != 1:
        raise ValueError("give either 'hex' or 'track' + 'box'" + (" or 'at'" if item.at is not None or item.map else ""))
    if item.track is not None and item.box is None:
        raise ValueError(f"a {what} on a track needs 'box'")
    if item.map is not None and item.at is None:
        raise ValueError(f"a {what} on map {item.map!r} needs 'at' (a point of its board)")
    return item


class FormationSetup(Strict):
    formation: str
    hex: HexId


class UnitSetup(Sourced):
    """A unit or leader on a hex, or in a box of a track (a reserve box, say); a placement the
    card does not give (a lost card reconstructed) says so with `provenance` and `reason`."""

    unit: str
    hex: HexId | None = None
    track: Ident | None = None
    box: str | None = None
    reduced: bool = False  # a unit's reduced face, or a leader's back (secondary) face
    map: Ident | None = None  # one of map.yaml's further `maps` (by id); None: the main map
    at: tuple[int, int] | None = None  # a point of the board instead of a hex or box (imported set-ups)

    @model_validator(mode="after")
    def _one_place(self):
        return _one_place(self, "unit")


class Arrival(Sourced):
    """Reinforcements of one turn: they wait on the turn track and enter at `hex` (or a box)."""

    turn: int = Field(ge=1)
    units: list[str] = Field(min_length=1)
    hex: HexId | None = None
    track: Ident | None = None
    box: str | None = None
    rule: str | None = None
    reduced: bool = False  # they arrive on their reduced face ("3 Lt Arm (depleted)", Desert Fox 24.2)
    # Any of these hexes will do (a map edge: Desert Fox 30.2 "any hex on the east edge of Map S");
    # `hex` is the one the set-up card names
    hexes: list[HexId] = []
    # The phase they arrive in, an id or a kind of tables/sequence.yaml ("XII", "movement": Desert
    # Fox 30.1 "GT-31 Phase 12"); None: the rules' own (Desert Fox 7.0, the Reinforcement Phase)
    phase: Ident | None = None
    # Only units of this many steps arrive, the player's choice; the rest go where `rule` says
    # (Desert Fox 30.1: "units equal to the number of steps listed arrive ... remaining steps
    # are placed in the Refit Box").  None: every unit arrives.
    steps: int | None = Field(default=None, ge=1)


class Withdrawal(Strict):
    turn: int = Field(ge=1)
    units: list[str] = Field(min_length=1)
    rule: str | None = None


class MarkerSetup(Strict):
    marker: Ident
    hex: HexId | None = None
    track: Ident | None = None
    box: str | None = None
    face: int = Field(default=1, ge=1, le=2)
    map: Ident | None = None  # as UnitSetup's
    at: tuple[int, int] | None = None

    @model_validator(mode="after")
    def _one_place(self):
        return _one_place(self, "marker")


class ConditionalGroup(Sourced):
    """A Conditional Entry Group (Slouch Hats 5.4): whole, after its event, within its turns."""

    name: Text
    units: list[str] = Field(min_length=1)
    first_turn: int = Field(ge=1)
    last_turn: int = Field(ge=1)
    event: Text
    hex: HexId | None = None  # where the group arrives: a hex, or a track box (a holding box)
    track: Ident | None = None
    box: str | None = None
    rule: str | None = None


LongText = Annotated[str, StringConstraints(min_length=1, max_length=600)]


class ScenarioRule(Strict):
    """A special rule of a scenario, as the card words it (Desert Fox 24.0-33.0 "Rules")."""

    rule: str | None = None
    text: LongText


class VictoryCondition(Strict):
    """One victory condition: who wins what, when.  `hexes` are the hexes it names (checked on the
    map once their map is drawn)."""

    side: Ident | None = None  # None: a draw, or either side ("whoever controls Tunis")
    level: Literal["win", "smashing", "marginal", "instant", "draw"] = "win"
    text: LongText
    hexes: list[HexId] = []
    rule: str | None = None


class ForbiddenHexes(Strict):
    """Hexes where a side's units may not stand when a phase ends (Desert Fox 30.0: "Axis units may
    not end any phase in a hex on or east of column Sxx34")."""

    side: Ident
    hexes: list[HexId] = Field(min_length=1)
    rule: str | None = None


class CardStatus(Strict):
    """An event card's state at the start (Desert Fox 23.0: in effect, in play, available, not used)."""

    card: Annotated[str, StringConstraints(pattern=r"^(AXC|ALC)-[0-9]{1,2}$")]
    status: Literal["in effect", "in play", "available", "not used"]
    note: str = ""


class ScenarioFile(Sourced):
    name: Text
    description: str = ""
    rule: str | None = None
    first_turn: int = 1
    # The card's header as data (Desert Fox 24.0-33.0): start phase, last turn, initiative, maps,
    # special rules, event cards and victory conditions.  All optional; other games say it in
    # `description`.
    start_phase: Annotated[str, StringConstraints(pattern=r"^[IVX]{1,5}$")] | None = None
    last_turn: int | None = Field(default=None, ge=1)
    initiative: Ident | None = None
    surprise: bool = False
    maps: list[Annotated[str, StringConstraints(pattern=r"^[A-Z]$")]] = []
    special_rules: list[ScenarioRule] = []
    cards: list[CardStatus] = []
    victory: list[VictoryCondition] = []
    formations: list[FormationSetup] = []
    units: list[UnitSetup] = []
    markers: list[MarkerSetup] = []
    chits_to_owner: bool = True
    reinforcements: list[Arrival] = []
    withdrawals: list[Withdrawal] = []
    waiting_track: Ident | None = None  # reinforcements wait on this track, in the box of their turn
    # Slouch Hats and Eggshells: units the card sets up as garrisons (5.6), and Conditional
    # Entry Groups (5.4): units that enter only after an event, within a range of turns.
    garrisons: list[str] = []
    conditional_groups: list[ConditionalGroup] = []
    # Hexes where the card puts units of both sides together (at set-up or on arrival); any
    # other hex holding both sides is a set-up error (scenario_checks.py).
    contested_hexes: list[HexId] = []
    # Hexes the card itself puts over the stacking limit (where the rules disrupt an
    # overstacked hex rather than forbid it: Desert Fox Deluxe 10.3); any other overstacked
    # hex is a set-up error (scenario_checks.py).
    overstacked_hexes: list[HexId] = []
    # Hexes a side may not end a phase in, by the card's special rules (Desert Fox 30.0).
    forbidden_hexes: list[ForbiddenHexes] = []


# ---- tables/*.yaml -----------------------------------------------------------------------
# A table may say what it is (`kind:`): the tables every game has then share one shape, which
# the set-up checks and the rules kernel read whatever the game; a table of no kind keeps free
# structure under `data`.
class Phase(Strict):
    """One phase of the sequence of play, a stop of the turn tracker."""

    id: Ident | None = None  # the rulebook's numeral or letter (I-XX, A-F), where it has one
    name: Text
    kind: Ident | None = None  # what the phase is for (movement, combat ...): the audit reads it
    side: Ident | None = None  # the phasing side, when fixed
    player: Literal["first", "second"] | None = None  # the phasing player, when the order is chosen each turn
    segment: Ident | None = None  # the segment (a group of phases) it belongs to
    steps: list[Text] = []  # the steps within the phase, in order
    rule: str | None = None


class SequenceData(Strict):
    """`data` of a `kind: sequence` table: the phases the turn tracker walks through each turn."""

    phases: list[Phase] = Field(min_length=1)
    skip_on_turn_1: Ident | None = None  # a segment the first turn skips (Slouch Hats 21.11)


class UnitMatch(Strict):
    """The units a stacking entry is about: every attribute given must match."""

    nationality: Ident | None = None
    size: Annotated[str, StringConstraints(max_length=8)] | None = None
    type: Ident | None = None
    formation: Ident | None = None


class StackingPoints(UnitMatch):
    """The stacking points of the units that match (the first entry that matches applies)."""

    sp: int | None = Field(default=None, ge=0)  # points a unit
    sp_per_step: int | None = Field(default=None, ge=0)  # points per printed step
    rule: str | None = None

    @model_validator(mode="after")
    def _one_value(self):
        if (self.sp is None) == (self.sp_per_step is None):
            raise ValueError("give the points as 'sp' (a unit) or 'sp_per_step', one of them")
        return self


class StackingFree(UnitMatch):
    """Units that stack free: up to `count` of those that match, in each hex."""

    count: int = Field(ge=1)


class StackingLimit(Sourced):
    """Stacking by points: each side's units in a hex count at most `limit` points."""

    limit: int = Field(ge=0)
    default: int = Field(default=1, ge=0)  # the points of a unit no entry of `points` matches
    default_per_step: int | None = Field(default=None, ge=0)  # else per printed step
    terrain_limits: dict[Ident, Annotated[int, Field(ge=0)]] = {}  # the limit of a hex of this terrain
    points: list[StackingPoints] = []
    free: StackingFree | None = None
    rule: str | None = None


class RuleRef(Strict):
    rule: str


class StackingData(Strict):
    """`data` of a `kind: stacking` table: a limit of points, or combinations a hex's units must
    fill (Tobrouk 41-42 7.1), each side's units in a hex apart."""

    stacking: StackingLimit | None = None
    # arrivals may overstack their entry hex (the set-up checks let them)
    reinforcement_overstack: RuleRef | None = None
    # combinations: each a number of units of each kind ({infantry: 2, other: 1}), `other_max_steps`
    # (the steps an `other` unit may show) and its `rule`
    combinations: list[dict[Ident, int | str]] = []
    kinds: dict[Ident, dict[Ident, bool | str | list[str]]] = {}  # the unit attributes that make a kind
    at_most: dict[Ident, Annotated[int, Field(ge=0)]] = {}  # most units of a type in one hex
    not_counted: list[Ident] = []  # unit types that never count
    combat_groups: dict | None = None  # Tobrouk 41-42: what each combat group holds (free structure)

    @model_validator(mode="after")
    def _one_way(self):
        if (self.stacking is None) == (not self.combinations):
            raise ValueError("give either 'stacking' (a limit of points) or 'combinations'")
        return self


MPText = Annotated[str, StringConstraints(pattern=r"^[0-9]+(/[0-9]+)?$")]  # a fraction of MP: "1/3"
_MP_TEXT = re.compile(r"[0-9]+(/[0-9]+)?")


def _is_mp(v) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) or (isinstance(v, str) and bool(_MP_TEXT.fullmatch(v)))


def _costs(*words: str, per_column: bool = False) -> BeforeValidator:
    """An MP cost (1, 0.5, "1/3"), one of `words`, or with `per_column` a mapping of cost column
    -> cost: checked before the union of those types, so that a wrong value is one problem that
    says what to write (not one per member of the union)."""
    def check(v):
        bad = [(k, x) for k, x in v.items() if not _is_mp(x)] if per_column and isinstance(v, dict) else \
            [] if v is None or _is_mp(v) or any(v == w for w in words) else [(None, v)]
        if bad:
            where, value = bad[0]
            other = "".join(f" or {w}" for w in words) + (", or one per cost column ({foot: 1, motorized: 2})"
                                                         if per_column and where is None else "")
            raise ValueError(f"{'column ' + repr(where) + ': ' if where else ''}{value!r} is not an MP cost: write a "
                             f"number (1, 0.5) or a fraction in quotes ('1/3'){other}")
        return v
    return BeforeValidator(check)


MPValue = Annotated[int | float | MPText, _costs()]  # 1, 0.5, "1/3"
AlongTrack = Literal["along-track"]  # Desert Fox: the class enters only along a track (the track's cost)


class TerrainDefense(Strict):
    """What the terrain does for a defender."""

    shift: int = 0  # odds columns shifted (left: negative)
    double: bool = False  # the defense strength doubled
    not_for: list[Ident] = []  # movement classes it never helps
    all_attackers_across: bool = False  # a hexside's shift only when every attacker attacks across it


class HexEffect(Strict):
    """Entering a hex of this terrain: its cost per cost column of `movement_classes`."""

    # a class none of whose columns is given may not enter
    mp: dict[Ident, Annotated[int | float | MPText | AlongTrack, _costs("along-track")]] = {}
    rule: str | None = None
    note: str | None = None
    track: MPValue | None = None  # the cost when entered along a track (Desert Fox; else half)
    defense: TerrainDefense | None = None
    crt_line: int | Ident | None = None  # the line of the combat results table (Desert Fox 14.5)
    obstructed: bool = False  # Desert Fox 14.7
    road_only: list[Ident] = []  # classes that enter only along a road or trail (Slouch Hats 8.35)
    supply_line: Ident | None = None  # how a supply line may enter (Slouch Hats 6.22b)


class ConnectedRate(Strict):
    """The cost of a hex entered across a hexside this feature (a road, a track) crosses."""

    mp: Annotated[int | float | MPText | dict[Ident, MPValue], _costs(per_column=True)]  # one for all, or per column
    rule: str | None = None


class HexsideEffect(Strict):
    """Crossing a hexside with this feature: what it adds, or that it may not be crossed."""

    mp: Annotated[dict[Ident, MPValue] | int | float | MPText | None, _costs(per_column=True)] = None  # per column, or one
    prohibited: bool = False
    unless: list[Ident] = []  # features that cancel it on the same hexside (a road)
    along_track: MPValue | None = None  # what it adds along a track (Desert Fox; else half)
    rule: str | None = None
    note: str | None = None
    defense: TerrainDefense | None = None
    blocks_supply_line: bool = False
    blocks_zoc: bool = False  # Desert Fox 11.0
    no_at_across: bool = False  # Desert Fox: no anti-tank effect across it


class RoadRate(Strict):
    """Slouch Hats 8.36-8.37: a road hex entered from a road hex along the road."""

    mp: Annotated[int | float | MPText | Literal["half_hex"] | None, _costs("half_hex")] = None  # None: no road
    supply_road: bool = False
    bridges_wadi: bool = False
    wadi_crossing: MPValue | None = None
    rule: str | None = None
    note: str | None = None


class UnitClass(Strict):
    """A unit type's movement class (and what else the chart says of it)."""

    movement_class: Ident
    armored: bool = False
    aa: bool = False


class FlatCost(Strict):
    mp: MPValue | None = None
    extra_mp: MPValue | None = None
    rule: str | None = None


class MinefieldBreach(Strict):
    less: int = Field(ge=0)  # MP less to cross a breached minefield hexside
    rule: str | None = None


class TerrainEffectsData(Strict):
    """`data` of a `kind: terrain-effects` table: the Terrain Effects Chart in the shape the rules
    kernel's TerrainChart reads (validators/kernel/movement.py): hex costs per cost column, what
    roads and tracks make a hex cost, and what each hexside adds; a game's own extras beside."""

    movement_classes: dict[Ident, list[Ident]]  # a class reads its cost columns in order
    hex: dict[Ident, HexEffect]
    connected: dict[Ident, ConnectedRate] = {}
    hexside: dict[Ident, HexsideEffect] = {}
    types: dict[Ident, UnitClass] = {}  # each unit type's movement class (the set-up checks read it)
    roads: dict[Ident, RoadRate] = {}  # Slouch Hats 8.36: road rates of its own
    enemy_zoc: FlatCost | None = None  # entering an enemy ZOC (Desert Fox 11.4)
    overrun: FlatCost | None = None  # Desert Fox 13.4
    improved_position: FlatCost | None = None  # Western Desert Force 12.2
    holding_box_entry: FlatCost | None = None  # Slouch Hats 9.33a
    amphibious_landing: FlatCost | None = None  # Slouch Hats 10.63
    derived: dict[Ident, str] = {}  # how the columns of derived classes were found (Tobrouk 4.2a-b)
    breached_minefield: MinefieldBreach | None = None  # Tobrouk 4.43c
    checks: list[dict[Ident, str]] = []  # the rulebook's example moves the chart allows


TABLE_DATA: dict[str, type[BaseModel]] = {"sequence": SequenceData, "stacking": StackingData,
                                          "terrain-effects": TerrainEffectsData}
TableKind = Literal["sequence", "stacking", "terrain-effects"]


class TableFile(Sourced):
    """A rules table: its title and rule section, what it is (`kind`), and its `data`: of the
    kind's one shape (SequenceData ...), or free structure for a table of no kind."""

    title: Text
    rule: str
    kind: TableKind | None = None
    summary: list[str] = []
    data: dict

    @computed_field
    @cached_property
    def typed(self) -> SequenceData | StackingData | TerrainEffectsData | None:
        """`data` read as its kind's model (None for a table of no kind)."""
        model = TABLE_DATA.get(self.kind or "")
        return None if model is None else model.model_validate(self.data)


class SequenceTableFile(TableFile):
    kind: Literal["sequence"]
    data: SequenceData


class StackingTableFile(TableFile):
    kind: Literal["stacking"]
    data: StackingData


# The model of a table of each kind, whole (the loader reports each problem of its `data` at its
# line with it; the JSON schema offers one of them).
class TerrainEffectsTableFile(TableFile):
    kind: Literal["terrain-effects"]
    data: TerrainEffectsData


TABLES: dict[str, type[TableFile]] = {"sequence": SequenceTableFile, "stacking": StackingTableFile,
                                      "terrain-effects": TerrainEffectsTableFile}


# ---- rules.yaml (optional) ----------------------------------------------------------------
RuleNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}(\.[0-9]{1,2}){0,3}$")]
TestId = Annotated[str, StringConstraints(pattern=r"^tests/[A-Za-z0-9_/]+\.py::[A-Za-z0-9_]+(::[A-Za-z0-9_]+)?$")]
RuleStatus = Literal["audited", "partly", "not audited", "not checkable"]
RULE_STATUSES: tuple[str, ...] = get_args(RuleStatus)


class RuleEntry(Strict):
    """One rule a log can show: its text in short, what the auditor does with it, and the
    tests that prove it (`hexforge rules`; the audit reports print `text` beside the number)."""

    number: RuleNumber
    title: Text
    text: Annotated[str, StringConstraints(min_length=1, max_length=400)]
    status: RuleStatus
    note: Text | None = None  # what is not checked, and why
    ranks: list[Annotated[int, Field(ge=1, le=99)]] = []  # the digest's ranks (its section 10.1) naming it
    tests: list[TestId] = []  # pytest node ids

    @model_validator(mode="after")
    def _note_unless_audited(self):
        if self.status != "audited" and not self.note:
            raise ValueError(f"a rule that is {self.status!r} needs a one-line 'note' saying what is not checked")
        return self


class RulesFile(Strict):
    """The catalogue of the rules a log can show, paraphrased from `source`."""

    source: Text
    rules: list[RuleEntry] = Field(min_length=1)


# ---- events.yaml (optional) ----------------------------------------------------------------
CardText = Annotated[str, StringConstraints(min_length=1, max_length=4000)]


class EventMeaning(Strict):
    """What a shared marker means for one side (Slouch Hats 20.15: the letter is the event of
    that letter of the side that plays it)."""

    title: Text
    text: CardText
    rule: str | None = None


class EventCard(Sourced):
    """One event card or marker: a side's own card (`title` and `text`), or a marker of a
    shared pool whose meaning depends on the side that plays it (`events`, one per side)."""

    id: Ident
    title: Text | None = None
    text: CardText | None = None
    rule: str | None = None
    # a marker of a shared pool: side id -> what it means when that side plays it
    events: dict[Ident, EventMeaning] = {}

    @model_validator(mode="after")
    def _own_text_or_one_per_side(self):
        if self.events and (self.title or self.text):
            raise ValueError("give either 'title' and 'text' (a side's own card) or 'events' (a shared marker), not both")
        if not self.events and not (self.title and self.text):
            raise ValueError("a card needs 'title' and 'text', or 'events' with one meaning per side")
        return self


class EventDeck(Strict):
    """A face-down pile of event cards in the Events window: a side draws a card into its hand
    (a window only that side can open) and plays it face up onto the played area; the draw and
    the play each write a line in the log."""

    id: Ident
    name: Text  # the pile's name, as the log names where a card comes from
    side: Ident | None = None  # the side that owns and draws this deck; none: a pool both sides draw from
    shuffle: bool = True  # true: each draw takes a random card (an opaque cup); false: the player picks it
    card_name: Text = "{id} {title}"  # a card's name in the log and the windows: {id}, {title}
    rule: str | None = None
    cards: list[EventCard] = Field(min_length=1)


class EventsFile(Strict):
    """The game's event decks or pools, the hidden hands they are drawn into, and the played area."""

    rule: str | None = None  # the rule that keeps held events hidden (Slouch Hats 20.13)
    played: Text = "Played events"  # the face-up area of the Events window played cards go to
    played_rule: str | None = None
    decks: list[EventDeck] = Field(min_length=1)


# ---- releases.yaml (written by `hexforge release`) ------------------------------------------
Version = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")]


class Release(Strict):
    """One released version of the module, with the fingerprint of its geometry (where a logged
    position lands: builder/vassal/fingerprint.py)."""

    version: Version
    geometry: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]
    date: str = ""


class ReleasesFile(Strict):
    """The module's releases, oldest first: a geometry may not change under a released version."""

    releases: list[Release] = []



# ---- piece maps (written by `hexforge map-pieces`) ------------------------------------------
class PieceMatch(Strict):
    """One piece of another module (a palette slot): what it is in our game."""

    name: str  # their piece's name on the palette
    gpid: str | None = None  # their slot's id (PieceSlot gpid): every piece made from the slot carries it
    ours: str | None = None  # our unit, leader, marker or chit id; null: not matched yet (fill it in, or leave null: ignored)
    score: float = Field(default=0.0, ge=0.0, le=1.0)  # how well name, side, strength and formation agreed (informative)
    why: str = ""  # what agreed, or what was closest


class PieceMapFile(Strict):
    """Another module of one of our games read as ours: its pieces as our units and markers, its
    location names (hexes numbered its way, boxes) as ours.  `hexforge audit GAME LOG --module VMOD
    --pieces MAP.yaml` reads a log of that module through it."""

    game: str  # our game's slug
    module: str  # their module's name and version, as its moduledata gives them
    hexes_by: str = ""  # how `locations` was worked out (geometry, names), for the reader
    pieces: list[PieceMatch] = []
    locations: dict[str, str] = {}  # their location name -> ours (a hex id, a box or zone)

FILES = {
    "game.yaml": GameFile,
    "terrain.yaml": TerrainFile,
    "map.yaml": MapFile,
    "map-terrain.yaml": MapTerrainFile,
    "units.yaml": UnitsFile,
    "markers.yaml": MarkersFile,
}
