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

from collections.abc import Mapping
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.model import ChatMessage, ChatMessageUser, ContentText

from inspect_sparc.core.episode.settings import EpisodeSettings, ObservationKind
from inspect_sparc.core.episode.stepper import DEFAULT_MAX_STEPS, Stepper
from inspect_sparc.core.prompts.single_shot import PromptKind
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.cards import task_version
from inspect_sparc.evals.errors import plain_errors
from inspect_sparc.evals.selection import PuzzleSelection
from inspect_sparc.evals.sparc.agent.agent import sparc_react
from inspect_sparc.evals.sparc.agent.prompts import intro_text, state_text
from inspect_sparc.evals.sparc.agent.scorer import agent_metrics, agent_scorer
from inspect_sparc.evals.sparc.agent.tools import start_episode
from inspect_sparc.evals.sparc.task import episode_dataset, source_metadata, sparc_task

#: `N-X` from the task card (`eval.yaml`): N changes when results stop being comparable, X when
#: the interface changes.
TASK_VERSION = task_version("sparc_agent")


def default_message_limit(max_steps: int) -> int:
    """The first message, a move and its reply per step, and as many turns without a tool call
    (each with its reminder): an agent that keeps moving meets the step limit first; one that
    stops calling tools is cut here instead of running on. `--message-limit` overrides it.

    Args:
        max_steps: the steps per episode.

    Returns:
        `4 * max_steps + 1` messages."""
    return 1 + 2 * max_steps + 2 * max_steps


def agent_input(record: Mapping[str, Any], settings: EpisodeSettings) -> list[ChatMessage]:
    """A `sparc_agent` sample's one user message: the gym rules, how to play and the first
    state (with `observation=image` the setup step adds the first picture).

    Args:
        record: the compact puzzle record.
        settings: the episode's settings (prompt wording, traceback, steps, observation kind).

    Returns:
        One user message: for text observations one text, for image ones two text parts (the
        rules and how to play, then the first state line)."""
    intro = intro_text(
        record, settings.prompt, settings.traceback, settings.max_steps, settings.observation
    )
    env = Stepper(parse_puzzle(record), settings.traceback, settings.max_steps)
    first = state_text(env, settings.observation)
    if settings.image:
        return [ChatMessageUser(content=[ContentText(text=intro), ContentText(text=first)])]
    return [ChatMessageUser(content=f"{intro}\n\n{first}")]


# Parameters as sparc_gym's: Inspect reads -T options from each task's own signature (task.py).
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
    observation: ObservationKind = "text",
    plot: str = "original",
    puzzles: str = "all",
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
        puzzles: "all" (every puzzle), or a fixed subset of the test split for a cheap run
            whose report estimates the full-split accuracy: "informative:50",
            "informative:100" or "informative:200" (docs/published_runs.md).

    Returns:
        The task: a setup step that starts the sample's episode and gives it the `move` tool, the
        `react()` agent (or the `--solver` given), scored as `sparc_gym` on the moves taken, with
        every `sparc_gym` metric plus tool calls per episode, the share of turns without a tool
        call and the malformed tool calls; `--message-limit` defaults to `4 * max_steps + 1`.
    """
    settings = EpisodeSettings.from_task(prompt, traceback, max_steps, observation, plot)
    selection = PuzzleSelection.from_arguments(
        "sparc_agent", level=level, source=source, split=split, subset=subset, puzzles=puzzles
    )
    return sparc_task(
        "sparc_agent",
        {
            "protocol": "agent",
            **source_metadata(prompt, selection),
            **settings.task_metadata(),
            **selection.subset_metadata(),
        },
        dataset=episode_dataset(selection, settings, agent_input, observation_always=True),
        setup=start_episode(),
        solver=sparc_react(),
        scorer=agent_scorer(),
        metrics=agent_metrics(settings.traceback, selection.puzzles),
        message_limit=default_message_limit(settings.max_steps),
    )
