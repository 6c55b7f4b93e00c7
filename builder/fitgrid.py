"""`hexforge fit-grid GAME`: set the hex grid of map.yaml on the board's scan (issue 35).

The designer names three or more hexes and where their centres are on the scan (pixels, from
the image's top left), on the command line (`0101=112,95`) or in a small YAML file (`"0101":
[112, 95]`).  The board takes the scan's size, the grid is fitted (builder/geometry/gridfit.py)
and checked, and map.yaml is rewritten atomically: its `grid:` block replaced whole (comments in
it are lost; the rest of the file is kept as written), `board.width` and `board.height` set.
Nothing is written when anything fails.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from builder.geometry.gridfit import Fit, FitError, Known, fit_grid
from builder.geometry.javagrid import GridParams, NumberingParams
from builder.model import schema as s

_POINT = re.compile(r"^\s*([0-9A-Za-z-]{2,8})\s*=\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


@dataclass(frozen=True)
class Result:
    fit: Fit
    board: tuple[int, int]
    text: str  # the new map.yaml


def parse_points(args: list[str]) -> list[Known]:
    """`HEX=X,Y` arguments; raises FitError naming a bad one."""
    out = []
    for a in args:
        m = _POINT.match(a)
        if not m:
            raise FitError(f"{a!r} is not HEX=X,Y (a hex id, then its centre's pixel position on the scan: 0101=112,95)")
        out.append(Known(m.group(1), float(m.group(2)), float(m.group(3))))
    return out


def read_points(path: Path) -> list[Known]:
    """A YAML mapping of hex id -> [x, y]; raises FitError naming what is wrong."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise FitError(f"{path}: cannot read it ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict):
        raise FitError(f"{path}: write one line per hex, its id and its centre's pixel position: \"0101\": [112, 95]")
    out = []
    for k, v in data.items():
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)):
            raise FitError(f"{path}: {k}: {v!r} is not [x, y] (the centre's pixel position on the scan)")
        out.append(Known(str(k), float(v[0]), float(v[1])))
    return out


def _block(lines: list[str], key: str) -> tuple[int, int] | None:
    """The lines [start, end) of a top-level key's value (up to the next top-level key)."""
    start = next((i for i, ln in enumerate(lines) if re.match(rf"^{key}\s*:", ln)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^[A-Za-z_\"']", lines[i])), len(lines))
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return start, end


def _set_scalar(lines: list[str], block: tuple[int, int], key: str, value: int) -> None:
    for i in range(*block):
        new, n = re.subn(rf"(\b{key}\s*:\s*)\d+", rf"\g<1>{value}", lines[i], count=1)
        if n:
            lines[i] = new
            return
    raise FitError(f"map.yaml: board has no '{key}:' to set")


def _grid_lines(fit: Fit, old: s.Grid, image: str | None, count: int) -> list[str]:
    g = fit.grid
    what = f"{count} hex centres on {image}" if image else f"{count} hex centres"
    lines = [f"grid:  # fitted by `hexforge fit-grid` to {what} (rms {fit.rms:.1f} px)",
             f"  sideways: {'true' if g.sideways else 'false'}",
             f"  dx: {round(g.dx, 3):g}", f"  dy: {round(g.dy, 3):g}", f"  x0: {g.x0}", f"  y0: {g.y0}",
             f"  area: [{', '.join(str(v) for v in fit.area)}]"]
    if old.provenance == "reconstructed":
        lines += ["  provenance: reconstructed", f"  reason: {yaml.safe_dump(f'fitted to {what} by hexforge fit-grid', width=200).strip().removesuffix('...').strip()}"]
    return lines


def fit_map(root: Path, known: list[Known], sideways: bool | None = None,
            area: tuple[int, int, int, int] | None = None) -> Result:
    """The fitted grid and map.yaml's new text (nothing written); raises FitError or SourceError."""
    from PIL import Image

    from builder.art import art_problem
    from builder.model.load import read_source

    m = read_source(root, "map.yaml", s.MapFile)
    if m.sections:
        raise FitError("map.yaml has map sections: fit-grid sets one grid for a board without sections")
    board = (m.board.width, m.board.height)
    if m.board.image:
        problem = art_problem(root, m.board.image, decode=False)
        if problem:
            raise FitError(f"board image: {problem}")
        with Image.open(root / m.board.image) as img:
            board = img.size
        if not (200 <= board[0] <= 8000 and 200 <= board[1] <= 8000):
            raise FitError(f"board image {m.board.image} is {board[0]} x {board[1]} px; a board is 200 to 8000 px a side")
    n = m.numbering
    numbering = NumberingParams(n.first, n.sep, n.h_type, n.v_type, n.h_leading, n.v_leading, n.h_off, n.v_off,
                                n.h_descend, n.v_descend, n.stagger)
    g = m.grid
    fit = fit_grid(known, numbering, board, GridParams(g.dx, g.dy, g.x0, g.y0, g.sideways), sideways, area)
    text = (root / "map.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    b = _block(lines, "board")
    if b is None:
        raise FitError("map.yaml has no top-level 'board:'")
    _set_scalar(lines, b, "width", board[0])
    _set_scalar(lines, b, "height", board[1])
    gb = _block(lines, "grid")
    if gb is None:
        raise FitError("map.yaml has no top-level 'grid:'")
    lines[gb[0]:gb[1]] = _grid_lines(fit, g, m.board.image, len(known))
    new = "\n".join(lines) + "\n"
    from pydantic import ValidationError

    try:  # what is written loads, with the fitted grid
        checked = s.MapFile.model_validate(yaml.safe_load(new))
    except ValidationError as exc:
        raise FitError(f"the fitted map.yaml would not load: {exc.errors()[0]['msg']}") from None
    if (checked.board.width, checked.board.height) != board or (checked.grid.x0, checked.grid.y0) != (fit.grid.x0, fit.grid.y0):
        raise FitError("map.yaml's board or grid is written in a way fit-grid cannot rewrite: set them by hand")
    return Result(fit, board, new)
