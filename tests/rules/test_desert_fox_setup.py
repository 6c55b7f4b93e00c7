"""Desert Fox Deluxe 3.1 with the scenario cards (24.0-33.0): every card's set-up checked hex by hex,
its "within N hexes" areas (tables/setup-areas.yaml) and its markers."""
from __future__ import annotations

import pytest
import yaml

from tests.rules.desert_fox_play import audit, dfd_module, rules  # noqa: F401 (the fixture)

SCENARIOS = ("fox-killed", "oconnors-war", "sonnenblume", "desert-fox", "desert-war", "run-for-tunis",
             "trail-of-the-fox", "tunisian-campaign", "rommels-war", "north-african-campaign")


@pytest.fixture
def play(dfd_module, tmp_path):  # noqa: F811
    game, vmod = dfd_module
    return lambda script, **kw: audit(game, vmod, script, tmp_path / "game.vlog", setup_check=True, **kw)


def _start(slug: str) -> tuple[int, str]:
    from builder.paths import REPO
    d = yaml.safe_load((REPO / "sources" / "desert-fox-deluxe" / "scenarios" / f"{slug}.yaml").read_text())
    return d["first_turn"], d.get("start_phase") or "VI"


@pytest.mark.parametrize("slug", SCENARIOS)
def test_3_1_every_cards_own_set_up_is_legal(play, slug):
    turn, phase = _start(slug)
    assert play(lambda w: w.phase(turn, phase), setup=f"{slug}.vsav") == []


def test_3_1_a_unit_within_its_area_is_legal(play):
    def script(w):
        w.move("5-ber", "S1031")  # 30.1: within 3 hexes of Marble Arch S0931 (the card: S0831)
        w.phase(31, "XII")
    assert play(script, setup="trail-of-the-fox.vsav") == []


def test_3_1_a_unit_outside_its_area_is_reported(play):
    def script(w):
        w.move("5-ber", "S1331")  # four hexes from S0931
        w.phase(31, "XII")
    found = play(script, setup="trail-of-the-fox.vsav")
    assert rules(found) == ["3.1"] and "S0931" in found[0].message


def test_3_1_a_unit_off_its_card_hex_is_reported_in_every_card(play):
    def script(w):
        w.move("vf-alger", "A6101")  # 29.0: Alger on A6201
        w.phase(30, "VI")
    assert rules(play(script, setup="run-for-tunis.vsav")) == ["3.1"]


def test_3_1_a_fort_moved_out_of_its_area_is_reported_once(play):
    def script(w):
        w.move("fort-1@C2231", "C2128")  # 26.2: three Level 1 forts within 1 hex of Tobruk C2331
        w.phase(10, "XII")
    found = play(script, setup="sonnenblume.vsav")
    assert rules(found) == ["3.1"] and "Fort Level 1" in found[0].message


def test_3_1_the_giarabub_garrison_may_stand_on_the_hex_axc_2_prints(play):
    def script(w):
        w.move("giarabub-w2002", "W2002")  # AXC-2 prints W2002; the card reads it as Giarabub W0303 (digest 11.16)
        w.phase(4, "VI")
    assert play(script) == []


def test_3_1_the_giarabub_garrison_elsewhere_is_reported(play):
    def script(w):
        w.move("giarabub-w2002", "W0304")
        w.phase(4, "VI")
    found = play(script)
    assert rules(found) == ["3.1"] and "W0303" in found[0].message
