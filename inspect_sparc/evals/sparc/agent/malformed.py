"""Malformed tool calls: the calls Inspect rejected before any tool ran, read from the messages.

A call whose arguments are broken JSON (`ToolCall.parse_error`), fail the tool's schema (a
missing `direction`, a number where text is due) or name no tool is answered by Inspect with a
`parsing` tool error and never reaches `move`: it is no step and no `tool_calls`. Counted here,
turn by turn (a tool reply belongs to the assistant turn before it, so ids reused across turns,
as some local servers send them, are no confusion).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool

#: Malformed calls in a row after which the default agent stops, saying why, rather than
#: running on to the message limit (at 35% broken calls, a rate seen with a local model, a run
#: of ten starts about once in 56,000 calls).
MALFORMED_LIMIT = 10
#: Store key of why the agent stopped before the episode ended (absent when it did not).
STOPPED_KEY = "sparc_agent_stopped"


def call_verdicts(messages: Sequence[ChatMessage]) -> Iterator[bool]:
    """For every tool call the agent sent, in order: True when Inspect rejected it unparsed.

    Args:
        messages: the sample's conversation; a call counts as rejected when it holds a JSON
            parse error or a tool reply after its turn has a `parsing` error for its id.

    Yields:
        One bool per tool call: True when it was malformed."""
    for index, message in enumerate(messages):
        if not isinstance(message, ChatMessageAssistant) or not message.tool_calls:
            continue
        rejected: set[str] = set()
        for reply in messages[index + 1 :]:
            if not isinstance(reply, ChatMessageTool):
                break
            if reply.error is not None and reply.error.type == "parsing":
                rejected.add(reply.tool_call_id or "")
        for call in message.tool_calls:
            yield call.parse_error is not None or call.id in rejected


def malformed_calls(messages: Sequence[ChatMessage]) -> int:
    """How many of the agent's tool calls Inspect rejected before any tool ran.

    Args:
        messages: the sample's conversation.

    Returns:
        The number of malformed tool calls."""
    return sum(call_verdicts(messages))


def malformed_in_a_row(messages: Sequence[ChatMessage]) -> int:
    """How many of the agent's last tool calls, counting back, were all malformed.

    Args:
        messages: the sample's conversation.

    Returns:
        The length of the run of malformed calls that ends with the last call (0 when the last
        call was well formed, or there was none)."""
    run = 0
    for malformed in call_verdicts(messages):
        run = run + 1 if malformed else 0
    return run


# Alike in shape only to train.observations.text_max_length (a one-argument function's docstring).
def stop_text(count: int) -> str:
    """Why the agent stopped, for the transcript and the score's explanation.

    Args:
        count: the malformed calls in a row.

    Returns:
        The sentence saying the agent stopped and why."""
    return (
        f"The agent stopped: its last {count} tool calls were malformed (Inspect could not "
        "parse or validate their arguments, so none reached `move`)."
    )
