"""The baselines table counts samples as the results table does."""

from __future__ import annotations

import pandas as pd
from report_rows import baseline_run

from inspect_sparc.report.analysis.baselines import baselines_table
from inspect_sparc.report.analysis.results import results_table


def test_baselines_count_samples_as_results_does():
    runs = pd.DataFrame([baseline_run()])
    [row] = baselines_table(runs).to_dict("records")
    assert row["n"] == 4 == results_table(runs)["n"].item()
