"""The report's frames: paired rows with the report's own exact interval and McNemar test
plugged in, and a subset run's two estimates (a published run's verdicts as the run)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from inspect_sparc.published_runs.frames import paired_frame, subset_estimate_frame
from inspect_sparc.published_runs.shipped import subset_puzzles
from inspect_sparc.published_runs.verdicts import load_verdicts
from inspect_sparc.report.statistics.score_intervals import mcnemar_exact, paired_exact

OLMO = "gym-analysis/allenai_Olmo-3.1-32B-Think"


def run_of(run_id: str) -> dict[str, float]:
    verdicts = load_verdicts()
    return dict(zip(verdicts.puzzle_ids, verdicts.row(run_id).tolist(), strict=True))


def test_paired_rows_carry_the_exact_interval_and_test():
    frame = paired_frame(run_of(OLMO), "single_shot", "paper", paired_exact, mcnemar_exact)
    assert len(frame) == 6 * 32 and set(frame["level"]) == {"all", 1, 2, 3, 4, 5}
    row = frame[
        (frame.published_run == "gym-analysis/openai_gpt-oss-120b") & (frame.level == "all")
    ]
    row = row.iloc[0]
    assert (row.n_shared, row.run_accuracy, row.published_accuracy) == (500, 16.2, 21.6)
    b, c = int(row.only_run), int(row.only_published)
    assert row.p_value == pytest.approx(binomtest(b, b + c, 0.5).pvalue)
    assert row.ci95_low < row.difference < row.ci95_high and row.note == ""
    assert paired_frame(run_of(OLMO), "visual").columns.tolist() == frame.columns.tolist()
    itself = frame[frame.published_run == OLMO]
    assert (itself.difference == 0).all() and (itself.p_value == 1).all()


def test_a_subset_run_is_estimated_three_ways_and_says_when_puzzles_are_missing():
    verdicts = run_of("gym-analysis/openai_gpt-oss-120b")
    on_subset = {p: verdicts[p] for p in subset_puzzles("informative:100")}
    frame = subset_estimate_frame(on_subset, "informative:100")
    assert list(frame["method"]) == [
        "model-assisted (difference, 2PL IRT auxiliary)",
        "design-based",
        "model-based (2PL IRT)",
    ]
    assert (frame.ci95_low <= frame.estimate).all() and (frame.estimate <= frame.ci95_high).all()
    assert (frame.puzzles == 100).all()
    fewer = dict(list(on_subset.items())[5:])
    partial = subset_estimate_frame(fewer, "informative:100")
    assert (partial.puzzles == 95).all() and partial.note.str.contains("5 of").all()
    assert not np.isnan(partial.estimate).any()
