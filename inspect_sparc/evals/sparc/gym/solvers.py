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

from collections.abc import Callable, Mapping
from typing import Any

import anyio
from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    ContentImage,
    ContentText,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import Store, span

from inspect_sparc.core.baselines import Policy, astar_policy, episode_rng, random_policy
from inspect_sparc.core.gym import (
    ACTION_NAMES,
    DEFAULT_MAX_STEPS,
    GymEnv,
    StepResult,
    moves_text,
    read_action,
    step_letter,
)
from inspect_sparc.core.picture import board_record, data_uri, puzzle_png
from inspect_sparc.core.puzzle import parse_puzzle
from inspect_sparc.evals.sparc.gym.prompts import (
    gym_system_prompt,
    gym_visual_step_text,
    gym_visual_system_prompt,
    observation_text,
)

#: Store key of the episode's moves, one letter per step (see `core.gym.step_letter`).
MOVES_KEY = "gym_moves"
#: Model names recorded on the baselines' outputs.
ASTAR_MODEL = "inspect_sparc/gym_astar"
RANDOM_MODEL = "inspect_sparc/gym_random"


def gym_settings(state: TaskState) -> dict[str, Any]:
    """The episode settings the task put in the sample metadata (defaults when absent)."""
    settings = dict(state.metadata.get("gym") or {})
    settings.setdefault("traceback", False)
    settings.setdefault("max_steps", DEFAULT_MAX_STEPS)
    settings.setdefault("prompt", "paper")
    return settings


def new_episode(state: TaskState) -> GymEnv:
    """A fresh environment for the sample's puzzle, with the moves record cleared."""
    settings = gym_settings(state)
    puzzle = parse_puzzle(state.metadata["puzzle"])
    state.store.set(MOVES_KEY, "")
    return GymEnv(puzzle, bool(settings["traceback"]), int(settings["max_steps"]))


def record_step(store: Store, result: StepResult) -> None:
    """Append one step's letter to the moves record in the sample's store (which the scorer
    replays; `sparc_agent`'s move tool records its steps here too)."""
    store.set(MOVES_KEY, store.get(MOVES_KEY, "") + step_letter(result))


def text_observation(env: GymEnv, settings: Mapping[str, Any]) -> ChatMessageUser:
    """The reference's text observation for the next step."""
    text = observation_text(
        env.steps + 1, env.position_text(), env.legal_actions(), env.grid_text()
    )
    return ChatMessageUser(content=text)


def image_observation(env: GymEnv, settings: Mapping[str, Any]) -> ChatMessageUser:
    """The reference's visual observation (`--gym --visual`): the puzzle image with the path so
    far, then a one-line position and legal moves. As the reference, the path drawn is every
    position after every step (an illegal try repeats one, a step back returns to one)."""
    drawn = [env.puzzle.start, *(result.position for result in env.history)]
    path = [{"x": x, "y": y} for x, y in drawn]
    png = puzzle_png(board_record(env.puzzle), settings.get("plot", "original"), path=path)
    text = gym_visual_step_text(env.steps + 1, env.position_text(), env.legal_actions())
    return ChatMessageUser(content=[ContentImage(image=data_uri(png)), ContentText(text=text)])


#: How the agent is shown the puzzle each step (one function per kind; `text` as the reference).
OBSERVATIONS: dict[str, Callable[[GymEnv, Mapping[str, Any]], ChatMessageUser]] = {
    "text": text_observation,
    "image": image_observation,
}


def observe(env: GymEnv, kind: str = "text", settings: Mapping[str, Any] | None = None) -> Any:
    """The observation message for the next step, of the given kind (`settings`: the plot)."""
    return OBSERVATIONS[kind](env, settings or {})


def system_message(state: TaskState) -> ChatMessageSystem:
    """The sample's system prompt (built by the task), or the gym prompt built from metadata."""
    for message in state.messages:
        if isinstance(message, ChatMessageSystem):
            return message
    settings = gym_settings(state)
    system_prompt = gym_system_prompt
    if settings.get("observation") == "image":
        system_prompt = gym_visual_system_prompt
    content = system_prompt(
        state.metadata["puzzle"], settings["prompt"], bool(settings["traceback"])
    )
    return ChatMessageSystem(content=content)


def step_info(result: StepResult, env: GymEnv) -> dict[str, Any]:
    """What a step did, for the transcript's info event."""
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
    """
    if observation is not None and observation not in OBSERVATIONS:
        raise ValueError(
            f"observation must be one of {', '.join(OBSERVATIONS)}; got {observation!r}"
        )

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        env = new_episode(state)
        system = system_message(state)
        settings = gym_settings(state)
        kind = observation or settings.get("observation", "text")
        state.messages = [system]  # the episode's messages follow, one observation and reply a step
        model = get_model()
        while not env.done:
            async with span(f"step {env.steps + 1}", type="gym_step"):
                # an image takes tens of milliseconds to draw: off the event loop
                user = await anyio.to_thread.run_sync(observe, env, kind, settings)
                state.messages.append(user)
                output = await model.generate([system, user])
                state.output = output
                result = env.step(read_action(output.completion))
                record_step(state.store, result)
                transcript().info(step_info(result, env), source="sparc_gym")
                state.messages.append(output.message)
        return state

    return solve


def baseline_output(model: str, env: GymEnv) -> ModelOutput:
    """The baseline's final output: its moves and where the episode ended (no model call)."""
    content = f"Moves: {moves_text(env.history)}\nEnded: {env.ended}"
    output = ModelOutput.from_content(model=model, content=content)
    output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
    return output


async def play_baseline(state: TaskState, model: str, make_policy: Callable[..., Policy]) -> None:
    """Run one episode with a policy (no model call) and record it like a model's: one span
    per step in the transcript with the same info event, so a reader sees how it walked."""
    env = new_episode(state)
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
    (seeded per sample and epoch) where the plan is blocked. 32 of the 500 test puzzles (6.4%)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        rng = episode_rng(state.sample_id, state.epoch, "astar")
        await play_baseline(state, ASTAR_MODEL, lambda env: astar_policy(env.puzzle, rng))
        return state

    return solve


@solver
def gym_random() -> Solver:
    """Uniformly random legal moves, seeded per sample and epoch (reproducible)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        rng = episode_rng(state.sample_id, state.epoch, "random")
        await play_baseline(state, RANDOM_MODEL, lambda env: random_policy(rng))
        return state

    return solve
