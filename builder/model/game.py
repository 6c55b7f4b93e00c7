"""The compiled game: validated source files plus the lookups every back end needs."""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

from builder.geometry import HexMap
from builder.geometry.hexmap import hexside_key
from builder.record import FrozenRecord

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


class ChitSpec(FrozenRecord):
    """One kind of activation chit (rule 2.1.3 in Bravery in the Sand)."""

    __slots__ = _fields = ("id", "name", "text", "nationality", "stripe", "count", "formation")

    def __init__(self, id: str, name: str, text: str, nationality: str, stripe: str, count: int,  # noqa: A002
                 formation: str | None):
        self._set_fields(id, name, text, nationality, stripe, count, formation)


class Game(FrozenRecord):
    """The whole validated game: every source file's model and the lookups built from them.

    A frozen record (builder/record.py); the lookups below are cached properties."""

    _fields = ("slug", "root", "info", "terrain", "map", "map_terrain", "units_file", "markers_file", "scenarios",
               "tables", "geometry", "rules", "events")
    __slots__ = (*_fields, "__dict__")  # __dict__: the cached lookups

    def __init__(self, slug: str, root: Path, info: s.GameFile, terrain: s.TerrainFile, map: s.MapFile,  # noqa: A002
                 map_terrain: s.MapTerrainFile, units_file: s.UnitsFile, markers_file: s.MarkersFile,
                 scenarios: dict[str, s.ScenarioFile], tables: dict[str, s.TableFile], geometry: HexMap,
                 rules: s.RulesFile | None = None, events: s.EventsFile | None = None):
        # rules: rules.yaml, the catalogue (optional); events: events.yaml, event decks and hands (optional)
        self._set_fields(slug, root, info, terrain, map, map_terrain, units_file, markers_file, scenarios, tables,
                         geometry, rules, events)

    def __repr__(self) -> str:  # the model is large: its name says which
        return f"Game(slug={self.slug!r}, root={self.root!r})"

    # ---- tables ------------------------------------------------------------------------
    def table(self, kind: str) -> s.TableFile | None:
        """The table of this kind (`kind:` in tables/*.yaml; the loader allows one a kind), or None."""
        name = self.table_name(kind)
        return None if name is None else self.tables[name]

    def table_name(self, kind: str) -> str | None:
        """The file name (without .yaml) of the table of this kind, or None."""
        return next((n for n, t in sorted(self.tables.items()) if t.kind == kind), None)

    # ---- people and pieces ------------------------------------------------------------
    @property
    def units(self) -> list[s.Unit]:
        return self.units_file.units

    @cached_property
    def memo(self) -> dict:
        """Answers computed from the model alone, kept for the next asker (the model never
        changes): an audit asks the same hexside's crossing thousands of times.  Keys start
        with the name of the function that fills them."""
        return {}

    @cached_property
    def unit_types(self) -> dict[str, s.UnitType]:
        return {t.id: t for t in self.units_file.unit_types}

    @cached_property
    def leaders(self) -> dict[str, s.Leader]:
        return {ld.id: ld for ld in self.units_file.leaders}

    def side_of_leader(self, leader: s.Leader) -> s.Side:
        return self.sides[self.nationalities[leader.nationality].side]

    @cached_property
    def formations(self) -> dict[str, s.Formation]:
        return {f.id: f for f in self.units_file.formations}

    @cached_property
    def nationalities(self) -> dict[str, s.Nationality]:
        return {n.id: n for n in self.info.nationalities}

    @cached_property
    def sides(self) -> dict[str, s.Side]:
        return {x.id: x for x in self.info.sides}

    def side_of_unit(self, unit: s.Unit) -> s.Side:
        return self.sides[self.nationalities[self.formations[unit.formation].nationality].side]

    def nationality_of_unit(self, unit: s.Unit) -> s.Nationality:
        return self.nationalities[self.formations[unit.formation].nationality]

    @cached_property
    def markers(self) -> dict[str, s.Marker]:
        return {m.id: m for m in self.markers_file.markers}

    @cached_property
    def chits(self) -> list[ChitSpec]:
        """Formation chits (from units.yaml) then the special chits (markers.yaml)."""
        out = [ChitSpec(f"chit-{f.id.lower().replace(' ', '').replace('.', '')}", f"{f.id} chit", f.id,
                        f.nationality, f.stripe, f.chits, f.id)
               for f in self.units_file.formations if f.chits]
        out += [ChitSpec(c.id, c.name, c.text, c.nationality, c.stripe, c.count, None)
                for c in self.markers_file.chits]
        return out

    # ---- map ---------------------------------------------------------------------------
    @cached_property
    def hex_terrain_types(self) -> dict[str, s.HexTerrain]:
        return {t.id: t for t in self.terrain.hex_terrain}

    @cached_property
    def hexside_feature_types(self) -> dict[str, s.HexsideFeature]:
        return {f.id: f for f in self.terrain.hexside_features}

    @cached_property
    def places(self) -> dict[str, s.Place]:
        return {p.hex: p for p in self.map.places}

    @cached_property
    def hex_terrain(self) -> dict[str, str]:
        """Terrain id of every hex: default, then map-terrain lists, then named places."""
        out = {label: self.map.default_terrain for label in self.geometry.labels}
        for terrain, hexes in self.map_terrain.hexes.items():
            out.update({h: terrain for h in hexes})
        out.update({p.hex: p.terrain for p in self.map.places if p.terrain})
        return out

    @cached_property
    def hexside_features(self) -> dict[tuple[str, str], frozenset[str]]:
        """Features on each hexside, keyed by the order-free pair of hexes."""
        acc: dict[tuple[str, str], set[str]] = {}
        for feature, paths in self.map_terrain.hexside_paths.items():
            for path in paths:
                for a, b in zip(path.hexes, path.hexes[1:]):
                    acc.setdefault(hexside_key(a, b), set()).add(feature)
        for feature, runs in self.map_terrain.hexside_runs.items():
            for run in runs:
                for side in run.hexsides:
                    a, b = side.split("/")
                    acc.setdefault(hexside_key(a, b), set()).add(feature)
        return {k: frozenset(v) for k, v in acc.items()}

    @cached_property
    def tracks(self) -> dict[str, s.Track]:
        return {t.id: t for t in self.map.tracks}

    def track_box_rect(self, track_id: str, box: str) -> tuple[int, int, int, int]:
        """(x, y, w, h) of one box of a track, in board pixels."""
        t = self.tracks[track_id]
        i = t.boxes.index(box)
        (x, y), (w, h) = t.origin, t.box
        return x + i * w, y, w, h

    def track_box_centre(self, track_id: str, box: str) -> tuple[int, int]:
        x, y, w, h = self.track_box_rect(track_id, box)
        return x + w // 2, y + h // 2

    def zone_name(self, track_id: str, box: str) -> str:
        t = self.tracks[track_id]
        return t.zone_format.format(track=t.name, box=box)
