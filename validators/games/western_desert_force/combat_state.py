"""Western Desert Force combat: the record of one combat and each side's final Combat Strength.

Final CS (10.11-10.13, 11.0), worked out when the first die of a combat is rolled (the
moment of resolution, 8.0 item 4) from tables/combat.yaml:

1. each unit's printed CS, full or reduced face (units.yaml cs / cs_reduced);
2. unit modifiers, plus and minus together, the -2 for no AP or out of AP range first
   (10.3, 10.31): terrain, hexsides attacked across, Improved Position (11.1, 11.2, 12.3, 16.2);
3. never below 0 (10.12);
4. halved, rounded up, when the unit is out of supply (8.2, 10.32);
5. stack modifiers per hex: rough or salt marsh, division integrity (10.13, 10.5, 10.51).

Leaders add their attack or defence value as leader dice (13.3) and air and naval ground
support add support dice (14.1, 15.0): separate groups, checked apart from the units' dice.
A unit that retreated into a hex attacked later in the phase adds nothing (10.26).
"""
from __future__ import annotations

from collections import Counter
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)

from builder.geometry.hexmap import hexside_key
from validators.games.western_desert_force.supply import Supply
from validators.kernel.combat import Combat
from validators.kernel.movement import Blocked, TerrainChart
from validators.kernel.rule import Tracker
from builder.record import Record
from validators.replay.board import Piece

if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s


class UnitCS(Record):
    """One unit's final Combat Strength and how it came (10.11-10.13)."""

    __slots__ = ("piece", "name", "hex", "printed", "mods", "unsupplied", "final", "hit_on")

    def __init__(self, piece: str, name: str, hex: str, printed: int, mods: list[tuple[int, str]], unsupplied: bool,
                 final: int, hit_on: int):
        self.piece, self.name, self.hex, self.printed, self.mods = piece, name, hex, printed, mods
        self.unsupplied, self.final, self.hit_on = unsupplied, final, hit_on

    def explain(self) -> str:
        text = f"{self.name} {self.printed}" + "".join(f" {v:+d} {why}" for v, why in self.mods)
        return text + (" halved (unsupplied)" if self.unsupplied else "") + f" = {self.final}"


class SideStrength(Record):
    """A side's final Combat Strength in one combat: its units, stack modifiers and leaders."""

    __slots__ = ("units", "stacks", "leaders", "reconstructed")

    def __init__(self, units: list[UnitCS] | None = None, stacks: list[tuple[str, int, str]] | None = None,
                 leaders: dict[str, int] | None = None, reconstructed: bool = False):
        self.units = [] if units is None else units
        self.stacks = [] if stacks is None else stacks  # (hex, value, why)
        self.leaders = {} if leaders is None else leaders  # leader name -> dice
        self.reconstructed = reconstructed  # some value comes from reconstructed sources

    @property
    def total(self) -> int:
        return sum(u.final for u in self.units) + sum(v for _, v, _ in self.stacks)

    def most_dice_hitting_on(self, number: int) -> int:
        """Dice that may hit on `number`: of such units, plus the stack dice of their hexes (Choice, 10.13)."""
        hexes = {u.hex for u in self.units if u.hit_on <= number}
        return sum(u.final for u in self.units if u.hit_on <= number) + sum(v for h, v, _ in self.stacks if h in hexes)

    def leader_dice(self) -> set[int]:
        """13.2, 13.3: one leader's value counts (the player's choice); none without a leader."""
        return set(self.leaders.values()) or {0}

    def explain(self) -> str:
        parts = [u.explain() for u in self.units] + [f"{v:+d} {why} in {h}" for h, v, why in self.stacks]
        return "; ".join(parts) or "no unit"


class DesertCombat(Combat):
    """The kernel's record of a combat, with what this game adds: its phase, the points spent on it,
    each side's final strength, retreats and advances.  Its own fields are set here (the kernel's
    `Combat` sets the others)."""

    __slots__ = ("phase_kind", "ap_spent", "ap_refunded", "asp_spent", "major", "passengers", "strength",
                 "retreat_len", "advances", "overwhelmed", "naval", "reported")

    def __init__(self, number: int, attacker: str, defender: str, *, declared_at: int = 0, phase_kind: str = "combat"):
        super().__init__(number, attacker, defender, declared_at=declared_at)
        self.phase_kind = phase_kind
        self.ap_spent, self.ap_refunded, self.asp_spent = False, False, 0
        self.major = False  # a Major Offensive attack (7.91)
        self.passengers: set[str] = set()  # retreated into a defending hex this phase (10.26)
        self.strength: dict[str, SideStrength] = {}
        self.retreat_len: dict[str, int] = {}  # piece -> hexes retreated
        self.advances: dict[str, list[str]] = {}  # piece -> hexes of its advance, start first
        self.overwhelmed = False
        self.naval = False  # naval ground support used (15.0)
        self.reported: set[tuple] = set()

    @property
    def bombardment_only(self) -> bool:
        return not self.attackers


class CombatView(Tracker):
    """Final CS, hit numbers and the map facts combat needs (terrain, fortress, IP, AP range),
    read from the board."""

    needs = (Supply,)

    def start(self) -> None:
        self.supply = self.ctx.get(Supply)
        self.ct = self.tables.get("combat", {})
        self.unit_classes = self.tables.get("unit-classes", {}).get("types", {})
        self.chart = TerrainChart(self.game) if self.game.table("terrain-effects") else None
        self.points = {}
        if "points" in self.game.tracks:
            self.points = {self.game.zone_name("points", b): int(b) for b in self.game.tracks["points"].boxes}

    # -- map facts ------------------------------------------------------------------------
    def where_label(self, p: Piece) -> str:
        return self.board.replayer.piece_where(p).label

    def fortress_destroyed(self, hex_id: str) -> str | None:
        """The terrain a fortress hex counts as once it lost its status (16.1), else None."""
        for f in self.ct.get("fortresses", ()):
            place = next((pl for pl in self.game.map.places if pl.name == f["place"]), None)
            if place is None or place.hex != hex_id:
                continue
            if f["marker"] not in self.game.markers:
                return None  # no status marker in this game: the fortress stands
            m = self.board.marker(f["marker"])
            if m is None:
                return f["destroyed"]  # its marker was taken off: destroyed (16.1)
            in_box = self.where_label(m) == self.game.zone_name(f["track"], f["box"])
            return None if in_box and m.layer_level("Face") not in f.get("destroyed_faces", ()) else f["destroyed"]
        return None

    def terrain_at(self, hex_id: str) -> str:
        t = self.game.hex_terrain.get(hex_id, "")
        return (self.fortress_destroyed(hex_id) or t) if t == "fortress" else t

    def features(self, a: str, b: str) -> frozenset[str]:
        return self.game.hexside_features.get(hexside_key(a, b), frozenset())

    def ip_over(self, p: Piece) -> Piece | None:
        """The IP marker above a unit in its stack, if any (12.2: the units under it are in the IP)."""
        board = self.board.replayer.board
        stack = board.stacks.get(p.stack or "")
        if stack is None or p.id not in stack.children:
            return None
        marker = self.ct.get("improved_positions", {}).get("marker", "ip")
        return next((q for i in stack.children[stack.children.index(p.id) + 1:]
                     if (q := board.pieces.get(i)) is not None and q.properties().get("MarkerId") == marker), None)

    def ip_level(self, p: Piece) -> int:
        """12.2: 0 out of an IP, else the IP marker's face (1: IP-1, 2: IP-2)."""
        m = self.ip_over(p)
        return max(1, m.layer_level(self.ct.get("improved_positions", {}).get("layer", "Face"))) if m else 0

    def blocked_step(self, unit: s.Unit | None, a: str, b: str) -> str | None:
        """Why terrain prohibits a unit from moving a -> b (11.1, 11.2), from the Terrain Effects Chart."""
        if self.chart is None or unit is None:
            return None
        cls = self.unit_classes.get(unit.type, {}).get("movement_class", "other")
        found = self.chart.step(a, b, cls)
        return f"{found.why} ({found.rule})" if isinstance(found, Blocked) else None

    def attrs(self, unit: s.Unit) -> dict[str, object]:
        return {"nationality": self.game.formations[unit.formation].nationality, "type": unit.type,
                "size": unit.size, "formation": unit.formation}

    @staticmethod
    def matches(rule: dict, attrs: dict) -> bool:
        return all(attrs.get(k) == v for k, v in rule.items() if k in ("nationality", "type", "size", "formation"))

    # -- leaders and attack points ----------------------------------------------------------
    def leader_face(self, p: Piece) -> s.LeaderFace | None:
        ld = self.board.leader_of(p)
        if ld is None:
            return None
        return ld.faces[min(len(ld.faces), max(1, p.layer_level("Leader") or 1)) - 1]

    def leaders_in(self, hex_id: str, side: str) -> list[Piece]:
        name = self.game.sides[side].name
        return [p for p in self.board.pieces_in(hex_id) if self.board.leader_of(p) is not None and self.board.side_of(p) == name]

    def in_ap_range(self, hex_id: str, side: str) -> bool:
        """10.31, 13.5: within 4 hexes of the depot, or of a leader's AP range (with the depot or the unit)."""
        ap = self.ct["attack_points"]
        depot = self.board.marker(ap["depots"][side])
        home = self.board.hex_of(depot) if depot else None
        if home is None:
            return False
        reach = max([ap["range"]] + [f.range for q in self.leaders_in(home, side) if (f := self.leader_face(q))])
        d = self.game.geometry.distance(home, hex_id)
        return d <= reach or any(d <= f.range for q in self.leaders_in(hex_id, side) if (f := self.leader_face(q)))

    def major_offensive(self, side: str) -> bool:
        """7.9: the side's marker shows its Major Offensive face (tables/movement.yaml)."""
        spec = self.tables["movement"]["major_offensive"]
        p = self.board.marker(spec["markers"][side])
        return p is not None and p.layer_level(spec["layer"]) == spec["level"]

    # -- hit numbers and strengths ------------------------------------------------------------
    def hit_on(self, c: DesertCombat, p: Piece, unit: s.Unit, hex_id: str, attacking: bool) -> int:
        """10.21, 12.3, 16.2: the lowest die that hits for this unit (Choices in tables/combat.yaml)."""
        h = self.ct["hit_on"]
        a = self.attrs(unit)
        fortress = [d for d in c.attacked_hexes if self.terrain_at(d) == "fortress"]
        if attacking and fortress:
            return h["fortress"]["attacker"]
        best = [h["normal"]] + ([h["major_offensive"]] if c.major else [])
        best += [r["hit_on"] for r in h["attacking" if attacking else "defending"] if self.matches(r, a)]
        if not attacking:
            if self.terrain_at(hex_id) == "fortress":
                best.append(h["fortress"]["defender"])
            level = self.ip_level(p)
            if level:
                best.append(h["improved_position"][str(level)])
        return min(best)

    def unit_cs(self, c: DesertCombat, p: Piece, hex_id: str, attacking: bool) -> UnitCS:
        unit = self.board.unit_of(p)
        side = c.attacker if attacking else c.defender
        printed = (unit.cs_reduced if self.board.reduced(p) and unit.cs_reduced is not None else unit.cs) or 0
        mods: list[tuple[int, str]] = []
        if attacking:
            ap = self.ct["attack_points"]
            if not c.ap_spent:
                mods.append((ap["penalty"], "no AP"))
            elif not self.in_ap_range(hex_id, side):
                mods.append((ap["penalty"], "out of AP range"))
        mods += self.unit_modifiers(c, p, unit, hex_id, attacking)
        value = max(self.ct["floor"]["value"], printed + sum(v for v, _ in mods))
        unsupplied = not self.supply.supplied(hex_id, side)
        if unsupplied:
            value = -(-value // self.ct["unsupplied"]["divide"])
        hit = self.hit_on(c, p, unit, hex_id, attacking)
        return UnitCS(p.id, p.name, hex_id, printed, mods, unsupplied, value, hit)

    def unit_modifiers(self, c: DesertCombat, p: Piece, unit: s.Unit, hex_id: str, attacking: bool) -> list[tuple[int, str]]:
        a = self.attrs(unit)
        into = {self.terrain_at(d) for d in c.attacked_hexes}
        across: set[str] = set()
        for d in c.attacked_hexes:
            if self.game.geometry.adjacent(hex_id, d):
                across |= self.features(hex_id, d)
        here = {self.terrain_at(hex_id)}
        facts = {"attacking-into": into if attacking else set(), "attacking-from": here if attacking else set(),
                 "defending-in": set() if attacking else here}
        out = []
        for m in self.ct["unit_modifiers"]:
            if not self.matches(m, a):
                continue
            when = m["when"]
            if "terrain" in m:
                hit = any(m["terrain"] in facts.get(w, ()) for w in when)
            elif "hexside" in m:
                hit = attacking and "attacking-across" in when and m["hexside"] in across
            else:
                hit = not attacking and "in-ip" in when and self.ip_level(p) > 0
            if hit:
                out.append((m["value"], m["id"]))
        return out

    def stack_modifiers(self, hex_id: str, units: list[s.Unit], defending: bool) -> list[tuple[str, int, str]]:
        out = []
        if defending:
            terrain = self.terrain_at(hex_id)
            out += [(hex_id, m["value"], m["id"]) for m in self.ct["stack_modifiers"] if m["terrain"] == terrain]
        di, br = self.ct["division_integrity"], self.ct["british_armoured_division"]
        counts = Counter(u.formation for u in units if self.game.formations[u.formation].division)
        bonus = []
        if counts and max(counts.values()) >= di["units"]:
            bonus.append((di["value"], "division integrity"))
        british = [self.attrs(u) for u in units if self.attrs(u)["nationality"] == br["nationality"]]
        if all(sum(1 for a in british if self.matches(need, a)) >= need["count"] for need in br["needs"]):
            bonus.append((br["value"], "British armoured division"))
        if bonus:
            value, why = max(bonus)
            out.append((hex_id, value, why))
        return out

    def side_strength(self, c: DesertCombat, side: str) -> SideStrength:
        attacking = side == c.attacker
        st = SideStrength()
        by_hex: dict[str, list[s.Unit]] = {}
        for pid, hex_id in sorted(c.members(side).items(), key=lambda x: (x[1], x[0])):
            p = self.board.replayer.board.pieces.get(pid)
            if p is None or self.board.unit_of(p) is None:
                continue
            if pid in c.passengers:
                st.units.append(UnitCS(pid, p.name, hex_id, 0, [(0, "retreated here this phase")], False, 0,
                                       self.ct["hit_on"]["normal"]))
                continue
            st.units.append(self.unit_cs(c, p, hex_id, attacking))
            by_hex.setdefault(hex_id, []).append(self.board.unit_of(p))
            st.reconstructed |= self.board.unit_of(p).provenance == "reconstructed"
        for hex_id, units in sorted(by_hex.items()):
            st.stacks += self.stack_modifiers(hex_id, units, not attacking)
            for q in self.leaders_in(hex_id, side):
                f = self.leader_face(q)
                if f is not None:
                    st.leaders[f.name] = f.attack if attacking else f.defence
                    st.reconstructed |= self.board.leader_of(q).provenance == "reconstructed"
        return st
