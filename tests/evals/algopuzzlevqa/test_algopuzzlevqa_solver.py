"""The follow-up turn is asked only when the first answer names no option and the sample goes on."""

from __future__ import annotations

import asyncio

import pytest
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelName
from inspect_ai.solver import TaskState
from mock_outputs import mock_output

from inspect_sparc.evals.algopuzzlevqa.solvers import FOLLOW_UP_KEY, algopuzzlevqa_solver

OPTIONS = ["3", "5", "7", "9"]


def run_solver(answers: list[str], complete_after_first: bool) -> tuple[TaskState, int]:
    """Run the solver with a generate that answers in turn (and may end the sample)."""
    calls = 0

    async def generate(state: TaskState, **kwargs: object) -> TaskState:
        nonlocal calls
        state.output = mock_output(answers[calls])
        state.messages.append(ChatMessageAssistant(content=answers[calls]))
        calls += 1
        if complete_after_first:  # a message, token, time or cost limit was hit
            state.completed = True
        return state

    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="maze_0001",
        epoch=1,
        input="question",
        messages=[ChatMessageUser(content="question")],
        metadata={"options": OPTIONS},
    )
    result = asyncio.run(algopuzzlevqa_solver()(state, generate))  # type: ignore[arg-type]
    return result, calls


@pytest.mark.parametrize(("first", "asked"), [("I cannot tell.", True), ("It is (B).", False)])
def test_follow_up_only_when_no_option_is_named(first: str, asked: bool) -> None:
    state, calls = run_solver([first, "(C)"], complete_after_first=False)
    assert calls == 1 + asked
    assert state.store.get(FOLLOW_UP_KEY) is asked
    assert len(state.messages) == 2 + 2 * asked


def test_no_follow_up_once_the_sample_is_completed() -> None:
    state, calls = run_solver(["I cannot tell.", "(C)"], complete_after_first=True)
    assert calls == 1
    assert state.store.get(FOLLOW_UP_KEY) is False
    assert [m.role for m in state.messages] == ["user", "assistant"]
