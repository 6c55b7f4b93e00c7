"""Releases: which versions of a game's module went out, and on which geometry (issue 33).

Every module says its version (game.yaml) and carries its geometry fingerprint in its metadata;
a log carries both.  `hexforge release GAME` builds the game, records the version and its
fingerprint in `sources/GAME/releases.yaml` and keeps the module as
`generated/GAME/releases/VERSION.vmod`, where `audit --module` finds it for that version's
logs.  A build whose geometry differs from what a released version recorded is refused: logs
of that version would be read on another map.
"""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path

from builder.model import SourceError
from builder.model import schema as s
from builder.model.game import Game
from builder.model.problems import SourceProblem
from builder.model.schema_words import pattern_of
from builder.vassal.archive import write_atomic
from builder.vassal.fingerprint import geometry_fingerprint

FILE = "releases.yaml"


def released(root: Path) -> list[s.Release]:
    """The releases a game's folder records (none without releases.yaml).  Raises SourceError."""
    from builder.model.load import read_source

    return read_source(root, FILE, s.ReleasesFile).releases if (root / FILE).exists() else []


def released_fingerprint(game: Game) -> str:
    """The game's fingerprint, checked against the releases: SourceError when a released version
    of the same number recorded another (the map changed under a version in players' hands)."""
    fingerprint = geometry_fingerprint(game)
    for r in released(game.root):
        if r.version == game.info.version and r.geometry != fingerprint:
            raise SourceError([SourceProblem(
                f"sources/{game.slug}/game.yaml", 1, 1,
                f"the map's geometry changed since release {r.version} (geometry {r.geometry}, now {fingerprint}): "
                f"logs of {r.version} would be read on another map",
                f"raise `version` in game.yaml (then `hexforge release {game.slug}`); logs of {r.version} are "
                f"audited with --module generated/{game.slug}/releases/{r.version}.vmod")])
    return fingerprint


@dataclass(frozen=True)
class Released:
    version: str
    geometry: str
    kept: Path
    new: bool  # False: this version was already recorded (nothing changed)


def record(game: Game, vmod: Path) -> Released:
    """Record the game's version as released, with its fingerprint, and keep its built module
    (`vmod`, what `hexforge build` just wrote) for that version's logs.  A version already
    recorded is left as it was.  Raises SourceError."""
    version, fingerprint = game.info.version, released_fingerprint(game)
    kept = vmod.parent / "releases" / f"{version}.vmod"
    records = released(game.root)
    if any(r.version == version for r in records):
        if not kept.is_file():
            write_atomic(kept, vmod.read_bytes())
        return Released(version, fingerprint, kept, False)
    _check_version(game.slug, version)
    records.append(s.Release(version=version, geometry=fingerprint, date=datetime.date.today().isoformat()))
    lines = ["# Written by `hexforge release`: each released version of the module and the fingerprint of",
             "# its geometry (where a logged position lands). A released geometry may not change.",
             "releases:"]
    lines += [f'  - {{version: "{r.version}", geometry: "{r.geometry}", date: "{r.date}"}}' for r in records]
    write_atomic(kept, vmod.read_bytes())
    write_atomic(game.root / FILE, ("\n".join(lines) + "\n").encode("utf-8"))
    return Released(version, fingerprint, kept, True)


def _check_version(slug: str, version: str) -> None:
    """The version names a file of releases/: the schema's own pattern for it (schema.Version)."""
    if not re.fullmatch(pattern_of(s.Version), version):
        raise SourceError([SourceProblem(f"sources/{slug}/game.yaml", 1, 1,
                                         f"version {version!r} cannot name a released module file",
                                         "use letters, digits, '.', '_' and '-' (e.g. 1.2)")])
