"""The value shown is the value tested: a log reduced over epochs by `max` gets its levels'
intervals and its fresh-puzzle gap computed on the max-reduced outcomes (0/1 again, so the exact
tests apply), and the same outcomes reduced by the mean get per-puzzle means (the gap alone,
with the reason). Real 2-epoch logs with scripted outcomes whose truth is known."""

from __future__ import annotations

import pytest
from scripted import GENERATED_7, epochs_log, sparc_mock_log

proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint


@pytest.fixture(scope="module", params=["max", "mean"])
def reduced(request, report_logs, tmp_path_factory):
    """Model A on the 10 test puzzles (epoch 1 solves the first 2, epoch 2 the next 4) and on
    generated:7 (epoch 2 solves the first puzzle), both logs reduced by the param."""
    from inspect_sparc.report import build_report

    reducer = request.param
    base = sparc_mock_log(report_logs, 2)
    folder = tmp_path_factory.mktemp(f"reduced-{reducer}")
    ids = sorted({str(s.id) for s in base.samples})
    test = {(i, 1): 1 for i in ids[:2]} | {(i, 2): 1 for i in ids[2:6]}
    fresh = {(ids[0], 2): 1}
    start = "2026-01-01T00:0{}:00+00:00"
    epochs_log(
        base, test, folder / "test.eval", model="m/A", started=start.format(0), reducer=reducer
    )
    epochs_log(
        base,
        fresh,
        folder / "fresh.eval",
        model="m/A",
        started=start.format(1),
        reducer=reducer,
        **GENERATED_7,
    )
    report = build_report(folder, tmp_path_factory.mktemp(f"reduced-{reducer}-report"))
    levels = {str(s.id): s.metadata["level"] for s in base.samples}
    per_puzzle = {}
    for side, solved in (("test", test), ("fresh", fresh)):
        for i in ids:
            values = [solved.get((i, e), 0) for e in (1, 2)]
            per_puzzle[side, i] = max(values) if reducer == "max" else sum(values) / 2
    return reducer, report, levels, per_puzzle


def test_level_intervals_are_of_the_values_the_log_reduced(reduced):
    reducer, report, levels, per_puzzle = reduced
    assert not any(line["problem"] for line in report.summary)  # counts agree with the log
    table = report.tables["levels"]
    test_run = table[table["log"].str.endswith("test.eval")]
    for level in sorted(set(levels.values())):
        row = test_run[test_run["level"] == level].iloc[0]
        values = [per_puzzle["test", i] for i, lv in levels.items() if lv == level]
        low, high = proportion_confint(sum(values), len(values), method="wilson")
        assert row["n"] == len(values)
        assert row["accuracy"] == pytest.approx(100 * sum(values) / len(values))
        assert (row["ci95_low"], row["ci95_high"]) == pytest.approx((100 * low, 100 * high))


def test_the_gap_is_tested_on_the_values_the_logs_reduced(reduced):
    from scipy.stats import barnard_exact

    reducer, report, levels, per_puzzle = reduced
    gaps = report.tables["fresh_gap"]
    for level in sorted(set(levels.values())):
        row = gaps[gaps["level"] == level].iloc[0]
        ids = [i for i, lv in levels.items() if lv == level]
        x1 = sum(per_puzzle["test", i] for i in ids)
        x2 = sum(per_puzzle["fresh", i] for i in ids)
        assert row["gap"] == pytest.approx(100 * (x1 - x2) / len(ids))
        binary = all(per_puzzle[s, i] in (0, 1) for s in ("test", "fresh") for i in ids)
        if binary:
            n = len(ids)
            expected = barnard_exact([[x1, x2], [n - x1, n - x2]], n=64).pvalue
            assert row["gap_p"] == pytest.approx(expected, rel=1e-6)
            assert row["gap_test"].startswith("Barnard")
        else:
            assert row["gap_test"].startswith("none: per-puzzle means")
            assert row["gap_p"] != row["gap_p"] and row["gap_ci95_low"] != row["gap_ci95_low"]
    overall = gaps[gaps["level"].astype(str).str.startswith("all")].iloc[0]
    if reducer == "max":
        assert overall["gap_test"].startswith("exact conditional stratified")
    else:
        assert overall["gap_test"].startswith("none: per-puzzle means")
