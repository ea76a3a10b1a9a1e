"""A subset run against a published run, weighted to the whole split, and a subset run's
per-level estimates: checked against the shipped CSVs read with pandas (the Horvitz-Thompson
weights of subsets.csv, the verdicts of verdicts.csv), and by their coverage of the truth over
pairs of published runs and redrawn subsets."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

import numpy as np
import pytest
from shipped_csvs import GPT_OSS, OLMO, shipped

from inspect_sparc.published_runs.shipped import NAMES, frozen_verdicts, load_item_model
from inspect_sparc.published_runs.split_paired import (
    level_estimates,
    split_difference,
    stratified_difference,
)
from inspect_sparc.published_runs.subsets import balanced_subset
from inspect_sparc.published_runs.verdicts import load_verdicts

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = pytest.importorskip("pandas")


def on_subset(run_id: str, subset: str) -> dict[str, float]:
    """A run that reproduces published run `run_id` on the subset's puzzles (from the CSVs)."""
    weights = shipped("subsets.csv").dropna(subset=[subset])
    verdicts = shipped("verdicts.csv").set_index("puzzle_id")[run_id]
    return {pid: float(verdicts[pid]) for pid in weights["puzzle_id"]}


def complete_runs() -> list[str]:
    verdicts = shipped("verdicts.csv")
    runs = shipped("runs.csv")
    return [r for r in runs["run_id"] if verdicts[r].notna().all()]


@pytest.mark.parametrize("subset", NAMES)
def test_a_run_reproducing_a_published_run_reads_zero_against_it_on_every_subset(subset):
    # every published run that ran all 500 puzzles, overall and at each level
    for run_id in complete_runs():
        mine = on_subset(run_id, subset)
        found = split_difference(mine, run_id, subset)
        assert found.value == 0 and found.low <= 0 <= found.high, run_id
        assert found.published == pytest.approx(shipped("verdicts.csv")[run_id].mean())
        for level in range(1, 6):
            at = split_difference(mine, run_id, subset, level)
            assert at.value == 0 and at.low <= 0 <= at.high, (run_id, level)


@pytest.mark.parametrize("subset", NAMES)
def test_the_difference_is_the_horvitz_thompson_mean_of_the_shipped_weights(subset):
    # oracle: sum over the subset of weight x (run - published) / 500, from the CSVs (whose
    # weights are written to 6 significant digits)
    weights = shipped("subsets.csv").dropna(subset=[subset]).set_index("puzzle_id")[subset]
    verdicts = shipped("verdicts.csv").set_index("puzzle_id")
    mine = on_subset(OLMO, subset)
    d = pd.Series(mine) - verdicts[GPT_OSS].loc[list(mine)]
    found = split_difference(mine, GPT_OSS, subset)
    assert found.value == pytest.approx(float((weights * d).sum()) / 500, rel=1e-5)
    assert found.n == len(mine) and found.low < found.value < found.high
    # its p is the normal test of the same standard error the interval uses
    assert (found.p_value < 0.05) == (found.low > 0 or found.high < 0)
    levels = verdicts["level"]
    for level in range(1, 6):
        at = [p for p in mine if levels[p] == level]
        population = int((levels == level).sum())
        expected = float((weights[at] * d[at]).sum()) / population
        found = split_difference(mine, GPT_OSS, subset, level)
        assert found.value == pytest.approx(expected, rel=1e-5)


@pytest.mark.slow
def test_the_weighted_difference_covers_the_true_split_difference():
    # every ordered pair of published runs of one protocol that ran all 500 puzzles, on five
    # 100-puzzle subsets redrawn as the shipped ones are (balanced, from the frozen run list):
    # the interval holds the true split difference in >= 93%
    verdicts, model = load_verdicts(), load_item_model()
    solved = verdicts.solved
    frozen = frozen_verdicts(verdicts)
    full = [i for i in range(len(verdicts.runs)) if not np.isnan(solved[i]).any()]
    covered, widths = [], []
    for draw in range(5):
        subset = balanced_subset(100, verdicts.levels, frozen, model, seed=draw)
        for a, b in permutations(full, 2):
            if verdicts.runs[a].protocol != verdicts.runs[b].protocol:
                continue
            found = stratified_difference(subset, solved[a], solved[b])
            truth = solved[a].mean() - solved[b].mean()
            covered.append(found.low - 1e-12 <= truth <= found.high + 1e-12)
            widths.append(found.high - found.low)
    assert len(covered) > 3000
    assert np.mean(covered) >= 0.93
    assert np.mean(widths) < 0.10  # informative: narrower than 100 random puzzles' ~0.12


@pytest.mark.parametrize("subset", NAMES)
def test_each_levels_estimate_is_horvitz_thompson_and_covers_the_published_runs(subset):
    weights = shipped("subsets.csv").dropna(subset=[subset]).set_index("puzzle_id")[subset]
    verdicts = shipped("verdicts.csv").set_index("puzzle_id")
    levels = verdicts["level"]
    covered = []
    for run_id in complete_runs():
        mine = on_subset(run_id, subset)
        found = level_estimates(mine, subset)
        assert sorted(found) == [1, 2, 3, 4, 5]
        for level, estimate in found.items():
            at = [p for p in mine if levels[p] == level]
            expected = float((weights[at] * pd.Series(mine)[at]).sum()) / (levels == level).sum()
            assert estimate.value == pytest.approx(expected, rel=1e-5)
            truth = verdicts.loc[levels == level, run_id].mean()
            covered.append(estimate.low - 1e-12 <= truth <= estimate.high + 1e-12)
    assert np.mean(covered) >= 0.95


def test_a_stratum_without_a_shared_puzzle_withholds_the_difference():
    mine = on_subset(GPT_OSS, "informative:50")
    level5 = set(shipped("verdicts.csv").query("level == 5")["puzzle_id"])
    found = split_difference({p: v for p, v in mine.items() if p not in level5}, GPT_OSS, NAMES[0])
    assert np.isnan(found.value) and "withheld" in found.note
    # the other levels keep their estimates
    assert split_difference(mine, GPT_OSS, NAMES[0], 1).value == 0


@pytest.mark.parametrize("subset", NAMES)
def test_two_runs_of_one_subset_differ_by_the_horvitz_thompson_mean(subset):
    # two runs on the same subset (OLMo's and GPT-OSS's verdicts there): the weighted mean of
    # their differences from subsets.csv, and 0 (0, 0) for a run against itself
    from inspect_sparc.published_runs.split_paired import runs_difference

    weights = shipped("subsets.csv").dropna(subset=[subset]).set_index("puzzle_id")[subset]
    a, b = on_subset(OLMO, subset), on_subset(GPT_OSS, subset)
    d = pd.Series(a) - pd.Series(b)
    found = runs_difference(a, b, subset)
    assert found.value == pytest.approx(float((weights * d).sum()) / 500, rel=1e-5)
    assert found.low < found.value < found.high and np.isnan(found.published)
    # the interval holds the two runs' true split difference
    verdicts = shipped("verdicts.csv")
    assert found.low <= verdicts[OLMO].mean() - verdicts[GPT_OSS].mean() <= found.high
    same = runs_difference(a, a, subset)
    assert (same.value, same.low, same.high, same.p_value) == (0, 0, 0, 1)
