"""Our own module's palette, kept in the model cache beside the game (as its grids are)."""
from __future__ import annotations

from pathlib import Path

from builder.model.cache import cached
from builder.model.game import Game
from validators.othermodule.slots import Slot, read_slots

# the properties that say what one of our pieces is (the replay writer's KEY_PROPS)
ID_PROPS = ("UnitId", "LeaderId", "MarkerId", "ChitId")


def our_slots(game: Game) -> list[Slot]:
    here = Path(__file__).resolve()
    code = (here.parents[2] / "builder", here.parent)
    return cached(game.root, "slots", lambda: _slots(game), code)


def _slots(game: Game) -> list[Slot]:
    from builder.vassal.buildfile import build_xml, plan

    return read_slots(build_xml(plan(game, [], [])).decode("utf-8"))


def our_id(slot: Slot) -> str | None:
    return next((slot.props[k] for k in ID_PROPS if slot.props.get(k)), None)


def by_id(game: Game) -> dict[str, Slot]:
    """Our pieces by their unit, leader, marker or chit id (the first slot of each)."""
    out: dict[str, Slot] = {}
    for s in our_slots(game):
        i = our_id(s)
        if i is not None:
            out.setdefault(i, s)
    return out
