"""Where each piece of a predefined setup stands: its slot (gpid), name, map and pixel point.

The setup is a save inside the module (a zip with a `savedGame` entry, obfuscated or plain);
only its AddPiece commands are read (the state of a BasicPiece holds map, x, y and gpid).
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from builder.importer.archive import ERRORS, MAX_SAVE, ImportFailed, ModuleArchive
from builder.importer.modulefile import piece_traits
from builder.vassal.savefile import CommandTreeError, ObfuscationError, decode_tree, deobfuscate, leaves
from builder.vassal.sequence import split

MAX_PIECES = 100_000


@dataclass(frozen=True)
class PlacedPiece:
    gpid: str
    name: str
    map: str
    x: int
    y: int
    layers: tuple[tuple[str, str], ...] = ()  # (type, state) of its Layers (emb2): which face it shows


def save_text(raw: bytes, where: str) -> str:
    """The command text of a save's bytes (a zip with savedGame, or the bare text)."""
    if raw.startswith(b"PK"):
        try:
            z = zipfile.ZipFile(io.BytesIO(raw))
            info = next((i for i in z.infolist() if i.orig_filename == "savedGame"), None)
            if info is None:
                raise ImportFailed(f"{where}: no savedGame entry")
            if info.file_size > MAX_SAVE:
                raise ImportFailed(f"{where}: savedGame declares {info.file_size} bytes (limit {MAX_SAVE}): refused")
            with z.open(info) as f:
                raw = f.read(info.file_size + 1)
            if len(raw) > info.file_size:
                raise ImportFailed(f"{where}: savedGame inflates past its declared size: refused (zip bomb?)")
        except ImportFailed:
            raise
        except ERRORS as exc:
            raise ImportFailed(f"{where}: broken save ({exc})") from None
    try:
        return deobfuscate(raw)
    except (ObfuscationError, UnicodeDecodeError) as exc:
        raise ImportFailed(f"{where}: cannot read its commands ({exc})") from None


BoardLayout = dict[str, list[tuple[str, int, int, bool]]]  # map -> (board, column, row, reversed) of each board in use


def placed_pieces(arc: ModuleArchive, file: str, layouts: BoardLayout | None = None) -> list[PlacedPiece]:
    """The pieces a setup adds; `layouts` (if given) gets the boards each map uses and where (its BoardPicker)."""
    where = f"{arc.name}:{file}"
    text = save_text(arc.read(file, MAX_SAVE), where)
    try:
        commands = leaves(decode_tree(text))
    except CommandTreeError as exc:
        raise ImportFailed(f"{where}: {exc}") from None
    out: list[PlacedPiece] = []
    for cmd in commands:
        head, _, rest = cmd.partition("\t")
        if layouts is not None and head.endswith("BoardPicker") and not cmd.startswith("+/"):
            f = split(rest, "\t")
            boards = []
            for i in range(0, len(f) - 2, 3):
                name, _, rev = f[i].partition("/")
                try:
                    boards.append((name, int(f[i + 1]), int(f[i + 2]), rev == "rev"))
                except ValueError:
                    continue
            layouts.setdefault(head[:-len("BoardPicker")], boards)
            continue
        traits = piece_traits(cmd, where)
        if not traits:
            continue
        basic = traits[-1]
        if not basic.type.startswith("piece;"):
            continue
        fields = basic.fields
        state = split(basic.state, ";")
        try:
            x, y = int(state[1]), int(state[2])
        except (IndexError, ValueError):
            continue
        out.append(PlacedPiece(state[3] if len(state) > 3 else "", fields[3] if len(fields) > 3 else "",
                               state[0], x, y, tuple((t.type, t.state) for t in traits if t.prefix == "emb2;")))
        if len(out) > MAX_PIECES:
            raise ImportFailed(f"{where}: more than {MAX_PIECES} pieces: refused")
    return out
