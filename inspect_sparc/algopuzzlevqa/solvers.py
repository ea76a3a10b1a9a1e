"""The paper's answering protocol: generate, and ask once more if no option can be read."""

from __future__ import annotations

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_sparc.algopuzzlevqa.answer import extract_option
from inspect_sparc.algopuzzlevqa.prompts import follow_up_prompt

FOLLOW_UP_KEY = "algopuzzlevqa:follow_up"
"""Store key: whether the follow-up turn was asked."""

FIRST_LETTER_KEY = "algopuzzlevqa:first_letter"
"""Store key: the letter read from the first answer (None when there was none)."""


@solver
def algopuzzlevqa_solver() -> Solver:
    """Generate; if the answer names no option, add `Therefore, among (A) ..., the answer is:`."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        options = list(state.metadata["options"])
        first = extract_option(state.output.completion, options)
        state.store.set(FIRST_LETTER_KEY, first.letter)
        follow_up = not first.names_option and not state.completed
        state.store.set(FOLLOW_UP_KEY, follow_up)
        if follow_up:
            state.messages.append(ChatMessageUser(content=follow_up_prompt(len(options))))
            state = await generate(state)
        return state

    return solve
