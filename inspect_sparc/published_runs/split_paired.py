"""A run on a shipped subset against a published run, weighted to the whole split: the
stratified Horvitz-Thompson estimate of the split's mean paired difference (run verdict minus
published verdict, puzzle by puzzle) from the subset's puzzles, with its design-based interval;
and a subset run's per-level design-based estimates.

The published run's verdicts are known on every puzzle, so this is the difference estimator
with the published run as auxiliary: the run's split accuracy is the published accuracy plus the
design-weighted mean of the differences. A run that reproduces the published verdicts reads 0
with a zero-width interval at 0, on any subset; the subset's raw difference (which weighs the
subset's hard puzzles as often as it drew them) is not what this estimates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from inspect_sparc.published_runs.estimators import (
    CONFIDENCE,
    Estimate,
    design_based,
    stratum_variance,
)
from inspect_sparc.published_runs.shipped import load_subset
from inspect_sparc.published_runs.subsets import BINS, Subset
from inspect_sparc.published_runs.verdicts import Verdicts, load_verdicts

#: The method as the report names it.
METHOD = "stratified Horvitz-Thompson paired difference (design-based normal interval)"


@dataclass(frozen=True)
class SplitDifference:
    """Run minus published accuracy (fractions) estimated for the whole split (or one level):
    the estimate, its interval, standard error and two-sided p (normal), the subset puzzles
    used, the published run's accuracy over the same population, and a note (why NaN)."""

    value: float
    low: float
    high: float
    se: float
    p_value: float
    n: int
    published: float
    note: str = ""


def stratified_difference(
    subset: Subset,
    run: np.ndarray,
    published: np.ndarray,
    keep: np.ndarray | None = None,
    confidence: float = CONFIDENCE,
) -> SplitDifference:
    """The split mean of `run - published` from the subset's puzzles (stratified HT, finite
    population correction; a stratum whose differences are all alike takes its collapsed
    group's spread, as the subset estimators do).

    Args:
        subset: the stratified sample (strata over the split's puzzles, in verdicts order).
        run: the run's value per split puzzle (NaN where it has none).
        published: the published run's verdict per split puzzle (NaN where it has none).
        keep: the puzzles of the population (e.g. one level); None: all.
        confidence: the interval's level.

    Returns:
        The estimate; NaN, with the reason in `note`, where a stratum of the population has
        no puzzle of the subset both ran.
    """
    from scipy.stats import norm

    population = ~np.isnan(published) & (np.ones(published.size, bool) if keep is None else keep)
    sampled = np.zeros(published.size, bool)
    sampled[subset.chosen] = True
    sampled &= population & ~np.isnan(run)
    total = int(population.sum())
    truth = float(published[population].mean()) if total else float("nan")
    found = _stratified_mean(subset, run - published, sampled, population)
    if found is None:
        nan = float("nan")
        note = "a stratum of the population has no subset puzzle both ran: withheld"
        return SplitDifference(nan, nan, nan, nan, nan, int(sampled.sum()), truth, note)
    estimate, se = found
    half = float(norm.ppf(0.5 + confidence / 2)) * se
    # what the sampled puzzles already fix: the run solves at least its solved ones
    known = run[sampled]
    lowest = float(known.sum()) / total - truth
    highest = 1 - float((1 - known).sum()) / total - truth
    low, high = max(lowest, estimate - half), min(highest, estimate + half)
    return SplitDifference(
        estimate, low, max(low, high), se, _p(estimate, se), int(sampled.sum()), truth
    )


def _p(estimate: float, se: float) -> float:
    """Two-sided normal p of `estimate` / `se`: 1 where nothing differs and no spread is
    measured, NaN where a difference has no measured spread to test it with."""
    from scipy.stats import norm

    if se > 0:
        return float(2 * norm.sf(abs(estimate) / se))
    return 1.0 if estimate == 0 else float("nan")


def _stratified_mean(
    subset: Subset, d: np.ndarray, sampled: np.ndarray, population: np.ndarray
) -> tuple[float, float] | None:
    """The stratified Horvitz-Thompson mean over `population` of the values `d` known on the
    `sampled` puzzles, and its standard error (finite population correction; a stratum whose
    values are all alike takes its collapsed group's spread); None where a stratum of the
    population has no sampled puzzle."""
    strata, total = subset.strata, int(population.sum())
    estimate, variance = 0.0, 0.0
    for h in np.unique(strata[population]):
        size = int((population & (strata == h)).sum())
        at = sampled & (strata == h)
        if not at.any():
            return None
        pooled = d[sampled & (strata % BINS == h % BINS)]
        share = size / total
        estimate += share * float(d[at].mean())
        spread = max(stratum_variance(d[at], pooled), stratum_variance(pooled, pooled))
        variance += share**2 * (1 - int(at.sum()) / size) * spread / int(at.sum())
    return estimate, float(np.sqrt(variance))


def runs_difference(
    run_a: Mapping[str, float],
    run_b: Mapping[str, float],
    subset_name: str,
    confidence: float = CONFIDENCE,
) -> SplitDifference:
    """Two runs of the same shipped subset: run a minus run b on the whole split, the
    stratified Horvitz-Thompson mean of their paired differences on the subset's puzzles both
    scored, with its design-based normal interval (clipped to [-1, 1]) and p; NaN, and why,
    where a stratum has no puzzle both scored. `published` is NaN (no run is known on the
    whole split).

    Args:
        run_a: puzzle id -> run a's value (0/1, or a mean over epochs).
        run_b: the same for run b.
        subset_name: the shipped subset both ran.
        confidence: the interval's level.

    Returns:
        The difference as fractions."""
    from scipy.stats import norm

    ids = load_verdicts().puzzle_ids
    a = np.array([float(run_a.get(pid, np.nan)) for pid in ids])
    b = np.array([float(run_b.get(pid, np.nan)) for pid in ids])
    subset = load_subset(subset_name)
    sampled = np.zeros(len(ids), bool)
    sampled[subset.chosen] = True
    sampled &= ~np.isnan(a) & ~np.isnan(b)
    nan = float("nan")
    found = _stratified_mean(subset, a - b, sampled, np.ones(len(ids), bool))
    if found is None:
        note = "a stratum of the split has no subset puzzle both runs scored: withheld"
        return SplitDifference(nan, nan, nan, nan, nan, int(sampled.sum()), nan, note)
    estimate, se = found
    half = float(norm.ppf(0.5 + confidence / 2)) * se
    low, high = max(-1.0, estimate - half), min(1.0, estimate + half)
    return SplitDifference(estimate, low, high, se, _p(estimate, se), int(sampled.sum()), nan)


def split_difference(
    run_verdicts: Mapping[str, float],
    published_run: str,
    subset_name: str,
    level: int | None = None,
    confidence: float = CONFIDENCE,
    verdicts: Verdicts | None = None,
) -> SplitDifference:
    """A subset run's accuracy minus a published run's, estimated for the whole split (or one
    `level` of it): `stratified_difference` over the shipped subset `subset_name`.

    Args:
        run_verdicts: puzzle id -> the run's value (0/1, or a mean over epochs).
        published_run: a published run's id (`runs.csv`).
        subset_name: the shipped subset the run ran (`informative:100`).
        level: one level (1-5), or None for the whole split.
        confidence: the interval's level.
        verdicts: the published verdicts (default: the shipped ones).

    Returns:
        The difference as fractions, with its interval and p."""
    verdicts = verdicts or load_verdicts()
    run = np.array([float(run_verdicts.get(pid, np.nan)) for pid in verdicts.puzzle_ids])
    keep = None if level is None else verdicts.levels == level
    subset = load_subset(subset_name)
    return stratified_difference(subset, run, verdicts.row(published_run), keep, confidence)


def level_estimates(run_verdicts: Mapping[str, float], subset_name: str) -> dict[int, Estimate]:
    """A subset run's accuracy on each level of the whole split: the design-based (stratified
    Horvitz-Thompson) estimate over that level's strata, Wilson at the effective n (the
    model-assisted estimator gives the split total only). NaN for a level with a stratum whose
    subset puzzles the run has no verdict for.

    Args:
        run_verdicts: puzzle id -> the run's value (0/1, or a mean over epochs).
        subset_name: the shipped subset the run ran.

    Returns:
        level -> its estimate (fractions)."""
    verdicts = load_verdicts()
    subset = load_subset(subset_name)
    ids = verdicts.puzzle_ids
    found = {}
    for level in sorted(set(int(x) for x in verdicts.levels)):
        inside = verdicts.levels == level
        population = np.bincount(subset.strata[inside], minlength=subset.population.size)
        chosen = np.array([i for i in subset.chosen if inside[i] and ids[i] in run_verdicts])
        chosen = chosen.astype(int)
        sizes = np.bincount(subset.strata[chosen], minlength=population.size)
        if (sizes[population > 0] == 0).any():
            nan = float("nan")
            found[level] = Estimate("design-based", nan, nan, nan, int(chosen.size))
            continue
        values = np.array([float(run_verdicts[ids[i]]) for i in chosen])
        part = Subset(subset.name, subset.strata, population, sizes, chosen)
        found[level] = design_based(part, values)
    return found
