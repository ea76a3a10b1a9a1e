"""Accuracy per ontology category: a sample counts towards every category its puzzle has.

Epoch-safe like `inspect_sparc.evals.metrics`: reads the reduced `Score.value` and groups by
*sample* metadata (the `categories` list), which does not change between epochs.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_sparc.core.algopuzzlevqa.ontology import CATEGORIES
from inspect_sparc.evals.metrics import mean_of


@metric
def membership_accuracy(
    list_key: str = "categories", names: list[str] | None = None, key: str = "correct"
) -> Metric:
    """Mean of `key` per name, over the samples whose metadata list `list_key` holds that name.

    Reported in the order of `names` (default: the 11 ontology categories); a name that no
    scored sample holds is left out, as `grouped_accuracy` leaves out absent groups.

    Args:
        list_key: the sample metadata field holding each sample's list of names.
        names: the names to report, in this order; None for the 11 ontology categories.
        key: the score value key averaged (default `correct`: 1 correct, 0 not).

    Returns:
        A metric giving `{name: mean of key}` for each name some scored sample holds.
    """
    wanted = list(CATEGORIES if names is None else names)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        members: dict[str, list[SampleScore]] = {name: [] for name in wanted}
        for score in scores:
            for name in (score.sample_metadata or {}).get(list_key) or ():
                if name in members:
                    members[name].append(score)
        return {name: mean_of(group, key) for name, group in members.items() if group}

    return compute
