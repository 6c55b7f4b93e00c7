"""Reconstruct a map's terrain from real geography (`geography.yaml` -> `map-terrain.yaml`).

When the printed map is missing we fit the hex grid to the real world: an affine transform from
(lon, lat) to board pixels (through a conic projection first for a map many degrees wide),
least-squares over the places whose printed hex ids the rulebook gives, plus a smooth
correction that puts each of them exactly on its hex.  Real coastlines, escarpments, roads and
tracks are then carried through the same transform: sea hexes are those mostly under water, a
road or track follows the hexes its line passes, an escarpment, ridge or river lies on every
hexside whose centre-to-centre crossing cuts it, and an area (a closed polygon: rough ground,
salt marsh, a depression) gives its terrain to the hexes mostly inside it.  A line may pin a
point to a hex id where the rulebook names the hex a road or track passes; landmarks are real
places located by the fit (not fitted to).  The output is plain data an owner can edit or
replace with the printed map.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
import yaml
from pydantic import Field, StringConstraints, model_validator
from shapely.geometry import LineString, Point, Polygon

from builder.model import schema as s
from builder.model.game import Game  # noqa: F401  (type of the map argument)

LonLat = tuple[float, float]
HexsidePoint = Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z-]{2,8}/[0-9A-Za-z-]{2,8}$")]
# a hex id: the centre of a hex the rulebook puts this line in; HEX/HEX: the middle of a
# hexside the rulebook puts this feature on (a line through it crosses that hexside)
GeoPoint = LonLat | s.HexId | HexsidePoint

# what each kind of line becomes unless it names its `feature` (Bravery in the Sand's escarpments are cliffs)
DEFAULT_FEATURE = {"road": "road", "track": "track", "escarpment": "cliff", "ridge": "ridge", "river": "river"}
PATH_KINDS = ("road", "track")  # drawn along a chain of hexes
RUN_KINDS = ("escarpment", "ridge", "river")  # lying on the hexsides the line crosses


class GeoLine(s.Strict):
    name: s.Text
    kind: Literal["coast", "road", "track", "escarpment", "ridge", "river", "area"]
    feature: s.Ident | None = None  # the hexside feature it becomes (default: DEFAULT_FEATURE)
    terrain: s.Ident | None = None  # an area's hex terrain
    points: list[GeoPoint] = Field(min_length=2)

    @model_validator(mode="after")
    def _terrain_for_areas(self):
        if (self.kind == "area") != (self.terrain is not None):
            raise ValueError("an area needs 'terrain', and only an area has it")
        if self.feature is not None and self.kind not in DEFAULT_FEATURE:
            raise ValueError(f"a {self.kind} line has no hexside 'feature'")
        return self

    @property
    def becomes(self) -> str:
        return self.terrain or self.feature or DEFAULT_FEATURE.get(self.kind, self.kind)


class Conic(s.Strict):
    """A Lambert conformal conic projection (miles east and north of lon0, lat0): for a map a
    few thousand km wide, whose rows bend like parallels, so an affine fit of lon/lat cannot
    follow it (Desert Fox Deluxe: Algiers A6201 two rows above Tunis T6017 at one latitude)."""

    lon0: float = Field(ge=-180, le=180)
    lat0: float = Field(ge=-80, le=80)
    lat1: float = Field(ge=-80, le=80)
    lat2: float = Field(ge=-80, le=80)

    def __call__(self, lonlat: LonLat) -> tuple[float, float]:
        r, q = math.radians, lambda lat: math.tan(math.pi / 4 + math.radians(lat) / 2)
        if abs(self.lat1 - self.lat2) < 1e-9:
            n = math.sin(r(self.lat1))
        else:
            n = math.log(math.cos(r(self.lat1)) / math.cos(r(self.lat2))) / math.log(q(self.lat2) / q(self.lat1))
        f = math.cos(r(self.lat1)) * q(self.lat1) ** n / n
        rho = lambda lat: 3959.0 * f / q(lat) ** n  # noqa: E731  (Earth radius in miles)
        theta = n * r(lonlat[0] - self.lon0)
        return rho(lonlat[1]) * math.sin(theta), rho(self.lat0) - rho(lonlat[1]) * math.cos(theta)


class Geography(s.Sourced):
    projection: Conic | None = None  # None: the fit is affine in lon/lat (fine for a small map)
    places: dict[str, LonLat]  # anchors: places whose hexes map.yaml gives
    landmarks: dict[str, LonLat] = {}  # located by the fit, never fitted to
    lines: list[GeoLine]
    land: list[s.HexId] = []  # hexes the rules name as places units can be (never sea)
    roads_on_land: bool = False  # every hex a road line passes is land (a coast road hugs the shore)


@dataclass(frozen=True)
class Fit:
    """lon/lat -> board pixels: affine least squares plus inverse-distance residual correction."""

    affine: np.ndarray  # 2x3
    anchors: np.ndarray  # N x 2 projected (affine) positions of the places
    residuals: np.ndarray  # N x 2 pixel corrections at the anchors
    projection: Conic | None = None  # applied to lon/lat before the affine part

    def __call__(self, lonlat: LonLat) -> tuple[float, float]:
        u, v = self.projection(lonlat) if self.projection else lonlat
        p = self.affine @ np.array([u, v, 1.0])
        d2 = ((self.anchors - p) ** 2).sum(axis=1)
        if d2.min() < 1e-9:
            return tuple(p + self.residuals[d2.argmin()])
        w = 1.0 / d2
        return tuple(p + (w[:, None] * self.residuals).sum(axis=0) / w.sum())


def fit(game: Game, geo: Geography) -> tuple[Fit, dict[str, float]]:
    """The transform and each place's affine error in hexes (smaller is a better fit)."""
    by_name = {p.name: p.hex for p in game.map.places}
    names = [n for n in geo.places if n in by_name]
    project = geo.projection or (lambda ll: ll)
    src = np.array([[*project(geo.places[n]), 1.0] for n in names])
    dst = np.array([game.geometry.lattice_view.ideal_centre(by_name[n]) for n in names])
    affine, *_ = np.linalg.lstsq(src, dst, rcond=None)
    projected = src @ affine
    residuals = dst - projected
    hex_px = game.map.grid.dy
    errors = {n: float(np.hypot(*residuals[i]) / hex_px) for i, n in enumerate(names)}
    return Fit(affine.T, projected, residuals, geo.projection), errors


def _px(game: Game, f: Fit, p: GeoPoint) -> tuple[float, float]:
    if isinstance(p, str) and "/" in p:
        (ax, ay), (bx, by) = (game.geometry.lattice_view.ideal_centre(h) for h in p.split("/"))
        return (ax + bx) / 2, (ay + by) / 2
    return game.geometry.lattice_view.ideal_centre(p) if isinstance(p, str) else f(p)


def landmark_hexes(game: Game, f: Fit, geo: Geography) -> dict[str, str | None]:
    """The hex each landmark falls in (None: off the map)."""
    return {name: _hex_at(game, f(ll)) for name, ll in geo.landmarks.items()}


def _hexes_under(game: Game, f: Fit, points: list[GeoPoint]) -> set[str]:
    """Every hex a line's samples fall in (every few pixels, as `hex_path` samples it)."""
    line = LineString([_px(game, f, p) for p in points])
    step = game.map.grid.dy / 12
    return {h for i in range(int(line.length / step) + 1)
            if (h := _hex_at(game, line.interpolate(i * step).coords[0])) is not None}


def _hex_at(game: Game, pt) -> str | None:
    label = game.geometry.lattice_view.label_at(*game.geometry.lattice_view.snap(*pt))
    return label if label in game.geometry.lattice_view else None


def sea_hexes(game: Game, f: Fit, coast: list[GeoPoint], land: set[str]) -> list[str]:
    """Hexes more than half under water: the coast closed round the board's top edge."""
    line = [_px(game, f, p) for p in coast]
    w = game.geometry.lattice_view.board[0]  # the lattice's width (sections drawn apart: not the board's)
    sea = Polygon(line + [(line[-1][0] + 5 * w, line[-1][1]), (line[-1][0] + 5 * w, -5 * w),
                          (line[0][0] - 5 * w, -5 * w), (line[0][0] - 5 * w, line[0][1])]).buffer(0)
    return _mostly_inside(game, sea, {p.hex for p in game.map.places} | land)


def _mostly_inside(game: Game, polygon: Polygon, skip: set[str]) -> list[str]:
    """Hexes (not in `skip`) more than half inside `polygon`, in label order."""
    out = []
    for label in game.geometry.lattice_view.labels:
        cell = Polygon(game.geometry.lattice_view.outline(label))
        if label not in skip and cell.intersection(polygon).area > 0.5 * cell.area:
            out.append(label)
    return out


def hex_path(game: Game, f: Fit, points: list[GeoPoint], sea: set[str]) -> list[str]:
    """The chain of adjacent hexes a route passes, sampled every few pixels."""
    line = LineString([_px(game, f, p) for p in points])
    step = game.map.grid.dy / 12
    path: list[str] = []
    for i in range(int(line.length / step) + 1):
        label = _hex_at(game, line.interpolate(i * step).coords[0])
        if label is None or label in sea:
            continue
        if path and label == path[-1]:
            continue
        if path and not game.geometry.lattice_view.adjacent(path[-1], label):
            if label in path:
                continue
            bridge = _bridge(game, path[-1], label, line)
            if bridge is None:
                continue
            path.append(bridge)
        if label in path:  # a loop back: cut it
            path = path[: path.index(label) + 1]
            continue
        path.append(label)
    return _pull_string(game, path, {p for p in points if isinstance(p, str) and "/" not in p})


def _pull_string(game: Game, path: list[str], pinned: set[str] = frozenset()) -> list[str]:
    """Drop zig-zag hexes (whose neighbours on the path touch) unless named places or pinned."""
    places = {p.hex for p in game.map.places} | pinned
    changed = True
    while changed:
        changed = False
        for i in range(1, len(path) - 1):
            if path[i] not in places and game.geometry.lattice_view.adjacent(path[i - 1], path[i + 1]):
                del path[i]
                changed = True
                break
    return path


def _bridge(game: Game, a: str, b: str, line: LineString) -> str | None:
    """The common neighbour of a and b nearest the line (when sampling skips a corner hex)."""
    common = set(game.geometry.lattice_view.neighbours(a)) & set(game.geometry.lattice_view.neighbours(b))
    if not common:
        return None
    return min(sorted(common), key=lambda h: line.distance(Point(game.geometry.lattice_view.ideal_centre(h))))


def cliff_hexsides(game: Game, f: Fit, points: list[GeoPoint], sea: set[str]) -> list[str]:
    """Every land hexside whose centre-to-centre crossing cuts the line (escarpment, ridge, river)."""
    line = LineString([_px(game, f, p) for p in points])
    out = []
    for a in game.geometry.lattice_view.labels:
        for b in game.geometry.lattice_view.neighbours(a):
            if a < b and a not in sea and b not in sea:
                if LineString([game.geometry.lattice_view.ideal_centre(a), game.geometry.lattice_view.ideal_centre(b)]).intersects(line):
                    out.append(f"{a}/{b}")
    for p in points:  # a hexside the rulebook names is on the run even where the line only touches it
        if isinstance(p, str) and "/" in p:
            a, b = sorted(p.split("/"))
            if f"{a}/{b}" not in out and a not in sea and b not in sea:
                out.append(f"{a}/{b}")
    return out


def area_hexes(game: Game, f: Fit, points: list[GeoPoint], sea: set[str]) -> list[str]:
    """Land hexes more than half inside a closed polygon (not towns: places with a terrain)."""
    area = Polygon([_px(game, f, p) for p in points]).buffer(0)
    return _mostly_inside(game, area, sea | {p.hex for p in game.map.places if p.terrain})


def reconstruct(game: Game, geo: Geography) -> tuple[dict, dict[str, float]]:
    """The map-terrain.yaml content and the fit errors."""
    f, errors = fit(game, geo)
    coast = [ln.points for ln in geo.lines if ln.kind == "coast"]
    land = set(geo.land)
    if geo.roads_on_land:
        land.update(*(_hexes_under(game, f, ln.points) for ln in geo.lines if ln.kind == "road"))
    sea = sea_hexes(game, f, coast[0], land) if coast else []
    seaset = set(sea)
    why = "derived by `hexforge fit-map` from geography.yaml"
    terrain: dict[str, str] = {}  # hex -> area terrain; a later area overrides an earlier one
    paths: dict[str, list] = {}
    runs: dict[str, list] = {}
    for ln in geo.lines:
        if ln.kind in PATH_KINDS:
            hexes = hex_path(game, f, ln.points, seaset)
            if len(hexes) >= 2:
                paths.setdefault(ln.becomes, []).append({"name": ln.name, "hexes": hexes})
        elif ln.kind in RUN_KINDS:
            sides = cliff_hexsides(game, f, ln.points, seaset)
            if sides:
                runs.setdefault(ln.becomes, []).append({"name": ln.name, "hexsides": sides})
        elif ln.kind == "area":
            terrain.update(dict.fromkeys(area_hexes(game, f, ln.points, seaset), ln.becomes))
    hexes = {"sea": sea}
    for kind in dict.fromkeys(ln.becomes for ln in geo.lines if ln.kind == "area"):
        if any(t == kind for t in terrain.values()):
            hexes[kind] = sorted(h for h, t in terrain.items() if t == kind)
    data = {"provenance": "reconstructed", "reason": f"the printed map is not available; {why}",
            "hexes": hexes, "hexside_paths": paths, "hexside_runs": runs}
    return data, errors


def load_geography(root: Path) -> Geography:
    """geography.yaml, checked as every source is (a SourceError names file:line and the fix)."""
    from builder.model.load import read_source

    return read_source(root, "geography.yaml", Geography)


def dump(data: dict) -> str:
    """map-terrain.yaml's text: its schema line, a note on where it comes from, then the data."""
    from builder.model.json_schema import schema_line

    header = (schema_line("map-terrain.yaml") + "\n"
              "# Terrain per hex and per hexside, reconstructed from real geography.\n"
              "# Written by `hexforge fit-map` from geography.yaml; edit freely or replace it with the\n"
              "# printed map (then set provenance: rulebook).  Paths list adjacent hexes in order: the\n"
              "# feature lies on every hexside crossed.  Runs list hexsides as HEX/HEX.\n")
    return header + yaml.dump(data, Dumper=_QuotingDumper, sort_keys=False, default_flow_style=None,
                              width=100, allow_unicode=True)


class _QuotingDumper(yaml.SafeDumper):
    """Quotes every hex id, so that 0708 and '0708' never look different to a reader."""


_QuotingDumper.add_representer(
    str, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", v,
                                         style="'" if v[:1].isdigit() else None))
