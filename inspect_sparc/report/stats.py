"""The report's statistics, all from `scipy.stats` (no formula written by hand here).

- `wilson`: the Wilson score interval of a proportion k/n (Wilson 1927), right at 0/n and n/n
  where accuracy ± 1.96 stderr claims certainty it does not have.
- `bootstrap_mean`: a seeded percentile bootstrap over puzzles of the mean of per-puzzle values
  (epochs > 1 with epochs that disagree: each puzzle's mean over its epochs is the unit).
- `paired_difference`: the accuracy difference of two runs on the same puzzles with a seeded
  bootstrap over puzzles (resampling puzzles keeps each pair together), and the exact McNemar
  p-value (the binomial test on the discordant pairs).
- `stratified_difference`: a gap between two independent sets per level, the second re-weighted
  to the first's level mix, with a seeded bootstrap that resamples within each level.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

#: Seed of every bootstrap (a report is reproducible) and resamples per interval.
SEED = 20250516
RESAMPLES = 4000
CONFIDENCE = 0.95
WILSON = "Wilson"
BOOTSTRAP = "bootstrap over puzzles"


class Interval(NamedTuple):
    """A 95% interval as fractions (0-1), and the method that gave it."""

    low: float
    high: float
    method: str


def wilson(k: int, n: int) -> Interval:
    """Wilson score interval of k successes in n trials (NaN for n = 0)."""
    from scipy.stats import binomtest

    if n <= 0:
        return Interval(float("nan"), float("nan"), WILSON)
    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return Interval(float(ci.low), float(ci.high), WILSON)


def bootstrap_mean(values: Sequence[float], seed: int = SEED) -> Interval:
    """Percentile bootstrap interval of the mean over puzzles (values: one per puzzle)."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return Interval(float("nan"), float("nan"), BOOTSTRAP)
    if np.all(data == data[0]):  # no spread: every resample has the same mean
        return Interval(float(data[0]), float(data[0]), BOOTSTRAP)
    from scipy.stats import bootstrap

    result = bootstrap(
        (data,),
        np.mean,
        confidence_level=CONFIDENCE,
        n_resamples=RESAMPLES,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    ci = result.confidence_interval
    return Interval(float(ci.low), float(ci.high), BOOTSTRAP)


def rate_interval(values: Sequence[float], epochs: int = 1) -> Interval:
    """The interval of a rate over puzzles (one value per puzzle): Wilson when every puzzle's
    outcome is 0 or 1 (one epoch, or every epoch alike: k of n puzzles), else the bootstrap
    over per-puzzle means (`epochs` is kept for callers; the values decide)."""
    data = np.asarray(values, dtype=float)
    if np.isin(data, (0.0, 1.0)).all():
        return wilson(int(data.sum()), int(data.size))
    return bootstrap_mean(data)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Exact McNemar p-value: two-sided binomial test of the discordant pairs at 1/2
    (1.0 when there is no discordant pair)."""
    from scipy.stats import binomtest

    discordant = int(only_a) + int(only_b)
    if discordant == 0:
        return 1.0
    return float(binomtest(int(only_a), discordant, 0.5).pvalue)


def paired_difference(a: Sequence[float], b: Sequence[float], seed: int = SEED) -> Interval:
    """Interval of mean(a) - mean(b) over the same puzzles (a[i], b[i]: one puzzle), by a
    bootstrap that resamples puzzles (pairs kept together)."""
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return bootstrap_mean(diff, seed)


def stratified_difference(
    first: Sequence[Sequence[float]], second: Sequence[Sequence[float]], seed: int = SEED
) -> tuple[float, float, Interval]:
    """Per stratum (level) values of two independent sets: the first's mean, the second's
    mean re-weighted to the first's stratum sizes, and the interval of their difference by a
    bootstrap that resamples within each stratum of each set."""
    from scipy.stats import bootstrap

    groups = [np.asarray(g, dtype=float) for g in (*first, *second)]
    k = len(first)
    weights = np.array([len(g) for g in groups[:k]], dtype=float)
    weights /= weights.sum()

    def statistic(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
        left = sum(w * np.mean(s, axis=axis) for w, s in zip(weights, samples[:k], strict=True))
        right = sum(w * np.mean(s, axis=axis) for w, s in zip(weights, samples[k:], strict=True))
        return left - right

    point_first = float(sum(w * g.mean() for w, g in zip(weights, groups[:k], strict=True)))
    point_second = float(sum(w * g.mean() for w, g in zip(weights, groups[k:], strict=True)))
    if all(np.all(g == g[0]) for g in groups):
        gap = point_first - point_second
        return point_first, point_second, Interval(gap, gap, BOOTSTRAP)
    result = bootstrap(
        groups,
        statistic,
        confidence_level=CONFIDENCE,
        n_resamples=RESAMPLES,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    ci = result.confidence_interval
    return point_first, point_second, Interval(float(ci.low), float(ci.high), BOOTSTRAP)


def significant_digits(value: float, digits: int = 3) -> float:
    """`value` rounded to `digits` significant digits (for p-values in CSV)."""
    if value != value or value == 0:
        return value
    from math import floor, log10

    return round(value, digits - 1 - floor(log10(abs(value))))
