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
