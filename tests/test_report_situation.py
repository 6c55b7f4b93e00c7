"""The situation on the map in the HTML report (issue 19): each finding's picture shows the
counters as they stood at its step, drawn with the module's own counter images, and outlines
the hexes its message names."""
from __future__ import annotations

import base64
import io
import shutil
import subprocess
from pathlib import Path

import lxml.html
import numpy as np
import pytest
from PIL import Image

from tests.conftest import SLUG as BITS
from tests.rules.test_bravery_rules import start
from validators import batch, report_html
from validators.audit import audit_file
from validators.findings import AuditReport, Finding, MatchSummary
from validators.report_html import NAMED_INK, as_html
from validators.situation import Counter, face_image, situations, situations_for
from validators.vlog.reader import read_record
from validators.replay.writer import LogWriter

MOVER, FLIPPED = "15pz-8pz-1", "15pz-8pz-2"


@pytest.fixture(scope="module")
def match(built, game, tmp_path_factory):
    """A 15PZ unit pulled out of its stack goes 0608-0508-0408 (4 MP > MA 3: rule 6.2); after
    that finding a second unit is flipped and the first moves on to 0409."""
    root, _, _ = built
    w = LogWriter(root / "generated" / BITS / f"{BITS}.vmod")
    start(w)
    w.move("chit-15pz#1", "Activation 8")
    w.move(MOVER, "0508")
    w.move(MOVER, "0408")
    act = len(w.steps)
    w.flip(FLIPPED)
    w.move(MOVER, "0409")
    path = tmp_path_factory.mktemp("situation") / "match.vlog"
    w.write(path)
    report = audit_file(game, path)
    assert [(f.step, f.rule, f.path) for f in report.findings] == [(act, "6.2", ("0608", "0508", "0408"))]
    return report, act, len(read_record(path).steps)


def at(game, situation, hex_id: str) -> list[Counter]:
    return [c for c in situation if game.geometry.label_at(c.x, c.y) == hex_id]


def picture(page: str, i: int = 0) -> Image.Image:
    src = lxml.html.fromstring(page).xpath("//img/@src")[i]
    return Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).convert("RGB")


def art_match(game, img, box, c: Counter, image: str, inner: float = 0.8) -> float:
    """Share of the pixels of the middle of the counter's square (as drawn in the picture: scaled,
    shifted by its stack level) that have the colour of `image` scaled the same way."""
    k = img.width / (box[2] - box[0])
    n = round(game.info.counter.pixels * k)
    sx, sy = (max(v * k, report_html.MIN_SEP) for v in report_html.STACK_SEP)
    cx, cy = (c.x - box[0]) * k + c.level * sx, (c.y - box[1]) * k - c.level * sy
    art = np.asarray(face_image(game, image).resize((n, n), Image.LANCZOS), int)
    m = round(n * (1 - inner) / 2)
    x0, y0 = round(cx - n / 2), round(cy - n / 2)
    got = np.asarray(img, int)[y0 + m:y0 + n - m, x0 + m:x0 + n - m]
    return float((np.abs(art[m:n - m, m:n - m] - got).max(axis=2) <= 48).mean())


def test_the_snapshot_is_the_board_at_the_finding_step(game, match):
    report, act, last = match
    at_act = situations_for(report)[act]
    at_end = situations(read_record(Path(report.log)), [last])[last]
    mover = "unit-15pz-8pz-1-full.png"
    assert [c.image for c in at(game, at_act, "0408")] == [mover] and at(game, at_act, "0409") == []
    assert [c.image for c in at(game, at_end, "0409")] == [mover] and at(game, at_end, "0408") == []
    assert at(game, at_act, "0408")[0].moved
    # the flip comes after the finding: the full face then, the reduced face (its Layer) at the end
    assert "unit-15pz-8pz-2-full.png" in [c.image for c in at(game, at_act, "0608")]
    assert "unit-15pz-8pz-2-reduced.png" in [c.image for c in at(game, at_end, "0608")]
    stack = [c for c in at(game, at_act, "0608") if c.image.startswith("unit-")]
    assert sorted(c.level for c in stack) == [0, 1, 2]  # three units left in the stack, bottom first


def test_the_picture_shows_the_counters_where_they_stood(game, match):
    report, act, _ = match
    sit = situations_for(report)
    img = picture(as_html(game, report, sit))
    box = report_html._Board(game).crop_box(["0608", "0508", "0408"])
    mover = at(game, sit[act], "0408")[0]
    assert art_match(game, img, box, mover, mover.image) > 0.35  # under the path's arrow head
    top = max((c for c in at(game, sit[act], "0608") if c.image.startswith("unit-")), key=lambda c: c.level)
    assert art_match(game, img, box, top, top.image) > 0.5  # the top of the stack left behind
    # where the unit ends the log (0409) and where it only passed (0508) the board shows
    for hex_id in ("0409", "0508"):
        x, y = game.geometry.centre(hex_id)
        assert art_match(game, img, box, Counter(x, y, mover.image, ""), mover.image) < 0.1, hex_id
    # without the snapshot the same picture has no counter there
    bare = picture(as_html(game, report))
    assert art_match(game, bare, box, mover, mover.image) < 0.2


def edge_hits(game, img, box, hex_id: str, ink: str) -> int:
    from tests.test_report_html import near, to_picture

    pts = game.geometry.outline(hex_id)
    mids = [((x1 + x2) / 2, (y1 + y2) / 2) for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1])]
    return sum(near(img, to_picture(game, box, img, m), ink, radius=3) for m in mids)


def test_hexes_named_in_the_message_are_outlined(game, match):
    report, _, _ = match
    img = picture(as_html(game, report, situations_for(report)))
    box = report_html._Board(game).crop_box(["0608", "0508", "0408"])
    assert edge_hits(game, img, box, "0508", NAMED_INK) >= 5  # named, neither start nor end
    assert not any(game.geometry.adjacent("0410", h) for h in ("0608", "0508", "0408"))
    assert edge_hits(game, img, box, "0410", NAMED_INK) == 0  # not named
    # a finding with no move gets a picture of the hexes its message names (not "3.5" or "4")
    f = Finding(3, 1, "Axis", None, None, None, "8.1", "0410 holds 3.5 stacking points > 4 next to 0411")
    page = as_html(game, AuditReport(BITS, "a.vlog", MatchSummary(3, (), {}, 0), (f,)))
    img = picture(page)
    box = report_html._Board(game).crop_box(["0410", "0411"])
    assert edge_hits(game, img, box, "0410", NAMED_INK) >= 5 and edge_hits(game, img, box, "0411", NAMED_INK) >= 5


def test_a_counter_of_unknown_image_is_a_labelled_square(game):
    x, y = game.geometry.centre("0410")
    f = Finding(1, 1, "Axis", "x", None, "0410", "6.1", "moved")
    report = AuditReport(BITS, "a.vlog", MatchSummary(1, (), {}, 0), (f,))
    img = picture(as_html(game, report, {1: (Counter(x, y, "another-module.png", "Foreign unit"),)}))
    box = report_html._Board(game).crop_box(["0410"])
    k = img.width / (box[2] - box[0])
    cx, cy, r = (x - box[0]) * k, (y - box[1]) * k, game.info.counter.pixels * k * 0.35
    square = np.asarray(img, int)[round(cy - r):round(cy + r), round(cx - r):round(cx + r)]
    grey = (np.abs(square - (0xd9, 0xd4, 0xc7)).max(axis=2) <= 20).mean()
    dark = (square.max(axis=2) < 90).mean()  # the label
    assert grey > 0.5 and dark > 0.02


def test_render_replays_the_log_deterministically_and_json_is_unchanged(game, match, tmp_path):
    report, _, _ = match
    html = batch.render(game, report, "html")
    assert html == batch.render(game, report, "html")
    assert html != as_html(game, report).encode("utf-8")  # the counters are in it
    assert html == as_html(game, report, situations_for(report)).encode("utf-8")
    for key in ("situation", "image", "level"):
        assert f'"{key}"' not in batch.render(game, report, "json").decode()
    # a log gone since the audit: the pictures lose their counters, the report is still written
    gone = AuditReport(report.game, str(tmp_path / "gone.vlog"), report.summary, report.findings)
    assert situations_for(gone) == {}
    assert batch.render(game, gone, "html").count(b"<img") == 1


@pytest.mark.skipif(not shutil.which("chromium"), reason="chromium is not installed")
def test_headless_chromium_paints_the_counters(game, match, tmp_path):
    """The report as a browser shows it: the picture where the page puts it holds the moved unit's
    art at its hex of the finding's step."""
    from tests.test_report_html import FLAGS

    report, act, _ = match
    page = batch.render(game, report, "html").decode("utf-8")
    probe = page.replace("</body>", "<script>window.addEventListener('load', () => {const r ="
                                    " document.images[0].getBoundingClientRect(); document.body.dataset.rect ="
                                    " [r.left, r.top, r.width, r.height].join(',');});</script></body>")
    (tmp_path / "probe.html").write_text(probe, encoding="utf-8")
    (tmp_path / "report.html").write_text(page, encoding="utf-8")
    browser = [shutil.which("chromium"), *FLAGS, f"--user-data-dir={tmp_path / 'p'}", "--window-size=1000,1400",
               "--hide-scrollbars", "--virtual-time-budget=5000"]
    run = lambda *args: subprocess.run([*browser, *args], capture_output=True, text=True, timeout=60)  # noqa: E731
    dom = run("--dump-dom", (tmp_path / "probe.html").as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    rect = lxml.html.fromstring(dom.stdout).find(".//body").get("data-rect")
    left, top, width, height = (float(v) for v in rect.split(","))
    shot = tmp_path / "shot.png"
    res = run(f"--screenshot={shot}", (tmp_path / "report.html").as_uri())
    assert res.returncode == 0 and shot.is_file(), res.stderr[-2000:]
    want = picture(page)
    assert (round(width), round(height)) == want.size  # shown at its own size
    x0, y0 = round(left), round(top)
    seen = Image.open(shot).convert("RGB").crop((x0, y0, x0 + want.width, y0 + want.height))
    box = report_html._Board(game).crop_box(["0608", "0508", "0408"])
    mover = at(game, situations_for(report)[act], "0408")[0]
    assert art_match(game, seen, box, mover, mover.image) > 0.35
    x, y = game.geometry.centre("0409")
    assert art_match(game, seen, box, Counter(x, y, mover.image, ""), mover.image) < 0.1
