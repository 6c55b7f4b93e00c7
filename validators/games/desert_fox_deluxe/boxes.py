"""Where a piece is when it is off the hex grid: the track or box a location name is (map.yaml
`tracks`: the Axis and Allied boxes, the Training Track, the off-map areas, the Oasis Track, the
MET tracks), and which side a side's own box belongs to.

Choices: the boxes of a kind are known by their names in map.yaml (`<Side> Air ...` the air
holding boxes of 19.1, `<Side> ... Shipping` the shipping lanes of 20.2-20.3); a location that is
no box is None.
"""
from __future__ import annotations

from validators.kernel.rule import Tracker

SIDE_TRACKS = {"axis-boxes": "axis", "allied-boxes": "allied"}


class Boxes(Tracker):
    """Location name -> (track id, box name) for every box of map.yaml's tracks (keeps no facts)."""

    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.where: dict[str, tuple[str, str]] = {}
        for track in self.game.tracks.values():
            for box in track.boxes:
                self.where.setdefault(self.game.zone_name(track.id, box), (track.id, box))

    def at(self, label: str | None) -> tuple[str, str] | None:
        return self.where.get(label or "")

    def track_of(self, label: str | None) -> str | None:
        found = self.where.get(label or "")
        return found[0] if found else None

    def side_of_box(self, label: str | None) -> str | None:
        """The side whose box this is (the Axis and Allied boxes), None for any other location."""
        return SIDE_TRACKS.get(self.track_of(label) or "")

    def index(self, label: str | None) -> int | None:
        """A box's place on its track (0 first)."""
        found = self.where.get(label or "")
        if found is None:
            return None
        return list(self.game.tracks[found[0]].boxes).index(found[1])
