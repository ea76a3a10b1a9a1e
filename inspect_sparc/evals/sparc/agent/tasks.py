"""SPaRC for agents: the Spatial-Gym environment as Inspect tools, played by any agent.

The agent keeps its conversation and moves through the `move` tool (one grid position a call);
the episode ends as `sparc_gym`'s does (on E, at a dead end, after `max_steps` steps) or at an
Inspect limit, and is scored exactly as `sparc_gym` scores the same moves. This protocol is new:
it has no published numbers; `sparc_gym` is the one to compare with the papers.

    inspect eval inspect_sparc/sparc_agent --model openai/gpt-4.1-mini
    inspect eval inspect_sparc/sparc_agent -T traceback=true -T max_steps=100 --model ...
    inspect eval inspect_sparc/sparc_agent -T observation=image --model ...
    inspect eval inspect_sparc/sparc_agent --solver my_agents.py@careful_agent --model ...
    inspect eval inspect_sparc/sparc_agent -T source=generated:7 --message-limit 200 --model ...
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import ChatMessageUser, ContentText

from inspect_sparc.core.gym import DEFAULT_MAX_STEPS, GymEnv, check_max_steps
from inspect_sparc.core.picture import check_plot_type, renderer_info
from inspect_sparc.core.puzzle import parse_levels, parse_puzzle
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.sparc.agent.agent import sparc_react
from inspect_sparc.evals.sparc.agent.prompts import intro_text, state_text
from inspect_sparc.evals.sparc.agent.scorer import agent_metrics, agent_scorer
from inspect_sparc.evals.sparc.agent.tools import start_episode
from inspect_sparc.evals.sparc.dataset import sparc_dataset
from inspect_sparc.evals.sparc.gym.tasks import check_observation, check_traceback
from inspect_sparc.evals.sparc.prompts import PromptKind, check_prompt_kind

#: `N-X`: N changes when results stop being comparable, X when the interface changes.
TASK_VERSION = "1-A"


def default_message_limit(max_steps: int) -> int:
    """The first message, a move and its reply per step, and as many turns without a tool call
    (each with its reminder): an agent that keeps moving meets the step limit first; one that
    stops calling tools is cut here instead of running on. `--message-limit` overrides it."""
    return 1 + 2 * max_steps + 2 * max_steps


def agent_dataset(
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
    """The `sparc` samples with one user message (gym rules, how to play, the first state) and
    the episode settings; with `observation=image` the setup step adds the first picture."""
    dataset = sparc_dataset(source, split, subset, parse_levels(level), prompt)
    settings = {
        "traceback": traceback,
        "max_steps": max_steps,
        "prompt": prompt,
        "observation": observation,
    }
    if observation == "image":
        settings["plot"] = plot
    for sample in dataset:
        metadata = sample.metadata or {}
        record = metadata["puzzle"]
        intro = intro_text(record, prompt, traceback, max_steps, observation)
        first = state_text(GymEnv(parse_puzzle(record), traceback, max_steps), observation)
        sample.input = [
            ChatMessageUser(content=[ContentText(text=intro), ContentText(text=first)])
            if observation == "image"
            else ChatMessageUser(content=f"{intro}\n\n{first}")
        ]
        sample.metadata = {**metadata, "gym": settings}
    return dataset


@task
@plain_errors
def sparc_agent(
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
    """SPaRC played by an agent through tools, keeping its conversation (new; no paper numbers).

    The parameters are `sparc_gym`'s and mean the same. The default solver is `react()` with the
    `move` tool; any `--solver` plays through the same tools (see `docs/agent.md`).

    Args:
        level: Only puzzles of these levels: 1-5, a list, or `-T level=1,2`; None for all.
        prompt: "paper" or "corrected": the gym rules text the first message is built from.
        source: "modelscope", "huggingface", "sample", "generated:SEED" or a path to records.
        split: "test" (the benchmark) or "train".
        subset: Dataset config: "all" (the benchmark) or a per-rule config such as "stars".
        traceback: Allow stepping back onto the previous position (`--gym-traceback`).
        max_steps: Steps per episode, illegal and unreadable moves included (reference: 100).
        observation: "text" (tool replies carry the grid as text) or "image" (the picture of
            the puzzle with the path so far, and the visual gym rules).
        plot: The renderer's plot type for `observation=image` (as `sparc_gym`).
    """
    check_prompt_kind(prompt)
    traceback = check_traceback(traceback)
    max_steps = check_max_steps(max_steps)
    check_observation(observation)
    check_plot_type(plot)
    visual = {"plot": plot, **renderer_info()} if observation == "image" else {}
    return Task(
        dataset=agent_dataset(
            source, split, subset, level, prompt, traceback, max_steps, observation, plot
        ),
        setup=start_episode(),
        solver=sparc_react(),
        scorer=agent_scorer(),
        metrics=agent_metrics(traceback),
        message_limit=default_message_limit(max_steps),
        metadata={
            "protocol": "agent",
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
