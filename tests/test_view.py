"""`hexforge view`: the match in one self-contained HTML page (issue 34).

The page's data is checked against an independent replay of the log on every step: each counter
at the location the replay gives, with the name VASSAL shows; its findings are the audit's.  A
real browser (Debian's chromium, driven by Playwright) then opens the page: no console error,
`#step=N` shows the replay's board of step N, the arrow key and a finding's click move to their
step.
"""
from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builder.paths
from builder.model import load_game
from tests.conftest import REALDATA, SLUG, loaded_game, needs_realdata
from tests.rules.desert_fox_play import dfd_module  # noqa: F401 (the fixture)
from tests.rules.slouch_play import slouch_module  # noqa: F401 (the fixture)
from validators.audit import audit_file
from validators.cli import app
from validators.replay.replayer import Replayer
from validators.replay.writer import LogWriter
from validators.view.frames import board_at
from validators.view.module_art import ModuleArt
from validators.view.page import page_data, read_data
from validators.vlog.modulegrid import read_vmod_grids
from validators.vlog.reader import read_record

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
runner = CliRunner()


@pytest.fixture(scope="module")
def vmod(built) -> Path:
    return built[0] / "generated" / SLUG / f"{SLUG}.vmod"


@pytest.fixture(scope="module")
def match(built, vmod, tmp_path_factory) -> Path:
    """A short log as the engine writes it: turns, a chit drawn, a move undone, a flip, chat, dice."""
    w = LogWriter(vmod)
    w.turn(1, "Chits into the mug")                    # 1
    w.move("chit-15pz#1", "Mug")                       # 2
    w.turn(1, "Activations")                           # 3
    w.move("chit-15pz#1", "Activation 8")              # 4
    w.move("15pz-8pz-1", "0607")                       # 5, taken back by 6
    w.undo()                                           # 6
    w.move("15pz-8pz-1", "0606")                       # 7
    w.chat("Axis", "I attack <Tobruk> & Sidi </script><!-- Rezegh")  # 8
    w.roll("Axis dice", [5, 2], "Axis")                # 9 (no enemy in 0606: rule 6.5)
    w.flip("15pz-8pz-1")                               # 10
    path = tmp_path_factory.mktemp("view") / "match.vlog"
    w.write(path)
    return path


@pytest.fixture
def view(built, monkeypatch, tmp_path):
    """Runs `hexforge view ...` in the scratch build's root; the page's text (or the result)."""
    monkeypatch.setattr(builder.paths, "ROOT", built[0])

    def run(*args, expect: int = 0):
        out = tmp_path / f"page-{len(list(tmp_path.iterdir()))}.html"
        result = runner.invoke(app, ["view", *map(str, args), "--out", str(out)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == expect, result.stdout + result.stderr
        assert "Traceback" not in result.stdout + result.stderr
        return out.read_text(encoding="utf-8") if expect == 0 else result
    return run


def replayed_boards(log: Path, vmod: Path) -> list[dict[str, tuple]]:
    """piece id -> (map, x, y, location, name) before step 1 and after each step, every logged
    step applied in log order as VASSAL plays a log back (an undo step restores the board)."""
    record = read_record(log)
    r = Replayer(record, read_vmod_grids(vmod))

    def board():
        return {p.id: (p.map, p.x, p.y, r.piece_where(p).label, p.name) for p in r.board.pieces.values()
                if p.map is not None}
    boards = [board()]
    for step in record.steps:
        r._apply(step)  # the replay's step in log order (as `log dump` reads it)
        boards.append(board())
    return boards


LOGS = ["match", "bits-all-actions", "bits-stack-drag", "bits-double-back-over-ma"]


def log_path(name: str, match: Path) -> Path:
    return match if name == "match" else ENGINE / f"{name}.vlog"


@pytest.mark.parametrize("name", LOGS)
def test_every_step_shows_every_counter_where_the_replay_has_it(name, match, vmod, view, game):
    log = log_path(name, match)
    data = read_data(view(SLUG, log))
    boards = replayed_boards(log, vmod)
    assert len(data["steps"]) == len(boards) - 1 == len(read_record(log).steps)
    moved = 0
    for n, expected in enumerate(boards):
        assert board_at(data, n) == expected, f"step {n}"
        moved += n > 0 and expected != boards[n - 1]
    assert moved >= 3  # the log moves counters: the comparison is not of one board with itself
    report = audit_file(game, log)
    assert [(f["step"], f["rule"], f["message"], f["text"]) for f in data["findings"]] == \
        [(f.step, f.rule, f.message, f.rule_text or "") for f in report.findings]
    assert data["audited"] is True


@pytest.mark.parametrize("fixture, log", [
    ("wdf_module", "wdf-stack-drag"), ("tobrouk_module", "tobrouk-legal"), ("slouch_module", "sh-events"),
    ("dfd_module", "dfd-trail-of-the-fox-packed-planted")])
def test_an_engine_log_of_each_game(fixture, log, request):
    """Each game's module draws one of its engine-written logs: every counter at the replay's
    location on every step, and the audit's findings listed."""
    plain, vmod = request.getfixturevalue(fixture)
    game = loaded_game(plain.slug)
    path = ENGINE / f"{log}.vlog"
    report = audit_file(game, path)
    data = page_data(path, ModuleArt(vmod), report, game)
    boards = replayed_boards(path, vmod)
    assert len(data["steps"]) == len(boards) - 1
    assert all(board_at(data, n) == b for n, b in enumerate(boards))
    assert sum(b != boards[n] for n, b in enumerate(boards[1:])) >= 1
    assert [(f["step"], f["rule"], f["message"]) for f in data["findings"]] == \
        [(f.step, f.rule, f.message) for f in report.findings]
    assert any(m["boards"] and m["boards"][0]["image"] for m in data["maps"])


def test_a_board_is_stored_once_then_only_what_each_step_changed(match, view):
    data = read_data(view(SLUG, match))
    assert len(data["start"]) > 50
    sizes = [len(s["d"]) for s in data["steps"]]
    assert max(sizes) < 10 and sum(sizes) < len(data["start"])
    assert data["steps"][5]["d"] and data["steps"][7]["d"] == []  # the undo restores; chat changes nothing


def test_the_page_fetches_nothing_and_holds_each_image_once(match, view):
    page = view(SLUG, match)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?(https?:|//)|@import|fetch\(|XMLHttpRequest""",
                         page)
    data = read_data(page)
    images = [u for u in data["images"] if u]
    assert images and all(u.startswith("data:image/") for u in images)
    assert all(page.count(u) == 1 for u in images)
    assert all(b["image"].startswith("data:image/") for m in data["maps"] for b in m["boards"] if b["image"])
    assert any(b["image"] for m in data["maps"] for b in m["boards"])  # the board art is in the page
    assert 'id="hexforge-view" data-current-step="0"' in page
    assert page.count("</script>") == 2  # a chat line's "</script>" stays inside the data
    assert any("</script><!--" in text for s in data["steps"] for text, _, _ in s["l"])


def test_the_log_beside_the_map_is_the_dump(match, view, built, monkeypatch):
    data = read_data(view(SLUG, match))
    monkeypatch.setattr(builder.paths, "ROOT", built[0])
    dumped = runner.invoke(app, ["log", "dump", str(match), "--game", SLUG]).stdout.splitlines()
    lines = [text for s in data["steps"] for text, _, _ in s["l"]]
    assert lines == [d for d in dumped if re.match(r"^\s*\d+  ", d)]
    assert data["steps"][4]["l"][0][2] == 1  # step 5, undone, marked
    assert data["steps"][2]["t"] == "Turn 1: Activations" and "t" not in data["steps"][3]
    assert data["steps"][6]["m"]  # the move of step 7 drawn as a path


def test_a_log_of_another_module_is_drawn_with_that_module_without_findings(match, vmod, view, tmp_path):
    other = tmp_path / "other.vmod"
    shutil.copy(vmod, other)
    data = read_data(view(match, "--module", other))
    assert data["findings"] == [] and data["audited"] is False
    boards = replayed_boards(match, other)
    assert all(board_at(data, n) == b for n, b in enumerate(boards))


def test_the_audits_html_report_is_this_page(match, view, built, monkeypatch, tmp_path):
    """`audit --format html` writes the page of `view`, findings in it (one page, one way to draw)."""
    monkeypatch.setattr(builder.paths, "ROOT", built[0])
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["audit", SLUG, str(match), "--out", str(out)])
    assert result.exit_code == 1 and "Traceback" not in result.stdout + result.stderr  # the log breaks 6.5
    report, viewed = read_data(out.read_text(encoding="utf-8")), read_data(view(SLUG, match))
    assert report == viewed and [f["rule"] for f in report["findings"]] == ["6.5"]


def test_an_html_report_needs_the_module_it_draws_with(match, monkeypatch, tmp_path):
    from tests.conftest import copy_sources

    copy_sources(tmp_path)  # the sources, never built
    monkeypatch.setattr(builder.paths, "ROOT", tmp_path)
    result = runner.invoke(app, ["audit", SLUG, str(match), "--format", "html"])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "not built yet; run `hexforge build bravery-in-the-sand` first" in line


def test_an_invisible_piece_is_hidden_by_its_owner():
    """The Invisible trait (`hide;`, vassal-formats.md 3.15): its state names who hid the piece."""
    from validators.replay.board import Piece
    from validators.view.frames import _mask, _Table

    typ = "hide;I;Hide;;;0.3;;false\tpiece;;;chit.png;Recon"
    images, names = _Table(), _Table()
    assert _mask(Piece("1", typ, "Axis\tnull;0;0;;"), images, names) == (names("Axis"), -1, -1)
    assert _mask(Piece("2", typ, "null\tnull;0;0;;"), images, names) == ()


@needs_realdata
def test_a_third_party_module_draws_its_own_log(view):
    """Ragnarok (SPI, 1981), a module hexforge did not build, and a log its engine wrote."""
    vmod, log = REALDATA / "modules" / "ragnarok.vmod", REALDATA / "engine-logs" / "ragnarok-3.8.vlog"
    data = read_data(view(log, "--module", vmod))
    boards = replayed_boards(log, vmod)
    assert data["module"] == "Ragnarok (SPI) 1981" and data["findings"] == [] and len(data["steps"]) == 14
    assert all(board_at(data, n) == b for n, b in enumerate(boards))
    assert {m["name"] for m in data["maps"] if any(b["image"] for b in m["boards"])} >= {"Main Map"}


@pytest.mark.parametrize("args, says", [
    (["no-such.vlog"], "no such file"),
    (["{vmod}"], "not a"),  # a module is no log
])
def test_bad_input_is_one_line(args, says, view, vmod):
    result = view(SLUG, *[a.format(vmod=vmod) for a in args], expect=2)
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1


# ---- in a real browser -------------------------------------------------------------------------

def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    exe = _chromium()
    if exe is None:
        pytest.skip("no chromium on this machine (apt-get install chromium): the browser test is skipped")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield b
        b.close()


def shown(page) -> Counter:
    return Counter(tuple(x) for x in page.eval_on_selector_all(
        "[data-piece]", "els => els.map(e => [e.dataset.piece, e.dataset.location])"))


def expected(board: dict) -> Counter:
    return Counter((name, loc) for _, _, _, loc, name in board.values())


@pytest.mark.parametrize("name", ["match", "bits-all-actions"])
def test_the_page_in_chromium(name, browser, match, vmod, view, tmp_path):
    log = log_path(name, match)
    html = tmp_path / "view.html"
    html.write_text(view(SLUG, log), encoding="utf-8")
    boards = replayed_boards(log, vmod)
    data = read_data(html.read_text(encoding="utf-8"))
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    for n in range(len(boards)):
        page.goto(f"{html.as_uri()}#step={n}")
        page.reload()  # the address's step when the page opens, not a change of hash
        assert page.get_attribute("#hexforge-view", "data-current-step") == str(n)
        assert shown(page) == expected(boards[n]), f"step {n}"
        if n + 1 < len(boards):
            page.keyboard.press("ArrowRight")
            assert page.get_attribute("#hexforge-view", "data-current-step") == str(n + 1)
            assert shown(page) == expected(boards[n + 1]), f"step {n + 1} by ArrowRight"
    page.keyboard.press("Home")
    assert page.get_attribute("#hexforge-view", "data-current-step") == "0"
    page.eval_on_selector("#slider", "s => { s.value = 3; s.dispatchEvent(new Event('input')); }")
    assert page.get_attribute("#hexforge-view", "data-current-step") == "3"
    assert shown(page) == expected(boards[3])
    items = page.query_selector_all("#findings [data-step][data-rule]")
    assert [(int(i.get_attribute("data-step")), i.get_attribute("data-rule")) for i in items] == \
        [(f["step"], f["rule"]) for f in data["findings"]]
    for item in items:
        page.keyboard.press("Home")
        item.click()
        step = int(item.get_attribute("data-step"))
        assert page.get_attribute("#hexforge-view", "data-current-step") == str(step)
        assert shown(page) == expected(boards[step])
    if items:
        page.keyboard.press("Home")
        page.keyboard.press("n")
        assert page.get_attribute("#hexforge-view", "data-current-step") == items[0].get_attribute("data-step")
    masked = [r for r in data["start"] if len(r) > 9]
    if name == "match":  # the chits in each side's pool are masked by that side
        assert {data["names"][r[9]] for r in masked} == {"Axis", "Commonwealth"}
        axis = next(r for r in masked if data["names"][r[9]] == "Axis")
        chit = f"[data-piece='{data['names'][axis[7]]}']"
        page.keyboard.press("Home")
        faces = lambda: {e for e in page.eval_on_selector_all(chit, "els => els.map(e => e.src)")}  # noqa: E731
        face, mask = data["images"][axis[6]], data["images"][axis[10]]
        assert face != mask and faces() == {face}
        page.select_option("#side", "*")
        assert faces() == {mask}
        page.select_option("#side", "Commonwealth")
        assert faces() == {mask}
        page.select_option("#side", "Axis")
        assert faces() == {face}
        assert shown(page) == expected(boards[0])
    assert errors == [] and requests == []
    page.close()


def test_an_invisible_piece_in_chromium(browser, match, view, tmp_path):
    """A piece its side made invisible: drawn faint for its side and with every face shown; gone,
    with its name out of the stack's list, for the other side."""
    from validators.view.page import render

    data = read_data(view(SLUG, match))
    names = Counter(data["names"][r[7]] for r in data["start"])
    row = next(r for r in data["start"] if len(r) > 9 and data["names"][r[9]] == "Axis" and names[data["names"][r[7]]] == 1)
    row[10:12] = [-1, -1]  # the Axis chit hidden (hide;) instead of masked (obs;)
    name = data["names"][row[7]]
    html = tmp_path / "invisible.html"
    html.write_text(render(data, "invisible"), encoding="utf-8")
    page = browser.new_page()
    page.goto(html.as_uri())
    chit = f"[data-piece='{name}']"

    def drawn():
        return page.eval_on_selector_all(chit, "els => els.map(e => e.classList.contains('invisible'))")
    assert drawn() == [True]
    page.select_option("#side", "Commonwealth")
    assert drawn() == [] and all(name not in t for t in page.eval_on_selector_all(
        ".counter", "els => els.map(e => e.title)"))
    page.select_option("#side", "Axis")
    assert drawn() == [True]
    page.close()


_ACROSS = """() => { const b = document.getElementById('maps'), w = document.querySelector('.wrap').getBoundingClientRect(),
  r = b.getBoundingClientRect(); return [b.scrollWidth, b.clientWidth, w.left, w.top, w.width, r.left, r.top, r.right, r.bottom]; }"""


@pytest.mark.parametrize("size", [(1280, 800), (900, 700)])
def test_the_page_opens_with_the_map_and_its_legend_whole(size, browser, built, match, view, tmp_path):
    """Issue 35: the page opened at zoom 1, and the map panel cut the board at its side, the legend
    mid-word; now it opens with the map fitted across the panel (Fit, or 0, brings that back), so
    the legend is whole in view."""
    from builder.render.legend import legend_rows, place_legend

    html = tmp_path / "view.html"
    html.write_text(view(SLUG, match), encoding="utf-8")
    game = load_game(built[0] / "sources" / SLUG)
    x0, y0, x1, y1 = place_legend(game, legend_rows(game))[0]
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(html.as_uri())
    scroll_w, client_w, left, top, width, *panel = page.evaluate(_ACROSS)
    assert scroll_w <= client_w, "the map runs past the panel's side"
    k = width / game.map.board.width
    assert k < 1  # the board is wider than the panel here: fitted, not shown at full size
    shown_at = (left + x0 * k, top + y0 * k, left + x1 * k, top + y1 * k)
    assert panel[0] <= shown_at[0] and shown_at[2] <= panel[2] and panel[1] <= shown_at[1] and shown_at[3] <= panel[3]
    page.keyboard.press("+")
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert page.evaluate(_ACROSS)[0] > client_w  # zoomed in: cut at the side again (scrolls)
    page.keyboard.press("0")
    assert page.evaluate(_ACROSS)[0] <= client_w
    page.keyboard.press("+")
    page.click("#fit")
    assert page.evaluate(_ACROSS)[0] <= client_w
    page.close()


def test_a_board_as_wide_as_desert_fox_opens_whole_across(browser, match, view, tmp_path):
    """A map of 8,000 px (Desert Fox's board) fits the panel too: the least zoom is below 0.1."""
    from validators.view.page import render

    data = read_data(view(SLUG, match))
    for m in data["maps"]:
        if m["boards"]:
            m["size"] = [8000, 3045]
            m["boards"] = [dict(m["boards"][0], w=8000, h=3045, image=None)]
    html = tmp_path / "wide.html"
    html.write_text(render(data, "wide"), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(html.as_uri())
    scroll_w, client_w, *_ = page.evaluate(_ACROSS)
    assert scroll_w <= client_w
    page.close()
