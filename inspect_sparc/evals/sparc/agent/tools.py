"""The `move` tool and the episode it plays, kept in the sample's store.

The episode is the gym's (`core.stepper.Stepper`) and lives in the store of the sample being played
(per sample and epoch): the puzzle and settings the setup step put there, and the moves so far
under the gym's own key (`gym_moves`, one letter per step), so `sparc_gym`'s scorer replays it.
The tool holds no state and closes over no sample: `sparc_tools()` built once serves every
sample, whichever agent calls it.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import anyio
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, ToolError, ToolResult, tool
from inspect_ai.util import Store, store

from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.core.episode.stepper import Stepper
from inspect_sparc.evals.sparc.agent.prompts import (
    ended_text,
    illegal_text,
    late_text,
    move_text,
    read_direction,
    state_text,
)
from inspect_sparc.evals.sparc.episode import MOVES_KEY, record_step, replay_episode, step_picture

#: Store keys: the puzzle record and the episode settings (set by `start_episode`; see
#: `store_fields`), and the number of `move` calls, steps or not (a call after the end is no step).
PUZZLE_KEY = "sparc_agent_puzzle"
SETTINGS_KEY = "sparc_agent_settings"
CALLS_KEY = "sparc_agent_tool_calls"
#: The sample id and epoch being played (seeds the no-model agents as the gym's baselines).
EPISODE_KEY = "sparc_agent_episode"
#: Settings stored under another name than their `EpisodeSettings` field.
STORED_NAMES = {"observation": "kind"}


def store_fields(settings: EpisodeSettings) -> dict[str, Any]:
    """The settings as the sample's store keeps them (and the log shows them): all but the
    prompt, the observation named `kind` (its name there since `sparc_agent` 1-A).

    Args:
        settings: the episode's settings.

    Returns:
        `traceback`, `max_steps`, `kind` (the observation) and `plot`, by those names."""
    fields = asdict(settings)
    del fields["prompt"]
    return {STORED_NAMES.get(name, name): value for name, value in fields.items()}


def stored_settings(where: Store) -> EpisodeSettings:
    """The settings `start_episode` put in the store (defaults for what is absent).

    Args:
        where: the sample's store.

    Returns:
        The settings; their prompt wording is the default, as the store does not keep it."""
    fields: dict[str, Any] = where.get(SETTINGS_KEY, {})
    names = {stored: name for name, stored in STORED_NAMES.items()}
    return EpisodeSettings.from_fields({names.get(k, k): v for k, v in fields.items()})


def episode(where: Store | None = None) -> Stepper:
    """The sample's episode so far, replayed from the store (RuntimeError before the setup).

    Args:
        where: the sample's store; None for the store of the sample running now.

    Returns:
        The episode, replayed through the moves recorded so far."""
    where = where if where is not None else store()
    record = where.get(PUZZLE_KEY)
    if record is None:
        raise RuntimeError(
            "no SPaRC episode in this sample: the `move` tool plays `sparc_agent` samples"
        )
    return replay_episode(record, stored_settings(where), where)


def episode_over(where: Store | None = None) -> bool:
    """True once the sample's episode has ended (on E, a dead end or the step limit).

    Args:
        where: the sample's store; None for the store of the sample running now.

    Returns:
        Whether the episode has ended."""
    return episode(where).done


def picture(env: Stepper, plot: str) -> ContentImage:
    """The picture of `sparc_gym`'s visual observation (the puzzle and the path so far).

    Args:
        env: the episode so far.
        plot: the renderer's plot type (`original`, `path_cell_annotated`, ...).

    Returns:
        The picture as an image content, a data URI."""
    return step_picture(env, plot)


async def observation(env: Stepper, settings: EpisodeSettings, lead: str = "") -> ToolResult:
    """The reply to a move: `lead`, the state (text, or the picture and one line) and the end.

    Args:
        env: the episode after the move.
        settings: the episode's settings; `observation` decides text or picture.
        lead: the line that comes first (what the move did), or "" for none.

    Returns:
        The text for text observations; for image ones, the picture, then the text."""
    text = "\n".join(part for part in (lead, state_text(env, settings.observation)) if part)
    if env.done:
        text += "\n\n" + ended_text(env)
    if not settings.image:
        return text
    # a picture takes tens of milliseconds to draw: off the event loop
    image = await anyio.to_thread.run_sync(picture, env, settings.plot)
    return [image, ContentText(text=text)]


@tool(parallel=False)  # moves in one turn are taken in order
def move() -> Tool:
    """One step of the sample's SPaRC episode, as `sparc_gym` takes it.

    Returns:
        The `move` tool: `direction` is `right`, `up`, `left` or `down` (any case; the gym's
        `0`-`3` and `1=UP` labels too), the reply the new state; an illegal or unreadable
        move, or one after the end, is a tool error (the first two count as steps)."""

    async def execute(direction: str) -> ToolResult:
        """Move one grid position in a direction; the reply is the new state of the puzzle.

        Args:
            direction: One of "right", "up", "left", "down".
        """
        where = store()
        env = episode(where)
        where.set(CALLS_KEY, where.get(CALLS_KEY, 0) + 1)
        if env.done:
            raise ToolError(late_text(env))
        result = env.step(read_direction(direction))
        record_step(where, result)
        if not result.legal:
            raise ToolError(illegal_text(str(direction), result, env))
        return await observation(env, stored_settings(where), move_text(result))

    return execute


def sparc_tools() -> list[Tool]:
    """The tools that play a `sparc_agent` sample (the same for every traceback setting: a step
    back is a move onto the previous position).

    Returns:
        A list holding the `move` tool."""
    return [move()]


async def add_first_picture(state: TaskState, plot: str) -> None:
    """Put the start picture before the first state line of the first user message (drawn
    here, per sample, rather than for every puzzle when the dataset is built).

    Args:
        state: the sample's state; its first user message, when it is a list of parts (image
            observations), gains the picture before its last part, unless it already holds one.
        plot: the renderer's plot type."""
    for message in state.messages:
        if isinstance(message, ChatMessageUser) and isinstance(message.content, list):
            if not any(isinstance(part, ContentImage) for part in message.content):
                image = await anyio.to_thread.run_sync(picture, episode(state.store), plot)
                message.content.insert(len(message.content) - 1, image)
            return


@solver
def start_episode() -> Solver:
    """The task's setup step (kept when `--solver` replaces the agent): a fresh episode in the
    sample's store, and the tools in `state.tools` for solvers that read them there.

    Returns:
        A solver that stores the sample's puzzle, settings, id and epoch and an empty moves
        record, adds the start picture for image observations, and gives the sample the tools."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        settings = EpisodeSettings.from_metadata(state.metadata)
        state.store.set(PUZZLE_KEY, state.metadata["puzzle"])
        state.store.set(SETTINGS_KEY, store_fields(settings))
        state.store.set(MOVES_KEY, "")
        state.store.set(CALLS_KEY, 0)
        state.store.set(EPISODE_KEY, [state.sample_id, state.epoch])
        if settings.image:
            await add_first_picture(state, settings.plot)
        state.tools = sparc_tools()
        state.tool_choice = "auto"
        return state

    return solve
