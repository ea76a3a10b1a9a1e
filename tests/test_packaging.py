"""A (non-editable) wheel ships the whole package: code, bundled data and eval.yaml, and the
verifiers plugin packages beside it (verifiers loads `inspect-sparc-vf` as `inspect_sparc_vf`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
#: The top-level packages of the wheel: ours, and the verifiers plugins re-exporting from it.
PACKAGES = ["inspect_sparc", "inspect_sparc_vf", "inspect_sparc_vf_gym"]


@pytest.mark.slow
def test_the_wheel_holds_exactly_the_tracked_package_files(tmp_path):
    if shutil.which("git") is None or not (REPO_ROOT / ".git").exists():
        pytest.skip("needs a git checkout to list the tracked files")
    tracked = subprocess.run(
        ["git", "ls-files", *PACKAGES],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    metadata_before = sorted(REPO_ROOT.glob("*.egg-info"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), "."],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    )
    [wheel] = tmp_path.glob("inspect_sparc-*.whl")
    shipped = {
        name
        for name in zipfile.ZipFile(wheel).namelist()
        if not name.startswith("inspect_sparc-")  # the .dist-info folder
    }
    assert shipped == set(tracked)
    assert {"inspect_sparc/eval.yaml", "inspect_sparc/data/sparc_sample.jsonl"} <= shipped
    assert {"inspect_sparc_vf/__init__.py", "inspect_sparc_vf_gym/__init__.py"} <= shipped
    images = "inspect_sparc/core/algopuzzlevqa/data/images/"
    assert any(name.startswith(images) for name in shipped)
    # The build writes no metadata into the checkout (which would shadow the installed one).
    assert sorted(REPO_ROOT.glob("*.egg-info")) == metadata_before
