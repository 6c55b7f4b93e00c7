"""The command line's two consoles (stdout, stderr), without typer: `hexforge audit GAME LOG`
runs without it (validators/main.py) and still writes its notes as every other command does."""
from __future__ import annotations


class LazyConsole:
    """A rich Console made on first use: `hexforge audit` writes its report straight to stdout,
    and importing rich cost every audit a fiftieth of a second (issue 15)."""

    def __init__(self, **options) -> None:
        self._options, self._console = options, None

    @property
    def console(self):
        """The Console itself, for rich code that wants one (Progress)."""
        if self._console is None:
            from rich.console import Console
            self._console = Console(highlight=False, soft_wrap=True, **self._options)
        return self._console

    def __getattr__(self, name: str):
        return getattr(self.console, name)


out = LazyConsole()
err = LazyConsole(stderr=True)
