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

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import ChatMessageSystem

from inspect_sparc.core.gym import DEFAULT_MAX_STEPS, check_max_steps
from inspect_sparc.core.picture import check_plot_type, renderer_info
from inspect_sparc.core.puzzle import parse_levels
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.sparc.dataset import sparc_dataset
from inspect_sparc.evals.sparc.gym.prompts import gym_system_prompt, gym_visual_system_prompt
from inspect_sparc.evals.sparc.gym.scorer import gym_metrics, gym_scorer
from inspect_sparc.evals.sparc.gym.solvers import OBSERVATIONS, gym_agent
from inspect_sparc.evals.sparc.prompts import PromptKind, check_prompt_kind

#: `N-X`: N changes when results stop being comparable, X when the interface changes.
TASK_VERSION = "1-B"


def check_traceback(traceback: object) -> bool:
    """`traceback` as a bool (`-T traceback=true` may arrive as text); ValueError otherwise."""
    if isinstance(traceback, str) and traceback.strip().lower() in ("true", "false"):
        return traceback.strip().lower() == "true"
    if not isinstance(traceback, bool):
        raise ValueError(f"traceback must be true or false; got {traceback!r}")
    return traceback


def check_observation(observation: str) -> str:
    """`observation` when the gym can show it ("text", "image"), else a ValueError listing them."""
    if observation not in OBSERVATIONS:
        raise ValueError(
            f"observation must be one of {', '.join(OBSERVATIONS)}; got {observation!r}"
        )
    return observation


def gym_dataset(
    source: str,
    split: str,
    subset: str,
    level: int | list[int] | str | None,
    prompt: str,
    traceback: bool,
    max_steps: int,
    observation: str = "text",
    plot: str = "original",
) -> MemoryDataset:
    """The `sparc` samples with the gym system prompt as input and the episode settings."""
    dataset = sparc_dataset(source, split, subset, parse_levels(level), prompt)
    settings = {"traceback": traceback, "max_steps": max_steps, "prompt": prompt}
    system_prompt = gym_system_prompt
    if observation == "image":
        settings.update(observation=observation, plot=plot)
        system_prompt = gym_visual_system_prompt
    for sample in dataset:
        metadata = sample.metadata or {}
        system = system_prompt(metadata["puzzle"], prompt, traceback)
        sample.input = [ChatMessageSystem(content=system)]
        sample.metadata = {**metadata, "gym": settings}
    return dataset


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
    observation: Literal["text", "image"] = "text",
    plot: str = "original",
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
    """
    check_prompt_kind(prompt)
    traceback = check_traceback(traceback)
    max_steps = check_max_steps(max_steps)
    check_observation(observation)
    check_plot_type(plot)
    visual = {"plot": plot, **renderer_info()} if observation == "image" else {}
    return Task(
        dataset=gym_dataset(
            source, split, subset, level, prompt, traceback, max_steps, observation, plot
        ),
        solver=gym_agent(observation),
        scorer=gym_scorer(),
        metrics=gym_metrics(traceback),
        metadata={
            "prompt": prompt,
            "source": source,
            "split": split,
            "subset": subset,
            "traceback": traceback,
            "max_steps": max_steps,
            "observation": observation,
            **visual,
        },
        version=TASK_VERSION,
    )
