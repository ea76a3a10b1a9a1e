"""One body for every SPaRC task: the `@task` functions check their arguments, build their
`PuzzleSelection` and pick their dataset, solver and scorer; the `Task` itself, its version and
its metadata are built here.

The `@task` functions keep explicit signatures and docstrings (Inspect reads both for `-T` and
`inspect list`), as the multi-variant evals of Inspect Evals do. The step-by-step tasks
(`sparc_gym`, `sparc_agent`) share their dataset too: the `sparc` samples with the episode's
first message and settings (`episode_dataset`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage

from inspect_sparc.core.episode.settings import METADATA_KEY, EpisodeSettings
from inspect_sparc.core.prompts.single_shot import check_prompt_kind
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.reducer import mean_reducer
from inspect_sparc.evals.selection import ALL_PUZZLES, PuzzleSelection
from inspect_sparc.evals.sparc.dataset import record_to_sample, selected_dataset


def source_metadata(prompt: str, selection: PuzzleSelection) -> dict[str, Any]:
    """The task metadata every SPaRC task logs first: the prompt kind and where puzzles came
    from.

    Args:
        prompt: the prompt wording, `paper` or `corrected` (or `prompt_engineering` for
            `sparc_visual`).
        selection: the task's puzzles.

    Returns:
        `{"prompt", "source", "split", "subset"}`, in that order."""
    return {"prompt": prompt, **selection.source_metadata()}


def sparc_task(name: str, metadata: Mapping[str, Any], **parts: Any) -> Task:
    """The Task of SPaRC task `name`: its `parts` (dataset, solver, scorer, metrics, limits),
    its metadata, its version from the task cards (`eval.yaml`) and the epochs reducer that
    leaves explanations to the samples (`--epochs N` keeps it, `--epochs-reducer` replaces it).

    Args:
        name: the task's name as registered (`sparc`, `sparc_gym`, ...), the key of its card.
        metadata: the task metadata (prompt, source, settings).
        **parts: the other `Task` arguments: dataset, solver, scorer, metrics, limits.

    Returns:
        The Task, with one epoch by default and the package's mean reducer."""
    epochs = Epochs(1, mean_reducer())
    return Task(**parts, epochs=epochs, metadata=dict(metadata), version=task_version(name))


def subset_metrics(selection: PuzzleSelection) -> dict[str, Any]:
    """The `metrics` a single-shot task on a shipped subset passes to its Task (the split's
    estimate as headline, `sparc_metrics`); nothing on every puzzle, where the scorer's own
    metrics stand, as before.

    Args:
        selection: the task's puzzles.

    Returns:
        `{"metrics": [...]}` for a shipped subset, `{}` for every puzzle."""
    from inspect_sparc.evals.sparc.scorer import sparc_metrics

    if selection.puzzles == ALL_PUZZLES:
        return {}
    return {"metrics": sparc_metrics(selection.puzzles)}


def episode_dataset(
    selection: PuzzleSelection,
    settings: EpisodeSettings,
    first_messages: Callable[[Mapping[str, Any], EpisodeSettings], list[ChatMessage]],
    observation_always: bool = False,
) -> MemoryDataset:
    """The `sparc` samples of a step-by-step task's selection: each sample's input is
    `first_messages` of its puzzle record, and its metadata holds the settings under `gym`
    (`observation_always`: as `EpisodeSettings.metadata`).

    Args:
        selection: the task's puzzles.
        settings: the episode's settings; their prompt wording gives the samples' prompts.
        first_messages: the conversation an episode starts with, from the compact puzzle record
            and the settings.
        observation_always: whether the stored settings name the observation for text
            observations too (as `sparc_agent` logs them).

    Returns:
        The dataset, as `selected_dataset` names and orders it."""
    check_prompt_kind(settings.prompt)
    stored = settings.metadata(observation_always)

    def to_sample(record: Mapping[str, Any]) -> Sample:
        sample = record_to_sample(record, settings.prompt)
        metadata = sample.metadata or {}
        sample.input = first_messages(metadata["puzzle"], settings)
        sample.metadata = {**metadata, METADATA_KEY: stored}
        return sample

    return selected_dataset(selection, to_sample)
