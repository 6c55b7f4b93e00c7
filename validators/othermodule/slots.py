"""The palette of a module: every PieceSlot's name, gpid and Marker properties (prototypes
included), read from its buildFile without loading any image."""
from __future__ import annotations

import html
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from builder.vassal.pieces import PieceTooDeep, unchain
from builder.vassal.sequence import split
from validators.vlog.container import ZIP_ERRORS, top_fields
from validators.vlog.modulegrid import ModuleFormatError

_SLOT = re.compile(r"<VASSAL\.build\.widget\.PieceSlot\b([^>]*)>([^<]*)<")
_PROTO = re.compile(r"<VASSAL\.build\.module\.PrototypeDefinition\b([^>]*)>([^<]*)<")
_ATTR = re.compile(r'(\w+)="([^"]*)"')
MAX_BUILD = 64 << 20


@dataclass(frozen=True)
class Slot:
    name: str  # the BasicPiece name (the palette entry's name when it has none)
    gpid: str
    props: dict[str, str] = field(default_factory=dict)  # Marker-trait properties, prototypes' too


def _traits(body: str):
    f = split(html.unescape(body).strip()[2:], "/")  # +/id/type/state
    return unchain(f[1], f[2] if len(f) > 2 else "") if len(f) > 1 else []


def _props(traits, protos: dict[str, list], seen: frozenset = frozenset()) -> dict[str, str]:
    out: dict[str, str] = {}
    for t in traits:
        if t.prefix == "mark;":
            out.update(zip(split(t.type[5:], ","), split(t.state, ",")))
        elif t.prefix == "prototype;":
            name = split(t.type[len("prototype;"):], ";")[0]
            if name in protos and name not in seen:
                out = {**_props(protos[name], protos, seen | {name}), **out}
    return out


def read_slots(build_xml: str) -> list[Slot]:
    """Every PieceSlot of a buildFile, in order.  Raises ModuleFormatError on a broken piece."""
    try:
        protos = {dict(_ATTR.findall(a)).get("name", ""): _traits(b) for a, b in _PROTO.findall(build_xml)}
        out = []
        for attrs, body in _SLOT.findall(build_xml):
            a = {k: html.unescape(v) for k, v in _ATTR.findall(attrs)}
            traits = _traits(body)
            basic = traits[-1] if traits else None
            name = basic.fields[3] if basic is not None and len(basic.fields) > 3 and basic.fields[3] else a.get("entryName", "")
            out.append(Slot(name, a.get("gpid", ""), _props(traits, protos)))
        return out
    except (PieceTooDeep, IndexError) as exc:
        raise ModuleFormatError(f"a piece of the module cannot be read ({exc})") from None


def read_vmod_slots(path: Path) -> tuple[list[Slot], dict[str, str]]:
    """(slots, moduledata fields) of a .vmod.  Raises ModuleFormatError (one line)."""

    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            name = "buildFile.xml" if "buildFile.xml" in names else "buildFile"
            if name not in names:
                raise ModuleFormatError(f"{path}: no buildFile.xml in the module")
            if z.getinfo(name).file_size > MAX_BUILD:
                raise ModuleFormatError(f"{path}: {name} is larger than {MAX_BUILD} bytes: refused")
            build = z.read(name).decode("utf-8", "replace")
            meta = dict(top_fields(z.read("moduledata"))) if "moduledata" in names else {}
    except (*ZIP_ERRORS, KeyError, OSError) as exc:
        raise ModuleFormatError(f"{path}: not a readable module ({exc})") from None
    try:
        return read_slots(build), meta
    except ModuleFormatError as exc:
        raise ModuleFormatError(f"{path}: {exc}") from None
