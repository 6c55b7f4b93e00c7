"""Which rules audit a game: the package its game.yaml names in `rules:` (issue 16).

A game declares its rules package (`rules: validators.games.western_desert_force`), so a game
in its own folder or its own Python package is found without a registry in code; the package's
`Auditor` class checks the logs.  A game without the entry builds but cannot be audited.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from pathlib import Path

from builder import paths


class NoRules(KeyError):
    """The game cannot be audited: no `rules:` entry, or a package that is not there."""

    def __str__(self) -> str:
        return str(self.args[0])


@lru_cache(maxsize=64)
def _declared(game_yaml: Path, mtime_ns: int) -> str | None:
    import yaml  # only when no model is at hand (a slug): an audit's model says it (issue 15)

    try:
        data = yaml.safe_load(game_yaml.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    package = data.get("rules") if isinstance(data, dict) else None
    return package if isinstance(package, str) else None


def rules_package(slug: str, root: Path | None = None) -> str | None:
    """The `rules:` entry of sources/<slug>/game.yaml, read lightly (no model, no checks)."""
    game_yaml = paths.sources_dir(root) / slug / "game.yaml"
    try:
        return _declared(game_yaml, game_yaml.stat().st_mtime_ns)
    except OSError:
        return None


def auditable(root: Path | None = None) -> dict[str, str]:
    """{slug: rules package} of every game in sources/ that declares one."""
    return {slug: pkg for slug in paths.games(root) if (pkg := rules_package(slug, root))}


def rules_for(game, root: Path | None = None):
    """The Auditor class of a game (a loaded Game, or a slug read from sources/); NoRules when none."""
    if isinstance(game, str):
        slug, package = game, rules_package(game, root)
    else:
        slug, package = game.slug, game.info.rules
    if package is None:
        raise NoRules(f"{slug}: no rules module, its logs cannot be audited; games that can be audited: "
                      f"{', '.join(sorted(auditable(root))) or 'none'}")
    try:
        module = import_module(package)
    except ModuleNotFoundError as exc:
        if exc.name is None or not package.startswith(exc.name):
            raise  # the package is there but imports something missing: a bug to see whole
        raise NoRules(f"{slug}: rules package {package!r} (game.yaml 'rules:') is not installed") from None
    auditor = getattr(module, "Auditor", None)
    if auditor is None:
        raise NoRules(f"{slug}: rules package {package!r} has no Auditor class")
    return auditor


def __getattr__(name: str):
    if name == "GAMES":  # the former registry, now read from the sources: {slug: package}
        return auditable()
    raise AttributeError(name)
