"""Reconstruct a map's terrain from real geography (`geography.yaml` -> `map-terrain.yaml`).

When the printed map is missing we fit the hex grid to the real world: an affine transform
from (lon, lat) to board pixels, least-squares over the places whose printed hex ids the
rulebook gives, plus a smooth correction that puts each of them exactly on its hex.  Real
coastlines, escarpments, roads and tracks are then carried through the same transform:
sea hexes are those mostly under water, a road or track follows the hexes its line passes,
and a cliff lies on every hexside whose centre-to-centre crossing cuts an escarpment.
The output is plain data an owner can edit or replace with the printed map.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml
from pydantic import Field
from shapely.geometry import LineString, Point, Polygon

from builder.model import schema as s
from builder.model.game import Game  # noqa: F401  (type of the map argument)
from builder.model.yamlsource import load_located

LonLat = tuple[float, float]


class GeoLine(s.Strict):
    name: s.Text
    kind: str
    points: list[LonLat] = Field(min_length=2)


class Geography(s.Sourced):
    places: dict[str, LonLat]
    lines: list[GeoLine]
    land: list[s.HexId] = []  # hexes the rules name as places units can be (never sea)


@dataclass(frozen=True)
class Fit:
    """lon/lat -> board pixels: affine least squares plus inverse-distance residual correction."""

    affine: np.ndarray  # 2x3
    anchors: np.ndarray  # N x 2 projected (affine) positions of the places
    residuals: np.ndarray  # N x 2 pixel corrections at the anchors

    def __call__(self, lonlat: LonLat) -> tuple[float, float]:
        p = self.affine @ np.array([lonlat[0], lonlat[1], 1.0])
        d2 = ((self.anchors - p) ** 2).sum(axis=1)
        if d2.min() < 1e-9:
            return tuple(p + self.residuals[d2.argmin()])
        w = 1.0 / d2
        return tuple(p + (w[:, None] * self.residuals).sum(axis=0) / w.sum())


def fit(game: Game, geo: Geography) -> tuple[Fit, dict[str, float]]:
    """The transform and each place's affine error in hexes (smaller is a better fit)."""
    by_name = {p.name: p.hex for p in game.map.places}
    names = [n for n in geo.places if n in by_name]
    src = np.array([[*geo.places[n], 1.0] for n in names])
    dst = np.array([game.geometry.ideal_centre(by_name[n]) for n in names])
    affine, *_ = np.linalg.lstsq(src, dst, rcond=None)
    projected = src @ affine
    residuals = dst - projected
    hex_px = game.map.grid.dy
    errors = {n: float(np.hypot(*residuals[i]) / hex_px) for i, n in enumerate(names)}
    return Fit(affine.T, projected, residuals), errors


def _hex_at(game: Game, pt) -> str | None:
    label = game.geometry.label_at(*game.geometry.snap(*pt))
    return label if label in game.geometry else None


def sea_hexes(game: Game, f: Fit, coast: list[LonLat], land: set[str]) -> list[str]:
    """Hexes more than half under water: the coast closed round the board's top edge."""
    line = [f(p) for p in coast]
    w = game.map.board.width
    sea = Polygon(line + [(line[-1][0] + 5 * w, line[-1][1]), (line[-1][0] + 5 * w, -5 * w),
                          (line[0][0] - 5 * w, -5 * w), (line[0][0] - 5 * w, line[0][1])]).buffer(0)
    land_places = {p.hex for p in game.map.places} | land
    out = []
    for label in game.geometry.labels:
        cell = Polygon(game.geometry.outline(label))
        if label not in land_places and cell.intersection(sea).area > 0.5 * cell.area:
            out.append(label)
    return out


def hex_path(game: Game, f: Fit, points: list[LonLat], sea: set[str]) -> list[str]:
    """The chain of adjacent hexes a route passes, sampled every few pixels."""
    line = LineString([f(p) for p in points])
    step = game.map.grid.dy / 12
    path: list[str] = []
    for i in range(int(line.length / step) + 1):
        label = _hex_at(game, line.interpolate(i * step).coords[0])
        if label is None or label in sea:
            continue
        if path and label == path[-1]:
            continue
        if path and not game.geometry.adjacent(path[-1], label):
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
    return _pull_string(game, path)


def _pull_string(game: Game, path: list[str]) -> list[str]:
    """Drop zig-zag hexes (whose neighbours on the path touch) unless they are named places."""
    places = {p.hex for p in game.map.places}
    changed = True
    while changed:
        changed = False
        for i in range(1, len(path) - 1):
            if path[i] not in places and game.geometry.adjacent(path[i - 1], path[i + 1]):
                del path[i]
                changed = True
                break
    return path


def _bridge(game: Game, a: str, b: str, line: LineString) -> str | None:
    """The common neighbour of a and b nearest the line (when sampling skips a corner hex)."""
    common = set(game.geometry.neighbours(a)) & set(game.geometry.neighbours(b))
    if not common:
        return None
    return min(sorted(common), key=lambda h: line.distance(Point(game.geometry.ideal_centre(h))))


def cliff_hexsides(game: Game, f: Fit, points: list[LonLat], sea: set[str]) -> list[str]:
    line = LineString([f(p) for p in points])
    out = []
    for a in game.geometry.labels:
        for b in game.geometry.neighbours(a):
            if a < b and a not in sea and b not in sea:
                if LineString([game.geometry.ideal_centre(a), game.geometry.ideal_centre(b)]).intersects(line):
                    out.append(f"{a}/{b}")
    return out


def reconstruct(game: Game, geo: Geography) -> tuple[dict, dict[str, float]]:
    """The map-terrain.yaml content and the fit errors."""
    f, errors = fit(game, geo)
    coast = [ln.points for ln in geo.lines if ln.kind == "coast"]
    sea = sea_hexes(game, f, coast[0], set(geo.land)) if coast else []
    seaset = set(sea)
    why = "derived by `hexforge fit-map` from geography.yaml"
    paths: dict[str, list] = {}
    runs: dict[str, list] = {}
    for ln in geo.lines:
        if ln.kind in ("road", "track"):
            hexes = hex_path(game, f, ln.points, seaset)
            if len(hexes) >= 2:
                paths.setdefault(ln.kind, []).append({"name": ln.name, "hexes": hexes})
        elif ln.kind == "escarpment":
            sides = cliff_hexsides(game, f, ln.points, seaset)
            if sides:
                runs.setdefault("cliff", []).append({"name": ln.name, "hexsides": sides})
    data = {"provenance": "reconstructed", "reason": f"the printed map is not available; {why}",
            "hexes": {"sea": sea}, "hexside_paths": paths, "hexside_runs": runs}
    return data, errors


def load_geography(root: Path) -> Geography:
    doc = load_located(root / "geography.yaml", f"sources/{root.name}/geography.yaml")
    return Geography.model_validate(doc.data)


def dump(data: dict) -> str:
    header = ("# Terrain per hex and per hexside, reconstructed from real geography.\n"
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
