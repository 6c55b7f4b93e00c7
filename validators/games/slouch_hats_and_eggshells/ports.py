"""Port capacity (7.33-7.35, 13.2, 19.15): the Port Level markers on the ports' Capacity Tracks
(map.yaml `port-*`, reconstructed levels), Allied bombardment and naval units placed on a port's
track (digest 10.1 ranks 14, 15 and 21).

A level is a box of the port's track (7.33: "Use the Port Level marker to show the current
capacity"); a port is lowered by Bombardment (13.23d: one level a point of the Bombardment
Table, tables/air-naval.yaml, reconstructed) and naval units (19.15: their strength in levels)
in the Bombardment phase, raised (7.34) or lowered (7.35) one level in the Engineering phase.

Choices:
- A port's change in a phase is judged, at each move of its marker, from where the marker stood
  when the phase began: a move taken back in the same phase is no finding.
- 7.34, 7.35: which player moved a Port Level marker is not in the log, so "friendly port" is
  not judged; the track holds the level between 0 and the port's maximum.
- 13.23: a die is not bound to a port or a bomber, so the phase's Bombardment Table points are
  pooled over the ports bombarded; the +1 of a bomber over strength 2 (13.22, the Bomber
  Effectiveness Table may give an uncertain bomber 3) is allowed whenever an Allied bomber stands
  on a port hex, and not required.  More levels lost than the highest reading allows are reported
  at the move; fewer than the dice without modifier and the naval units require, at the end of
  the Bombardment phase.
- 19.15: a naval unit lowers the port whose track it stands on by its printed support strength
  (S), down to 0; it is placed in the Bombardment phase and returned at its end.
"""
from __future__ import annotations

from validators.games.slouch_hats_and_eggshells.units import Forces
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved, Rolled

BOMB_DIE = "Allied bombardment die"


def is_naval(marker_id: str) -> bool:
    """A naval unit (19.1), not a side's Naval Transport marker."""
    return marker_id.startswith("naval-") and not marker_id.startswith("naval-transport")


class PortLevels(Rule):
    """7.34, 7.35, 13.2, 13.23, 19.15: a port's level rises one box in the Engineering phase, falls
    one there, or falls in the Bombardment phase by the Allied bombers' Bombardment Table points
    and the strength of the naval units put on its track; never otherwise."""

    ids = ("7.34", "7.35", "13.2", "13.23", "19.15")
    needs = (Forces,)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.forces = self.ctx.get(Forces)
        air = self.tables.get("air-naval", {})
        self.bomb_table = air.get("bombardment", [])
        self.bomb_drm = int(air.get("bombardment_drm", {}).get("support_strength_over_2", 1))
        hex_of = {p.name: p.hex for p in self.game.map.places}
        self.tracks: dict[str, tuple[str, list[str], str | None]] = {}  # marker id -> (track, boxes, port hex)
        for tid, t in self.game.tracks.items():
            if tid.startswith("port-"):
                self.tracks[tid] = (tid, list(t.boxes), hex_of.get(t.name.removesuffix(" port")))
        self.port_hexes = {h for _, _, h in self.tracks.values() if h}
        self._navals: list[str] | None = None  # the naval units' marker ids
        self.rep = self.state.reconstructed("air-naval")
        self._reset()

    def _reset(self) -> None:
        self._start: dict[str, int] = {}  # port marker -> its level (box index) when the phase began
        self._points = [0, 0]  # the phase's Bombardment Table points: without, with the bombers' DRM
        self._dice = 0
        self._bombed: set[str] = set()  # port hexes an Allied bomber stood on at a roll

    def phase_started(self, pid: str) -> None:
        self._reset()

    def _level(self, mid: str, label: str) -> int | None:
        track, boxes, _ = self.tracks[mid]
        box = self.board.track_boxes(track).get(label)
        return boxes.index(box) if box in boxes else None

    def _naval_on(self, mid: str) -> list:
        """The naval units standing on this port's track, and their support strengths."""
        zones, board = self.board.track_boxes(self.tracks[mid][0]), self.board
        if self._navals is None:  # the naval units are one-off markers: found once
            self._navals = [m for m in self.game.markers if is_naval(m)]
        found = [board.marker(m) for m in self._navals]
        return [(p, self.forces.air_support(p)) for p in found if p is not None and board.where(p) in zones]

    def _bombers(self) -> list:
        """The Allied bombers standing on a port hex."""
        forces, out = self.forces, []
        for h in sorted(self.port_hexes):
            out += [p for p in self.board.pieces_in(h) if forces.is_bomber(p) and forces.air_side(p) == "allied"]
        return out

    def _table(self, die: int) -> int:
        top = max((int(r["max"]) for r in self.bomb_table), default=6)
        die = min(die, top)
        return next((int(r["points"]) for r in self.bomb_table if int(r["min"]) <= die <= int(r["max"])), 0)

    def rolled(self, e: Rolled) -> None:
        if e.button != BOMB_DIE or not e.dice:
            return
        st, allied = self.state, self.board.side_names.get("allied")
        if st.phase_kind is None:
            return
        if st.phase_kind != "bombardment":
            self.find("13.2", f"a Bombardment Table roll in the {st.phase}: bombardment is made in the Bombardment "
                      "phase", side=allied)
            return
        self._dice += 1
        bombers = self._bombers()
        self._bombed |= {self.board.hex_of(p) for p in bombers}
        if self._dice > len(bombers):
            self.find("13.23", f"Bombardment Table roll number {self._dice} of the {st.phase} with {len(bombers)} "
                      "Allied bomber(s) on a port hex: one roll per bomber", side=allied)
            return
        self._points[0] += self._table(e.dice[0])
        self._points[1] += self._table(e.dice[0] + self.bomb_drm)

    def moved(self, e: Moved) -> None:
        mid = self.forces.marker_id(e.piece)
        st = self.state
        if st.phase_kind is None or e.old.label == e.new.label:
            return
        if is_naval(mid):
            self._naval_moved(e)
        elif mid in self.tracks:
            self._port_moved(e, mid)

    def _naval_moved(self, e: Moved) -> None:
        st = self.state
        on_track = next((m for m, (t, _, _) in self.tracks.items() if e.new.label in self.board.track_boxes(t)), None)
        if on_track is not None and st.phase_kind != "bombardment":
            self.find("19.15", f"{e.piece.name} is put on the {e.new.label} track in the {st.phase}: naval units "
                      "reduce port capacity from the Bombardment phase", e.piece, e.old.label, e.new.label)

    def _port_moved(self, e: Moved, mid: str) -> None:
        st = self.state
        old, new = self._level(mid, e.old.label), self._level(mid, e.new.label)
        if old is None or new is None:
            return
        start = self._start.setdefault(mid, old)
        net, kind, name = new - start, st.phase_kind, e.piece.name
        if net > 0:
            if kind != "engineering":
                self.find("7.34", f"{name} raised in the {st.phase}: a port recovers in the Engineering phase", e.piece,
                          e.old.label, e.new.label)
            elif net > 1:
                self.find("7.34", f"{name} raised {net} levels in the {st.phase}: one level a phase", e.piece,
                          e.old.label, e.new.label)
        elif net < 0:
            if kind == "engineering":
                if net < -1:
                    self.find("7.35", f"{name} lowered {-net} levels in the {st.phase}: demolition lowers one level",
                              e.piece, e.old.label, e.new.label)
            elif kind == "bombardment":
                naval = sum(s for _, s in self._naval_on(mid))
                allowed = naval + self._points[1]
                if -net > allowed:
                    rule = "13.23" if self._dice else "19.15" if naval else "13.2"
                    self.find(rule, f"{name} lowered {-net} levels in the {st.phase}: the Bombardment Table points "
                              f"({self._points[1]} at most, {self._dice} roll(s)) and the naval units on its track "
                              f"(strength {naval}) allow {allowed}{self.rep}", e.piece, e.old.label, e.new.label)
            else:
                self.find("7.35", f"{name} lowered in the {st.phase}: a port's capacity falls by bombardment or naval "
                          "units in the Bombardment phase (13.2, 19.15) or by demolition in the Engineering phase",
                          e.piece, e.old.label, e.new.label)

    def phase_ended(self, pid: str) -> None:
        """19.15, 13.23: at the end of the Bombardment phase the naval units have lowered their port
        by their strength and gone back; the ports together are down by at least the dice's points."""
        if self.state.phase_kind != "bombardment":
            return
        allied, lowered_total, required_naval, room = self.board.side_names.get("allied"), 0, 0, 0
        for mid in sorted(self.tracks):
            p = self.board.marker(mid)
            if p is None:
                continue
            now = self._level(mid, self.board.where(p))
            start = self._start.get(mid, now)
            if now is None or start is None:
                continue
            naval = self._naval_on(mid)
            need = min(start, sum(s for _, s in naval))
            lowered_total += start - now
            if naval or self.tracks[mid][2] in self._bombed:
                room += start
            required_naval += need
            if naval and start - now < need:
                self.find("19.15", f"{p.name} is down {start - now} level(s) at the end of the {self.state.phase}; the "
                          f"naval units on its track ({', '.join(q.name for q, _ in naval)}) lower it by {need}",
                          p, side=allied)
            for q, _ in naval:
                self.find("19.15", f"{q.name} is still on the {self.board.where(q)} track at the end of the "
                          f"{self.state.phase}: a naval unit returns at its end", q, side=allied)
        if self._points[0] and lowered_total < min(room, required_naval + self._points[0]):
            self.find("13.23", f"the ports are down {lowered_total} level(s) at the end of the {self.state.phase}; the "
                      f"Bombardment Table gave at least {self._points[0]} point(s), one level each{self.rep}",
                      side=allied)
