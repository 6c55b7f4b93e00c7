"""The piece map file: written by `hexforge map-pieces`, read by `audit --pieces`."""
from __future__ import annotations

import os
from pathlib import Path

import yaml
from pydantic import ValidationError

from builder.model.game import Game
from builder.model.schema import PieceMapFile
from builder.model.yamlsource import YamlProblem, load_located
from validators.othermodule.ours import by_id
from validators.othermodule.renamed import RenamedMap
from validators.replay.identity import PieceIdentity
from validators.vlog.modulegrid import MapSpec

HOW = """\
# Their pieces (the palette of {module}) as ours, for `hexforge audit {slug} LOG --module VMOD --pieces THIS`.
# Each piece: their name and slot id (gpid), `ours`: our unit, leader, marker or chit id
# (`hexforge rules {slug}` and sources/{slug}/units.yaml, markers.yaml list them), the score of the match
# (1 = certain) and why.  A piece with `ours: null` was not matched: write our id there, or leave it
# null and the audit ignores it (it names it once).  Check the low scores.
# `locations`: their location names (hexes, boxes) as ours, {hexes_by}; edit a line if one is wrong.
"""


class PieceMapError(ValueError):
    """A piece map that cannot be used; the message is one line."""


def schema_comment(out: Path, generated: Path) -> str:
    target = generated / "schema" / "piece-map.schema.json"
    try:
        rel = os.path.relpath(target.resolve(), out.resolve().parent)
    except ValueError:
        rel = str(target.resolve())
    return f"# yaml-language-server: $schema={rel}\n"


def dump(m: PieceMapFile, out: Path, generated: Path) -> str:
    head = schema_comment(out, generated) + HOW.format(module=m.module, slug=m.game, hexes_by=m.hexes_by)
    body = yaml.safe_dump(m.model_dump(mode="json"), sort_keys=False, allow_unicode=True, width=120)
    return head + body


def piece_map_schema() -> bytes:
    """The JSON schema editors check a piece map with (generated/schema/piece-map.schema.json)."""
    import json

    from builder.model.json_schema import PIECE_MAP, schema_for

    return (json.dumps(schema_for(PIECE_MAP), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def load(path: Path, game: Game) -> PieceMapFile:
    """Read and check a piece map against the game.  Raises PieceMapError (one line)."""
    try:
        doc = load_located(path, str(path))
    except (YamlProblem, OSError) as exc:
        raise PieceMapError(f"--pieces {path}: {exc}") from None
    try:
        m = PieceMapFile.model_validate(doc.data)
    except ValidationError as exc:
        e = exc.errors()[0]
        where = ".".join(str(x) for x in e["loc"])
        raise PieceMapError(f"--pieces {path}: {where}: {e['msg']}") from None
    if m.game != game.slug:
        raise PieceMapError(f"--pieces {path}: a piece map of {m.game!r}, not {game.slug!r}")
    ours = by_id(game)
    for p in m.pieces:
        if p.ours is not None and p.ours not in ours:
            raise PieceMapError(f"--pieces {path}: piece {p.name!r} names {p.ours!r}, not a unit, leader, marker or "
                                f"chit of {game.info.title}")
    return m


def identity(m: PieceMapFile, game: Game) -> PieceIdentity:
    ours = by_id(game)
    by_gpid, by_name, names = {}, {}, {}
    for p in m.pieces:
        names[p.name] = names.get(p.name, 0) + 1
    for p in m.pieces:
        if p.ours is None:
            continue
        slot = ours[p.ours]
        who = (dict(slot.props), slot.name)
        if p.gpid:
            by_gpid[p.gpid] = who
        if names[p.name] == 1:
            by_name[p.name] = who
    return PieceIdentity(by_gpid, by_name)


def renamed(grids: dict[str, MapSpec], m: PieceMapFile) -> dict[str, MapSpec]:
    """Their maps naming their locations as ours."""
    return {k: RenamedMap.over(v, m.locations) for k, v in grids.items()} if m.locations else grids
