"""Writing Slouch Hats and Eggshells logs for the rules tests: the module's LogWriter, with the
turn tracker set by phase name and a combat as the module's conventions make it (Declare
attacker on each attacking unit, Declare defender on a unit of the Defender Hex, Artillery
support, Combat supply, then the attacker's combat die)."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.vassal.pieces import add_piece
from tests.rules.palette import PaletteWriter
from validators.audit import audit_file, module_grids
from validators.games import rules_for
from validators.replay.replayer import Replayer
from validators.replay.writer import Cmd, chat_cmd
from validators.vlog.reader import read_record

SLUG = "slouch-hats-and-eggshells"
PLAYERS = {"Axis": ("axis-user", "Ax"), "Allied": ("allied-user", "Al")}


@pytest.fixture(scope="session")
def slouch_module(tmp_path_factory):
    """(game, path of its .vmod) of Slouch Hats and Eggshells, built once per test module that imports it
    (the game as the plain model an audit runs on)."""
    from builder.model.plain import plain_game
    from builder.vassal.module import build_vmod
    from tests.conftest import loaded_game

    game = loaded_game(SLUG)
    path = tmp_path_factory.mktemp("slouch") / f"{SLUG}.vmod"
    path.write_bytes(build_vmod(game)[0])
    return plain_game(game), path


class SlouchWriter(PaletteWriter):
    """A LogWriter over the Slouch Hats module."""

    placing_side = "Allied"

    def __init__(self, game, vmod: Path, setup: str = "exporter.vsav") -> None:
        super().__init__(game, vmod, setup=setup, players=PLAYERS)

    def phase(self, turn: int, name: str) -> None:
        """The turn tracker set to (turn, phase name of tables/sequence.yaml)."""
        self.turn(turn, name)

    def report(self, text: str) -> None:
        """A chat line as a piece's Report trait writes it (e.g. an event card's "Allied plays event H: ...")."""
        self._log(self._apply(chat_cmd("* " + text)))

    def event_marker(self, card: str) -> str:
        """Special Event marker `card` put into the Special Events Pool (the set-up a writer starts
        from holds no marker: the module's pool is an at-start pile); its id."""
        from builder.vassal.event_decks import EVENTS_MAP, card_traits
        deck = next(d for d in self.game.events.decks if any(c.id == card for c in d.cards))
        c = next(c for c in deck.cards if c.id == card)
        pid = self._new_id()
        self._gpid += 1
        comm = self._apply(Cmd(add_piece(pid, card_traits(self.game, deck, c, str(self._gpid))), "-/" + pid))
        comm.append(self._move_cmd(pid, EVENTS_MAP, self.point(EVENTS_MAP, deck.name), None, self._user("Allied")[0]))
        self._log(comm)
        return pid

    def _to_map(self, pid: str, map_id: str, to: str, side: str) -> Cmd:
        below = [i for i in self._pieces_at(map_id, *self.point(map_id, to), self._layer(pid)) if i != pid]
        return self._move_cmd(pid, map_id, self.point(map_id, to), below[-1] if below else None, self._user(side)[0])

    def draw(self, pid: str, side: str) -> None:
        """The marker dragged from the pool into `side`'s hand (its own window)."""
        self._log(self._to_map(pid, f"{side} hand", f"{side} hand", side))

    def play_event(self, pid: str, side: str) -> None:
        """Play event on a held marker: its Report line, then the marker to the played area."""
        from builder.vassal.event_decks import EVENTS_MAP, play_report
        card = next(c for d in self.game.events.decks for c in d.cards
                    if c.id == self.board.pieces[pid].properties().get("EventId"))
        sid = next(x for x in self.game.info.sides if x.name == side)
        text = play_report(sid, card, card.events[sid.id].title, card.events[sid.id].rule)
        comm = self._apply(chat_cmd("* " + text))
        comm.append(self._to_map(pid, EVENTS_MAP, self.game.events.played, side))
        self._log(comm)

    def return_event(self, pid: str, side: str) -> None:
        """The marker back into the Special Events Pool (20.11)."""
        from builder.vassal.event_decks import EVENTS_MAP
        self._log(self._to_map(pid, EVENTS_MAP, "Special Events Pool", side))

    def combat(self, attackers: list[str], defender: str, die: int, *, side: str, support: tuple[str, ...] = (),
               supply: tuple[str, ...] = ()) -> None:
        """Declarations, then `side`'s combat die, then the supporting artillery turned to its
        Fired side (11.18; a counter of a module with the Fired side)."""
        for a in attackers:
            self.declare(a, "Declare attacker")
        self.declare(defender, "Declare defender")
        for s in support:
            self.declare(s, "Artillery support")
        for s in supply:
            self.declare(s, "Combat supply")
        self.roll(f"{side} combat die", [die], side)
        for s in support:
            if self.board.pieces[self.piece(s)].layer_level("Fired") == 1:
                self.flip(s)


def audit(game, vmod: Path, script, path: Path, setup: str = "exporter.vsav", auditor: bool = False):
    """Write a log from `script(w)` and audit it: its violations, or (auditor) the audit's `Combats`
    tracker after the run (its `combats`: every combat resolved)."""
    w = SlouchWriter(game, vmod, setup)
    script(w)
    w.write(path)
    if auditor:
        from validators.games.slouch_hats_and_eggshells.combat import Combats

        a = rules_for(SLUG)(game, Replayer(read_record(path), module_grids(game)))
        combats = a.ctx.get(Combats)
        a.run()
        return combats
    return [f for f in audit_file(game, path).findings if f.kind == "violation"]


def rules(findings) -> list[str]:
    return [f.rule for f in findings]
