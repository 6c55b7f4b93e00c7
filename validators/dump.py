"""A save or log as a person reads it (`hexforge log dump`): one line per event, steps numbered.

Every logged step is shown in log order, as VASSAL plays a log back: a step later taken back is
shown and marked undone, and the undo step says which step it takes back.  Hex ids, phase names
and the chat lines the engine writes to report a move, a creation or a turn come from the module
(the game's own with --game, any with --module); a move is shown once, not again as its report.
Chat reads as in VASSAL's chat window (entities decoded).
"""
from __future__ import annotations

import html
import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from builder.vassal.counters import MOVE_REPORT as FLIP_REPORT
from builder.vassal.sequence import split
from validators.replay.replayer import Added, Flipped, Moved, Removed, Replayer, Rolled, Said, TurnChanged
from validators.vlog.container import ZIP_ERRORS
from validators.vlog.modulegrid import MAX_BUILD, ModuleFormatError, read_vmod_grids
from validators.vlog.reader import GameRecord, read_record

M = "VASSAL.build.module."
# VASSAL's own defaults (Editor.properties) when a module leaves a report format unset
DEFAULT_MOVE = "$pieceName$ moves $previousLocation$ &rarr; $location$ *"
DEFAULT_CREATE = "$pieceName$ created in $location$ *"
DEFAULT_TURN = "* &lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$"
MAX_REPORT = 4096  # longer chat lines are never taken for a report (and never fed to its pattern)


@dataclass(frozen=True)
class ModuleView:
    """What the dump takes from a module: its name, phase names and the engine's report formats."""

    name: str = ""
    phases: tuple[str, ...] = ()
    move_reports: tuple[re.Pattern, ...] = field(default_factory=lambda: (
        _report_re(DEFAULT_MOVE), _report_re(DEFAULT_MOVE.replace("&rarr;", "->"))))
    create_reports: tuple[re.Pattern, ...] = field(default_factory=lambda: (_report_re(DEFAULT_CREATE),))
    turn_reports: tuple[re.Pattern, ...] = field(default_factory=lambda: (_report_re(DEFAULT_TURN),))
    # a piece's Report Action lines (VASSAL has no default; hexforge's modules report flips so)
    flip_reports: tuple[re.Pattern, ...] = field(default_factory=lambda: (_report_re(FLIP_REPORT),))


def _report_re(fmt: str) -> re.Pattern:
    """A chat line written from `fmt` (`$var$` stand for anything), with the `* ` the engine adds."""
    parts = re.split(r"\$[A-Za-z0-9_]*\$", html.unescape(fmt).strip().removesuffix("*").rstrip())
    if not any(p.strip() for p in parts):  # only variables: no way to tell its lines from chat
        return re.compile(r"(?!)")
    body = r".*?".join(re.escape(p) for p in parts)
    return re.compile(r"^\*\s*" + body.replace(r"\ ", r"\s+") + r"(\s*\*)?\s*$", re.S)


def read_module_view(path: Path) -> ModuleView:
    """Name, phases and report formats of a .vmod.  Raises ModuleFormatError (one line)."""
    try:
        with zipfile.ZipFile(path) as z:
            entry = "buildFile.xml" if "buildFile.xml" in z.namelist() else "buildFile"
            with z.open(entry) as f:
                build = f.read(MAX_BUILD + 1)
            small = "moduledata" in z.namelist() and z.getinfo("moduledata").file_size < 1_000_000
            meta = z.read("moduledata") if small else b""
    except (*ZIP_ERRORS, KeyError) as exc:
        raise ModuleFormatError(f"{path}: not a readable module ({exc})") from None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(build, parser)
    except etree.XMLSyntaxError as exc:
        raise ModuleFormatError(f"{path}: broken build file ({exc})") from None
    name = root.get("name", "")
    try:
        name = etree.fromstring(meta, parser).findtext("name") or name if meta else name
    except etree.XMLSyntaxError:
        pass
    phases: tuple[str, ...] = ()
    for lst in root.iter(M + "turn.ListTurnLevel"):
        phases = tuple(split(lst.get("list", ""), ","))
        break
    maps = [e for e in root.iter() if isinstance(e.tag, str) and e.tag.endswith(("module.Map", "module.PrivateMap",
                                                                              "module.PlayerHand"))]
    moves = {m.get(k) or DEFAULT_MOVE for m in maps for k in ("moveWithinFormat", "moveToFormat")}
    creates = {m.get("createFormat") or DEFAULT_CREATE for m in maps}
    turns = {t.get("reportFormat") or DEFAULT_TURN for t in root.iter(M + "turn.TurnTracker")}
    return ModuleView(name, phases, *(tuple(_report_re(f) for f in sorted(s or {d}))
                                      for s, d in ((moves, DEFAULT_MOVE), (creates, DEFAULT_CREATE),
                                                   (turns, DEFAULT_TURN), (_piece_reports(root), FLIP_REPORT))))


def _piece_reports(root) -> set[str]:
    """The formats of the Report Action traits (`report;keys;format;...`) of the module's
    pieces and prototypes, at the top level of each definition (vassal-formats.md 3.8)."""
    found: set[str] = set()
    for e in root.iter(M + "PrototypeDefinition", M + "widget.PieceSlot"):
        for trait in (e.text or "").split("\t"):
            if trait.startswith("report;"):
                fields = split(trait[len("report;"):], ";")
                if len(fields) > 1 and fields[1].strip():
                    found.add(fields[1])
    return found


@dataclass
class Line:
    step: int
    kind: str  # move, flip, add, del, dice, turn, chat, undo
    text: str
    data: dict
    undone_by: int | None = None


def undo_pairs(record: GameRecord) -> dict[int, int]:
    """step undone -> the undo step that takes it back (each undo takes back the newest step
    still standing, as `effective_steps` counts them)."""
    standing: list[int] = []
    out: dict[int, int] = {}
    for step in record.steps:
        if step.is_undo:
            if standing:
                out[standing.pop()] = step.index
        else:
            standing.append(step.index)
    return out


def dump(path: Path, module: Path | None = None, expect_module: str | None = None,
         expect_geometry: bool = False) -> tuple[dict, Iterator[Line]]:
    """The header facts and the lines of a save or log, the lines made as they are read (a
    long log is never held as lines).  Raises LogFormatError (one line), from the lines too: a
    step the replay cannot read."""
    record = read_record(path)
    grids = read_vmod_grids(module) if module else {}
    view = read_module_view(module) if module else ModuleView()
    logged = record.source.metadata.get("module.name")
    if expect_module and logged and logged != expect_module:
        from validators.vlog.container import LogFormatError

        raise LogFormatError(f"{path}: a log of module {logged!r}, not {expect_module!r}")
    if expect_geometry and module is not None:  # --game: the game's build reads the positions
        from validators.written_with import check_geometry, module_id

        check_geometry(str(path), record.source.metadata, expect_module or view.name,
                       module_id(module).replace(what="this build"), module.parent / "releases")
    replayer = Replayer(record, grids)
    undone = undo_pairs(record)
    takes_back = {u: s for s, u in undone.items()}
    head = {"file": str(path), "module": logged or view.name or None,
            "module_version": record.source.metadata.get("module.version"),
            "vassal_version": record.source.metadata.get("save.VassalVersion"),
            "pieces_at_start": len(replayer.board.pieces), "steps": len(record.steps),
            "undone_steps": sorted(undone), "start": _turn(replayer.initial_turn, view)}
    return head, _lines(record, replayer, undone, takes_back, view)


def replay_lines(record: GameRecord, replayer: Replayer, view: ModuleView) -> Iterator[Line]:
    """The lines of a record over a replayer the caller holds: when the first line of a step
    comes, the replayer's board stands as after that step (`hexforge view` reads it then)."""
    undone = undo_pairs(record)
    return _lines(record, replayer, undone, {u: s for s, u in undone.items()}, view)


def _lines(record: GameRecord, replayer: Replayer, undone: dict[int, int], takes_back: dict[int, int],
           view: ModuleView) -> Iterator[Line]:
    for step in record.steps:
        events = replayer._apply(step)  # every step in log order, as VASSAL plays a log back
        if step.is_undo:
            back = takes_back.get(step.index)
            yield Line(step.index, "undo", f"takes back step {back}" if back else "nothing to take back",
                       {"undoes": back})
            continue
        shown = list(_describe(replayer, step.index, events, view)) or [
            Line(step.index, "other", "no change on the board or in the chat", {})]
        for line in shown:
            line.undone_by = undone.get(step.index)
            yield line


def _loc(w) -> str:
    if w is None:
        return "?"
    return w.label if w.label != "offboard" or w.map is None else f"{w.map} ({w.x},{w.y})"


def _where(w) -> dict:
    return {"map": w.map, "location": w.label, "x": w.x, "y": w.y} if w else {}


def _turn(e: TurnChanged, view: ModuleView) -> dict:
    phase = view.phases[e.phase_index] if e.phase_index is not None and 0 <= e.phase_index < len(view.phases) else None
    return {"turn": e.turn, "phase": phase, "phase_index": e.phase_index}


def _turn_text(t: dict) -> str:
    s = f"Turn {t['turn']}" if t["turn"] is not None else "Turn tracker changed"
    if t["phase"]:
        return f"{s}: {t['phase']}"
    return f"{s}, phase {t['phase_index'] + 1} of the tracker" if t["phase_index"] is not None else s


def _is_echo(text: str, events: list, view: ModuleView) -> bool:
    """A chat line the engine wrote to report this step's move, creation, flip or turn change."""
    if len(text) > MAX_REPORT or not text.lstrip().startswith("*"):
        return False
    kinds = {type(e) for e in events}
    return any(p.match(text) for kind, pats in ((Moved, view.move_reports), (Added, view.create_reports),
                                               (TurnChanged, view.turn_reports), (Flipped, view.flip_reports))
               if kind in kinds for p in pats)


def _describe(r: Replayer, index: int, events: list, view: ModuleView) -> Iterator[Line]:
    for e in events:
        if isinstance(e, Moved):
            yield Line(index, "move", f"{e.piece.name}: {_loc(e.old)} -> {_loc(e.new)}",
                       {"piece": e.piece.name, "id": e.piece.id, "from": _where(e.old), "to": _where(e.new)})
        elif isinstance(e, Flipped):
            yield Line(index, "flip", f"{e.piece.name}: {e.layer} {e.old} -> {e.new} at {_loc(e.where)}",
                       {"piece": e.piece.name, "id": e.piece.id, "layer": e.layer, "from": e.old, "to": e.new,
                        "at": _where(e.where)})
        elif isinstance(e, Added):
            yield Line(index, "add", f"{e.piece.name} at {_loc(e.where)}",
                       {"piece": e.piece.name, "id": e.piece.id, "at": _where(e.where)})
        elif isinstance(e, Removed):
            yield Line(index, "del", f"{e.piece.name} from {_loc(e.where)}",
                       {"piece": e.piece.name, "id": e.piece.id, "at": _where(e.where)})
        elif isinstance(e, Rolled):
            yield Line(index, "dice", f"{e.button}: {', '.join(map(str, e.dice))} ({e.player})",
                       {"button": e.button, "dice": list(e.dice), "player": e.player})
        elif isinstance(e, TurnChanged):
            t = _turn(e, view)
            yield Line(index, "turn", _turn_text(t), t)
        elif isinstance(e, Said):
            text = html.unescape(e.text)
            if not _is_echo(text, events, view):
                yield Line(index, "chat", text, {"text": text})


def as_text(head: dict, lines: Iterable[Line]) -> Iterator[str]:
    module = f" ({head['module']}{' ' + head['module_version'] if head['module_version'] else ''}" \
             f"{', VASSAL ' + head['vassal_version'] if head['vassal_version'] else ''})" if head["module"] else ""
    undone = f", {len(head['undone_steps'])} undone" if head["undone_steps"] else ""
    yield f"{head['file']}{module}: {head['pieces_at_start']} pieces at the start, {head['steps']} logged steps{undone}"
    if head["start"]["turn"] is not None:
        yield f"start  {_turn_text(head['start'])}"
    for line in lines:
        yield line_text(line)


def line_text(line: Line) -> str:
    """One line of the text dump (the page of `hexforge view` shows the same lines)."""
    mark = f"  [undone by step {line.undone_by}]" if line.undone_by else ""
    kind = f"undone {line.kind}" if line.undone_by else line.kind
    return f"{line.step:5d}  {kind:<5}  {line.text}{mark}"


def as_json(head: dict, lines: Iterable[Line]) -> Iterator[str]:
    """The JSON document in pieces, a step at a time (the text json.dumps(indent=1) gives whole)."""
    start = json.dumps({**head, "log": []}, ensure_ascii=False, indent=1)
    yield start[: -len("[]\n}")]
    current: dict | None = None
    first = True
    for line in lines:
        if current is None or current["step"] != line.step:
            if current is not None:
                yield _json_item(current, first)
                first = False
            current = {"step": line.step, "undone_by": line.undone_by, "events": []}
        current["events"].append({"kind": line.kind, "text": line.text, **line.data})
    if current is not None:
        yield _json_item(current, first)
    yield "[]\n}\n" if first else "\n ]\n}\n"


def _json_item(step: dict, first: bool) -> str:
    body = "\n".join("  " + row for row in json.dumps(step, ensure_ascii=False, indent=1).split("\n"))
    return ("[\n" if first else ",\n") + body
