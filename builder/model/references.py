"""Cross-file checks: every name used in one file exists in another, every hex is on the map.

Each check reports against the exact value that is wrong, with a 'did you mean' hint.
"""
from __future__ import annotations

import re
from collections import Counter

from builder.model import schema as s
from builder.model.game import Game
from builder.model.problems import Collector, did_you_mean
from builder.model.scenario_checks import check_scenarios
from builder.model.yamlsource import Located


def _unique(col: Collector, doc: Located, key: str, items, what: str) -> None:
    seen = Counter(getattr(x, "id") for x in items)
    for i, item in enumerate(items):
        if seen[item.id] > 1:
            col.at(doc, (key, i, "id"), f"duplicate {what} id {item.id!r}", "every id must be unique")


def _hex(col: Collector, game: Game, doc: Located, loc, label: str) -> bool:
    if label in game.geometry:
        return True
    col.at(doc, loc, f"hex {label!r} is not on the map", did_you_mean(label, game.geometry.labels))
    return False


def _game_file(col: Collector, game: Game, doc: Located) -> None:
    sides = game.sides
    for i, n in enumerate(game.info.nationalities):
        if n.side not in sides:
            col.at(doc, ("nationalities", i, "side"), f"unknown side {n.side!r}", did_you_mean(n.side, sides))
    for i, d in enumerate(game.info.dice):
        if d.side is not None and d.side not in sides:
            col.at(doc, ("dice", i, "side"), f"unknown side {d.side!r}", did_you_mean(d.side, sides))
    for i, c in enumerate(game.info.charts):
        if c.table not in game.tables:
            col.at(doc, ("charts", i, "table"), f"no table {c.table!r} in tables/",
                   did_you_mean(c.table, game.tables, f"add tables/{c.table}.yaml (title, rule, data) or remove this chart"))
    if game.info.turns.last < game.info.turns.first:
        col.at(doc, ("turns", "last"), "the last turn comes before the first", "")
    zones = {game.zone_name(t.id, b) for t in game.map.tracks for b in t.boxes}
    for i, t in enumerate(game.info.send_to):
        for side in game.info.sides:
            zone = t.zone.replace("{side}", side.name)
            if zone not in zones:
                col.at(doc, ("send_to", i, "zone"), f"no box {zone!r} for side {side.name}",
                       did_you_mean(zone, sorted(zones)) or "name a track box; {side} stands for the side's name")


def _terrain(col: Collector, game: Game, docs: dict[str, Located]) -> None:
    tdoc, mdoc, mtdoc = docs["terrain.yaml"], docs["map.yaml"], docs["map-terrain.yaml"]
    _unique(col, tdoc, "hex_terrain", game.terrain.hex_terrain, "terrain")
    _unique(col, tdoc, "hexside_features", game.terrain.hexside_features, "hexside feature")
    kinds, features = game.hex_terrain_types, game.hexside_feature_types
    if game.map.default_terrain not in kinds:
        col.at(mdoc, ("default_terrain",), f"unknown terrain {game.map.default_terrain!r}",
               did_you_mean(game.map.default_terrain, kinds))
    seen = Counter(p.hex for p in game.map.places)
    for i, p in enumerate(game.map.places):
        _hex(col, game, mdoc, ("places", i, "hex"), p.hex)
        if seen[p.hex] > 1:
            col.at(mdoc, ("places", i, "hex"), f"two places share hex {p.hex}", "one place per hex")
        if p.terrain and p.terrain not in kinds:
            col.at(mdoc, ("places", i, "terrain"), f"unknown terrain {p.terrain!r}", did_you_mean(p.terrain, kinds))
    for kind, hexes in game.map_terrain.hexes.items():
        if kind not in kinds:
            col.at_key(mtdoc, ("hexes", kind), f"unknown terrain {kind!r}", did_you_mean(kind, kinds))
        for j, h in enumerate(hexes):
            _hex(col, game, mtdoc, ("hexes", kind, j), h)
    for feature, paths in game.map_terrain.hexside_paths.items():
        if feature not in features:
            col.at_key(mtdoc, ("hexside_paths", feature), f"unknown hexside feature {feature!r}", did_you_mean(feature, features))
        for i, path in enumerate(paths):
            ok = [_hex(col, game, mtdoc, ("hexside_paths", feature, i, "hexes", j), h) for j, h in enumerate(path.hexes)]
            for j, (a, b) in enumerate(zip(path.hexes, path.hexes[1:])):
                if ok[j] and ok[j + 1] and not game.geometry.adjacent(a, b):
                    col.at(mtdoc, ("hexside_paths", feature, i, "hexes", j + 1),
                           f"{path.name}: {a} and {b} are not adjacent", "a path lists neighbouring hexes in order")
    for feature, runs in game.map_terrain.hexside_runs.items():
        if feature not in features:
            col.at_key(mtdoc, ("hexside_runs", feature), f"unknown hexside feature {feature!r}", did_you_mean(feature, features))
        for i, run in enumerate(runs):
            for j, side in enumerate(run.hexsides):
                a, _, b = side.partition("/")  # a side without '/' is a schema problem, reported already
                loc = ("hexside_runs", feature, i, "hexsides", j)
                if _hex(col, game, mtdoc, loc, a) and _hex(col, game, mtdoc, loc, b) and not game.geometry.adjacent(a, b):
                    col.at(mtdoc, loc, f"{side} is not a hexside: {a} and {b} are not adjacent", "write two neighbouring hexes")
    map_ids = Counter(m.id for m in game.map.maps)
    for i, m in enumerate(game.map.maps):
        if map_ids[m.id] > 1 or m.id == "Main Map":  # builder/vassal/pieces.py MAP_ID: the main map's name
            col.at(mdoc, ("maps", i, "id"), f"map id {m.id!r} is taken", "every map needs its own id (not 'Main Map')")
        names = [m.board.name]
        for j, b in enumerate(m.more_boards):
            if b.name in names:
                col.at(mdoc, ("maps", i, "more_boards", j, "name"), f"map {m.id}: a second board named {b.name!r}",
                       "every board of a map needs its own name")
            if (b.column, b.row) in [(0, 0), *((o.column, o.row) for o in m.more_boards[:j])]:
                col.at(mdoc, ("maps", i, "more_boards", j), f"map {m.id}: board {b.name!r} at column {b.column}, "
                       f"row {b.row}, where another board is", "give each board its own column and row")
            names.append(b.name)
    tracks = Counter(t.id for t in game.map.tracks)
    for i, t in enumerate(game.map.tracks):
        if tracks[t.id] > 1:
            col.at(mdoc, ("tracks", i, "id"), f"duplicate track id {t.id!r}", "every id must be unique")
        for box in t.captions:
            if box not in t.boxes:
                col.at_key(mdoc, ("tracks", i, "captions", box), f"no box {box!r} on track {t.id}", did_you_mean(box, t.boxes))


def _units(col: Collector, game: Game, docs: dict[str, Located]) -> None:
    udoc, mdoc = docs["units.yaml"], docs["markers.yaml"]
    _unique(col, udoc, "formations", game.units_file.formations, "formation")
    _unique(col, udoc, "units", game.units, "unit")
    nats = game.nationalities
    for i, f in enumerate(game.units_file.formations):
        if f.nationality not in nats:
            col.at(udoc, ("formations", i, "nationality"), f"unknown nationality {f.nationality!r}", did_you_mean(f.nationality, nats))
    _unique(col, udoc, "unit_types", game.units_file.unit_types, "unit type")
    _unique(col, udoc, "leaders", game.units_file.leaders, "leader")
    used = _template_fields(col, udoc, game.units_file.faces)
    ids = {u.id for u in game.units}
    own = {t.id: _template_fields(col, udoc, t.faces, ("unit_types", j, "faces"))
           for j, t in enumerate(game.units_file.unit_types) if t.faces is not None}
    for i, u in enumerate(game.units):
        if u.formation not in game.formations:
            col.at(udoc, ("units", i, "formation"), f"unknown formation {u.formation!r}", did_you_mean(u.formation, game.formations))
        if u.type not in game.unit_types:
            col.at(udoc, ("units", i, "type"), f"unknown unit type {u.type!r}", did_you_mean(u.type, game.unit_types))
        for key in ("replaced_by", "hq"):  # Tobrouk 41-42: the weaker counter (6.1d), the commanding HQ (3.6)
            ref = getattr(u, key)
            if ref is not None and ref not in ids:
                col.at(udoc, ("units", i, key), f"unknown unit {ref!r}", did_you_mean(ref, ids))
        for face, fields in own.get(u.type, used).items():
            if face == "reduced" and u.steps == 1:
                continue
            for name in fields:
                if getattr(u, name) is None:
                    col.at(udoc, ("units", i), f"unit {u.id} has no {name!r}, which its {face} face prints",
                           f"add '{name}:' to the unit")
    for i, ld in enumerate(game.units_file.leaders):
        if ld.nationality not in nats:
            col.at(udoc, ("leaders", i, "nationality"), f"unknown nationality {ld.nationality!r}", did_you_mean(ld.nationality, nats))
    _unique(col, mdoc, "markers", game.markers_file.markers, "marker")
    _unique(col, mdoc, "chits", game.markers_file.chits, "chit")
    for i, c in enumerate(game.markers_file.chits):
        if c.nationality not in nats:
            col.at(mdoc, ("chits", i, "nationality"), f"unknown nationality {c.nationality!r}", did_you_mean(c.nationality, nats))
    for i, m in enumerate(game.markers_file.markers):
        for j, face in enumerate(m.faces):
            if face.side and face.side not in game.sides:
                col.at(mdoc, ("markers", i, "faces", j, "side"), f"unknown side {face.side!r}", did_you_mean(face.side, game.sides))


def _art(col: Collector, game: Game, docs: dict[str, Located]) -> None:
    """Every art file the sources name can be read from the game's folder (issue 35), and a
    board's scan is the board's size (VASSAL sizes the board by its image; the hex ids depend on it)."""
    from PIL import Image

    from builder.art import art_problem

    def check(doc: Located, loc: tuple, rel: str, what: str) -> None:
        problem = art_problem(game.root, rel)
        if problem:
            col.at(doc, loc, f"{what}: {problem}", f"put a PNG or SVG file in sources/{game.slug}/ (or a folder of it) "
                                                   "and name it relative to that folder")

    if "units.yaml" in docs:
        for i, u in enumerate(game.units):
            for key in ("image", "image_reduced"):
                if getattr(u, key) is not None:
                    check(docs["units.yaml"], ("units", i, key, "file"), getattr(u, key).file, f"unit {u.id}'s art")
    if "markers.yaml" in docs:
        for i, m in enumerate(game.markers_file.markers):
            for j, f in enumerate(m.faces):
                if f.image is not None:
                    check(docs["markers.yaml"], ("markers", i, "faces", j, "image", "file"), f.image.file,
                          f"marker {m.id}'s art")
    b = game.map.board if "map.yaml" in docs else None
    if b is not None and b.image:
        problem = art_problem(game.root, b.image, decode=False)
        if problem:
            col.at(docs["map.yaml"], ("board", "image"), f"board image: {problem}",
                   f"put the scan in sources/{game.slug}/ and name it here (PNG, JPEG or GIF)")
            return
        with Image.open(game.root / b.image) as img:
            size = img.size
        if size != (b.width, b.height):
            col.at(docs["map.yaml"], ("board", "image"), f"board image {b.image} is {size[0]} x {size[1]} px; the "
                   f"board says {b.width} x {b.height}", f"set board.width: {size[0]} and board.height: {size[1]} "
                   f"(`hexforge fit-grid {game.slug}` does it and fits the hex grid to the scan)")


def _template_fields(col: Collector, doc: Located, faces, at: tuple = ("faces",)) -> dict[str, list[str]]:
    """The unit fields each face template prints ({cs}, {ma}...); unknown names are reported."""
    fields = set(s.Unit.model_fields) | set(s.Unit.model_computed_fields)
    out: dict[str, list[str]] = {}
    for face in ("full", "reduced"):
        for corner in s.FaceValues.model_fields:
            text = getattr(getattr(faces, face), corner)
            for name in re.findall(r"{(\w*)}", text):
                if name not in fields:
                    col.at(doc, at + (face, corner), f"{{{name}}} is not a unit field", did_you_mean(name, sorted(fields)))
                else:
                    out.setdefault(face, []).append(name)
    return out


def _place(col: Collector, game: Game, doc: Located, loc: tuple, item) -> None:
    """A hex, or a track and one of its boxes, or a point of the main map's or a further map's board."""
    if getattr(item, "at", None) is not None:
        maps = {m.id: m for m in game.map.maps}
        if item.map is not None and item.map not in maps:
            col.at(doc, loc + ("map",), f"unknown map {item.map!r}", did_you_mean(item.map, maps))
            return
        b = maps[item.map].board if item.map is not None else game.map.board
        x, y = item.at
        rects = maps[item.map].board_rects() if item.map is not None else [(b, 0, 0)]
        if not any(0 <= x - bx < o.width and 0 <= y - by < o.height for o, bx, by in rects):
            col.at(doc, loc + ("at",), f"({x}, {y}) is off the board {b.name!r} ({b.width} x {b.height} px)",
                   "give a point of the board")
    elif item.hex is not None:
        _hex(col, game, doc, loc + ("hex",), item.hex)
    elif item.track not in game.tracks:
        col.at(doc, loc + ("track",), f"unknown track {item.track!r}", did_you_mean(item.track, game.tracks))
    elif item.box not in game.tracks[item.track].boxes:
        col.at(doc, loc + ("box",), f"no box {item.box!r} on track {item.track}", did_you_mean(item.box, game.tracks[item.track].boxes))


def _arrival_phase(col: Collector, game: Game, doc: Located, loc: tuple, phase: str | None) -> None:
    """An arrival's phase: an id or a kind of the sequence of play (tables/sequence.yaml)."""
    if phase is None:
        return
    seq = game.table("sequence")
    phases = seq.typed.phases if seq is not None else []
    known = sorted({str(p.id) for p in phases} | {p.kind for p in phases if p.kind})
    if phase not in known:
        col.at(doc, loc, f"no phase or kind of phase {phase!r} in tables/{game.table_name('sequence') or 'sequence'}.yaml",
               did_you_mean(phase, known))


def _scenario(col: Collector, game: Game, doc: Located) -> None:
    sc = game.scenarios[doc.file.rsplit("/", 1)[-1][:-5]]
    units = {u.id for u in game.units} | set(game.leaders)
    for i, f in enumerate(sc.formations):
        if f.formation not in game.formations:
            col.at(doc, ("formations", i, "formation"), f"unknown formation {f.formation!r}", did_you_mean(f.formation, game.formations))
        _hex(col, game, doc, ("formations", i, "hex"), f.hex)
    for i, u in enumerate(sc.units):
        if u.unit not in units:
            col.at(doc, ("units", i, "unit"), f"unknown unit {u.unit!r}", did_you_mean(u.unit, units))
        _place(col, game, doc, ("units", i), u)
    for key, items in (("reinforcements", sc.reinforcements), ("withdrawals", sc.withdrawals)):
        for i, r in enumerate(items):
            for j, uid in enumerate(r.units):
                if uid not in units:
                    col.at(doc, (key, i, "units", j), f"unknown unit {uid!r}", did_you_mean(uid, units))
            if key == "reinforcements" and (r.hex is not None or r.track is not None):
                _place(col, game, doc, (key, i), r)
            if key == "reinforcements":
                for j, h in enumerate(r.hexes):
                    _hex(col, game, doc, (key, i, "hexes", j), h)
                _arrival_phase(col, game, doc, (key, i, "phase"), r.phase)
    for j, uid in enumerate(sc.garrisons):  # Slouch Hats 5.6
        if uid not in units:
            col.at(doc, ("garrisons", j), f"unknown unit {uid!r}", did_you_mean(uid, units))
    for i, g in enumerate(sc.conditional_groups):  # Slouch Hats 5.4
        for j, uid in enumerate(g.units):
            if uid not in units:
                col.at(doc, ("conditional_groups", i, "units", j), f"unknown unit {uid!r}", did_you_mean(uid, units))
        if g.last_turn < g.first_turn:
            col.at(doc, ("conditional_groups", i, "last_turn"), "the last turn comes before the first", "")
        if g.hex is not None or g.track is not None:
            _place(col, game, doc, ("conditional_groups", i), g)
    _scenario_header(col, game, doc, sc)
    if sc.waiting_track is not None:
        if sc.waiting_track not in game.tracks:
            col.at(doc, ("waiting_track",), f"unknown track {sc.waiting_track!r}", did_you_mean(sc.waiting_track, game.tracks))
        else:
            boxes = game.tracks[sc.waiting_track].boxes
            for i, r in enumerate(sc.reinforcements):
                if str(r.turn) not in boxes:
                    col.at(doc, ("reinforcements", i, "turn"), f"track {sc.waiting_track} has no box {r.turn}", did_you_mean(str(r.turn), boxes))
    for i, m in enumerate(sc.markers):
        marker = game.markers.get(m.marker)
        if marker is None:
            col.at(doc, ("markers", i, "marker"), f"unknown marker {m.marker!r}", did_you_mean(m.marker, game.markers))
        elif m.face > len(marker.faces):
            col.at(doc, ("markers", i, "face"), f"marker {m.marker} has {len(marker.faces)} face(s)",
                   "use face 1, its only face" if len(marker.faces) == 1 else f"use face 1 to {len(marker.faces)}")
        _place(col, game, doc, ("markers", i), m)
    placed = Counter(m.marker for m in sc.markers)
    for i, m in enumerate(sc.markers):
        marker = game.markers.get(m.marker)
        if marker and placed[m.marker] > marker.count:
            col.at(doc, ("markers", i, "marker"), f"{placed[m.marker]} {m.marker} markers placed, the game has {marker.count}",
                   "raise 'count' in markers.yaml or place fewer")
            placed[m.marker] = 0


def _scenario_header(col: Collector, game: Game, doc: Located, sc) -> None:
    """The card's header as data (Desert Fox 24.0-33.0): sides, turns, victory hexes, arrival steps.

    A victory hex is checked once its map is drawn: a map section with its letter, or, on a game
    without sections, always."""
    if sc.initiative is not None and sc.initiative not in game.sides:
        col.at(doc, ("initiative",), f"unknown side {sc.initiative!r}", did_you_mean(sc.initiative, game.sides))
    if sc.last_turn is not None and sc.last_turn < sc.first_turn:
        col.at(doc, ("last_turn",), f"the last turn {sc.last_turn} comes before the first {sc.first_turn}", "")
    drawn = {x.prefix for x in (game.map.sections or [])}
    for i, f in enumerate(sc.forbidden_hexes):
        if f.side not in game.sides:
            col.at(doc, ("forbidden_hexes", i, "side"), f"unknown side {f.side!r}", did_you_mean(f.side, game.sides))
        for j, h in enumerate(f.hexes):
            _hex(col, game, doc, ("forbidden_hexes", i, "hexes", j), h)
    for i, v in enumerate(sc.victory):
        if v.side is not None and v.side not in game.sides:
            col.at(doc, ("victory", i, "side"), f"unknown side {v.side!r}", did_you_mean(v.side, game.sides))
        for j, h in enumerate(v.hexes):
            if not drawn or h[:1] in drawn:
                _hex(col, game, doc, ("victory", i, "hexes", j), h)
    steps = {u.id: u.steps for u in game.units}
    for i, r in enumerate(sc.reinforcements):
        total = sum(steps.get(uid, 0) for uid in r.units)
        one = [uid for uid in r.units if r.reduced and steps.get(uid) == 1]
        if one:
            col.at(doc, ("reinforcements", i, "reduced"), f"{', '.join(one)} has one step: no reduced face to arrive on",
                   "list one-step units in an arrival of their own, without 'reduced'")
        if r.steps is not None and r.steps > total:
            col.at(doc, ("reinforcements", i, "steps"), f"{r.steps} steps arrive, but the units have {total}",
                   "list more units, or fewer steps")


def _movement_classes(col: Collector, game: Game, tdoc: Located) -> None:
    """A hex type's cost per movement class names classes the units have (unit types'
    `movement_class`, else the type's id): a misspelt class would keep every unit out."""
    classes = sorted({t.movement_class or t.id for t in game.unit_types.values()})
    for i, kind in enumerate(game.terrain.hex_terrain):
        for cls in kind.cost if isinstance(kind.cost, dict) else ():
            if cls not in classes:
                col.at(tdoc, ("hex_terrain", i, "cost", cls), f"no unit type has movement class {cls!r}",
                       did_you_mean(cls, classes, f"the classes are: {', '.join(classes)}"))


def _tables(col: Collector, game: Game, docs: dict[str, Located]) -> None:
    """What the rules read in the tables names what the other files define: a phase's side, a
    combat table's declarations and the results its effects explain (the generic rules read them)."""
    seq, sdoc = game.table("sequence"), docs.get(f"tables/{game.table_name('sequence')}.yaml")
    if seq is not None and sdoc is not None:  # its shape is the schema's (schema.SequenceData)
        for i, phase in enumerate(seq.typed.phases):
            if phase.side is not None and phase.side not in game.sides:
                col.at(sdoc, ("data", "phases", i, "side"), f"unknown side {phase.side!r}",
                       did_you_mean(phase.side, game.sides))
    combat, cdoc = game.tables.get("combat"), docs.get("tables/combat.yaml")
    if combat is None or cdoc is None or not isinstance(combat.data.get("declarations"), dict):
        return
    names = [d.name for d in game.info.declarations]
    for role, name in combat.data["declarations"].items():
        if name not in names:
            col.at(cdoc, ("data", "declarations", role), f"game.yaml declares no {name!r}",
                   did_you_mean(str(name), names, "add it to game.yaml's declarations"))
    columns, results = combat.data.get("columns"), combat.data.get("results")
    if not isinstance(columns, list) or not isinstance(results, dict):
        col.at(cdoc, ("data",), "a combat table with declarations needs 'columns' (a list of odds) and 'results' "
               "(die roll -> one result per column)", "see the starter's tables/combat.yaml (hexforge new)")
        return
    for i, c in enumerate(columns):
        if not re.fullmatch(r"[0-9]+-[0-9]+", str(c)):
            col.at(cdoc, ("data", "columns", i), f"column {c!r} is not odds such as 2-1", "write attack-defence, e.g. 3-1")
    codes = set()
    for roll, row in results.items():
        if not isinstance(row, list) or len(row) != len(columns):
            col.at(cdoc, ("data", "results", roll), f"the row of {roll} has {len(row) if isinstance(row, list) else 0} "
                   f"results for {len(columns)} columns", "give one result per column")
        else:
            codes |= {str(x) for x in row}
    effects = combat.data.get("effects")
    for code in effects if isinstance(effects, dict) else ():
        if str(code) not in codes:
            col.at(cdoc, ("data", "effects", code), f"no result {code!r} in the table", did_you_mean(str(code), sorted(codes)))


def _deck_pieces(col: Collector, game: Game, mdoc: Located) -> None:
    """A draw pile starts with counters of the game (map.yaml decks `pieces`)."""
    known = [u.id for u in game.units] + list(game.markers)
    piles = [(("decks", i), d) for i, d in enumerate(game.map.decks)]
    piles += [(("maps", j, "decks", i), d) for j, m in enumerate(game.map.maps) for i, d in enumerate(m.decks)]
    for at, deck in piles:
        for k, key in enumerate(deck.pieces):
            if key not in known:
                col.at(mdoc, (*at, "pieces", k), f"no unit or marker {key!r}", did_you_mean(key, known))


def check_references(col: Collector, game: Game, docs: dict[str, Located], failed: frozenset[str] | set[str] = frozenset()) -> None:
    """Every check whose files loaded; `failed` names the files that did not (not YAML, or no
    usable model left by their schema problems), whose checks are skipped (issue 16)."""
    def loaded(*files: str) -> bool:
        return not failed & set(files)

    if loaded("game.yaml", "map.yaml"):
        _game_file(col, game, docs["game.yaml"])
    if loaded("terrain.yaml", "map.yaml", "map-terrain.yaml"):
        _terrain(col, game, docs)
    if loaded("game.yaml", "units.yaml", "markers.yaml"):
        _units(col, game, docs)
    _art(col, game, {rel: doc for rel, doc in docs.items() if loaded(rel)})
    if loaded("terrain.yaml", "units.yaml"):
        _movement_classes(col, game, docs["terrain.yaml"])
    if loaded("game.yaml", *(rel for rel in docs if rel.startswith("tables/"))):
        _tables(col, game, docs)
    if loaded("map.yaml", "units.yaml", "markers.yaml"):
        _deck_pieces(col, game, docs["map.yaml"])
    if loaded("game.yaml", "map.yaml", "units.yaml", "markers.yaml"):
        for rel, doc in docs.items():
            if rel.startswith("scenarios/") and rel not in failed:
                _scenario(col, game, doc)
        if loaded("terrain.yaml", "map-terrain.yaml"):  # where the rules let pieces start (scenario_checks.py)
            check_scenarios(col, game, {rel: doc for rel, doc in docs.items() if rel not in failed})
