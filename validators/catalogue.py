"""The catalogue of the rules a log can show (sources/<game>/rules.yaml, loaded with the game).

`hexforge rules GAME` prints it with what the auditor does with each rule; the audit reports
take from it the text they print beside each finding's rule number.  The numbers are exact:
a rule the catalogue does not hold gets no text rather than its parent's.
"""
from __future__ import annotations

from builder.model.game import Game
from validators.findings import Finding

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (an audit never needs it: issue 36)
if TYPE_CHECKING:  # the schema is for annotations: an audit runs on the plain model (plain.py)
    from builder.model import schema as s

LABELS = {"audited": "audited", "partly": "partly", "not audited": "not audited",
          "not checkable": "not checkable from a log"}


def entries(game: Game) -> dict[str, s.RuleEntry]:
    """Catalogued rules by number, in the file's order (empty when the game has no catalogue)."""
    return {r.number: r for r in game.rules.rules} if game.rules else {}


def rule_text(game: Game, number: str) -> str | None:
    """The short text of a rule, for printing beside its number."""
    r = entries(game).get(number)
    return r.text if r else None


def with_rule_texts(game: Game, findings: list[Finding]) -> list[Finding]:
    """Each finding with the text of its rule (findings whose rule is not catalogued unchanged)."""
    known = entries(game)
    return [f.replace(rule_text=known[f.rule].text) if f.rule in known and f.rule_text is None else f
            for f in findings]


def counts(game: Game) -> dict[str, int]:
    """How many catalogued rules have each status, every status listed."""
    from builder.model.schema import RULE_STATUSES  # here: an audit never needs the schema

    out = {st: 0 for st in RULE_STATUSES}
    for r in entries(game).values():
        out[r.status] += 1
    return out


def registry(game: Game) -> tuple:
    """The rule classes of a game on the rules kernel (empty for a game not moved onto it yet)."""
    from validators.games import NoRules, rules_for
    from validators.kernel.engine import RulesAuditor

    try:
        auditor = rules_for(game)
    except NoRules:
        return ()
    return auditor.RULES if issubclass(auditor, RulesAuditor) else ()


def code(game: Game) -> dict[str, list[str]]:
    """For each catalogued rule, the rule classes that check it ("validators/...py:Class"): those
    whose numbers (`ids` and `covers`) hold it or a rule under it."""
    from validators.kernel.selection import under

    rules = registry(game)
    return {n: [r.code() for r in rules if any(under(x, n) for x in r.numbers(game))] for n in entries(game)}


def as_json(game: Game) -> str:
    where = code(game)
    rules = [{"number": r.number, "title": r.title, "text": r.text, "status": r.status, "note": r.note,
              "ranks": list(r.ranks), "tests": list(r.tests), "code": where[r.number]}
             for r in entries(game).values()]
    doc = {"game": game.slug, "title": game.info.title, "source": game.rules.source if game.rules else None,
           "counts": counts(game), "rules": rules}
    import json  # only here: an audit never writes the catalogue (start-up, issue 29)

    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def as_text(game: Game) -> str:
    """One block per rule: number, status and title; its text; the note; the tests."""
    known = entries(game)
    tally = ", ".join(f"{LABELS[st]} {n}" for st, n in counts(game).items())
    lines = [f"{game.info.title}: {len(known)} rules a log can show ({tally})",
             f"from {game.rules.source}" if game.rules else "", ""]
    width = max((len(n) for n in known), default=0)
    pad = " " * (width + 2)
    where = code(game)
    for r in known.values():
        ranks = f" [rank {', '.join(map(str, r.ranks))}]" if r.ranks else ""
        lines.append(f"{r.number.ljust(width)}  {LABELS[r.status]}: {r.title}{ranks}")
        lines.append(f"{pad}{r.text}")
        if r.note:
            lines.append(f"{pad}note: {r.note}")
        lines += [f"{pad}code: {c}" for c in where[r.number]]
        lines += [f"{pad}test: {t}" for t in r.tests]
    return "\n".join(lines) + "\n"
