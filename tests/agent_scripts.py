"""Scripted mockllm players for `sparc_agent` (and `sparc_gym`, for parity): no tokenizer, no
network, order-proof (each reply is chosen from the sample being played and its store)."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.model import (
    ChatMessageAssistant,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.model._model_output import ChatCompletionChoice
from inspect_ai.solver import TaskState
from inspect_ai.solver._task_state import sample_state
from inspect_ai.tool import ToolCall

from inspect_sparc.core.episode.stepper import ACTION_NAMES, Stepper, path_actions
from inspect_sparc.core.puzzle.parse import Puzzle
from inspect_sparc.evals.sparc.agent.tools import episode
from inspect_sparc.evals.sparc.episode import MOVES_KEY

NAMES = tuple(name.lower() for name in ACTION_NAMES)


def with_usage(output: ModelOutput) -> ModelOutput:
    """The output with token usage set, so Inspect never downloads a tokenizer."""
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def moves(*directions: str, content: str = "") -> ModelOutput:
    """One assistant turn calling `move` once per direction, in order."""
    calls = [
        ToolCall(id=f"call_{uuid.uuid4().hex[:8]}", function="move", arguments={"direction": d})
        for d in directions
    ]
    message = ChatMessageAssistant(
        content=content, tool_calls=calls, model="mockllm/model", source="generate"
    )
    output = ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(message=message)])
    return with_usage(output)


def text(content: str) -> ModelOutput:
    """One assistant turn with no tool call."""
    return with_usage(ModelOutput.from_content(model="mockllm/model", content=content))


#: A policy: (task state, episode so far, model call number for this sample) -> the reply.
Policy = Callable[[TaskState, Stepper, int], ModelOutput | str]


class Player:
    """A mockllm model playing `policy`, counting model calls per (sample, epoch)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.calls: Counter[tuple[Any, int]] = Counter()

    def respond(self, messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        state = sample_state()
        assert state is not None
        key = (state.sample_id, state.epoch)
        self.calls[key] += 1
        reply = self.policy(state, episode(state.store), self.calls[key])
        return reply if isinstance(reply, ModelOutput) else text(reply)

    def model(self) -> Model:
        return get_model("mockllm/model", custom_outputs=self.respond)


def solution_directions(puzzle: Puzzle) -> list[str]:
    """The first stored solution as direction names."""
    return [NAMES[a] for a in path_actions(puzzle.solutions[0])]


def walk_solution(state: TaskState, env: Stepper, call: int) -> ModelOutput:
    """One move of the first stored solution per turn (from where the path stands)."""
    return moves(solution_directions(env.puzzle)[len(env.path) - 1])


def first_legal(state: TaskState, env: Stepper, call: int) -> ModelOutput:
    """Always the first legal move: wanders until E or a dead end."""
    return moves(NAMES[env.legal_actions()[0]])


def scripted_actions(puzzle: Puzzle, seed: int, traceback: bool = False) -> list[int | None]:
    """A reproducible episode's actions: the first solution (with illegal tries, unreadable
    steps and, with traceback, a step out and back) for even seeds; a random walk with illegal
    tries for odd ones. Played on a Stepper until it ends, so every action is taken."""
    rng = random.Random(seed)
    env = Stepper(puzzle, traceback)
    plan = path_actions(puzzle.solutions[0])
    actions: list[int | None] = []
    while not env.done:
        legal = env.legal_actions()
        roll = rng.random()
        if roll < 0.08:
            action: int | None = rng.choice([a for a in range(4) if a not in legal] or [None])
        elif roll < 0.1:
            action = None
        elif (
            seed % 2 == 0
            and len(env.path) - 1 < len(plan)
            and env.path == list(puzzle.solutions[0][: len(env.path)])
        ):
            action = plan[len(env.path) - 1]
        else:
            action = rng.choice(legal)
        actions.append(action)
        env.step(action)
    return actions


def replay_policy(actions_for: Callable[[TaskState], Sequence[int | None]]) -> Policy:
    """Play a fixed action list through `move` (None: an unreadable direction)."""

    def policy(state: TaskState, env: Stepper, call: int) -> ModelOutput:
        action = actions_for(state)[env.steps]
        return moves("north" if action is None else NAMES[action])

    return policy


def gym_replay(actions_for: Callable[[TaskState], Sequence[int | None]]) -> Model:
    """A `sparc_gym` model replying `Final: N` with the same action list (None: no action)."""

    def respond(messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        state = sample_state()
        assert state is not None
        action = actions_for(state)[len(state.store.get(MOVES_KEY, ""))]
        return text("I cannot tell." if action is None else f"Final: {action}")

    return get_model("mockllm/model", custom_outputs=respond)
