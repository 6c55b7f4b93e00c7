"""The README's "Making a new game" guide runs as written (issue 16): every command of its code
blocks, in order, in one shell started in an empty folder, so the guide cannot rot.

The commands are taken from the README itself, not copied here: a changed command is tested as
changed, and a step that disappears from the guide fails the list of steps below.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
SECTION = "## Making a new game"
RC = "@@exit-code "  # printed after each command with its exit code


def guide_text() -> str:
    text = README.read_text(encoding="utf-8")
    assert SECTION in text, f"README.md has no {SECTION!r} section"
    body = text.split(SECTION, 1)[1]
    return re.split(r"^## ", body, maxsplit=1, flags=re.M)[0]


def code_blocks(section: str) -> list[list[str]]:
    """The indented (4-space) code blocks of a Markdown section, each as its lines unindented."""
    blocks: list[list[str]] = []
    previous = ""
    current: list[str] | None = None
    for line in section.splitlines():
        if line.startswith("    ") and (current is not None or not previous.strip()):
            current = current if current is not None else []
            current.append(line[4:])
        elif current is not None and not line.strip():
            current.append("")
        else:
            if current is not None:
                blocks.append(current)
            current = None
        previous = line
    if current is not None:
        blocks.append(current)
    return blocks


def commands(blocks: list[list[str]]) -> list[str]:
    """Shell commands: one per line, a here-document (`<<'EOF'` ... `EOF`) with its line."""
    out: list[str] = []
    for block in blocks:
        lines = iter(block)
        for line in lines:
            if not line.strip():
                continue
            heredoc = re.search(r"<<'?(\w+)'?\s*$", line)
            if heredoc:
                body = [line]
                for more in lines:
                    body.append(more)
                    if more == heredoc.group(1):
                        break
                else:
                    pytest.fail(f"the here-document of {line!r} is not closed by {heredoc.group(1)}")
                line = "\n".join(body)
            out.append(line)
    return out


def test_the_guide_has_every_step():
    steps = commands(code_blocks(guide_text()))
    used = {m.group(1) for c in steps for m in re.finditer(r"\bhexforge (\w+)", c)}
    assert {"new", "check", "build", "sheets", "audit"} <= used, steps
    assert any("LogWriter" in c and "w.write(" in c for c in steps), "no command writes the log to audit"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """(folder, [(command, exit code, output)]) of the guide's commands run in an empty folder."""
    folder = tmp_path_factory.mktemp("guide")
    steps = commands(code_blocks(guide_text()))
    script = "".join(f"{c}\nprintf '\\n{RC}%s\\n' \"$?\"\n" for c in steps)
    env = {k: v for k, v in os.environ.items() if k not in ("HEXFORGE_ROOT", "PYTHONPATH")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # hexforge, python
    done = subprocess.run(["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    parts = done.stdout.split(f"\n{RC}")
    assert len(parts) == len(steps) + 1, done.stdout + done.stderr
    results = []
    for command, output, tail in zip(steps, parts, parts[1:]):
        code = int(tail.split("\n", 1)[0])
        results.append((command, code, output.strip()))
    assert "Traceback" not in done.stderr, done.stderr
    return folder, results


def test_every_command_runs_and_only_the_audit_finds_a_violation(run):
    _, results = run
    for command, code, output in results:
        expected = 1 if command.startswith("hexforge audit") else 0  # exit 1: violations found
        assert code == expected, f"{command!r} exited {code}:\n{output}"


def test_the_guide_makes_a_module_sheets_and_a_log(run):
    folder, _ = run
    root = folder / "my-games"
    assert (root / "sources" / "demo" / "game.yaml").is_file()
    out = root / "generated" / "demo"
    with zipfile.ZipFile(out / "demo.vmod") as z:
        assert {"buildFile.xml", "meeting.vsav"} <= set(z.namelist())
    assert (out / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "demo-counters.pdf").read_bytes()[:5] == b"%PDF-"
    assert (root / "game.vlog").stat().st_size > 0


def test_the_audit_reports_each_act_the_guide_names_with_its_rule_and_nothing_else(run):
    _, results = run
    (output,) = [o for c, _, o in results if c.startswith("hexforge audit")]
    findings = [line for line in output.splitlines() if line.startswith("step ")]
    said = re.findall(r"rule (\d+) `([^`]+)`", guide_text())
    assert len(said) == 4, "the guide no longer says what the audit reports"
    assert len(findings) == len(said), output
    for (rule, text), line in zip(said, findings):
        assert f"rule {rule}: " in line and " ".join(text.split()) in line, (rule, text, line)
