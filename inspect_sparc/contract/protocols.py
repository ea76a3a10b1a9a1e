"""The tasks' registry names and the paper protocol each run follows, with the published
counterpart of each protocol: one table, read by the report (which protocol a log is) and by
`published_runs` (which published per-puzzle runs a run pairs with).

A protocol is a task plus the settings that change what is measured (the gym's traceback and
image observation). The names are the published tables' keys (`runs.csv`'s `protocol`), so a
protocol here and its published counterpart are spelled the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The tasks, by registry name without the package prefix (`inspect_sparc.TASK_MODULES` maps
#: each to its module; `tests/test_contract.py` checks the two agree).
SPARC = "sparc"
SPARC_HARD = "sparc_hard"
SPARC_GYM = "sparc_gym"
SPARC_VISUAL = "sparc_visual"
SPARC_AGENT = "sparc_agent"
ALGOPUZZLEVQA = "algopuzzlevqa"
TASK_NAMES = (SPARC, SPARC_HARD, SPARC_GYM, SPARC_VISUAL, SPARC_AGENT, ALGOPUZZLEVQA)
#: The step-by-step tasks (an episode per puzzle: endings, steps).
EPISODE_TASKS = (SPARC_GYM, SPARC_AGENT)

SINGLE_SHOT = "single_shot"
GYM = "gym"
GYM_TRACEBACK = "gym_traceback"
VISUAL = "visual"
GYM_VISUAL = "gym_visual"
AGENT = "agent"

#: SPaRC's protocols in the order the papers present them -> whether the published runs
#: (`runs.csv`) hold per-puzzle verdicts of the same protocol to pair a run with (the visual and
#: agent protocols have published accuracies only).
PUBLISHED_PER_PUZZLE: dict[str, bool] = {
    SINGLE_SHOT: True,
    GYM: True,
    GYM_TRACEBACK: True,
    VISUAL: False,
    GYM_VISUAL: True,
    AGENT: False,
}
#: SPaRC's protocols in the papers' order.
PROTOCOLS: tuple[str, ...] = tuple(PUBLISHED_PER_PUZZLE)
#: The step-by-step protocols (one move per turn).
GYM_PROTOCOLS = frozenset({GYM, GYM_TRACEBACK, GYM_VISUAL})


def protocol_of(task: str, settings: Mapping[str, Any] | None = None) -> str:
    """The protocol a run of `task` follows.

    Args:
        task: the task's registry name without the package prefix (`sparc_gym`).
        settings: the run's task arguments (`traceback`, `observation`); missing: defaults.

    Returns:
        One of `PROTOCOLS`, or the task's own name for a task outside SPaRC
        (`algopuzzlevqa`, or a task this table does not know).
    """
    settings = settings or {}
    if task in (SPARC, SPARC_HARD):
        return SINGLE_SHOT
    if task == SPARC_VISUAL:
        return VISUAL
    if task == SPARC_GYM:
        if settings.get("observation") == "image":
            return GYM_VISUAL
        return GYM_TRACEBACK if _true(settings.get("traceback")) else GYM
    if task == SPARC_AGENT:
        return AGENT
    return task


def published_counterpart(protocol: str) -> str | None:
    """The published protocol (`runs.csv`) whose per-puzzle verdicts a run of `protocol` pairs
    with, or None where none were published.

    Args:
        protocol: a protocol name (`protocol_of`'s result).

    Returns:
        The same name where the published runs hold per-puzzle verdicts of it, else None.
    """
    return protocol if PUBLISHED_PER_PUZZLE.get(protocol) else None


def _true(value: Any) -> bool:
    """A setting read from a log as true (NaN, None and False are not)."""
    return bool(value) and value == value
