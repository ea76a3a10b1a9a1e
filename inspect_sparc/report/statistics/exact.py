"""Exact tests for small counts, each with the interval that inverts it, and exact power.

- `unconditional_difference`: two independent proportions (a level of the fresh gap: ~100 test
  puzzles against ~5 fresh ones). The exact unconditional test of p1 - p2 = delta, tables
  ordered by the Farrington-Manning score statistic, its p the supremum over the nuisance
  proportion (Chan & Zhang 1999); at delta = 0 it is Barnard's test with the pooled score
  statistic (scipy's `barnard_exact`), and the interval is every delta the test keeps, so the
  interval excludes 0 exactly when p < 0.05. Its size never exceeds 0.05, small counts or not.
- `stratified_exact`: two independent sets in strata (the gap over levels), the exact
  conditional test of a common odds ratio of 1: the first set's solved count summed over
  strata, its distribution the convolution of each stratum's hypergeometric (margins fixed);
  p is twice the smaller tail, and the interval of the common odds ratio inverts the same two
  tails under Fisher's noncentral hypergeometric, so it excludes 1 exactly when p < 0.05.
- `paired_power`: the exact power of a paired test (McNemar's score test, the report's; or
  the exact McNemar test) at n puzzles, discordance and difference, by enumerating the
  discordant count (binomial) and its split (binomial); `paired_mdd_exact`: the smallest
  difference with 80% power, none where even the largest possible (the discordance) falls short.
- `two_sets`, `two_sets_stratified`: the gap's entry points, by what the values are: 0/1
  outcomes the exact tests above; per-puzzle means (epochs averaged) the difference alone,
  with the reason (no normal interval covers with ~5 fresh puzzles a level).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple, cast

import numpy as np

from inspect_sparc.report.statistics.score_intervals import (
    ALPHA,
    NAN,
    POWER,
    Interval,
    is_binary,
    z_value,
)

UNCONDITIONAL = "exact unconditional (score-ordered, Chan-Zhang)"
BARNARD = "Barnard exact (pooled score)"
#: The test named where the monotone p exceeds Barnard's own (a difference beyond 0 is kept).
MONOTONE = "Barnard exact (pooled score), p monotone: the largest at 0 or beyond"
STRATIFIED = "exact conditional stratified (common odds ratio 1)"
#: Nuisance proportions on the grid of the supremum (refined around its best point).
GRID = 101
#: Differences scanned for the interval's outermost crossing, then bisected.
SCAN = 24
TOLERANCE = 1e-9
#: How near +-1 the interval's scan starts (at +-1 itself the nuisance has no room).
EDGE = 1 - 1e-7


class TestResult(NamedTuple):
    """A difference (or odds ratio), the interval that inverts the test, the test's p, its name."""

    estimate: float
    interval: Interval
    p: float
    test: str


def score_statistic(x1: Any, n1: int, x2: Any, n2: int, delta: float) -> np.ndarray:
    """Farrington-Manning score statistic of p1 - p2 = delta (vectorised over x1, x2): the
    observed difference minus delta over its standard error at the maximum-likelihood
    proportions constrained to the difference (Miettinen & Nurminen's closed form, without
    their n / (n - 1)); 0 where that error is 0. At delta = 0: the pooled z.

    Args:
        x1: the first set's solved count (an int or an array of them).
        n1: the first set's size.
        x2: the second set's solved count (broadcast against `x1`).
        n2: the second set's size.
        delta: the hypothesised difference p1 - p2, a fraction in (-1, 1).

    Returns:
        The signed statistic (positive where x1 / n1 - x2 / n2 exceeds delta), in the broadcast
        shape of `x1` and `x2` (0-d for scalars)."""
    p1, p2 = np.asarray(x1, float) / n1, np.asarray(x2, float) / n2
    theta = n2 / n1
    a = 1 + theta
    b = -(1 + theta + p1 + theta * p2 + delta * (theta + 2))
    c = delta * delta + delta * (2 * p1 + theta + 1) + p1 + theta * p2
    d = -p1 * delta * (1 + delta)
    v = b**3 / (27 * a**3) - b * c / (6 * a * a) + d / (2 * a)
    u = np.sign(v) * np.sqrt(np.maximum(b * b / (9 * a * a) - c / (3 * a), 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(u != 0, v / np.where(u != 0, u, 1.0) ** 3, 0.0)
    w = (np.pi + np.arccos(np.clip(ratio, -1.0, 1.0))) / 3
    t1 = np.clip(2 * u * np.cos(w) - b / (3 * a), 0.0, 1.0)
    t2 = np.clip(t1 - delta, 0.0, 1.0)
    variance = t1 * (1 - t1) / n1 + t2 * (1 - t2) / n2
    safe = np.where(variance > 1e-15, variance, 1.0)
    return np.where(variance > 1e-15, (p1 - p2 - delta) / np.sqrt(safe), 0.0)


def _binomial_pmf(n: int, p: np.ndarray) -> np.ndarray:
    """Binomial(n, p) probabilities of 0..n (rows) at each p (columns), from log-gamma and
    `xlogy` (no warnings at p = 0 or 1; much cheaper than a frozen distribution per call)."""
    from scipy.special import gammaln, xlog1py, xlogy

    k = np.arange(n + 1)[:, None]
    log_comb = gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
    return cast("np.ndarray", np.exp(log_comb + xlogy(k, p[None, :]) + xlog1py(n - k, -p[None, :])))


def _tail_probability(
    rejected: np.ndarray, n1: int, n2: int, delta: float, nuisance: np.ndarray
) -> np.ndarray:
    """P(table in `rejected`) at p2 = each nuisance value and p1 = p2 + delta."""
    first = _binomial_pmf(n1, np.clip(nuisance + delta, 0.0, 1.0))
    second = _binomial_pmf(n2, np.clip(nuisance, 0.0, 1.0))
    return cast("np.ndarray", np.einsum("ig,ij,jg->g", first, rejected.astype(float), second))


def unconditional_p(x1: int, n1: int, x2: int, n2: int, delta: float = 0.0) -> float:
    """p of the exact unconditional test of p1 - p2 = delta: the largest probability, over
    the nuisance p2, of a table at least as far from delta (score statistic) as the one seen.

    Args:
        x1: the first set's solved count.
        n1: the first set's size.
        x2: the second set's solved count.
        n2: the second set's size.
        delta: the hypothesised difference p1 - p2 (fraction); 0 is Barnard's test.

    Returns:
        The two-sided p (tables ordered by |score statistic|), in [0, 1]."""
    from scipy.optimize import minimize_scalar

    grid1, grid2 = np.meshgrid(np.arange(n1 + 1), np.arange(n2 + 1), indexing="ij")
    statistic = np.abs(score_statistic(grid1, n1, grid2, n2, delta))
    seen = abs(float(score_statistic(x1, n1, x2, n2, delta)))
    rejected = statistic >= seen - TOLERANCE
    low, high = max(0.0, -delta), min(1.0, 1.0 - delta)
    nuisance = np.linspace(low, high, GRID)
    values = _tail_probability(rejected, n1, n2, delta, nuisance)
    best = int(np.argmax(values))
    step = (high - low) / (GRID - 1)
    bounds = (max(low, nuisance[best] - step), min(high, nuisance[best] + step))
    refined = minimize_scalar(
        lambda q: -float(_tail_probability(rejected, n1, n2, delta, np.array([q]))[0]),
        bounds=bounds,
        method="bounded",
        options={"xatol": 1e-10},
    )
    return float(min(1.0, max(values[best], -refined.fun)))


def _outermost(keeps: Any, points: np.ndarray) -> float:
    """The kept delta farthest out along `points` (ordered from one edge of the range inward):
    the first kept point, then bisection against its rejected outer neighbour. Scanning from
    the edge finds a kept value however far from the estimate it lies (the whole range is
    bracketed), so the interval is the hull of every value the test keeps."""
    if keeps(points[0]):
        return float(np.sign(points[0]))  # kept up to the edge: the interval reaches +-1
    outside, inside = points[0], points[-1]
    for fine in (False, True):  # the grid, then its last step finely (p is jagged)
        scan = (
            outside + (inside - outside) * np.linspace(0, 1, SCAN + 1)[1:] if fine else points[1:]
        )
        for point in scan:
            if keeps(point):
                inside = point
                break
            outside = point
    for _ in range(24):
        middle = (outside + inside) / 2
        if keeps(middle):
            inside = middle
        else:
            outside = middle
    return float(inside)


def _monotone_p(tried: dict[float, float], estimate: float, delta: float) -> float:
    """The test's p at `delta` made monotone away from the estimate: the largest p of any
    difference tried at `delta` or beyond it (on the side away from the estimate). Never below
    the test's own p, so its size stays at most the test's; and it is at least 0.05 exactly
    where the hull of the kept differences reaches `delta`."""
    beyond = [p for d, p in tried.items() if (d - delta) * (delta - estimate) >= 0]
    return max(beyond, default=tried[delta])


def unconditional_difference(x1: int, n1: int, x2: int, n2: int) -> TestResult:
    """p1 - p2 of two independent proportions with the exact unconditional test (at delta = 0
    Barnard's pooled-score test) and the interval of every delta it keeps at 0.05, searched
    over the whole range from both edges. The p-function of a discrete test is not monotone in
    delta (4/86 vs 2/5 keeps +1.5 points but rejects 0), so the p shown is monotone: the
    largest p at 0 or at any difference beyond 0 (away from the estimate). It is the p of a
    valid (more conservative) test, and it is below 0.05 exactly when the interval excludes 0.

    Args:
        x1: the first set's solved count (the test puzzles of a level).
        n1: the first set's size.
        x2: the second set's solved count (the fresh puzzles).
        n2: the second set's size.

    Returns:
        The difference x1 / n1 - x2 / n2 (fraction), its 95% interval (method
        `UNCONDITIONAL`, within [-1, 1]), the monotone two-sided p and the test's name
        (`BARNARD`, or `MONOTONE` where the monotone p exceeds Barnard's own); NaN, the NaN
        interval, NaN and "" where either size is <= 0."""
    if n1 <= 0 or n2 <= 0:
        return TestResult(float("nan"), NAN, float("nan"), "")
    estimate = x1 / n1 - x2 / n2
    tried: dict[float, float] = {}

    def keeps(delta: float) -> bool:
        delta = float(delta)
        if delta not in tried:
            tried[delta] = unconditional_p(x1, n1, x2, n2, delta)
        return tried[delta] >= ALPHA

    grid = np.linspace(-EDGE, EDGE, 2 * SCAN + 1)
    grid = np.unique(np.concatenate([grid, [0.0, float(np.clip(estimate, -EDGE, EDGE))]]))
    keeps(0.0)
    low = _outermost(keeps, grid)
    high = _outermost(keeps, grid[::-1])
    p = _monotone_p(tried, estimate, 0.0)
    if p >= ALPHA:  # the test keeps 0 or a difference beyond it: so does the interval
        low, high = min(low, 0.0), max(high, 0.0)
    low, high = (0.0 if abs(v) < 1e-8 else v for v in (low, high))  # bisection's last digits
    test = MONOTONE if p > tried[0.0] * (1 + 1e-9) + 1e-15 else BARNARD
    return TestResult(estimate, Interval(low, high, UNCONDITIONAL), p, test)


class Stratum(NamedTuple):
    """An informative stratum: x1's support given its margins, the margins, and the log of
    C(n1, x1) C(n2, solved - x1) over the support (Fisher's noncentral hypergeometric is
    these weights times odds^x1, normalised)."""

    support: np.ndarray
    n1: int
    n2: int
    solved: int
    log_weights: np.ndarray


def _stratum_supports(tables: Sequence[tuple[int, int, int, int]]) -> list[Stratum]:
    """The strata (x1, n1, x2, n2) whose margins leave x1 free (the others carry no
    information on the odds ratio)."""
    from scipy.special import gammaln

    def log_comb(n: int, k: np.ndarray) -> np.ndarray:
        return cast("np.ndarray", gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1))

    out = []
    for x1, n1, x2, n2 in tables:
        if not _informative(x1, n1, x2, n2):
            continue
        solved = x1 + x2
        support = np.arange(max(0, solved - n2), min(n1, solved) + 1)
        weights = log_comb(n1, support) + log_comb(n2, solved - support)
        out.append(Stratum(support, n1, n2, solved, weights))
    return out


def _stratum_pmf(stratum: Stratum, log_odds: float = 0.0) -> np.ndarray:
    """Fisher's noncentral hypergeometric probabilities of x1 over the stratum's support."""
    logs = stratum.log_weights + stratum.support * log_odds
    pmf = np.exp(logs - logs.max())
    return cast("np.ndarray", pmf / pmf.sum())


def _convolved(strata: list[Stratum], log_odds: float = 0.0) -> tuple[np.ndarray, int]:
    """The distribution of the summed x1 over strata at a common odds ratio exp(log_odds)
    (the central hypergeometric at 0), and its smallest value."""
    total, start = np.array([1.0]), 0
    for stratum in strata:
        total = np.convolve(total, _stratum_pmf(stratum, log_odds))
        start += int(stratum.support[0])
    return total / total.sum(), start


def stratified_p(tables: Sequence[tuple[int, int, int, int]]) -> float:
    """p of the exact conditional test of a common odds ratio of 1 (see `stratified_exact`).

    Args:
        tables: per stratum (x1, n1, x2, n2): solved and size of the first set, then of the
            second.

    Returns:
        The two-sided p (twice the smaller tail, at most 1); 1.0 where no stratum is
        informative."""
    strata = _stratum_supports(tables)
    if not strata:
        return 1.0
    pmf, start = _convolved(strata)
    at = _seen(tables) - start
    return float(min(1.0, 2 * min(pmf[: at + 1].sum(), pmf[at:].sum())))


def stratified_exact(tables: Sequence[tuple[int, int, int, int]]) -> TestResult:
    """Exact conditional test of a common odds ratio of 1 over strata, each (x1, n1, x2, n2)
    (solved and size of the first set, then of the second): p twice the smaller tail of the
    summed x1 (at most 1), the conditional maximum-likelihood common odds ratio, and the
    interval of odds ratios whose tails both exceed 0.025 (it excludes 1 exactly when p <
    0.05). Strata whose margins fix x1 carry no information and are left out.

    Args:
        tables: per stratum (x1, n1, x2, n2), counts.

    Returns:
        The common odds ratio (0 or infinity where the summed x1 is at an end of its support),
        its 95% interval of odds ratios (0 or infinity at those ends), the two-sided p and
        `STRATIFIED`; NaN, the NaN interval, p 1.0 and "" where no stratum is informative."""
    from scipy.optimize import brentq

    strata = _stratum_supports(tables)
    if not strata:
        return TestResult(float("nan"), NAN, 1.0, "")
    seen = _seen(tables)

    def tails(log_odds: float) -> tuple[float, float]:
        pmf, start = _convolved(strata, log_odds)
        at = seen - start
        return float(pmf[: at + 1].sum()), float(pmf[at:].sum())

    pmf, start = _convolved(strata)
    smallest, largest = start, start + pmf.size - 1
    half = ALPHA / 2
    low = 0.0 if seen == smallest else float(np.exp(brentq(lambda t: tails(t)[1] - half, -50, 50)))
    high = (
        float("inf")
        if seen == largest
        else float(np.exp(brentq(lambda t: tails(t)[0] - half, -50, 50)))
    )
    estimate = _conditional_mle(strata, seen, smallest, largest)
    interval = Interval(low, high, "exact conditional (common odds ratio)")
    return TestResult(estimate, interval, stratified_p(tables), STRATIFIED)


def _seen(tables: Sequence[tuple[int, int, int, int]]) -> int:
    """The first set's solved count summed over the informative strata."""
    return sum(int(t[0]) for t in tables if _informative(*t))


def _informative(x1: int, n1: int, x2: int, n2: int) -> bool:
    return not (n1 == 0 or n2 == 0 or x1 + x2 in (0, n1 + n2))


def _conditional_mle(strata: list[Stratum], seen: int, smallest: int, largest: int) -> float:
    """The common odds ratio whose conditional mean of the summed x1 is the one seen (0 or
    infinity at the ends of its support)."""
    from scipy.optimize import brentq

    if seen == smallest:
        return 0.0
    if seen == largest:
        return float("inf")

    def mean_minus_seen(log_odds: float) -> float:
        pmf, start = _convolved(strata, log_odds)
        return float((np.arange(pmf.size) + start) @ pmf) - seen

    return float(np.exp(brentq(mean_minus_seen, -50, 50)))


@lru_cache(maxsize=16)
def _paired_tables(n: int, test: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (only_a, only_b) with only_a + only_b <= n that the paired test rejects at 0.05, as
    flat arrays: only_a, only_b and the log of C(d, only_a) (`score`: McNemar's
    (b - c)^2 / (b + c) above z^2; `exact`: the exact McNemar p below 0.05)."""
    from scipy.special import gammaln
    from scipy.stats import binom

    b, c = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    kept = b + c <= n
    b, c = b[kept], c[kept]
    d = b + c
    if test == "score":
        rejects = (d > 0) & ((b - c) ** 2 > z_value() ** 2 * d)
    elif test == "exact":
        p = np.minimum(1.0, 2 * binom.cdf(np.minimum(b, c), d, 0.5))
        rejects = (d > 0) & (p < ALPHA)
    else:
        raise ValueError(f"unknown paired test {test!r}: 'score' or 'exact'")
    log_split = gammaln(d + 1) - gammaln(b + 1) - gammaln(c + 1)
    return b[rejects], c[rejects], log_split[rejects]


def paired_power(n: int, discordance: float, difference: float, test: str = "score") -> float:
    """Exact power of the paired test at n puzzles, share of discordant puzzles and
    difference (|difference| <= discordance): the trinomial chance of every (only_a, only_b)
    the test rejects, the discordant count d ~ Bin(n, discordance) and only_a ~ Bin(d,
    (discordance + difference) / (2 discordance)).

    Args:
        n: the shared puzzles.
        discordance: the true share (0-1) of puzzles solved by exactly one run.
        difference: the true paired difference (fraction); its sign is ignored and it is
            capped at `discordance`.
        test: "score" (McNemar's score test, the report's) or "exact" (exact McNemar), each
            two-sided at `ALPHA` (0.05).

    Returns:
        The chance (0-1) that the test rejects a difference of 0; 0.0 for n <= 0 or no
        discordance.

    Raises:
        ValueError: for a `test` other than "score" or "exact"."""
    from scipy.special import xlog1py, xlogy

    if n <= 0 or discordance <= 0:
        return 0.0
    difference = min(abs(difference), discordance)
    b, c, log_split = _paired_tables(int(n), test)
    d = b + c
    q = (discordance + difference) / (2 * discordance)
    chance_d = _binomial_pmf(int(n), np.array([discordance]))[:, 0]
    log_chance = log_split + xlogy(b, q) + xlog1py(c, -q)
    return float((chance_d[d] * np.exp(log_chance)).sum())


@lru_cache(maxsize=4096)
def paired_mdd_exact(n: int, discordance: float, test: str = "score") -> float | None:
    """The smallest paired difference (fraction) the test finds with `POWER` (80%) at n and
    discordance, by exact power; at most the discordance (one run winning every discordant
    puzzle), and None where even that falls short: no difference reaches 80% power.

    Cached: a pure function of its arguments, and a report asks for the same few (n,
    discordance) again and again (every pair's row, its simultaneous interval's second pass,
    pairs per level, the power table and text), each a root search of ~9 exact powers.

    Args:
        n: the shared puzzles.
        discordance: the share (0-1) of puzzles solved by exactly one run.
        test: "score" (McNemar's score test, the report's) or "exact" (exact McNemar),
            two-sided at 0.05.

    Returns:
        The difference as a fraction in [0, discordance] (0.0 where the power at a difference
        of 0 already reaches 80%); None for n <= 0, no discordance, or 80% out of reach."""
    from scipy.optimize import brentq

    if n <= 0 or discordance <= 0 or paired_power(n, discordance, discordance, test) < POWER:
        return None
    if paired_power(n, discordance, 0.0, test) >= POWER:
        return 0.0
    return float(
        brentq(lambda t: paired_power(n, discordance, t, test) - POWER, 0.0, discordance, xtol=1e-7)
    )


STRATIFIED_GAP = "exact conditional common odds ratio, as the re-weighted difference"


def stratified_gap(tables: Sequence[tuple[int, int, int, int]]) -> TestResult:
    """The gap over strata (levels), each (x1, n1, x2, n2), with the first set's stratum mix:
    the re-weighted difference sum_h w_h (x1/n1 - x2/n2), w_h = n1_h / sum n1, the exact
    stratified p (`stratified_exact`), and the interval of the common odds ratio expressed as
    the re-weighted difference each odds ratio implies given the strata's margins (each
    stratum's expected x1 under Fisher's noncentral hypergeometric): 0 at an odds ratio of 1
    and rising with it, so the interval excludes 0 exactly when p < 0.05.

    Args:
        tables: per stratum (x1, n1, x2, n2): solved and size of the test set, then of the
            fresh set; strata empty on either side are left out.

    Returns:
        The re-weighted difference (fraction), its 95% interval (method `STRATIFIED_GAP`, or
        `POOLED_GAP` where no stratum is informative), the two-sided p and the test's name;
        NaN, the NaN interval, NaN and "" where no stratum has both sides."""
    kept = [t for t in tables if t[1] > 0 and t[3] > 0]
    if not kept:
        return TestResult(float("nan"), NAN, float("nan"), "")
    sizes = np.array([t[1] for t in kept], dtype=float)
    weights = sizes / sizes.sum()
    estimate = float(
        sum(w * (x1 / n1 - x2 / n2) for w, (x1, n1, x2, n2) in zip(weights, kept, strict=True))
    )
    result = stratified_exact(kept)

    def implied(odds: float) -> float:
        total = 0.0
        for w, (x1, n1, x2, n2) in zip(weights, kept, strict=True):
            if not _informative(x1, n1, x2, n2):
                continue  # the margins fix the table: a difference of 0 (none or all solved)
            [stratum] = _stratum_supports([(x1, n1, x2, n2)])
            if odds == 0 or odds == float("inf"):
                first = float(stratum.support[0] if odds == 0 else stratum.support[-1])
            else:
                first = float(stratum.support @ _stratum_pmf(stratum, float(np.log(odds))))
            total += w * (first / n1 - (x1 + x2 - first) / n2)
        return total

    if result.interval.method == "":  # no informative stratum: the pooled exact test
        return _pooled_gap(kept, estimate)
    ends = float(implied(result.interval.low)), float(implied(result.interval.high))
    interval = Interval(*ends, STRATIFIED_GAP)
    return TestResult(estimate, interval, result.p, STRATIFIED)


POOLED_GAP = "exact unconditional on the pooled counts (no level informative)"


def _pooled_gap(tables: Sequence[tuple[int, int, int, int]], estimate: float) -> TestResult:
    """The overall gap where every level's margins fix its table (each level all solved or all
    failed on both sides, so the conditional test has nothing to condition on): the exact
    unconditional test and its interval on the counts pooled over levels, the fresh side's
    solved count re-weighted to the test mix (exactly its own count where every level is all
    failed, or all solved), so that a different level mix makes no gap; widened to hold the
    re-weighted estimate (0: every level's own gap is 0)."""
    x1, n1, n2 = (sum(int(t[i]) for t in tables) for i in (0, 1, 3))
    mixed = sum(t[1] / n1 * t[2] / t[3] for t in tables)
    pooled = unconditional_difference(x1, n1, round(mixed * n2), n2)
    low = min(pooled.interval.low, estimate)
    high = max(pooled.interval.high, estimate)
    return TestResult(estimate, Interval(low, high, POOLED_GAP), pooled.p, pooled.test)


#: Why a gap of per-puzzle means (epochs averaged) has no interval: Welch's t and the normal
#: stratified interval cover 56% and 87% at 86 test against 5 fresh puzzles with rare
#: solves (seeded simulation), and still 88% with 30 fresh ones.
NO_TEST_FOR_MEANS = (
    "none: per-puzzle means (epochs averaged) have no interval that keeps its coverage with "
    "a few fresh puzzles; epochs reduced by max (or one epoch) give 0/1 outcomes and the "
    "exact test"
)


def two_sets(first: Sequence[float], second: Sequence[float]) -> TestResult:
    """Two independent sets of per-puzzle values (a level of the fresh gap): 0/1 outcomes get
    the exact unconditional test and its interval (`unconditional_difference`); per-puzzle
    means (epochs averaged) the difference alone, with the reason (`NO_TEST_FOR_MEANS`).

    Args:
        first: the first set's value per puzzle (the test puzzles).
        second: the second set's value per puzzle (the fresh ones).

    Returns:
        The difference of means first - second (fraction), its interval, p and test's name;
        for means the NaN interval, NaN and `NO_TEST_FOR_MEANS`; NaN, the NaN interval, NaN
        and "" where either set is empty."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if a.size == 0 or b.size == 0:
        return TestResult(float("nan"), NAN, float("nan"), "")
    if is_binary(a, b):
        return unconditional_difference(int(a.sum()), a.size, int(b.sum()), b.size)
    return TestResult(float(a.mean() - b.mean()), NAN, float("nan"), NO_TEST_FOR_MEANS)


def two_sets_stratified(
    first: Sequence[Sequence[float]], second: Sequence[Sequence[float]]
) -> TestResult:
    """Two independent sets in strata (levels), re-weighted to the first set's stratum mix:
    0/1 outcomes get `stratified_gap` (exact); per-puzzle means the re-weighted difference
    alone, with the reason. Strata empty on either side are left out.

    Args:
        first: per stratum, the first set's value per puzzle (the test puzzles).
        second: per stratum, the second set's values (the fresh ones), strata in the order of
            `first`.

    Returns:
        The re-weighted difference (fraction), its interval, p and test's name; for means the
        NaN interval, NaN and `NO_TEST_FOR_MEANS`; NaN, the NaN interval, NaN and "" where no
        stratum has values on both sides."""
    pairs = [
        (np.asarray(a, dtype=float), np.asarray(b, dtype=float))
        for a, b in zip(first, second, strict=True)
        if len(a) and len(b)
    ]
    if not pairs:
        return TestResult(float("nan"), NAN, float("nan"), "")
    if all(is_binary(a, b) for a, b in pairs):
        tables = [(int(a.sum()), a.size, int(b.sum()), b.size) for a, b in pairs]
        return stratified_gap(tables)
    weights = np.array([a.size for a, _ in pairs], dtype=float)
    weights /= weights.sum()
    estimate = sum(w * (a.mean() - b.mean()) for w, (a, b) in zip(weights, pairs, strict=True))
    return TestResult(float(estimate), NAN, float("nan"), NO_TEST_FOR_MEANS)
