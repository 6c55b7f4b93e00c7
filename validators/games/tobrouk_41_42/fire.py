"""Fire (5.1-5.12) and morale checks (6.2): digest 10.1 ranks 1, 2 and 8.

How a shot shows in a log made with the module: in a combat phase (C or E) the firing player
uses **Declare firer** on the unit that fires ("Fire: NAME fires from HEX"), **Declare target**
on the unit it fires at ("Fire: target NAME in HEX"), **Coordinated fire** on the firer when the
shot is coordinated (5.3), then rolls his "<Side> fire 1d6".  The hit markers (T, T1, T2) he
places in the target's hex after the die, before the next shot, are the shot's result: judged
when the next shot is declared (or the phase ends), a wrong one is reported where its last marker
was placed, a missing one then.

At the die: fire only in a combat phase, by the firer's side, at an enemy in an adjacent hex,
never across a cliff (5.1, 5.1d); each CU fires once a combat phase (5.1); an entrenched or a
retreating unit does not fire offensively (5.10c, 5.12a); defensive fire does not target an
entrenched unit that did not fire offensively (5.10, Q&A 7-8: judged when the phase ends, reported
at the shot).  The expected result comes from
the Universal Fire Table (tables/fire.yaml, reconstructed): column = the firer's AP strength
against an unarmoured target, its AT strength against an armoured one (5.1), shifted by CR -1,
RE -2, coordinated +1, firer retreating -2, firer in rapid movement -1, target in rapid movement
+1, +1 per artillery marker in the target's hex (at most 2; a squadron of the maneuvering side on
the hex +1 more, 5.5f'), AT fire on fragile armour +2; the
die modified by target entrenched -1, city -1, Halfaya Pass -2, a crest, escarpment or wadi
between -1, a light / heavy minefield between -1 / -2 for offensive fire, difficult terrain -1,
and -1 per letter the target's weapon is better (entrenched infantry one letter better, 5.2).

Choices:
- "Offensive fire" is the fire of the side whose maneuver the combat phase follows (C: the
  active player, D: the reactive player); "the active player's fire" of 5.9 is read the same way.
- 5.8c: an escarpment between the units counts whichever side is the higher (the map data has
  no high side).
- 12.3 (optional): a shot fired from Rommel's hex may have his +2 to the die, once per combat
  phase: its markers are taken as the result with it when they match that and not the other.
- 5.2d: an artillery CU fired at that moved in the preceding maneuver (the maneuver phase just
  ended: B before C, D before E; its move ending away from where it began) gives the firer no
  weapon-priority penalty.
- 5.3 (digest O23): coordinating units are units of one division (Formation) or one hex, of one
  nationality, not retreating; Commonwealth armour coordinates only with armour.  A shot
  declared coordinated with no such partner firing at its target is reported when the phase ends.
- Crusader (11.4b): fire through the Tobrouk Fortified Camp's minefield is 2 columns left
  instead of the minefield's die modifier.
- 6.2: a morale roll ("<Side> morale 2d6") tests the unit whose hex next loses a hit marker (a
  pass) or gets a Retreat marker (a failure); it is checked when that hex holds one combat unit
  of the roller's side; where the hex holds several (the roll does not name its unit, nor whose
  T markers are whose), it is judged only when the roll passes for all of them with every T
  marker counted, or fails for all with none beyond the first.  Modifiers: +1 per T marker
  beyond the first, -1 entrenched, +1 CR, +1 RE (digest O10, as the table), +1 already retreating;
  optional 6.22f (-1 for an Axis unit with or next to the Afrika Korps HQ) may or may not be in
  use: a failure is judged with it, a pass without it.  A unit that leaves its hex after a
  failure surrendered (6.4a, 6.4c: the yellow morale is not in the counters' data): no finding.
"""
from __future__ import annotations

from validators.games.tobrouk_41_42.artillery import ArtilleryMarkers
from validators.games.tobrouk_41_42.state import COMBATS, FIRE, MANEUVERS
from validators.games.tobrouk_41_42.movement import Moves
from validators.games.tobrouk_41_42.units import HITS, TobroukRule, Units, left_map, mid
from validators.kernel.declarations import Declared
from builder.record import Record
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed, Rolled

LETTERS = "ABCD"


def fire_side(rule: TobroukRule, e: Rolled, kind: str) -> str | None:
    """The side id of a "<Side> fire 1d6" / "<Side> morale 2d6" roll."""
    return rule.side_ids.get(e.button.split(" ")[0]) if " " in e.button and e.button.endswith(kind) else None


class Shot(Record):
    """One unit's fire: who fires at whom, and what the die and the markers said (a plain record:
    builder/record.py says why not a dataclass)."""

    __slots__ = ("firer", "firer_hex", "target", "target_hex", "coordinated", "expected", "rommel", "why",
                 "placed", "placed_at")

    def __init__(self, firer: Piece | None = None, firer_hex: str | None = None, target: Piece | None = None,
                 target_hex: str | None = None, coordinated: bool = False, expected: str | None = None,
                 rommel: str | None = None, why: str = "", placed: list[str] | None = None,
                 placed_at: int | None = None):
        self.firer, self.firer_hex, self.target, self.target_hex = firer, firer_hex, target, target_hex
        self.coordinated = coordinated
        self.expected = expected  # '-', 'T', 'T1', 'T2' once rolled
        self.rommel = rommel  # the result with Rommel's +2 (12.3), when he may give it to this shot
        self.why = why
        self.placed = [] if placed is None else placed  # hit markers put in the target's hex after the die
        self.placed_at = placed_at  # the step of the last of them (the act a wrong result is reported at)


class MoraleRoll(Record):
    """A side's morale roll and how the markers answered it (a plain record, as `Shot`)."""

    __slots__ = ("side", "total", "hexes", "hex", "passed", "at")

    def __init__(self, side: str, total: int, hexes: dict, hex: str | None = None, passed: bool = True,
                 at: int | None = None):
        self.side, self.total = side, total
        self.hexes = hexes  # hex -> (units, modifier, why) as they stood at the roll
        self.hex = hex  # the hex whose markers answered the roll
        self.passed = passed
        self.at = at  # the step of the answer (the T taken off, a Retreat marker put down): the act


class Fire(TobroukRule):
    """5.1, 5.3, 5.10, 5.12: each CU fires once a combat phase, at an adjacent enemy and not across a
    cliff, not offensively when entrenched or retreating; the hit markers placed are the Universal
    Fire Table's result (weapon priority 5.2, fragile armour 5.6, terrain 5.8, minefields 5.9 and the
    other shifts and modifiers); a coordinated shot has a partner firing at the same target."""

    covers = ("5.2", "5.6", "5.8", "5.9")
    acts_in = {"unit_step": ()}  # its `moved` reads markers, and units coming or going

    @classmethod
    def ids_in(cls, game) -> tuple[str, ...]:
        table = game.tables["fire"].data.get("rule", "5.1").split(",")[0] if "fire" in game.tables else "5.1"
        return tuple(dict.fromkeys(("5.1", "5.3", "5.10", "5.12", table)))

    needs = (Units, Moves, ArtilleryMarkers)

    def start(self) -> None:
        self.ft = self.tables["fire"]
        self.arty = self.ctx.get(ArtilleryMarkers)
        self.moves = self.ctx.get(Moves)
        rommel = self.tables.get("optional", {}).get("switches", {}).get("rommel", {})
        self.rommel_unit, self.rommel_drm = rommel.get("unit"), int(rommel.get("fire_drm", 2))
        self.shot: Shot | None = None
        super().start()

    def new_phase(self) -> None:
        self.shots: list[Shot] = []  # the combat phase's shots that were rolled
        self.fired: set[str] = set()
        self.fired_offensively: set[str] = set()  # every unit whose offensive shot was rolled, allowed or not
        self.rommel_used = False  # 12.3: his +2 given to a shot of this combat phase
        self.at_entrenched: list[tuple[Shot, int]] = []  # defensive shots at an entrenched unit, and their steps
        self._undeclared = False

    def phase_ended(self, pid: str) -> None:
        self._close()
        if pid in COMBATS:
            self._check_coordination()
            self._check_at_entrenched()

    def finish(self) -> None:
        self._close()
        self._check_at_entrenched()

    def declared(self, d: Declared) -> None:
        role, piece, hex_id = FIRE[d.name], d.piece, d.where
        if role == "firer":
            self._close()
            self.shot = Shot(piece, hex_id)
        elif role == "target":
            if self.shot is None or self.shot.expected is not None:
                self._close()
                self.shot = Shot()
            self.shot.target, self.shot.target_hex = piece, hex_id
        elif role == "coordinated" and self.shot is not None and self.shot.firer is not None \
                and self.shot.firer.id == piece.id:
            self.shot.coordinated = True

    def rolled(self, e: Rolled) -> None:
        side = fire_side(self, e, " fire 1d6")
        if side and e.dice:
            self._fire_die(e, side)
        elif fire_side(self, e, " morale 2d6") and len(e.dice) == 2 and self.state.phase_id in COMBATS + MANEUVERS:
            self._close()  # the morale checks come after the shot

    def _fire_die(self, e: Rolled, side: str) -> None:
        name = self.side_names[side]
        if self.state.phase_id not in COMBATS:
            self.find("5.1", f"a fire die in the {self.state.phase}: every CU fires in a combat phase (C, E)", side=name)
            return
        shot = self.shot
        if shot is None or shot.firer is None or shot.target is None or shot.expected is not None:
            if shot is not None and shot.expected is not None:
                self._close()
            if not self._undeclared:
                self._undeclared = True
                self.find("5.1", f"{e.button} rolled with no firer and target declared (Declare firer, Declare "
                          "target): the shot cannot be checked", side=name)
            return
        if side == self.maneuvering():
            self.fired_offensively.add(shot.firer.id)
        if not self._eligible(shot, side):
            shot.expected = "?"
            return
        if side != self.maneuvering() and self.markers_in(shot.target_hex, "entrenched") \
                and shot.target.id not in self.fired_offensively:
            self.fired.add(shot.firer.id)  # judged when the phase ends: the target may yet fire offensively
            self.at_entrenched.append((shot, self.state.step))
            shot.expected = "?"
            return
        self.fired.add(shot.firer.id)
        self.shots.append(shot)
        shot.expected, shot.why = self._result(shot, side, e.dice[0])
        if self._rommel_may_help(shot):
            shot.rommel = self._result(shot, side, e.dice[0] + self.rommel_drm)[0]

    def _eligible(self, shot: Shot, side: str) -> bool:
        f, t, fh, th = shot.firer, shot.target, shot.firer_hex, shot.target_hex
        name, offensive = self.side_names[side], side == self.maneuvering()
        for number, broken, why in (
                ("5.1", lambda: self.side_id(f) != side or self.side_id(t) == side,
                 f"a {name} die for {f.name} at {t.name}: each player fires his own units at enemy units"),
                ("5.1", lambda: not self.geo.adjacent(fh, th), f"{f.name} in {fh} fires at {t.name} in {th}: a CU "
                 "fires only at an enemy in one of the six adjacent hexes"),
                ("5.1", lambda: "cliff" in self.crossing(fh, th),
                 f"{f.name} fires across the cliff between {fh} and {th}: no fire across a cliff (5.1d)"),
                ("5.1", lambda: f.id in self.fired, f"{f.name} already fired in this combat phase: each CU fires once"),
                ("5.10", lambda: offensive and self.markers_in(fh, "entrenched"), f"{f.name} is entrenched in {fh}: it "
                 "fires offensively only after removing its entrenchment marker"),
                ("5.12", lambda: offensive and self.retreating(fh),
                 f"{f.name} is retreating: a retreating unit fires only defensively")):
            if broken():
                self.find(number, why, f, fh, th, side=name)
                return False
        return True

    def _result(self, shot: Shot, side: str, die: int) -> tuple[str, str]:
        f, t, fh, th = shot.firer, shot.target, shot.firer_hex, shot.target_hex
        fu, tu = self.unit_of(f), self.unit_of(t)
        cs, dm = self.ft["column_shifts"], self.ft["die_modifiers"]
        offensive = side == self.maneuvering()
        armoured = tu.armoured
        kind = "AT" if armoured else "AP"
        strength = self.value(fu, f, "at" if armoured else "ap") or 0
        parts: list[str] = [f"{kind} {strength}"]
        column = strength

        def shift(key: str, n: int = 1) -> None:
            nonlocal column
            v = int(cs[key]["shift"]) * n
            column += v
            parts.append(f"{key.replace('_', ' ')} {v:+d}")
        re_, retreating = self.markers_in(fh, "re"), self.retreating(fh)
        for key, on in (("out_of_supply_firer", re_), ("unsupplied_firer", not re_ and self.markers_in(fh, "cr")),
                        ("coordinated", shot.coordinated and not retreating), ("firer_retreating", retreating),
                        ("firer_rapid_movement", self.markers_in(fh, "rapid")),
                        ("target_rapid_movement", self.markers_in(th, "rapid"))):
            if on:
                shift(key)
        arty = sum(1 for q in self.pieces_in(th)  # 5.4d-e, Q&A 9: its HQ out of range, no support
                   if self.arty.is_marker(q) and self.arty.in_range(q, th))
        arty = min(arty, int(cs["artillery_marker"]["max_markers"]))
        arty += sum(1 for q in self.units_in(th) if (qu := self.unit_of(q)) is not None and qu.type == "air"
                    and self.side_id(q) == side and offensive)  # 5.5f': a squadron on its target, outside 5.4g
        if arty:
            shift("artillery_marker", arty)
        fragile = tu.fragile_reduced if self.reduced(t) else tu.fragile
        if armoured and fragile:
            shift("at_fire_on_fragile")
        between = self.crossing(fh, th)
        camp = self.state.scenario == "crusader" and "camp" in between and offensive
        if camp:
            shift("crusader_camp_minefield")
        drm, dparts = 0, []

        def mod(key: str, v: int) -> None:
            nonlocal drm
            drm += v
            dparts.append(f"{key.replace('_', ' ')} {v:+d}")
        entrenched = self.markers_in(th, "entrenched") > 0
        if entrenched:
            mod("target_entrenched", int(dm["target_entrenched"]["drm"]))
        for key, on in (("target_in_city", th in dm["target_in_city"]["hexes"]),
                        ("target_in_halfaya_pass", th in dm["target_in_halfaya_pass"]["hexes"]),
                        ("behind_crest_escarpment_wadi", between & set(dm["behind_crest_escarpment_wadi"]["features"])),
                        ("behind_light_minefield", offensive and dm["behind_light_minefield"]["feature"] in between),
                        ("behind_heavy_minefield",
                         offensive and not camp and between & set(dm["behind_heavy_minefield"]["features"])),
                        ("target_in_difficult_terrain", self.game.hex_terrain.get(th) == "difficult")):
            if on:
                mod(key, int(dm[key]["drm"]))
        tw = tu.weapon
        if tw and entrenched and tu.type == "infantry" and tw != "A":
            tw = LETTERS[LETTERS.index(tw) - 1]
        moved_artillery = tu.type == "artillery" and t.id in self.moves.moved_last  # 5.2d
        if moved_artillery:
            dparts.append("moved artillery: no weapon priority (5.2d)")
        elif tw and fu.weapon and LETTERS.index(tw) < LETTERS.index(fu.weapon):
            mod("weapon_priority", int(dm["weapon_priority"]["drm_per_letter"]) * (LETTERS.index(fu.weapon) - LETTERS.index(tw)))
        columns = [int(c) for c in self.ft["columns"]]
        col = min(max(column, columns[0]), columns[-1])
        modified = die + drm
        row = min(max(modified, 0), len(self.ft["die"]) - 1)
        result = self.ft["results"][str(col)][row]
        why = (f"column {col} ({', '.join(parts)}), die {die}{' ' + ', '.join(dparts) if dparts else ''} = {modified}")
        return result, why

    def _rommel_may_help(self, shot: Shot) -> bool:
        """12.3: once per maneuver, Rommel stacked with a CU gives its shot +2 (a combat phase
        follows one maneuver: once per combat phase)."""
        return self.rommel_unit is not None and not self.rommel_used and any(
            (u := self.unit_of(q)) is not None and u.id == self.rommel_unit for q in self.pieces_in(shot.firer_hex))

    def _check_at_entrenched(self) -> None:
        """5.10c, Q&A 8: no defensive fire at a unit that remained entrenched instead of firing
        offensively; a target that fired offensively in the phase (its shot allowed or not, its
        marker still there or not, before or after this shot: fire is simultaneous, 5.1a') may be
        fired at (Q&A 7)."""
        for shot, step in self.at_entrenched:
            if shot.target.id not in self.fired_offensively:
                self.find("5.10", f"defensive fire at {shot.target.name}, entrenched in {shot.target_hex} and not having "
                          "fired offensively: not allowed (5.10c, Q&A 8)", shot.firer, shot.firer_hex, shot.target_hex,
                          side=self.side_of(shot.firer), at=step)

    def _partners(self, a: Shot, b: Shot) -> bool:
        """Whether b's firer may coordinate with a's: same target, same division or hex, same
        nationality, not retreating, and (Commonwealth) armour with armour only."""
        if b is a or b.target.id != a.target.id or b.firer.id == a.firer.id or self.retreating(b.firer_hex):
            return False
        pa, pb = a.firer.properties(), b.firer.properties()
        if pa.get("Formation") != pb.get("Formation") and a.firer_hex != b.firer_hex:
            return False
        if pa.get("Nationality") != pb.get("Nationality"):
            return False
        ua, ub = self.unit_of(a.firer), self.unit_of(b.firer)
        return self.side_id(a.firer) != "commonwealth" or ua.armoured == ub.armoured

    def _check_coordination(self) -> None:
        for shot in self.shots:
            if shot.coordinated and not any(self._partners(shot, other) for other in self.shots):
                self.find("5.3", f"{shot.firer.name} ({shot.firer_hex}) coordinated its fire at {shot.target.name} "
                          "with no partner: another non-retreating unit of its division or hex, of its nationality "
                          "(Commonwealth: armour with armour), must fire at the same target", shot.firer,
                          shot.firer_hex, shot.target_hex, side=self.side_of(shot.firer))

    def added(self, e: Added) -> None:
        self._marker_arrived(e.piece, e.where.label)

    def moved(self, e: Moved) -> None:
        if e.old.label != e.new.label:
            self._marker_arrived(e.piece, e.new.label)

    def _marker_arrived(self, p: Piece, hex_id: str) -> None:
        mid = p.properties().get("MarkerId", "")
        shot = self.shot
        if mid in HITS and shot is not None and shot.expected not in (None, "?") and hex_id == shot.target_hex:
            shot.placed.append(mid.upper())
            shot.placed_at = self.state.step

    def _close(self) -> None:
        shot, self.shot = self.shot, None
        if shot is None or shot.expected in (None, "?"):
            return
        want = [] if shot.expected == "-" else [shot.expected]
        if sorted(shot.placed) != want and shot.rommel is not None \
                and sorted(shot.placed) == ([] if shot.rommel == "-" else [shot.rommel]):
            self.rommel_used = True  # the result with Rommel's +2 (12.3)
            return
        if sorted(shot.placed) != want:
            got = ", ".join(shot.placed) or "no hit marker"
            self.find(self.ft.get("rule", "5.1").split(",")[0], f"{shot.firer.name} ({shot.firer_hex}) at "
                      f"{shot.target.name} ({shot.target_hex}): the Universal Fire Table gives {shot.expected} "
                      f"({shot.why}); {got} placed{self.reconstructed('fire')}", shot.firer, shot.firer_hex,
                      shot.target_hex, side=self.side_of(shot.firer), at=shot.placed_at)  # a missing marker: at the close


class Morale(TobroukRule):
    """6.2: a morale roll passes when 2d6 plus its modifiers is at most the unit's morale: a pass takes
    the T marker off, a failure puts a Retreat marker in its place."""

    ids = ("6.2",)
    acts_in = {"unit_step": ()}

    def start(self) -> None:
        self.morale_t = self.tables["morale"]
        self.morale_roll: MoraleRoll | None = None

    def phase_ended(self, pid: str) -> None:
        self._settle_morale()

    def finish(self) -> None:
        self._settle_morale()

    def rolled(self, e: Rolled) -> None:
        side = fire_side(self, e, " morale 2d6")
        if side and len(e.dice) == 2:
            self._morale_die(e, side)

    def added(self, e: Added) -> None:
        if mid(e.piece) == "retreat":
            self._morale_outcome(e.where.label, passed=False)

    def moved(self, e: Moved | Removed) -> None:
        if (gone := left_map(e, self.hexes)) is not None and mid(e.piece) in HITS:
            self._morale_outcome(gone, passed=True)  # deleted or dragged to the Markers box: a pass
        if isinstance(e, Moved) and e.old.label != e.new.label and mid(e.piece) == "retreat":
            self._morale_outcome(e.new.label, passed=False)

    removed = moved

    def _morale_die(self, e: Rolled, side: str) -> None:
        name = self.side_names[side]
        if self.state.phase_id not in COMBATS + MANEUVERS:
            self.find("6.2", f"a morale roll in the {self.state.phase}: morale is checked after the fire (C, E) or an air "
                      "strike (B, D)", side=name)
            return
        self._settle_morale()
        hexes = {}
        mods = self.morale_t["modifiers"]
        for h, ps in self.by_hex().items():
            n = sum(1 for p in ps if p.properties().get("MarkerId") in HITS)
            units = [p for p in ps if self.is_cu(p) and self.side_id(p) == side]
            if not n or not units:
                continue
            drm, why = 0, []
            for key, cond in (("extra_t_marker", n - 1), ("entrenched", self.markers_in(h, "entrenched") > 0),
                              ("unsupplied", self.markers_in(h, "cr") > 0), ("out_of_supply", self.markers_in(h, "re") > 0),
                              ("retreating", self.retreating(h))):
                if cond:
                    v = int(mods[key]["drm"]) * (int(cond) if key == "extra_t_marker" else 1)
                    drm += v
                    why.append(f"{key.replace('_', ' ')} {v:+d}")
            extra = int(mods["extra_t_marker"]["drm"]) * (n - 1) if len(units) > 1 else 0  # whose T markers: not said
            if side == "axis" and "afrika_korps" in mods and self._near_ak(h):
                extra -= int(mods["afrika_korps"]["drm"])  # 6.22f (optional): with or next to the AK HQ, if in use
            hexes[h] = (units, drm, why, extra)
        self.morale_roll = MoraleRoll(side, sum(e.dice), hexes)

    def _morale_outcome(self, hex_id: str, passed: bool) -> None:
        """A hit marker leaving a tested hex is a pass, unless a Retreat marker arrives there before
        the roll is settled (the next morale roll, the end of the phase); a wrong answer is reported
        at the step it was given (issue 31: at the act, not when the roll is settled)."""
        roll = self.morale_roll
        if roll is None or hex_id not in roll.hexes:
            return
        if roll.hex is None:
            roll.hex, roll.passed, roll.at = hex_id, passed, self.state.step
        elif roll.hex == hex_id and not passed:
            roll.passed, roll.at = False, self.state.step

    def _near_ak(self, hex_id: str) -> bool:
        ak = self.unit_piece_on_map("hq-ak")
        return ak is not None and self.geo.distance(self.hex_of(ak), hex_id) <= 1

    def _settle_morale(self) -> None:
        roll, self.morale_roll = self.morale_roll, None
        if roll is None or roll.hex is None:
            return
        units, drm, why, extra = roll.hexes[roll.hex]
        total = roll.total + drm
        morales = [m for p in units if (m := self.value(self.unit_of(p), p, "morale")) is not None]
        if len(morales) != len(units):
            return
        board = self.replayer.board.pieces
        if roll.passed and any(board.get(p.id) is None or self.hex_of(board[p.id]) != roll.hex for p in units):
            return  # a unit gone from the hex: a surrender (6.4a, 6.4c) answers a failure too
        if all(total <= m for m in morales):
            should = True
        elif all(total - extra > m for m in morales):  # fails even if the hex's T markers were shared out
            should = False
        else:
            return  # which unit rolled is not said: judged only when every reading gives the same verdict
        if should != roll.passed:
            p = units[0]
            morale = "/".join(str(self.value(self.unit_of(q), q, "morale")) for q in units)
            who = p.name if len(units) == 1 else f"whichever of {', '.join(q.name for q in units)}"
            detail = f"2d6 {roll.total}{' ' + ', '.join(why) if why else ''} = {total} vs morale {morale}"
            verdict = ("passes: the T marker is removed, no Retreat marker" if should
                       else "fails: a Retreat marker replaces the T (6.21)")
            self.find("6.2", f"morale check of {who} in {roll.hex}: {detail} {verdict}", p, None, roll.hex,
                      side=self.side_names[roll.side], at=roll.at)  # judged once settled, reported at the act
