"""AlgoPuzzleVQA (Ghosal et al., 2024, arXiv 2403.03864) as an Inspect AI task.

18 algorithmic puzzles x 100 instances, each an image plus a multiple-choice question, asked
zero-shot with the paper's prompts. Usage:

    inspect eval inspect_sparc/algopuzzlevqa --model openai/gpt-4o
    inspect eval inspect_sparc/algopuzzlevqa -T puzzle=clock,maze -T prompt=cot --model ...

Importing this package is cheap: the task, solver and scorer are loaded on first access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES

__all__ = ["PUZZLES", "algopuzzlevqa", "algopuzzlevqa_scorer", "algopuzzlevqa_solver"]

if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer
    from inspect_sparc.evals.algopuzzlevqa.solvers import algopuzzlevqa_solver
    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa


def __getattr__(name: str) -> Any:
    """Load the Inspect objects lazily, so pure helpers never import inspect_ai."""
    if name == "algopuzzlevqa":
        from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa

        return algopuzzlevqa
    if name == "algopuzzlevqa_solver":
        from inspect_sparc.evals.algopuzzlevqa.solvers import algopuzzlevqa_solver

        return algopuzzlevqa_solver
    if name == "algopuzzlevqa_scorer":
        from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer

        return algopuzzlevqa_scorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
