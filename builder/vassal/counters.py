"""Which VASSAL piece each counter becomes: its traits, prototype and palette place.

One definition per counter kind serves the palette (PieceSlot text) and the predefined
setup (AddPiece in the .vsav, with prototypes expanded as VASSAL does when it creates a
piece).  Every rule-relevant fact of a counter is a piece property (Marker trait), so the
auditor can read side, formation, type, level and MA from any log.
"""
from __future__ import annotations

from dataclasses import dataclass

from builder.model.game import ChitSpec, Game
from builder.model import schema as s
from builder.render.counters import all_faces
from builder.vassal import pieces as p
from builder.vassal.pieces import Trait
from builder.vassal.sequence import split

MOVE_REPORT = "$location$: $oldPieceName$ becomes $newPieceName$ *"
LAYER_PROPERTY = "Layer"  # the Marker-trait property that puts a piece in a Game Piece Layer
CHIT_BACK = "chit-back.png"  # one back for every chit: the mug must not tell whose chits are in it (5.1.2)
CHIT_MASK = "Activation chit"  # a masked chit's name, in the log's move reports too
MASK_KEY = "72,130"  # Ctrl+H: hide a chit from the opponent, or show it again


@dataclass(frozen=True)
class CounterDef:
    key: str           # unit / marker / chit id
    name: str          # the piece's base name
    palette: tuple[str, str]  # (tab, panel)
    traits: tuple[Trait, ...]  # outermost first; BasicPiece last (gpid filled per use)
    count: int

    def with_gpid(self, gpid: str, where=None, level: int | None = None) -> list[Trait]:
        traits = list(self.traits)
        basic = traits[-1]
        _, _, image, name = split(basic.type[len("piece;"):], ";")
        traits[-1] = p.basic_piece(image, name, gpid, where)
        if level is not None:
            traits = [Trait(t.type, str(level)) if t.prefix == "emb2;" else t for t in traits]
        return traits


def declaration_key(d: s.Declaration) -> str:
    """Ctrl+Shift+letter, as VASSAL encodes a keystroke (key code, modifiers)."""
    return f"{ord(d.key)},195"


def send_to_key(t: s.SendTo) -> str:
    """Ctrl+letter (key code, modifiers)."""
    return f"{ord(t.key)},{p.CTRL}"


def side_prototype_name(side: s.Side) -> str:
    return f"{side.name} Unit"


OPEN_PROTOTYPE = "Open declarations"


def _open_traits(game: Game) -> tuple[Trait, ...]:
    """The prototype of the declarations the rules give the opponent too (game.yaml `opponent`),
    outermost, so the unit's Restricted Access below it does not close them; none when there are none."""
    return (p.prototype(OPEN_PROTOTYPE),) if any(d.opponent for d in game.info.declarations) else ()


def prototypes(game: Game) -> dict[str, list[Trait]]:
    """Prototype name -> its traits (ending with the placeholder BasicPiece)."""
    out = {}
    declared, opened = [], []
    for d in game.info.declarations:
        key = declaration_key(d)
        (opened if d.opponent else declared).extend([p.report([key], d.report, d.name), p.trigger(d.name, key)])
    if opened:
        out[OPEN_PROTOTYPE] = [*opened, p.placeholder_piece()]
    for side in game.info.sides:
        sent = []
        for t in game.info.send_to:
            key = send_to_key(t)
            sent += [p.report([key], t.report, t.name), p.send_to_zone(t.name, key, p.MAP_ID, t.zone.replace("{side}", side.name))]
        out[side_prototype_name(side)] = [
            *declared,
            *sent,
            p.report([p.FLIP_KEY], MOVE_REPORT, "Report flips"),
            p.mark_moved(),
            p.placeholder_piece(),
        ]
    out["Marker"] = [p.report([p.FLIP_KEY], MOVE_REPORT, "Report flips"), p.delete(), p.placeholder_piece()]
    if game.chits:  # a module defines only what it uses: no chits, no chit back to name (issue 35)
        out["Chit"] = [p.mask(CHIT_BACK, CHIT_MASK, MASK_KEY), p.placeholder_piece()]
    return out


def layer_order(game: Game) -> list[str]:
    """The Game Piece Layers under the units, bottom first (markers.yaml `layer`); units, leaders,
    chits and the other markers stay in VASSAL's default top layer."""
    return list(dict.fromkeys(m.layer for m in game.markers_file.markers if m.layer))


def expand(traits: list[Trait], protos: dict[str, list[Trait]]) -> list[Trait]:
    """Replace prototype traits by the prototype's traits (PieceCloner.clonePiece)."""
    out: list[Trait] = []
    for t in traits:
        if t.prefix == "prototype;":
            out.extend(expand(protos[t.type[len("prototype;"):]][:-1], protos))
        else:
            out.append(t)
    return out


def _faces(game: Game) -> dict[tuple[str, str, int], str]:
    return {(a.kind, a.ref, a.face): a.file for a in all_faces(game)}


def unit_name(game: Game, unit: s.Unit) -> str:
    return f"{unit.name} ({unit.formation})"


def _tobrouk_values(unit: s.Unit) -> dict[str, object]:
    """The counter values Tobrouk 41-42 prints (1.31-1.32); None for games that have none."""
    flags = {"Armoured": unit.armoured, "Fragile": unit.fragile, "FragileReduced": unit.fragile_reduced,
             "SurrendersReduced": unit.surrenders_reduced}
    return {"AP": unit.ap, "APReduced": unit.ap_reduced, "AT": unit.at, "ATReduced": unit.at_reduced,
            "Morale": unit.morale, "MoraleReduced": unit.morale_reduced, "Weapon": unit.weapon, "Mode": unit.mode,
            "Strength": unit.strength, "ReplacedBy": unit.replaced_by, "HQ": unit.hq, "Range": unit.range,
            "RangeReduced": unit.range_reduced, "CounterSet": unit.counter_set,
            **{k: "true" for k, v in flags.items() if v}}


def _slouch_values(unit: s.Unit) -> dict[str, object]:
    """The counter values Slouch Hats and Eggshells prints (2.24); None for games that have none."""
    flags = {"Motorized": unit.motorized, "NoZOC": unit.no_zoc, "Light": unit.light, "Mountain": unit.mountain}
    return {"Attack": unit.attack, "AttackReduced": unit.attack_reduced, "Defense": unit.defense,
            "DefenseReduced": unit.defense_reduced, "Stacking": unit.stacking, "Support": unit.support,
            **{k: "true" for k, v in flags.items() if v}}


def counter_defs(game: Game) -> list[CounterDef]:
    """Every counter kind, grouped for the palette: by side and formation, then markers."""
    faces = _faces(game)
    out: list[CounterDef] = []
    for unit in game.units:
        side, nat = game.side_of_unit(unit), game.nationality_of_unit(unit)
        props = {"Kind": "unit", "UnitId": unit.id, "Side": side.name, "Nationality": nat.name,
                 "Formation": unit.formation, "UnitType": unit.type, "MA": str(unit.ma)}
        extra = {"StrengthLevel": unit.level, "Size": unit.size, "CS": unit.cs, "CSReduced": unit.cs_reduced}
        extra.update(_tobrouk_values(unit))
        extra.update(_slouch_values(unit))
        props.update({k: str(v) for k, v in extra.items() if v is not None})
        props["Steps"] = str(unit.steps)
        full = faces[("unit", unit.id, 1)]
        traits: tuple[Trait, ...] = (p.prototype(side_prototype_name(side)), p.properties(props),
                                     p.basic_piece(full, unit_name(game, unit)))
        if unit.steps == 2:
            step = p.two_sided_layer("Step", (full, faces[("unit", unit.id, 2)]), ("", "+ (reduced)"))
            traits = (step,) + traits
        elif (fired := game.unit_types[unit.type].fired_face) is not None:
            traits = (_fired_layer(faces, full, fired, unit),) + traits
        # every command below the Restricted Access is the owner's; above it only what the rules open to the opponent
        traits = _open_traits(game) + (p.restricted([side.name]),) + traits
        formation = game.formations[unit.formation]
        out.append(CounterDef(unit.id, unit_name(game, unit), (side.name, f"{formation.id} - {formation.name}"),
                              traits, 1))
    for ld in game.units_file.leaders:
        side, nat = game.side_of_leader(ld), game.nationalities[ld.nationality]
        images = [faces[("leader", ld.id, i)] for i in range(1, len(ld.faces) + 1)]
        props = {"Kind": "leader", "LeaderId": ld.id, "Side": side.name, "Nationality": nat.name}
        name = " / ".join(f.name for f in ld.faces)
        traits = (p.prototype(side_prototype_name(side)), p.properties(props), p.basic_piece(images[0], name))
        if len(images) == 2:
            traits = (p.two_sided_layer("Leader", (images[0], images[1]), ("", "+ (secondary)")),) + traits
        traits = _open_traits(game) + (p.restricted([side.name]),) + traits
        out.append(CounterDef(ld.id, name, (side.name, "Leaders"), traits, 1))
    for m in game.markers_file.markers:
        images = [faces[("marker", m.id, i)] for i in range(1, len(m.faces) + 1)]
        props = {"Kind": "marker", "MarkerId": m.id}
        if m.layer:
            props[LAYER_PROPERTY] = m.layer
        traits: tuple[Trait, ...] = (p.prototype("Marker"), p.properties(props), p.basic_piece(images[0], m.name))
        if len(images) == 2:
            names = tuple(f"+ ({game.sides[f.side].name})" if f.side else "" for f in m.faces)
            traits = (p.two_sided_layer("Face", (images[0], images[1]), names),) + traits
        out.append(CounterDef(m.id, m.name, ("Markers", "Markers"), traits, m.count))
    for c in game.chits:
        out.append(_chit_def(game, c, faces[("chit", c.id, 1)]))
    return out


def _fired_layer(faces: dict, full: str, marker: str, unit: s.Unit) -> Trait:
    """A one-step unit's Fired side (Slouch Hats 3.43, 11.18), flipped as a step is: its face shows
    the `marker`'s (the player turns it after Artillery Fire Support and back in his Administrative
    phase)."""
    image = faces.get(("marker", marker, 1))
    if image is None:
        raise ValueError(f"unit type of {unit.id}: fired_face names marker {marker!r}, which markers.yaml does not have")
    return p.two_sided_layer("Fired", (full, image), ("", "+ (Fired)"))


def _chit_def(game: Game, c: ChitSpec, image: str) -> CounterDef:
    side = game.sides[game.nationalities[c.nationality].side]
    props = {"Kind": "chit", "ChitId": c.id, "Side": side.name, "Formation": c.formation or c.text}
    traits = (p.prototype("Chit"), p.properties(props), p.basic_piece(image, c.name))
    return CounterDef(c.id, c.name, ("Markers", f"{side.name} activation chits"), traits, c.count)
