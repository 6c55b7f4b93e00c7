"""Shared fixtures: the real game loaded once, and one module built into a scratch root."""
from __future__ import annotations

import io
import shutil
import zipfile
from functools import cache
from pathlib import Path

import pytest

from builder.build import build_game
from builder.model import SourceError, load_game
from builder.model.plain import plain_game
from builder.paths import REPO as ROOT

SLUG = "bravery-in-the-sand"
# The third-party corpus (real modules, saves and engine logs) stands beside the clone as
# ../shared; a clone without it runs every other test and skips these, saying what they need.
REALDATA = ROOT.parent / "shared" / "realdata"
NO_REALDATA = f"needs the third-party corpus beside the clone ({REALDATA.parent.name}/realdata, absent)"
needs_realdata = pytest.mark.skipif(not REALDATA.is_dir(), reason=NO_REALDATA)


def pytest_terminal_summary(terminalreporter):
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NO_REALDATA in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} test(s) skipped: {NO_REALDATA}")


@pytest.fixture(autouse=True, scope="session")
def strict_rules():
    """Every audit the tests run refuses a finding whose rule number its rule class does not
    declare (validators/kernel/engine.py): the registry, and the catalogue's `code`, stay true."""
    from validators.kernel.engine import RulesAuditor

    RulesAuditor.strict = True
    yield
    RulesAuditor.strict = False


@pytest.fixture(scope="session")
def game():
    return load_game(ROOT / "sources" / SLUG)


def copy_sources(dest: Path, slug: str = SLUG) -> Path:
    shutil.copytree(ROOT / "sources" / slug, dest / "sources" / slug)
    return dest / "sources" / slug


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """(root, vmod bytes, zipfile) of one build of the real sources in a scratch root."""
    root = tmp_path_factory.mktemp("build")
    copy_sources(root)
    result = build_game(SLUG, root=root)
    vmod = next(p for p in result.outputs if p.suffix == ".vmod").read_bytes()
    return root, vmod, zipfile.ZipFile(io.BytesIO(vmod))


@pytest.fixture(scope="session")
def wdf_module(tmp_path_factory):
    """(game, path of its .vmod) of Western Desert Force, built once for all its rules tests; the
    game is the plain model an audit runs on (builder/model/plain.py)."""
    from builder.vassal.module import build_vmod

    game = load_game(ROOT / "sources" / "western-desert-force")
    path = tmp_path_factory.mktemp("wdf") / "western-desert-force.vmod"
    path.write_bytes(build_vmod(game)[0])
    return plain_game(game), path


@pytest.fixture(scope="session")
def tobrouk_module(tmp_path_factory):
    """(game, path of its .vmod) of Tobrouk 41-42, built once for all its rules tests; the game is
    the plain model an audit runs on."""
    from builder.vassal.module import build_vmod

    game = load_game(ROOT / "sources" / "tobrouk-41-42")
    path = tmp_path_factory.mktemp("tobrouk") / "tobrouk-41-42.vmod"
    path.write_bytes(build_vmod(game)[0])
    return plain_game(game), path


@cache
def loaded_game(slug: str):
    """A game's model, loaded once per test run; a source problem fails the test with its message."""
    try:
        return load_game(ROOT / "sources" / slug)
    except SourceError as exc:  # pragma: no cover - the message is the point
        pytest.fail("\n".join(map(str, exc.problems)))


@pytest.fixture(params=["one by one", "stack drags"])
def drag(request) -> bool:
    """Full games are played twice: units moved one at a time, and whole stacks dragged."""
    return request.param == "stack drags"
