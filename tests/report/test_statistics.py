"""The report's statistics against statsmodels (an independent oracle, tests only) and
hand-computed values: Wilson at 0/n, n/n and inside, exact McNemar, a seeded bootstrap."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_sparc.report import stats

mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar
proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint


@pytest.mark.parametrize(("k", "n"), [(0, 25), (25, 25), (7, 25), (1, 89), (79, 500)])
def test_wilson_equals_statsmodels(k, n):
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    interval = stats.wilson(k, n)
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)


def test_wilson_at_the_edges_is_not_a_point():
    # the figures: 0/25 -> 0-13.3, 25/25 -> 86.7-100, 7/25 -> 14.3-47.6
    assert [round(100 * v, 1) for v in stats.wilson(0, 25)[:2]] == [0.0, 13.3]
    assert [round(100 * v, 1) for v in stats.wilson(25, 25)[:2]] == [86.7, 100.0]
    assert [round(100 * v, 1) for v in stats.wilson(7, 25)[:2]] == [14.3, 47.6]


@pytest.mark.parametrize(("b", "c"), [(3, 9), (0, 5), (12, 12), (1, 0)])
def test_exact_mcnemar_equals_statsmodels(b, c):
    table = [[40, b], [c, 400]]
    assert stats.mcnemar_exact(b, c) == pytest.approx(mcnemar(table, exact=True).pvalue)


def test_mcnemar_on_a_known_table_by_hand():
    # 2 discordant pairs, both one way: p = 2 x (1/2)^2 = 0.5
    assert stats.mcnemar_exact(2, 0) == pytest.approx(0.5)
    assert stats.mcnemar_exact(0, 0) == 1.0


def test_bootstrap_is_seeded_reproducible_and_holds_the_mean():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 3, size=200) / 2  # per-puzzle means of 2 epochs
    first, again = stats.bootstrap_mean(values), stats.bootstrap_mean(values)
    assert first == again
    assert first.low < values.mean() < first.high
    other = stats.bootstrap_mean(values, seed=1)
    assert abs(other.low - first.low) < 0.02 and abs(other.high - first.high) < 0.02
    # roughly the normal-theory width for this n (a sanity oracle, not an equality)
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert (first.high - first.low) / 2 == pytest.approx(half, rel=0.15)


def test_rate_interval_uses_wilson_unless_a_puzzles_epochs_disagree():
    assert stats.rate_interval([1, 0, 0, 0], epochs=1).method == stats.WILSON
    assert stats.rate_interval([1, 0.5, 0, 0], epochs=2).method == stats.BOOTSTRAP
    # epochs that agree: each puzzle is solved or not, and 0 of 3 puzzles is not "0 to 0"
    consistent = stats.rate_interval([0.0, 0.0, 0.0], epochs=2)
    assert consistent.method == stats.WILSON and consistent.high > 0.5


def test_stratified_difference_reweights_to_the_first_sets_mix():
    first = [[1, 1, 0, 0], [0] * 8]  # 4 level-1 puzzles at 50%, 8 level-2 at 0%
    second = [[1] * 10, [1, 0]]  # fresh: 100% and 50%, in another mix
    a, b, interval = stats.stratified_difference(first, second)
    assert a == pytest.approx(4 / 12 * 0.5)
    assert b == pytest.approx(4 / 12 * 1.0 + 8 / 12 * 0.5)  # re-weighted, not 11/12
    assert interval.low < a - b < interval.high


def test_p_values_keep_three_significant_digits():
    assert stats.significant_digits(0.000123456) == 0.000123
    assert stats.significant_digits(0.5) == 0.5
    assert stats.significant_digits(0.0312499) == 0.0312
