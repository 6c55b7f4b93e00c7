"""Initiative (6.1), a card's surprise (6.2) and the fixed end of a scenario (4.0): digest 10.1
ranks 13 and 16.

Evidence: the "<Side> initiative 2d6" rolls, the turn tracker and the "Road march" declarations.

Checked:
- 6.1: the initiative is determined in Phase V: an initiative roll in another phase is reported;
- 6.1: the player who holds the initiative rolls; the card grants it (24.0-33.0 "Initiative"), so
  in the first Phase V of play (GT first + 1 for a card that starts after Phase V; the card's first
  GT for one that starts before it, 33.0) a roll of the other side before any roll of the holder
  is reported;
- 6.2: in the first GT of a card with surprise in effect (26.0, 27.0, 32.0), the 2nd player (the
  side without the initiative: the surprise holder is the 1st player) may not road march (13.2.3);
- 4.0 with 24.0 d) (and 25.0, which uses 24.0): changes to the scenario's end on the cards are
  ignored, so the game ends after the card's last GT: the turn tracker moved on to a later GT is
  reported, once.

Choices (a false alarm costs more than a miss):
- The Initiative Table is missing (tables/initiative.yaml is reconstructed around the one
  example): the result, the new holder and surprise from the table are not judged; after the first Phase V the holder is unknown and the roller is not checked.
- Cards whose special rules speak of the initiative (31.0: the Axis holds it on Maps L and S on
  GT 31, an initiative split by map the core rules do not define) are not checked for the roller.
- Only cards the scenario table lists with no end-changing cards (`es_cards: []`: 24.0, 25.0)
  have a fixed end; elsewhere the ES marker moves with cards whose ES figures are missing.
"""
from __future__ import annotations

from validators.games.desert_fox_deluxe.state import ROAD_MARCH
from validators.kernel.declarations import Declared
from validators.kernel.rule import Rule
from validators.replay.replayer import Rolled

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI",
         "XVII", "XVIII", "XIX", "XX")


class Initiative(Rule):
    """6.1: the initiative is rolled in Phase V, by the player who holds it."""

    ids = ("6.1",)
    covers = ("6.0",)

    def start(self) -> None:
        card = self.state.card
        self.judged: set[int] = set()  # GTs in which the holder's first roll was judged
        self.first_v = None
        if (card is not None and card.initiative and card.start_phase in ROMAN
                and not any("nitiative" in r.text for r in card.special_rules)):
            # the first Phase V played: the card's first GT when it starts before V (33.0: Phase II), else the next
            self.first_v = card.first_turn + (ROMAN.index(card.start_phase) > ROMAN.index("V"))

    def rolled(self, e: Rolled) -> None:
        st = self.state
        if not e.button.endswith(" initiative 2d6") or st.phase_id is None:
            return
        side = st.dice_side(e.button)
        names = self.board.side_names
        name = names.get(side or "", side)
        if st.phase_id != "V":
            self.find("6.1", f"an {name} initiative roll in the {st.phase} Phase: the initiative is determined in "
                      "Phase V (4.1 V, 6.1)", side=name)
            return
        if st.turn == self.first_v and st.turn not in self.judged:
            self.judged.add(st.turn)
            holder = st.card.initiative
            if side != holder:
                self.find("6.1", f"the {name} player rolls for the initiative on GT {st.turn}: the player who holds it "
                          f"rolls (6.1), and the card ({st.card.rule or 'the scenario'}) gave it to the "
                          f"{names.get(holder, holder)}", side=name)


class Surprise(Rule):
    """6.2: in the first GT of a card with surprise, the 2nd player may not road march."""

    ids = ("6.2",)

    def declared(self, d: Declared) -> None:
        card, st = self.state.card, self.state
        if (d.name == ROAD_MARCH and card is not None and card.surprise and card.initiative and st.phase_id is not None
                and st.turn == card.first_turn and self.board.side_id(d.piece) != card.initiative):
            self.find("6.2", f"{d.piece.name} road marches on GT {st.turn}: surprise is in effect (the card, "
                      f"{card.rule or '6.2'}), and the 2nd player cannot use road march (6.2, 13.2.3)", d.piece, None,
                      d.where)


class ScenarioEnd(Rule):
    """4.0 with 24.0 d: a card with a fixed end ends after its last GT."""

    ids = ("4.0",)

    def start(self) -> None:
        card = self.state.card
        rules = self.tables.get("scenario-rules", {}).get(self.state.scenario or "", {})
        self.fixed_end = card.last_turn if card is not None and rules.get("es_cards", None) == [] else None
        self.reported = False

    def phase_started(self, pid: str) -> None:
        st = self.state
        if self.fixed_end is not None and not self.reported and st.turn is not None and st.turn > self.fixed_end:
            self.reported = True
            self.find("4.0", f"the turn tracker moved on to GT {st.turn}: the scenario ends after the completion of "
                      f"GT {self.fixed_end} ({st.card.rule or 'the card'}; 24.0 d: changes to the end on the cards "
                      "are ignored)", kind="violation", side=None)
