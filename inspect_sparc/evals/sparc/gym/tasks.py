"""SPaRC step by step: the Spatial-Gym protocol (`sparc-puzzle --gym`) as an Inspect task.

The model moves one grid position per call, seeing the current grid each time; the episode ends
on E, at a dead end or after `max_steps` steps, and is solved when the path is a stored solution.

    inspect eval inspect_sparc/sparc_gym --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc_gym -T traceback=true --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc_gym -T observation=image -T plot=path_cell_annotated ...
    inspect eval inspect_sparc/sparc_gym --solver inspect_sparc/gym_astar --model mockllm/model
    inspect eval inspect_sparc/sparc_gym --solver inspect_sparc/gym_random --epochs 20 \\
        --model mockllm/model
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.model import ChatMessage, ChatMessageSystem

from inspect_sparc.core.episode.settings import EpisodeSettings, ObservationKind
from inspect_sparc.core.episode.stepper import DEFAULT_MAX_STEPS
from inspect_sparc.core.prompts.episode import episode_system_prompt
from inspect_sparc.core.prompts.single_shot import PromptKind
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.selection import PuzzleSelection
from inspect_sparc.evals.sparc.episode_scorer import episode_metrics
from inspect_sparc.evals.sparc.gym.scorer import gym_scorer
from inspect_sparc.evals.sparc.gym.solvers import gym_agent
from inspect_sparc.evals.sparc.task import episode_dataset, source_metadata, sparc_task

#: `N-X` from the task card (`eval.yaml`): N changes when results stop being comparable, X when
#: the interface changes.
TASK_VERSION = task_version("sparc_gym")


def gym_input(record: Mapping[str, Any], settings: EpisodeSettings) -> list[ChatMessage]:
    """A `sparc_gym` sample's input: the episode's system prompt (the observations follow).

    Args:
        record: the compact puzzle record.
        settings: the episode's settings (prompt wording, traceback, observation kind).

    Returns:
        One system message."""
    return [ChatMessageSystem(content=episode_system_prompt(record, settings))]


# Opens with sparc's parameters: Inspect reads -T options from each task's own signature (task.py).
@task
@plain_errors
def sparc_gym(
    level: int | list[int] | str | None = None,
    prompt: PromptKind = "paper",
    source: str = "modelscope",
    split: Literal["test", "train"] = "test",
    subset: str = "all",
    traceback: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    observation: ObservationKind = "text",
    plot: str = "original",
    puzzles: str = "all",
) -> Task:
    """SPaRC solved one move per model call (the Spatial-Gym protocol of `sparc-puzzle --gym`).

    Args:
        level: Only puzzles of these levels: 1-5, a list, or `-T level=1,2`; None for all.
        prompt: "paper" (the published gym prompts) or "corrected" (the authors' later wording
            of the polyshape rules).
        source: "modelscope", "huggingface", "sample" or a path to records, as for `sparc`.
        split: "test" (the benchmark) or "train".
        subset: Dataset config: "all" (the benchmark) or a per-rule config such as "stars".
        traceback: Allow stepping back onto the previous position (`--gym-traceback`).
        max_steps: Steps per episode, illegal and unreadable ones included (reference: 100).
        observation: "text" (the grid as text, `--gym`) or "image" (`--gym --visual`: the
            puzzle image with the path so far, the visual gym prompts).
        plot: The renderer's plot type for `observation=image` (as `sparc_visual`).
        puzzles: "all" (every puzzle), or a fixed subset of the test split for a cheap run
            whose report estimates the full-split accuracy: "informative:50",
            "informative:100" or "informative:200" (docs/published_runs.md).

    Returns:
        The task: each sample an episode played move by move (`gym_agent`), scored on its final
        path; metrics: accuracy, per level, how episodes ended, steps, illegal and unreadable step
        rates, rule-break rates and, without traceback, the exact chance level of random legal
        moves.
    """
    settings = EpisodeSettings.from_task(prompt, traceback, max_steps, observation, plot)
    selection = PuzzleSelection.from_arguments(
        "sparc_gym", level=level, source=source, split=split, subset=subset, puzzles=puzzles
    )
    return sparc_task(
        "sparc_gym",
        {
            **source_metadata(prompt, selection),
            **settings.task_metadata(),
            **selection.subset_metadata(),
        },
        dataset=episode_dataset(selection, settings, gym_input),
        solver=gym_agent(observation),
        scorer=gym_scorer(),
        metrics=episode_metrics(settings.traceback, selection.puzzles),
    )
