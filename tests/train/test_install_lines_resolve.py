"""Every documented install line of the training extras (docs/training.md's, the README's and
docs/development.md's training-stack line) runs as written against the package registry and
resolves, installing the packages its extras name.

Each line runs with `--dry-run --ignore-installed --report` appended: pip resolves it exactly
as written (from the checkout, as the reader runs it) as if into a fresh environment, and
installs nothing. Dry-run because a real install of `train-trl` alone pulls torch and its CUDA
libraries (several GB): a dry run reads each chosen wheel's metadata (from PyPI's separate
metadata files, PEP 658, where the index serves them) and unpacks nothing. What it proves (the
line parses, the extras exist, their requirements resolve together with the package's own on
this Python) is what goes wrong with an install line. Slow (half a minute to minutes per line,
the five run together); needs the registry (pip's own configuration says which).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from commands import run_together

pytestmark = pytest.mark.slow
tomllib = pytest.importorskip("tomllib")
requirements = pytest.importorskip("packaging.requirements")
utils = pytest.importorskip("packaging.utils")

ROOT = Path(__file__).resolve().parents[2]


def documented_lines() -> list[str]:
    """The install lines naming a training extra: code lines of docs/training.md and
    docs/development.md (comments dropped), and the README's inline one."""
    lines = []
    for doc in (ROOT / "docs" / "training.md", ROOT / "docs" / "development.md"):
        found = re.findall(r"^pip install [^\n#]*", doc.read_text(encoding="utf-8"), re.M)
        lines += [" ".join(line.split()) for line in found if "train" in line]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines += re.findall(r"`(pip install [^`]*train[^`]*)`", readme)
    return lines


LINES = documented_lines()


def test_every_training_extra_has_a_documented_install_line():
    extras = {e for line in LINES for e in re.findall(r"\[(.*?)\]", line)[0].split(",")}
    assert extras >= {"train", "train-trl", "train-sb3", "train-verifiers"}
    assert 'pip install ".[train]"' in LINES  # the README's


def extra_packages(extras: list[str]) -> set[str]:
    """The distribution names the extras require (pyproject.toml), for this Python."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = set()
    for extra in extras:
        for text in project["optional-dependencies"][extra]:
            requirement = requirements.Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate():
                names.add(utils.canonicalize_name(requirement.name))
    return names


@pytest.fixture(scope="module")
def resolved(
    tmp_path_factory,
) -> dict[str, tuple[subprocess.CompletedProcess[str], dict[str, Any]]]:
    """Each line's dry run (started together: each waits on the registry), its report beside."""
    folder = tmp_path_factory.mktemp("reports")
    reports = {line: folder / f"{number}.json" for number, line in enumerate(LINES)}
    commands = {}
    for line in LINES:
        words = shlex.split(line)
        assert words[:2] == ["pip", "install"], line
        command = [sys.executable, "-m", *words, "--dry-run", "--ignore-installed", "--quiet"]
        commands[line] = ([*command, "--report", str(reports[line])], {"cwd": ROOT})
    results = run_together(commands, timeout=900)
    return {
        line: (result, json.loads(reports[line].read_text()) if reports[line].exists() else {})
        for line, result in results.items()
    }


@pytest.mark.parametrize("line", LINES)
def test_the_install_line_resolves_with_its_extras_packages(resolved, line):
    result, report = resolved[line]
    assert result.returncode == 0, result.stderr[-3000:]
    installs = {utils.canonicalize_name(i["metadata"]["name"]): i for i in report["install"]}
    extras = re.findall(r"\[(.*?)\]", line)[0].split(",")
    assert "inspect-sparc" in installs  # the checkout itself, built from "."
    requested = installs["inspect-sparc"].get("requested_extras", [])
    assert {utils.canonicalize_name(e) for e in requested} == set(extras)
    missing = extra_packages(extras) - set(installs)
    assert not missing, f"{line} resolves without {sorted(missing)}"
