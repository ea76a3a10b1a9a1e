"""Every `inspect eval` line of docs/human.md and the README's human baseline runs as written,
offline (on the bundled puzzles: `-T source=sample` added), answered over HTTP to the end."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from human_client import Client
from test_cli import wait_for_url

ROOT = Path(__file__).resolve().parents[3]
COMMAND = re.compile(r"^`?(inspect eval [^`\n]*--solver inspect_sparc/human[^`\n]*)`?$", re.M)


def doc_commands() -> list[str]:
    """The human-solver command lines of docs/human.md and the README."""
    text = (ROOT / "docs" / "human.md").read_text(encoding="utf-8")
    text += (ROOT / "README.md").read_text(encoding="utf-8")
    return sorted(set(COMMAND.findall(text)))


def test_the_docs_show_a_command_for_every_task():
    tasks = {shlex.split(line)[2] for line in doc_commands()}
    assert {
        "inspect_sparc/sparc",
        "inspect_sparc/sparc_gym",
        "inspect_sparc/algopuzzlevqa",
    } <= tasks


def answer_until_done(url: str, process: subprocess.Popen[str]) -> int:
    """Answer whatever the page serves (S alone, a give-up, option 1) until the run ends."""
    client, count = Client(url), 0
    me = client.join("Docs")
    while process.poll() is None:
        try:
            reply = client.next(me)
        except OSError:
            break  # the run has ended
        if reply["state"] != "puzzle":
            continue
        body = {"participant": me, "offer": reply["offer"]}
        kind = reply["view"]["kind"]
        if kind == "gym":
            client.post("/api/giveup", body)
        elif kind == "path":
            client.post("/api/submit", {**body, "path": [reply["view"]["start"]]})
        else:
            client.post("/api/submit", {**body, "choice": 0})
        count += 1
    return count


@pytest.mark.slow
@pytest.mark.parametrize("line", doc_commands())
def test_every_documented_command_runs(tmp_path, line):
    url_file = tmp_path / "url.txt"
    args = shlex.split(line)[1:] + ["-T", "source=sample", "-S", f"url_file={url_file}"]
    command = [sys.executable, "-m", "inspect_ai", *args, "--log-dir", str(tmp_path)]
    process = subprocess.Popen(
        [*command, "--display", "none"], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        answered = answer_until_done(wait_for_url(url_file, process), process)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, stderr
    assert answered >= 1
