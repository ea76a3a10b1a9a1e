"""AlgoPuzzleVQA as an Inspect task.

Ghosal, Han, Ngo, Poria, "Are Language Models Puzzle Prodigies? Algorithmic Puzzles Unveil Serious
Challenges in Multimodal Reasoning" (2024), arXiv 2403.03864; data from the authors' repository
declare-lab/LLM-PuzzleTest (AlgoPuzzleVQA/data). Usage:

    inspect eval inspect_sparc/algopuzzlevqa --model openai/gpt-4o
    inspect eval inspect_sparc/algopuzzlevqa -T puzzle=clock,maze -T prompt=cot --model ...
    inspect eval inspect_sparc/algopuzzlevqa -T source=sample --model ...
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from inspect_sparc.algopuzzlevqa.dataset import algopuzzlevqa_dataset
from inspect_sparc.algopuzzlevqa.puzzles import PuzzleName
from inspect_sparc.algopuzzlevqa.scorer import algopuzzlevqa_scorer
from inspect_sparc.algopuzzlevqa.solvers import algopuzzlevqa_solver

TASK_VERSION = "1-A"


@task
def algopuzzlevqa(
    puzzle: PuzzleName | list[PuzzleName] | str | None = None,
    prompt: Literal["describe", "cot"] = "describe",
    source: Literal["github", "sample"] | str = "github",
) -> Task:
    """AlgoPuzzleVQA: 18 visual algorithmic puzzles x 100 multiple-choice instances.

    Args:
        puzzle: One puzzle name, a list (or comma-separated string) of names; None for all 18.
        prompt: "describe" (the paper's eCoT, default) or "cot" (plain chain of thought).
        source: "github" (the authors' files at a pinned commit, cached), "sample" (36 bundled
            instances) or the path of a folder in the repository layout (AlgoPuzzleVQA/data).
    """
    return Task(
        dataset=algopuzzlevqa_dataset(puzzle=puzzle, prompt=prompt, source=source),
        solver=algopuzzlevqa_solver(),
        scorer=algopuzzlevqa_scorer(),
        config=GenerateConfig(temperature=0.0),
        metadata={"prompt": prompt, "source": source},
        version=TASK_VERSION,
    )
