"""Deterministic zip archives written atomically.

Same entries in the same order with a fixed timestamp give the same bytes, so two builds of
unchanged sources are byte-identical; the file appears only when complete.
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

FIXED_TIME = (2000, 1, 1, 0, 0, 0)


def zip_bytes_entries(entries: list[tuple[str, bytes]]) -> bytes:
    """A zip image of `entries` (name, data), deflated, in the given order."""
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, data, compresslevel=6)
    return buf.getvalue()


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only when a file is written (an audit to stdout never is)

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
