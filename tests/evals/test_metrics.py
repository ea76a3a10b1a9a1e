"""The shared metrics compute what their names say, checked against Python's `statistics`."""

from __future__ import annotations

import math
import random
import statistics
from typing import cast

import pytest
from inspect_ai.scorer import Metric, MetricProtocol, SampleScore, Score

from inspect_sparc.evals.metrics import (
    accuracy,
    group_means,
    grouped_accuracy,
    key_means,
    mean_of,
    stderr,
    stderr_of,
    value_of,
)


def scored(value: object, **metadata: object) -> SampleScore:
    return SampleScore(score=Score(value=value), sample_metadata=metadata)  # type: ignore[arg-type]


def applied(metric: Metric, scores: list[SampleScore]) -> dict[str, float]:
    """`metric` on `scores`: the package's metrics take `SampleScore`s (Inspect's `Metric` also
    admits the deprecated `Score` signature) and give a dict of floats."""
    return cast("dict[str, float]", cast(MetricProtocol, metric)(scores))


def test_value_of_reads_numbers_and_booleans() -> None:
    assert value_of(scored({"correct": 1, "other": 0}), "correct") == 1.0
    assert value_of(scored({"correct": 0.5}), "correct") == 0.5
    assert value_of(scored({"correct": True}), "correct") == 1.0
    assert value_of(scored({"correct": False}), "correct") == 0.0


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ({"corect": 1, "dot": 0}, KeyError, "'correct' is not in .* \\(keys: corect, dot\\)"),
        ({}, KeyError, "'correct' is not in the score value"),
        ({"correct": "C"}, TypeError, "holds 'C', not a number"),
        ({"correct": None}, TypeError, "holds None, not a number"),
        ("C", TypeError, "not a dict"),
        (1.0, TypeError, "not a dict"),
    ],
)
def test_a_missing_or_odd_key_fails_loudly(value: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        value_of(scored(value), "correct")
    with pytest.raises(error):
        applied(accuracy(), [scored({"correct": 1}), scored(value)])


@pytest.mark.parametrize(
    "values",
    [[1.0], [0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 0.5, 1.0, 1.0], [0.25, 0.5, 0.75, 1.0, 0.0, 0.0]],
)
def test_mean_and_stderr_match_statistics(values: list[float]) -> None:
    scores = [scored({"correct": v}) for v in values]
    assert mean_of(scores, "correct") == pytest.approx(statistics.fmean(values))
    assert applied(accuracy(), scores) == {"accuracy": pytest.approx(statistics.fmean(values))}
    expected = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    assert stderr_of(scores, "correct") == pytest.approx(expected)
    assert applied(stderr(), scores) == {"stderr": pytest.approx(expected)}


def test_means_do_not_depend_on_the_order_samples_finish_in() -> None:
    """An eval sums in the order its samples finish, `inspect score` in log order: the mean is
    `statistics.fmean`'s (an exact sum) to the last bit, so both give the same metrics."""
    rng = random.Random(7)
    for _ in range(500):
        values = [
            rng.choice([1.0, 0.0, 2.0]) * rng.random() ** 3 for _ in range(rng.randint(2, 60))
        ]
        scores = [scored({"chance": v}) for v in values]
        shuffled = rng.sample(scores, len(scores))
        assert mean_of(scores, "chance") == mean_of(shuffled, "chance") == statistics.fmean(values)
        assert stderr_of(scores, "chance") == stderr_of(shuffled, "chance")


def test_no_scores_give_nan_mean_and_zero_stderr() -> None:
    assert math.isnan(mean_of([], "correct"))
    assert stderr_of([], "correct") == 0.0
    assert stderr_of([scored({"correct": 1})], "correct") == 0.0


def test_other_keys_are_read_by_name() -> None:
    scores = [scored({"correct": 1, "dot": 0}), scored({"correct": 0, "dot": 1})]
    assert applied(accuracy("dot"), scores) == {"accuracy": 0.5}
    assert applied(stderr("dot"), scores) == {"stderr": pytest.approx(0.5)}
    assert applied(key_means({"breaks_dot": "dot", "accuracy_too": "correct"}), scores) == {
        "breaks_dot": 0.5,
        "accuracy_too": 0.5,
    }


def test_grouped_accuracy_groups_by_sample_metadata_sorted_by_name() -> None:
    scores = [
        scored({"correct": 1}, level=2),
        scored({"correct": 0}, level=10),
        scored({"correct": 1}, level=10),
        scored({"correct": 0}, level=1),
        scored({"correct": 1}, puzzle="maze"),
    ]
    result = applied(grouped_accuracy("level", name_template="level_{group}"), scores)
    assert list(result) == ["level_1", "level_10", "level_2", "level_None"]
    assert result == {"level_1": 0.0, "level_10": 0.5, "level_2": 1.0, "level_None": 1.0}
    assert applied(grouped_accuracy("puzzle"), scores) == {"None": 0.5, "maze": 1.0}


def test_group_means_names_groups_by_their_value_by_default() -> None:
    # A metric written elsewhere groups with `group_means` alone: each entry is named by the
    # group's value as text, as `grouped_accuracy` names them without a template.
    scores = [
        scored({"correct": 1}, puzzle="maze"),
        scored({"correct": 0}, puzzle="maze"),
        scored({"correct": 1}, puzzle="clock"),
    ]
    assert group_means(scores, "puzzle") == {"clock": 1.0, "maze": 0.5}
