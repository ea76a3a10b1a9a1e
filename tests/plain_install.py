"""Run a Python script as it runs in a plain install (`pip install inspect-sparc`, no extras):
the modules of every package outside the base requirements' closure are absent, both to
`import` and to `importlib.util.find_spec` (which libraries use to probe for optional ones).

    python tests/plain_install.py SCRIPT [ARGS...]
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.metadata as metadata
import importlib.util
import os
import re
import runpy
import sys
from collections.abc import Sequence
from types import ModuleType


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def base_closure(distribution: str = "inspect-sparc") -> set[str]:
    """The distributions a plain install of `distribution` brings (no extras), as keys."""
    seen: set[str] = set()
    pending = [distribution]
    while pending:
        name = pending.pop()
        if _key(name) in seen:
            continue
        seen.add(_key(name))
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue
        pending += [
            re.split(r"[<>=!~;\[\s(]", r, maxsplit=1)[0] for r in requires if "extra" not in r
        ]
    return seen


def absent_modules() -> set[str]:
    """Top-level modules of installed packages that a plain install would not have."""
    base = base_closure()
    return {
        module
        for module, distributions in metadata.packages_distributions().items()
        if not any(_key(d) in base for d in distributions)
    }


class _Absent(importlib.abc.MetaPathFinder):
    """Imports of the absent modules fail as they would were the package not installed."""

    def __init__(self, absent: set[str]) -> None:
        self.absent = absent

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in self.absent:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def hide(absent: set[str]) -> None:
    """Make `absent` unimportable and unfound in this process."""
    sys.meta_path.insert(0, _Absent(absent))
    probe = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in absent:
            return None
        return probe(name, package)

    importlib.util.find_spec = find_spec


if __name__ == "__main__":
    hide(absent_modules())
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
