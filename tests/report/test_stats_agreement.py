"""The fresh gap's exact tests and the intervals beside them never disagree about 0, the
interval search reaches the edges of the range, and the overall row has an interval where no
level is informative: checked by enumerating every table and by seeded simulation."""

import numpy as np
import pytest
from scipy.stats import binom

from inspect_sparc.report.statistics import exact


def all_tables(n1, n2):
    return [(x1, x2) for x1 in range(n1 + 1) for x2 in range(n2 + 1)]


def chance(n1, n2, p1, p2):
    return np.outer(binom.pmf(np.arange(n1 + 1), n1, p1), binom.pmf(np.arange(n2 + 1), n2, p2))


def test_the_issues_level_no_longer_holds_0_beside_p_below_005():
    # issue: 4/86 vs 2/5 printed p = 0.022 beside -73.5 to +1.5
    result = exact.unconditional_difference(4, 86, 2, 5)
    assert (result.interval.low > 0 or result.interval.high < 0) == (result.p < 0.05)
    assert result.p >= exact.unconditional_p(4, 86, 2, 5, 0.0)


@pytest.mark.parametrize(("n1", "n2"), [(10, 4), pytest.param(20, 5, marks=pytest.mark.slow)])
def test_every_table_agrees_and_the_shown_p_keeps_its_size(n1, n2):
    # every table: the interval excludes 0 exactly when the p shown is below 0.05, the p shown
    # is never below the test's own (monotone, so more conservative), and its size, by exact
    # enumeration over the common rate, stays at most 0.05
    rejects = np.zeros((n1 + 1, n2 + 1), bool)
    for x1, x2 in all_tables(n1, n2):
        result = exact.unconditional_difference(x1, n1, x2, n2)
        low, high = result.interval.low, result.interval.high
        assert low <= result.estimate <= high
        assert (low > 0 or high < 0) == (result.p < 0.05), (x1, x2)
        assert result.p >= exact.unconditional_p(x1, n1, x2, n2, 0.0) - 1e-12
        rejects[x1, x2] = result.p < 0.05
    sizes = [float(chance(n1, n2, p, p)[rejects].sum()) for p in np.linspace(0.01, 0.99, 50)]
    assert 0.005 < max(sizes) <= 0.05


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2"), [(0, 20, 20, 20), (20, 20, 0, 20), (0, 20, 5, 5)]
)
def test_the_interval_holds_every_difference_the_test_keeps_up_to_the_edges(x1, n1, x2, n2):
    # a fine grid over the whole range: each difference the test keeps lies in the interval
    result = exact.unconditional_difference(x1, n1, x2, n2)
    for delta in np.linspace(-1 + 1e-6, 1 - 1e-6, 201):
        if exact.unconditional_p(x1, n1, x2, n2, float(delta)) >= 0.05:
            assert result.interval.low - 1e-9 <= delta <= result.interval.high + 1e-9, delta
    assert min(abs(result.interval.low), abs(result.interval.high)) < 1  # not the whole range
    assert max(abs(result.interval.low), abs(result.interval.high)) == 1.0  # reaches the edge


def test_overall_gap_with_no_informative_level_has_the_pooled_exact_interval():
    tables = [(0, 86, 0, 5), (0, 90, 0, 5), (0, 100, 0, 5), (0, 100, 0, 5), (0, 89, 0, 5)]
    result = exact.stratified_gap(tables)
    pooled = exact.unconditional_difference(0, 465, 0, 25)
    assert result.interval.method == exact.POOLED_GAP
    assert (result.interval.low, result.interval.high) == pytest.approx(pooled.interval[:2])
    assert result.interval.low < 0 < result.interval.high and result.p >= 0.05


def test_overall_gap_interval_covers_where_levels_are_often_uninformative():
    # rare solves on both sides (seeded simulation): most draws leave every level all failed,
    # the rest go to the conditional test; either way the interval covers the re-weighted gap
    sizes, fresh = np.array([20, 20, 20]), np.array([4, 4, 4])
    p1, p2 = np.array([0.02, 0.01, 0.0]), np.array([0.1, 0.05, 0.0])
    truth = float((sizes / sizes.sum()) @ (p1 - p2))
    rng = np.random.default_rng(5)
    draws, covered, pooled = 200, 0, 0
    for _ in range(draws):
        x1, x2 = rng.binomial(sizes, p1), rng.binomial(fresh, p2)
        tables = [(int(a), 20, int(b), 4) for a, b in zip(x1, x2, strict=True)]
        result = exact.stratified_gap(tables)
        pooled += result.interval.method == exact.POOLED_GAP
        assert (result.interval.low > 0 or result.interval.high < 0) == (result.p < 0.05)
        covered += bool(result.interval.low <= truth <= result.interval.high)
    assert pooled > draws / 4
    assert covered / draws >= 0.93
