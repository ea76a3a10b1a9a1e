"""AlgoPuzzleVQA (Ghosal et al., 2024, arXiv 2403.03864) as an Inspect AI task.

18 algorithmic puzzles x 100 instances, each an image plus a multiple-choice question, asked
zero-shot with the paper's prompts. Usage:

    inspect eval inspect_sparc/algopuzzlevqa --model openai/gpt-4o
    inspect eval inspect_sparc/algopuzzlevqa -T puzzle=clock,maze -T prompt=cot --model ...

Importing this package is cheap: the task, solver and scorer are loaded on first access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.runtime.lazy import lazy_exports

__all__ = ["PUZZLES", "algopuzzlevqa", "algopuzzlevqa_scorer", "algopuzzlevqa_solver"]

if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer
    from inspect_sparc.evals.algopuzzlevqa.solvers import algopuzzlevqa_solver
    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa

# The Inspect objects load on first use, so the pure helpers never import inspect_ai.
__getattr__ = lazy_exports(
    __name__,
    {
        "algopuzzlevqa": "inspect_sparc.evals.algopuzzlevqa.tasks",
        "algopuzzlevqa_solver": "inspect_sparc.evals.algopuzzlevqa.solvers",
        "algopuzzlevqa_scorer": "inspect_sparc.evals.algopuzzlevqa.scorer",
    },
)
