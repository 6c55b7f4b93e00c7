"""The set-up (11.1 with the scenarios' set-up lists 11.2f-h, 11.4e-h, 11.5g-j): digest 10.1
rank 13.

Evidence: where each unit of the scenario card stands, and which face it shows, when play starts.
Play starts when the turn tracker first moves; what players do before (the approach march,
11.1a) is the set-up.  A log whose tracker first moves to anything but phase A or B of the
card's first turn began from a game under way: its set-up is not checked.  Each unit of the card must then stand:

- on its card's box when the card puts it on a track or display (reserves, squadrons);
- within one hex of its card's hex (11.1d: "#" units go on the hex or next to it);
- for the approach march (11.1a, tables/scenario-rules.yaml `setup_latitude`), within 8 hexes of
  the hex the rulebook gives;
  5th Indian Division in Gazala within 5 hexes of Bardia 1527 (11.2h);
- on its reduced face when the card says "-1 step" (11.1c: otherwise full strength).

Choices (false alarms cost more than missed violations):
- The card does not record which units are "#", and it spreads the divisions the text lists on
  one hex over that hex's neighbours; so every unit gets one hex of room.  A non-"#" unit set up
  one hex off is not reported.
- A unit on a CG display, or put on one by the card, is not checked (a CG may be disbanded in
  phase A, 7.33): CGs exist for the approach march (11.1b) and may be
  formed in the Administrative phase (7.32), and the tracker stands at turn 1 phase A before it
  first moves.
- Units the text puts "in the Tobrouk Fortified Camp" are not checked: the camp's hexes are not
  listed (digest O20).
- Units of the card not on the board, the counter set (11.1f) and the minefields are not
  checked; nor the entrenched markers (11.1c): they lie in hexes and name no unit, and a unit
  that marched need not be seen to carry one.
- 11.1a: a unit of an approach march (`approach_march` in `setup_latitude`) that stands off its
  card's hex when play starts has marched: its hex must fit a combination of 7.1 (tables/stacking.yaml,
  as stacking.py reads it) and lie in no enemy ZoC (the designer: the march "cannot bring you into
  contact with the enemy"; contact read as 4.2e's, an enemy ZoC).  Units on their card's hex are
  not judged (the card may put them in contact).
"""
from __future__ import annotations

from builder.model.stacking import StackingCombinations, unit_attrs
from validators.games.tobrouk_41_42.units import TobroukRule
from validators.replay.replayer import TurnChanged

DEFAULT_ROOM = 1  # 11.1d and the card's spreading of divisions (see Choices)


class SetUp(TobroukRule):
    """11.1: when play starts each unit of the scenario card stands where the card puts it (within a
    hex, or the approach march's latitude), on the face it gives."""

    ids = ("11.1",)

    def start(self) -> None:
        self.setup_checked = False

    def tracker_moving(self, e: TurnChanged) -> None:
        if not self.setup_checked:
            self.setup_checked = True
            card = self.game.scenarios.get(self.state.scenario or "")
            if card is not None and e.turn == card.first_turn and e.phase_index in (0, 1):
                self._check_setup()

    def _latitude(self) -> dict[str, dict]:
        """unit id -> its setup_latitude entry (a Gazala hypothetical card uses Gazala's)."""
        rules = self.tables.get("scenario-rules", {})
        sc = rules.get(self.state.scenario or "", {})
        entries = sc.get("setup_latitude") or rules.get(sc.get("same_as", ""), {}).get("setup_latitude", [])
        return {u: entry for entry in entries for u in entry["units"]}

    def _check_setup(self) -> None:
        card = self.game.scenarios.get(self.state.scenario or "")
        if card is None:
            return
        room = self._latitude()
        cg_boxes = self.track_boxes("cg")
        placed = {u.unit: u for u in card.units}
        rule = card.rule or "11"
        marched: dict[str, str] = {}  # hex -> the side of a unit that marched there (11.1a)
        for p in list(self.replayer.board.pieces.values()):
            u = self.unit_of(p)
            if u is None or u.id not in placed:
                continue
            where = placed[u.id]
            at = self.replayer.piece_where(p).label
            side = self.side_of(p)
            if bool(where.reduced) != self.reduced(p):
                face = "reduced" if where.reduced else "full"
                self.find("11.1", f"set-up: {p.name} starts on its {face} face by the {self.state.scenario} card ({rule}), "
                          "not on the face it shows", p, None, at, side=side)
            if where.track == "cg":  # the card's CG may be disbanded in phase A (7.33, A-3)
                continue
            if where.track:
                box = self.game.zone_name(where.track, where.box)
                if at != box:
                    self.find("11.1", f"set-up: {p.name} starts in '{box}' by the {self.state.scenario} card ({rule}), "
                              f"not in {at}", p, None, at, side=side)
                continue
            if not where.hex:
                continue
            entry = room.get(u.id)
            if entry and entry.get("anywhere_in"):
                continue
            if at in cg_boxes:  # 11.1b, 7.32: see Choices
                continue
            origin, within = (entry["from"], int(entry["within"])) if entry else (where.hex, DEFAULT_ROOM)
            here = self.hex_of(p)
            if entry and entry.get("approach_march") and here is not None and here != where.hex:
                marched.setdefault(here, self.side_id(p))
            if here is not None and self.geo.distance(origin, here) <= within:
                continue
            how = (f"within {within} hexes of {origin} ({entry['rule']})" if entry
                   else f"in {where.hex} or next to it ({rule}, 11.1d)")
            self.find("11.1", f"set-up: {p.name} stands in {at} when play starts; the {self.state.scenario} card puts it "
                      f"{how}", p, where.hex, at, side=side)
        self._check_march(marched, rule)

    def _check_march(self, marched: dict[str, str], rule: str) -> None:
        """11.1a: the approach march keeps the stacking limits and ends out of contact (see Choices)."""
        combos = StackingCombinations.from_data(self.game.table("stacking").data)
        for h, side in sorted(marched.items()):
            cu = self.combat_units(h, side)
            name = self.side_names[side]
            if len(cu) > 1 and not self.retreating(h) and not combos.fits(
                    [unit_attrs(self.game, self.unit_of(p), self.reduced(p)) for p in cu]):
                self.find("11.1", f"set-up: the approach march leaves {h} holding {', '.join(p.name for p in cu)}: "
                          "beyond the stacking limits (11.1a, 7.1)", None, None, h, side=name)
            if h in self.enemy_zoc(side):
                self.find("11.1", f"set-up: the approach march ends in {h}, in contact with the enemy (an enemy ZoC): "
                          "the march cannot bring units into contact (11.1a, designer)", None, None, h, side=name)
