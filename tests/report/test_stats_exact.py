"""The exact tests of small counts (a level of the fresh gap, the gap over levels) and exact
power, against scipy's and statsmodels' own implementations, brute-force enumeration, and
the issue's figures."""

from __future__ import annotations

import numpy as np
import pytest
from oracles import brute_force_stratified_p, constrained_maximum

from inspect_sparc.report.statistics import exact
from inspect_sparc.report.statistics import score_intervals as stats

TABLES = [(9, 86, 2, 5), (5, 5, 2, 5), (0, 5, 5, 5), (40, 100, 1, 5), (3, 20, 4, 6), (12, 89, 0, 5)]


@pytest.mark.parametrize(("x1", "n1", "x2", "n2"), TABLES)
def test_unconditional_p_at_zero_is_scipys_barnard(x1, n1, x2, n2):
    from scipy.stats import barnard_exact

    table = [[x1, x2], [n1 - x1, n2 - x2]]  # scipy: one column per set
    expected = barnard_exact(table, pooled=True, n=64).pvalue
    assert exact.unconditional_p(x1, n1, x2, n2) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("delta", [-0.6, -0.2, 0.15, 0.4])
@pytest.mark.parametrize(("x1", "n1", "x2", "n2"), TABLES[:4])
def test_score_statistic_is_the_constrained_likelihood_score(x1, n1, x2, n2, delta):
    low, high = max(0.0, -delta), min(1.0, 1.0 - delta)

    def minus_log_likelihood(p2):
        p1 = p2 + delta
        terms = [(x1, p1), (n1 - x1, 1 - p1), (x2, p2), (n2 - x2, 1 - p2)]
        return -sum(k * np.log(p) for k, p in terms if k)

    p2 = constrained_maximum(minus_log_likelihood, low, high)
    p1 = p2 + delta
    expected = (x1 / n1 - x2 / n2 - delta) / np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    assert float(exact.score_statistic(x1, n1, x2, n2, delta)) == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize(("x1", "n1", "x2", "n2"), TABLES)
def test_unconditional_interval_is_the_set_the_test_keeps(x1, n1, x2, n2):
    result = exact.unconditional_difference(x1, n1, x2, n2)
    low, high = result.interval.low, result.interval.high
    assert low <= result.estimate <= high and high - low > 0
    assert (low > 0 or high < 0) == (result.p < 0.05)
    for end, outward in ((low, -1e-4), (high, 1e-4)):
        if abs(end) < 1 - 1e-3:
            assert exact.unconditional_p(x1, n1, x2, n2, end - outward) >= 0.05
            assert exact.unconditional_p(x1, n1, x2, n2, end + outward) < 0.05


def test_the_issues_level_1_no_longer_pairs_an_interval_with_a_p_that_disagrees():
    # issue: 9/86 vs 2/5 printed -66.8 to -0.1 beside p = 0.0502
    result = exact.unconditional_difference(9, 86, 2, 5)
    assert result.p > 0.05 and result.interval.low < 0 < result.interval.high


def test_stratified_exact_on_one_stratum_is_scipys_conditional_odds_ratio_and_fisher():
    from scipy.stats import fisher_exact
    from scipy.stats.contingency import odds_ratio

    table = [[9, 77], [2, 3]]
    result = exact.stratified_exact([(9, 86, 2, 5)])
    expected = odds_ratio(table, kind="conditional")
    ci = expected.confidence_interval(0.95)
    assert result.estimate == pytest.approx(expected.statistic, rel=1e-6)
    assert (result.interval.low, result.interval.high) == pytest.approx((ci.low, ci.high), rel=1e-6)
    tails = [fisher_exact(table, alternative=a).pvalue for a in ("less", "greater")]
    assert result.p == pytest.approx(min(1.0, 2 * min(tails)))


@pytest.mark.parametrize(
    "tables",
    [
        [(9, 20, 2, 5), (12, 20, 1, 5), (15, 20, 3, 5)],
        [(1, 6, 3, 5), (0, 7, 2, 4), (5, 9, 1, 6)],
        [(4, 10, 0, 5), (0, 10, 0, 5)],  # a stratum with nothing solved carries nothing
    ],
)
def test_stratified_exact_is_the_enumerated_conditional_distribution(tables):
    result = exact.stratified_exact(tables)
    assert result.p == pytest.approx(brute_force_stratified_p(tables), rel=1e-9)
    assert (result.interval.low > 1 or result.interval.high < 1) == (result.p < 0.05)


def test_exact_power_of_the_issues_figures():
    # the printed MDD (Connor without its -delta^2 term) has exact power 0.77-0.78 at n = 500
    for discordance in (0.05, 0.1, 0.2, 0.3):
        old = stats.paired_mdd(500, discordance)
        assert 0.765 < exact.paired_power(500, discordance, old, "exact") < 0.79
    # level 5 (89 puzzles) at 5% discordance: even one run winning every discordant puzzle
    # gives the exact test 0.29 power, so no difference reaches 80%
    best = exact.paired_power(89, 0.05, 0.05, "exact")
    assert round(best, 2) == 0.29
    assert exact.paired_mdd_exact(89, 0.05, "exact") is None
    assert exact.paired_mdd_exact(89, 0.05) is None


@pytest.mark.parametrize(("n", "discordance"), [(25, 0.4), (89, 0.3), (500, 0.05), (500, 0.3)])
@pytest.mark.parametrize("test", ["score", "exact"])
def test_mdd_has_80_percent_power_and_never_exceeds_the_discordance(n, discordance, test):
    mdd = exact.paired_mdd_exact(n, discordance, test)
    assert mdd is not None and 0 < mdd <= discordance
    assert exact.paired_power(n, discordance, mdd, test) == pytest.approx(0.80, abs=1e-4)
    assert exact.paired_power(n, discordance, 0.95 * mdd, test) < 0.80


def test_cached_mdd_is_the_search_itself_and_is_not_searched_twice(monkeypatch):
    # the cache must return exactly what the uncached root search returns, and a repeated
    # (n, discordance, test) must not search again (what the report relies on for its speed)
    for n, discordance, test in [(500, 0.15, "score"), (89, 0.3, "exact"), (89, 0.05, "score")]:
        assert exact.paired_mdd_exact(n, discordance, test) == exact.paired_mdd_exact.__wrapped__(
            n, discordance, test
        )
    exact.paired_mdd_exact(123, 0.2)

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(exact, "paired_power", no_search)
    assert exact.paired_mdd_exact(123, 0.2) is not None


def test_power_is_the_enumerated_chance_of_rejecting():
    # oracle: statsmodels' exact McNemar p on every (only_a, only_b) with its trinomial chance
    from scipy.stats import multinomial

    mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar
    n, discordance, difference = 30, 0.3, 0.2
    p12, p21 = (discordance + difference) / 2, (discordance - difference) / 2
    power = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if b + c and mcnemar([[0, b], [c, n - b - c]], exact=True).pvalue < 0.05:
                power += multinomial.pmf([b, c, n - b - c], n, [p12, p21, 1 - discordance])
    assert exact.paired_power(n, discordance, difference, "exact") == pytest.approx(power)


def test_stratified_gap_on_one_stratum_maps_scipys_odds_ratio_interval_to_points():
    from scipy.stats import nchypergeom_fisher
    from scipy.stats.contingency import odds_ratio

    x1, n1, x2, n2 = 9, 86, 2, 5
    ci = odds_ratio([[x1, n1 - x1], [x2, n2 - x2]], kind="conditional").confidence_interval()

    def gap_at(odds):
        first = nchypergeom_fisher.mean(n1 + n2, n1, x1 + x2, odds)
        return first / n1 - (x1 + x2 - first) / n2

    result = exact.stratified_gap([(x1, n1, x2, n2)])
    assert result.estimate == pytest.approx(x1 / n1 - x2 / n2)
    assert (result.interval.low, result.interval.high) == pytest.approx(
        (gap_at(ci.low), gap_at(ci.high)), rel=1e-6
    )


def test_stratified_gap_interval_excludes_zero_exactly_when_its_p_is_below_005():
    rng = np.random.default_rng(4)
    sizes = [86, 90, 100, 100, 89]
    for _ in range(150):
        rates = rng.uniform(0.02, 0.9, 5)
        fresh = np.clip(rates - rng.uniform(-0.2, 0.5), 0.0, 1.0)
        tables = [
            (int(rng.binomial(n, r)), n, int(rng.binomial(5, f)), 5)
            for n, r, f in zip(sizes, rates, fresh, strict=True)
        ]
        result = exact.stratified_gap(tables)
        low, high = result.interval.low, result.interval.high
        assert low <= high
        assert (low > 0 or high < 0) == (result.p < 0.05), tables
        weights = np.array(sizes) / sum(sizes)
        assert result.estimate == pytest.approx(
            sum(w * (a / n - b / m) for w, (a, n, b, m) in zip(weights, tables, strict=True))
        )


def test_two_sets_test_outcomes_exactly_and_leave_means_untested_with_the_reason():
    outcomes = exact.two_sets([1.0] * 9 + [0.0] * 77, [1.0, 1.0, 0.0, 0.0, 0.0])
    assert outcomes == exact.unconditional_difference(9, 86, 2, 5)
    means = exact.two_sets([1.0, 0.5, 0.0, 0.0], [0.5, 0.0])  # epochs averaged
    assert means.estimate == pytest.approx(0.375 - 0.25)
    assert np.isnan(means.interval.low) and np.isnan(means.p)
    assert means.test.startswith("none: ")
    levels = exact.two_sets_stratified(
        [[1.0] * 9 + [0.0] * 77, [1.0] * 20 + [0.0] * 70], [[1.0, 1.0, 0.0, 0.0, 0.0], [0.0] * 5]
    )
    assert levels == exact.stratified_gap([(9, 86, 2, 5), (20, 90, 0, 5)])
    mixed = exact.two_sets_stratified([[1.0, 0.0], [0.5, 1.0]], [[0.0, 0.0], [1.0, 0.0]])
    assert mixed.estimate == pytest.approx(0.5 * 0.5 + 0.5 * 0.25)
    assert mixed.test.startswith("none: ")
