"""Which module wrote a log, and whether the module it is read with has the same geometry
(issue 33).

A log holds positions as pixels; only the geometry of the module that wrote it reads them back
as the hexes the players saw.  Our modules record a fingerprint of their geometry in their
metadata (builder/vassal/fingerprint.py), which the engine copies into every save and log.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from builder.record import FrozenRecord
from builder.vassal.fingerprint import fingerprint_in
from validators.replay.identity import PieceIdentity
from validators.vlog.container import ZIP_ERRORS, LogFormatError, top_fields


class ModuleId(FrozenRecord):
    """The module a log is read with: its version, its geometry fingerprint (None: none
    recorded) and what to call it in a message ("this build", or the --module file)."""

    __slots__ = _fields = ("version", "fingerprint", "what", "pieces")

    def __init__(self, version: str, fingerprint: str | None, what: str, pieces: PieceIdentity | None = None):
        self._set_fields(version, fingerprint, what, pieces)  # pieces: another maker's module's, as ours (--pieces)


def module_id(vmod: Path) -> ModuleId:
    """A .vmod's version and fingerprint, from its moduledata.  Raises LogFormatError."""
    try:
        with zipfile.ZipFile(vmod) as z:
            meta = dict(top_fields(z.read("moduledata"))) if "moduledata" in z.namelist() else {}
    except (*ZIP_ERRORS, KeyError) as exc:
        raise LogFormatError(f"--module {vmod}: not a readable module ({exc})") from None
    return ModuleId(meta.get("version", "?"), fingerprint_in(meta.get("extra1")), str(vmod))


def check_geometry(path: str, meta: dict[str, str], title: str, module: ModuleId, releases: Path) -> None:
    """Raise LogFormatError (one line: both versions and the fix) unless the log was written on
    the geometry of `module`.  A log with no fingerprint is read only with a module the user
    names (--module): nothing says this build's map is the one it was played on."""
    logged = fingerprint_in(meta.get("module.extra1"))
    if logged == module.fingerprint or (logged is None and module.what != "this build"):
        return
    version = meta.get("module.version") or "?"
    kept = releases / f"{version}.vmod"
    fix = f"--module {kept}" if kept.is_file() else "--module and the .vmod it was written with"
    ours = f"{module.what} is {module.version} (geometry {module.fingerprint})"
    if logged is None:
        raise LogFormatError(f"{path}: written by {title} {version} with no geometry recorded, and {ours}: nothing "
                             f"says the log was played on this map; audit it with {fix}")
    raise LogFormatError(f"{path}: written by {title} {version} (geometry {logged}), but {ours}: its positions "
                         f"would be read on another map; audit it with {fix}")
