"""Solvers for `sparc_gym`: one model call per step, or a baseline policy with no model call.

Each step of `gym_agent` is one span in the transcript: the observation the model was sent, its
reply, the action read and whether it was legal (the baselines record one span per step too, with
the same info event). The model sees a fresh two-message conversation every step (the system
prompt and the current observation), as in the reference; the sample's
messages keep the whole episode (the system prompt once, then each observation and reply), so
`--message-limit` counts steps. The moves are kept in the store (`gym_moves`, one letter per step)
and the scorer replays them: an episode cut by a limit is scored on the path so far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import anyio
from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    ContentText,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from inspect_sparc.core.episode.baselines import Policy, astar_policy, episode_rng, random_policy
from inspect_sparc.core.episode.settings import EpisodeSettings, check_observation
from inspect_sparc.core.episode.stepper import (
    ACTION_NAMES,
    Stepper,
    StepResult,
    read_action,
)
from inspect_sparc.core.prompts.episode import (
    episode_system_prompt,
    gym_visual_step_text,
    observation_text,
)
from inspect_sparc.evals.sparc.episode import new_episode, record_step, step_picture
from inspect_sparc.evals.sparc.protocols import baseline_output, require_protocol

__all__ = ["gym_agent", "gym_astar", "gym_random"]

#: Model names recorded on the baselines' outputs.
GYM_ASTAR_MODEL = "inspect_sparc/gym_astar"
GYM_RANDOM_MODEL = "inspect_sparc/gym_random"


def text_observation(env: Stepper, settings: EpisodeSettings) -> ChatMessageUser:
    """The reference's text observation for the next step.

    Args:
        env: the episode so far.
        settings: the episode's settings (not read: every observer takes them).

    Returns:
        A user message: the step number, the position, the legal moves and the text grid."""
    text = observation_text(
        env.steps + 1, env.position_text(), env.legal_actions(), env.grid_text()
    )
    return ChatMessageUser(content=text)


def image_observation(env: Stepper, settings: EpisodeSettings) -> ChatMessageUser:
    """The reference's visual observation (`--gym --visual`): the puzzle image with the path so
    far, then a one-line position and legal moves.

    Args:
        env: the episode so far.
        settings: the episode's settings; their `plot` is the renderer's plot type.

    Returns:
        A user message: the picture as a data URI, then the text."""
    text = gym_visual_step_text(env.steps + 1, env.position_text(), env.legal_actions())
    return ChatMessageUser(content=[step_picture(env, settings.plot), ContentText(text=text)])


#: How the agent is shown the puzzle each step (one function per observation kind).
OBSERVERS: dict[str, Callable[[Stepper, EpisodeSettings], ChatMessageUser]] = {
    "text": text_observation,
    "image": image_observation,
}


def observe(env: Stepper, settings: EpisodeSettings) -> ChatMessageUser:
    """The observation message for the next step, of the settings' observation kind.

    Args:
        env: the episode so far.
        settings: the episode's settings; `observation` is `text` or `image`.

    Returns:
        The user message for the next step."""
    return OBSERVERS[settings.observation](env, settings)


def system_message(state: TaskState, settings: EpisodeSettings) -> ChatMessageSystem:
    """The sample's system prompt (built by the task), or the gym prompt built from metadata.

    Args:
        state: the sample's state; its metadata holds the compact puzzle record (`puzzle`).
        settings: the episode's settings (prompt wording, traceback, observation kind).

    Returns:
        The first system message of the sample's messages, else a new one."""
    for message in state.messages:
        if isinstance(message, ChatMessageSystem):
            return message
    return ChatMessageSystem(content=episode_system_prompt(state.metadata["puzzle"], settings))


def step_info(result: StepResult, env: Stepper) -> dict[str, Any]:
    """What a step did, for the transcript's info event.

    Args:
        result: the step just taken.
        env: the episode after it.

    Returns:
        `action` (e.g. `0=RIGHT`, None for an unreadable reply), `legal`, `backtrack`, the new
        `position` as `[x, y]`, `ended` (`reached_end`, `dead_end`, `step_limit` or None) and
        the `steps` taken so far."""
    action = None if result.action is None else f"{result.action}={ACTION_NAMES[result.action]}"
    return {
        "action": action,
        "legal": result.legal,
        "backtrack": result.backtrack,
        "position": list(result.position),
        "ended": result.ended,
        "steps": env.steps,
    }


@solver
def gym_agent(observation: str | None = None) -> Solver:
    """Play the episode with the model, one call per step (the reference protocol).

    `observation` ("text" or "image") overrides the sample's own setting (`-T observation=`),
    which is used when it is None, so `--solver inspect_sparc/gym_agent` keeps the task's kind.

    Args:
        observation: "text", "image" or None (ValueError else).

    Returns:
        A solver that plays the sample's episode: each step sends the model the system prompt and
        the current observation, reads the action from its reply and records the step, until the
        episode ends (at E, a dead end or `max_steps`) or a limit stops the sample.
    """
    shown = None if observation is None else check_observation(observation)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        settings = EpisodeSettings.from_metadata(state.metadata)
        env = new_episode(state.metadata["puzzle"], settings, state.store)
        system = system_message(state, settings)
        if shown is not None:  # the solver's own kind, for the observations only
            settings = replace(settings, observation=shown)
        state.messages = [system]  # the episode's messages follow, one observation and reply a step
        model = get_model()
        while not env.done:
            async with span(f"step {env.steps + 1}", type="gym_step"):
                # an image takes tens of milliseconds to draw: off the event loop
                user = await anyio.to_thread.run_sync(observe, env, settings)
                state.messages.append(user)
                output = await model.generate([system, user])
                state.output = output
                result = env.step(read_action(output.completion))
                record_step(state.store, result)
                transcript().info(step_info(result, env), source="sparc_gym")
                state.messages.append(output.message)
        return state

    return solve


async def play_baseline(state: TaskState, model: str, make_policy: Callable[..., Policy]) -> None:
    """Run one episode with a policy (no model call) and record it like a model's: one span
    per step in the transcript with the same info event, so a reader sees how it walked.
    Stops at once on a sample of another task (`WrongTaskError`).

    Args:
        state: the sample's state: the moves go to its store, the output to its output and
            messages.
        model: the model name to record, `inspect_sparc/<solver name>` (the name also goes in the
            wrong-task error).
        make_policy: builds the policy from the fresh episode; the policy gives the next action
            (0 right, 1 up, 2 left, 3 down) for the episode so far."""
    require_protocol(model.rsplit("/", 1)[-1], "gym", state.metadata, state.tools)
    settings = EpisodeSettings.from_metadata(state.metadata)
    env = new_episode(state.metadata["puzzle"], settings, state.store)
    policy = make_policy(env)
    while not env.done:
        async with span(f"step {env.steps + 1}", type="gym_step"):
            result = env.step(policy(env))
            record_step(state.store, result)
            transcript().info(step_info(result, env), source="sparc_gym")
    state.output = baseline_output(model, env)
    state.messages.append(state.output.message)


@solver
def gym_astar() -> Solver:
    """The reference A* ablation: the shortest S-to-E path ignoring rules, a random legal move
    (seeded per sample and epoch) where the plan is blocked. 32 of the 500 test puzzles (6.4%).

    Returns:
        A solver that plays the A* baseline in `sparc_gym` (no model call; WrongTaskError in
        another task)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        rng = episode_rng(state.sample_id, state.epoch, "astar")
        await play_baseline(state, GYM_ASTAR_MODEL, lambda env: astar_policy(env.puzzle, rng))
        return state

    return solve


@solver
def gym_random() -> Solver:
    """Uniformly random legal moves, seeded per sample and epoch (reproducible).

    Returns:
        A solver that plays random legal moves in `sparc_gym` (no model call; WrongTaskError in
        another task)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        rng = episode_rng(state.sample_id, state.epoch, "random")
        await play_baseline(state, GYM_RANDOM_MODEL, lambda env: random_policy(rng))
        return state

    return solve
