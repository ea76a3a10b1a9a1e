"""The default `sparc_agent` solver: Inspect's `react()` agent with the `move` tool.

The agent keeps its conversation. It stops when the episode ends (no `submit` turn and no model
call after the end); a turn without a tool call is answered with a reminder to keep moving, and
the episode goes on. Inspect's limits stop it too (the path so far is scored).
"""

from __future__ import annotations

from inspect_ai.agent import Agent, AgentState, agent, react

from inspect_sparc.evals.sparc.agent.prompts import CONTINUE_TEXT
from inspect_sparc.evals.sparc.agent.tools import episode_over, sparc_tools


async def keep_moving(state: AgentState) -> bool | str:
    """`react()`'s continue hook: stop once the episode is over, else go on (a reminder to move
    after a turn with no tool call)."""
    if episode_over():
        return False
    if state.output.message.tool_calls:
        return True
    return CONTINUE_TEXT


@agent
def sparc_react() -> Agent:
    """`react()` playing the sample's episode through the `move` tool until it ends.

    No system prompt of its own (the puzzle, rules and how to play are the first user message)
    and no submit tool (the episode ends by moving, as in `sparc_gym`).
    """
    return react(prompt=None, tools=sparc_tools(), submit=False, on_continue=keep_moving)
