"""Another module's map, its location names read as ours (the piece map's `locations`)."""
from __future__ import annotations

from validators.vlog.modulegrid import MapSpec


class RenamedMap(MapSpec):
    _fields = (*MapSpec._fields, "renames")
    __slots__ = ("renames",)

    def __init__(self, *args, renames: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.renames = {} if renames is None else renames

    @classmethod
    def over(cls, spec: MapSpec, renames: dict[str, str]) -> RenamedMap:
        return cls(**{f: getattr(spec, f) for f in MapSpec._fields}, renames=renames)

    def location(self, x: int, y: int) -> str:
        name = super().location(x, y)
        return self.renames.get(name, name)
