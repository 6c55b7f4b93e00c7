"""The sequence of play from the data: tables/sequence.yaml's phases in order, each with its
`kind` (movement, combat...) and the `side` whose phase it is.

The tracker never goes back (a later phase of the same turn, or a later turn; it may skip
phases); a side's units move from hex to hex in its own Movement Phase, and in a Combat Phase
only the units of a declared combat (whose moves the combat's result judges, combat.py);
a combat is declared in the attacking side's Combat Phase."""
from __future__ import annotations

from builder.model.game import Game
from validators.kernel.declarations import Declared
from validators.kernel.generic.combat import Fights, combat_table
from validators.kernel.rule import Rule
from validators.replay.replayer import Moved


class SequenceOfPlay(Rule):
    """The phases in order; each side moves and attacks in its own phases."""

    needs = (Fights,)

    @classmethod
    def ids_in(cls, game: Game) -> tuple[str, ...]:
        table = game.table("sequence")
        kinds = table.data.get("phases", []) if table is not None else []
        return (table.rule,) if kinds and all("kind" in p for p in kinds) else ()

    def start(self) -> None:
        self.rule = self.ids[0]
        table = combat_table(self.game)
        self.attack = table.data["declarations"].get("attacker") if table is not None else None

    def phase_started(self, pid: str) -> None:
        back = self.state.went_back()
        if back is not None:
            self.find(self.rule, "the turn tracker went back from turn {} {} to turn {} {}: the phases are played in "
                      "order".format(*back))

    def moved(self, e: Moved) -> None:
        board, st = self.board, self.state
        if (st.phase_id is None or e.old.label == e.new.label or board.unit_of(e.piece) is None
                or not board.on_map(e.old.label) or not board.on_map(e.new.label)):
            return
        side, phasing = board.side_id(e.piece), st.phasing()
        if st.phase_kind == "movement" and phasing in (None, side):
            return
        if st.phase_kind == "combat" and e.piece.id in self.ctx.get(Fights).members:
            return  # a retreat (or a move the result forbids): combat.py
        whose = f"the {board.side_names.get(phasing, phasing)} player's " if phasing else ""
        self.find(self.rule, f"{e.piece.name} moves in {whose}{st.phase} phase: units move in their own side's "
                  "Movement Phase (and in combat as its result demands)", e.piece)

    def declared(self, d: Declared) -> None:
        st = self.state
        if d.name != self.attack or st.phase_id is None:
            return
        side = self.board.side_id(d.piece)
        if st.phase_kind != "combat" or st.phasing() not in (None, side):
            self.find(self.rule, f"{d.piece.name} is declared to attack in the {st.phase} phase: a side attacks in "
                      "its own Combat Phase", d.piece, None, d.where)
