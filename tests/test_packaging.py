"""A (non-editable) wheel ships the whole package: code, bundled data and eval.yaml, and the
verifiers plugin packages beside it (verifiers loads `inspect-sparc-vf` as `inspect_sparc_vf`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
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


def _plain_install(tmp_path: Path) -> Path:
    """A venv holding the package's wheel (not editable) over the dev venv's packages (a .pth
    line adds them, as .ci/floor does): a user's `pip install .`. Returns its python."""
    wheels = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), "."],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    paths = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run([python, "-c", paths], capture_output=True, text=True, check=True)
    dev_site = sysconfig.get_paths()["purelib"]
    Path(site.stdout.strip(), "dev_venv.pth").write_text(
        f"import site; site.addsitedir({dev_site!r})\n", encoding="utf-8"
    )
    [wheel] = wheels.glob("inspect_sparc-*.whl")
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q"]
    install.append(str(wheel))
    subprocess.run(install, capture_output=True, check=True)
    return python


@pytest.mark.slow
def test_a_plain_install_runs_from_the_checkout_root_as_from_anywhere(tmp_path):
    python = _plain_install(tmp_path)
    where = "import inspect_sparc.evals as e; print(e.__file__)"
    module = subprocess.run([python, "-c", where], cwd=REPO_ROOT, capture_output=True, text=True)
    assert "site-packages" in module.stdout and str(REPO_ROOT) not in module.stdout
    for folder in (REPO_ROOT, tmp_path):
        logs = tmp_path / f"logs-{folder.name}"
        run = subprocess.run(
            [python, "-m", "inspect_ai", "eval", "inspect_sparc/sparc", "-T", "source=sample"]
            + ["--solver", "inspect_sparc/search_solver", "--model", "mockllm/model"]
            + ["--limit", "1", "--display", "none", "--log-dir", str(logs)],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "No inspect tasks were found" not in run.stdout + run.stderr
        [log] = logs.glob("*.eval")
        assert "_sparc_" in log.name
