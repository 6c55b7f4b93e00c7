"""Winning the game (17.0-17.2, 4.0): Automatic Victory, victory points, the end of play.

Rank 24 of the digest's §10.1.  Results are reported as events (kind "event") at the step where
the turn ends; play that goes on after the game has ended is a violation.  The values and the
choices on digest §11 #30-#32 are in tables/victory.yaml.

Choices:
- 17.1: the turn ends when its End of Turn phase begins, or when the turn tracker leaves the turn
  if that phase was skipped; a log that stops earlier has no result for that turn.
- 17.2: victory points are counted at the end of Turn 23 (the table's `last_turn`), from the
  board: Step layer and Eliminated boxes, leaders deleted or in an Eliminated box; the Axis's
  3 VP per failed reserve turn come from `reserve_failures` when a reserve rule records them.
- 4.0, 17.1: "play" after the end is a unit or leader moved or a die rolled; the turn tracker
  alone is not play.  Reported once.
"""
from __future__ import annotations

from validators.games.western_desert_force.base import WdfRule
from validators.games.western_desert_force.reserves import Reserve
from validators.games.western_desert_force.roads import Roads
from validators.replay.board import Piece
from validators.replay.replayer import Added, Moved, Removed, Rolled


class VictoryRules(WdfRule):
    """17.1: a supplied combat unit on the enemy's supply source at the end of a turn wins; 17.2: victory
    points at the end of the last turn, Tobruk deciding; 4.0: no play after the end."""

    ids = ('17.1', '17.2', '4.0')
    needs = WdfRule.needs + (Roads, Reserve)

    def start(self) -> None:
        super().start()
        self.roads, self.reserve = self.ctx.get(Roads), self.ctx.get(Reserve)
        self.victory_table = self.tables.get("victory", {})
        self.last_turn = int(self.victory_table.get("last_turn", self.game.info.turns.last))
        g = self.game
        boxes = g.tracks["eliminated"].boxes if "eliminated" in g.tracks else []
        self.eliminated_zones = {g.zone_name("eliminated", b) for b in boxes}
        self.turns_ended: set[int] = set()
        self.game_over: tuple[int, str, str] | None = None  # (turn, rule, why)
        self.play_after_end_reported = False
        self.gone_pieces: dict[str, Piece] = {}  # piece id -> a unit or leader deleted from the game

    # -- the end of a turn ------------------------------------------------------------------
    def phase_started(self, pid: str) -> None:
        kind = self.phase_kind
        if kind == "end-of-turn" and self.turn is not None:
            self._turn_over(self.turn)

    def turn_ended(self, turn: int) -> None:
        self._turn_over(turn)

    def _turn_over(self, turn: int) -> None:
        if turn in self.turns_ended or self.game_over is not None:
            return
        self.turns_ended.add(turn)
        self._automatic_victory(turn)
        if self.game_over is None and turn >= self.last_turn:
            self._victory_by_points(turn)

    def _automatic_victory(self, turn: int) -> None:
        """17.1: a supplied combat unit on the opponent's supply source (never Tobruk)."""
        for side, enemy in self.roads.enemy_of.items():
            target = self.roads.depot_sources.get(enemy)
            holders = [p for p in self.board.units_in(target, self.board.side_name(side))] if target else []
            supplied = [p for p in holders if self.supply.supplied(target, side)]
            if supplied:
                why = (f"{self.board.side_name(side)} Automatic Victory: {supplied[0].name} is in supply on the "
                       f"{self.board.side_name(enemy)} supply source {target} at the end of Turn {turn}")
                self.find("17.1", why, supplied[0], to_hex=target, kind="event", side=self.board.side_name(side))
                self.game_over = (turn, "17.1", why)

    def _victory_by_points(self, turn: int) -> None:
        """17.2: points for reduced and eliminated enemy units and leaders; Tobruk decides."""
        score, detail = self.victory_points()
        tobruk = self.place_hex.get(self.victory_table.get("tobruk", "Tobruk"))
        held = self.places.controller(tobruk) if tobruk else None
        a, b = sorted(self.game.sides)
        leader = a if score[a] > score[b] else b if score[b] > score[a] else None
        winner = leader if leader is not None and leader == held else None
        tally = "; ".join(f"{self.board.side_name(s)} {score[s]} VP ({detail[s] or 'nothing'})" for s in sorted(score))
        if winner:
            outcome = f"{self.board.side_name(winner)} victory: more points and Tobruk"
        elif leader is None:
            outcome = "a draw: equal points (choice, 17.2)"
        else:
            outcome = (f"a draw: {self.board.side_name(leader)} has more points but Tobruk is held by {self.board.side_name(held)} "
                       "(choice, 17.2)")
        why = f"end of Turn {turn}: {tally}; Tobruk controlled by {self.board.side_name(held)}; {outcome}"
        self.find("17.2", why, kind="event", side=self.board.side_name(winner) if winner else None)
        self.game_over = (turn, "4.0", f"the game ended after Turn {turn}")

    def victory_points(self) -> tuple[dict[str, int], dict[str, str]]:
        """Points each side scores for the other's losses (17.2), and how."""
        pts = self.victory_table.get("points", {})
        armor = set(self.victory_table.get("armor_types", ["armor"]))
        counts: dict[str, dict[str, int]] = {s: {} for s in self.game.sides}
        pieces = list(self.board.replayer.board.pieces.values()) + list(self.gone_pieces.values())
        for p in pieces:
            side = self.board.side_id(p)
            if side not in self.roads.enemy_of:
                continue
            unit = self.board.unit_of(p)
            gone = p.id in self.gone_pieces or self.board.replayer.piece_where(p).label in self.eliminated_zones
            if unit is not None:
                kind = "armor" if unit.type in armor else "other"
                if gone:
                    what = f"eliminated_{kind}"
                elif unit.steps == 2 and self.board.reduced(p):
                    what = f"reduced_{kind}"
                else:
                    continue
            elif self.board.leader_of(p) is not None and gone:
                what = "eliminated_leader"
            else:
                continue
            tally = counts[self.roads.enemy_of[side]]
            tally[what] = tally.get(what, 0) + 1
        failures = self.reserve.failures
        if failures:
            counts["axis"]["reserve_failure"] = len(failures) if not isinstance(failures, int) else failures
        score = {s: sum(pts.get(k, 0) * n for k, n in c.items()) for s, c in counts.items()}
        detail = {s: ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(c.items())) for s, c in counts.items()}
        return score, detail

    # -- pieces leaving the game -------------------------------------------------------------
    def removed(self, e: Removed) -> None:
        p = e.piece
        is_leader = self.board.leader_of(p) is not None
        swap = is_leader and self.phase_kind == "reinforcements"  # 13.7: O'Connor/Ritchie replaced
        if (self.board.unit_of(p) is not None or is_leader) and not swap and self.phase_kind is not None:
            self.gone_pieces[p.id] = p

    def added(self, e: Added) -> None:
        key = e.piece.properties().get("UnitId") or e.piece.properties().get("LeaderId")
        for pid, q in list(self.gone_pieces.items()):
            if key and key in (q.properties().get("UnitId"), q.properties().get("LeaderId")):
                del self.gone_pieces[pid]  # back in the game

    # -- play after the end ----------------------------------------------------------------
    def moved(self, e: Moved) -> None:
        if self.game_over is not None and e.old.label != e.new.label and e.piece.properties().get("Kind") in ("unit", "leader"):
            self._play_after_end(e.piece)

    def rolled(self, e: Rolled) -> None:
        self._play_after_end(None)

    def _play_after_end(self, p: Piece | None) -> None:
        if self.game_over is None or self.play_after_end_reported:
            return
        self.play_after_end_reported = True
        _turn, rule, why = self.game_over
        self.find(rule, f"{why}: no more moves or rolls", p)
