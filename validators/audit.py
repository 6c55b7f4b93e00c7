"""Audit one log: read it, replay it, run the game's rules, summarise the match."""
from __future__ import annotations

from pathlib import Path

from builder.model.cache import cached
from builder.model.game import Game
from builder.paths import generated_dir
from builder.vassal.fingerprint import geometry_fingerprint
from validators.catalogue import with_rule_texts
from validators.findings import AuditReport, MatchSummary
from validators.games import rules_for
from validators.kernel.engine import RulesAuditor
from validators.kernel.selection import Selection
from validators.replay.replayer import Replayer
from validators.written_with import ModuleId, check_geometry
from validators.vlog.container import LogFormatError
from validators.vlog.modulegrid import MapSpec, read_module_grids
from validators.vlog.reader import GameRecord, paused_gc, read_record


def module_grids(game: Game) -> dict[str, MapSpec]:
    """Location names exactly as in the module we build for this game (no images needed); kept
    in the model cache beside the game, so an audit imports none of the module builder."""
    return _module_facts(game)[0]


def geometry(game: Game) -> str:
    """The fingerprint of the geometry this game's module has today (kept in the model cache)."""
    return _module_facts(game)[1]


_FACTS: list = [None, None]  # [the game last asked about, its facts]: made from that game alone


def _module_facts(game: Game) -> tuple[dict[str, MapSpec], str]:
    """The grids and the geometry fingerprint, cached together: one key (one read of the sources
    and of the code that makes them) serves both, as every audit asks for both; and kept for the
    game object last asked about, as they are made from it alone (an audit asks twice, a batch
    worker once per file: the key cost ~8 ms each time)."""
    if _FACTS[0] is game:
        return _FACTS[1]
    here = Path(__file__).resolve()
    code = (here.parents[1] / "builder", here.parent / "vlog", here)  # what the grids and fingerprint are made by
    facts = cached(game.root, "module", lambda: (_module_grids(game), geometry_fingerprint(game)), code)
    _FACTS[:] = [game, facts]
    return facts


def _module_grids(game: Game) -> dict[str, MapSpec]:
    from builder.vassal.buildfile import build_xml, plan

    b = game.map.board
    return read_module_grids(build_xml(plan(game, [], [])), board_sizes={b.name: (b.width, b.height)})


def check_module(game: Game, record: GameRecord, module: ModuleId | None = None) -> None:
    """Refuse a log written with another game's module (its moduledata names the module), or
    with another geometry than the module it is read with (default: this build)."""
    path, meta = record.source.path, record.source.metadata
    name = meta.get("module.name")
    if name and name != game.info.title and not (module and module.pieces):  # another maker may name it otherwise
        raise LogFormatError(f"{path}: a log of module {name!r}, not {game.info.title!r}")
    check_geometry(path, meta, game.info.title, module or ModuleId(game.info.version, geometry(game), "this build"),
                   generated_dir(game.root.parent.parent) / game.slug / "releases")


def make_auditor(game: Game, replayer: Replayer, selection: Selection = Selection()):
    """The game's auditor over a replay; one on the rules kernel runs only the selected rules."""
    cls = rules_for(game)
    if issubclass(cls, RulesAuditor):
        return cls(game, replayer, selection.only, selection.skip)
    return cls(game, replayer)


def audit_record(game: Game, record: GameRecord, grids: dict[str, MapSpec] | None = None,
                 selection: Selection = Selection(), module: ModuleId | None = None) -> AuditReport:
    check_module(game, record, module)
    identify = module.pieces.fresh() if module and module.pieces else None
    replayer = Replayer(record, grids or module_grids(game), identify)
    auditor = make_auditor(game, replayer, selection)
    with paused_gc():
        found = auditor.run()
        if selection:
            found = [f for f in found if selection.reports(f.rule)]
        findings = with_rule_texts(game, found)
    turns = sorted({f.turn for f in findings if f.turn is not None} | ({auditor.turn} if auditor.turn else set()))
    summary = MatchSummary(len(record.steps), tuple(turns), dict(sorted(auditor.dice_by_side.items())),
                           sum(1 for s in record.steps if s.is_undo), auditor.turn)
    notes = tuple(f"piece {n!r} (slot {g or '?'}) is not in the piece map: ignored by the rules"
                  for n, g in sorted(identify.unknown.items())) if identify else ()
    return AuditReport(game.slug, record.source.path, summary, tuple(findings), notes)


def audit_file(game: Game, log: Path, grids: dict[str, MapSpec] | None = None,
               selection: Selection = Selection(), module: ModuleId | None = None) -> AuditReport:
    """Raises LogFormatError when the file cannot be read as a log of this game.

    The collector stays paused across reading and auditing, and starts again only once the
    record is freed: started in between, its first pass walked every object of the record
    (issue 15)."""
    with paused_gc():
        return audit_record(game, read_record(log), grids, selection, module)
