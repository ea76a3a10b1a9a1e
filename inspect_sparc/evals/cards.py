"""The task cards (`inspect_sparc/eval.yaml`), the one place each task's version is written.

Every task module reads its `TASK_VERSION` from here, so a version bump is one edit of the card
(and the README's task table, for people). Pure: no Inspect imports.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, cast

#: The task cards, shipped inside the package (the wheel includes them).
CARDS_PATH = Path(__file__).resolve().parent.parent / "eval.yaml"


@cache
def task_cards() -> dict[str, Any]:
    """The parsed `eval.yaml` (read once per process).

    Returns:
        The cards file as YAML parsed it: the benchmark's title, paper, assets and `tasks`, a
        list of cards each with the task's `name` and `version`."""
    import yaml  # only where a task module is imported, not on `import inspect_sparc`

    return cast("dict[str, Any]", yaml.safe_load(CARDS_PATH.read_text(encoding="utf-8")))


def task_version(name: str) -> str:
    """The `N-X` version the card gives task `name` (KeyError for a task with no card).

    Args:
        name: the task's name as registered with Inspect (`sparc`, `sparc_gym`, ...).

    Returns:
        Its version, e.g. `1-G`."""
    for card in task_cards()["tasks"]:
        if card["name"] == name:
            return str(card["version"])
    raise KeyError(f"no task card named {name!r} in {CARDS_PATH}")
