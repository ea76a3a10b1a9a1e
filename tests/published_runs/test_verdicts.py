"""The shipped per-puzzle verdicts reproduce the published totals the package ships
(report/data/sparc_published.csv, compiled from the authors' stats files), read here with csv."""

from __future__ import annotations

import csv
import re
from importlib.resources import files

import numpy as np
import pytest

from inspect_sparc.published_runs.verdicts import load_verdicts

TOTALS = files("inspect_sparc.report.data").joinpath("sparc_published.csv")


def published_rows() -> list[dict[str, str]]:
    """The packaged rows compiled from a Spatial-Gym stats file, with the run id it names."""
    with TOTALS.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    named = []
    for row in rows:
        found = re.search(r"results/spatial_gym/(\S+)_stats\.csv @aad1f50", row["notes"])
        if found:
            named.append({**row, "run_id": f"gym-analysis/{found.group(1)}"})
    return named


def percent(k: float, n: float) -> str:
    return f"{100 * k / n:.1f}"


def test_every_spatial_gym_total_has_its_verdicts():
    rows = published_rows()
    assert len(rows) == 37  # 24 table rows + 13 stats-only rows
    ids = {run.run_id for run in load_verdicts().runs}
    assert {row["run_id"] for row in rows} <= ids


@pytest.mark.parametrize("row", published_rows(), ids=lambda row: row["run_id"])
def test_the_verdicts_reproduce_the_published_accuracy_and_levels(row):
    verdicts = load_verdicts()
    solved = verdicts.row(row["run_id"])
    ran = ~np.isnan(solved)
    n = int(row["n"])
    # the one flagged run: its stats count the 243 puzzles never run as failures (n = 500)
    counted_unrun = ran.sum() < n
    assert ran.sum() == n or row["run_id"] == "gym-analysis/Qwen_Qwen3-0.6B_gym_traceback"
    assert percent(np.nansum(solved), n) == f"{float(row['accuracy']):.1f}"
    for level in range(1, 6):
        at_level = verdicts.levels == level
        size = at_level.sum() if counted_unrun else (at_level & ran).sum()
        expected = f"{float(row[f'level_{level}']):.1f}"
        assert percent(np.nansum(solved[at_level]), size) == expected, level


def test_the_split_is_the_500_test_puzzles_with_their_level_sizes():
    verdicts = load_verdicts()
    assert len(set(verdicts.puzzle_ids)) == 500
    assert np.bincount(verdicts.levels)[1:].tolist() == [86, 118, 121, 86, 89]


def test_runs_csv_counts_agree_with_the_matrix():
    verdicts = load_verdicts()
    for run, solved in zip(verdicts.runs, verdicts.solved, strict=True):
        assert (run.n, run.solved) == ((~np.isnan(solved)).sum(), np.nansum(solved))
        assert re.fullmatch(r"[0-9a-f]{40}", run.commit) and re.fullmatch(
            r"[0-9a-f]{64}", run.sha256
        )
