"""No-model agents for `sparc_agent`: the gym's A* and random baselines, playing through the tools.

Each turn is an assistant message with one `move` tool call, run by Inspect's `execute_tools`
as a model's call would be: the transcript shows real tool calls and replies, the `move` tool
records the steps, and the scorer reads them as for any agent. No model is called, so
`--model mockllm/model` runs offline. The policies are `core.baselines`' (the ones `gym_astar`
and `gym_random` play), seeded per sample and epoch with the same salts, so the same sample
walks the same path in `sparc_gym` and `sparc_agent`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from inspect_ai.agent import Agent, AgentState, agent
from inspect_ai.model import ChatMessageAssistant, execute_tools
from inspect_ai.tool import Tool, ToolCall
from inspect_ai.util import store

from inspect_sparc.core.episode.baselines import Policy, astar_policy, episode_rng, random_policy
from inspect_sparc.core.episode.stepper import Stepper
from inspect_sparc.evals.sparc.agent.prompts import DIRECTIONS
from inspect_sparc.evals.sparc.agent.tools import EPISODE_KEY, PUZZLE_KEY, episode, sparc_tools
from inspect_sparc.evals.sparc.protocols import baseline_output, wrong_task

#: Model names recorded on the baselines' messages and output.
AGENT_ASTAR_MODEL = "inspect_sparc/agent_astar"
AGENT_RANDOM_MODEL = "inspect_sparc/agent_random"


def move_message(model: str, env: Stepper, action: int | None) -> ChatMessageAssistant:
    """One turn of a baseline: a single `move` call naming the action's direction (an empty
    one, an unreadable step, for None: what the gym records for a move that names none).

    Args:
        model: the model name to record on the message (`inspect_sparc/agent_astar`, ...).
        env: the episode so far (its step count numbers the call's id, `move_<step>`).
        action: the action, 0 right, 1 up, 2 left, 3 down, or None.

    Returns:
        An assistant message holding that one tool call and no text."""
    direction = "" if action is None else DIRECTIONS[action]
    call = ToolCall(id=f"move_{env.steps + 1}", function="move", arguments={"direction": direction})
    return ChatMessageAssistant(content="", tool_calls=[call], model=model, source="generate")


def sample_rng(salt: str) -> random.Random:
    """The generator `gym_astar` / `gym_random` use for this sample and epoch (its id and epoch,
    put in the store by the setup step).

    Args:
        salt: the baseline's salt, `astar` or `random` (the gym baselines' salts).

    Returns:
        A generator seeded from the sample id, epoch and salt (the same numbers on every run and
        host)."""
    episode: list[Any] = store().get(EPISODE_KEY, [None, 1])
    sample_id, epoch = episode
    return episode_rng(sample_id, epoch, salt)


async def play_through_tools(
    state: AgentState, model: str, make_policy: Callable[[Stepper], Policy], tools: list[Tool]
) -> AgentState:
    """Take the policy's move with one `move` call a turn until the episode ends (stops at once
    on a sample of another task: only `sparc_agent`'s setup starts an episode).

    Args:
        state: the agent's state; each turn's call and the tool's replies are appended to its
            messages, and its output is set at the end.
        model: the model name to record, `inspect_sparc/<agent name>` (the name also goes in the
            wrong-task error).
        make_policy: builds the policy from the episode at its start; the policy gives the next
            action (0 right, 1 up, 2 left, 3 down) for the episode so far.
        tools: the tools the calls are run with (`sparc_tools()`).

    Returns:
        The state, with the whole episode in its messages and `baseline_output` as its output."""
    if store().get(PUZZLE_KEY) is None:
        raise wrong_task(model.rsplit("/", 1)[-1], "agent", "a task without its move tool")
    env = episode()
    policy = make_policy(env)
    while not env.done:
        state.messages.append(move_message(model, env, policy(env)))
        replies, _ = await execute_tools(state.messages, tools)
        state.messages.extend(replies)
        env = episode()
    state.output = baseline_output(model, env)
    return state


@agent
def agent_astar() -> Agent:
    """The reference A* ablation as an agent: the shortest S-to-E path ignoring rules, a random
    legal move (seeded as `gym_astar`'s) where the plan is blocked; one `move` call a turn.

    Returns:
        An agent that plays the A* baseline in `sparc_agent` (no model call; WrongTaskError in
        another task)."""
    tools = sparc_tools()

    async def execute(state: AgentState) -> AgentState:
        rng = sample_rng("astar")
        return await play_through_tools(
            state, AGENT_ASTAR_MODEL, lambda env: astar_policy(env.puzzle, rng), tools
        )

    return execute


# The @agent form of gym_random (Inspect registers agents and solvers apart): both random_policy.
@agent
def agent_random() -> Agent:
    """Uniformly random legal moves as an agent (seeded as `gym_random`'s); one call a turn.

    Returns:
        An agent that plays random legal moves in `sparc_agent` (no model call; WrongTaskError in
        another task)."""
    tools = sparc_tools()

    async def execute(state: AgentState) -> AgentState:
        rng = sample_rng("random")
        return await play_through_tools(
            state, AGENT_RANDOM_MODEL, lambda env: random_policy(rng), tools
        )

    return execute
