"""Inspect solver that answers SPaRC puzzles by exhaustive search instead of calling a model.

Useful as an upper-bound baseline and to check the scoring pipeline end to end:
`inspect eval inspect_sparc/sparc --solver inspect_sparc/search_solver`.
"""

from __future__ import annotations

import anyio
from inspect_ai.model import ModelOutput, ModelUsage
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_sparc.core.puzzle.parse import Puzzle, RecordError, parse_puzzle
from inspect_sparc.core.puzzle.rules import format_point
from inspect_sparc.core.search import solve
from inspect_sparc.evals.sparc.protocols import require_protocol

#: Model name recorded on the search solver's outputs.
SEARCH_MODEL = "inspect_sparc/search"


def search_answer(puzzle: Puzzle) -> str:
    """The answer text for a puzzle: the first path found by search after `####`, or why not.

    Args:
        puzzle: the parsed puzzle.

    Returns:
        A line saying no model was called, `####`, then the first rule-valid path in depth-first
        order as `(x, y)` points; or a sentence saying search found none."""
    found = solve(puzzle, limit=1)
    if not found:
        return "Exhaustive search found no path that satisfies every rule of this puzzle."
    path = ", ".join(format_point(point) for point in found[0])
    return f"Path found by exhaustive search (no model was called).\n####\n{path}"


def _answer_for_metadata(metadata: dict[str, object]) -> str:
    """Parse the sample's puzzle record and search it; explain instead of raising."""
    record = metadata.get("puzzle")
    if not isinstance(record, dict):
        return "No puzzle record in the sample metadata, so there is nothing to search."
    try:
        puzzle = parse_puzzle(record)
    except RecordError as error:
        return f"The puzzle record could not be parsed: {error}"
    return search_answer(puzzle)


@solver
def search_solver() -> Solver:
    """Answer each SPaRC sample with the first rule-valid path found by search (no model call).

    Returns:
        A solver that sets each sample's output to `search_answer` of its puzzle (searched in a
        worker thread, zero tokens of usage), and stops at the first sample of a step-by-step
        task (WrongTaskError)."""

    async def solve_sample(state: TaskState, generate: Generate) -> TaskState:
        require_protocol("search_solver", "single_shot", state.metadata, state.tools)
        content = await anyio.to_thread.run_sync(_answer_for_metadata, state.metadata)
        output = ModelOutput.from_content(model=SEARCH_MODEL, content=content)
        output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
        state.output = output
        state.messages.append(output.message)
        return state

    return solve_sample
