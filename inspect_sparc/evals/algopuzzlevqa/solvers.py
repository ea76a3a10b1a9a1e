"""The answering protocol: generate, and ask once more when the reply gives no answer.

`paper` (the authors' code): the follow-up is asked only when the reply holds no letter at all,
and as one new single-turn prompt (first prompt, the reply, the `Therefore, among (A) (B) (C)
(D), the answer is:` cue, and the image again). `strict`: asked when no option can be read, as a
second chat turn naming only the letters that exist.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_sparc.core.algopuzzlevqa.answer import check_extraction, read_answer
from inspect_sparc.core.algopuzzlevqa.prompts import follow_up_prompt, paper_follow_up

FOLLOW_UP_KEY = "algopuzzlevqa:follow_up"
"""Store key: whether the follow-up was asked."""

FIRST_LETTER_KEY = "algopuzzlevqa:first_letter"
"""Store key: the letter read from the first reply (None when there was none)."""


def paper_follow_up_message(
    first: ChatMessageUser, reply: str, options: list[str]
) -> ChatMessageUser:
    """The authors' follow-up: the first prompt and reply in one new user message, image kept.

    Args:
        first: the sample's first user message (text, or text parts and images).
        reply: the model's first reply.
        options: the question's options.

    Returns:
        A user message with the follow-up text (first prompt, reply, answer cue), then the first
        message's images."""
    if isinstance(first.content, str):
        return ChatMessageUser(content=paper_follow_up(first.content, reply, options))
    text = "".join(part.text for part in first.content if isinstance(part, ContentText))
    images = [part for part in first.content if isinstance(part, ContentImage)]
    return ChatMessageUser(
        content=[ContentText(text=paper_follow_up(text, reply, options)), *images]
    )


@solver
def algopuzzlevqa_solver(extraction: str = "paper") -> Solver:
    """Generate; if the reply gives no answer (per `extraction`), ask the follow-up once.

    Args:
        extraction: `paper` (ask again only when the reply holds no letter, as one new single-turn
            prompt) or `strict` (ask again when no option can be read, as a second chat turn);
            anything else is a ValueError.

    Returns:
        A solver that calls the model, asks the follow-up at most once, and records in the
        sample's store the letter read from the first reply (`FIRST_LETTER_KEY`) and whether
        the follow-up was asked (`FOLLOW_UP_KEY`)."""
    check_extraction(extraction)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        options = list(state.metadata["options"])
        reply = state.output.completion
        first = read_answer(reply, options, extraction)
        state.store.set(FIRST_LETTER_KEY, first.letter)
        needed = first.letter is None if extraction == "paper" else not first.names_option
        follow_up = needed and not state.completed
        state.store.set(FOLLOW_UP_KEY, follow_up)
        first_user = next((m for m in state.messages if isinstance(m, ChatMessageUser)), None)
        if follow_up and extraction == "paper" and first_user is not None:
            # Sent alone, as the authors did; the log keeps both exchanges in order.
            earlier = list(state.messages)
            state.messages = [paper_follow_up_message(first_user, reply, options)]
            try:
                state = await generate(state)
            finally:  # also when a limit stops the sample: keep the first exchange in the log
                state.messages = earlier + state.messages
        elif follow_up:
            state.messages.append(ChatMessageUser(content=follow_up_prompt(len(options))))
            state = await generate(state)
        return state

    return solve
