"""Metrics that read `Score.value` dicts, so they stay right under `--epochs N`.

Inspect reduces each key of a dict `Score.value` across epochs but keeps only the first epoch's
`Score.metadata`; every metric here therefore reads a key of the (reduced) value, and groups by
*sample* metadata, which does not change between epochs. Shared by every task in the package.

Every metric here reports a dict `{plain name: value}`, never a bare float: Inspect logs a float
under the metric's registered name, package prefix included (`inspect_sparc/accuracy`, shown as
INSPECT_SPARC/ACCURACY in `inspect view`), but each dict entry under its own key. So a task using
these helpers shows `accuracy`, `stderr`, `level_1`... like Inspect's built-in metrics, while the
registered name (which `inspect score` uses to rebuild the metric from a log) stays namespaced.
A scalar metric written elsewhere should return `plainly(name, value)` for the same reason.

Why not Inspect's own `accuracy`, `stderr` and `grouped`: they would not log the same values.
Inspect's `accuracy` and `stderr` read one float per sample (`to_float(score.value)`); these
scores are dicts of several keys (so that each key reduces across epochs on its own), and even
with a `to_float` that picks `correct`, Inspect's `accuracy` sums in the order samples finished
(a rescore with `inspect score` can differ in the last bit; `mean_of` sums exactly) and reports
0.0 where no sample was scored (here NaN: no data is not a zero score). Inspect's `grouped`
needs a float-valued inner metric, adds an `all` entry and orders groups as they first appear;
`group_means` reports the groups sorted, with no `all` (the headline `accuracy` is its own
metric).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_sparc.contract.scores import (
    ACCURACY,
    ACCURACY_CI95_HIGH,
    ACCURACY_CI95_LOW,
    CORRECT,
    LEVEL_METRIC,
    STDERR,
    SUBSET_ACCURACY,
)

#: `puzzles=` of a run on every puzzle of its source (no shipped subset).
ALL_PUZZLES = "all"


def value_of(score: SampleScore, key: str) -> float:
    """The number stored under `key` in a dict score value.

    A missing key or a value that is not a number raises (naming the key and what the value
    holds): a metric over a misspelled key must fail loudly, not report zero.

    Args:
        score: one sample's score (its `value` a dict of keys, epochs already reduced).
        key: the value key to read (`correct`, `invalid_path` ...).

    Returns:
        The value as a float (a bool counts 1.0 or 0.0).
    """
    value = score.score.value
    if not isinstance(value, dict):
        raise TypeError(f"metric key {key!r}: score value is not a dict of keys: {value!r}")
    if key not in value:
        raise KeyError(f"metric key {key!r} is not in the score value (keys: {', '.join(value)})")
    item = value[key]
    if not isinstance(item, bool | int | float):
        raise TypeError(f"metric key {key!r}: score value holds {item!r}, not a number")
    return float(item)


def mean_of(scores: Iterable[SampleScore], key: str) -> float:
    """Mean of `key` over the scores (NaN when there are none). The sum is exact (`math.fsum`),
    so the mean does not depend on the order the samples finished in: `inspect score` on a
    log gives the metrics the eval gave, to the last bit.

    Args:
        scores: the samples' scores.
        key: the value key to average.

    Returns:
        The mean, or NaN for no scores (no data is not a zero score)."""
    values = [value_of(s, key) for s in scores]
    return math.fsum(values) / len(values) if values else math.nan


def stderr_of(scores: Iterable[SampleScore], key: str) -> float:
    """Standard error of the mean of `key` (sample standard deviation / sqrt(n), as Inspect's).

    Args:
        scores: the samples' scores.
        key: the value key whose mean's standard error is wanted.

    Returns:
        The standard error; 0.0 for fewer than two scores, as Inspect's `stderr` reports."""
    values = [value_of(s, key) for s in scores]
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n  # exact sums, as `mean_of`
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(variance) / math.sqrt(n)


def plainly(name: str, value: float) -> dict[str, float]:
    """`{name: value}`: the shape that makes Inspect log a metric under `name`, unprefixed.

    Args:
        name: the metric's name in the log (`accuracy`).
        value: its value.

    Returns:
        The one-entry dict."""
    return {name: value}


@metric(name=ACCURACY)
def accuracy(key: str = CORRECT) -> Metric:
    """Share of samples whose value `key` is 1 (the headline metric), logged as `accuracy`.

    Args:
        key: the score value key of a solved sample.

    Returns:
        The metric: `{"accuracy": mean}` (NaN with no samples)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return plainly(ACCURACY, mean_of(scores, key))

    return compute


@metric(name=STDERR)
def stderr(key: str = CORRECT) -> Metric:
    """Standard error of `accuracy(key)`, logged as `stderr`.

    Args:
        key: the score value key of a solved sample.

    Returns:
        The metric: `{"stderr": standard error}`."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return plainly(STDERR, stderr_of(scores, key))

    return compute


def puzzle_values(scores: Iterable[SampleScore], key: str = CORRECT) -> dict[str, float]:
    """Puzzle id (the sample id) -> the value of `key`, as the subset estimators read a run.

    Args:
        scores: the samples' scores (one per puzzle: epochs already reduced).
        key: the value key to read.

    Returns:
        Sample id as text -> its value."""
    return {str(s.sample_id): value_of(s, key) for s in scores}


@metric(name="split_accuracy")
def split_accuracy(puzzles: str, key: str = CORRECT) -> Metric:
    """A run on a shipped subset's headline: `accuracy` is the estimate of the whole test
    split's accuracy (the model-assisted estimator, `published_runs.frames.subset_estimates`,
    first entry) with its 95% interval `accuracy_ci95_low/high`; the subset's own plain mean,
    which weighs the subset's hard puzzles as often as they were drawn, is `subset_accuracy`.

    Args:
        puzzles: the shipped subset the task ran (`informative:100`).
        key: the score value key of a solved puzzle.

    Returns:
        The metric: `accuracy`, `accuracy_ci95_low`, `accuracy_ci95_high` (fractions; NaN with
        no scores) and `subset_accuracy`.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_sparc.published_runs.frames import subset_estimates

        values = puzzle_values(scores, key)
        nan = math.nan
        found = subset_estimates(values, puzzles)[0] if values else None
        return {
            ACCURACY: found.value if found else nan,
            ACCURACY_CI95_LOW: found.low if found else nan,
            ACCURACY_CI95_HIGH: found.high if found else nan,
            SUBSET_ACCURACY: mean_of(scores, key),
        }

    return compute


@metric(name="split_accuracy_by_level")
def split_accuracy_by_level(puzzles: str, key: str = CORRECT) -> Metric:
    """A run on a shipped subset: `level_1` ... `level_5` are each level's accuracy on the
    whole test split, estimated design-based from the subset's puzzles of that level
    (`published_runs.split_paired.level_estimates`); NaN where a level's stratum has no
    scored puzzle.

    Args:
        puzzles: the shipped subset the task ran (`informative:100`).
        key: the score value key of a solved puzzle.

    Returns:
        The metric: `level_k` -> the estimate (a fraction), for each level the samples hold and
        the estimator could estimate."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        from inspect_sparc.published_runs.split_paired import level_estimates

        values = puzzle_values(scores, key)
        found = level_estimates(values, puzzles) if values else {}
        levels = {int((s.sample_metadata or {})["level"]) for s in scores}
        return {
            LEVEL_METRIC.format(group=level): found[level].value
            for level in sorted(levels)
            if level in found
        }

    return compute


def headline_metrics(puzzles: str = ALL_PUZZLES) -> list[Metric]:
    """The accuracy metrics a SPaRC task starts with: `accuracy` and `stderr` over its samples;
    on a shipped subset (`puzzles=informative:N`) the split's estimate (`split_accuracy`).

    Args:
        puzzles: the task's `puzzles=`: "all" or a shipped subset's name.

    Returns:
        The metrics, the headline first."""
    if puzzles == ALL_PUZZLES:
        return [accuracy(), stderr()]
    return [split_accuracy(puzzles)]


def level_metrics(puzzles: str = ALL_PUZZLES) -> Metric:
    """Accuracy per level: the samples' (`accuracy_by_level`), or on a shipped subset each
    level's estimate for the whole split (`split_accuracy_by_level`).

    Args:
        puzzles: the task's `puzzles=`: "all" or a shipped subset's name.

    Returns:
        The metric logging `level_1` ... `level_5`."""
    return accuracy_by_level() if puzzles == ALL_PUZZLES else split_accuracy_by_level(puzzles)


def group_means(
    scores: Iterable[SampleScore], group_key: str, key: str = CORRECT, template: str = "{group}"
) -> dict[str, float]:
    """Mean of `key` per value of the sample metadata field `group_key`, sorted by group.

    Args:
        scores: the samples' scores.
        group_key: the sample metadata field to group by (`level`, `puzzle`); samples without
            it form the group None.
        key: the value key to average.
        template: each group's metric name, `{group}` replaced by the group's value.

    Returns:
        Metric name -> the group's mean, in the order of the groups' text."""
    groups: dict[object, list[SampleScore]] = {}
    for score in scores:
        group = (score.sample_metadata or {}).get(group_key)
        groups.setdefault(group, []).append(score)
    return {
        template.format(group=group): mean_of(members, key)
        for group, members in sorted(groups.items(), key=lambda item: str(item[0]))
    }


def means(scores: Iterable[SampleScore], names: Mapping[str, str]) -> dict[str, float]:
    """`{name: mean of key}` for `names` given as `{name: key}`.

    Args:
        scores: the samples' scores.
        names: metric name -> the value key to average.

    Returns:
        Metric name -> the mean (NaN with no scores)."""
    scores = list(scores)
    return {name: mean_of(scores, key) for name, key in names.items()}


def ratios(scores: Iterable[SampleScore], names: Mapping[str, tuple[str, str]]) -> dict[str, float]:
    """Pooled ratios `sum(numerator) / sum(denominator)`, as `{name: (num, den)}` (a share of
    steps rather than a mean of per-sample shares; NaN when the denominator is 0).

    Args:
        scores: the samples' scores.
        names: metric name -> (numerator key, denominator key).

    Returns:
        Metric name -> the pooled ratio."""
    scores = list(scores)
    results: dict[str, float] = {}
    for name, (numerator, denominator) in names.items():
        total = sum(value_of(s, denominator) for s in scores)
        part = sum(value_of(s, numerator) for s in scores)
        results[name] = part / total if total else math.nan
    return results


# `inspect view` heads each dict metric's entries with the metric's registered name (the group
# of its `EvalMetric`s), so the metrics a task uses are registered under names that say what
# they count. Of the generic ones below, `grouped_accuracy` is in use (`algopuzzlevqa`, per
# puzzle); `key_means` and `key_ratios` are used by no task now and stay registered so that
# `inspect score` can rebuild the metrics of logs written by earlier task versions.


@metric(name="accuracy_by_level")
def accuracy_by_level(key: str = CORRECT) -> Metric:
    """Accuracy per puzzle level (sample metadata `level`), as `level_1` ... `level_5`.

    Args:
        key: the score value key of a solved sample.

    Returns:
        The metric: `level_k` -> the level's mean, for the levels the samples hold."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return group_means(scores, "level", key, LEVEL_METRIC)

    return compute


@metric
def grouped_accuracy(group_key: str, key: str = CORRECT, name_template: str = "{group}") -> Metric:
    """Accuracy of `key` per value of the sample metadata field `group_key`, sorted by group.

    Args:
        group_key: the sample metadata field to group by (`puzzle` for AlgoPuzzleVQA).
        key: the score value key of a solved sample.
        name_template: each group's metric name, `{group}` replaced by the group's value.

    Returns:
        The metric: metric name -> the group's mean."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return group_means(scores, group_key, key, name_template)

    return compute


@metric
def key_means(names: dict[str, str]) -> Metric:
    """The mean of value keys, reported under the metric names given as `{name: key}`.

    Args:
        names: metric name -> the value key to average.

    Returns:
        The metric: metric name -> the mean."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return means(scores, names)

    return compute


@metric
def key_ratios(names: dict[str, tuple[str, str]]) -> Metric:
    """Pooled ratios `sum(numerator) / sum(denominator)` over the scores, as `{name: (num, den)}`
    (a share of steps rather than a mean of per-sample shares; NaN when the denominator is 0).

    Args:
        names: metric name -> (numerator key, denominator key).

    Returns:
        The metric: metric name -> the pooled ratio."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return ratios(scores, names)

    return compute
