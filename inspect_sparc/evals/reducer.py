"""The SPaRC tasks' epochs reducer: Inspect's `mean`, leaving each explanation to its sample.

Inspect's reducers copy the first epoch's explanation whenever every epoch's explanation is the
same, so always with one epoch, and the log keeps the reduced scores apart from the samples
(`reductions.json`), where nothing shows them (`inspect view` and `inspect score` read each
sample's own scores). A SPaRC explanation may hold an answer picture, so that copy stored every
picture a second time: about a tenth of a 500-puzzle log of failed answers
(docs/benchmarks.md). The values are Inspect's own `mean_score`'s, key by key; only the
explanation is left out.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import (
    Score,
    ScoreReducer,
    ValueToFloat,
    mean_score,
    score_reducer,
    value_to_float,
)

from inspect_sparc.contract.scores import EPOCHS_REDUCER


@score_reducer(name=EPOCHS_REDUCER)
def mean_reducer() -> ScoreReducer:
    """The mean over epochs (Inspect's `mean`), the reduced score without an explanation.

    Returns:
        A reducer giving, for each value key, the mean over a sample's epochs (the values of
        Inspect's `mean`), the reduced score's explanation left empty."""
    inspect_mean = mean_score()
    to_float = value_to_float()

    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1 and isinstance(scores[0].value, dict):
            return _one_epoch(scores[0], to_float)
        return inspect_mean(scores).model_copy(update={"explanation": None})

    return reduce


def _one_epoch(score: Score, to_float: ValueToFloat) -> Score:
    """What `mean_score` makes of one dict score, without its statistics: each key as a float
    (the mean of one value; `+ 0.0` turns -0.0 into the 0.0 `statistics.mean` gives). Inspect
    reduces every score so far about once a second while an eval runs, 14 keys a score for
    `sparc`."""
    assert isinstance(score.value, dict)
    value = {key: to_float(item) + 0.0 for key, item in score.value.items()}
    return Score(value=value, answer=score.answer, metadata=score.metadata, **_reason(score))


def _reason(score: Score) -> dict[str, Any]:
    """`Score.reason` where this Inspect has it (newer than the declared floor)."""
    return {"reason": score.reason} if "reason" in Score.model_fields else {}
