"""docs/development.md's public API list is each package's `__all__`, name for name, and every
name listed imports from where the list says."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "development.md"


def listed() -> dict[str, list[str]]:
    """Module -> the names the page's Public API table gives it."""
    section = PAGE.read_text(encoding="utf-8").split("## Public API", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([\w.]+)` \| (.*) \|$", section, flags=re.M)
    return {module: re.findall(r"`(\w+)`", names) for module, names in rows}


def test_the_list_is_each_packages_all_and_every_name_imports():
    table = listed()
    assert "inspect_sparc" in table and "inspect_sparc.core" in table and len(table) >= 7
    for module_name, names in table.items():
        module = importlib.import_module(module_name)
        assert sorted(names) == sorted(module.__all__), module_name
        for name in names:
            assert getattr(module, name) is not None, (module_name, name)
