"""Where sources and outputs live: `sources/<slug>/` in, `generated/<slug>/` out."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("HEXFORGE_ROOT", Path(__file__).resolve().parent.parent))


def sources_dir(root: Path | None = None) -> Path:
    return (root or ROOT) / "sources"


def generated_dir(root: Path | None = None) -> Path:
    return (root or ROOT) / "generated"


def games(root: Path | None = None) -> list[str]:
    """Slugs of every game folder in sources/ (a folder with a game.yaml)."""
    src = sources_dir(root)
    return sorted(p.name for p in src.iterdir() if (p / "game.yaml").is_file()) if src.is_dir() else []
