"""The counts behind a rate when samples error: n is the puzzles scored (not Inspect's
completed sample-epochs divided by the epochs), and a run whose every sample errored shows
0 solved of the puzzles it ran, with its interval, when errors count as failures."""

from __future__ import annotations

import pytest
from scripted import epochs_log, sparc_mock_log

proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint


def test_an_errored_epoch_leaves_its_puzzle_in_n(report_logs, tmp_path):
    from inspect_ai.log import read_eval_log

    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 2)
    ids = sorted({str(s.id) for s in base.samples})
    solved = {(i, e): 1 for i in ids[:4] for e in (1, 2)}
    errored = [(ids[0], 2), (ids[5], 1), (ids[6], 2)]  # one epoch of three puzzles
    path = tmp_path / "e.eval"
    epochs_log(
        base,
        solved,
        path,
        model="m/E",
        started="2026-01-01T00:00:00+00:00",
        reducer="mean",
        errored=errored,
    )
    results = read_eval_log(str(path)).results
    assert results is not None and results.completed_samples == 17  # 17 // 2 = 8, not 10
    report = build_report(path, tmp_path / "out")
    [row] = report.tables["results"].to_dict("records")
    assert row["n"] == 10 and row["errored"] == 0
    assert row["solved"] == 4 and row["accuracy"] == pytest.approx(40.0)
    low, high = proportion_confint(4, 10, method="wilson")
    assert (row["ci95_low"], row["ci95_high"]) == pytest.approx((100 * low, 100 * high))
    assert not any(line["problem"] for line in report.summary)


def test_a_run_whose_every_sample_errored_counts_them_as_failures(report_logs, tmp_path):
    from inspect_ai.log import read_eval_log

    from inspect_sparc.report import build_report

    errored = report_logs[2]["errored"]  # its solver raised: no sample scored
    samples = read_eval_log(str(errored)).samples
    assert samples is not None
    ran = len({str(s.id) for s in samples})
    report = build_report(errored, tmp_path / "out")
    [row] = report.tables["results"].to_dict("records")
    assert row["errored"] == ran > 0
    assert row["errors_as_failures"] == 0.0
    low, high = proportion_confint(0, ran, method="wilson")
    assert (row["errors_as_failures_ci95_low"], row["errors_as_failures_ci95_high"]) == (
        pytest.approx((100 * low, 100 * high))
    )
