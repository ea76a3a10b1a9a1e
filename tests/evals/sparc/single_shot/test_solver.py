"""The search solver answers from the puzzle in the sample metadata without calling a model."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelName
from inspect_ai.solver import TaskState
from sparc.validation import extract_solution_path, validate_solution

from inspect_sparc.evals.sparc.single_shot.solvers import SEARCH_MODEL, search_solver

FIXTURES = Path(__file__).parents[3] / "fixtures" / "sparc"
RECORDS = [json.loads(line) for line in (FIXTURES / "puzzles.jsonl").read_text().splitlines()]


def _state(record: dict[str, Any]) -> TaskState:
    """A task state carrying a published record the way the dataset does."""
    return TaskState(
        model=ModelName("mockllm/model"),
        sample_id=record["id"],
        epoch=1,
        input="Solve the puzzle.",
        messages=[ChatMessageUser(content="Solve the puzzle.")],
        metadata={"puzzle": record},
    )


async def _never_generate(state: TaskState, **kwargs: Any) -> TaskState:
    """A generate that fails the test if the solver calls the model."""
    raise AssertionError("search_solver must not call the model")


def _run(record: dict[str, Any]) -> TaskState:
    """Run the solver on one record."""
    return asyncio.run(search_solver()(_state(record), _never_generate))  # type: ignore[arg-type]


def test_solver_answers_a_stored_solution() -> None:
    for record in RECORDS[:5]:
        state = _run(record)
        text = state.output.completion
        assert "####\n(" in text
        assert state.output.model == SEARCH_MODEL
        assert state.output.usage is not None and state.output.usage.total_tokens == 0
        assert isinstance(state.messages[-1], ChatMessageAssistant)
        assert state.messages[-1].text == text
        path = extract_solution_path(text, record)
        assert validate_solution(path, record)


def test_solver_explains_when_no_path_exists() -> None:
    record = copy.deepcopy(RECORDS[0])
    x, y = next(
        (x, y)
        for y, row in enumerate(record["puzzle_array"])
        for x, value in enumerate(row)
        if value == "E"
    )
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= ny < len(record["puzzle_array"]) and 0 <= nx < len(record["puzzle_array"][0]):
            record["puzzle_array"][ny][nx] = "G" if (nx + ny) % 2 else "N"
    state = _run(record)
    assert "no path" in state.output.completion
    assert "####" not in state.output.completion


def test_solver_explains_a_broken_record() -> None:
    state = _run({"id": "x"})
    assert "could not be parsed" in state.output.completion
