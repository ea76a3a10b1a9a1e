"""Two estimates of a run's full-split accuracy from its verdicts on a stratified subset:
design-based (Horvitz-Thompson, valid for any model) and model-based (2PL IRT fitted on the
published runs, tighter for models like them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from inspect_sparc.published_runs.irt import ItemModel, ability
from inspect_sparc.published_runs.subsets import BINS, Subset

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """An estimate of full-split accuracy (fraction) with its 95% interval."""

    method: str
    value: float
    low: float
    high: float
    n: int
    note: str = ""


def _z() -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + CONFIDENCE / 2))


def _quantile(parts: np.ndarray, freedom: np.ndarray) -> float:
    """The two-sided 95% Student t quantile at the Satterthwaite degrees of freedom of a sum of
    stratum variances `parts` estimated with `freedom` degrees of freedom each (Cochran,
    Sampling Techniques, 5.4): few puzzles per stratum give a noisy variance, and the normal
    quantile would then cover less than 95%."""
    from scipy.stats import t

    if parts.sum() <= 0:
        return _z()
    df = parts.sum() ** 2 / (parts**2 / freedom).sum()
    return float(t.ppf(0.5 + CONFIDENCE / 2, df))


def wilson_bounds(p: float, n: float, z: float | None = None) -> tuple[float, float]:
    """Wilson score bounds of a rate p over n (n may be an effective, non-integer size), at the
    normal quantile or at `z` (a t quantile for an estimated variance).

    Args:
        p: the observed rate, a fraction in [0, 1].
        n: the (effective) sample size; need not be a whole number.
        z: the quantile to use (None: the normal one at 95%).

    Returns:
        The (low, high) bounds as fractions; exactly 0 (1) when p is 0 (1)."""
    z = _z() if z is None else z
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if p <= 0 else max(0.0, centre - half)  # not 3e-18 at p = 0 (rounding)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return float(low), float(high)


def design_based(subset: Subset, values: np.ndarray) -> Estimate:
    """Stratified Horvitz-Thompson estimate from a run's `values` (in [0, 1]) on the subset's
    puzzles (in `subset.chosen` order), with the stratified variance (finite population
    correction) turned into a Wilson interval at the effective sample size p(1-p)/variance (at
    most N). A stratum whose sample is all solved or all failed would claim no spread: it takes
    the variance of its collapsed group instead (its difficulty bin, all levels together).

    Args:
        subset: the stratified sample; `values` are the run's verdicts on `subset.chosen`.
        values: per chosen puzzle, 0/1 or a mean over epochs.

    Returns:
        The estimate of the full-split accuracy (fraction) and its 95% Wilson interval."""
    strata, bins = subset.strata[subset.chosen], subset.strata[subset.chosen] % BINS
    total = subset.population.sum()
    estimate, variance = 0.0, 0.0
    for h in np.unique(strata):
        y = values[strata == h]
        share = subset.population[h] / total
        estimate += share * y.mean()
        spread = stratum_variance(y, values[bins == h % BINS])
        variance += share**2 * (1 - y.size / subset.population[h]) * spread / y.size
    binomial = estimate * (1 - estimate)
    # no spread anywhere (nothing or everything solved): the plain Wilson interval of the subset
    effective = float(values.size) if variance <= 0 else min(float(total), binomial / variance)
    low, high = wilson_bounds(estimate, max(effective, 1.0))
    return Estimate("design-based", float(estimate), low, high, int(values.size))


def stratum_variance(y: np.ndarray, pooled: np.ndarray) -> float:
    """The sample variance of one stratum's values, or, where they are all alike, that of
    `pooled` (the collapsed strata; 0 when those are all alike too).

    Args:
        y: one stratum's values (verdicts or residuals).
        pooled: the values of its collapsed group (the same difficulty bin over all levels).

    Returns:
        The sample variance (ddof 1) of `y`, else of `pooled`, else 0."""
    for sample in (y, pooled):
        if sample.size > 1 and np.ptp(sample) > 0:
            return float(sample.var(ddof=1))
    return 0.0


def model_based(model: ItemModel, subset: Subset, values: np.ndarray) -> Estimate:
    """The run's solved puzzles of the subset, plus for every other placed puzzle its IRT chance
    at the run's MAP ability, plus for the puzzles no published run solved (not placed) the
    stratified mean of the subset's own such puzzles. The variance adds the unsampled placed
    puzzles' Bernoulli spread, the ability's posterior variance (delta method) and the unplaced
    part's design variance; a normal interval, clipped to [what the subset solved, 1].

    Args:
        model: the shipped (or refitted) 2PL puzzles.
        subset: the stratified sample; `values` are the run's verdicts on `subset.chosen`.
        values: per chosen puzzle, 0/1 or a mean over epochs.

    Returns:
        The estimate (fraction) and its 95% interval; its note starts with BEYOND when the
        run lies outside what the 2PL was fitted on."""
    chosen, total = subset.chosen, model.a.size
    theta, theta_variance = ability(model, chosen, values)
    unsampled = np.ones(total, bool)
    unsampled[chosen] = False
    others = np.flatnonzero(unsampled & model.placed)
    p = model.p(theta)[others]
    slope = (model.a[others] * p * (1 - p)).sum() / total
    estimate = (values.sum() + p.sum()) / total
    variance = (p * (1 - p)).sum() / total**2 + slope**2 * theta_variance
    rest, rest_variance = _unplaced_part(model, subset, values)
    estimate += rest
    variance += rest_variance
    half = _z() * np.sqrt(variance)
    floor = values.sum() / total  # what the subset already solved
    return Estimate(
        "model-based (2PL IRT)",
        float(estimate),
        float(max(floor, estimate - half)),
        float(min(1.0, estimate + half)),
        int(values.size),
        _range_note(model, theta, values[~model.placed[chosen]]),
    )


#: The start of the model-based estimate's note when its assumptions do not hold.
BEYOND = "beyond the published range"


def _range_note(model: ItemModel, theta: float, unplaced: np.ndarray) -> str:
    """Why the model-based estimate should not be read, or "": the run's ability lies outside
    the published runs' (the 2PL was never checked there), or it solves puzzles no published
    run solved (the 2PL cannot place them)."""
    reasons = []
    if not model.ability_low <= theta <= model.ability_high:
        side = "above" if theta > model.ability_high else "below"
        reasons.append(
            f"ability {theta:.2f} {side} the published runs' "
            f"({model.ability_low:.2f} to {model.ability_high:.2f})"
        )
    if unplaced.sum() > 0:
        reasons.append("solves puzzles no published run solved")
    return f"{BEYOND}: {'; '.join(reasons)}; read the model-assisted row" if reasons else ""


def _unplaced_part(model: ItemModel, subset: Subset, values: np.ndarray) -> tuple[float, float]:
    """Expected solved share (of the whole split) of the unplaced puzzles outside the subset,
    from the sampled unplaced puzzles of each stratum, and its variance."""
    total = model.a.size
    unsampled = np.ones(total, bool)
    unsampled[subset.chosen] = False
    sampled_strata = subset.strata[subset.chosen]
    unplaced = ~model.placed[subset.chosen]
    rest, variance = 0.0, 0.0
    for h in np.unique(subset.strata[~model.placed]):
        y = values[unplaced & (sampled_strata == h)]
        left = int((unsampled & ~model.placed & (subset.strata == h)).sum())
        if not y.size or not left:
            continue
        rest += left * y.mean() / total
        variance += (left / total) ** 2 * stratum_variance(y, values[unplaced]) / y.size
    return rest, variance


def model_assisted(model: ItemModel, subset: Subset, values: np.ndarray) -> Estimate:
    """The difference (model-assisted) estimator: every puzzle's IRT chance at the run's MAP
    ability as auxiliary (0 for a puzzle no published run solved), summed over the split, plus
    the stratified Horvitz-Thompson mean of the subset's residuals (verdict minus chance).
    Its variance is the design variance of the residuals (stratified, finite population
    correction; a stratum whose residuals are all alike takes its collapsed group's), so the
    interval is valid by design whatever the model, and narrow where the IRT predicts well.
    The interval is Wilson's at the effective sample size p(1-p)/variance (asymmetric near 0
    and 1, where a weak run's normal interval fell short) with a t quantile.
    A run that solved every puzzle of the subset, or none, has no residual spread to measure:
    it gets the design-based estimate and interval (which then holds 100, or 0).

    Args:
        model: the shipped (or refitted) 2PL puzzles.
        subset: the stratified sample; `values` are the run's verdicts on `subset.chosen`.
        values: per chosen puzzle, 0/1 or a mean over epochs.

    Returns:
        The estimate of the full-split accuracy (fraction) and its 95% interval (Wilson, at the
        Student t quantile of the variance's Satterthwaite degrees of freedom), both within
        [what the subset solved, 1 - what it failed] (the split's share it must lie in)."""
    chosen = subset.chosen
    theta, _ = ability(model, chosen, values)
    predicted = np.where(model.placed, model.p(theta), 0.0)
    return difference_estimate(subset, values, predicted)


def difference_estimate(
    subset: Subset,
    values: np.ndarray,
    predicted: np.ndarray,
    sample_predicted: np.ndarray | None = None,
    method: str | None = None,
) -> Estimate:
    """The difference estimator for any prediction: `predicted` summed over the split plus the
    stratified Horvitz-Thompson mean of the subset's residuals, with their design variance and
    the interval `model_assisted` describes. Valid by design whatever the prediction, as long as
    the prediction of a sampled puzzle does not use that puzzle's own verdict (pass the
    held-out predictions as `sample_predicted` when it would).

    Args:
        subset: the stratified sample; `values` are the run's verdicts on `subset.chosen`.
        values: per chosen puzzle, 0/1 or a mean over epochs.
        predicted: each puzzle's predicted chance of being solved, over the whole split.
        sample_predicted: per chosen puzzle, the prediction its residual uses (None: the
            puzzle's entry of `predicted`).
        method: the estimate's name (None: the model-assisted estimate's).

    Returns:
        The estimate of the full-split accuracy (fraction) and its 95% interval; a run whose
        subset verdicts are all alike gets the design-based estimate and interval."""
    method = method or MODEL_ASSISTED
    if values.size and (np.all(values == 1) or np.all(values == 0)):
        design = design_based(subset, values)
        return Estimate(method, design.value, design.low, design.high, design.n, EDGE)
    chosen, total = subset.chosen, subset.strata.size
    at_sample = predicted[chosen] if sample_predicted is None else sample_predicted
    residual = values - at_sample
    strata, bins = subset.strata[chosen], subset.strata[chosen] % BINS
    estimate, parts, freedom = float(predicted.mean()), [], []
    for h in np.unique(strata):
        e = residual[strata == h]
        share = subset.population[h] / total
        estimate += share * float(e.mean())
        pooled = residual[bins == h % BINS]
        spread = max(stratum_variance(e, pooled), stratum_variance(pooled, pooled))
        parts.append(share**2 * (1 - e.size / subset.population[h]) * spread / e.size)
        freedom.append(max(1, e.size - 1))
    variance = float(sum(parts))
    floor = float(values.sum()) / total
    ceiling = 1 - float((1 - values).sum()) / total
    estimate = min(max(estimate, floor), ceiling)
    binomial = estimate * (1 - estimate)
    effective = values.size if variance <= 0 or binomial <= 0 else binomial / variance
    quantile = _quantile(np.array(parts), np.array(freedom))
    low, high = wilson_bounds(estimate, min(float(total), max(effective, 1.0)), quantile)
    return Estimate(method, estimate, max(floor, low), min(ceiling, high), values.size)


MODEL_ASSISTED = "model-assisted (difference, 2PL IRT auxiliary)"
#: The note of a run whose subset verdicts are all alike (no residual spread to measure).
EDGE = "every puzzle of the subset alike (all solved or none): the design-based estimate"
