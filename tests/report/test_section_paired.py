"""Paired comparisons on real logs with scripted per-puzzle outcomes (`scripted.py`): the 2x2
counts, the McNemar score p and Tango's interval that inverts it, Holm over the family with the
simultaneous intervals, the smallest detectable difference by exact power, the value each log
reduced (max), and no test below the minimum of shared puzzles; checked against statsmodels,
scipy and the oracles of `oracles.py`."""

from __future__ import annotations

import pytest
from oracles import score_test_power, tango_score
from scripted import epochs_log, scripted_log, scripted_runs, sparc_mock_log

mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar
multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests


#: Four models on the same 10 puzzles: which puzzles (by sorted position) each solves.
SOLVES = {"A": range(6), "B": (0, 1, 7), "C": (0, 2, 3, 4, 8), "D": (1, 9)}


@pytest.fixture(scope="module")
def scripted(base, tmp_path_factory):
    """Models A-D on the same 10 puzzles, and a report over them."""
    from inspect_sparc.report import build_report

    folder = tmp_path_factory.mktemp("paired")
    outcomes = scripted_runs(base, folder, SOLVES)
    report = build_report(folder, tmp_path_factory.mktemp("paired-report"))
    return report, outcomes


def row_of(paired, a, b):
    mine = paired["run_a"].str.startswith(f"m/{a} |") & paired["run_b"].str.startswith(f"m/{b} |")
    [row] = paired[mine].to_dict("records")
    return row


def test_each_cell_the_score_test_and_the_interval_that_inverts_it(scripted):
    from scipy.stats import norm

    report, outcomes = scripted
    a, b = outcomes["A"], outcomes["B"]
    row = row_of(report.tables["paired"], "A", "B")
    both = sum(a[i] and b[i] for i in a)
    only_a = sum(a[i] and not b[i] for i in a)
    only_b = sum(b[i] and not a[i] for i in a)
    neither = sum(not a[i] and not b[i] for i in a)
    assert (row["both"], row["only_a"], row["only_b"], row["neither"]) == (2, 4, 1, 3)
    assert (row["both"], row["only_a"], row["only_b"], row["neither"]) == (
        both,
        only_a,
        only_b,
        neither,
    )
    assert row["n_shared"] == row["n_a"] == row["n_b"] == 10 and row["dropped_errors"] == 0
    assert row["difference"] == pytest.approx(100 * (only_a - only_b) / 10)
    table = [[both, only_a], [only_b, neither]]
    assert row["p"] == pytest.approx(mcnemar(table, exact=False, correction=False).pvalue)
    # Tango's interval: its ends are where the score statistic meets -+z
    z = norm.ppf(0.975)
    assert tango_score(only_a, only_b, 10, row["diff_ci95_low"] / 100) == pytest.approx(z, rel=1e-5)
    assert tango_score(only_a, only_b, 10, row["diff_ci95_high"] / 100) == pytest.approx(
        -z, rel=1e-5
    )
    assert row["test"].startswith("McNemar (asymptotic score")


def test_interval_and_p_never_contradict_each_other(scripted):
    paired = scripted[0].tables["paired"].dropna(subset=["p"])
    assert len(paired) == 6
    for _, row in paired.iterrows():
        excludes_zero = row["diff_ci95_low"] > 0 or row["diff_ci95_high"] < 0
        assert excludes_zero == (row["p"] < 0.05)
        assert row["diff_ci95_high"] - row["diff_ci95_low"] > 0


def test_holm_over_the_family_and_the_page_names_it(scripted):
    report, _ = scripted
    paired = report.tables["paired"]
    expected = multipletests(paired["p"], method="holm")[1]
    assert paired["p_holm"].tolist() == pytest.approx(list(expected))
    page = report.index.read_text(encoding="utf-8")
    assert "family of all 6 tested pairs" in page and "0.26" in page  # 1 - 0.95^6


def test_minimum_detectable_difference_at_the_pairs_n_and_discordance(scripted):
    row = row_of(scripted[0].tables["paired"], "A", "B")
    n = row["n_shared"]
    discordance = (row["only_a"] + row["only_b"]) / n
    mdd = row["mdd_80"] / 100
    assert 0 < mdd <= discordance
    assert score_test_power(n, discordance, mdd) == pytest.approx(0.80, abs=1e-4)
    assert score_test_power(n, discordance, 0.95 * mdd) < 0.80


def test_simultaneous_intervals_agree_with_holm(scripted):
    paired = scripted[0].tables["paired"].dropna(subset=["p"])
    for _, row in paired.iterrows():
        low, high = row["diff_simultaneous_low"], row["diff_simultaneous_high"]
        assert low <= row["diff_ci95_low"] and high >= row["diff_ci95_high"]
        if low > 0 or high < 0:
            assert row["p_holm"] < 0.05


def test_a_pair_below_the_minimum_of_shared_puzzles_is_counted_not_tested(base, tmp_path):
    from inspect_sparc.report import build_report

    ids = sorted(str(s.id) for s in base.samples)
    one = base.model_copy(deep=True)
    one.samples = [s for s in one.samples if str(s.id) == ids[0]]
    scripted_log(
        one, {ids[0]: 1}, tmp_path / "a.eval", model="m/A", started="2026-01-01T00:00:00+00:00"
    )
    scripted_log(
        one, {ids[0]: 0}, tmp_path / "b.eval", model="m/B", started="2026-01-01T00:01:00+00:00"
    )
    report = build_report(tmp_path, tmp_path / "out")
    [row] = report.tables["paired"].to_dict("records")
    assert row["n_shared"] == 1 and row["difference"] == 100
    assert "fewer than 10 shared puzzles" in row["test"]
    assert "diff_ci95_low" not in row or row["diff_ci95_low"] != row["diff_ci95_low"]


def test_errored_puzzles_are_counted_out_of_a_pair(base, tmp_path):
    from inspect_sparc.report import build_report

    ids = sorted(str(s.id) for s in base.samples)
    solved = {i: int(k < 6) for k, i in enumerate(ids)}
    scripted_log(
        base, solved, tmp_path / "a.eval", model="m/A", started="2026-01-01T00:00:00+00:00"
    )
    scripted_log(
        base,
        solved,
        tmp_path / "b.eval",
        model="m/B",
        started="2026-01-01T00:01:00+00:00",
        errored=ids[:3],
    )
    report = build_report(tmp_path, tmp_path / "out")
    [row] = report.tables["paired"].to_dict("records")
    assert row["dropped_errors"] == 3 and row["n_shared"] == 7


def test_every_log_the_report_reads_has_counts_that_agree(report_logs, report, scripted):
    from inspect_sparc.contract import scores as K
    from inspect_sparc.report.statistics.rates import check_counts, puzzle_values

    for rep in (report, scripted[0]):
        assert check_counts(rep.runs, puzzle_values(rep.samples, [K.CORRECT])) == {}
        results = rep.tables["results"].dropna(subset=["accuracy"])
        assert (results["solved"] - results["n"] * results["accuracy"] / 100).abs().max() < 1e-9


def test_a_log_whose_metric_disagrees_with_its_samples_is_flagged(base, tmp_path):
    from inspect_ai.log import write_eval_log

    from inspect_sparc.report import build_report

    log = base.model_copy(deep=True)
    log.results.scores[0].metrics["accuracy"].value = 0.9  # the samples solve fewer
    write_eval_log(log, str(tmp_path / "bad.eval"))
    report = build_report(tmp_path / "bad.eval", tmp_path / "out")
    [line] = [line for line in report.summary if line["text"].startswith("samples disagree")]
    assert line["problem"] and "0.9000" in line["text"]
    assert "counts disagree" in report.tables["results"]["notes"].item()


def test_a_pair_without_significance_reads_as_what_cannot_be_excluded(scripted):
    report, _ = scripted
    for row in report.tables["paired"].to_dict("records"):
        if row.get("p_holm") is None or row["p_holm"] != row["p_holm"]:
            assert row.get("reading") is None or row["reading"] != row["reading"]
        elif row["p"] >= 0.05 and row["mdd_80"] == row["mdd_80"]:
            expected = f"smaller than {row['mdd_80']:.1f} points cannot be excluded"
            assert row["reading"].startswith("no difference shown") and expected in row["reading"]
        elif row["p"] >= 0.05:
            assert "no difference reaches 80% power" in row["reading"]
        elif row["p_holm"] >= 0.05:  # its own test finds it, Holm's does not: both named
            assert (
                row["reading"].startswith("differs on its own")
                and "not after Holm" in row["reading"]
            )
        else:
            assert row["reading"].startswith("differs (Holm over")
    assert "paired_power" in report.tables
    levels = report.tables["paired_levels"]  # 2 puzzles per level: counted, never tested
    assert levels["test"].str.startswith("none: fewer than").all() and "p" not in levels


def test_power_table_is_exact_capped_and_says_where_nothing_reaches_80_percent(scripted):
    from inspect_sparc.report.analysis.paired import DISCORDANCES, power_table

    table = power_table()
    at_500, at_89 = table["all 500 test puzzles"], table["level 5 alone (89)"]
    assert (at_500 <= table["discordant (%)"]).all()
    assert round(at_500.min(), 1) == 2.7 and round(at_500.max(), 1) == 6.8
    # level 5 at 5% discordance: even one run winning every discordant puzzle falls short
    assert at_89.isna().tolist() == [d == 0.05 for d in DISCORDANCES]
    assert (at_89.dropna() <= table["discordant (%)"][at_89.notna()]).all()
    page = scripted[0].index.read_text(encoding="utf-8")
    assert "none reaches 80% power at 5%" in page


def test_paired_per_level_with_holm_within_the_pair():
    import pandas as pd

    from inspect_sparc.report.analysis.paired import level_pairs

    # per level 20 puzzles: (only_a, only_b) discordant splits, the rest solved by both
    splits = {1: (8, 0), 2: (5, 1), 3: (2, 2)}
    rows = []
    for level, (only_a, only_b) in splits.items():
        for i in range(20):
            a, b = (1, 0) if i < only_a else (0, 1) if i < only_a + only_b else (1, 1)
            rows += [
                {"log": "a.eval", "id": f"{level}-{i}", "level": level, "correct": a},
                {"log": "b.eval", "id": f"{level}-{i}", "level": level, "correct": b},
            ]
    samples = pd.DataFrame(rows)
    runs = pd.DataFrame({"run": ["A", "B"], "log": ["a.eval", "b.eval"]})
    paired = pd.DataFrame([{"run_a": "A", "run_b": "B", "p": 0.01}])
    table = level_pairs(runs, samples, paired)
    assert list(table["level"]) == [1, 2, 3]
    raw = [
        mcnemar([[20 - a - b, a], [b, 0]], exact=False, correction=False).pvalue
        for a, b in splits.values()
    ]
    assert list(table["p"]) == pytest.approx(raw)
    assert list(table["p_holm_in_pair"]) == pytest.approx(multipletests(raw, method="holm")[1])
    assert list(table["only_a"]) == [8, 5, 2] and list(table["only_b"]) == [0, 1, 2]


@pytest.mark.parametrize("reducer", ["max", "mean"])
def test_the_pair_compares_the_values_each_log_reduced(report_logs, tmp_path, reducer):
    # A solves puzzles 0-2 in epoch 1 and 3-5 in epoch 2, B puzzle 0 in both: reduced by max
    # the pair is 0/1 outcomes (McNemar, 1/5/0/4); by the mean, per-puzzle means (paired t)

    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 2)
    ids = sorted({str(s.id) for s in base.samples})
    a = {(i, 1): 1 for i in ids[:3]} | {(i, 2): 1 for i in ids[3:6]}
    b = {(ids[0], 1): 1, (ids[0], 2): 1}
    for name, solved, minute in (("A", a, 0), ("B", b, 1)):
        started = f"2026-01-01T00:0{minute}:00+00:00"
        path = tmp_path / f"{name}.eval"
        epochs_log(base, solved, path, model=f"m/{name}", started=started, reducer=reducer)
    report = build_report(tmp_path, tmp_path / "out")
    assert not any(line["problem"] for line in report.summary)
    row = row_of(report.tables["paired"], "A", "B")
    if reducer == "max":
        assert (row["both"], row["only_a"], row["only_b"], row["neither"]) == (1, 5, 0, 4)
        assert row["difference"] == pytest.approx(50.0)
        table = [[1, 5], [0, 4]]
        assert row["p"] == pytest.approx(mcnemar(table, exact=False, correction=False).pvalue)
        assert row["test"].startswith("McNemar")
    else:
        from scipy.stats import ttest_rel

        x = [0.5] * 6 + [0.0] * 4
        y = [1.0] + [0.0] * 9
        assert row["difference"] == pytest.approx(100 * (sum(x) - sum(y)) / 10)
        assert row["p"] == pytest.approx(ttest_rel(x, y).pvalue)
        assert row["test"] == "paired t over per-puzzle means"
        assert row.get("only_a") is None or row["only_a"] != row["only_a"]  # no 2x2 of means


def test_a_max_reduced_run_against_a_mean_reduced_one_is_paired_like_with_like(
    report_logs, tmp_path
):
    # A (max over 2 epochs) solves puzzles 0-2 in epoch 1 and 3-5 in epoch 2; B (mean) puzzle
    # 0 in both. Its row would read 60 vs 10 as shown (any epoch against the mean); like with
    # like, both are per-puzzle means: the paired t of the hand-computed means, and the row
    # says why
    from scipy.stats import ttest_rel

    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 2)
    ids = sorted({str(s.id) for s in base.samples})
    a = {(i, 1): 1 for i in ids[:3]} | {(i, 2): 1 for i in ids[3:6]}
    b = {(ids[0], 1): 1, (ids[0], 2): 1}
    for name, solved, minute, reducer in (("A", a, 0, "max"), ("B", b, 1, "mean")):
        started = f"2026-01-01T00:0{minute}:00+00:00"
        path = tmp_path / f"{name}.eval"
        epochs_log(base, solved, path, model=f"m/{name}", started=started, reducer=reducer)
    report = build_report(tmp_path, tmp_path / "out")
    row = row_of(report.tables["paired"], "A", "B")
    x, y = [0.5] * 6 + [0.0] * 4, [1.0] + [0.0] * 9
    assert row["difference"] == pytest.approx(100 * (sum(x) - sum(y)) / 10)
    assert row["p"] == pytest.approx(ttest_rel(x, y).pvalue)
    assert row["note"].startswith("reducers differ (max vs mean)")
