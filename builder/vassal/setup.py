"""A scenario's set-up card as a predefined setup (.vsav): every piece on its hex or box.

Rule 3 of Bravery in the Sand: all units of a division in its hex, control markers in the
strategic hexes, the turn marker on turn 1, each player's chits in his pool.

Pieces are stacked as the engine stacks them: one Stack per point and Game Piece Layer, so a
hex-status marker (markers.yaml `layer`) lies in its own Stack under the units' Stack, never in
it; each Stack carries its layer (`@@n`) as a Stack the engine made would.  Chits set out in
their owner's pool start masked by that side (5.1.2: the opponent never learns which chits go
into the mug).

A card that starts elsewhere than the game's first turn and phase (Desert Fox 24.0: GT 4 Phase VI)
also saves the turn tracker there, as the engine's own save does (`TURNTurnTracker0`, §4.6), so a
game loaded from it shows the card's GT and phase; other cards leave the tracker at its start.
"""
from __future__ import annotations

from builder.model import schema as s
from builder.vassal import pieces as p
from builder.vassal.buildfile import MAP_ID, ModulePlan
from builder.vassal.counters import expand, layer_order, prototypes
from builder.vassal.savefile import board_picker_command, save_text, stack_command
from builder.vassal.sequence import join

FIRST_ID = 1700000000000  # piece ids look like VASSAL's (13-digit) and never depend on the clock


def placements(pl: ModulePlan, sc: s.ScenarioFile) -> list[tuple[str, int, tuple[int, int]]]:
    """(counter key, layer level, board point) for every piece of the set-up on the main map, in
    stacking order (pieces on further maps: elsewhere)."""
    g = pl.game
    out: list[tuple[str, int, tuple[int, int]]] = []
    for f in sc.formations:
        out += [(u.id, 1, g.geometry.centre(f.hex)) for u in g.units if u.formation == f.formation]
    out += [(u.unit, 2 if u.reduced else 1, _point(g, u)) for u in sc.units if u.map is None]
    if sc.waiting_track:  # reinforcements wait on the turn track, in the box of their turn
        out += [(uid, 2 if r.reduced else 1, g.track_box_centre(sc.waiting_track, str(r.turn)))
                for r in sc.reinforcements for uid in r.units]
    out += [(m.marker, m.face, _point(g, m)) for m in sc.markers if m.map is None]
    if sc.chits_to_owner and "pools" in g.tracks:
        for c in g.chits:
            side = g.sides[g.nationalities[c.nationality].side]
            out += [(c.id, 1, g.track_box_centre("pools", side.name))] * c.count
    return out


def _point(g, item) -> tuple[int, int]:
    if item.at is not None:
        return tuple(item.at)
    return g.geometry.centre(item.hex) if item.hex else g.track_box_centre(item.track, item.box)


def other_placements(sc: s.ScenarioFile) -> list[tuple[str, str, int, tuple[int, int]]]:
    """(map id, counter key, layer level, point) of every piece set on a further map (map.yaml `maps`)."""
    return ([(u.map, u.unit, 2 if u.reduced else 1, tuple(u.at)) for u in sc.units if u.map is not None]
            + [(m.map, m.marker, m.face, tuple(m.at)) for m in sc.markers if m.map is not None])


def layer_index(pl: ModulePlan, key: str) -> int:
    """The Game Piece Layer a counter lies in (LayeredPieceCollection.visitDefault): its layer's
    place in the order, else the top layer; without layers, the top of DefaultPieceCollection (1)."""
    order = layer_order(pl.game)
    layer = next((m.layer for m in pl.game.markers_file.markers if m.id == key), None)
    return order.index(layer) if layer in order else (len(order) if order else 1)


def setup_save(pl: ModulePlan, sc: s.ScenarioFile) -> str:
    """The savedGame text of a scenario."""
    defs = {d.key: d for d in pl.defs}
    protos = prototypes(pl.game)
    chit_side = {c.id: pl.game.sides[pl.game.nationalities[c.nationality].side].name for c in pl.game.chits}
    stacks: dict[tuple[int, int, int], list[str]] = {}
    commands: list[str] = []
    next_id = FIRST_ID
    here = [(MAP_ID, key, level, point) for key, level, point in placements(pl, sc)] + other_placements(sc)
    for map_id, key, level, (x, y) in here:
        piece_id = str(next_id)
        next_id += 1
        d = defs[key]
        traits = expand(d.with_gpid(pl.gpids[key], (map_id, x, y), level), protos)
        if key in chit_side and sc.chits_to_owner:
            traits = [p.Trait(t.type, p.masked_state(chit_side[key])) if t.prefix == "obs;" else t for t in traits]
        commands.append(p.add_piece(piece_id, traits))
        stacks.setdefault((map_id, x, y, layer_index(pl, key)), []).append(piece_id)
    for (map_id, x, y, layer), ids in stacks.items():
        commands.append(stack_command(str(next_id), map_id, x, y, ids, layer))
        next_id += 1
    components = [board_picker_command(MAP_ID, pl.game.map.board.name)]
    components += [board_picker_command(m.id, m.board.name, *((b.name, b.column, b.row) for b in m.more_boards))
                   for m in pl.game.map.maps]
    tracker = tracker_command(pl.game, sc)
    return save_text(commands, components + ([tracker] if tracker else []))


def tracker_command(g, sc: s.ScenarioFile) -> str | None:
    """The turn tracker's restore command at the card's first turn and phase (`TurnTracker.getState`:
    current level | counter;0;loop;limit;list index;0;0;active flags), None when the card starts where
    the tracker does (the counter's `start`, the first phase)."""
    seq = g.table("sequence")
    names = seq.data["phases"] if seq is not None else []
    ids = [x.get("id") for x in names]
    if sc.start_phase is not None and sc.start_phase not in ids:
        raise ValueError(f"scenario {sc.name}: start_phase {sc.start_phase} is not a phase of tables/sequence.yaml")
    phase = ids.index(sc.start_phase) if sc.start_phase is not None else 0
    if sc.first_turn == g.info.turns.first and phase == 0:
        return None
    subs = [join([phase, 0, 0, ",".join(["true"] * len(names))], ";")] if names else []
    level = join([sc.first_turn, 0, False, -1, *subs], ";")
    return join(["TURNTurnTracker0", join([0, level], "|")], "\t")
