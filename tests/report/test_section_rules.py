"""The rule, path-length and token tables group by log, not by label, and take no-scored runs."""

from __future__ import annotations

import pandas as pd
from report_rows import sample_rows

from inspect_sparc.report.analysis.results import path_lengths
from inspect_sparc.report.analysis.rules import rule_table
from inspect_sparc.report.analysis.tokens import tokens_by_level


def test_tables_group_by_log_not_by_label():
    samples = sample_rows()
    rules = rule_table(samples)
    assert rules["dot"].tolist() == [100.0, 0.0] and rules["n_dot"].tolist() == [4, 4]
    assert path_lengths(samples) == {"/logs/0.eval": 10.0, "/logs/1.eval": 20.0}
    tokens = tokens_by_level(samples)
    assert tokens["output_tokens"].tolist() == [100.0, 200.0]


def test_path_length_averages_each_samples_epochs_first():
    samples = sample_rows().iloc[:2].copy()  # log 0, puzzles p0 and p1
    samples = pd.concat([samples, samples.iloc[[0]]], ignore_index=True)
    samples["epoch"] = [1, 1, 2]
    samples["path_length"] = [10, 60, 20]  # p0: 10 and 20 over two epochs, p1: 60 once
    # per sample first: (15 + 60) / 2, not (10 + 60 + 20) / 3
    assert path_lengths(samples) == {"/logs/0.eval": 37.5}


def test_tables_of_a_run_with_no_scored_sample_do_not_raise():
    samples = sample_rows().drop(columns="correct")
    assert rule_table(samples).empty  # nothing scored: no row, no KeyError
    assert tokens_by_level(samples)["accuracy"].isna().all()


def test_a_rule_break_rate_left_at_floating_error_reads_as_zero(tmp_path):
    # the mean over epochs of 0/1 values can leave 1.39e-17 for a zero: the page says 0.0
    from golden import LOGS
    from inspect_ai.log import read_eval_log, write_eval_log

    from inspect_sparc.report import runs_frame, samples_frame
    from inspect_sparc.report.analysis.breaks import breaks_table
    from inspect_sparc.report.render.page import table_entry

    log = read_eval_log(str(LOGS / "01_mock.eval"))
    log.results.scores[0].metrics["breaks_gap"].value = 1.3877787807814457e-17
    write_eval_log(log, str(tmp_path / "x.eval"))
    runs = runs_frame(tmp_path)
    table = breaks_table(runs, samples_frame(tmp_path, runs=runs))
    assert table["gap"].tolist() == [0.0]
    entry = table_entry(table, "rule_breaks", "Answers (%) breaking each rule")
    gap = entry["columns"].index("gap")
    assert entry["rows"][0]["cells"][gap].startswith("0.0 ")
