"""The HTML audit report: self-contained, escaped, deterministic, with a map crop per finding
that shows the move where it happened; checked in a real headless Chromium too."""
from __future__ import annotations

import base64
import io
import shutil
import subprocess

import lxml.html
import numpy as np
import pytest
from PIL import Image, ImageStat

from builder.vassal.module import map_png
from validators import report_html
from validators.findings import AuditReport, Finding, MatchSummary
from validators.report_html import END_INK, PATH_INK, START_INK, as_html

HOSTILE = "cost 3.5 MP via 0605-0606-0607 > MA 3 <script>alert('x')</script> & \"quoted\""
PIECE = '21 Pz <Recon> & "Co"'
FINDINGS = (
    Finding(12, 2, "Axis", PIECE, "0605", "0607", "6.1.4", HOSTILE, path=("0605", "0606", "0607"), phase="Movement"),
    Finding(20, 3, "Commonwealth", "7 Armd", None, "0410", "11.2", "replacement placed in 0410, not strategic"),
    Finding(31, 4, "Axis", None, None, None, "13.1", "decisive victory: Axis controls Tobruk", kind="event"),
)
SUMMARY = MatchSummary(137, (1, 2, 3, 4), {"Axis": 41, "Commonwealth": 38}, 5, 4)


def rgb(ink: str) -> tuple[int, int, int]:
    return tuple(int(ink[i:i + 2], 16) for i in (1, 3, 5))


def near(img: Image.Image, xy: tuple[float, float], ink: str, radius: int = 2, tol: int = 40) -> bool:
    """Some pixel within `radius` of xy has (about) the colour `ink`."""
    want, (x0, y0) = rgb(ink), (round(xy[0]), round(xy[1]))
    for x in range(x0 - radius, x0 + radius + 1):
        for y in range(y0 - radius, y0 + radius + 1):
            if 0 <= x < img.width and 0 <= y < img.height:
                if max(abs(a - b) for a, b in zip(img.getpixel((x, y)), want)) <= tol:
                    return True
    return False


@pytest.fixture(scope="module")
def report():
    return AuditReport("bravery-in-the-sand", "/somewhere/match <1>.vlog", SUMMARY, FINDINGS)


@pytest.fixture(scope="module")
def page(game, report):
    return as_html(game, report)


def images(page: str) -> list[Image.Image]:
    doc = lxml.html.fromstring(page)
    out = []
    for src in doc.xpath("//img/@src"):
        assert src.startswith("data:image/png;base64,")
        out.append(Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))))
    return out


def to_picture(game, box, img, xy):
    """Board pixel -> pixel of a crop of `box` scaled to `img`'s size."""
    return ((xy[0] - box[0]) * img.width / (box[2] - box[0]), (xy[1] - box[1]) * img.height / (box[3] - box[1]))


def test_self_contained_and_parses(page):
    doc = lxml.html.fromstring(page)
    assert doc.tag == "html" and doc.find(".//table") is not None
    for el in doc.iter():
        for attr in ("src", "href", "action", "srcset", "poster", "data"):
            v = el.get(attr)
            assert v is None or v.startswith(("data:", "#")), (el.tag, attr, v)
    assert doc.xpath("//link") == [] and doc.xpath("//script") == []
    css = " ".join(doc.xpath("//style/text()"))
    assert "url(" not in css and "@import" not in css


def test_header_and_summary(page):
    doc = lxml.html.fromstring(page)
    assert doc.findtext(".//h1") == "Bravery in the Sand"
    assert doc.xpath("string(//p[@class='log']/code)") == "match <1>.vlog"
    dl = doc.find(".//dl")
    facts = dict(zip([dt.text_content() for dt in dl.findall("dt")], [dd.text_content() for dd in dl.findall("dd")]))
    assert facts == {"Steps": "137", "Turns seen": "1, 2, 3, 4", "Last turn": "4",
                     "Dice rolled": "Axis 41, Commonwealth 38", "Undo": "5", "Violations": "2", "Events": "1"}


def test_findings_table_escaped_and_events_distinguished(page):
    assert "<script" not in page.lower() and "<Recon>" not in page
    doc = lxml.html.fromstring(page)
    rows = doc.xpath("//table[@class='findings']/tbody/tr")
    assert [r.get("class") for r in rows] == ["violation", "violation", "event"]
    first = [td.text_content() for td in rows[0].findall("td")]
    assert first[:8] == ["12", "2", "Movement", "Axis", PIECE, "0605", "0607", "6.1.4"]
    assert first[8] == "VIOLATION " + HOSTILE
    assert rows[2].findall("td")[8].text_content() == "EVENT decisive victory: Axis controls Tobruk"
    assert [r.findall("td")[9].text_content() for r in rows] == ["map", "map", ""]


def test_two_pictures_no_wider_than_480(page):
    imgs = images(page)
    assert len(imgs) == 2
    for im in imgs:
        assert im.format == "PNG" and 100 < im.width <= 480 and im.height <= 480


def test_path_drawn_on_the_right_part_of_the_board(game, page):
    geo, board = game.geometry, report_html._Board(game)
    path_img, single_img = (im.convert("RGB") for im in images(page))
    box = board.crop_box(["0605", "0606", "0607"])
    for h in ("0605", "0606", "0607"):
        assert near(path_img, to_picture(game, box, path_img, geo.ideal_centre(h)), PATH_INK), h

    def edge_hits(img, b, h, ink):
        pts = geo.outline(h)
        mids = [((x1 + x2) / 2, (y1 + y2) / 2) for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1])]
        return sum(near(img, to_picture(game, b, img, m), ink) for m in mids)

    assert edge_hits(path_img, box, "0607", END_INK) >= 3 and edge_hits(path_img, box, "0605", START_INK) >= 3
    # away from the drawing, the picture is the module's board, cropped there
    expected = Image.open(io.BytesIO(map_png(game))).convert("RGB").crop(box).resize(path_img.size, Image.LANCZOS)
    diff = np.abs(np.asarray(path_img.convert("L"), int) - np.asarray(expected.convert("L"), int))
    assert (diff > 40).mean() < 0.08
    box2 = board.crop_box(["0410"])
    assert edge_hits(single_img, box2, "0410", END_INK) >= 5
    assert not near(single_img, to_picture(game, box2, single_img, geo.ideal_centre("0410")), PATH_INK, radius=6)


def test_deterministic_clean_and_unknown_hex(game, report, page):
    assert as_html(game, report) == page
    clean = as_html(game, AuditReport("bravery-in-the-sand", "a.vlog", MatchSummary(3, (), {}, 0), ()))
    assert "No findings" in clean and "<img" not in clean
    odd = Finding(1, 1, "Axis", "x", "9999", "9998", "6.1", "off the map")
    html = as_html(game, AuditReport("bravery-in-the-sand", "a.vlog", SUMMARY, (odd,)))
    assert "<img" not in html and "off the map" in html


CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(not CHROMIUM, reason="chromium is not installed")
def test_real_headless_browser(page, tmp_path):
    # a copy with a probe script: the report itself has none, the browser tells us what it decoded
    probe = page.replace("</body>", "<script>window.addEventListener('load', () => {document.body.dataset.decoded ="
                                    " [...document.images].filter(i => i.complete && i.naturalWidth > 0).length;"
                                    " document.body.dataset.widths = [...document.images].map(i => i.naturalWidth).join(',');"
                                    "});</script></body>")
    (tmp_path / "probe.html").write_text(probe, encoding="utf-8")
    (tmp_path / "report.html").write_text(page, encoding="utf-8")
    run = lambda *args: subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],  # noqa: E731
                                       capture_output=True, text=True, timeout=60)
    dom = run("--virtual-time-budget=5000", "--dump-dom", (tmp_path / "probe.html").as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    doc = lxml.html.fromstring(dom.stdout)
    assert len(doc.xpath("//table[@class='findings']/tbody/tr")) == 3
    assert len(doc.xpath("//img[starts-with(@src, 'data:image/png;base64,')]")) == 2
    body = doc.find(".//body")
    assert body.get("data-decoded") == "2", body.attrib
    assert all(0 < int(w) <= 480 for w in body.get("data-widths").split(","))

    shot = tmp_path / "shot.png"
    res = run(f"--screenshot={shot}", "--window-size=1200,1600", "--hide-scrollbars", (tmp_path / "report.html").as_uri())
    assert res.returncode == 0 and shot.is_file(), res.stderr[-2000:]
    img = Image.open(shot).convert("RGB")
    assert img.size == (1200, 1600)
    assert max(ImageStat.Stat(img).stddev) > 20  # not a blank page
    purple = int((np.abs(np.asarray(img, int) - rgb(PATH_INK)).max(axis=2) <= 40).sum())
    assert purple > 300  # the drawn path is on screen: the pictures were painted
