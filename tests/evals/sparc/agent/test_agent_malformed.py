"""Malformed tool calls in `sparc_agent`: counted as their own metric, and no endless loop.

The broken calls are built as a provider builds them, with Inspect's `parse_tool_call` on the raw
argument text a model sent (broken JSON gets a `parse_error`); the expected counts come from the
scripts themselves, never from the code under test.
"""

from __future__ import annotations

import uuid

import eval_runs
import pytest
from agent_scripts import Player, solution_directions, with_usage
from eval_runs import score_of
from inspect_ai.log import resolve_sample_attachments
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ModelOutput
from inspect_ai.model._model_output import ChatCompletionChoice
from inspect_ai.model._providers.util import parse_tool_call
from inspect_ai.solver import SolverSpec
from inspect_ai.tool import ToolCallError

from inspect_sparc.evals.sparc.agent.malformed import (
    MALFORMED_LIMIT,
    malformed_calls,
    malformed_in_a_row,
)
from inspect_sparc.evals.sparc.agent.tasks import default_message_limit, sparc_agent
from inspect_sparc.evals.sparc.episode import MOVES_KEY

BROKEN_JSON = '{"direction": "up"'  # the closing brace lost, as a real model sent it


def turn(*raw: tuple[str, str]) -> ModelOutput:
    """One assistant turn whose tool calls carry these (function, raw JSON arguments)."""
    calls = [parse_tool_call(f"call_{uuid.uuid4().hex[:8]}", fn, args) for fn, args in raw]
    message = ChatMessageAssistant(
        content="", tool_calls=calls, model="mockllm/model", source="generate"
    )
    return with_usage(
        ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(message=message)])
    )


def good(direction: str) -> tuple[str, str]:
    return ("move", f'{{"direction": "{direction}"}}')


def run(task, player: Player, tmp_path, **kwargs):
    return eval_runs.run(task, player.model(), tmp_path, **kwargs)


def test_the_broken_call_has_a_parse_error_as_a_provider_would_give():
    [call] = turn(("move", BROKEN_JSON)).message.tool_calls
    assert call.parse_error and "Error parsing" in call.parse_error


def test_malformed_calls_are_counted_apart_from_moves_and_are_no_steps(tmp_path):
    """Each turn: a broken-JSON call, a call missing `direction` and one to no tool (every other
    turn), then the solution's next move."""

    def policy(state, env, call):
        direction = solution_directions(env.puzzle)[len(env.path) - 1]
        extra = [("jump", "{}")] if call % 2 else []
        return turn(("move", BROKEN_JSON), ("move", "{}"), *extra, good(direction))

    player = Player(policy)
    log = run(sparc_agent(source="sample"), player, tmp_path, limit=2)
    malformed = sent = 0
    for sample in log.samples:
        score = score_of(sample)
        steps = score.value["steps"]
        expected = 2 * steps + (steps + 1) // 2  # turns 1, 3, 5 ... add the unknown tool
        assert score.value["correct"] == 1 and score.value["tool_calls"] == steps
        assert score.value["malformed_tool_calls"] == expected
        assert score.value["turns"] == steps and score.value["no_tool_turns"] == 0
        assert len(sample.store[MOVES_KEY]) == steps  # none of them reached `move`
        assert f"Malformed tool calls: {expected} " in score.explanation
        errors = [m.error for m in sample.messages if isinstance(m, ChatMessageTool) and m.error]
        assert len(errors) == expected and {e.type for e in errors} == {"parsing"}
        malformed, sent = malformed + expected, sent + expected + steps
    [scores] = log.results.scores
    metrics = {name: m.value for name, m in scores.metrics.items()}
    assert metrics["malformed_tool_call_rate"] == pytest.approx(malformed / sent)
    assert metrics["malformed_tool_calls_per_episode"] == pytest.approx(malformed / 2)
    assert metrics["tool_calls_per_episode"] == metrics["mean_steps"]


def test_an_agent_sending_only_malformed_calls_stops_with_a_stated_reason(tmp_path):
    player = Player(lambda state, env, call: turn(("move", BROKEN_JSON)))
    log = run(sparc_agent(source="sample"), player, tmp_path, limit=1)
    [sample] = [resolve_sample_attachments(s) for s in log.samples]
    assert player.calls[(sample.id, 1)] == MALFORMED_LIMIT
    assert len(sample.messages) == 1 + 2 * MALFORMED_LIMIT < default_message_limit(100)
    score = score_of(sample)
    reason = f"The agent stopped: its last {MALFORMED_LIMIT} tool calls were malformed"
    assert score.metadata["stopped"].startswith(reason)
    verdict, stop_line = score.explanation.splitlines()[:2]
    assert (
        verdict == "**Not solved**: stopped by the agent (scored on the path so far) after 0 steps."
    )
    assert stop_line.startswith(reason)
    assert score.value["cut"] == 1 and score.value["steps"] == 0
    assert score.value["malformed_tool_calls"] == MALFORMED_LIMIT
    infos = [e for e in sample.events if e.event == "info" and e.source == "sparc_agent"]
    assert [e.data for e in infos] == [score.metadata["stopped"]]
    assert sample.limit is None  # stopped by the agent, not cut by the message limit


def test_a_valid_call_breaks_the_run_and_the_limit_is_a_solver_argument(tmp_path):
    """With `-S malformed_limit=3`: two broken turns then a move, over and over, never stops
    early; three broken turns in a row do."""

    def policy(state, env, call):
        if call % 3:
            return turn(("move", BROKEN_JSON))
        return turn(good(solution_directions(env.puzzle)[len(env.path) - 1]))

    args = {"malformed_limit": 3}  # what `--solver inspect_sparc/sparc_react -S ...` passes
    solver = SolverSpec("inspect_sparc/sparc_react", args, args_passed=args)
    log = run(sparc_agent(source="sample"), Player(policy), tmp_path, limit=1, solver=solver)
    [sample] = log.samples
    score = score_of(sample)
    assert score.value["correct"] == 1 and "stopped" not in score.metadata
    assert score.value["malformed_tool_calls"] == 2 * score.value["steps"]
    player = Player(lambda state, env, call: turn(("move", BROKEN_JSON)))
    log = run(sparc_agent(source="sample"), player, tmp_path, limit=1, solver=solver)
    assert player.calls[(log.samples[0].id, 1)] == 3


def test_replies_are_matched_to_their_own_turn_when_ids_repeat():
    """Some local servers number calls per turn (`call_0` every turn): a parsing error in one
    turn must not mark the same id of another turn."""
    ok = ChatMessageAssistant(content="", tool_calls=[parse_tool_call("call_0", "move", "{}")])
    ok.tool_calls[0].arguments = {"direction": "up"}
    bad = ChatMessageAssistant(content="", tool_calls=[parse_tool_call("call_0", "move", "{")])
    reply_ok = ChatMessageTool(content="Moved UP.", tool_call_id="call_0", function="move")
    reply_bad = ChatMessageTool(
        content="", tool_call_id="call_0", function="move", error=ToolCallError("parsing", "x")
    )
    messages = [ok, reply_ok, bad, reply_bad, ok, reply_ok, bad, reply_bad, bad, reply_bad]
    assert malformed_calls(messages) == 3 and malformed_in_a_row(messages) == 2
    illegal = ChatMessageTool(
        content="", tool_call_id="call_0", function="move", error=ToolCallError("unknown", "x")
    )
    assert malformed_calls([ok, illegal]) == 0  # a move the tool refused is no malformed call
