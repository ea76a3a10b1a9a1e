"""Visual SPaRC: the puzzle shown to a vision-language model as an image, single shot.

The reference is `sparc.process_puzzle.process_puzzle_visual` (`sparc-puzzle` 0.7.0, CLI
`--visual --plot-type ...`): a system prompt, then one user message holding the PNG of the
puzzle first and the prompt text second. Images come from the authors' renderer with its font
pinned (`core/picture/image.py`); scoring is exactly the `sparc` scorer.

    inspect eval inspect_sparc/sparc_visual --model openai/gpt-4.1
    inspect eval inspect_sparc/sparc_visual -T plot=path_cell_annotated --model openai/gpt-4.1
    inspect eval inspect_sparc/sparc_visual -T prompt=prompt_engineering --model openai/gpt-4.1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import generate

from inspect_sparc.core.picture.image import check_plot_type, renderer_info
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.selection import PuzzleSelection
from inspect_sparc.evals.sparc.dataset import record_to_sample, selected_dataset
from inspect_sparc.evals.sparc.scorer import sparc_scorer
from inspect_sparc.evals.sparc.task import source_metadata, sparc_task, subset_metrics
from inspect_sparc.evals.sparc.visual.prompts import (
    VISUAL_SYSTEM_PROMPT,
    VisualPromptKind,
    check_visual_prompt_kind,
    visual_user_prompt,
)
from inspect_sparc.evals.sparc.visual.solvers import prepend_puzzle_image

#: `N-X` from the task card (`eval.yaml`): N changes when results stop being comparable, X when
#: the interface changes.
TASK_VERSION = task_version("sparc_visual")


def record_to_visual_sample(record: Mapping[str, Any], prompt: str = "paper") -> Sample:
    """A record as a visual Sample: the visual system prompt and prompt text, the `sparc`
    target and metadata. The image is added by `prepend_puzzle_image` when the sample runs.

    Args:
        record: a published SPaRC record.
        prompt: `paper`, `corrected` or `prompt_engineering` (see `visual_user_prompt`).

    Returns:
        The sample; its id, target and metadata are `sparc`'s."""
    sample = record_to_sample(record)
    messages = [
        ChatMessageSystem(content=VISUAL_SYSTEM_PROMPT),
        ChatMessageUser(content=visual_user_prompt(record, prompt)),
    ]
    return sample.model_copy(update={"input": messages})


def sparc_visual_dataset(selection: PuzzleSelection, prompt: str = "paper") -> MemoryDataset:
    """The visual Samples of a selection, as `sparc`'s are filtered and ordered.

    Args:
        selection: the task's puzzles.
        prompt: `paper`, `corrected` or `prompt_engineering` (ValueError else).

    Returns:
        The dataset, named as `sparc`'s with the prefix `sparc_visual`."""
    check_visual_prompt_kind(prompt)
    return selected_dataset(
        selection, lambda record: record_to_visual_sample(record, prompt), prefix="sparc_visual"
    )


# Parameters and docs as sparc's: Inspect reads -T options from each task's own signature (task.py).
@task
@plain_errors
def sparc_visual(
    level: int | list[int] | str | None = None,
    prompt: VisualPromptKind = "paper",
    plot: str = "original",
    source: str = "modelscope",
    split: Literal["test", "train"] = "test",
    subset: str = "all",
    puzzles: str = "all",
) -> Task:
    """SPaRC with the puzzle as an image (the reference's `--visual`), scored as `sparc`.

    Args:
        level: Only puzzles of these levels: 1-5, a list, or `-T level=1,2`; None for all.
        prompt: "paper" (the paper's visual prompt), "corrected" (the authors' later wording of
            negative polyshapes) or "prompt_engineering" (image only, no text grid).
        plot: The renderer's plot type: "original" (as the reference CLI), "start_end_marked",
            "coordinate_grid", "path_cell_annotated", "text", "low_contrast",
            "low_resolution", "rotated", "black_frame" or a combination the renderer offers.
        source: "modelscope", "huggingface", "sample" or a path to a file of records (as `sparc`).
        split: "test" (the benchmark) or "train".
        subset: Dataset config: "all" (the benchmark) or a per-rule config such as "stars".
        puzzles: "all" (every puzzle), or a fixed subset of the test split for a cheap run
            whose report estimates the full-split accuracy: "informative:50",
            "informative:100" or "informative:200" (docs/published_runs.md).

    Returns:
        The task: the puzzle's image then the prompt text, one model call per puzzle, scored as
        `sparc` (the same metrics); the task metadata also names the plot and what drew the
        images (renderer, Pillow and font versions).
    """
    check_visual_prompt_kind(prompt)
    check_plot_type(plot)
    # the plot right after the prompt (`source_metadata` keeps the prompt first), then what
    # drew the images
    selection = PuzzleSelection.from_arguments(
        "sparc_visual", level=level, source=source, split=split, subset=subset, puzzles=puzzles
    )
    metadata = {"prompt": prompt, "plot": plot, **source_metadata(prompt, selection)}
    metadata.update(selection.subset_metadata())
    return sparc_task(
        "sparc_visual",
        {**metadata, **renderer_info()},
        dataset=sparc_visual_dataset(selection, prompt),
        solver=[prepend_puzzle_image(plot), generate()],
        scorer=sparc_scorer(),
        **subset_metrics(selection),
    )
