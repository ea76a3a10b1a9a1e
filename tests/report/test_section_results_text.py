"""The results table's reducers and the terminal summary of it."""

from __future__ import annotations

import io
from types import SimpleNamespace

from inspect_sparc.contract.scores import EPOCHS_REDUCER
from inspect_sparc.report.read.reducer import reducer_text
from inspect_sparc.report.read.runs import metrics_of


def test_with_several_reducers_the_mean_metrics_are_taken_and_named():
    R = EPOCHS_REDUCER

    def score(reducer, value):
        metric = SimpleNamespace(value=value)
        return SimpleNamespace(name="sparc_scorer", reducer=reducer, metrics={"accuracy": metric})

    header = SimpleNamespace(
        results=SimpleNamespace(scores=[score("max", 0.9), score("mean", 0.4)])
    )
    values = metrics_of(header)
    assert values["accuracy"] == 0.4 and values["metrics_reducer"] == "mean"
    run = {"epochs_reducer": "max,mean", "metrics_reducer": "mean"}
    assert reducer_text(run) == "max,mean (metrics: mean)"
    # the SPaRC tasks' own mean (`inspect_sparc/mean`, the default) counts as the mean too
    ours = SimpleNamespace(results=SimpleNamespace(scores=[score("max", 0.9), score(R, 0.4)]))
    assert metrics_of(ours)["accuracy"] == 0.4 and metrics_of(ours)["metrics_reducer"] == R


def test_the_terminal_summary_fits_80_columns(report):
    from rich.console import Console

    from inspect_sparc.report.__main__ import summary_table

    console = Console(width=80, record=True, file=io.StringIO())
    console.print(summary_table(report.tables["results"]))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    results = report.tables["results"].dropna(subset=["ci95_low"])
    for _, row in results.iterrows():  # numbers are never split across lines
        assert f"{row['ci95_low']:.1f}-{row['ci95_high']:.1f}" in text
