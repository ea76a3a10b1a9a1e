"""inspect-sparc: SPaRC and AlgoPuzzleVQA as Inspect AI tasks.

    from inspect_ai import eval
    from inspect_sparc import sparc, sparc_gym

    eval(sparc(source="sample"), model="openai/gpt-4.1-mini")

The tasks are exported here but imported only when first used (PEP 562 `__getattr__`): a plain
`import inspect_sparc`, or an import of the pure puzzle logic in `inspect_sparc.core`, does not
load Inspect. Inspect itself finds the tasks through the `_registry` entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.runtime.lazy import lazy_exports

__version__ = "0.8.0"

#: Exported task -> the module that defines it.
TASK_MODULES = {
    "sparc": "inspect_sparc.evals.sparc.single_shot.tasks",
    "sparc_hard": "inspect_sparc.evals.sparc.single_shot.tasks",
    "sparc_gym": "inspect_sparc.evals.sparc.gym.tasks",
    "sparc_visual": "inspect_sparc.evals.sparc.visual.tasks",
    "sparc_agent": "inspect_sparc.evals.sparc.agent.tasks",
    "algopuzzlevqa": "inspect_sparc.evals.algopuzzlevqa.tasks",
}

__all__ = [
    "__version__",
    "algopuzzlevqa",
    "sparc",
    "sparc_agent",
    "sparc_gym",
    "sparc_hard",
    "sparc_visual",
]

if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
    from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
    from inspect_sparc.evals.sparc.single_shot.tasks import sparc, sparc_hard
    from inspect_sparc.evals.sparc.visual.tasks import sparc_visual


__getattr__ = lazy_exports(__name__, TASK_MODULES)  # each task imported on first use
