"""`hexforge map-pieces`: the piece map of another module of one of our games."""
from __future__ import annotations

from pathlib import Path

from builder.model.game import Game
from builder.model.schema import PieceMapFile
from validators.audit import module_grids
from validators.othermodule.locations import GeometryMismatch, by_geometry, pair_maps
from validators.othermodule.matching import match
from validators.othermodule.ours import our_slots
from validators.othermodule.slots import read_vmod_slots
from validators.vlog.modulegrid import read_vmod_grids


def make_piece_map(game: Game, vmod: Path) -> tuple[PieceMapFile, list[str]]:
    """The map, and what the user should hear (one line each).  Raises ModuleFormatError."""
    slots, meta = read_vmod_slots(vmod)
    theirs = read_vmod_grids(vmod)
    ours = module_grids(game)
    said: list[str] = []
    locations: dict[str, str] = {}
    pairs = pair_maps(theirs, ours)
    for t, o in pairs:
        try:
            locations.update(by_geometry(theirs[t], ours[o]))
        except GeometryMismatch as exc:
            said.append(f"map {t!r}: {exc}")
    if not pairs:
        said.append(f"no map of theirs ({', '.join(theirs) or 'none'}) pairs with ours ({', '.join(ours)}): "
                    "fill in 'locations' by hand")
    pieces = match(slots, our_slots(game))
    module = f"{meta.get('name') or vmod.name} {meta.get('version', '?')}".strip()
    how = ("by geometry: each of their locations is the one of ours its board area lies on, the boards laid "
           "over each other (names equal to ours are left out)")
    return PieceMapFile(game=game.slug, module=module, hexes_by=how, pieces=pieces, locations=locations), said
