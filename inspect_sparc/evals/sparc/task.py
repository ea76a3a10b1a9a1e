"""One body for every SPaRC task: the `@task` functions check their arguments and pick their
dataset, solver and scorer; the `Task` itself, its version and its metadata are built here.

The `@task` functions keep explicit signatures and docstrings (Inspect reads both for `-T` and
`inspect list`), as the multi-variant evals of Inspect Evals do. The step-by-step tasks
(`sparc_gym`, `sparc_agent`) share their dataset too: the `sparc` samples with the episode's
first message and settings (`episode_dataset`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import ChatMessage

from inspect_sparc.core.episode.settings import METADATA_KEY, EpisodeSettings
from inspect_sparc.core.puzzle.parse import parse_levels
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.reducer import mean_reducer
from inspect_sparc.evals.sparc.dataset import sparc_dataset


def source_metadata(prompt: str, source: str, split: str, subset: str) -> dict[str, Any]:
    """The task metadata every SPaRC task logs first: the prompt kind and where puzzles came
    from."""
    return {"prompt": prompt, "source": source, "split": split, "subset": subset}


def sparc_task(name: str, metadata: Mapping[str, Any], **parts: Any) -> Task:
    """The Task of SPaRC task `name`: its `parts` (dataset, solver, scorer, metrics, limits),
    its metadata, its version from the task cards (`eval.yaml`) and the epochs reducer that
    leaves explanations to the samples (`--epochs N` keeps it, `--epochs-reducer` replaces it)."""
    epochs = Epochs(1, mean_reducer())
    return Task(**parts, epochs=epochs, metadata=dict(metadata), version=task_version(name))


def episode_dataset(
    source: str,
    split: str,
    subset: str,
    level: int | list[int] | str | None,
    settings: EpisodeSettings,
    first_messages: Callable[[Mapping[str, Any], EpisodeSettings], list[ChatMessage]],
    observation_always: bool = False,
) -> MemoryDataset:
    """The `sparc` samples of a step-by-step task: each sample's input is `first_messages` of
    its puzzle record, and its metadata holds the settings under `gym` (`observation_always`:
    as `EpisodeSettings.metadata`)."""
    dataset = sparc_dataset(source, split, subset, parse_levels(level), settings.prompt)
    stored = settings.metadata(observation_always)
    for sample in dataset:
        metadata = sample.metadata or {}
        sample.input = first_messages(metadata["puzzle"], settings)
        sample.metadata = {**metadata, METADATA_KEY: stored}
    return dataset
