"""SPaRC: Spatial Pathfinding Reasoning Challenge, as Inspect tasks.

Kaesberg, Wahle, Ruas, Gipp. "SPaRC: A Spatial Pathfinding Reasoning Challenge". EMNLP 2025.
500 test puzzles in the style of the game The Witness, levels 1-5; a puzzle is solved when the
answer's path equals one of its stored solutions (no judge). Prompts and verdicts are identical to
the reference implementation (`sparc-puzzle` 0.7.0).

    inspect eval inspect_sparc/sparc --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc -T level=5 --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc -T puzzles=informative:100 --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc_hard --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc -T source=sample --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc -T source=./sparc_test.jsonl --model openai/gpt-4.1-mini
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.solver import generate

from inspect_sparc.core.prompts.single_shot import PromptKind, check_prompt_kind
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.selection import PuzzleSelection
from inspect_sparc.evals.sparc.dataset import record_to_sample, selected_dataset
from inspect_sparc.evals.sparc.scorer import sparc_scorer
from inspect_sparc.evals.sparc.task import source_metadata, sparc_task, subset_metrics

#: `N-X`: N changes when results stop being comparable, X when the interface changes (the
#: task card in `eval.yaml` holds it; `sparc_hard` has the same).
TASK_VERSION = task_version("sparc")


@task
@plain_errors
def sparc(
    level: int | list[int] | str | None = None,
    prompt: PromptKind = "paper",
    source: str = "modelscope",
    split: Literal["test", "train"] = "test",
    subset: str = "all",
    puzzles: str = "all",
) -> Task:
    """SPaRC puzzles (500 in the test split), accuracy overall and per level.

    Args:
        level: Only puzzles of these levels: 1-5, a list, or `-T level=1,2`; None for all.
        prompt: "paper" (the paper's single-shot prompt) or "corrected" (the authors' later
            wording of the star and polyshape rules).
        source: "modelscope" (evalscope/SPaRC), "huggingface" (lkaesberg/SPaRC), "sample" (25
            bundled test puzzles), "generated:SEED" (500 fresh puzzles, cached) or a path to a
            .json, .jsonl, .parquet (or gzipped .gz) file of records.
        split: "test" (the benchmark) or "train".
        subset: Dataset config: "all" (the benchmark) or a per-rule config such as "stars"
            (published on Hugging Face).
        puzzles: "all" (every puzzle), or a fixed subset of the test split for a cheap run
            whose report estimates the full-split accuracy: "informative:50",
            "informative:100" or "informative:200" (docs/published_runs.md).

    Returns:
        The task: one model call per puzzle (`generate()`), samples round-robin over the levels,
        scored against the stored solutions (`accuracy` with `stderr`, accuracy per level, the
        invalid-path rate and one rate per broken rule). With a shipped subset, `accuracy` is the
        estimate for the whole test split and `subset_accuracy` the subset's own rate.
    """
    selection = PuzzleSelection.from_arguments(
        "sparc", level=level, source=source, split=split, subset=subset, puzzles=puzzles
    )
    return single_shot_task(selection, prompt)


@task
@plain_errors
def sparc_hard(
    prompt: PromptKind = "paper",
    source: str = "modelscope",
    split: Literal["test", "train"] = "test",
    subset: str = "all",
) -> Task:
    """The paper's "hard" puzzles: level 5 only (89 in the test split).

    Args:
        prompt: "paper" (the paper's single-shot prompt, behind all published numbers) or
            "corrected" (the authors' later wording of the star and polyshape rules).
        source: As for `sparc`: "modelscope" (default), "huggingface", "sample" (the 5 bundled
            level-5 puzzles), "generated:SEED" or a path to a file of records.
        split: "test" (the benchmark: 89 level-5 puzzles) or "train".
        subset: Dataset config: "all" (the benchmark) or a per-rule config such as "stars"
            (published on Hugging Face).

    Returns:
        The `sparc` task on level 5 (it logs as `sparc`, its metrics `sparc`'s)."""
    selection = PuzzleSelection.from_arguments(
        "sparc_hard", source=source, split=split, subset=subset
    )
    return single_shot_task(selection, prompt)


def single_shot_task(selection: PuzzleSelection, prompt: str) -> Task:
    """The `sparc` task of `selection` (`sparc_hard` is `sparc` at level 5, and logs as it).

    Args:
        selection: the puzzles, checked (`sparc`'s, or `sparc_hard`'s at level 5).
        prompt: the prompt wording, `paper` or `corrected` (ValueError else).

    Returns:
        The task, named and versioned `sparc`."""
    check_prompt_kind(prompt)
    return sparc_task(
        "sparc",
        {**source_metadata(prompt, selection), **selection.subset_metadata()},
        dataset=selected_dataset(selection, lambda record: record_to_sample(record, prompt)),
        solver=generate(),
        scorer=sparc_scorer(),
        **subset_metrics(selection),
    )
