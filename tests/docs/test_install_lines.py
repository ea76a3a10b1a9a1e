"""The report extra is installed by one command, the same in the README and in docs/report.md
(a reader who follows either gets the same install)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def install_commands(path: Path, extra: str) -> set[str]:
    """Every `pip install` command (comment dropped) that names `extra`, in `path`'s code."""
    found = re.findall(r"^pip install [^\n#]*", path.read_text(encoding="utf-8"), flags=re.M)
    return {" ".join(line.split()) for line in found if f"[{extra}]" in line}


def test_the_report_extra_installs_the_same_way_in_the_readme_and_its_manual():
    readme = install_commands(ROOT / "README.md", "report")
    manual = install_commands(ROOT / "docs" / "report.md", "report")
    assert readme == manual == {'pip install ".[report]"'}
