"""What the page takes from a module (.vmod): its maps with their boards' art, how each map
offsets a stack's pieces, and the images its counters show, each read from the module itself so
that a log of any module is drawn with that module's own pictures."""
from __future__ import annotations

import base64
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from validators.dump import ModuleView, read_module_view
from validators.vlog.container import ZIP_ERRORS
from validators.vlog.modulegrid import MAX_BUILD, MapSpec, ModuleFormatError, read_vmod_grids

# VASSAL's StackMetrics defaults (vassal-formats.md: unexSepX="2" unexSepY="4"), for a map
# whose build file leaves them out
DEFAULT_SEP = (2, 4)
MAX_IMAGE = 32 * 1024 * 1024  # a larger entry is not put in the page
MIME = {".png": "image/png", ".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
        ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class BoardArt:
    name: str
    image: str  # file in the module's images/ ("" when the board has none)
    x: int  # top-left on the map
    y: int
    width: int
    height: int


@dataclass(frozen=True)
class MapArt:
    name: str
    boards: tuple[BoardArt, ...]
    sep: tuple[int, int]  # a stack's pieces shifted right and up by this much each (unexSepX, unexSepY)
    stacking: bool  # False: StackMetrics disabled, pieces drawn on top of each other
    size: tuple[int, int]  # width and height of the map (boards and edges)


class ModuleArt:
    """One module opened for the page: grids for the replay, the dump's names, maps and images."""

    def __init__(self, path: Path):
        self.path = path
        self.grids: dict[str, MapSpec] = read_vmod_grids(path)
        self.view: ModuleView = read_module_view(path)
        try:
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                build = z.read("buildFile.xml" if "buildFile.xml" in names else "buildFile")[:MAX_BUILD]
                self._images = {n[len("images/"):]: z.getinfo(n) for n in names
                                if n.startswith("images/") and not n.endswith("/")}
        except (*ZIP_ERRORS, KeyError) as exc:
            raise ModuleFormatError(f"{path}: not a readable module ({exc})") from None
        root = etree.fromstring(build, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
        self.maps = tuple(self._map(m) for m in root.iter() if isinstance(m.tag, str)
                          and m.tag.endswith(("module.Map", "module.PrivateMap", "module.PlayerHand")))
        self._uris: dict[str, str | None] = {}

    def _map(self, m) -> MapArt:
        name = m.get("mapName", "")
        spec = self.grids.get(name)
        boards = []
        images = {b.get("name", ""): b.get("image", "") for b in m.iter("VASSAL.build.module.map.boardPicker.Board")}
        if spec is not None:
            for bname in spec._in_use():
                b = spec.boards[bname]
                x, y = spec.origin(bname)
                boards.append(BoardArt(bname, images.get(bname, ""), x, y, *b.size))
        metrics = next((e for e in m if isinstance(e.tag, str) and e.tag.endswith("map.StackMetrics")), None)
        sep, stacking = DEFAULT_SEP, True
        if metrics is not None:
            sep = (_int(metrics.get("unexSepX"), DEFAULT_SEP[0]), _int(metrics.get("unexSepY"), DEFAULT_SEP[1]))
            stacking = metrics.get("disabled", "false") != "true"
        edge = spec.edge if spec else (0, 0)
        width = max((b.x + b.width for b in boards), default=0) + edge[0]
        height = max((b.y + b.height for b in boards), default=0) + edge[1]
        return MapArt(name, tuple(boards), sep, stacking, (width, height))

    def image_uri(self, name: str) -> str | None:
        """The image as a data: URI (read once), None when the module has no such image."""
        if name not in self._uris:
            info = self._images.get(name)
            mime = MIME.get(Path(name).suffix.lower())
            uri = None
            if info is not None and mime and info.file_size <= MAX_IMAGE:
                with zipfile.ZipFile(self.path) as z:
                    uri = f"data:{mime};base64," + base64.b64encode(z.read(info)).decode("ascii")
            self._uris[name] = uri
        return self._uris[name]


def _int(text: str | None, default: int) -> int:
    try:
        return max(-1000, min(1000, int(text))) if text is not None else default
    except ValueError:
        return default
