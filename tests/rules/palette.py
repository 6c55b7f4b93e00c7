"""A test log writer that also drags pieces from a module's palette, as the Tobrouk, Slouch Hats
and Desert Fox rules tests need (their hit, disruption and supply markers come from it)."""
from __future__ import annotations

from pathlib import Path

from builder.vassal.counters import counter_defs, expand, prototypes
from builder.vassal.pieces import add_piece
from builder.vassal.sequence import join
from validators.replay.writer import Cmd, LogWriter, chat_cmd


class PaletteWriter(LogWriter):
    """A LogWriter over a game's module whose `place` drags a palette piece onto a hex."""

    placing_side = "Axis"  # who drags, unless `place` is told

    def __init__(self, game, vmod: Path, **kw) -> None:
        self.game = game
        super().__init__(vmod, **kw)
        self._defs = {d.key: d for d in counter_defs(game)}
        self._protos = prototypes(game)
        self._gpid = 9000

    def place(self, marker: str, to: str, *, side: str | None = None) -> str:
        """A marker (or unit) dragged from the palette onto a hex: the new piece added, then dropped
        there, merging with the stack it lands on (one step); its new id."""
        map_id = next(iter(self.maps))
        dest = self.point(map_id, to)
        pid = self._new_id()
        self._gpid += 1
        traits = expand(self._defs[marker].with_gpid(str(self._gpid)), self._protos)
        comm = self._apply(Cmd(add_piece(pid, traits), "-/" + pid))
        below = [i for i in self._pieces_at(map_id, *dest, self._layer(pid)) if i != pid]
        under = below[-1] if below else None
        comm.append(self._move_cmd(pid, map_id, dest, under, self._user(side or self.placing_side)[0]))
        if under is None:
            sid = self._new_id()
            stack_state = join([map_id, *dest, pid, f"@@{self._layer(pid)}"], ";")
            comm.append(self._apply(Cmd("+/" + join([sid, "stack", stack_state], "/"), "-/" + sid)))
        name = self.game.markers[marker].name if marker in self.game.markers else self._defs[marker].name
        comm.append(self._apply(chat_cmd(f"* {name} placed in {to}")))
        self._log(comm)
        return pid
