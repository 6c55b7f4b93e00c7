"""Every image a module names must be in it (issue 35).

VASSAL finds a piece's, a board's or a mask's image by its name in the archive's `images/`; a
name with no file behind it is a hole the engine reports only when it comes to draw it (a masked
chit in the mug, years later).  The build reads the names back out of what it wrote (the build
file and the set-ups, as text: image names sit between the delimiters of VASSAL's encodings) and
refuses a module that names an image it does not hold.  A name starting with "/" is one of
VASSAL's own icons ("/images/die.gif"), shipped in the engine.
"""
from __future__ import annotations

import re

IMAGE_FOLDER = "images/"
# a name between the separators of VASSAL's sequence encoding (; , \ tab), the XML quotes and
# element text; "/images/x.gif" (the engine's own icon) never matches: its "/" is not a separator
_NAME = re.compile(r'(?<=[;,\\\t\n"=>])([^;,\\\t\n"=<>/]+\.(?:png|gif|jpe?g|svg))(?=[;,\\\t\n"<]|$)', re.IGNORECASE)


def named_images(*texts: str) -> set[str]:
    """The image names the texts (a build file, set-up save texts) use."""
    return {m.group(1) for t in texts for m in _NAME.finditer(t)}


def missing_images(names: set[str], entries: list[str]) -> list[str]:
    """The names that have no `images/<name>` entry, sorted."""
    have = {e[len(IMAGE_FOLDER):] for e in entries if e.startswith(IMAGE_FOLDER)}
    return sorted(n for n in names if n not in have)


class MissingImages(ValueError):
    """A module names images it does not hold: a bug in the build, never the sources' fault."""

    def __init__(self, missing: list[str]):
        super().__init__(f"the module names {len(missing)} image(s) it does not hold: {', '.join(missing)}")
        self.missing = missing


def require_images(texts: list[str], entries: list[str]) -> None:
    """Raise MissingImages unless every image the texts name is an entry."""
    missing = missing_images(named_images(*texts), entries)
    if missing:
        raise MissingImages(missing)
