"""The rules' speed per game: a 10,000-step log of each game audited, against a bare decode.

Run: .venv/bin/python benchmarks/rules_bench.py [--games desert-fox-deluxe ...] [--steps 10000]
     [--runs 5] [--vsavdump PATH] [--baseline REV] [--logs DIR]

For each game with a log script below, writes a log of --steps steps with the test log writer
(both sides playing the turn: each phase of the sequence in order, the phasing side's units
stepping to a neighbouring hex and back, combat and other rolls), then times in fresh processes,
in turn (A B C A B C ...): the audit (`hexforge audit GAME LOG --format json`), this tree's
decode alone, pywargame's `vsavdump.py` when --vsavdump names it (a bare decode and print; it
needs Python >= 3.12: `python3.12 -m venv /tmp/vpw && /tmp/vpw/bin/pip install pywargame==0.8.0`,
then `--vsavdump /tmp/vpw/bin/vsavdump.py`), and the audit of --baseline's tree (a git revision,
taken out with `git archive`).  Ratios are medians of the run-by-run CPU ratios.

Issue 29's targets: each game's audit at most 0.6 of vsavdump's CPU on the same file; with
--wdf-pair, a Western Desert Force log where a unit enters the sea every other step at most 1.5
times the same log where it steps onto open ground instead.
Desert Fox, Bravery in the Sand and Tobrouk 41-42 have log scripts of their own; the other games a
generic one (its first scenario, the sequence of play, the phasing side's units stepping out and
back).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from audit_bench import (DECODE, ROOT, baseline_tree, compile_tree, entry, measure_paired,  # noqa: E402
                         paired)

TARGET = 0.6
OPEN = ("desert", "clear", "open", "plain", "flat")  # terrain a step and back costs little in every game


def desert_fox_log(path: Path, steps: int) -> None:
    """Fox Killed from its saved setup (GT 4 Phase VI): each GT the Axis units of the Cyrenaica
    front step east and back in Phase VI, the Allied ones in Phase IX, a combat roll in VIII and
    XI, and the tracker walks every phase to XX."""
    from builder.model import load_game
    from builder.model.plain import plain_game
    from builder.vassal.module import build_vmod
    from tests.rules.desert_fox_play import FoxWriter

    game = load_game(ROOT / "sources" / "desert-fox-deluxe")
    vmod = path.with_suffix(".vmod")
    vmod.write_bytes(build_vmod(game)[0])
    plain = plain_game(game)
    w = FoxWriter(plain, vmod, "fox-killed.vsav", tracker_from_setup=True)
    moves = {"axis": _steppers(w, plain, "axis"), "allied": _steppers(w, plain, "allied")}
    names = [p["id"] for p in plain.tables["sequence"].data["phases"]]
    gt, first = 4, True
    while len(w.steps) < steps:
        for roman in names[names.index("VI") if first else 0:]:
            if not first or roman != "VI":
                w.phase(gt, roman)
            first = False
            side = {"VI": "axis", "IX": "allied"}.get(roman)
            if side:
                _out_and_back(w, moves[side])
            if roman in ("VIII", "XI"):
                name = "Axis" if roman == "VIII" else "Allied"
                w.roll(f"{name} combat 2d6", [1 + gt % 6, 1 + (gt * 5) % 6], name)
            if len(w.steps) >= steps:
                break
        gt += 1
    w.write(path)


def tobrouk_log(path: Path, steps: int) -> None:
    """Crusader from its saved set-up, played by the sequence of play as the module's turn tracker
    writes it (phases A-F by letter): six turns and the extra one (11.4a, 8.2), three pairs of
    maneuvers a turn, each side choosing 3 MP a maneuver (the Axis active, the initiative
    winner's choice: it moves first in phase B), the markers equal at each F and back to 0 in
    the next turn's A, where the initiative is rolled (not on Turn 1: the scenario gives it).
    In its maneuver a side's units out of the enemy's reach and not held by the scenario step
    to a free clear neighbour no enemy unit is next to (within their class's 3 MP, Movement
    Costs Table) and back, in turn, until the maneuver's share of the steps is written (a move
    is measured from where it began: stepping back costs nothing); in each combat phase a unit
    of the side that maneuvered fires at an adjacent enemy, and that enemy back (a die of 1 on a
    column of at most 6: '-' on the Universal Fire Table, no marker placed)."""
    from builder.model import load_game
    from builder.model.plain import plain_game
    from builder.vassal.module import build_vmod
    from tests.rules.tobrouk_play import TobroukWriter

    game = load_game(ROOT / "sources" / "tobrouk-41-42")
    vmod = path.with_suffix(".vmod")
    vmod.write_bytes(build_vmod(game)[0])
    plain = plain_game(game)
    w = TobroukWriter(plain, vmod, "crusader.vsav")
    movers, shots = _tobrouk_movers(w, plain, "crusader")
    side_name = {"axis": "Axis", "commonwealth": "Commonwealth"}
    last = 7  # 11.4a: six turns and the extra one (8.2)
    share = max(2, (steps - 60 * last) // (last * 6))  # the steps of one maneuver
    for turn in range(1, last + 1):
        if turn > 1:
            w.phase(turn, "A")
            for marker in ("mp-axis", "mp-cw"):
                w.move(marker, "MP 0")
            w.roll("Axis initiative 1d6", [1 + turn % 6], "Axis")
        for pair in range(3):
            mp = 3 * (pair + 1)
            for letter, side, marker in (("B", "axis", "mp-axis"), ("D", "commonwealth", "mp-cw")):
                w.phase(turn, letter)
                w.move(marker, f"MP {mp}")
                _tobrouk_maneuver(w, movers[side], share)
                w.phase(turn, "C" if letter == "B" else "E")
                if shots[side]:
                    _tobrouk_fire(w, *shots[side][(turn + pair) % len(shots[side])], side_name[side])
            w.phase(turn, "F")
            if len(w.steps) >= steps:
                w.write(path)
                return
    w.write(path)


def _tobrouk_fire(w, firer: str, target: str, back: bool, side: str) -> None:
    """An offensive shot with a die of 1 (its firer's entrenchment marker taken off first, 5.10c),
    and the target's defensive shot back at it when its column is low enough as well."""
    here = w.location(*_at(w, firer))
    if any(p.properties().get("MarkerId") == "entrenched" and p.map and w.location(p.map, p.x, p.y) == here
           for p in w.board.pieces.values()):
        w.remove(f"entrenched@{here}")
    w.fire(firer, target, 1, side=side)
    if back:
        w.fire(target, firer, 1, side="Axis" if side == "Commonwealth" else "Commonwealth")


def _at(w, ref: str) -> tuple:
    p = w.board.pieces[w.piece(ref)]
    return p.map, p.x, p.y


def _tobrouk_maneuver(w, moves, share: int) -> None:
    """The side's units step out and back, in turn, until `share` steps are written."""
    start, i = len(w.steps), 0
    while moves and len(w.steps) - start < share:
        unit, there, back = moves[i % len(moves)]
        w.move(unit, there)
        w.move(unit, back)
        i += 1


def _tobrouk_movers(w, game, scenario: str):
    """(side -> [(unit, a free clear neighbour, its hex)], side -> [(firer, adjacent enemy)]): the
    units out of the enemy's reach, not held by the scenario (reserves, restricted HQs' units),
    that can step to a clear hex no enemy unit is next to, across no hexside feature, for at most
    3 MP; and the shots of the units in contact whose column at the target is at most 6 (AP, or AT
    +2 on fragile armour), not across a cliff (and whether the target's shot back is so too)."""
    from builder.geometry.hexmap import hexside_key

    geo, units = game.geometry, {u.id: u for u in game.units}
    rules = game.tables["scenario-rules"].data[scenario]
    held = {u for r in rules.get("reserves", ()) for u in r.get("units", ())}
    held |= {u.id for r in rules.get("reserves", ()) if r.get("formation") for u in game.units
             if u.formation == r["formation"]}
    held |= {u.id for r in rules.get("restrictions", ()) for u in game.units if u.hq == r.get("units_of_hq")}
    costs = {t: v["mp"] for t, v in game.table("terrain-effects").data["hex"].items()}
    where, side_of, taken = {}, {}, set()
    for p in w.board.pieces.values():
        if p.map:
            here = w.location(p.map, p.x, p.y)
            taken.add(here)
            u = units.get(p.properties().get("UnitId", ""))
            if u is not None and here in geo:
                where[u.id], side_of[u.id] = here, game.nationality_of_unit(u).side
    combat = {uid for uid in where if units[uid].type not in ("hq", "leader", "air")}
    near = {s: {n for uid in combat if side_of[uid] != s for n in (where[uid], *geo.neighbours(where[uid]))}
            for s in ("axis", "commonwealth")}
    moves = {"axis": [], "commonwealth": []}
    shots = {"axis": [], "commonwealth": []}
    for uid, here in sorted(where.items()):
        u, side = units[uid], side_of[uid]
        if u.type in ("air", "leader") or uid in held:
            continue
        cls = "recon" if u.type == "recon" else "motorised" if u.type == "hq" else u.mode
        if here in near[side]:
            for e in sorted(combat):
                if (side_of[e] != side and uid in combat and _column(u, units[e]) <= 6
                        and geo.adjacent(here, where[e]) and "cliff" not in game.hexside_features.get(
                            hexside_key(here, where[e]), ())):
                    shots[side].append((uid, e, _column(units[e], u) <= 6))
            continue
        free = [n for n in geo.neighbours(here) if n not in taken and n not in near[side]
                and game.hex_terrain[n] == "clear" and not game.hexside_features.get(hexside_key(here, n))
                and float(costs["clear"][cls]) <= 3]
        if free:
            moves[side].append((uid, free[0], here))
            taken.add(free[0])
    return moves, shots


def _column(firer, target) -> int:
    """The Universal Fire Table's column before shifts: AP, or AT at armour (+2 if fragile)."""
    return ((firer.at if target.armoured else firer.ap) or 0) + (2 if target.armoured and target.fragile else 0)


def _out_and_back(w, moves, wader=None) -> None:
    """Each unit steps out and back; between a unit's two steps, the wader (if any) steps out and
    back too, so every other step is the wader's."""
    for unit, there, back in moves:
        w.move(unit, there)
        if wader:
            w.move(wader[0], wader[1])
            w.move(wader[0], wader[2])
        w.move(unit, back)


def _steppers(w, game, side: str, most: int = 12) -> list[tuple[str, str, str]]:
    """(unit, a neighbouring hex of open terrain, its own hex) for up to `most` units of `side` on
    the map: a step there and back costs little, across no hexside feature (an escarpment may
    forbid it) and next to no enemy unit (a zone of control may)."""
    from builder.geometry.hexmap import hexside_key

    geo, units = game.geometry, {u.id: u for u in game.units}
    held, enemy_near = set(), set()
    for p in w.board.pieces.values():
        if p.map:
            held.add(here := w.location(p.map, p.x, p.y))
            u = units.get(p.properties().get("UnitId", ""))
            if u is not None and here in geo and game.nationality_of_unit(u).side != side:
                enemy_near.update((here, *geo.neighbours(here)))
    out = []
    for p in sorted(w.board.pieces.values(), key=lambda p: p.id):
        u = units.get(p.properties().get("UnitId", ""))
        if u is None or not u.ma or u.type in ("air", "fleet", "base", "msu", "dump") or not p.map:
            continue
        ref, here = u.id, w.location(p.map, p.x, p.y)
        if here not in geo or game.nationality_of_unit(u).side != side or here in enemy_near:
            continue
        kinds = game.hex_terrain_types
        free = [n for n in geo.neighbours(here) if n not in held and not kinds[game.hex_terrain[n]].prohibited
                and game.hex_terrain[n] in OPEN and n not in enemy_near
                and not game.hexside_features.get(hexside_key(here, n))]
        if free:
            out.append((ref, free[0], here))
            held.add(free[0])
        if len(out) >= most:
            break
    return out


def bravery_log(path: Path, steps: int) -> None:
    """audit_bench's log: two divisions' units marching up and down the Via Balbia, dice."""
    from audit_bench import make_log

    subprocess.run([sys.executable, "-m", "validators.cli", "build", "bravery-in-the-sand"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    make_log(path, steps)


def generic_log(slug: str, path: Path, steps: int, extra: str | None = None) -> None:
    """Any game from its first scenario's setup, over the game's turns: each turn the tracker walks
    the sequence of play, and in each Movement Phase (every phase, in a game whose phases have no
    kind) the phasing side's units step to a free neighbouring hex and back, as many rounds as
    spread the steps over the turns, a die of that side rolled each round.  (Until 2026-11-27 it
    walked one round a phase, so a 10,000-step log ran 131 turns of Western Desert Force's 23, and
    its steppers crossed escarpments: 282 illegal moves.)"""
    from builder.model import load_game
    from builder.model.plain import plain_game
    from builder.vassal.module import build_vmod
    from validators.replay.writer import LogWriter

    game = load_game(ROOT / "sources" / slug)
    vmod = path.with_suffix(".vmod")
    vmod.write_bytes(build_vmod(game)[0])
    plain = plain_game(game)
    sid = sorted(plain.scenarios)[0]
    players = {s.name: (f"{s.id}-user", s.name) for s in plain.info.sides}
    w = LogWriter(vmod, setup=f"{sid}.vsav", players=players)
    phases = list(plain.tables["sequence"].data["phases"]) if "sequence" in plain.tables else [{"name": "Move"}]
    sides = {s.id: s.name for s in plain.info.sides}
    wader = _wader(w, plain, into=extra) if extra else None
    moves = {side: [m for m in _steppers(w, plain, side) if not wader or m[0] != wader[0]] for side in sides}
    dice = {d.side: d.name for d in plain.info.dice if d.dice == 1}
    turn = plain.info.turns.first
    # the steps spread over the game's turns, as a long game's log is: several rounds of steps a
    # Movement Phase rather than a turn count past the game's end
    moving = [spec for spec in phases if spec.get("kind", "movement") == "movement"]
    per_round = sum(2 * len(moves[side]) * (2 if wader and wader[3] == side else 1) + (side in dice)
                    for spec in moving for side in ([spec["side"]] if spec.get("side") in sides else list(sides)))
    turns = plain.info.turns.last - turn + 1
    rounds = max(1, -(-(steps - turns * len(phases)) // max(1, turns * per_round)))
    while len(w.steps) < steps:
        for spec in phases:
            try:
                w.turn(turn, spec["name"])
            except ValueError:  # the tracker is there already
                pass
            if spec.get("kind", "movement") != "movement":
                continue
            for side in [spec["side"]] if spec.get("side") in sides else list(sides):
                for _ in range(rounds):
                    _out_and_back(w, moves[side], wader if wader and wader[3] == side else None)
                    if side in dice:
                        w.roll(dice[side], [1 + turn % 6], sides[side])
            if len(w.steps) >= steps:
                break
        turn += 1
    w.write(path)


def _wader(w, game, into: str) -> tuple[str, str, str, str]:
    """(unit, the neighbouring hex it steps into - the sea with into="sea", else open ground -,
    its own hex, its side) of a unit on the coast (the other scripts leave it alone)."""
    geo, kinds = game.geometry, game.hex_terrain_types
    held = {w.location(p.map, p.x, p.y) for p in w.board.pieces.values() if p.map}
    units = {x.id: x for x in game.units}
    for p in sorted(w.board.pieces.values(), key=lambda p: p.id):
        u = units.get(p.properties().get("UnitId", ""))
        if u is None or not u.ma or not p.map:
            continue
        here = w.location(p.map, p.x, p.y)
        if here not in geo:
            continue
        sea = [n for n in geo.neighbours(here) if kinds[game.hex_terrain[n]].prohibited]
        land = [n for n in geo.neighbours(here) if n not in held and not kinds[game.hex_terrain[n]].prohibited]
        if sea and land:
            return u.id, sea[0] if into == "sea" else land[0], here, game.nationality_of_unit(u).side
    raise ValueError("no unit stands on the coast next to a free land hex")


def wdf_pair(folder: Path, steps: int) -> tuple[Path, Path]:
    """Two Western Desert Force logs of `steps` steps: a coastal unit steps out and back every
    other step, into the sea (illegal: 11.1) or onto open ground (legal)."""
    out = []
    for into in ("sea", "land"):
        path = folder / f"wdf-{into}-{steps}.vlog"
        if not path.exists():
            code = (f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'benchmarks')!r}]; import rules_bench; "
                    f"rules_bench.generic_log('western-desert-force', __import__('pathlib').Path({str(path)!r}), "
                    f"{steps}, extra={into!r})")
            subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
        out.append(path)
    return out[0], out[1]


LOGS = {"bravery-in-the-sand": bravery_log, "desert-fox-deluxe": desert_fox_log, "tobrouk-41-42": tobrouk_log,
        **{slug: (lambda slug: lambda path, steps: generic_log(slug, path, steps))(slug)
           for slug in ("western-desert-force", "slouch-hats-and-eggshells")}}
GAMES = ("bravery-in-the-sand", "western-desert-force", "tobrouk-41-42", "slouch-hats-and-eggshells",
         "desert-fox-deluxe")


def log_of(folder: Path, slug: str, steps: int) -> Path:
    """The game's log of `steps` steps, written unless already there (--logs keeps them), in a
    child process: a process forked from a large parent counts the parent's size in its peak."""
    path = folder / f"{slug}-{steps}.vlog"
    if not path.exists():
        code = (f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'benchmarks')!r}]; import rules_bench; "
                f"rules_bench.LOGS[{slug!r}](__import__('pathlib').Path({str(path)!r}), {steps})")
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--steps", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--vsavdump", type=Path)
    ap.add_argument("--baseline")
    ap.add_argument("--logs", type=Path)
    ap.add_argument("--wdf-pair", action="store_true", help="only issue 29's pair: Western Desert Force with a unit "
                    "entering the sea every other step, against the same unit stepping onto open ground")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        logs = args.logs or Path(tmp)
        logs.mkdir(parents=True, exist_ok=True)
        base = baseline_tree(args.baseline, Path(tmp) / "base") if args.baseline else None
        compile_tree(ROOT)
        if base:
            compile_tree(base)
        if args.wdf_pair:
            sea, land = wdf_pair(logs, args.steps)
            cmd = [sys.executable, "-m", entry(ROOT), "audit", "western-desert-force"]
            got = measure_paired({"sea": (cmd + [str(sea)], ROOT, None), "land": (cmd + [str(land)], ROOT, None)},
                                 args.runs)
            ratio = paired(got["sea"], got["land"])
            print(f"western-desert-force, a unit into the sea every other step: {got['sea']['cpu']:.3f} s CPU; onto "
                  f"open ground: {got['land']['cpu']:.3f} s; ratio {ratio:.2f} (target 1.5)")
            return
        print(f"{'game':<27} {'row':<9} {'cpu s':>7} {'peak MB':>7} {'x vsavdump':>10} {'x previous':>10}")
        for slug in args.games:
            if slug not in LOGS:
                print(f"{slug:<27} no log script yet")
                continue
            log = log_of(logs, slug, args.steps)
            audit = [sys.executable, "-m", entry(ROOT), "audit", slug, str(log), "--format", "json"]
            rows = {"decode": ([sys.executable, "-c", DECODE, str(log)], ROOT, None), "audit": (audit, ROOT, None)}
            if args.vsavdump:
                python = args.vsavdump.parent / "python"
                rows["vsavdump"] = ([str(python), str(args.vsavdump), str(log)], ROOT, None)
            if base:
                rows["previous"] = ([*audit[:2], entry(base), *audit[3:]], base, None)
            got = measure_paired(rows, args.runs)
            for name, m in got.items():
                vs = paired(m, got.get("vsavdump"))
                prev = paired(m, got.get("previous"))
                cells = f"{m['cpu']:7.3f} {m['mb']:7.1f}" if m else f"{'failed':>7} {'':7}"
                print(f"{slug:<27} {name:<9} {cells} {f'{vs:10.2f}' if vs else '':>10} "
                      f"{f'{prev:10.2f}' if prev else '':>10}")
            vs = paired(got["audit"], got.get("vsavdump"))
            if vs is not None:
                print(f"{slug:<27} audit / vsavdump {vs:.2f}: {'within' if vs <= TARGET else 'over'} {TARGET}")


if __name__ == "__main__":
    main()
