"""A piece's counter art (issue 33): which of the module's images are its faces, and the image files
the game's folder gets for them.

Choice: a face is one image, shown as it is (schema.FaceImage `exact`).  The front is the
BasicPiece's image (or, when it has none, a flipping Layer's first level); the back (a unit's
reduced face, a marker's second face) is the first flipping Layer's level.  A Layer that is always
shown draws over the face (an overlay): our faces hold one image each, so overlays, further levels
and further Layers are listed as not carried, with the piece.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from builder.importer.archive import MAX_IMAGE, ImportFailed, ModuleArchive
from builder.importer.modulefile import SlotInfo
from builder.vassal.pieces import Trait
from builder.vassal.sequence import split

MAX_DEPTH = 20  # prototypes inside prototypes


@dataclass(frozen=True)
class Layer:
    """A Layer (Embellishment, emb2) of a piece: its level images and whether it is always shown."""

    type: str
    name: str
    images: tuple[str, ...]
    always: bool


@dataclass
class PieceArt:
    faces: list[str]  # the module's image names, front first (at most two)
    flip: Layer | None  # the Layer that shows the back face
    left: list[str] = field(default_factory=list)  # the images of the piece not carried (overlays, levels)


def _layer(t: Trait) -> Layer | None:
    f = split(t.type[len("emb2;"):], ";")
    if len(f) < 16:
        return None
    images = tuple(i for i in split(f[15], ",") if i)
    always = (f[25].strip().lower() == "true") if len(f) > 25 else not f[2]
    return Layer(t.type, f[18] if len(f) > 18 else "", images, always)


def expanded(traits: list[Trait], protos: dict[str, list[Trait]], depth: int = 0) -> list[Trait]:
    """The traits with each prototype replaced by its own (as VASSAL does when it makes a piece)."""
    out: list[Trait] = []
    for t in traits:
        if t.prefix == "prototype;":
            inner = protos.get(t.type[len("prototype;"):])
            if inner and depth < MAX_DEPTH:
                out += expanded(inner[:-1], protos, depth + 1)
        else:
            out.append(t)
    return out


def piece_art(slot: SlotInfo, protos: dict[str, list[Trait]]) -> PieceArt:
    traits = expanded(slot.traits, protos)
    basic = slot.image
    layers = [x for t in traits if t.prefix == "emb2;" for x in [_layer(t)] if x is not None and x.images]
    # the Layer that turns the counter over, the innermost (next to the BasicPiece): one shown when activated
    # (its levels are the back), or one always shown with two levels or more (its levels are the faces)
    flips = [x for x in layers if not x.always or len(x.images) > 1]
    faces = [basic] if basic else []
    flip = flips[-1] if flips else None
    if flip is not None and flip.always:
        faces = list(dict.fromkeys(flip.images))
    elif flip is not None:
        faces += [i for i in flip.images if i not in faces]
    left = faces[2:] + [i for x in layers if x is not flip for i in x.images]
    if flip is not None and flip.always and basic and basic not in faces:
        left.append(basic)  # drawn under the Layer's level
    for t in traits:  # a Mask (obs): its image, and the one others see it as (style "G" + name)
        f = split(t.type, ";") if t.prefix == "obs;" else []
        left += [f[2]] if len(f) > 2 else []
        left += [f[4][1:]] if len(f) > 4 and f[4][:1] == "G" and len(f[4]) > 1 else []  # Obscurable IMAGE style
    return PieceArt(faces[:2], flip, [i for i in dict.fromkeys(left) if i and i not in faces[:2]])


def flipped(layers: list[tuple[str, str]], flip: Layer | None) -> bool:
    """Whether a placed piece shows its back: its flipping Layer active (a level above zero), or an
    always-shown one at its second level or further."""
    for typ, state in layers:
        if flip is not None and typ == flip.type:
            try:
                value = int(split(state, ";")[0])
            except ValueError:
                return False
            return abs(value) >= 2 if flip.always else value > 0
    return False


class ArtFiles:
    """The module's images as PNG files of the game's folder (art/NAME.png), each read once."""

    def __init__(self, arc: ModuleArchive) -> None:
        self.arc = arc
        self.files: dict[str, bytes] = {}  # file in the game's folder -> its bytes
        self.by_image: dict[str, str | None] = {}  # the module's image name -> its file, or None
        self.missing: list[str] = []
        self.converted: list[str] = []

    def file(self, image: str) -> str | None:
        if image in self.by_image:
            return self.by_image[image]
        self.by_image[image] = None
        entry = f"images/{image}"
        if not self.arc.has(entry):
            self.missing.append(image)
            return None
        try:
            data = self._png(self.arc.read(entry, MAX_IMAGE), image)
        except ImportFailed:
            self.missing.append(image)
            return None
        if data is None:
            self.missing.append(image)
            return None
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", image.rsplit(".", 1)[0] if image.lower().endswith(".png") else image)
        stem = stem.strip("-.")[:76] or "image"
        name, n = f"art/{stem}.png", 2
        while name in self.files:
            name, n = f"art/{stem}-{n}.png", n + 1
        self.files[name] = data
        self.by_image[image] = name
        return name

    def _png(self, data: bytes, image: str) -> bytes | None:
        """The bytes as they are if they are a PNG, else the same pixels as a PNG; None: no image."""
        from PIL import Image

        if data.startswith(b"\x89PNG\r\n\x1a\n"):
            return data
        try:
            with Image.open(io.BytesIO(data)) as img:
                img.load()
                out = io.BytesIO()
                img.convert("RGBA" if "A" in img.getbands() or "transparency" in img.info else "RGB").save(out, "PNG")
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            return None
        self.converted.append(image)
        return out.getvalue()
