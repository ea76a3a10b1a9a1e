"""The results table on real logs whose truth is known: errored puzzles counted and shown as
failures too, and the interval of a score reduced by another reducer than the mean is the
interval of the value shown (checked against statsmodels)."""

from __future__ import annotations

import pytest
from inspect_ai.log import read_eval_log, write_eval_log
from scripted import scripted_log, sparc_mock_log

proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint


def test_errored_puzzles_are_counted_and_shown_as_failures(report_logs, tmp_path):
    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 1)
    ids = sorted(str(s.id) for s in base.samples)
    solved = {i: int(k < 6) for k, i in enumerate(ids)}
    scripted_log(base, solved, tmp_path / "e.eval", model="m/E", errored=ids[7:])
    [row] = build_report(tmp_path / "e.eval", tmp_path / "out").tables["results"].to_dict("records")
    assert row["errored"] == 3 and row["solved"] == 6
    assert row["accuracy"] == pytest.approx(100 * 6 / 7)
    assert row["errors_as_failures"] == pytest.approx(60.0)
    low, high = proportion_confint(6, 10, method="wilson")
    assert row["errors_as_failures_ci95_low"] == pytest.approx(100 * low)
    assert row["errors_as_failures_ci95_high"] == pytest.approx(100 * high)


def test_a_max_reduced_score_has_the_interval_of_the_value_shown(report_logs, tmp_path):
    from inspect_sparc.report import build_report

    log = sparc_mock_log(report_logs, 2)
    for sample in log.samples:  # the second epoch solves the first three puzzles too
        if sample.epoch == 2 and str(sample.id) in sorted({str(s.id) for s in log.samples})[:3]:
            score = next(iter(sample.scores.values()))
            score.value = {**score.value, "correct": 1}
    best: dict[str, int] = {}
    for sample in log.samples:
        value = next(iter(sample.scores.values())).value["correct"]
        best[str(sample.id)] = max(best.get(str(sample.id), 0), int(value))
    mean_acc = log.results.scores[0].metrics["accuracy"].value
    assert sum(best.values()) / len(best) != mean_acc  # the epochs disagree somewhere
    log.eval.config.epochs_reducer = ["max"]
    log.results.scores[0].reducer = "max"
    metrics = log.results.scores[0].metrics
    metrics["accuracy"].value = sum(best.values()) / len(best)
    levels = {str(s.id): s.metadata["level"] for s in log.samples}
    for level in set(levels.values()):
        at = [best[i] for i, lv in levels.items() if lv == level]
        metrics[f"level_{level}"].value = sum(at) / len(at)
    write_eval_log(log, str(tmp_path / "max.eval"))
    report = build_report(tmp_path / "max.eval", tmp_path / "out")
    [row] = report.tables["results"].to_dict("records")
    assert not any(line["problem"] for line in report.summary)  # counts agree with max
    k, n = sum(best.values()), len(best)
    assert row["solved"] == k and row["accuracy"] == pytest.approx(100 * k / n)
    low, high = proportion_confint(k, n, method="wilson")
    assert (row["ci95_low"], row["ci95_high"]) == pytest.approx((100 * low, 100 * high))


@pytest.mark.parametrize(
    ("epochs_of", "reducer", "more"),
    [
        ({i: [i % 2] * 3 for i in range(20)}, "mean", "more puzzles"),  # between only
        # epochs split each puzzle: the within part is the larger, yet more puzzles shrink it
        # too (divided by n) where more epochs shrink only it
        ({i: [1, 0, i % 3 == 0] for i in range(20)}, "mean", "more puzzles"),
        ({i: [1, 0, i % 3 == 0] for i in range(20)}, "max", "what the max reducer estimates"),
    ],
)
def test_epochs_variance_says_more_puzzles_narrow_most(epochs_of, reducer, more):
    import numpy as np
    import pandas as pd

    from inspect_sparc.report.analysis.results import epochs_variance

    rows = [
        {"log": "x.eval", "id": str(i), "epoch": e, "correct": float(v)}
        for i, values in epochs_of.items()
        for e, v in enumerate(values)
    ]
    runs = pd.DataFrame([{"run": "m", "log": "x.eval", "epochs": 3, "epochs_reducer": reducer}])
    [row] = epochs_variance(runs, pd.DataFrame(rows)).to_dict("records")
    values = np.array(list(epochs_of.values()), dtype=float)
    n, k = values.shape
    within = (values.var(axis=1, ddof=1) / k).mean() / n  # Miller 2024, eq. for K epochs
    between = max(values.mean(axis=1).var(ddof=1) / n - within, 0.0)
    assert row["se_within"] == pytest.approx(100 * within**0.5)
    assert row["se_between"] == pytest.approx(100 * between**0.5)
    assert more in row["narrows_most"] and row["puzzles"] == 20
    assert row["narrows_most"].startswith("more puzzles")


def row_for(report, log):
    """The results row of `log` (the report labels runs; the log path is the key)."""
    runs = report.runs.set_index("log")["run"]
    [row] = report.tables["results"][lambda t: t["run"] == runs[log.location]].to_dict("records")
    return row


def per_puzzle(log, value):
    """Per puzzle of a log read with Inspect: `value(sample)` averaged over its epochs."""
    from collections import defaultdict

    seen: dict[str, list[float]] = defaultdict(list)
    samples = read_eval_log(log.location).samples
    assert samples is not None
    for sample in samples:
        seen[str(sample.id)].append(value(sample))
    return [sum(v) / len(v) for v in seen.values()]


@pytest.mark.parametrize("epochs", [1, 2])
def test_invalid_path_rate_has_the_wilson_interval_of_its_puzzles(report_logs, report, epochs):
    log = sparc_mock_log(report_logs, epochs)
    shares = per_puzzle(log, lambda s: s.scores["sparc_scorer"].value["invalid_path"])
    row = row_for(report, log)
    assert row["invalid_path_rate"] == pytest.approx(100 * sum(shares) / len(shares))
    low, high = proportion_confint(sum(shares), len(shares), method="wilson")
    assert row["invalid_path_rate_ci95_low"] == pytest.approx(100 * low)
    assert row["invalid_path_rate_ci95_high"] == pytest.approx(100 * high)


def test_tokens_per_sample_have_a_t_interval_over_puzzles(report_logs, report):
    from scipy.stats import sem, t

    log = sparc_mock_log(report_logs, 2)
    row = row_for(report, log)
    for column in ("output_tokens", "reasoning_tokens"):
        tokens = per_puzzle(
            log, lambda s, c=column: sum(getattr(u, c) for u in s.model_usage.values())
        )
        mean = sum(tokens) / len(tokens)
        assert row[f"{column}_per_sample"] == pytest.approx(mean)
        low, high = t.interval(0.95, len(tokens) - 1, loc=mean, scale=sem(tokens))
        assert row[f"{column}_per_sample_ci95_low"] == pytest.approx(max(0.0, low))
        assert row[f"{column}_per_sample_ci95_high"] == pytest.approx(high)


def test_tokens_alike_on_every_puzzle_get_no_zero_width_interval(report_logs, report):
    _, logs, _ = report_logs
    algo = next(log for log in logs if log.eval.task.endswith("algopuzzlevqa"))
    row = row_for(report, algo)
    tokens = set(per_puzzle(algo, lambda s: sum(u.output_tokens for u in s.model_usage.values())))
    assert len(tokens) == 1 and row["output_tokens_per_sample"] == tokens.pop()
    assert row["output_tokens_per_sample_ci95_low"] != row["output_tokens_per_sample_ci95_low"]


def test_tokens_by_level_have_t_intervals_over_the_levels_puzzles(report_logs, report):
    from scipy.stats import sem, t

    _, logs, _ = report_logs
    gym = next(  # a model's episodes: tokens differ between the puzzles of a level
        log
        for log in logs
        if log.eval.task.endswith("sparc_gym") and log.eval.model == "mockllm/model"
    )
    samples = read_eval_log(gym.location).samples
    assert samples is not None
    table = report.tables["tokens_by_level"]
    widths = []
    for level in range(1, 6):
        tokens = [
            sum(u.output_tokens for u in s.model_usage.values())
            for s in samples
            if s.metadata["level"] == level
        ]
        [row] = table[(table["log"] == gym.location) & (table["level"] == level)].to_dict("records")
        mean = sum(tokens) / len(tokens)
        assert row["output_tokens"] == pytest.approx(mean)
        if len(set(tokens)) == 1:  # alike: no zero-width interval
            assert row["output_tokens_ci95_low"] != row["output_tokens_ci95_low"]
            continue
        low, high = t.interval(0.95, len(tokens) - 1, loc=mean, scale=sem(tokens))
        assert row["output_tokens_ci95_low"] == pytest.approx(max(0.0, low))
        assert row["output_tokens_ci95_high"] == pytest.approx(high)
        widths.append(high - low)
    assert widths and all(w > 0 for w in widths)


def test_results_name_the_log_file_each_row_comes_from(report_logs, tmp_path):
    import pandas as pd

    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 1)
    solved = {str(s.id): 1 for s in base.samples}
    path = scripted_log(base, solved, tmp_path / "logs" / "a.eval", model="m/A")
    report = build_report(tmp_path / "logs", tmp_path / "out")
    [row] = report.tables["results"].to_dict("records")
    assert row["log"].endswith("a.eval") and path.name in row["log"]
    [csv_row] = pd.read_csv(tmp_path / "out" / "tables" / "results.csv").to_dict("records")
    assert csv_row["log"] == row["log"]


def test_solved_prints_as_a_whole_count_in_csv_latex_and_page(report_logs, tmp_path):
    import csv

    from inspect_sparc.report import build_report
    from inspect_sparc.report.render.columns import declared, formatted
    from inspect_sparc.report.render.page import cell_text
    from inspect_sparc.report.render.table_files import write_table
    from inspect_sparc.report.sections.results import RESULTS_COLUMNS

    base = sparc_mock_log(report_logs, 1)
    ids = sorted(str(s.id) for s in base.samples)
    solved = {i: int(k < 6) for k, i in enumerate(ids)}
    scripted_log(base, solved, tmp_path / "logs" / "a.eval", model="m/A")
    report = build_report(tmp_path / "logs", tmp_path / "out")
    with open(tmp_path / "out" / "tables" / "results.csv", encoding="utf-8", newline="") as f:
        [row] = list(csv.DictReader(f))
    assert row["solved"] == "6"  # not 6.0
    assert "6.0" not in (tmp_path / "out" / "index.html").read_text().split("solved")[1][:400]
    table = report.tables["results"][["solved"]]
    frac = table.assign(solved=[11.666666])  # a sum of epoch means keeps its decimals
    specs = declared(RESULTS_COLUMNS)  # the results section's own declaration of solved
    assert specs["solved"] == formatted("solved", "whole_when_integral")
    write_table(frac, "frac", tmp_path / "t", tex_columns=["solved"], specs=specs)
    assert "11.67" in (tmp_path / "t" / "frac.csv").read_text()
    assert "11.67" in (tmp_path / "t" / "frac.tex").read_text()
    write_table(table, "whole", tmp_path / "t", tex_columns=["solved"], specs=specs)
    assert "\n6 " in (tmp_path / "t" / "whole.tex").read_text()
    assert cell_text(6.0, True) == "6"


def test_a_level_setting_in_a_label_prints_as_an_integer():
    import pandas as pd

    from inspect_sparc.report.read.runs import _setting_text

    assert _setting_text(pd.Series([5, None]).iloc[0]) == "5"


@pytest.mark.parametrize("reducer", ["mean", "max"])
def test_errors_in_part_of_a_puzzles_epochs_count_as_failures_of_those_epochs(
    report_logs, tmp_path, reducer
):
    # issue: a puzzle solved in one epoch and errored in the other counted as solved (60.0
    # where the errored epoch as a failure gives less); the oracle reduces each puzzle's
    # epochs by hand, an errored epoch as 0
    from scripted import epochs_log

    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 2)
    ids = sorted({str(s.id) for s in base.samples})
    solved = {(i, e): 1 for i in ids[:6] for e in (1, 2)}
    errored = [(i, 2) for i in ids[:3]] + [(ids[9], 1), (ids[9], 2)]
    path = epochs_log(
        base,
        solved,
        tmp_path / "e.eval",
        model="m/E",
        started="2026-01-01T00:00:00",
        reducer=reducer,
        errored=errored,
    )
    [row] = build_report(path, tmp_path / "out").tables["results"].to_dict("records")
    per_puzzle = []
    for i in ids:
        epochs = [0 if (i, e) in errored else solved.get((i, e), 0) for e in (1, 2)]
        per_puzzle.append(max(epochs) if reducer == "max" else sum(epochs) / 2)
    expected = 100 * sum(per_puzzle) / len(ids)
    assert row["errors_as_failures"] == pytest.approx(expected)
    assert (reducer == "max") == (expected == 60.0)  # under the mean, less than 60.0
    low, high = proportion_confint(sum(per_puzzle), len(ids), method="wilson")
    assert row["errors_as_failures_ci95_low"] == pytest.approx(100 * low)
    assert row["errors_as_failures_ci95_high"] == pytest.approx(100 * high)
