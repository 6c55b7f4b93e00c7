"""Player aids for the print kit (issue 18): every table of the game as readable grids.

Each table of `tables/` becomes an aid: its title and rule, `provenance: reconstructed` said
as on the module's help page ("Reconstructed: reason", builder/vassal/module.py `_table_page`),
the summary lines, then its data as grids with headings.  The data's shape picks the grid:

- a combat table (`results`: one list of results per key) is a grid with the columns (odds,
  firing strength) across and the die rolls down, whichever way the source keys it
  (`columns` + `die`, or `lines` of odds per terrain line over die-roll keys);
- a mapping of records (terrain -> {mp: {foot: 1, ...}, rule}) is a grid with one row per
  record, its keys as columns and a nested mapping (movement costs per unit class) as a group
  of columns under one heading; a list of records (phases, modifiers) likewise;
- scalars, lists and small records are key / value rows;
- `note`, and `provenance` with `reason` inside a record, become numbered footnotes.

A terrain id is shown with its terrain.yaml name.  A game with no `terrain-effects` or `movement`
table gets a terrain chart from terrain.yaml, and every game a page of its tracks and turns.
builder/render/aidpages.py sets the aids on pages.
"""
from __future__ import annotations

from dataclasses import dataclass

from builder.model.game import Game

ABBREVIATIONS = {"mp", "drm", "sp", "cs", "vp", "zoc", "crt", "ma", "ap", "ip", "asp", "hq", "cg", "iv", "rp", "msu",
                 "gt", "lw", "ezoc", "aa", "rtr", "xx", "ii"}
HIDDEN = ("provenance", "reason", "note")   # keys of a record said as footnotes, not columns


# ---- the model -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    text: str
    span: int = 1
    mark: str = ""      # footnote number, printed small after the text


@dataclass(frozen=True)
class Grid:
    caption: str
    head: tuple[tuple[Cell, ...], ...]
    body: tuple[tuple[Cell, ...], ...]
    labels: bool = True             # the first column names the row
    notes: tuple[str, ...] = ()     # footnote i + 1 is notes[i]


@dataclass(frozen=True)
class Aid:
    key: str                        # table id, or "terrain" / "tracks"
    title: str
    rule: str
    reconstructed: str | None       # the reason, when the table is reconstructed
    summary: tuple[str, ...]
    grids: tuple[Grid, ...]
    source: str                     # the file it comes from


def fmt(v) -> str:
    """A source value as printed in a cell: integral floats without '.0', booleans yes / no,
    null '-', lists joined with commas, mappings as 'key: value' pairs."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, dict):
        return "; ".join(f"{_human(k)}: {fmt(x)}" for k, x in v.items())
    if isinstance(v, list):
        return ", ".join(fmt(x) if not isinstance(x, dict) else f"({fmt(x)})" for x in v)
    return str(v)


def _human(key) -> str:
    """A data key as a heading: underscores to spaces, known abbreviations in capitals."""
    words = str(key).replace("_", " ").split(" ")
    words = [w.upper() if w.lower() in ABBREVIATIONS else w for w in words]
    text = " ".join(words)
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _label(game: Game, key) -> str:
    """A row key: a terrain's or hexside feature's name where the key is its id."""
    k = str(key)
    if k in game.hex_terrain_types:
        return game.hex_terrain_types[k].name
    if k in game.hexside_feature_types:
        return game.hexside_feature_types[k].name
    return _human(k)


def _scalarish(v) -> bool:
    return not isinstance(v, (dict, list)) or (isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v))


def _flat(v) -> bool:
    return isinstance(v, dict) and all(_scalarish(x) for x in v.values())


class _Notes:
    """Footnotes of one grid, numbered in the order they are met."""

    def __init__(self):
        self.items: list[str] = []

    def of(self, rec) -> str:
        if not isinstance(rec, dict):
            return ""
        marks = []
        if rec.get("note"):
            marks.append(self._add(str(rec["note"])))
        if rec.get("provenance") == "reconstructed":
            marks.append(self._add(f"Reconstructed: {rec.get('reason') or 'not printed in the rulebook'}"))
        return ",".join(marks)

    def _add(self, text: str) -> str:
        self.items.append(text)
        return str(len(self.items))


def _records(game: Game, caption: str, rows: list[tuple[str | None, object]], numbered: bool = False) -> Grid:
    """Records as a grid: a column per key, a nested flat mapping as a group of columns."""
    cols: list[tuple[str | None, str]] = []
    for _, rec in rows:
        if not isinstance(rec, dict):
            continue
        for k, v in rec.items():
            if k in HIDDEN and (k != "note" or isinstance(v, str)):
                continue
            keys = [(k, kk) for kk in v] if isinstance(v, dict) and v and _flat(v) else [(None, k)]
            for c in keys:
                if c in cols:
                    continue
                same = [i for i, x in enumerate(cols) if c[0] and x[0] == c[0]]
                cols.insert(same[-1] + 1 if same else len(cols), c)  # a group's columns stay together
    cols = [c for c in cols if c[1] != "rule" or c[0]] + [c for c in cols if c == (None, "rule")]
    notes = _Notes()
    labelled = any(label is not None for label, _ in rows) or numbered
    body = []
    for i, (label, rec) in enumerate(rows):
        mark = notes.of(rec)
        first = [Cell(str(i + 1) if numbered else (label or ""), mark=mark)] if labelled else []
        if not isinstance(rec, dict):  # a record given as one value ("cliff: prohibited")
            body.append(tuple(first + [Cell(fmt(rec), span=max(1, len(cols)))]))
            continue
        cells = []
        for group, k in cols:
            if group is None:
                v = rec.get(k, "")
                if isinstance(v, dict) and v and _flat(v) and any(c[0] == k for c in cols):
                    v = ""
            else:
                inner = rec.get(group)
                v = inner.get(k, "") if isinstance(inner, dict) else ""
            cells.append(Cell("" if v == "" else fmt(v)))
        if not labelled and mark:
            cells[0] = Cell(cells[0].text, mark=mark)
        body.append(tuple(first + cells))
    lead = [Cell("#" if numbered else "")] if labelled else []
    if any(g for g, _ in cols):
        top, bottom = list(lead), list(lead)
        i = 0
        while i < len(cols):
            g = cols[i][0]
            if g is None:
                top.append(Cell(""))
                bottom.append(Cell(_human(cols[i][1])))
                i += 1
                continue
            n = 1
            while i + n < len(cols) and cols[i + n][0] == g:
                n += 1
            top.append(Cell(_human(g), span=n))
            bottom += [Cell(_label(game, k)) for _, k in cols[i:i + n]]
            i += n
        head = (tuple(top), tuple(bottom))
    else:
        head = (tuple(lead + [Cell(_human(k)) for _, k in cols]),)
    return Grid(caption, head, tuple(body), labelled, tuple(notes.items))


def _is_records(v) -> bool:
    if not isinstance(v, dict) or not v:
        return False
    dicts = [x for x in v.values() if isinstance(x, dict)]
    return len(dicts) * 2 >= len(v) and all(isinstance(x, dict) or _scalarish(x) for x in v.values()) and \
        any(len(x) > 1 or not _flat(x) for x in dicts)


def _pairs(game: Game, caption: str, items: list[tuple[str, object]]) -> Grid:
    """Key / value rows."""
    notes = _Notes()
    body = tuple((Cell(_label(game, k), mark=notes.of(v)),
                  Cell(fmt({a: b for a, b in v.items() if a not in HIDDEN} if isinstance(v, dict) else v)))
                 for k, v in items)
    return Grid(caption, (), body, True, tuple(notes.items))


def _crt(game: Game, data: dict) -> tuple[Grid | None, set[str]]:
    """A results table: columns across, die rolls down.  Returns the grid and the keys it used."""
    res = data.get("results")
    if not (isinstance(res, dict) and res and all(isinstance(v, list) for v in res.values())):
        return None, set()
    n = len(next(iter(res.values())))
    if any(len(v) != n for v in res.values()):
        return None, set()
    cols, die = data.get("columns"), data.get("die")
    if isinstance(cols, list) and [str(c) for c in cols] == [str(k) for k in res]:
        labels = [fmt(x) for x in die] if isinstance(die, list) and len(die) == n else [str(i + 1) for i in range(n)]
        what = data["dice"] if isinstance(data.get("dice"), str) else "Die"
        head = ((Cell(what),) + tuple(Cell(str(k)) for k in res),)
        body = tuple((Cell(labels[i]),) + tuple(Cell(fmt(res[k][i])) for k in res) for i in range(n))
        used = {"results", "columns"} | ({"die"} if isinstance(die, list) and len(die) == n else set()) | \
            ({"dice"} if isinstance(data.get("dice"), str) else set())
        return Grid("Results: columns across, die rolls down", head, body), used
    lines = data.get("lines")
    if isinstance(lines, dict) and lines and all(isinstance(v, list) and len(v) == n for v in lines.values()):
        head = tuple((Cell(f"Line {k}" if str(k).isdigit() else f"{_label(game, k)} line"),)
                     + tuple(Cell(fmt(x)) for x in v) for k, v in lines.items())
        body = tuple((Cell(str(k)),) + tuple(Cell(fmt(x)) for x in v) for k, v in res.items())
        return Grid("Results: odds columns across (one row per terrain line), die rolls down", head, body), \
            {"results", "lines"}
    head = ((Cell(""),) + tuple(Cell(str(i + 1)) for i in range(n)),)
    body = tuple((Cell(str(k)),) + tuple(Cell(fmt(x)) for x in v) for k, v in res.items())
    return Grid("Results", head, body), {"results"}


def _grids(game: Game, data: dict, caption: str = "") -> list[Grid]:
    """Grids of a mapping: its simple entries as key / value rows, then a grid per structure."""
    simple, out = [], []
    for k, v in data.items():
        name = _human(k) if not caption else f"{caption}: {_human(k)}"
        if _scalarish(v) or (_flat(v) and len(v) <= 4 and not _is_records(v)):
            simple.append((k, v))
        elif isinstance(v, list) and all(isinstance(x, dict) for x in v):
            out.append(_records(game, name, [(None, x) for x in v], numbered=(k == "phases")))
        elif isinstance(v, list):
            out.append(_pairs(game, name, [(str(i + 1), x) for i, x in enumerate(v)]))
        elif _is_records(v):
            out.append(_records(game, name, [(_label(game, a), x) for a, x in v.items()]))
        elif _flat(v):
            out.append(_pairs(game, name, list(v.items())))
        else:
            out += _grids(game, v, name)
    if simple:
        out.insert(0, _pairs(game, caption, simple))
    return out


def _table_aid(game: Game, tid: str) -> Aid:
    t = game.tables[tid]
    crt, used = _crt(game, t.data)
    rest = {k: v for k, v in t.data.items() if k not in used}
    grids = ([crt] if crt else []) + _grids(game, rest)
    why = (t.reason or "not printed in the rulebook") if t.provenance == "reconstructed" else None
    return Aid(tid, t.title, t.rule, why, tuple(t.summary), tuple(grids), f"tables/{tid}.yaml")


def _terrain_aid(game: Game) -> Aid:
    """The terrain key of terrain.yaml, for a game whose tables have no terrain chart."""
    tr = game.terrain
    hexes = [(t.name, {"prohibited": t.prohibited, "fortification": t.fortification or "", "rule": t.rule or "",
                       "provenance": t.provenance, "reason": t.reason}) for t in tr.hex_terrain]
    sides = [(f.name, {"MP to cross": "prohibited" if f.prohibited else f.cost if f.cost is not None else "",
                       "rule": f.rule or "", "provenance": f.provenance, "reason": f.reason})
             for f in tr.hexside_features]
    sides.append(("Any other hexside", {"MP to cross": tr.hexside_default_cost, "rule": tr.hexside_default_rule or ""}))
    return Aid("terrain", "Terrain Effects", "", None, (),  # each row gives its rule
               (_records(game, "Hex terrain", hexes), _records(game, "Hexsides", sides)), "terrain.yaml")


def _tracks_aid(game: Game) -> Aid:
    """The map's tracks, box by box with their captions, and the game's turns."""
    tu = game.info.turns
    summary = [f"Game turns {tu.first} to {tu.last}" + (", and more as the rules allow" if tu.extension else "")
               + (f" (rule {tu.rule})." if tu.rule else ".")]
    grids = []
    for tr in game.map.tracks:
        per = -(-len(tr.boxes) // -(-len(tr.boxes) // 12))  # at most 12 boxes a strip, strips alike
        for i in range(0, len(tr.boxes), per):
            boxes = tr.boxes[i:i + per]
            head = (tuple(Cell(b) for b in boxes),)
            body = (tuple(Cell(tr.captions.get(b, "")) for b in boxes),) if any(b in tr.captions for b in boxes) else ()
            grids.append(Grid(tr.name if i == 0 else f"{tr.name} (continued)", head, body, labels=False))
    return Aid("tracks", "Tracks and turns", tu.rule or "", None, tuple(summary), tuple(grids), "map.yaml")


def aid_tables(game: Game) -> list[str]:
    """Table ids in aid order: the charts game.yaml lists, the sequence of play, then the rest."""
    ids = [c.table for c in game.info.charts if c.table in game.tables]
    if "sequence" in game.tables and "sequence" not in ids:
        ids.append("sequence")
    return ids + sorted(t for t in game.tables if t not in ids)


def aids(game: Game) -> list[Aid]:
    """Every aid in page order: the terrain key (when no table gives one), the tables, the tracks."""
    out = [] if {"terrain-effects", "movement"} & set(game.tables) else [_terrain_aid(game)]
    return out + [_table_aid(game, t) for t in aid_tables(game)] + [_tracks_aid(game)]
