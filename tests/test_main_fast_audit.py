"""The console script's own path for `hexforge audit GAME LOG` (validators/main.py) answers as the
typer command does, byte for byte and with the same exit status, without importing typer; any
other call goes to the typer app."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SLUG
from validators.replay.writer import LogWriter

PROBE = ("import os, sys\n"  # main() ends with os._exit: say whether typer was imported just before it
         "real_exit, me = os._exit, os.getpid()\n"  # a batch's forked workers end with os._exit too: not them
         "os._exit = lambda code: (os.getpid() == me and print('TYPER', 'typer' in sys.modules, file=sys.stderr),\n"
         "                         real_exit(code))\n"
         "from {module} import main\n"
         "sys.argv = ['hexforge', *sys.argv[1:]]\n"
         "main()\n")


@pytest.fixture(scope="module")
def root(built) -> Path:
    """The scratch root of the built module, with a log holding a violation (rule 5.2), a clean
    log and a file that is no log, in a folder of their own (the root's logs/ is other tests')."""
    root, _, _ = built
    vmod = root / "generated" / SLUG / f"{SLUG}.vmod"
    logs = root / "fast-audit-logs"
    logs.mkdir(exist_ok=True)
    w = LogWriter(vmod)
    w.turn(1, "Chits into the mug")
    w.move("chit-15pz#1", "Mug")
    w.turn(1, "Activations")
    w.move("15pz-8pz-1", "0607")  # before its chit is drawn: rule 5.2
    w.write(logs / "bad.vlog")
    w = LogWriter(vmod)
    w.turn(1, "Chits into the mug")
    w.write(logs / "clean.vlog")
    (logs / "junk.vlog").write_bytes(b"no zip")
    return root


def run(root: Path, module: str, *args: str) -> tuple[int, str, str, bool]:
    """(exit status, stdout, stderr without the probe's line, typer imported) of one process."""
    env = dict(os.environ, HEXFORGE_ROOT=str(root))
    r = subprocess.run([sys.executable, "-c", PROBE.format(module=module), *args], capture_output=True, text=True,
                       env=env, cwd=ROOT)
    lines = r.stderr.splitlines(keepends=True)
    probe = [line for line in lines if line.startswith("TYPER ")]
    return r.returncode, r.stdout, "".join(line for line in lines if not line.startswith("TYPER ")), \
        probe[-1].strip() == "TYPER True"


@pytest.mark.parametrize("args", [
    ("logs/bad.vlog",),
    ("logs/bad.vlog", "--format", "json"),
    ("logs/clean.vlog", "--format=text"),
    ("logs/bad.vlog", "--timeout", "30"),
    ("logs/junk.vlog",),  # unreadable: one line, exit 2
    ("logs/missing.vlog", "--format", "json"),
])
def test_the_fast_path_answers_as_the_typer_command_without_typer(root, args):
    args = tuple(str(root / f"fast-audit-{a}") if a.startswith("logs/") else a for a in args)
    fast = run(root, "validators.main", "audit", SLUG, *args)
    slow = run(root, "validators.cli", "audit", SLUG, *args)
    assert fast[:3] == slow[:3]
    assert fast[0] in (0, 1, 2) and (fast[1] or fast[2])
    assert not fast[3] and slow[3]


def test_out_file_is_written_as_the_typer_command_writes_it(root, tmp_path):
    fast = run(root, "validators.main", "audit", SLUG, str(root / "fast-audit-logs/bad.vlog"), "--out", str(tmp_path / "a.json"))
    slow = run(root, "validators.cli", "audit", SLUG, str(root / "fast-audit-logs/bad.vlog"), "--out", str(tmp_path / "b.json"))
    assert fast[:3] == slow[:3] and fast[0] == 1
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert not fast[3]


@pytest.mark.parametrize("args", [
    ("audit", SLUG, "logs/bad.vlog", "--format", "xml"),  # refused by the typer command
    ("audit", "no-such-game", "logs/bad.vlog"),
    ("audit", SLUG, "logs/bad.vlog", "--out", "report.pdf"),
    ("audit", SLUG, "logs/bad.vlog", "logs/clean.vlog"),  # a batch
    ("audit", SLUG, "logs/bad.vlog", "--only", "5.2"),
    ("list",),
])
def test_any_other_call_goes_to_the_typer_app(root, args):
    args = tuple(str(root / f"fast-audit-{a}") if a.startswith("logs/") else a for a in args)
    fast = run(root, "validators.main", *args)
    slow = run(root, "validators.cli", *args)
    assert fast == slow
    assert fast[3]


MODULES_PROBE = ("import os, sys\n"  # the modules loaded when main() ends
                 "real_exit = os._exit\n"
                 "os._exit = lambda code: (print('MODULES', *sorted(sys.modules), file=sys.stderr), real_exit(code))\n"
                 "from validators.main import main\n"
                 "sys.argv = ['hexforge', *sys.argv[1:]]\n"
                 "main()\n")


def test_the_fast_path_imports_only_what_the_audit_uses(root, tmp_path):
    """Start-up is most of a short audit (issue 36): typing, the loader's name suggestions, the
    problem records, hashlib (OpenSSL), temporary files (for --out only) and HTML entities are not
    imported."""
    def modules(*args: str) -> set[str]:
        r = subprocess.run([sys.executable, "-c", MODULES_PROBE, "audit", SLUG, *args], capture_output=True,
                           text=True, env=dict(os.environ, HEXFORGE_ROOT=str(root)), cwd=ROOT)
        assert r.returncode == 1, r.stderr
        return set(r.stderr.split("MODULES ")[-1].split())

    log = str(root / "fast-audit-logs" / "bad.vlog")
    modules(log)  # fills the model cache, if no test did (a cold cache loads the sources)
    loaded = modules(log, "--format", "json")
    assert "validators.replay.replayer" in loaded  # the probe sees the audit's imports
    assert not {"typing", "difflib", "builder.model.problems", "hashlib", "tempfile", "html"} & loaded
    assert "tempfile" in modules(log, "--out", str(tmp_path / "report.json"))
