"""End-to-end: `sparc_gym` through inspect_ai.eval with scripted mockllm replies and baselines.

The scripted model answers from the sample being played (its id, epoch and the steps taken so
far), so every run is order-proof; expected verdicts come from the reference loop on the same
replies where the reference can run them.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from eval_runs import metrics_of, run
from gym_reference import reference_episode
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageAssistant, Content, Model, ModelOutput, get_model
from inspect_ai.model._model_output import ChatCompletionChoice, ModelUsage
from inspect_ai.solver._task_state import sample_state

from inspect_sparc.core.episode.baselines import astar_solves, chance_of_solving
from inspect_sparc.core.episode.stepper import path_actions
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import PUZZLE_RULES, STRUCTURAL_RULES
from inspect_sparc.core.sources import load_records
from inspect_sparc.evals.sparc.episode import MOVES_KEY
from inspect_sparc.evals.sparc.gym.solvers import gym_astar, gym_random
from inspect_sparc.evals.sparc.gym.tasks import TASK_VERSION, sparc_gym

WORDS = ("right", "up", "left", "down")


def output(content: str, reasoning: str | None = None) -> ModelOutput:
    """A mock output with usage (no tokenizer download), optionally with reasoning content."""
    from inspect_ai._util.content import ContentReasoning, ContentText

    parts: list[Content] = [ContentText(text=content)]
    if reasoning is not None:
        parts.insert(0, ContentReasoning(reasoning=reasoning))
    message = ChatMessageAssistant(content=parts, model="mockllm/model", source="generate")
    result = ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(message=message)])
    result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return result


def scripted(reply_for) -> Model:
    """A mockllm model whose reply is `reply_for(sample_id, epoch, step, messages)`."""

    def respond(messages, tools, tool_choice, config):
        state = sample_state()
        step = len(state.store.get(MOVES_KEY, ""))
        reply = reply_for(state.sample_id, state.epoch, step, messages)
        return reply if isinstance(reply, ModelOutput) else output(reply)

    return get_model("mockllm/model", custom_outputs=respond)


@pytest.fixture(scope="module")
def sample_records() -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in load_records("sample", "test", "all")}


def solution_reply(records):
    """Walk the first stored solution, in rotating reply formats (with a `</think>` decoy)."""

    def reply(sample_id, epoch, step, messages):
        puzzle = parse_puzzle(records[sample_id])
        action = path_actions(puzzle.solutions[0])[step]
        formats = [
            f"Final: {action}",
            f"Let me think.\nFinal: {WORDS[action].upper()}",
            f"<think>Final: {(action + 1) % 4}</think>\nFinal: {action}",
            f"I go {WORDS[action]}",
        ]
        return formats[step % len(formats)]

    return reply


def walk_one_level_5(tmp_path: Path, records: dict[str, dict[str, Any]], **options: Any) -> EvalLog:
    """The log of one level-5 sample (a long episode) walked along its solution, with more
    `eval` options (limits)."""
    task = sparc_gym(source="sample", level=5)
    return run(task, scripted(solution_reply(records)), tmp_path, limit=1, **options)


def test_walking_the_solutions_solves_every_puzzle_with_one_span_per_step(tmp_path, sample_records):
    log = run(
        sparc_gym(source="sample"), scripted(solution_reply(sample_records)), tmp_path, limit=5
    )
    metrics = metrics_of(log)
    assert list(metrics)[:2] == ["accuracy", "stderr"]
    assert metrics["accuracy"] == 1.0 and metrics["reached_end_rate"] == 1.0
    assert metrics["illegal_action_rate"] == 0.0 and metrics["unparseable_rate"] == 0.0
    assert [f"level_{n}" for n in range(1, 6)] == [n for n in metrics if n.startswith("level_")]
    assert log.eval.task_version == TASK_VERSION
    # each group of metrics is headed by a name that says what it counts
    [score] = log.results.scores
    groups = {m.group: [] for m in score.metrics.values()}
    for name, m in score.metrics.items():
        groups[m.group].append(name)
    assert groups == {
        "accuracy": ["accuracy"],
        "stderr": ["stderr"],
        "accuracy_by_level": [f"level_{n}" for n in range(1, 6)],
        "episode_ending_rates": [
            "reached_end_rate",
            "dead_end_rate",
            "step_limit_rate",
            "cut_rate",
        ],
        "step_counts": ["mean_steps", "illegal_action_rate", "unparseable_rate"],
        "chance_level": ["chance"],
        # an episode's path is always a line: only the puzzle rules can break (no metric
        # is declared that the gym never fills)
        "rule_break_rates": [f"breaks_{rule}" for rule in PUZZLE_RULES],
    }
    for sample in log.samples:
        puzzle = parse_puzzle(sample_records[sample.id])
        steps = len(puzzle.solutions[0]) - 1
        spans = [e for e in sample.events if e.event == "span_begin" and e.type == "gym_step"]
        assert len(spans) == steps
        assert sum(e.event == "model" for e in sample.events) == steps
        # the episode's messages: the system prompt once, then observation and reply per step
        roles = [m.role for m in sample.messages]
        assert roles == ["system"] + ["user", "assistant"] * steps
        assert sample.scores["gym_scorer"].value["steps"] == steps
        assert sample.scores["gym_scorer"].metadata["chance_probability"] == pytest.approx(
            chance_of_solving(puzzle)
        )


def first_legal_reply(sample_id, epoch, step, messages):
    """Take the first listed legal action (greedy walk: ends at E or in a dead end)."""
    text = messages[-1].text
    legal = text.split("Legal Actions: [", 1)[1].split("]", 1)[0]
    return f"Final: {legal[0]}" if legal else "Final: 0"


def test_greedy_walks_end_as_the_reference_says(tmp_path, sample_records):
    log = run(sparc_gym(source="sample"), scripted(first_legal_reply), tmp_path, limit=10)
    endings = set()
    for sample in log.samples:
        value = sample.scores["gym_scorer"].value
        record = sample_records[sample.id]
        replies = [m.text for m in sample.messages if m.role == "assistant"]
        result, requests = reference_episode(record, replies, prompt_name="gym_step_paper")
        assert [m.text for m in sample.messages if m.role == "user"] == [
            r[1]["content"] for r in requests
        ]
        assert sample.messages[0].text == requests[0][0]["content"]
        assert value["correct"] == int(result["solved"])
        assert value["reached_end"] == int(result["reached_end"])
        assert value["dead_end"] + value["step_limit"] == int(result["no_legal_actions"])
        assert value["steps"] == result["steps_taken"]
        endings.add(sample.scores["gym_scorer"].metadata["ended"])
        if value["reached_end"] and not value["correct"]:
            broken = sample.scores["gym_scorer"].metadata["rule_violations"]
            assert broken and all(value[f"breaks_{rule}"] == 1 for rule in broken)
    assert {"reached_end", "dead_end"} <= endings


def test_unparseable_replies_are_steps_that_move_nothing_until_the_step_limit(tmp_path):
    def reply(sample_id, epoch, step, messages):
        return ["I am not sure.", "", "Final: 9"][step % 3]

    task = sparc_gym(source="sample", max_steps=4, level=1)
    log = run(task, scripted(reply), tmp_path, limit=2)
    metrics = metrics_of(log)
    assert metrics["unparseable_rate"] == 1.0 and metrics["step_limit_rate"] == 1.0
    assert metrics["mean_steps"] == 4 and metrics["accuracy"] == 0.0
    for sample in log.samples:
        score = sample.scores["gym_scorer"]
        assert score.metadata["moves"] == "????"
        assert "?: unreadable" in score.explanation


def test_reasoning_stays_in_the_log_and_out_of_the_parsed_reply(tmp_path, sample_records):
    solve = solution_reply(sample_records)

    def reply(sample_id, epoch, step, messages):
        return output(solve(sample_id, epoch, step, messages), reasoning="Final: 3 (no, wait)")

    log = run(sparc_gym(source="sample", level=2), scripted(reply), tmp_path, limit=2)
    assert metrics_of(log)["accuracy"] == 1.0
    reasoning = [
        c
        for m in log.samples[0].messages
        if m.role == "assistant"
        for c in m.content
        if c.type == "reasoning"
    ]
    assert reasoning and reasoning[0].reasoning == "Final: 3 (no, wait)"


@pytest.mark.parametrize(
    "limits, kind, steps",
    [({"message_limit": 7}, "message", 3), ({"token_limit": 5}, "token", 2)],
)
def test_a_limit_cuts_the_episode_and_scores_the_path_so_far(
    tmp_path, sample_records, limits, kind, steps
):
    log = walk_one_level_5(tmp_path, sample_records, **limits)
    [sample] = log.samples
    value = sample.scores["gym_scorer"].value
    # 7 messages: the system prompt and 3 steps. 5 tokens: 2 tokens a call, so the third call
    # goes over and Inspect raises before its reply is returned: 2 steps taken.
    assert value["cut"] == 1 and value["steps"] == steps and value["correct"] == 0
    assert sample.limit is not None and sample.limit.type == kind
    assert "cut short" in sample.scores["gym_scorer"].explanation
    assert len(sample.scores["gym_scorer"].answer.split("), (")) == steps + 1  # S and the moves


def test_epochs_score_each_episode_and_random_walks_are_reproducible(tmp_path):
    task = sparc_gym(source="sample", level=[1, 2])
    model = get_model("mockllm/model", custom_outputs=lambda *a: pytest.fail("model called"))
    first = run(task, model, tmp_path, solver=gym_random(), epochs=2, limit=4)
    second = run(task, model, tmp_path, solver=gym_random(), epochs=2, limit=4)

    def moves(log):
        return [(s.id, s.epoch, s.scores["gym_scorer"].metadata["moves"]) for s in log.samples]

    assert moves(first) == moves(second)
    assert len(moves(first)) == 8
    assert len({m for _, _, m in moves(first)}) > 1
    metrics = metrics_of(first)
    assert metrics["illegal_action_rate"] == 0.0 and metrics["cut_rate"] == 0.0
    assert metrics["reached_end_rate"] + metrics["dead_end_rate"] + metrics[
        "step_limit_rate"
    ] == pytest.approx(1.0)


def test_astar_baseline_agrees_with_the_pure_baseline(tmp_path, sample_records):
    model = get_model("mockllm/model", custom_outputs=lambda *a: pytest.fail("model called"))
    log = run(sparc_gym(source="sample"), model, tmp_path, solver=gym_astar())
    for sample in log.samples:
        expected = astar_solves(parse_puzzle(sample_records[sample.id]))
        assert sample.scores["gym_scorer"].value["correct"] == int(expected)
        # one span per step, each with the step's info event, as the model agent records them
        steps = sample.scores["gym_scorer"].value["steps"]
        spans = [e for e in sample.events if e.event == "span_begin" and e.type == "gym_step"]
        assert [e.name for e in spans] == [f"step {n}" for n in range(1, steps + 1)]
        infos = [e.data for e in sample.events if e.event == "info" and e.source == "sparc_gym"]
        assert [info["steps"] for info in infos] == list(range(1, steps + 1))
        assert len(sample.store[MOVES_KEY]) == steps
        if infos[-1]["ended"] == "reached_end":
            assert infos[-1]["position"] == list(parse_puzzle(sample_records[sample.id]).end)


def test_traceback_runs_use_the_traceback_prompt_and_leave_chance_out(tmp_path, sample_records):
    task = sparc_gym(source="sample", traceback="true", prompt="corrected", level=3)
    log = run(task, scripted(solution_reply(sample_records)), tmp_path, limit=1)
    from sparc.prompts import get_prompt

    [sample] = log.samples
    expected = get_prompt("gym_step_traceback", sample_records[sample.id])["system"]
    assert sample.messages[0].text == expected
    assert "chance" not in metrics_of(log) and "chance" not in sample.scores["gym_scorer"].value


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"max_steps": 0}, "max_steps"),
        ({"max_steps": "many"}, "max_steps"),
        ({"traceback": "yes"}, "traceback"),
        ({"prompt": "papr"}, "prompt"),
        ({"level": 7}, "level"),
    ],
)
def test_bad_arguments_fail_fast_with_a_clear_error(arguments, message):
    with pytest.raises(ValueError, match=message):
        sparc_gym(source="sample", **arguments)


def test_the_system_prompt_is_stored_once_per_sample_in_the_log(tmp_path, sample_records):
    log = walk_one_level_5(tmp_path, sample_records)
    [sample] = log.samples
    steps = sample.scores["gym_scorer"].value["steps"]
    assert steps >= 10
    with zipfile.ZipFile(log.location) as archive:
        [name] = [n for n in archive.namelist() if n.startswith("samples/")]
        text = archive.read(name).decode()
    marker = "You are an autonomous agent controlling"
    # the sample input, the episode's first message and one attachment shared by every step's
    # model call: not once per step
    assert text.count(marker) <= 3
    sample_json = json.loads(text)
    model_events = [e for e in sample_json["events"] if e["event"] == "model"]
    assert len(model_events) == steps and marker not in json.dumps(model_events)


def test_a_retried_sample_replays_its_episode_from_the_start(tmp_path, sample_records):
    solve = solution_reply(sample_records)
    failed = []

    def flaky(sample_id, epoch, step, messages):
        if step == 2 and not failed:
            failed.append(step)
            raise RuntimeError("provider down")
        return solve(sample_id, epoch, step, messages)

    log = run(
        sparc_gym(source="sample", level=1), scripted(flaky), tmp_path, limit=1, retry_on_error=1
    )
    [sample] = log.samples
    value = sample.scores["gym_scorer"].value
    assert failed and value["correct"] == 1
    assert len(sample.messages) == 1 + 2 * value["steps"]


def test_eval_set_runs_the_gym_task(tmp_path, sample_records):
    from inspect_ai import eval_set

    task = sparc_gym(source="sample", level=1)
    ids = [sample.id for sample in task.dataset]
    success, logs = eval_set(
        [task], log_dir=str(tmp_path), model="mockllm/model", solver=gym_astar(), display="none"
    )
    expected = sum(astar_solves(parse_puzzle(sample_records[i])) for i in ids) / len(ids)
    assert success and logs[0].results.scores[0].metrics["accuracy"].value == expected


def test_no_episode_breaks_a_structural_rule_so_the_gym_declares_none(tmp_path):
    """Random walks, steps back included, on every sample puzzle: the structural `breaks_*`
    the gym no longer declares as metrics are 0 in every score (the puzzle rules' are not)."""
    model = get_model("mockllm/model", custom_outputs=lambda *a: pytest.fail("model called"))
    task = sparc_gym(source="sample", traceback=True)
    log = run(task, model, tmp_path, solver=gym_random(), epochs=2)
    values = [sample.scores["gym_scorer"].value for sample in log.samples]
    assert sum(value["reached_end"] for value in values) >= 5
    assert all(value[f"breaks_{rule}"] == 0 for value in values for rule in STRUCTURAL_RULES)
    assert any(value[f"breaks_{rule}"] for value in values for rule in PUZZLE_RULES)
