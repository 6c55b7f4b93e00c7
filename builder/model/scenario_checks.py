"""Scenario set-ups checked as the rules check them, each problem at its entry in the card.

`references.py` makes sure every unit, formation and hex a scenario names exists (every hex on
the map); this module checks where the rules let pieces start, for the set-up and for
reinforcements the card places on an entry hex:

- prohibited terrain: a hex type `prohibited` in terrain.yaml (the sea) holds no piece; where the
  game has a `kind: terrain-effects` table (schema.TerrainEffectsData: costs per movement class)
  and the classes of unit types (a table with `types: {type: {movement_class}}`), a terrain with
  no cost for a piece's class is prohibited to it, as the auditors read the chart;
- stacking, where the game has a `kind: stacking` table (schema.StackingData, read by
  builder.model.stacking): a `stacking` limit of points for each side's units in a hex, leaders
  never counting, arrivals exempt when the table has `reinforcement_overstack` (Western Desert
  Force 7.7), else each turn's arrivals on a hex count; or `combinations` each side's units in a
  hex must fill (Tobrouk 41-42 7.1);
- units of both sides in one hex only on the hexes the card lists in `contested_hexes`;
- a unit placed once, unless withdrawn before it arrives again;
- a card's `start_phase` is a phase of tables/sequence.yaml (the setup saves the tracker there).

Entries whose unit, formation or hex is unknown are left to `references.py`.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from builder.model.game import Game
from builder.model.problems import Collector, did_you_mean
from builder.model.stacking import StackingCombinations, StackingTable, unit_attrs
from builder.model.yamlsource import Loc, Located


@dataclass(frozen=True)
class Placed:
    """One piece the card puts on a hex: which entry of the file put it there."""

    piece: str  # unit or leader id
    hex: str
    entry: Loc  # the entry in the scenario file ("formations", 3) or ("reinforcements", 1)
    turn: int | None  # None: the set-up; else the turn of arrival
    reduced: bool = False  # set up on its reduced face


def _placements(game: Game, sc) -> list[Placed]:
    """Every piece on a map hex, in the order of the file: set-up, then arrivals (by the hex's
    label where a map of sections gives it two ids, so S0734 and C0701 are one hex)."""
    geo, units = game.geometry, {u.id for u in game.units} | set(game.leaders)
    out: list[Placed] = []
    for i, f in enumerate(sc.formations):
        if f.hex in geo:
            out += [Placed(u.id, geo.canonical(f.hex), ("formations", i), None) for u in game.units if u.formation == f.formation]
    for i, u in enumerate(sc.units):
        if u.hex in geo and u.unit in units:
            out.append(Placed(u.unit, geo.canonical(u.hex), ("units", i), None, bool(getattr(u, "reduced", False))))
    for i, r in enumerate(sc.reinforcements):
        if r.hex in geo:
            out += [Placed(uid, geo.canonical(r.hex), ("reinforcements", i), r.turn) for uid in r.units if uid in units]
    return out


def _table_with(game: Game, key: str):
    """(name, data) of the first table (by file name) whose data has the mapping `key` (the unit
    classes' `types`: no kind of table holds them in every game)."""
    for name in sorted(game.tables):
        data = game.tables[name].data
        if isinstance(data.get(key), dict):
            return name, data
    return None, None


class _Rules:
    """What the sources say about where a piece may stand."""

    def __init__(self, game: Game):
        self.game = game
        self.units = {u.id: u for u in game.units}
        self.chart_name = game.table_name("terrain-effects")  # its data: schema.TerrainEffectsData
        self.chart = game.tables[self.chart_name].data if self.chart_name else None
        _, classes = _table_with(game, "types")
        self.types = (classes or {}).get("types", {})
        self.leader_class = ((classes or {}).get("leader") or {}).get("movement_class")
        self.stacking_name = game.table_name("stacking")  # its data: schema.StackingData
        spec = game.tables[self.stacking_name].data if self.stacking_name else {}
        points = spec.get("stacking")
        self.stacking = StackingTable.from_data(points) if points else None
        self.stacking_rule = str(points.get("rule") or "") if points else ""
        self.arrivals_exempt = spec.get("reinforcement_overstack") is not None
        self.combinations = StackingCombinations.from_data(spec) if spec.get("combinations") else None

    def side(self, piece: str) -> str | None:
        """The side of a unit or leader; None while its formation or nationality is unknown."""
        g = self.game
        if piece in self.units:
            formation = g.formations.get(self.units[piece].formation)
            nationality = g.nationalities.get(formation.nationality) if formation else None
        else:
            nationality = g.nationalities.get(g.leaders[piece].nationality)
        return nationality.side if nationality and nationality.side in g.sides else None

    def movement_class(self, piece: str) -> str | None:
        if piece in self.units:
            return (self.types.get(self.units[piece].type) or {}).get("movement_class")
        return self.leader_class

    def barred(self, piece: str, hex_id: str) -> str | None:
        """Why the rules keep `piece` out of `hex_id`, or None."""
        kind = self.game.hex_terrain[hex_id]
        terrain = self.game.hex_terrain_types.get(kind)
        if terrain is None:  # an unknown terrain: references.py reports it
            return None
        if terrain.prohibited:
            return f"{terrain.name} is prohibited terrain (terrain.yaml{_rule(terrain.rule)})"
        cls = self.movement_class(piece)
        if self.chart is None or cls is None or cls not in self.chart["movement_classes"]:
            return None
        entry = self.chart["hex"].get(kind) or {}
        costs = entry.get("mp") or {}
        if any(column in costs for column in self.chart["movement_classes"][cls]):
            return None
        return (f"{terrain.name} is prohibited to {cls} units (tables/{self.chart_name}.yaml"
                f"{_rule(entry.get('rule'))})")

    def attrs(self, piece: str, reduced: bool = False) -> dict[str, object]:
        return unit_attrs(self.game, self.units[piece], reduced)


def _rule(rule) -> str:
    return f", rule {rule}" if rule else ""


def _names(pieces) -> str:
    return ", ".join(dict.fromkeys(pieces))


def _terrain(col: Collector, doc: Located, rules: _Rules, placed: list[Placed]) -> None:
    by_entry: dict[Loc, list[Placed]] = defaultdict(list)
    for p in placed:
        by_entry[p.entry].append(p)
    for entry, pieces in by_entry.items():
        why = {p.piece: rules.barred(p.piece, p.hex) for p in pieces}
        bad = [p.piece for p in pieces if why[p.piece]]
        if not bad:
            continue
        hex_id = pieces[0].hex
        reasons = sorted(set(filter(None, why.values())))
        col.at(doc, entry + ("hex",), f"{_names(bad)} may not stand in {hex_id}: {'; '.join(reasons)}",
               _nearest(rules, [p.piece for p in pieces], hex_id))


def _nearest(rules: _Rules, pieces: list[str], start: str) -> str:
    """The closest hexes all `pieces` may stand in, as a hint."""
    geo, seen, ring = rules.game.geometry, {start}, [start]
    while ring:
        ring = sorted({n for h in ring for n in geo.neighbours(h)} - seen)
        seen.update(ring)
        ok = [h for h in ring if not any(rules.barred(p, h) for p in pieces)]
        if ok:
            return "the nearest hexes where they may stand: " + ", ".join(ok[:4])
    return "no hex of the map takes them"


def _stacking(col: Collector, doc: Located, rules: _Rules, sc, placed: list[Placed]) -> None:
    table = rules.stacking
    if table is None:
        return
    groups: dict[tuple, list[Placed]] = defaultdict(list)
    for p in placed:
        if p.piece not in rules.units or (p.turn is not None and rules.arrivals_exempt):
            continue  # leaders never count; arrivals may overstack on their entry hex
        groups[(p.turn, p.hex, rules.side(p.piece))].append(p)
    geo = rules.game.geometry
    allowed = {geo.canonical(h) for h in sc.overstacked_hexes if h in geo}
    over: set[str] = set()
    for (turn, hex_id, side), pieces in groups.items():
        attrs = [rules.attrs(p.piece) for p in pieces]
        limit = table.limit_in(rules.game.hex_terrain.get(hex_id))
        if table.total(attrs) <= limit:
            continue
        over.add(hex_id)
        if hex_id in allowed:
            continue
        first = next(i for i in range(len(pieces)) if table.total(attrs[: i + 1]) > limit)
        when = "at set-up" if turn is None else f"on arriving on turn {turn}"
        points = ", ".join(f"{p.piece} {table.points_of(a)}" for p, a in zip(pieces, attrs))
        free = (f"; {table.free.get('count', 0)} unit(s) with {_describe(table.free)} stack free"
                if table.free else "")
        col.at(doc, pieces[first].entry + ("hex",),
               f"{hex_id} holds {table.total(attrs)} stacking points of {rules.game.sides[side].name} units "
               f"{when} > {limit} (tables/{rules.stacking_name}.yaml{_rule(rules.stacking_rule)}): {points}{free}",
               "set up fewer units in this hex, or list it under 'overstacked_hexes' if the card overstacks it")
    _listed(col, doc, rules, "overstacked_hexes", sc.overstacked_hexes, over, "hex {} is listed as overstacked but "
            "is not", "remove it from 'overstacked_hexes'")


def _listed(col: Collector, doc: Located, rules: _Rules, key: str, hexes, found: set[str], what: str, fix: str) -> None:
    """Each hex a card lists under `key` must be on the map and be what the list says (`found`;
    `what`: the message, {} standing for the hex)."""
    geo = rules.game.geometry
    for i, h in enumerate(hexes):
        if h not in geo:
            col.at(doc, (key, i), f"hex {h!r} is not on the map", did_you_mean(h, geo.labels))
        elif geo.canonical(h) not in found:
            col.at(doc, (key, i), what.format(h), fix)


def _combinations(col: Collector, doc: Located, rules: _Rules, placed: list[Placed]) -> None:
    """Stacking by combinations (Tobrouk 41-42 7.1): each side's units in a hex fill one."""
    table = rules.combinations
    if table is None:
        return
    groups: dict[tuple, list[Placed]] = defaultdict(list)
    for p in placed:
        if p.piece in rules.units:
            groups[(p.turn, p.hex, rules.side(p.piece))].append(p)
    for (turn, hex_id, side), pieces in groups.items():
        attrs = [rules.attrs(p.piece, p.reduced) for p in pieces]
        if table.fits(attrs):
            continue
        first = next(i for i in range(len(pieces)) if not table.fits(attrs[: i + 1]))
        when = "at set-up" if turn is None else f"on arriving on turn {turn}"
        col.at(doc, pieces[first].entry + ("hex",),
               f"{hex_id} holds {_names(p.piece for p in pieces)} of {rules.game.sides[side].name} {when}: no "
               f"combination of tables/{rules.stacking_name}.yaml fits ({table.describe()})",
               "set up fewer units in this hex")


def _describe(match) -> str:
    return " ".join(f"{k} {v}" for k, v in match.items() if k not in ("count", "sp", "rule"))


def _both_sides(col: Collector, doc: Located, rules: _Rules, sc, placed: list[Placed]) -> None:
    groups: dict[tuple, list[Placed]] = defaultdict(list)
    for p in placed:
        groups[(p.turn, p.hex)].append(p)
    contested = {rules.game.geometry.canonical(h) for h in sc.contested_hexes}
    both: set[str] = set()
    for (turn, hex_id), pieces in groups.items():
        sides = list(dict.fromkeys(rules.side(p.piece) for p in pieces))
        if len(sides) < 2:
            continue
        both.add(hex_id)
        if hex_id in contested:
            continue
        first = next(p for p in pieces if rules.side(p.piece) != sides[0])
        line = doc.mark(pieces[0].entry).line
        names = rules.game.sides
        when = "at set-up" if turn is None else f"on turn {turn}"
        col.at(doc, first.entry + ("hex",),
               f"{hex_id} holds units of both sides {when}: {names[sides[1]].name} "
               f"{_names(p.piece for p in pieces if rules.side(p.piece) != sides[0])} with {names[sides[0]].name} "
               f"{_names(p.piece for p in pieces if rules.side(p.piece) == sides[0])} (line {line})",
               "set them up apart, or list the hex under 'contested_hexes' if the card puts both sides there")
    _listed(col, doc, rules, "contested_hexes", sc.contested_hexes, both, "contested hex {} holds units of one side "
            "only", "remove it from 'contested_hexes', or set up both sides there")


def _placed_once(col: Collector, doc: Located, sc, placed: list[Placed]) -> None:
    withdrawn: dict[str, list[int]] = defaultdict(list)
    for w in sc.withdrawals:
        for uid in w.units:
            withdrawn[uid].append(w.turn)
    last: dict[str, Placed] = {}
    twice: dict[tuple[Loc, Loc], list[str]] = defaultdict(list)
    order = sorted(placed, key=lambda p: -1 if p.turn is None else p.turn)  # stable: file order within a turn
    for p in order:
        before = last.get(p.piece)
        last[p.piece] = p
        if before is None:
            continue
        since = sc.first_turn if before.turn is None else before.turn
        if p.turn is not None and any(since <= t < p.turn for t in withdrawn[p.piece]):
            continue
        twice[(p.entry, before.entry)].append(p.piece)
    for (entry, before), pieces in twice.items():
        col.at(doc, entry, f"{_names(pieces)} placed twice: already by the entry at line {doc.mark(before).line}",
               "a piece starts in one place: remove it from one entry, or withdraw it first")


def check_scenarios(col: Collector, game: Game, docs: dict[str, Located]) -> None:
    """Every scenario's set-up and arrivals against the rules of the game's sources."""
    for rel, doc in docs.items():
        if not rel.startswith("scenarios/"):
            continue
        sc = game.scenarios[rel.rsplit("/", 1)[-1][:-5]]
        try:  # the tables' `data` is free-form: a malformed one is a problem, not a traceback
            rules = _Rules(game)
            placed = [p for p in _placements(game, sc) if rules.side(p.piece) is not None]
            _terrain(col, doc, rules, placed)
            _stacking(col, doc, rules, sc, placed)
            _combinations(col, doc, rules, placed)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            col.file(doc.file, f"the set-up cannot be checked: a rules table is malformed ({type(exc).__name__}: {exc})",
                     "check `stacking` (limit, points, free) and the terrain chart's `movement_classes`, `hex` "
                     "and the unit classes' `types` in tables/")
            continue
        _both_sides(col, doc, rules, sc, placed)
        _placed_once(col, doc, sc, placed)
        _start_phase(col, doc, game, sc)


def _start_phase(col: Collector, doc: Located, game: Game, sc) -> None:
    """The card's `start_phase` is a phase of tables/sequence.yaml: the setup saves the turn tracker there."""
    seq = game.table("sequence")
    ids = [x.id for x in seq.typed.phases] if seq is not None else []
    if sc.start_phase is not None and sc.start_phase not in ids:
        col.at(doc, ("start_phase",), f"start_phase {sc.start_phase} is not a phase of tables/sequence.yaml",
               did_you_mean(sc.start_phase, ids, none="give tables/sequence.yaml its `phases`, each with an `id`"))
