"""The `sparc_agent` scorer: `sparc_gym`'s, on the moves the tools recorded, plus tool use.

The episode is read from the sample's store (the moves the `move` tool took), never from the
agent's messages, so every agent is scored the same way and the same moves score exactly as in
`sparc_gym`. The agent's turns are counted from the sample's messages: assistant messages, and
those among them with no tool call; so are its malformed tool calls (which never reach `move`).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import ChatMessage, ChatMessageAssistant
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from inspect_sparc.contract.scores import (
    MALFORMED_TOOL_CALL_RATE,
    MALFORMED_TOOL_CALLS,
    MALFORMED_TOOL_CALLS_PER_EPISODE,
    NO_TOOL_CALL_RATE,
    NO_TOOL_TURNS,
    TOOL_CALLS,
    TOOL_CALLS_PER_EPISODE,
    TURNS,
)
from inspect_sparc.evals.metrics import ALL_PUZZLES, mean_of, value_of
from inspect_sparc.evals.sparc.agent.malformed import STOPPED_KEY, malformed_calls
from inspect_sparc.evals.sparc.agent.tools import CALLS_KEY
from inspect_sparc.evals.sparc.episode_scorer import (
    ENDING_EXPLANATIONS,
    episode_metrics,
    score_recorded_episode,
)


@metric
def tool_use() -> Metric:
    """Tool calls per episode (mean of `tool_calls`) and the pooled share of turns without a
    tool call (`no_tool_turns / turns`; NaN when no sample had a turn).

    Returns:
        A metric giving `tool_calls_per_episode` and `no_tool_call_rate`."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        turns = sum(value_of(s, TURNS) for s in scores)
        silent = sum(value_of(s, NO_TOOL_TURNS) for s in scores)
        return {
            TOOL_CALLS_PER_EPISODE: mean_of(scores, TOOL_CALLS),
            NO_TOOL_CALL_RATE: silent / turns if turns else float("nan"),
        }

    return compute


@metric
def malformed_tool_use() -> Metric:
    """Malformed tool calls per episode (mean of `malformed_tool_calls`) and their pooled share
    of the calls that were sent (`malformed / (malformed + tool_calls)`; NaN with no call).

    Returns:
        A metric giving `malformed_tool_calls_per_episode` and `malformed_tool_call_rate`."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        malformed = sum(value_of(s, MALFORMED_TOOL_CALLS) for s in scores)
        sent = malformed + sum(value_of(s, TOOL_CALLS) for s in scores)
        return {
            MALFORMED_TOOL_CALLS_PER_EPISODE: mean_of(scores, MALFORMED_TOOL_CALLS),
            MALFORMED_TOOL_CALL_RATE: malformed / sent if sent else float("nan"),
        }

    return compute


def agent_metrics(traceback: bool = False, puzzles: str = ALL_PUZZLES) -> list[Metric]:
    """`sparc_gym`'s metrics (`puzzles`: as theirs), then tool use and malformed tool calls.

    Args:
        traceback: whether stepping back was allowed (then the chance level is left out).
        puzzles: "all", or the shipped subset the task runs (its headline accuracy is then the
            estimate for the whole test split).

    Returns:
        The metrics, in the order the log shows them."""
    return [*episode_metrics(traceback, puzzles), tool_use(), malformed_tool_use()]


def with_stop_reason(explanation: str | None, malformed: int, stopped: str | None) -> str:
    """The gym's explanation with, after its verdict line, why the agent stopped (if it did)
    and how many of its tool calls were malformed (if any).

    Args:
        explanation: the gym scorer's explanation (Markdown, its first line the verdict), or None.
        malformed: the malformed tool calls of the sample.
        stopped: why the agent stopped early (`stop_text`), or None when it did not.

    Returns:
        The explanation with those notes after its first line; unchanged when there is none to
        add."""
    verdict, _, rest = (explanation or "").partition("\n")
    if stopped:  # no sample limit cut it: the agent stopped
        stopped_text = "stopped by the agent (scored on the path so far)"
        verdict = verdict.replace(ENDING_EXPLANATIONS[None], stopped_text)
    notes = [stopped] if stopped else []
    if malformed:
        notes.append(f"Malformed tool calls: {malformed} (rejected by Inspect; no steps).")
    return "\n".join([verdict, *notes, rest]) if notes else explanation or ""


def turn_counts(messages: Sequence[ChatMessage]) -> tuple[int, int]:
    """The agent's turns (assistant messages) and how many of them called no tool.

    Args:
        messages: the sample's conversation.

    Returns:
        The number of assistant messages, and of those without a tool call."""
    turns = [m for m in messages if isinstance(m, ChatMessageAssistant)]
    return len(turns), sum(1 for m in turns if not m.tool_calls)


@scorer(metrics=agent_metrics())
def agent_scorer() -> Scorer:
    """Score the episode as `sparc_gym` does; add tool calls, turns and malformed calls.

    Returns:
        A scorer whose value is `sparc_gym`'s (on the moves the `move` tool recorded) plus
        `tool_calls`, `turns`, `no_tool_turns` and `malformed_tool_calls`; its metadata adds the
        same counts and, when the agent stopped itself, why."""

    async def score(state: TaskState, target: Target) -> Score:
        result = await score_recorded_episode(state)
        turns, silent = turn_counts(state.messages)
        calls = int(state.store.get(CALLS_KEY, 0))
        malformed = malformed_calls(state.messages)
        stopped = state.store.get(STOPPED_KEY)
        value = dict(result.value)  # type: ignore[arg-type]
        value.update({TOOL_CALLS: calls, TURNS: turns, NO_TOOL_TURNS: silent})
        value[MALFORMED_TOOL_CALLS] = malformed
        metadata = {**(result.metadata or {}), "tool_calls": calls, "turns": turns}
        metadata.update(no_tool_turns=silent, malformed_tool_calls=malformed)
        if stopped:
            metadata["stopped"] = stopped
        explanation = with_stop_reason(result.explanation, malformed, stopped)
        update = {"value": value, "metadata": metadata, "explanation": explanation}
        return result.model_copy(update=update)

    return score
