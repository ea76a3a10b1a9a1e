"""The AlgoPuzzleVQA section on real logs: the average's and each category's interval are
clustered by puzzle type (statsmodels' cluster-robust OLS as the oracle)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
import pytest

sm = pytest.importorskip("statsmodels.api")
proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint


def clustered_oracle(outcomes: list[float], types: list[str]) -> tuple[float, float]:
    """Wilson with n over the design effect of statsmodels' cluster-robust standard error."""
    y = np.asarray(outcomes, dtype=float)
    codes = np.unique(types, return_inverse=True)[1]
    fit = sm.OLS(y, np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": codes})
    p = y.mean()
    deff = max(1.0, float(fit.bse[0]) ** 2 / (p * (1 - p) / y.size))
    low, high = proportion_confint(p * y.size / deff, y.size / deff, method="wilson")
    return 100 * low, 100 * high


def test_average_and_categories_are_clustered_by_puzzle_type(report_logs, report):
    _, logs, _ = report_logs
    [log] = [log for log in logs if log.eval.task.endswith("/algopuzzlevqa")]
    correct: dict[str, list[float]] = defaultdict(list)
    meta: dict[str, dict[str, Any]] = {}
    for sample in log.samples:
        correct[sample.id].append(next(iter(sample.scores.values())).value["correct"])
        meta[sample.id] = sample.metadata
    ids = sorted(correct)
    means = [float(np.mean(correct[i])) for i in ids]
    types = [meta[i]["puzzle"] for i in ids]
    assert 0 < np.mean(means) < 1  # the oracle's interval is not a degenerate one
    [run] = report.runs.loc[report.runs["log"] == log.location, "run"]
    table = report.tables["algopuzzlevqa_puzzles"]
    [row] = table[table["run"] == run].to_dict("records")
    expected = clustered_oracle(means, types)
    assert (row["average_ci95_low"], row["average_ci95_high"]) == pytest.approx(expected)
    results = report.tables["results"]
    [res] = results[results["run"] == run].to_dict("records")
    assert (res["ci95_low"], res["ci95_high"]) == pytest.approx(expected)
    assert "clustered by puzzle type" in res["interval"]
    categories = report.tables["algopuzzlevqa_categories"]
    [cats] = categories[categories["run"] == run].to_dict("records")
    category = "visual_colour"
    having = [i for i in ids if category in str(meta[i]["categories"])]
    expected = clustered_oracle(
        [means[ids.index(i)] for i in having], [meta[i]["puzzle"] for i in having]
    )
    assert (cats[f"{category}_ci95_low"], cats[f"{category}_ci95_high"]) == pytest.approx(expected)


def test_the_average_has_a_stratified_interval_for_new_instances_too(report_logs, report):
    from scipy.stats import norm

    _, logs, _ = report_logs
    [log] = [log for log in logs if log.eval.task.endswith("/algopuzzlevqa")]
    correct: dict[str, list[float]] = defaultdict(list)
    types: dict[str, str] = {}
    for sample in log.samples:
        correct[sample.id].append(next(iter(sample.scores.values())).value["correct"])
        types[sample.id] = sample.metadata["puzzle"]
    means = {i: float(np.mean(v)) for i, v in correct.items()}
    z2 = norm.ppf(0.975) ** 2  # the documented formula, from the per-type counts
    n = len(means)
    variance = 0.0
    for kind in set(types.values()):
        values = [means[i] for i in means if types[i] == kind]
        centre = (sum(values) + z2 / 2) / (len(values) + z2)
        variance += (len(values) / n) ** 2 * centre * (1 - centre) / len(values)
    overall = (sum(means.values()) + z2 / 2) / (n + z2)
    deff = min(1.0, variance / (overall * (1 - overall) / n))
    low, high = proportion_confint(sum(means.values()) / deff, n / deff, method="wilson")
    [run] = report.runs.loc[report.runs["log"] == log.location, "run"]
    table = report.tables["algopuzzlevqa_puzzles"]
    [row] = table[table["run"] == run].to_dict("records")
    ends = (row["average_new_instances_ci95_low"], row["average_new_instances_ci95_high"])
    assert ends == pytest.approx((100 * low, 100 * high))
    assert "new puzzle type" in report.index.read_text(encoding="utf-8")
