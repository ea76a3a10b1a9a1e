"""`sparc_agent` end to end: scripted mockllm agents through inspect_ai.eval (no network).

Each scripted player answers from the sample being played and its episode in the store, so the
runs are order-proof; expectations come from `core.stepper.Stepper` on the same moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import eval_runs
import pytest
from agent_scripts import (
    NAMES,
    Player,
    first_legal,
    moves,
    solution_directions,
    text,
    walk_solution,
)
from eval_runs import metrics_of
from inspect_ai.model import ChatMessageTool, ChatMessageUser, ContentImage
from inspect_ai.solver import SolverSpec

from inspect_sparc.core.episode.stepper import ACTIONS, Stepper, replay_moves
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.agent.prompts import CONTINUE_TEXT, read_direction
from inspect_sparc.evals.sparc.agent.tasks import TASK_VERSION, default_message_limit, sparc_agent
from inspect_sparc.evals.sparc.episode import MOVES_KEY
from inspect_sparc.evals.sparc.episode_scorer import score_episode


def run(task, player: Player, tmp_path: Path, **kwargs):
    return eval_runs.run(task, player.model(), tmp_path, **kwargs)


def value_of(sample) -> dict[str, Any]:
    [score] = sample.scores.values()
    return cast("dict[str, Any]", score.value)


def ends_on_e(env: Stepper, action: int) -> bool:
    """True when `action` from where the path stands lands on E."""
    dx, dy = ACTIONS[action]
    return (env.position[0] + dx, env.position[1] + dy) == env.puzzle.end


def tool_messages(sample) -> list[ChatMessageTool]:
    return [m for m in sample.messages if isinstance(m, ChatMessageTool)]


def test_react_agent_solves_one_move_a_turn_and_stops_at_e(tmp_path):
    player = Player(walk_solution)
    log = run(sparc_agent(source="sample"), player, tmp_path, limit=2)
    assert log.eval.task_version == TASK_VERSION
    metrics = metrics_of(log)
    assert metrics["accuracy"] == 1.0 and metrics["reached_end_rate"] == 1.0
    assert metrics["no_tool_call_rate"] == 0.0
    assert metrics["tool_calls_per_episode"] == metrics["mean_steps"]
    for sample in log.samples:
        puzzle = parse_puzzle(sample.metadata["puzzle"])
        steps = len(puzzle.solutions[0]) - 1
        value = value_of(sample)
        assert value["steps"] == value["tool_calls"] == value["turns"] == steps
        # no model call after the end, no submit turn: one call per move
        assert player.calls[(sample.id, 1)] == steps
        tools = tool_messages(sample)
        assert [m.function for m in tools] == ["move"] * steps
        assert all(m.error is None for m in tools)
        assert "The episode has ended after" in tools[-1].text and "you reached E" in tools[-1].text
        assert sample.messages[-1] is not None and sample.messages[-1].role == "tool"


def test_first_message_is_gym_rules_tools_and_first_state():
    [sample] = sparc_agent(source="sample", max_steps=7).dataset[:1]
    [message] = sample.input
    assert isinstance(message, ChatMessageUser)
    content = message.text
    assert content.startswith("You are an autonomous agent controlling a path")
    assert "Final:" not in content
    assert "Call the `move` tool" in content and "after 7 steps" in content
    assert "Step: 1\nCurrent Position:" in content and "Grid State:" in content
    assert sample.metadata["gym"]["max_steps"] == 7


def test_moves_in_one_turn_are_taken_in_order_and_calls_after_the_end_are_errors(tmp_path):
    def policy(state, env, call):
        return moves(*solution_directions(env.puzzle), "up", "down")

    player = Player(policy)
    log = run(sparc_agent(source="sample"), player, tmp_path, limit=2)
    for sample in log.samples:
        value = value_of(sample)
        steps = value["steps"]
        assert value["correct"] == 1 and value["tool_calls"] == steps + 2
        assert value["turns"] == 1 and player.calls[(sample.id, 1)] == 1
        late = tool_messages(sample)[-2:]
        assert all(m.error is not None and "No move made" in m.error.message for m in late)


def greedy_episode(record: dict[str, Any]) -> Stepper:
    """The episode of always taking the first legal move."""
    env = Stepper(parse_puzzle(record))
    while not env.done:
        env.step(env.legal_actions()[0])
    return env


def test_wandering_into_a_dead_end_scores_as_the_gym(tmp_path):
    task = sparc_agent(source="sample")
    episodes = {s.id: greedy_episode(s.metadata["puzzle"]) for s in task.dataset}
    dead = [i for i, env in episodes.items() if env.ended == "dead_end"][:2]
    at_e = [i for i, env in episodes.items() if env.ended == "reached_end"][:1]
    log = run(task, Player(first_legal), tmp_path, sample_id=dead + at_e)
    for sample in log.samples:
        env = episodes[sample.id]
        [score] = sample.scores.values()
        expected = score_episode(env)
        assert {k: score.value[k] for k in expected.value} == expected.value
        assert score.answer == expected.answer and score.explanation == expected.explanation
        assert score.metadata["ended"] == env.ended
    assert metrics_of(log)["dead_end_rate"] == pytest.approx(2 / 3)


def test_illegal_and_unreadable_moves_are_tool_errors_that_count_up_to_the_step_limit(tmp_path):
    def policy(state, env, call):
        if call == 1:
            return moves("north")
        return moves(NAMES[next(a for a in range(4) if a not in env.legal_actions())])

    log = run(sparc_agent(source="sample", max_steps=3), Player(policy), tmp_path, limit=2)
    metrics = metrics_of(log)
    assert metrics["step_limit_rate"] == 1.0
    assert metrics["illegal_action_rate"] == pytest.approx(2 / 3)
    assert metrics["unparseable_rate"] == pytest.approx(1 / 3)
    for sample in log.samples:
        value = value_of(sample)
        assert value["steps"] == value["tool_calls"] == 3 and value["illegal"] == 2
        moves_taken = sample.store[MOVES_KEY]
        assert moves_taken[0] == "?" and moves_taken[1:].islower()
        tools = tool_messages(sample)
        assert "'north' is not a direction" in tools[0].error.message
        assert all(m.error and "Illegal move:" in m.error.message for m in tools)
        assert "The step counts (2 of 3); nothing moved." in tools[1].error.message
        assert "the step limit is reached" in tools[-1].error.message


def test_a_turn_without_a_tool_call_is_counted_and_the_agent_is_told_to_move(tmp_path):
    def policy(state, env, call):
        return (
            text("Let me think about the regions first.")
            if call <= 2
            else walk_solution(state, env, call)
        )

    log = run(sparc_agent(source="sample"), Player(policy), tmp_path, limit=2)
    for sample in log.samples:
        value = value_of(sample)
        assert value["correct"] == 1 and value["no_tool_turns"] == 2
        assert value["turns"] == value["steps"] + 2 and value["unparseable"] == 0
        reminders = [m for m in sample.messages if m.role == "user" and m.text == CONTINUE_TEXT]
        assert len(reminders) == 2
    metrics = metrics_of(log)
    turns = sum(value_of(s)["turns"] for s in log.samples)
    assert metrics["no_tool_call_rate"] == pytest.approx(4 / turns)


def test_a_message_limit_cuts_the_episode_and_scores_the_path_so_far(tmp_path):
    log = run(
        sparc_agent(source="sample"), Player(walk_solution), tmp_path, limit=2, message_limit=6
    )
    assert metrics_of(log)["cut_rate"] == 1.0
    for sample in log.samples:
        [score] = sample.scores.values()
        moves_taken = sample.store[MOVES_KEY]
        assert score.metadata["ended"] == "cut" and score.value["steps"] == len(moves_taken) > 0
        env = replay_moves(parse_puzzle(sample.metadata["puzzle"]), moves_taken)
        assert score.value == {
            **score_episode(env).value,
            **{k: score.value[k] for k in ("tool_calls", "turns", "no_tool_turns")},
            "malformed_tool_calls": 0,
        }


@pytest.mark.slow
def test_the_default_message_limit_stops_an_agent_that_never_moves(tmp_path):
    log = run(
        sparc_agent(source="sample", max_steps=2), Player(lambda s, e, c: "hmm"), tmp_path, limit=1
    )
    [sample] = log.samples
    assert len(sample.messages) <= default_message_limit(2)
    assert value_of(sample)["cut"] == 1 and value_of(sample)["no_tool_turns"] >= 2


def test_traceback_steps_back_with_a_move(tmp_path):
    def policy(state, env, call):
        if call == 1:  # out of S, off the solution and not onto E, then back
            first = solution_directions(env.puzzle)[0]
            away = next(
                NAMES[a] for a in env.legal_actions() if NAMES[a] != first and not ends_on_e(env, a)
            )
            return moves(away, NAMES[(NAMES.index(away) + 2) % 4])
        return walk_solution(state, env, call)

    log = run(sparc_agent(source="sample", traceback=True), Player(policy), tmp_path, limit=1)
    assert "chance" not in metrics_of(log)
    [sample] = log.samples
    value = value_of(sample)
    assert value["correct"] == 1 and value["backtracks"] == 1
    assert tool_messages(sample)[1].text.startswith("Stepped back ")


@pytest.mark.slow
def test_image_observations_carry_the_picture(tmp_path):
    task = sparc_agent(source="sample", observation="image", plot="path_cell_annotated")
    log = run(task, Player(walk_solution), tmp_path, limit=1)
    [sample] = log.samples
    first = sample.messages[0]
    assert any(isinstance(part, ContentImage) for part in first.content)
    assert "Step 1 | Position:" in first.text and "Final:" not in first.text
    for message in tool_messages(sample):
        assert isinstance(message.content, list)
        assert isinstance(message.content[0], ContentImage)
    assert value_of(sample)["correct"] == 1
    assert log.eval.task_args.get("observation") == "image"


CUSTOM_AGENT = """
from inspect_ai.agent import Agent, AgentState, agent
from inspect_ai.model import execute_tools, get_model

from inspect_sparc.evals.sparc.agent import sparc_tools
from inspect_sparc.evals.sparc.agent.tools import episode_over


@agent
def careful_agent() -> Agent:
    tools = sparc_tools()

    async def execute(state: AgentState) -> AgentState:
        while not episode_over():
            state.output = await get_model().generate(state.messages, tools)
            state.messages.append(state.output.message)
            if state.output.message.tool_calls:
                messages, _ = await execute_tools(state.messages, tools)
                state.messages.extend(messages)
        return state

    return execute
"""


def test_a_custom_agent_given_as_solver_plays_through_the_same_tools(tmp_path):
    path = tmp_path / "my_agents.py"
    path.write_text(CUSTOM_AGENT)
    player = Player(lambda s, e, c: text("hmm") if c == 1 else walk_solution(s, e, c))
    log = run(
        sparc_agent(source="sample"),
        player,
        tmp_path,
        limit=2,
        solver=SolverSpec(f"{path}@careful_agent"),
    )
    assert metrics_of(log)["accuracy"] == 1.0
    for sample in log.samples:
        value = value_of(sample)
        assert value["no_tool_turns"] == 1 and value["tool_calls"] == value["steps"]


@pytest.mark.slow
def test_a_solver_finds_the_tools_in_the_task_state(tmp_path):
    from inspect_ai.solver import generate

    player = Player(lambda s, e, c: text("done") if e.done else walk_solution(s, e, c))
    log = run(
        sparc_agent(source="sample"), player, tmp_path, limit=1, solver=generate(tool_calls="loop")
    )
    assert metrics_of(log)["accuracy"] == 1.0


def test_epochs_play_separate_episodes(tmp_path):
    def policy(state, env, call):
        if state.epoch == 1:
            return walk_solution(state, env, call)
        return moves(*[NAMES[a] for a in range(4) if a not in env.legal_actions()][:1] * 3)

    log = run(
        sparc_agent(source="sample", max_steps=3), Player(policy), tmp_path, limit=2, epochs=2
    )
    by_epoch = {}
    for sample in log.samples:
        by_epoch.setdefault(sample.epoch, []).append(sample.store[MOVES_KEY])
    assert all(len(m) == 3 and m.islower() for m in by_epoch[2])
    assert by_epoch[1] != by_epoch[2]
    assert len(log.samples) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"observation": "video"}, "observation must be one of text, image"),
        ({"traceback": "maybe"}, "traceback must be true or false"),
        ({"max_steps": 0}, "max_steps must be a positive integer"),
        ({"prompt": "clever"}, "prompt must be one of paper, corrected"),
        ({"plot": "nope"}, "plot"),
    ],
)
def test_parameters_are_checked_as_in_the_gym(args, message):
    with pytest.raises(ValueError, match=message):
        sparc_agent(source="sample", **args)


def test_read_direction():
    assert [read_direction(d) for d in ("right", " UP ", "Left", "down")] == [0, 1, 2, 3]
    assert [read_direction(d) for d in ("0", "3", "1=UP", "2 = left")] == [0, 3, 1, 2]
    assert [read_direction(d) for d in ("north", "1=DOWN", "", "4")] == [None] * 4


def test_the_picture_is_the_gym_observation_image():
    """Cheap guard on the coupling to `sparc_gym`'s image observation (the eval test is slow)."""
    from inspect_sparc.evals.sparc.agent.tools import picture

    [sample] = sparc_agent(source="sample").dataset[:1]
    env = Stepper(parse_puzzle(sample.metadata["puzzle"]))
    env.step(env.legal_actions()[0])
    image = picture(env, "original")
    assert isinstance(image, ContentImage) and image.image.startswith("data:image/")


def test_the_parts_assemble_into_a_task_of_ones_own(tmp_path):
    """`start_episode` (setup), `sparc_react` (agent) and `agent_scorer` make a working task
    outside `sparc_agent`, as a user building their own variant would put them together."""
    from inspect_ai import Task

    from inspect_sparc.evals.sparc.agent import agent_scorer, sparc_react, start_episode

    dataset = sparc_agent(source="sample").dataset
    task = Task(dataset=dataset, setup=start_episode(), solver=sparc_react(), scorer=agent_scorer())
    log = run(task, Player(walk_solution), tmp_path, limit=3)
    metrics = metrics_of(log)
    assert metrics["accuracy"] == 1.0 and metrics["no_tool_call_rate"] == 0.0
    assert metrics["tool_calls_per_episode"] == metrics["mean_steps"] > 0
