"""The report's statistics against statsmodels and scipy (independent oracles, tests only),
the issue's figures, and the edges: no interval over a finite n has zero width."""

from __future__ import annotations

import numpy as np
import pytest
from oracles import tango_score

from inspect_sparc.report.statistics import score_intervals as stats

mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar
StratifiedTable = pytest.importorskip("statsmodels.stats.contingency_tables").StratifiedTable
sm_proportion = pytest.importorskip("statsmodels.stats.proportion")
multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
proportion_confint = sm_proportion.proportion_confint


@pytest.mark.parametrize(("k", "n"), [(0, 25), (25, 25), (7, 25), (1, 89), (79, 500), (2.5, 5)])
def test_wilson_equals_statsmodels(k, n):
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    interval = stats.wilson(k, n)
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)


def test_wilson_figures_of_the_review():
    def pct(interval):
        return [round(100 * v, 1) for v in interval[:2]]

    assert pct(stats.wilson(15, 25)) == [40.7, 76.6]
    assert pct(stats.wilson(79, 500)) == [12.9, 19.3]
    assert pct(stats.wilson(0, 25)) == [0.0, 13.3]
    assert pct(stats.wilson(14, 25)) == [37.1, 73.3]  # the max-reduced score of the issue


def test_epoch_means_get_wilson_with_n_puzzles_not_a_narrower_bootstrap():
    agree = stats.rate_interval([1.0] * 24 + [0.0])
    one_off = stats.rate_interval([1.0] * 23 + [0.5, 0.0])
    assert one_off.method == stats.WILSON
    low, high = proportion_confint(23.5, 25, method="wilson")
    assert (one_off.low, one_off.high) == pytest.approx((low, high))
    assert one_off.high - one_off.low > 0.5 * (agree.high - agree.low)  # no collapse
    half = stats.rate_interval([0.5])  # one puzzle solved in 1 of 2 epochs: not [50, 50]
    assert half.high - half.low > 0.5


@pytest.mark.parametrize(("b", "c"), [(3, 9), (0, 5), (12, 12), (1, 0)])
def test_exact_mcnemar_equals_statsmodels(b, c):
    table = [[40, b], [c, 400]]
    assert stats.mcnemar_exact(b, c) == pytest.approx(mcnemar(table, exact=True).pvalue)


@pytest.mark.parametrize(
    ("b", "c", "n"), [(9, 2, 25), (9, 2, 500), (1, 0, 1), (0, 0, 30), (5, 5, 40)]
)
def test_paired_interval_inverts_the_exact_test(b, c, n):
    interval = stats.paired_exact(b, c, n)
    assert interval.high - interval.low > 0
    p = stats.mcnemar_exact(b, c)
    assert (interval.low > 0 or interval.high < 0) == (p < 0.05)
    if b + c:
        low, high = proportion_confint(b, b + c, method="beta")
        scale = (b + c) / n
        assert (interval.low, interval.high) == pytest.approx(
            (scale * (2 * low - 1), scale * (2 * high - 1))
        )


def test_paired_interval_figures_of_the_review():
    interval = stats.paired_exact(9, 2, 25)
    assert [round(100 * v, 1) for v in interval[:2]] == [-1.6, 42.0]
    assert stats.mcnemar_exact(9, 2) == pytest.approx(0.0654, abs=1e-4)


@pytest.mark.parametrize(("k1", "n1", "k2", "n2"), [(5, 5, 2, 5), (0, 5, 5, 5), (40, 100, 55, 120)])
def test_newcombe_equals_statsmodels(k1, n1, k2, n2):
    low, high = sm_proportion.confint_proportions_2indep(
        k1, n1, k2, n2, method="newcomb", compare="diff"
    )
    interval = stats.newcombe(k1, n1, k2, n2)
    assert (interval.low, interval.high) == pytest.approx((low, high))
    assert interval.high - interval.low > 0


def test_newcombe_figure_of_the_review():
    assert [round(100 * v, 1) for v in stats.newcombe(5, 5, 2, 5)[:2]] == [3.0, 88.2]


def test_cmh_equals_statsmodels():
    first = [[1, 1, 0, 0], [1, 0, 0, 0, 0, 0], [1, 1, 1]]
    second = [[1, 0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 1, 1]]
    tables = [
        [[sum(a), len(a) - sum(a)], [sum(b), len(b) - sum(b)]]
        for a, b in zip(first, second, strict=True)
    ]
    expected = StratifiedTable(np.array(tables, dtype=float).transpose(1, 2, 0))
    result = expected.test_null_odds(correction=False)
    statistic, p = stats.cmh(first, second)
    assert (statistic, p) == pytest.approx((result.statistic, result.pvalue))


def test_holm_equals_statsmodels():
    p = [0.01, 0.04, 0.03, 0.5, 0.001, 0.2]
    assert stats.holm(p) == pytest.approx(list(multipletests(p, method="holm")[1]))
    assert np.isnan(stats.holm([0.01, float("nan")])[1])


def test_minimum_detectable_difference_figures_of_the_review():
    # paired, 500 puzzles: ~2.8-6.9 points by discordance; level 5 alone: 6.6-16
    assert round(100 * stats.paired_mdd(500, 0.05), 1) == 2.8
    assert round(100 * stats.paired_mdd(500, 0.30), 1) == 6.9
    assert round(100 * stats.paired_mdd(89, 0.05), 1) == 6.6
    assert 16 <= 100 * stats.paired_mdd(89, 0.30) < 17


def test_stratified_difference_reweights_to_the_first_sets_mix():
    first = [[1, 1, 0, 0], [0] * 8]  # 4 level-1 puzzles at 50%, 8 level-2 at 0%
    second = [[1] * 10, [1, 0]]  # fresh: 100% and 50%, in another mix
    a, b, interval = stats.stratified_difference(first, second)
    assert a == pytest.approx(4 / 12 * 0.5)
    assert b == pytest.approx(4 / 12 * 1.0 + 8 / 12 * 0.5)  # re-weighted, not 11/12
    assert interval.low < a - b < interval.high
    # equal weights per puzzle on the first side: Kish's n is its size
    assert stats.kish_n([1 / 12] * 12) == pytest.approx(12)


def test_ratio_bootstrap_is_seeded_and_resamples_pairs():
    rng = np.random.default_rng(0)
    tokens, solved = rng.integers(100, 500, 200), rng.integers(0, 2, 200)
    first, again = stats.bootstrap_ratio(tokens, solved), stats.bootstrap_ratio(tokens, solved)
    assert first == again
    assert first.low < tokens.sum() / solved.sum() < first.high


def test_variance_parts_split_within_and_between():
    # every puzzle's epochs agree: no within-puzzle variance
    between, within = stats.variance_parts([[1, 1], [0, 0], [1, 1], [0, 0]])
    assert within == 0 and between > 0
    # puzzles alike on average, epochs disagree: the variance is within puzzles
    between, within = stats.variance_parts([[1, 0], [0, 1], [1, 0], [0, 1]])
    assert within > 0 and between == 0


def test_p_values_keep_three_significant_digits():
    assert stats.significant_digits(0.000123456) == 0.000123
    assert stats.significant_digits(0.5) == 0.5
    assert stats.significant_digits(0.0312499) == 0.0312


def published_outcomes(model: str, setup: str) -> tuple[np.ndarray, np.ndarray]:
    """0/1 outcomes that reproduce a published AlgoPuzzleVQA row (100 instances per type)."""
    from inspect_sparc.report.published import published

    rows = published("algopuzzlevqa")
    rows = rows[(rows["model"] == model) & (rows["setup"] == setup) & (rows["puzzle"] != "average")]
    hits = [int(round(a)) for a in rows["accuracy"]]
    outcomes = np.concatenate([[1.0] * h + [0.0] * (100 - h) for h in hits])
    return outcomes, np.repeat(rows["puzzle"].to_numpy(), 100)


@pytest.mark.parametrize(("model", "setup"), [("GPT-4V", "CoT"), ("GPT-4V", "eCoT")])
def test_cluster_se_equals_statsmodels_cluster_robust_ols(model, setup):
    sm = pytest.importorskip("statsmodels.api")
    y, types = published_outcomes(model, setup)
    codes = np.unique(types, return_inverse=True)[1]
    fit = sm.OLS(y, np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": codes})
    assert stats.cluster_se(y, types) == pytest.approx(float(fit.bse[0]), rel=1e-9)


def test_algopuzzlevqa_interval_is_clustered_by_type_as_the_issue_measures():
    sm = pytest.importorskip("statsmodels.api")
    y, types = published_outcomes("GPT-4V", "CoT")
    codes = np.unique(types, return_inverse=True)[1]
    se = float(
        sm.OLS(y, np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": codes}).bse[0]
    )
    p = y.mean()
    deff = se**2 / (p * (1 - p) / y.size)
    assert deff == pytest.approx(6.5, abs=0.1)
    low, high = proportion_confint(p * y.size / deff, y.size / deff, method="wilson")
    interval = stats.clustered_rate(y, types)
    assert (interval.low, interval.high) == pytest.approx((low, high))
    plain = stats.wilson(y.sum(), y.size)
    assert round(100 * (plain.high - plain.low) / 2, 1) == 2.1
    assert round(100 * (interval.high - interval.low) / 2, 1) == 5.4


def test_clustered_interval_never_narrower_than_wilson_nor_zero_wide():
    same = stats.clustered_rate([1.0, 0.0] * 50, ["a", "a", "b", "b"] * 25)  # alike: deff < 1
    low, high = proportion_confint(50, 100, method="wilson")
    assert (same.low, same.high) == pytest.approx((low, high))
    one = stats.clustered_rate([1.0] * 10, ["a"] * 10)  # one cluster, all solved
    assert one.high - one.low > 0


@pytest.mark.parametrize("n", [6, 10, 25, 89, 500])
def test_median_interval_is_the_binomial_order_statistic_interval(n):
    from scipy.stats import binom

    values = np.random.default_rng(n).permutation(np.arange(1, n + 1) / 7)
    k = max(j for j in range(1, n // 2 + 1) if binom.cdf(j - 1, n, 0.5) <= 0.025)
    ordered = np.sort(values)
    interval = stats.median_interval(values)
    assert (interval.low, interval.high) == pytest.approx((ordered[k - 1], ordered[n - k]))
    assert interval.low < np.median(values) < interval.high


@pytest.mark.parametrize("values", [[1.0] * 30, [1.2] * 9 + [2.0], [1.0, 2.0, 3.0]])
def test_median_interval_is_never_zero_wide_but_absent_with_its_reason(values):
    interval = stats.median_interval(values)
    assert np.isnan(interval.low) and np.isnan(interval.high)
    assert interval.method.startswith("none: ")


def episodes(seed: int, puzzles: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Per puzzle (events, steps) of episodes whose steps are not independent: each puzzle
    has its own illegal-move propensity, and its own number of steps."""
    rng = np.random.default_rng(seed)
    steps = rng.integers(1, 60, size=puzzles)
    events = rng.binomial(steps, rng.beta(1, 4, size=puzzles))
    return events.astype(float), steps.astype(float)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pooled_step_rate_is_wilson_at_the_cluster_robust_design_effect(seed):
    # the oracle: every step a 0/1 outcome, its puzzle the cluster; statsmodels' OLS with
    # cluster-robust errors gives the variance, Wilson at n / design effect the interval
    sm = pytest.importorskip("statsmodels.api")
    events, steps = episodes(seed)
    y = np.concatenate(
        [[1.0] * int(e) + [0.0] * int(s - e) for e, s in zip(events, steps, strict=True)]
    )
    groups = np.repeat(np.arange(steps.size), steps.astype(int))
    fit = sm.OLS(y, np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    p = y.mean()
    deff = max(1.0, float(fit.bse[0]) ** 2 / (p * (1 - p) / y.size))
    assert deff > 1.5  # steps within a puzzle are alike: the interval must widen
    low, high = proportion_confint(p * y.size / deff, y.size / deff, method="wilson")
    interval = stats.clustered_ratio(events, steps)
    assert (interval.low, interval.high) == pytest.approx((low, high), rel=1e-9)
    plain = proportion_confint(events.sum(), steps.sum(), method="wilson")
    assert interval.high - interval.low > plain[1] - plain[0]


def test_pooled_step_rate_without_an_event_takes_the_worst_case_design_effect():
    # no event: the data cannot show how alike a puzzle's steps are, so the interval assumes
    # them all alike, n = (sum m)^2 / sum m^2 puzzles (Kish), never the 100 steps as if free
    steps = np.array([12.0, 30.0, 7.0, 51.0])
    n = steps.sum() ** 2 / (steps**2).sum()
    none = stats.clustered_ratio(np.zeros(4), steps)  # no illegal move in 100 steps
    assert (none.low, none.high) == pytest.approx(proportion_confint(0, n, method="wilson"))
    steps_as_free = proportion_confint(0, steps.sum(), method="wilson")[1]
    assert none.high > steps_as_free > 0
    every = stats.clustered_ratio(steps, steps)  # every step illegal
    assert every.low == pytest.approx(proportion_confint(n, n, method="wilson")[0])
    one = stats.clustered_ratio([3.0], [40.0])  # one episode: one unit, whatever its steps
    assert (one.low, one.high) == pytest.approx(proportion_confint(3 / 40, 1, method="wilson"))
    assert np.isnan(stats.clustered_ratio([0.0, 0.0], [0.0, 0.0]).low)  # no step at all
    # a puzzle without a step (every epoch errored) is no cluster
    events, trials = episodes(4)
    assert stats.clustered_ratio([*events, 0.0], [*trials, 0.0]) == stats.clustered_ratio(
        events, trials
    )


def test_mean_interval_is_scipys_t_interval_and_absent_where_every_puzzle_agrees():
    from scipy.stats import sem, t

    values = np.random.default_rng(5).gamma(2.0, 300.0, size=25)  # tokens per puzzle
    expected = t.interval(0.95, values.size - 1, loc=values.mean(), scale=sem(values))
    interval = stats.mean_interval(values)
    assert (interval.low, interval.high) == pytest.approx(expected)
    same = stats.mean_interval([7.0] * 25)  # every puzzle the same tokens: no zero width
    assert np.isnan(same.low) and same.method.startswith("none: ")
    assert stats.mean_interval([3.0]).method.startswith("none: ")


def test_mean_interval_of_counts_never_reaches_below_zero():
    counts = [0.0, 0.0, 0.0, 9.0]  # tool calls: one puzzle made them all
    assert stats.mean_interval(counts).low < 0
    clipped = stats.mean_interval(counts, lowest=0.0)
    assert clipped.low == 0.0 and clipped.high == stats.mean_interval(counts).high


@pytest.mark.parametrize(
    ("b", "c", "n", "delta"),
    [(9, 2, 25, 0.1), (9, 2, 25, 0.5), (15, 0, 25, 0.7), (13, 4, 500, -0.01), (3, 30, 100, -0.4)],
)
def test_tango_statistic_is_the_constrained_likelihood_score(b, c, n, delta):
    assert float(stats.tango_statistic(b, c, n, delta)) == pytest.approx(
        tango_score(b, c, n, delta), rel=1e-6
    )


@pytest.mark.parametrize(("b", "c"), [(9, 2), (13, 4), (15, 0), (12, 12), (0, 3)])
def test_mcnemar_score_is_statsmodels_asymptotic_mcnemar_and_tango_at_zero(b, c):
    result = mcnemar([[40, b], [c, 400]], exact=False, correction=False)
    assert stats.mcnemar_score(b, c) == pytest.approx(result.pvalue, rel=1e-9)
    assert float(stats.tango_statistic(b, c, 40 + b + c + 400, 0.0)) ** 2 == pytest.approx(
        result.statistic
    )


def test_tango_interval_ends_are_where_the_statistic_meets_z():
    z = stats.z_value()
    for b, c, n in [(9, 2, 25), (13, 4, 500), (0, 0, 30), (3, 11, 100)]:
        interval = stats.tango_interval(b, c, n)
        assert float(stats.tango_statistic(b, c, n, interval.low)) == pytest.approx(z, abs=1e-6)
        assert float(stats.tango_statistic(b, c, n, interval.high)) == pytest.approx(-z, abs=1e-6)


def test_tango_interval_reaches_past_the_observed_difference_when_one_run_wins_all():
    # issue: 15 vs 0 discordant of 25 printed 33.8 to 60.0 (the conditional interval stops at
    # the observed 60: the discordance taken as known)
    result = stats.paired_difference(15, 0, 25)
    assert result.difference == 0.6
    assert result.interval.high > 0.7 and result.interval.low > 0.3
    everything = stats.paired_difference(25, 0, 25)
    assert everything.interval.high == 1.0 and everything.interval.low < 1.0


@pytest.mark.parametrize("n", [10, 25, 40])
def test_paired_interval_excludes_zero_exactly_when_its_p_is_below_005(n):
    for b in range(n + 1):
        for c in range(n + 1 - b):
            result = stats.paired_difference(b, c, n)
            excludes = result.interval.low > 0 or result.interval.high < 0
            assert excludes == (result.p < 0.05), (b, c, n)
            assert result.interval.high - result.interval.low > 0


def test_tango_statistic_falls_as_the_difference_grows():
    # the interval is the set {|Z| < z} only because Z is monotone in delta
    deltas = np.linspace(-0.999, 0.999, 999)
    for b, c, n in [(9, 2, 25), (0, 0, 30), (40, 3, 100), (0, 25, 25)]:
        assert np.all(np.diff(stats.tango_statistic(b, c, n, deltas)) < 0)


def test_paired_means_is_the_t_test_over_puzzles_of_statsmodels():
    weightstats = pytest.importorskip("statsmodels.stats.weightstats")
    rng = np.random.default_rng(3)
    x, y = rng.integers(0, 3, 40) / 2, rng.integers(0, 3, 40) / 2  # 2 epochs: 0, 0.5, 1
    result = stats.paired_means(x, y)
    described = weightstats.DescrStatsW(x - y)
    assert (result.interval.low, result.interval.high) == pytest.approx(
        described.tconfint_mean(0.05)
    )
    assert result.p == pytest.approx(described.ttest_mean(0)[1])
    assert "McNemar" not in result.test
    same = stats.paired_means([0.5, 1.0, 0.5], [0.0, 0.5, 0.0])
    assert np.isnan(same.interval.low) and same.test.startswith("none: ")


def test_p_values_keep_significant_digits_and_never_round_across_005():
    assert stats.format_p(0.049) == "0.049"
    assert stats.format_p(3.2e-05) == "3.2e-05"
    assert stats.format_p(0.0496) == "0.0496"  # not 0.05: it is below
    assert stats.format_p(0.0502) == "0.0502"  # the issue's gap p, not 0.05
    assert stats.format_p(1.0) == "1"
    assert stats.format_p(float("nan")) == ""
    for p in np.geomspace(1e-12, 1, 400):
        text = stats.format_p(p)
        assert float(text) > 0 and (float(text) < 0.05) == (p < 0.05)


def test_an_interval_that_excludes_zero_never_prints_an_end_of_zero():
    # issue: 13 vs 4 of 500 printed "1.8 (0.0-2.9)" beside p 0.049
    result = stats.paired_difference(13, 4, 500)
    assert result.interval.low > 0
    low, high = stats.format_interval(result.interval.low, result.interval.high).split(" to ")
    assert float(low) > 0 and float(high) > 0
    assert stats.format_interval(-0.668, -0.0004) == "-66.80 to -0.04"
    assert stats.format_interval(-0.1, 0.2) == "-10.0 to 20.0"  # holds 0: one decimal
    assert stats.format_interval(0.0, 0.133) == "0.0 to 13.3"  # an end at 0 itself


@pytest.mark.parametrize(("model", "setup"), [("GPT-4V", "CoT"), ("GPT-4V", "eCoT")])
def test_stratified_se_is_statsmodels_type_dummies_with_hc0(model, setup):
    sm = pytest.importorskip("statsmodels.api")
    y, types = published_outcomes(model, setup)
    names, codes = np.unique(types, return_inverse=True)
    dummies = np.eye(len(names))[codes]
    fit = sm.OLS(y, dummies).fit(cov_type="HC0")
    weights = np.bincount(codes) / y.size
    expected = float(np.sqrt(weights @ fit.cov_params() @ weights))
    assert stats.stratified_se(y, types) == pytest.approx(expected, rel=1e-9)
    # new instances of the same types: narrower than plain Wilson, never zero-wide
    interval, plain = stats.stratified_rate(y, types), stats.wilson(y.sum(), y.size)
    assert 0 < interval.high - interval.low <= plain.high - plain.low


def test_simultaneous_paired_intervals_agree_with_holm():
    # at 1 - 0.05/m an interval excludes 0 exactly when p < 0.05/m (Bonferroni), and every
    # such pair is one Holm's adjustment over the m pairs marks too
    rng = np.random.default_rng(8)
    for _ in range(40):
        m = int(rng.integers(2, 12))
        pairs = [(int(rng.integers(0, 30)), int(rng.integers(0, 30))) for _ in range(m)]
        p = [stats.mcnemar_score(b, c) for b, c in pairs]
        adjusted = stats.holm(p)  # equal to statsmodels: test_holm_equals_statsmodels
        for (b, c), raw, holm_p in zip(pairs, p, adjusted, strict=True):
            interval = stats.tango_interval(b, c, 200, confidence=1 - 0.05 / m)
            excludes = interval.low > 0 or interval.high < 0
            assert excludes == (raw < 0.05 / m)
            assert not excludes or holm_p < 0.05


def test_paired_comparison_names_its_test_by_what_the_values_are():
    rng = np.random.default_rng(12)
    x, y = rng.integers(0, 2, 50).astype(float), rng.integers(0, 2, 50).astype(float)
    binary = stats.paired_comparison(x, y)
    only_a, only_b = int((x * (1 - y)).sum()), int(((1 - x) * y).sum())
    assert binary == stats.paired_difference(only_a, only_b, 50)
    assert "McNemar" in binary.test
    means = stats.paired_comparison(x * 0.5 + 0.25 * y, y)  # not 0/1: epoch means
    assert means.test == stats.PAIRED_T and "McNemar" not in means.test
