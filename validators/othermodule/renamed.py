"""Another module's map, its location names read as ours (the piece map's `locations`)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from validators.vlog.modulegrid import MapSpec


@dataclass
class RenamedMap(MapSpec):
    renames: dict[str, str] = field(default_factory=dict)

    @classmethod
    def over(cls, spec: MapSpec, renames: dict[str, str]) -> RenamedMap:
        return cls(**{f.name: getattr(spec, f.name) for f in fields(spec) if f.init}, renames=renames)

    def location(self, x: int, y: int) -> str:
        name = super().location(x, y)
        return self.renames.get(name, name)
