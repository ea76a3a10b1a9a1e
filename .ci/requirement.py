"""Print requirement strings from pyproject.toml, one a line, so CI installs exactly what the
project declares (one place for every version).

    python .ci/requirement.py dev inspect-evals-lint ruff   # those entries of the dev extra
    python .ci/requirement.py floor inspect-ai              # `inspect-ai==X` for `inspect-ai>=X`
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib


def name_of(requirement: str) -> str:
    """The normalised distribution name of a requirement string."""
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~;\[\s]", requirement, maxsplit=1)[0]).lower()


def main(kind: str, names: list[str]) -> None:
    """Print the dev extra's entries for `names`, or the pinned floor of a runtime dependency."""
    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = project["optional-dependencies"]["dev"] if kind == "dev" else project["dependencies"]
    for name in names:
        (requirement,) = [entry for entry in listed if name_of(entry) == name]
        if kind == "floor":
            (floor,) = re.findall(r">=\s*([\w.]+)", requirement)
            requirement = f"{name}=={floor}"
        print(requirement)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
