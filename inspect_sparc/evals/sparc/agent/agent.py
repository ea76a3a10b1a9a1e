"""The default `sparc_agent` solver: Inspect's `react()` agent with the `move` tool.

The agent keeps its conversation. It stops when the episode ends (no `submit` turn and no model
call after the end); a turn without a tool call is answered with a reminder to keep moving, and
the episode goes on. Inspect's limits stop it too (the path so far is scored), and so does a run
of malformed tool calls (with the reason in the transcript and the score's explanation).
"""

from __future__ import annotations

from inspect_ai.agent import Agent, AgentContinue, AgentState, agent, react
from inspect_ai.log import transcript
from inspect_ai.util import store

from inspect_sparc.evals.sparc.agent.malformed import (
    MALFORMED_LIMIT,
    STOPPED_KEY,
    malformed_in_a_row,
    stop_text,
)
from inspect_sparc.evals.sparc.agent.prompts import CONTINUE_TEXT
from inspect_sparc.evals.sparc.agent.tools import episode_over, sparc_tools


def keep_moving(malformed_limit: int = MALFORMED_LIMIT) -> AgentContinue:
    """`react()`'s continue hook: stop once the episode is over, or after `malformed_limit`
    malformed tool calls in a row (saying why), else go on (a reminder to move after a turn
    with no tool call).

    Args:
        malformed_limit: the malformed tool calls in a row (rejected by Inspect before any tool
            ran) after which the agent stops; the reason goes to the store (`STOPPED_KEY`) and
            the transcript.

    Returns:
        The hook: False to stop, True to go on after a turn with tool calls, else the reminder
        text (`CONTINUE_TEXT`) as the next user message."""

    async def on_continue(state: AgentState) -> bool | str:
        if episode_over():
            return False
        in_a_row = malformed_in_a_row(state.messages)
        if in_a_row >= malformed_limit:
            store().set(STOPPED_KEY, stop_text(in_a_row))
            transcript().info(stop_text(in_a_row), source="sparc_agent")
            return False
        if state.output.message.tool_calls:
            return True
        return CONTINUE_TEXT

    return on_continue


@agent
def sparc_react(malformed_limit: int = MALFORMED_LIMIT) -> Agent:
    """`react()` playing the sample's episode through the `move` tool until it ends.

    No system prompt of its own (the puzzle, rules and how to play are the first user message)
    and no submit tool (the episode ends by moving, as in `sparc_gym`). It stops early after
    `malformed_limit` tool calls in a row that Inspect could not parse (`-S malformed_limit=`).

    Args:
        malformed_limit: malformed tool calls in a row before the agent stops, at least 1
            (ValueError else); default 10.

    Returns:
        The agent, with the `move` tool and `keep_moving` as its continue hook.
    """
    if malformed_limit < 1:
        raise ValueError(f"malformed_limit must be at least 1; got {malformed_limit}")
    on_continue = keep_moving(malformed_limit)
    return react(prompt=None, tools=sparc_tools(), submit=False, on_continue=on_continue)
