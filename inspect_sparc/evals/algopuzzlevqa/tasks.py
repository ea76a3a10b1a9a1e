"""AlgoPuzzleVQA as an Inspect task.

Ghosal, Han, Ngo, Poria, "Are Language Models Puzzle Prodigies? Algorithmic Puzzles Unveil Serious
Challenges in Multimodal Reasoning" (2024), arXiv 2403.03864; data from the authors' repository
declare-lab/LLM-PuzzleTest (AlgoPuzzleVQA/data). Usage:

    inspect eval inspect_sparc/algopuzzlevqa --model openai/gpt-4o
    inspect eval inspect_sparc/algopuzzlevqa -T puzzle=clock,maze -T prompt=cot --model ...
    inspect eval inspect_sparc/algopuzzlevqa -T source=sample --model ...
    inspect eval inspect_sparc/algopuzzlevqa --max-tokens 512 --model ...   # the paper's cap
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from inspect_sparc.core.algopuzzlevqa.answer import check_extraction
from inspect_sparc.core.algopuzzlevqa.images import DEFAULT_MAX_IMAGE_SIZE
from inspect_sparc.core.algopuzzlevqa.puzzles import PuzzleName
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset
from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer
from inspect_sparc.evals.algopuzzlevqa.solvers import algopuzzlevqa_solver
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.selection import PuzzleSelection

#: `N-X` from the task card (`eval.yaml`): N changes when results stop being comparable.
TASK_VERSION = task_version("algopuzzlevqa")
"""2: the authors' prompt bytes, image resizing and answer reading (results not comparable to 1)."""


@task
@plain_errors
def algopuzzlevqa(
    puzzle: PuzzleName | list[PuzzleName] | str | None = None,
    prompt: Literal["describe", "cot"] = "describe",
    source: Literal["github", "sample"] | str = "github",
    extraction: Literal["paper", "strict"] = "paper",
    max_image_size: int = DEFAULT_MAX_IMAGE_SIZE,
    prevent_direct_answer: bool = False,
) -> Task:
    """AlgoPuzzleVQA: 18 visual algorithmic puzzles x 100 multiple-choice instances.

    Args:
        puzzle: One puzzle name, a list (or comma-separated string) of names; None for all 18.
        prompt: "describe" (the paper's eCoT, default) or "cot" (plain chain of thought).
        source: "github" (the authors' files at a pinned commit, cached), "sample" (36 bundled
            instances) or the path of a folder in the repository layout (AlgoPuzzleVQA/data).
        extraction: "paper" (default: the authors' answer reading and follow-up) or "strict"
            (standalone letters only; follow-up as a chat turn when no option is read).
        max_image_size: Longer image side in pixels, as the authors resized (default 1024);
            0 sends the original files.
        prevent_direct_answer: Append " Do not directly give the final answer." to the question,
            as the authors' Gemini runs did.

    Returns:
        The task: the chosen instances round-robin over the puzzles, the authors' answering
        protocol, scored by the option read (metrics: accuracy, stderr, one accuracy per puzzle and
        per ontology category), at temperature 0.
    """
    check_extraction(extraction)
    if not isinstance(prevent_direct_answer, bool):
        raise ValueError(
            f"prevent_direct_answer must be true or false, got {prevent_direct_answer!r}."
        )
    selection = PuzzleSelection.from_arguments("algopuzzlevqa", puzzle=puzzle, source=source)
    return Task(
        dataset=algopuzzlevqa_dataset(
            puzzle=list(selection.kinds),
            prompt=prompt,
            source=selection.source,
            prevent_direct_answer=prevent_direct_answer,
            max_image_size=max_image_size,
        ),
        solver=algopuzzlevqa_solver(extraction=extraction),
        scorer=algopuzzlevqa_scorer(extraction=extraction),
        config=GenerateConfig(temperature=0.0),
        metadata={
            "prompt": prompt,
            "source": source,
            "extraction": extraction,
            "max_image_size": max_image_size,
            "prevent_direct_answer": prevent_direct_answer,
        },
        version=TASK_VERSION,
    )
