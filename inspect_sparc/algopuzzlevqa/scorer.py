"""Scoring: correct iff the option named by the (final) answer is the gold option text."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from inspect_sparc.algopuzzlevqa.answer import extract_option
from inspect_sparc.algopuzzlevqa.solvers import FIRST_LETTER_KEY, FOLLOW_UP_KEY
from inspect_sparc.metrics import accuracy, grouped_accuracy, stderr


@scorer(metrics=[accuracy(), stderr(), grouped_accuracy("puzzle")])
def algopuzzlevqa_scorer() -> Scorer:
    """Read the option from the last answer; `correct` is 1 iff its text equals the target."""

    async def score(state: TaskState, target: Target) -> Score:
        options = list(state.metadata["options"])
        gold = target.text
        choice = extract_option(state.output.completion, options)
        follow_up = bool(state.store.get(FOLLOW_UP_KEY, False))
        correct = choice.option is not None and choice.option == gold
        gold_letter = state.metadata.get("answer_letter", "?")
        if choice.letter is None:
            read = "no option letter found"
        elif choice.option is None:
            read = f"({choice.letter}), which names no option"
        else:
            read = f"({choice.letter}) {choice.option!r}"
        explanation = (
            f"Extracted {read}; gold ({gold_letter}) {gold!r}; "
            f"follow-up {'needed' if follow_up else 'not needed'}; "
            f"{'correct' if correct else 'incorrect'}."
        )
        return Score(
            value={"correct": int(correct), "follow_up": int(follow_up)},
            answer=choice.letter or "",
            explanation=explanation,
            metadata={
                "letter": choice.letter,
                "option": choice.option,
                "follow_up": follow_up,
                "first_letter": state.store.get(FIRST_LETTER_KEY),
            },
        )

    return score
