"""Scoring: correct iff the option read from the (final) reply is the gold option text."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from inspect_sparc.contract.scores import CORRECT, FOLLOW_UP
from inspect_sparc.core.algopuzzlevqa.answer import check_extraction, read_answer
from inspect_sparc.evals.algopuzzlevqa.metrics import membership_accuracy
from inspect_sparc.evals.algopuzzlevqa.solvers import FIRST_LETTER_KEY, FOLLOW_UP_KEY
from inspect_sparc.evals.metrics import accuracy, grouped_accuracy, stderr


@scorer(metrics=[accuracy(), stderr(), grouped_accuracy("puzzle"), membership_accuracy()])
def algopuzzlevqa_scorer(extraction: str = "paper") -> Scorer:
    """Read the option from the last reply (`paper` or `strict`); `correct` iff it is the gold.

    Args:
        extraction: how the reply is read: `paper` (the authors' reading: the last `(A)`-`(D)`,
            else the last capital A-D) or `strict` (standalone letters only); anything else is a
            ValueError.

    Returns:
        A scorer whose value holds `correct` (1 iff the option read is the gold option's text) and
        `follow_up` (1 iff the follow-up prompt was asked); its answer is the letter read, its
        explanation says which reply was read, by which rule, and the gold option."""
    check_extraction(extraction)

    async def score(state: TaskState, target: Target) -> Score:
        options = list(state.metadata["options"])
        gold = target.text
        reading = read_answer(state.output.completion, options, extraction)
        follow_up = bool(state.store.get(FOLLOW_UP_KEY, False))
        correct = reading.option is not None and reading.option == gold
        gold_letter = state.metadata.get("answer_letter", "?")
        source = "follow-up reply" if follow_up else "reply"
        explanation = (
            f"Read from the {source} ({extraction} reading): {reading.describe()}; "
            f"gold ({gold_letter}) {gold!r}; "
            f"follow-up {'needed' if follow_up else 'not needed'}; "
            f"{'correct' if correct else 'incorrect'}."
        )
        return Score(
            value={CORRECT: int(correct), FOLLOW_UP: int(follow_up)},
            answer=reading.letter or "",
            explanation=explanation,
            metadata={
                "letter": reading.letter,
                "option": reading.option,
                "rule": reading.rule,
                "word": reading.word,
                "first_option_fallback": reading.first_option_fallback,
                "extraction": extraction,
                "follow_up": follow_up,
                "first_letter": state.store.get(FIRST_LETTER_KEY),
            },
        )

    return score
