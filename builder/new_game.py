"""`hexforge new`: a game to start from, ready to edit, or a copy of an existing game (issue 16).

The starter is small but complete: a board of 5 x 4 hexes, two sides of three units each, one
scenario, hex terrain with costs per movement class and a road, a sequence of play, zones of
control and stacking, a combat table with what each result demands, and a catalogue of its
rules.  It passes `check`, builds into a module, and its logs are audited from those tables
alone by the kernel's generic rules (validators.kernel.generic), named in game.yaml.
Every value is the starter's own invention, so every item says `provenance: reconstructed`.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from builder.model.json_schema import with_schema_line

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")

GAME = """\
# {title}: a starter game written by `hexforge new`.  Edit every file to your game; the rules
# (sequence of play, movement and terrain, zones of control, stacking, combat results) are
# checked from the tables by the kernel's generic rules until the game has a rules package of
# its own (then name it in `rules:`).
title: {title}
version: "0.1"
description: A starter game - replace with your own.
rulebook: none
rules: validators.kernel.generic    # the rules package `hexforge audit` runs
sides:
  - {{id: blue, name: Blue}}
  - {{id: red, name: Red}}
nationalities:
  - {{id: blue, name: Blue, side: blue, colour: "#9fc5e8", text: "#000000"}}
  - {{id: red, name: Red, side: red, colour: "#ea9999", text: "#000000"}}
counter:
  inches: 0.5
  pixels: 60
  provenance: reconstructed
  reason: the starter's own choice; set your counters' printed size
turns:
  first: 1
  last: 4
dice:
  - {{name: Blue 1d6, side: blue, dice: 1, tooltip: "Blue: roll one die"}}
  - {{name: Red 1d6, side: red, dice: 1, tooltip: "Red: roll one die"}}
declarations:              # menu commands that only write a line in the log: who fights whom
  - {{name: Declare attacker, key: A, report: "Combat: $PieceName$ attacks from $location$", rule: "3"}}
  - {{name: Declare defender, key: D, report: "Combat: $PieceName$ defends in $location$", rule: "3"}}
send_to:
  - {{name: Eliminate, key: E, zone: "{{side}} eliminated", report: "$PieceName$ eliminated", rule: "3"}}
charts:
  - {{name: Sequence of Play, table: sequence}}
  - {{name: Movement, table: movement}}
  - {{name: Stacking, table: stacking}}
  - {{name: Combat Results, table: combat}}
"""

TERRAIN = """\
# Terrain: hexes are clear unless map-terrain.yaml says otherwise.  Entering a hex costs its
# type's `cost` for the unit's movement class (its unit type: armor, infantry, recon), or the
# default cost; a road across the hexside costs its own instead (the kernel's generic rules).
hex_terrain:
  - {id: clear, name: Clear, colour: "#e8e0c0", rule: "2", provenance: reconstructed, reason: the starter's own terrain}
  - {id: forest, name: Forest, colour: "#9bbf85", rule: "2", cost: {armor: 3, infantry: 2, recon: 2},
     provenance: reconstructed, reason: "the starter's own terrain: slow going, slowest for armor"}
  - {id: lake, name: Lake, colour: "#8fb8d8", prohibited: true, rule: "2",
     provenance: reconstructed, reason: the starter's own terrain - units cannot enter it}
hexside_features:
  - {id: road, name: Road, colour: "#b0281e", width: 5, style: line, cost: 0.5, rule: "2",
     provenance: reconstructed, reason: the starter's own terrain}
hexside_default_cost: 1
hexside_default_rule: "2"
"""

MAP = """\
# The board: 5 columns of 4 hexes (ids CCRR, column then row, from the top left).
board:
  name: Board
  width: 880
  height: 620
  background: "#f4ecd8"
grid:
  dx: 83.14          # px between hex columns (VASSAL HexGrid dx)
  dy: 96             # px between neighbouring hexes of a column (VASSAL dy)
  x0: 80
  y0: 80
  area: [20, 20, 480, 470]
  provenance: reconstructed
  reason: the starter's own board
numbering:
  first: H
  h_off: 1
  v_off: 1
  stagger: false
  provenance: reconstructed
  reason: the starter's own numbering
default_terrain: clear
places:
  - {hex: "0302", name: Crossroads, strategic: true, vp: 1, provenance: reconstructed, reason: the starter's own objective}
tracks:
  - id: turn
    name: Turn
    origin: [20, 520]
    box: [70, 70]
    boxes: ["1", "2", "3", "4"]
    zone_format: "{track} {box}"
  - id: eliminated
    name: Eliminated
    origin: [330, 520]
    box: [110, 70]
    boxes: [Blue, Red]
    zone_format: "{box} eliminated"
"""

MAP_TERRAIN = """\
# Terrain per hex and per hexside: hex lists, and roads as paths of adjacent hexes.
provenance: reconstructed
reason: the starter's own map
hexes:
  forest: ['0203', '0204', '0304']
  lake: ['0404']
hexside_paths:
  road:
    - {name: Main road, hexes: ['0102', '0202', '0302', '0402', '0502']}
"""

UNITS = """\
# Two sides, one formation each, three units per side.  Faces print combat strength and MA.
unit_types:
  - {id: armor, name: Armor, symbol: armor}
  - {id: infantry, name: Infantry, symbol: infantry}
  - {id: recon, name: Recon, symbol: recon}
faces:
  full: {left: "{cs}", right: "{ma}"}
  reduced: {left: "{cs_reduced}", right: "{ma}"}
formations:
  - {id: "1", name: 1st Blue Division, nationality: blue, stripe: "#1f4e79",
     provenance: reconstructed, reason: the starter's own formation}
  - {id: "2", name: 2nd Red Division, nationality: red, stripe: "#7f1f1f",
     provenance: reconstructed, reason: the starter's own formation}
units:
  - {id: blue-armor, name: Blue Armor, short: B Arm, formation: "1", type: armor, ma: 3, cs: 4, cs_reduced: 2,
     provenance: reconstructed, reason: the starter's own unit}
  - {id: blue-infantry, name: Blue Infantry, short: B Inf, formation: "1", type: infantry, ma: 2, cs: 3, cs_reduced: 1,
     provenance: reconstructed, reason: the starter's own unit}
  - {id: blue-recon, name: Blue Recon, short: B Rec, formation: "1", type: recon, ma: 4, cs: 1, cs_reduced: 1,
     provenance: reconstructed, reason: the starter's own unit}
  - {id: red-armor, name: Red Armor, short: R Arm, formation: "2", type: armor, ma: 3, cs: 4, cs_reduced: 2,
     provenance: reconstructed, reason: the starter's own unit}
  - {id: red-infantry, name: Red Infantry, short: R Inf, formation: "2", type: infantry, ma: 2, cs: 3, cs_reduced: 1,
     provenance: reconstructed, reason: the starter's own unit}
  - {id: red-recon, name: Red Recon, short: R Rec, formation: "2", type: recon, ma: 4, cs: 1, cs_reduced: 1,
     provenance: reconstructed, reason: the starter's own unit}
"""

MARKERS = """\
# Markers: the turn marker.
markers:
  - id: game-turn
    name: Game Turn
    count: 1
    faces:
      - {text: "TURN", colour: "#f2f2f2", text_colour: "#000000"}
"""

SCENARIO = """\
# The one scenario: both sides set up apart, the turn marker on turn 1.
name: Meeting engagement
description: Blue from the west, Red from the east; whoever holds the Crossroads wins.
first_turn: 1
provenance: reconstructed
reason: the starter's own scenario
units:
  - {unit: blue-armor, hex: "0102"}
  - {unit: blue-infantry, hex: "0103"}
  - {unit: blue-recon, hex: "0101"}
  - {unit: red-armor, hex: "0502"}
  - {unit: red-infantry, hex: "0503"}
  - {unit: red-recon, hex: "0501"}
markers:
  - {marker: game-turn, track: turn, box: "1"}
"""

COMBAT = """\
# Combat Results Table: one die per attack, read in the odds column (the generic rules audit it).
title: Combat Results
rule: "3"
provenance: reconstructed
reason: the starter's own table
summary:
  - "In its Combat Phase a side declares attackers next to an enemy hex (Declare attacker) and that hex's units (Declare defender)."
  - Compare attack and defence strength as odds, rounded down to a column; roll one die of the attacker's side and read the result.
  - "AE: the attackers are eliminated. DR: the defenders retreat one hex (eliminated if they cannot). DE: the defenders are eliminated."
data:
  declarations: {attacker: Declare attacker, defender: Declare defender}
  columns: ["1-2", "1-1", "2-1", "3-1"]
  results:            # die roll -> result per column (AE attacker eliminated, DR defender retreats, DE defender eliminated)
    1: [AE, AE, DR, DR]
    2: [AE, DR, DR, DE]
    3: [AE, DR, DR, DE]
    4: [DR, DR, DE, DE]
    5: [DR, DE, DE, DE]
    6: [DR, DE, DE, DE]
  effects:            # what each result demands of each side
    AE: {attacker: eliminated}
    DR: {defender: retreat, hexes: 1}
    DE: {defender: eliminated}
"""

SEQUENCE = """\
# Sequence of play: the phases the turn tracker walks each turn (`kind` and `side`: the generic rules
# let a side move in its own Movement Phase and attack in its own Combat Phase).
kind: sequence
title: Sequence of Play
rule: "1"
provenance: reconstructed
reason: the starter's own sequence
summary:
  - Blue moves, then Blue attacks; Red moves, then Red attacks.
data:
  phases:
    - {name: Blue Movement, kind: movement, side: blue, rule: "2"}
    - {name: Blue Combat, kind: combat, side: blue, rule: "3"}
    - {name: Red Movement, kind: movement, side: red, rule: "2"}
    - {name: Red Combat, kind: combat, side: red, rule: "3"}
"""

MOVEMENT = """\
# Movement allowance and zones of control (the generic rules read `data`).
title: Movement
rule: "2"
provenance: reconstructed
reason: the starter's own rules
summary:
  - "A unit spends at most its MA in its side's Movement Phase: a hex costs its terrain (terrain.yaml), a road hexside 1/2."
  - "The six hexes around a unit are its zone of control: an enemy unit entering one stops there, and never moves from one enemy-controlled hex straight into another."
data:
  allowance: {rule: "2"}
  zoc: {rule: "4"}
"""

STACKING = """\
# Stacking (the generic rules read `data`): points per unit against a limit a hex, each side apart.
kind: stacking
title: Stacking
rule: "5"
provenance: reconstructed
reason: the starter's own rules
summary:
  - "At the end of every phase a hex holds at most 2 stacking points of each side (a unit 1)."
data:
  stacking: {rule: "5", limit: 2, default: 1}
"""

RULES = """\
# The catalogue of the rules a log can show (`hexforge rules`): the starter's own rules; replace
# them with your rulebook's, each with its number, a short text, and what the audit does with it.
source: the starter game of `hexforge new` (its tables hold the rules)
rules:
  - number: "1"
    title: Sequence of play
    text: "Each turn: Blue Movement, Blue Combat, Red Movement, Red Combat; a side moves and attacks in its own phases."
    status: audited
  - number: "2"
    title: Movement
    text: "A unit spends at most its MA in its Movement Phase: a hex costs its terrain for the unit's class, a road hexside 1/2; no unit enters a lake or an enemy-held hex."
    status: audited
  - number: "3"
    title: Combat
    text: "Attackers next to an enemy hex attack its units; the odds column and a die give AE, DR or DE, which the units suffer."
    status: audited
  - number: "4"
    title: Zones of control
    text: "A unit entering an enemy zone of control stops; no move goes from one enemy-controlled hex straight into another."
    status: audited
  - number: "5"
    title: Stacking
    text: "At the end of every phase a hex holds at most 2 stacking points of each side."
    status: audited
"""


def starter_files(title: str) -> dict[str, str]:
    """{path inside the game folder: text} of the starter game, each with its schema line."""
    files = {"game.yaml": GAME.format(title=title), "terrain.yaml": TERRAIN, "map.yaml": MAP,
             "map-terrain.yaml": MAP_TERRAIN, "units.yaml": UNITS, "markers.yaml": MARKERS,
             "scenarios/meeting.yaml": SCENARIO, "tables/combat.yaml": COMBAT, "tables/sequence.yaml": SEQUENCE,
             "tables/movement.yaml": MOVEMENT, "tables/stacking.yaml": STACKING, "rules.yaml": RULES}
    return {rel: with_schema_line(text, rel) for rel, text in files.items()}


def title_of(slug: str) -> str:
    return " ".join(w.capitalize() for w in slug.split("-"))


class NewGameError(ValueError):
    """A one-line reason `hexforge new` wrote nothing."""


def new_game(slug: str, sources: Path, from_game: str | None = None) -> Path:
    """Write sources/<slug>/: the starter game, or a copy of sources/<from_game>/.

    The folder appears whole or not at all (written beside it, then renamed into place).
    A copy keeps everything, its `rules:` entry too: the copy is audited by the same rules.
    """
    if not SLUG.match(slug):
        raise NewGameError(f"{slug!r} is not a game slug: use lower-case letters, digits and '-' (e.g. my-game)")
    dest = sources / slug
    if dest.exists():
        raise NewGameError(f"sources/{slug} already exists; choose another slug or remove it first")
    if from_game is not None and not (sources / from_game / "game.yaml").is_file():
        known = sorted(p.name for p in sources.iterdir() if (p / "game.yaml").is_file()) if sources.is_dir() else []
        raise NewGameError(f"--from {from_game!r}: no such game; games: {', '.join(known) or 'none'}")
    sources.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{slug}.", dir=sources))
    try:
        if from_game is not None:
            shutil.copytree(sources / from_game, tmp, dirs_exist_ok=True)
        else:
            for rel, text in starter_files(title_of(slug)).items():
                (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
                (tmp / rel).write_text(text, encoding="utf-8")
        tmp.chmod(0o755)
        tmp.rename(dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest
