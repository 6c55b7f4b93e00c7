"""Where sources and outputs live: `sources/<slug>/` in, `generated/<slug>/` out.

hexforge works where its user is, as git and cargo do: the folder `HEXFORGE_ROOT` names, else the
nearest folder from the current one up that holds `sources/`, else the current folder (so
`hexforge new` in an empty folder starts a workspace there and never writes into hexforge's own
install). `REPO` is the folder hexforge's own code and games live in, for its tests and benchmarks.
"""
from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def find_root() -> Path:
    """The workspace hexforge works in (see the module's docstring)."""
    if os.environ.get("HEXFORGE_ROOT"):
        return Path(os.environ["HEXFORGE_ROOT"])
    try:
        here = Path.cwd()
    except OSError:  # the current folder was deleted under us
        return REPO
    return next((f for f in (here, *here.parents) if (f / "sources").is_dir()), here)


ROOT = find_root()


def sources_dir(root: Path | None = None) -> Path:
    return (root or ROOT) / "sources"


def generated_dir(root: Path | None = None) -> Path:
    return (root or ROOT) / "generated"


def games(root: Path | None = None) -> list[str]:
    """Slugs of every game folder in sources/ (a folder with a game.yaml)."""
    src = sources_dir(root)
    return sorted(p.name for p in src.iterdir() if (p / "game.yaml").is_file()) if src.is_dir() else []


def inside(folder: Path, path: Path) -> bool:
    """Whether `path`, links followed, lies in `folder`: nothing outside a game's folder is read
    for it (a source file that links elsewhere is refused, never read)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links
        return False
