"""The report's statistics: one family of score intervals, each beside the test it agrees with.

- `wilson`: the Wilson score interval of a proportion (Wilson 1927), also of a mean of
  per-puzzle values in [0, 1] with n = puzzles (epochs: the puzzle is the unit), never of width
  0 over a finite n.
- `newcombe`: the difference of two independent proportions, Newcombe's hybrid score
  interval (method 10, 1998): each side's Wilson limits combined (MOVER).
- `paired_difference`: the paired difference (a - b) of 0/1 outcomes with Tango's score
  interval (1998), which inverts the score test whose value at a difference of 0 is the
  asymptotic McNemar statistic (b - c) / sqrt(b + c): the interval excludes 0 exactly when that
  test's p is below 0.05. `paired_means`: the paired t interval and test of per-puzzle means
  (epochs averaged), never called McNemar.
- `paired_exact`: the older interval (Clopper-Pearson of the discordant split scaled by the
  observed discordance); kept for comparison only: its coverage falls to 32% (issue figures).
- `cmh`: the Cochran-Mantel-Haenszel test of two sets stratified by level (the fresh gap).
- `holm`: Holm's step-down adjustment of a family of p-values (Holm 1979).
- `paired_mdd`: the normal approximation of Connor (1987) without its -delta^2 term; the
  report's power is exact (`exact.paired_power`, `exact.paired_mdd_exact`).
- `bootstrap_ratio`: a seeded percentile bootstrap over puzzles of a ratio of sums (tokens
  per solved puzzle).
- `clustered_rate`: a rate whose units come in clusters (AlgoPuzzleVQA: 100 instances per
  puzzle type): Wilson with n shrunk by the design effect of the cluster-robust (CR1)
  standard error (Kish 1965; Liang and Zeger 1986), never narrower than plain Wilson.
- `clustered_ratio`: the same for a pooled per-step (or per-turn) rate, events over trials
  summed over puzzles, with the puzzle as cluster (steps of one episode are not independent).
- `median_interval`: the order-statistic (binomial) interval of a median over puzzles.
- `variance_parts`: within- and between-puzzle variance of the mean with epochs (Miller 2024).
- `stratified_rate`: the rate over instances of fixed strata (AlgoPuzzleVQA's 18 puzzle types),
  for new instances of the same types: the stratified variance (each type's own binomial).
- `format_p`, `format_interval`: p-values with significant digits (never "0.0"), intervals
  with enough digits that one excluding 0 never prints an end of 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple, cast

import numpy as np

#: Seed of every bootstrap (a report is reproducible) and resamples per interval.
SEED = 20250516
RESAMPLES = 4000
CONFIDENCE = 0.95
POWER = 0.80
WILSON = "Wilson"
NEWCOMBE = "Newcombe hybrid score"
EXACT_PAIRED = "exact (inverted McNemar)"
BOOTSTRAP = "bootstrap over puzzles"
#: Stands for "no upper bound" inside a bootstrap (a ratio whose resample has no solve).
UNBOUNDED = 1e12
#: Fewest shared puzzles for a pair to be tested at all (fewer: counts shown, no test).
MIN_SHARED = 10


class Interval(NamedTuple):
    """A 95% interval as fractions (0-1, or -1-1 for a difference), and its method."""

    low: float
    high: float
    method: str


NAN = Interval(float("nan"), float("nan"), "")


@lru_cache(maxsize=8)  # scipy's ppf costs ~3 ms a call, and every interval asks for it
def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile of `confidence` (1.96 at 95%).

    Args:
        confidence: the confidence level as a fraction (0.95), not alpha; the quantile leaves
            (1 - confidence) / 2 in each tail.

    Returns:
        The standard normal quantile at 0.5 + confidence / 2 (positive)."""
    from scipy.stats import norm

    return float(norm.ppf(0.5 + confidence / 2))


def wilson(k: float, n: float) -> Interval:
    """Wilson score interval of k successes in n (k may be fractional: a mean of per-puzzle
    values in [0, 1] times n puzzles); NaN for n = 0.

    Args:
        k: the successes (solved count, or the sum of per-puzzle values in [0, 1]); k / n is
            clipped to [0, 1].
        n: the trials (puzzles); may be fractional (an effective n: a design effect divided in).

    Returns:
        The two-sided 95% interval of the proportion, as fractions within [0, 1], method
        "Wilson"; both ends NaN for n <= 0."""
    if n <= 0:
        return Interval(float("nan"), float("nan"), WILSON)
    z = z_value()
    p = min(max(float(k) / float(n), 0.0), 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return Interval(float(max(0.0, centre - half)), float(min(1.0, centre + half)), WILSON)


def rate_interval(values: Sequence[float]) -> Interval:
    """The interval of a rate over puzzles (one value in [0, 1] per puzzle, its epochs
    averaged): Wilson on the mean with n = puzzles, whether or not epochs disagree (the puzzle
    is the unit either way).

    Args:
        values: one value in [0, 1] per puzzle (0/1 outcomes, or a puzzle's mean over epochs);
            no NaNs (a caller drops them).

    Returns:
        The 95% Wilson interval as fractions; NaN ends for no puzzle."""
    data = np.asarray(values, dtype=float)
    return wilson(float(data.sum()), int(data.size))


CLUSTERED = "Wilson, clustered by puzzle type"


def cluster_se(values: Sequence[float] | np.ndarray, clusters: Sequence[object]) -> float:
    """Cluster-robust (CR1) standard error of the mean of `values` with units grouped by
    `clusters`: the spread of the clusters' summed residuals, times G / (G - 1) (what
    statsmodels' OLS with `cov_type="cluster"` gives for an intercept); NaN under 2 clusters.

    Args:
        values: one value per unit (0/1 outcomes: AlgoPuzzleVQA's instances).
        clusters: the cluster label of each unit (its puzzle type), as long as `values`.

    Returns:
        The standard error of the mean, in the values' own unit (a fraction for 0/1 values);
        NaN with fewer than 2 clusters."""
    import pandas as pd

    data = np.asarray(values, dtype=float)
    sums = pd.Series(data - data.mean()).groupby(np.asarray(clusters, dtype=object)).sum()
    g = len(sums)
    if g < 2:
        return float("nan")
    return float(np.sqrt(g / (g - 1) * float((sums**2).sum())) / data.size)


def clustered_rate(values: Sequence[float], clusters: Sequence[object]) -> Interval:
    """Wilson interval of a rate over units in clusters, with n divided by the design effect
    (cluster-robust variance over the binomial p(1-p)/n, at least 1): one cluster or none
    that differs leaves plain Wilson, so the width never falls to 0 over a finite n.

    Args:
        values: one value in [0, 1] per unit (0/1 outcomes of instances), no NaNs.
        clusters: the cluster label of each unit (AlgoPuzzleVQA's puzzle type), as long as
            `values`.

    Returns:
        The 95% interval as fractions, method `CLUSTERED`, never narrower than plain Wilson;
        NaN ends for no unit."""
    data = np.asarray(values, dtype=float)
    n = data.size
    if n == 0:
        return Interval(float("nan"), float("nan"), CLUSTERED)
    p = float(data.mean())
    binomial = p * (1 - p) / n
    se = cluster_se(data, clusters)
    deff = max(1.0, se * se / binomial) if binomial > 0 and se == se else 1.0
    plain = wilson(p * n / deff, n / deff)
    return Interval(plain.low, plain.high, CLUSTERED)


CLUSTERED_BY_PUZZLE = "Wilson, clustered by puzzle"


def clustered_ratio(events: Sequence[float], trials: Sequence[float]) -> Interval:
    """Wilson interval of a pooled rate sum(events) / sum(trials) (illegal moves per step,
    turns without a tool call per turn), one pair of sums per puzzle (puzzles without a trial
    left out): n = the trials divided by the design effect of the ratio's cluster-robust (CR1)
    variance, at least 1. Where the data cannot show the design effect (no event, every trial
    an event, one puzzle) the worst case is taken, every puzzle's trials alike: n = Kish's
    effective number of puzzles, (sum m)^2 / sum m^2. NaN without a trial.

    Args:
        events: each puzzle's count of events (illegal moves, turns without a tool call).
        trials: each puzzle's count of trials (steps, turns), in the order of `events`; puzzles
            with 0 trials are left out.

    Returns:
        The 95% interval of the pooled rate as fractions, method `CLUSTERED_BY_PUZZLE`; NaN
        ends where no puzzle has a trial."""
    top, bottom = np.asarray(events, dtype=float), np.asarray(trials, dtype=float)
    kept = bottom > 0
    top, bottom = top[kept], bottom[kept]
    total = float(bottom.sum())
    if total <= 0:
        return Interval(float("nan"), float("nan"), CLUSTERED_BY_PUZZLE)
    p = float(top.sum()) / total
    g = top.size
    binomial = p * (1 - p) / total
    if binomial == 0 or g < 2:  # the spread cannot show how alike a puzzle's trials are
        n = kish_n(bottom.tolist())
        plain = wilson(p * n, n)
        return Interval(plain.low, plain.high, CLUSTERED_BY_PUZZLE)
    residuals = top - p * bottom  # each puzzle's summed residuals around the pooled rate
    variance = g / (g - 1) * float((residuals**2).sum()) / total**2
    deff = max(1.0, variance / binomial)
    plain = wilson(p * total / deff, total / deff)
    return Interval(plain.low, plain.high, CLUSTERED_BY_PUZZLE)


def newcombe(k1: float, n1: float, k2: float, n2: float) -> Interval:
    """Newcombe's hybrid score interval (method 10) of p1 - p2 for independent samples.

    Args:
        k1: the first sample's successes (may be fractional: a rate times an effective n).
        n1: the first sample's size (may be fractional).
        k2: the second sample's successes.
        n2: the second sample's size.

    Returns:
        The 95% interval of p1 - p2 as fractions (-1 to 1), from each side's Wilson limits
        (MOVER), method "Newcombe hybrid score"; NaN ends where either size is <= 0."""
    if n1 <= 0 or n2 <= 0:
        return Interval(float("nan"), float("nan"), NEWCOMBE)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1, _ = wilson(k1, n1)
    l2, u2, _ = wilson(k2, n2)
    d = p1 - p2
    low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Interval(float(low), float(high), NEWCOMBE)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Exact McNemar p-value: two-sided binomial test of the discordant pairs at 1/2
    (1.0 when there is no discordant pair).

    Args:
        only_a: puzzles solved by run a and not by run b.
        only_b: puzzles solved by run b and not by run a.

    Returns:
        The two-sided p (scipy's `binomtest` of only_a of the discordant at 1/2), in [0, 1]."""
    from scipy.stats import binomtest

    discordant = int(only_a) + int(only_b)
    if discordant == 0:
        return 1.0
    return float(binomtest(int(only_a), discordant, 0.5).pvalue)


def paired_exact(only_a: int, only_b: int, n: int) -> Interval:
    """Interval of (only_a - only_b) / n that inverts the exact McNemar test: the
    Clopper-Pearson interval of only_a / discordant, scaled to a difference. With no
    discordant pair it is the interval of 0 of n discordant, both ways.

    Args:
        only_a: puzzles solved by run a and not by run b.
        only_b: puzzles solved by run b and not by run a.
        n: the puzzles both runs were scored on (discordant and concordant).

    Returns:
        The 95% interval of the paired difference a - b as fractions, method `EXACT_PAIRED`
        (conditional on the observed discordance: kept for comparison only); NaN ends for
        n <= 0."""
    from scipy.stats import binomtest

    d = int(only_a) + int(only_b)
    if n <= 0:
        return Interval(float("nan"), float("nan"), EXACT_PAIRED)
    if d == 0:  # no discordant puzzle: the share of discordant puzzles is at most its bound
        bound = binomtest(0, int(n)).proportion_ci(CONFIDENCE, method="exact").high
        return Interval(-float(bound), float(bound), EXACT_PAIRED)
    ci = binomtest(int(only_a), d).proportion_ci(CONFIDENCE, method="exact")
    scale = d / n
    return Interval(scale * (2 * ci.low - 1), scale * (2 * ci.high - 1), EXACT_PAIRED)


TANGO = "Tango score"
MCNEMAR_SCORE = "McNemar (asymptotic score, no continuity correction)"
PAIRED_T = "paired t over per-puzzle means"


class PairedResult(NamedTuple):
    """A paired difference a - b (fraction), its 95% interval, the p of the test the interval
    inverts (so the two never disagree about 0), and that test's name."""

    difference: float
    interval: Interval
    p: float
    test: str


def tango_statistic(only_a: Any, only_b: Any, n: Any, delta: Any) -> np.ndarray:
    """Tango's (1998) score statistic of H0: p(a only) - p(b only) = delta in paired 0/1
    outcomes (vectorised): (b - c - n delta) / sqrt(n (2 p21 + delta (1 - delta))), p21 the
    constrained maximum-likelihood estimate of p(b only). At delta = 0 it is McNemar's
    (b - c) / sqrt(b + c); 0 where the variance is 0 (no discordant pair at delta = 0).

    Args:
        only_a: b, puzzles solved by run a alone (a number or an array).
        only_b: c, puzzles solved by run b alone.
        n: the shared puzzles.
        delta: the hypothesised difference p(a only) - p(b only), a fraction in (-1, 1).

    Returns:
        The signed statistic (positive where the observed difference exceeds delta),
        broadcast over the arguments' shapes (0-d for scalars)."""
    b, c, m, d = (np.asarray(v, dtype=float) for v in (only_a, only_b, n, delta))
    a2 = np.where(m > 0, 2 * m, 1.0)
    b1 = -b - c + (2 * m - b + c) * d
    c0 = -c * d * (1 - d)
    p21 = (-b1 + np.sqrt(np.maximum(b1 * b1 - 4 * a2 * c0, 0.0))) / (2 * a2)
    variance = m * (2 * p21 + d * (1 - d))
    safe = np.where(variance > 0, variance, 1.0)
    return np.where(variance > 0, (b - c - m * d) / np.sqrt(safe), 0.0)


def mcnemar_score(only_a: int, only_b: int) -> float:
    """The asymptotic McNemar test without continuity correction: two-sided normal p of
    (b - c) / sqrt(b + c) (1.0 without a discordant pair); the test Tango's interval inverts.

    Args:
        only_a: b, puzzles solved by run a and not by run b.
        only_b: c, puzzles solved by run b and not by run a.

    Returns:
        The two-sided p in [0, 1]."""
    from scipy.stats import norm

    discordant = int(only_a) + int(only_b)
    if discordant == 0:
        return 1.0
    return float(2 * norm.sf(abs(int(only_a) - int(only_b)) / np.sqrt(discordant)))


def tango_interval(only_a: int, only_b: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """Tango's score interval of the paired difference (only_a - only_b) / n: the differences
    whose score statistic is within +-z, found by root finding (`scipy.optimize.brentq`; the
    statistic falls as delta grows). Unconditional: it allows for the discordance's own
    uncertainty, so it reaches past the observed difference when one run wins every
    discordant puzzle (the conditional interval could not). At `confidence` 1 - 0.05 / m the
    m pairs' intervals hold together (Bonferroni): one that excludes 0 is a difference Holm's
    adjustment over those m pairs finds too (Holm rejects all Bonferroni does, and more).

    Args:
        only_a: puzzles solved by run a alone.
        only_b: puzzles solved by run b alone.
        n: the shared puzzles (discordant and concordant).
        confidence: the two-sided confidence level (0.95), not alpha.

    Returns:
        The interval of a - b as fractions within [-1, 1], method `TANGO`; NaN ends for
        n <= 0."""
    from scipy.optimize import brentq

    if n <= 0:
        return Interval(float("nan"), float("nan"), TANGO)
    b, c, z = int(only_a), int(only_b), z_value(confidence)
    estimate = (b - c) / n
    edge = 1 - 1e-12

    def shifted(delta: float, target: float) -> float:
        return float(tango_statistic(b, c, n, delta)) - target

    low = -1.0 if estimate <= -edge else brentq(shifted, -edge, estimate, args=(z,), xtol=1e-12)
    high = 1.0 if estimate >= edge else brentq(shifted, estimate, edge, args=(-z,), xtol=1e-12)
    return Interval(float(low), float(high), TANGO)


def paired_difference(
    only_a: int, only_b: int, n: int, confidence: float = CONFIDENCE
) -> PairedResult:
    """The paired difference of 0/1 outcomes on n shared puzzles (only_a: solved by a alone):
    Tango's score interval and the p of the score test it inverts (asymptotic McNemar), so
    the interval excludes 0 exactly when p < 0.05.

    Args:
        only_a: puzzles solved by run a and not by run b.
        only_b: puzzles solved by run b and not by run a.
        n: the shared puzzles (discordant and concordant).
        confidence: the interval's two-sided confidence level (0.95), not alpha; the p does
            not depend on it (the interval excludes 0 exactly when p < 1 - confidence).

    Returns:
        The difference (only_a - only_b) / n as a fraction, Tango's interval, the McNemar
        score p and the test's name (`MCNEMAR_SCORE`); NaN, the NaN interval and "" for n <= 0."""
    if n <= 0:
        return PairedResult(float("nan"), NAN, float("nan"), "")
    return PairedResult(
        (int(only_a) - int(only_b)) / n,
        tango_interval(only_a, only_b, n, confidence),
        mcnemar_score(only_a, only_b),
        MCNEMAR_SCORE,
    )


def paired_means(
    x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> PairedResult:
    """The paired difference of per-puzzle values that are not all 0/1 (epochs averaged): the
    paired t test over puzzles and the t interval it inverts (`scipy.stats.ttest_rel`). No
    test where every puzzle differs by the same amount (a t interval would be zero-wide).

    Args:
        x: run a's value per puzzle (its mean over epochs).
        y: run b's value per puzzle, the same puzzles in the same order.
        confidence: the t interval's two-sided confidence level (0.95), not alpha.

    Returns:
        The mean difference x - y, the t interval (method `PAIRED_T`), the two-sided paired t
        p and `PAIRED_T`; for no puzzle NaN, the NaN interval, NaN and "". With one puzzle or
        a constant difference: the difference, the NaN interval, NaN and the reason as test."""
    from scipy.stats import ttest_rel

    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size == 0:
        return PairedResult(float("nan"), NAN, float("nan"), "")
    diff = a - b
    if a.size < 2 or np.ptp(diff) == 0:
        why = "none: every puzzle differs by the same amount, so a t interval has no width"
        return PairedResult(float(diff.mean()), NAN, float("nan"), why)
    result = ttest_rel(a, b)
    ci = result.confidence_interval(confidence)
    interval = Interval(float(ci.low), float(ci.high), PAIRED_T)
    return PairedResult(float(diff.mean()), interval, float(result.pvalue), PAIRED_T)


def paired_mdd(n: int, discordance: float, confidence: float = CONFIDENCE) -> float:
    """The smallest paired difference (fraction) found with `POWER` at this n and share of
    discordant puzzles: (z_alpha/2 + z_beta) sqrt(discordance / n) (Connor 1987).

    Args:
        n: the shared puzzles.
        discordance: the share (0-1) of puzzles solved by exactly one of the two runs; taken
            as at least 1 / n.
        confidence: the two-sided test's confidence level (0.95: alpha 0.05), not alpha.

    Returns:
        The difference as a fraction (the normal approximation; the report's own figure is
        `exact.paired_mdd_exact`); NaN for n <= 0."""
    from scipy.stats import norm

    if n <= 0:
        return float("nan")
    z = z_value(confidence) + float(norm.ppf(POWER))
    return float(z * np.sqrt(max(discordance, 1.0 / n) / n))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (NaN stays NaN, outside the family).

    Args:
        pvalues: the family's unadjusted p-values, in any order; NaN marks a comparison
            outside the family (no test).

    Returns:
        The adjusted p-values in the order given, each at most 1; the family's size m counts
        the non-NaN p-values only."""
    values = np.asarray(pvalues, dtype=float)
    known = np.flatnonzero(~np.isnan(values))
    adjusted = np.full(values.shape, np.nan)
    m = known.size
    running = 0.0
    for rank, at in enumerate(known[np.argsort(values[known], kind="stable")]):
        running = max(running, min(1.0, (m - rank) * values[at]))
        adjusted[at] = running
    return cast("list[float]", adjusted.tolist())


def cmh(first: Sequence[Sequence[float]], second: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Cochran-Mantel-Haenszel test of equal rates in two independent sets, stratified (each
    stratum: the values of set 1 and set 2, in [0, 1]): the statistic (no continuity
    correction) and its chi-square(1) p-value.

    Args:
        first: per stratum (level), the first set's per-puzzle values in [0, 1].
        second: per stratum, the second set's values, strata in the order of `first`; a
            stratum empty on either side is left out.

    Returns:
        (statistic, p): the chi-square statistic and its upper-tail chi-square(1) p (two-sided
        in the difference); (0.0, 1.0) where no stratum varies."""
    from scipy.stats import chi2

    numerator, variance = 0.0, 0.0
    for a_values, b_values in zip(first, second, strict=True):
        n1, n2 = len(a_values), len(b_values)
        total = n1 + n2
        if n1 == 0 or n2 == 0 or total < 2:
            continue
        a, solved = float(np.sum(a_values)), float(np.sum(a_values) + np.sum(b_values))
        numerator += a - n1 * solved / total
        variance += n1 * n2 * solved * (total - solved) / (total * total * (total - 1))
    if variance <= 0:  # no variation in any stratum: no evidence of a difference
        return 0.0, 1.0
    statistic = numerator * numerator / variance
    return float(statistic), float(chi2.sf(statistic, 1))


def kish_n(weights: Sequence[float]) -> float:
    """Kish's effective sample size of weighted units: (sum w)^2 / sum w^2.

    Args:
        weights: one non-negative weight per unit (a puzzle's share of the estimate, or its
            trials).

    Returns:
        The effective number of units (the count itself for equal weights, fewer otherwise);
        0.0 for no weight or all zero."""
    w = np.asarray(weights, dtype=float)
    return float(w.sum() ** 2 / np.sum(w * w)) if w.size and np.sum(w * w) > 0 else 0.0


def stratified_difference(
    first: Sequence[Sequence[float]], second: Sequence[Sequence[float]]
) -> tuple[float, float, Interval]:
    """Per stratum (level) values of two independent sets: the first's mean, the second's
    mean re-weighted to the first's stratum sizes, and a Newcombe interval of their
    difference (each side Wilson at Kish's effective n of its per-puzzle weights).

    Args:
        first: per stratum, the first set's per-puzzle values in [0, 1] (its own mix sets the
            weights).
        second: per stratum, the second set's values, strata in the order of `first`. Every
            stratum needs values on both sides: an empty one makes a mean NaN.

    Returns:
        (first's mean, second's re-weighted mean, the 95% Newcombe interval of their
        difference), all as fractions."""
    groups = [np.asarray(g, dtype=float) for g in (*first, *second)]
    k = len(first)
    shares = np.array([len(g) for g in groups[:k]], dtype=float)
    shares /= shares.sum()
    means = []
    for side in (groups[:k], groups[k:]):
        mean = float(sum(w * g.mean() for w, g in zip(shares, side, strict=True)))
        weights = [w / len(g) for w, g in zip(shares, side, strict=True) for _ in g]
        means.append((mean, kish_n(weights)))
    (a, na), (b, nb) = means
    interval = newcombe(a * na, na, b * nb, nb)
    return a, b, interval


def bootstrap_ratio(
    numerator: Sequence[float], denominator: Sequence[float], seed: int = SEED
) -> Interval:
    """Percentile bootstrap over puzzles of sum(numerator) / sum(denominator) (one pair of
    values per puzzle, resampled together); NaN when the denominator is 0.

    Args:
        numerator: each puzzle's numerator (its tokens).
        denominator: each puzzle's denominator (solved: 0/1, or its mean over epochs), in the
            order of `numerator`.
        seed: the generator's seed (`SEED`: a report is reproducible).

    Returns:
        The 95% percentile interval of the ratio over `RESAMPLES` resamples, method
        `BOOTSTRAP`; the upper end infinite where resamples without a solve reach it; NaN ends
        for fewer than 2 puzzles or a denominator summing to 0."""
    top, bottom = np.asarray(numerator, float), np.asarray(denominator, float)
    if top.size < 2 or bottom.sum() <= 0:
        return Interval(float("nan"), float("nan"), BOOTSTRAP)
    from scipy.stats import bootstrap

    def ratio(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        # a resample without a solve costs without bound: a sentinel above every real ratio
        below = np.sum(y, axis=axis)
        return np.where(below > 0, np.sum(x, axis=axis) / np.where(below > 0, below, 1), UNBOUNDED)

    result = bootstrap(
        (top, bottom),
        ratio,
        paired=True,
        confidence_level=CONFIDENCE,
        n_resamples=RESAMPLES,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    ci = result.confidence_interval
    low, high = (float("inf") if b >= UNBOUNDED / 10 else float(b) for b in (ci.low, ci.high))
    return Interval(low, high, BOOTSTRAP)


ORDER_STATISTIC = "order statistics (binomial)"


def median_interval(values: Sequence[float]) -> Interval:
    """Distribution-free interval of the median over puzzles: the order statistics a binomial
    (n, 1/2) brackets (scipy's `quantile_test`). Where those order statistics are equal (tied
    values) or n is too small for 95% (under 6), no interval: NaN, with the reason as method.

    Args:
        values: one value per puzzle (NaNs left out).

    Returns:
        The 95% interval in the values' unit, method `ORDER_STATISTIC`; NaN ends with the
        reason as method where there is none ("" for no value)."""
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    if data.size == 0:
        return Interval(float("nan"), float("nan"), "")
    from scipy.stats import quantile_test

    ci = quantile_test(data, q=float(np.median(data)), p=0.5).confidence_interval(CONFIDENCE)
    low, high = float(ci.low), float(ci.high)
    if low != low or high != high:
        why = f"none: {data.size} puzzles are too few for a 95% order-statistic interval (6)"
        return Interval(float("nan"), float("nan"), why)
    if low == high:
        why = "none: the order statistics around the median are tied, so no interval is wider"
        return Interval(float("nan"), float("nan"), why)
    return Interval(low, high, ORDER_STATISTIC)


T_OVER_PUZZLES = "t over puzzles"


def mean_interval(values: Sequence[float], lowest: float | None = None) -> Interval:
    """The t interval of a mean over puzzles (one value per puzzle: counts, tokens), its lower
    end raised to `lowest` (0 for counts); NaN, with the reason as its method, for fewer than
    two values or where every puzzle has the same value (a t interval would have zero width:
    certainty no finite sample gives).

    Args:
        values: one value per puzzle (NaNs left out).
        lowest: the smallest value the mean can take (0 for counts), or None for no floor.

    Returns:
        The two-sided 95% t interval in the values' unit, method `T_OVER_PUZZLES`."""
    from scipy.stats import t

    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    if data.size < 2:
        return Interval(float("nan"), float("nan"), "none: fewer than 2 puzzles")
    if np.ptp(data) == 0:
        return Interval(float("nan"), float("nan"), "none: every puzzle has the same value")
    half = float(t.ppf(0.5 + CONFIDENCE / 2, data.size - 1) * data.std(ddof=1) / np.sqrt(data.size))
    low = float(data.mean() - half)
    low = low if lowest is None else max(lowest, low)
    return Interval(low, float(data.mean() + half), T_OVER_PUZZLES)


def variance_parts(per_puzzle: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Miller (2024): the variance of the mean over puzzles split into its between-puzzle part
    (more puzzles shrink it) and its within-puzzle part (more epochs shrink it), as
    (between, within) variances of the mean; each puzzle's epochs in one list.

    Args:
        per_puzzle: per puzzle, its value in each epoch (puzzles without one are left out).

    Returns:
        (between, within), variances of the mean in the values' unit squared (fractions^2 for
        0/1 outcomes), between floored at 0; both NaN under 2 puzzles."""
    lists = [np.asarray(v, dtype=float) for v in per_puzzle if len(v)]
    n = len(lists)
    if n < 2:
        return float("nan"), float("nan")
    means = np.array([v.mean() for v in lists])
    within = np.array([v.var(ddof=1) / v.size if v.size > 1 else 0.0 for v in lists])
    total = means.var(ddof=1) / n
    within_mean = float(within.mean()) / n
    return max(float(total) - within_mean, 0.0), within_mean


def significant_digits(value: float, digits: int = 3) -> float:
    """`value` rounded to `digits` significant digits (for p-values in CSV).

    Args:
        value: the number (a p-value).
        digits: the significant digits kept.

    Returns:
        The rounded number; NaN and 0 unchanged."""
    if value != value or value == 0:
        return value
    from math import floor, log10

    return round(value, digits - 1 - floor(log10(abs(value))))


#: The level the page's p-values are read against (a p is never rounded across it).
ALPHA = round(1 - CONFIDENCE, 12)


def format_p(p: float | None, digits: int = 2) -> str:
    """A p-value as text with `digits` significant digits, never as a rate: 0.049, 0.5,
    3.2e-05; more digits where rounding would carry it across `ALPHA` (0.0496, not 0.05);
    "" for none, "<1e-300" below floating point's reach.

    Args:
        p: the p-value in [0, 1], or None / NaN for no test.
        digits: the fewest significant digits shown.

    Returns:
        The text, on the same side of `ALPHA` as p."""
    if p is None or p != p:
        return ""
    p = float(p)
    if p <= 0:
        return "<1e-300"
    for shown in range(digits, 16):
        text = f"{p:.{shown}g}" if p >= 1e-3 else f"{p:.{shown - 1}e}"
        value = float(text)
        if (value < ALPHA) == (p < ALPHA) and (value != ALPHA or p == ALPHA):
            return text
    return repr(p)


def format_interval(low: float, high: float, digits: int = 1, scale: float = 100.0) -> str:
    """An interval as "low to high" (times `scale`: points), to `digits` decimals, or more
    where an interval that excludes 0 would print an end of 0 (1.8 with 0.04 to 3.5, never
    0.0 to 3.5): rounding never hides which side of 0 it is on. "" for none.

    Args:
        low: the lower end as a fraction (None or NaN: no interval).
        high: the upper end as a fraction.
        digits: the fewest decimals shown.
        scale: what the ends are multiplied by (100: fractions to percentage points).

    Returns:
        The text, e.g. "1.8 to 3.5", or ""."""
    if low is None or high is None or low != low or high != high:
        return ""
    lo, hi = scale * float(low), scale * float(high)
    excludes = lo > 0 or hi < 0
    for shown in range(digits, 13):
        texts = [f"{v:.{shown}f}" for v in (lo, hi)]
        if not excludes or all(float(t) != 0 for t in texts):
            return f"{texts[0]} to {texts[1]}"
    return f"{lo:.3g} to {hi:.3g}"


STRATIFIED_TYPES = "Wilson, stratified by puzzle type (new instances of these types)"


def stratified_se(values: Sequence[float], strata: Sequence[object]) -> float:
    """Standard error of the mean of `values` over units in fixed strata (AlgoPuzzleVQA: its
    puzzle types), for new units of the same strata: sqrt(sum_h w_h^2 p_h (1 - p_h) / n_h),
    w_h = n_h / n, p_h the stratum's mean (each type's own binomial, no spread between types:
    what statsmodels' OLS on type dummies with HC0 errors gives for the weighted mean).

    Args:
        values: one value per unit (0/1 outcomes of instances).
        strata: each unit's stratum label (its puzzle type), as long as `values`.

    Returns:
        The standard error in the values' unit (a fraction for 0/1 values); NaN for no unit."""
    import pandas as pd

    data = pd.Series(np.asarray(values, dtype=float))
    groups = data.groupby(np.asarray(strata, dtype=object))
    means, sizes = groups.mean(), groups.size()
    spread = groups.apply(lambda g: float(((g - g.mean()) ** 2).mean()))
    weights = sizes / sizes.sum()
    return (
        float(np.sqrt(float((weights**2 * spread / sizes).sum()))) if len(means) else float("nan")
    )


def stratified_rate(values: Sequence[float], strata: Sequence[object]) -> Interval:
    """Wilson interval of a rate over units in fixed strata, for new units of the same strata
    (AlgoPuzzleVQA: new instances of its 18 puzzle types, where `clustered_rate` answers new
    types): n multiplied by the binomial variance over the stratified one (at most 1 in the
    other direction: never wider than plain Wilson). Each stratum's proportion is taken at
    its Wilson centre in the variance, so a type solved every time still adds uncertainty and
    the width never falls to 0.

    Args:
        values: one value in [0, 1] per unit (0/1 outcomes of instances).
        strata: each unit's stratum label (its puzzle type), as long as `values`.

    Returns:
        The 95% interval as fractions, method `STRATIFIED_TYPES`; NaN ends for no unit."""
    import pandas as pd

    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return Interval(float("nan"), float("nan"), STRATIFIED_TYPES)
    z2 = z_value() ** 2
    groups = pd.Series(data).groupby(np.asarray(strata, dtype=object))
    sums, sizes = groups.sum(), groups.size()
    centres = (sums + z2 / 2) / (sizes + z2)
    weights = sizes / sizes.sum()
    variance = float((weights**2 * centres * (1 - centres) / sizes).sum())
    overall = (data.sum() + z2 / 2) / (data.size + z2)
    deff = min(1.0, variance / (overall * (1 - overall) / data.size))
    plain = wilson(float(data.sum()) / deff, data.size / deff)
    return Interval(plain.low, plain.high, STRATIFIED_TYPES)


def is_binary(*values: Any) -> bool:
    """True where every value given is 0 or 1 (outcomes, or epochs reduced by max or min).

    Args:
        *values: arrays or sequences of per-puzzle values (an empty one passes).

    Returns:
        Whether every element of every argument is exactly 0.0 or 1.0."""
    return all(bool(np.isin(np.asarray(v, dtype=float), (0.0, 1.0)).all()) for v in values)


def paired_comparison(
    x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> PairedResult:
    """The paired comparison of two runs' per-puzzle values on the same puzzles, the test
    named by what the values are: 0/1 outcomes get Tango's interval and the McNemar score
    test (`paired_difference`), per-puzzle means the paired t (`paired_means`).

    Args:
        x: run a's value per shared puzzle.
        y: run b's value per shared puzzle, in the order of `x`.
        confidence: the interval's two-sided confidence level (0.95), not alpha.

    Returns:
        The difference a - b (fraction), its interval, the test's p and the test's name."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not is_binary(a, b):
        return paired_means(a, b, confidence)
    only_a, only_b = int((a * (1 - b)).sum()), int(((1 - a) * b).sum())
    return paired_difference(only_a, only_b, int(a.size), confidence)
