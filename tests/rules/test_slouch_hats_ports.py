"""Slouch Hats and Eggshells: port capacity (7.34, 7.35, 13.2, 13.23, 19.15) on short logs of
Operation Exporter.  Beirut (1519) starts at level 6 of its track 0-1-2-4-6 (reconstructed); the
Blenheims of 11 Squadron (S2?) stand on 1828, the naval units in the Middle East Holding Box."""
from __future__ import annotations

from tests.rules.slouch_play import audit, rules, slouch_module  # noqa: F401 (a fixture)


def run(mod, tmp_path, script):
    game, vmod = mod
    return audit(game, vmod, script, tmp_path / "t.vlog")


def test_7_34_7_35_one_level_in_the_engineering_phase(slouch_module, tmp_path):
    def legal(w):
        w.phase(1, "Engineering")
        w.move("port-beirut", "Beirut port 4")  # demolition, one level
        w.move("port-tripoli", "Tripoli port 2")  # taken back in the phase
        w.move("port-tripoli", "Tripoli port 4")
        w.phase(2, "Engineering")
        w.move("port-beirut", "Beirut port 6")  # recovery, one level
    assert run(slouch_module, tmp_path, legal) == []

    def illegal(w):
        w.phase(1, "Engineering")
        w.move("port-beirut", "Beirut port 2")  # two levels
        w.phase(2, "1st Allied Movement")
        w.move("port-sidon", "Sidon port 1")  # lowered outside the Engineering and Bombardment phases
        w.move("port-beirut", "Beirut port 4")  # raised outside the Engineering phase
        w.phase(2, "Engineering")
        w.move("port-latakia", "Latakia port 1")
    found = run(slouch_module, tmp_path, illegal)
    assert rules(found) == ["7.35", "7.35", "7.34", "7.35"] and found[3].piece == "Latakia Port Level"


def test_13_2_13_23_bombardment_by_the_allied_bombers(slouch_module, tmp_path):
    def script(die: int, levels: str, rolls: int = 1, phase: str = "Bombardment"):
        def s(w):
            w.phase(1, phase)
            w.move("air-11sqn", "1519")
            for _ in range(rolls):
                w.roll("Allied bombardment die", [die], "Allied")
            if levels != "6":
                w.move("port-beirut", f"Beirut port {levels}")
            w.move("air-11sqn", "1828")
            w.phase(1, "Second Supply Conversion")
        return s
    assert run(slouch_module, tmp_path, script(4, "4")) == []  # 1 point: one level
    assert run(slouch_module, tmp_path, script(5, "2")) == []  # 1 point, 2 with the DRM of an S3 Blenheim
    found = run(slouch_module, tmp_path, script(4, "1"))  # three levels for at most 2 points
    assert rules(found) == ["13.23"] and "(reconstructed table)" in found[0].message
    assert rules(run(slouch_module, tmp_path, script(4, "6"))) == ["13.23"]  # the point not applied
    assert rules(run(slouch_module, tmp_path, script(2, "6", rolls=2))) == ["13.23"]  # one roll a bomber
    assert rules(run(slouch_module, tmp_path, script(2, "6", phase="1st Allied Movement"))) == ["13.2"]

    def nothing(w):
        w.phase(1, "Bombardment")
        w.move("port-beirut", "Beirut port 4")
    assert rules(run(slouch_module, tmp_path, nothing)) == ["13.2"]


def test_19_15_a_naval_unit_lowers_its_port_and_goes_back(slouch_module, tmp_path):
    def script(levels: str, back: bool = True, phase: str = "Bombardment"):
        def s(w):
            w.phase(1, phase)
            w.move("naval-destroyers", "Beirut port 6")  # strength 2
            if levels != "6":
                w.move("port-beirut", f"Beirut port {levels}")
            if back:
                w.move("naval-destroyers", "Middle East Holding Box")
            w.phase(1, "Second Supply Conversion")
        return s
    assert run(slouch_module, tmp_path, script("2")) == []
    assert rules(run(slouch_module, tmp_path, script("1"))) == ["19.15"]  # three levels for strength 2
    assert rules(run(slouch_module, tmp_path, script("2", back=False))) == ["19.15"]  # still on the track
    assert rules(run(slouch_module, tmp_path, script("6", back=False))) == ["19.15", "19.15"]  # nor lowered
    assert rules(run(slouch_module, tmp_path, script("6", phase="Supply Status"))) == ["19.15"]
