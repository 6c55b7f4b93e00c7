"""The page of `hexforge view`: one self-contained HTML file that steps through a match.

Nothing is fetched when it opens: the script and style are inline (`view.js`, `view.css`, package
data beside this module), every image is a data: URI written once, and the match is one JSON
document (validators/view/frames.py) the script reads.  The same log and module always give the
same page.

The contract for tools and tests: the root element (`#hexforge-view`) carries
`data-current-step`; each counter on a map is an element with `data-piece` (its name) and
`data-location` (its location at the shown step); each finding an element with `data-step` and
`data-rule`.  The JSON is in `<script id="hexforge-view-data" type="application/json">`.
"""
from __future__ import annotations

import json
import re
from html import escape
from importlib.resources import files
from pathlib import Path

from builder.model import Game
from builder.vassal.buildfile import MAP_ID
from validators.findings import AuditReport, Finding
from validators.view.frames import match_frames
from validators.view.module_art import ModuleArt

DATA_ID = "hexforge-view-data"


def _asset(name: str) -> str:
    return files("validators.view").joinpath(name).read_text(encoding="utf-8")


def page_data(log: Path, art: ModuleArt, report: AuditReport | None = None, game: Game | None = None) -> dict:
    """The JSON the page embeds: the match's frames, the maps with their boards' art, the counter
    images (each once) and the audit's findings (none without a report)."""
    data = match_frames(log, art)
    data["maps"] = [_map(art, name) for name in data["maps"]]
    data["images"] = [art.image_uri(name) if name else None for name in data["images"]]
    data["findings"] = [_finding(f, game) for f in report.findings] if report else []
    data["audited"] = report is not None
    if report is not None and report.notes:  # what no rule reports (pieces a piece map leaves out)
        data["notes"] = list(report.notes)
    data["log"] = Path(str(log)).name
    return data


def _map(art: ModuleArt, name: str) -> dict:
    m = next((m for m in art.maps if m.name == name), None)
    if m is None:  # a map the log names and the module lacks: its counters on a blank field
        return {"name": name, "boards": [], "sep": [0, 0], "size": [0, 0]}
    return {"name": name, "size": list(m.size), "sep": list(m.sep) if m.stacking else [0, 0],
            "boards": [{"name": b.name, "x": b.x, "y": b.y, "w": b.width, "h": b.height,
                        "image": art.image_uri(b.image) if b.image else None} for b in m.boards]}


def _finding(f: Finding, game: Game | None) -> dict:
    """A finding as listed, with the outlines of the hexes it names on the main map (the built
    module's main map is its one board at the map's origin, so board pixels are map pixels)."""
    out = {"step": f.step, "rule": f.rule, "text": f.rule_text or "", "message": f.message, "kind": f.kind,
           "turn": f.turn, "phase": f.phase, "side": f.side, "piece": f.piece}
    if game is not None:
        out["outlines"] = [{"map": MAP_ID, "hex": h, "points": [[round(x, 1), round(y, 1)]
                                                                 for x, y in game.geometry.outline(h)]}
                           for h in finding_hexes(game, f)]
    return out


_WORD = re.compile(r"(?<![\w.])\w+(?![\w.])")  # "3.5" is a number, not hexes "3" and "5"


def finding_hexes(game: Game, f: Finding) -> list[str]:
    """The map hexes a finding is about, in order, once: its move (the path if given, else from
    and to), then the hexes its message names (0607 in "... via 0605-0606-0607")."""
    move = list(f.path) if f.path else [h for h in (f.from_hex, f.to_hex) if h]
    named = [w for w in _WORD.findall(f.message) if any(c.isdigit() for c in w)]
    return list(dict.fromkeys(h for h in move + named if h in game.geometry))


def report_page(report: AuditReport, art: ModuleArt, game: Game) -> str:
    """`audit --format html`: the page of `hexforge view` with the audit's findings in it."""
    log = Path(report.log)
    return render(page_data(log, art, report, game), f"{log.name} - {game.info.title}")


def render(data: dict, title: str) -> str:
    """The whole page for `page_data`."""
    # "<" only ever stands inside a JSON string, where \u003c reads the same: no "</script>" or
    # "<!--" from a piece name or a chat line can end or change the script element
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n<style>{_asset('view.css')}</style>\n</head>\n<body>\n"
            f"<div id=\"hexforge-view\" data-current-step=\"0\" data-steps=\"{len(data['steps'])}\">\n"
            f"<header><h1>{escape(title)}</h1><div id=\"status\"></div></header>\n"
            "<nav id=\"vcr\"><button id=\"first\" title=\"first step (Home)\">First</button>"
            "<button id=\"back\" title=\"back (Left)\">Back</button>"
            "<button id=\"play\" title=\"play / pause (space)\">Play</button>"
            "<button id=\"forward\" title=\"forward (Right)\">Forward</button>"
            "<button id=\"last\" title=\"last step (End)\">Last</button>"
            "<select id=\"speed\" title=\"steps per second\"><option value=\"1\">1/s</option>"
            "<option value=\"2\" selected>2/s</option><option value=\"5\">5/s</option>"
            "<option value=\"10\">10/s</option></select>"
            f"<input id=\"slider\" type=\"range\" min=\"0\" max=\"{len(data['steps'])}\" value=\"0\" "
            "aria-label=\"step\"><span id=\"stepno\"></span>"
            "<select id=\"side\" title=\"masked pieces as a side sees them\"><option value=\"\">every face shown"
            "</option></select><button id=\"zoomout\" title=\"zoom out (-)\">&minus;</button>"
            "<button id=\"zoomin\" title=\"zoom in (+)\">+</button>"
            "<button id=\"fit\" title=\"the whole map across (0)\">Fit</button></nav>\n"
            "<main><section id=\"maps\"></section>\n<aside><div id=\"now\"></div>"
            + _notes(data.get("notes", [])) +
            "<h2>Findings</h2><ol id=\"findings\"></ol><h2>Log</h2><div id=\"log\"></div></aside></main>\n"
            "</div>\n"
            f"<script id=\"{DATA_ID}\" type=\"application/json\">{blob}</script>\n"
            f"<script>{_asset('view.js')}</script>\n</body>\n</html>\n")


def _notes(notes: list[str]) -> str:
    """The audit's notes (pieces a piece map leaves out), listed above the findings; none: nothing."""
    if not notes:
        return ""
    return "<h2>Notes</h2><ul id=\"notes\">" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>"


def read_data(page: str) -> dict:
    """The JSON a page embeds (for tests and tools)."""
    start = page.index(f"<script id=\"{DATA_ID}\" type=\"application/json\">")
    start = page.index(">", start) + 1
    return json.loads(page[start:page.index("</script>", start)])
