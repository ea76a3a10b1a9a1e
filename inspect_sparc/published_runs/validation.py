"""Validation of the subset estimates. Leave-one-run-out and leave-one-family-out: hold out each
published run that ran all 500 puzzles (or each model family), rebuild the 2PL fit, strata and
balanced subsets from the other runs, estimate the held-out run's full-split accuracy from its
verdicts on the subset, and compare with its truth. Also the shipped subsets themselves and
simulated models far stronger than the published ones."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from inspect_sparc.published_runs.estimators import (
    Estimate,
    design_based,
    model_assisted,
    model_based,
    wilson_bounds,
)
from inspect_sparc.published_runs.irt import ItemModel, fit_2pl
from inspect_sparc.published_runs.subsets import (
    UNSOLVED_SHARE,
    Subset,
    balanced_subset,
)
from inspect_sparc.published_runs.verdicts import Verdicts, load_verdicts

METHODS = ("design-based", "model-based", "random")
#: The estimators the family and shipped-subset validations compare (beside `random`).
FAMILY_METHODS = ("design-based", "model-assisted", "model-based")


@dataclass(frozen=True)
class Trial:
    """One held-out run, subset size and draw, by one method."""

    run_id: str
    size: int
    draw: int
    method: str
    truth: float
    estimate: Estimate

    @property
    def error(self) -> float:
        """How far the estimate lies from the run's full-split accuracy.

        Returns:
            |estimate - truth|, as a fraction."""
        return abs(self.estimate.value - self.truth)

    @property
    def covered(self) -> bool:
        """Whether the estimate's interval holds the run's full-split accuracy.

        Returns:
            True when low <= truth <= high."""
        return self.estimate.low <= self.truth <= self.estimate.high


def random_estimate(values: np.ndarray, population: int) -> Estimate:
    """Mean of a simple random sample; Wilson interval at n / (1 - n/N) (finite population).

    Args:
        values: the run's verdicts on the random puzzles.
        population: the split's size.

    Returns:
        The sample mean and its Wilson interval."""
    n = values.size
    low, high = wilson_bounds(float(values.mean()), n / max(1e-9, 1 - n / population))
    return Estimate("random", float(values.mean()), low, high, n)


def leave_one_run_out(
    sizes: Sequence[int] = (50, 100, 200),
    draws: int = 5,
    methods: Sequence[str] = METHODS,
    run_ids: Sequence[str] | None = None,
    verdicts: Verdicts | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[Trial]:
    """Every trial: held-out run x size x draw x method (the draws are seeded by their number).

    Args:
        sizes: subset sizes.
        draws: subsets per held-out run and size.
        methods: which of METHODS to run.
        run_ids: hold out only these runs (None: every run that ran all 500 puzzles).
        verdicts: the published verdicts (None: the shipped ones).
        progress: called with a line after each held-out run (None: silent).

    Returns:
        The trials."""
    verdicts = verdicts or load_verdicts()
    solved = verdicts.solved
    complete = [i for i, row in enumerate(solved) if not np.isnan(row).any()]
    if run_ids is not None:
        complete = [i for i in complete if verdicts.runs[i].run_id in run_ids]
    trials = []
    for count, i in enumerate(complete, 1):
        run_id, truth = verdicts.runs[i].run_id, float(solved[i].mean())
        others = np.delete(solved, i, axis=0)
        model = fit_2pl(others)
        for size in sizes:
            for draw in range(draws):
                subset = balanced_subset(size, verdicts.levels, others, model, draw)
                values = solved[i][subset.chosen]
                found = {}
                if "design-based" in methods:
                    found["design-based"] = design_based(subset, values)
                if "model-based" in methods:
                    found["model-based"] = model_based(model, subset, values)
                if "random" in methods:
                    picked = np.random.default_rng([draw, i]).choice(solved.shape[1], size, False)
                    found["random"] = random_estimate(solved[i][picked], solved.shape[1])
                trials += [Trial(run_id, size, draw, m, truth, e) for m, e in found.items()]
        if progress:
            progress(f"{count}/{len(complete)} {run_id}")
    return trials


def summarise(trials: Sequence[Trial]) -> list[dict[str, object]]:
    """Per method and size: trials, mean absolute error and mean width (points), coverage.

    Args:
        trials: trials of any methods and sizes.

    Returns:
        One row per method and size, in METHODS order."""
    rows = []
    for method in METHODS:
        for size in sorted({t.size for t in trials}):
            group = [t for t in trials if t.method == method and t.size == size]
            if not group:
                continue
            rows.append(
                {
                    "method": method,
                    "size": size,
                    "trials": len(group),
                    "mae_points": 100 * float(np.mean([t.error for t in group])),
                    "coverage": float(np.mean([t.covered for t in group])),
                    "width_points": 100
                    * float(np.mean([t.estimate.high - t.estimate.low for t in group])),
                }
            )
    return rows


def markdown_table(rows: Sequence[dict[str, object]]) -> str:
    """The summary as the docs' table.

    Args:
        rows: `summarise`'s rows.

    Returns:
        The Markdown table."""
    lines = [
        "| estimator | puzzles | trials | MAE (points) | 95% coverage | mean width (points) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['method']} | {r['size']} | {r['trials']} | {r['mae_points']:.2f} | "
            f"{100 * float(r['coverage']):.1f}% | {r['width_points']:.1f} |"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


def family(model: str) -> str:
    """A published run's model family: its base model, fine-tunes and protocols together
    (`Qwen3-14B-SPaRC-GRPO` and `Qwen 3 14B (FT)` are `Qwen 3 14B`).

    Args:
        model: runs.csv's model name.

    Returns:
        The family's name."""
    import re

    name = model.removesuffix(" (FT)")
    found = re.match(r"Qwen3-([\d.]+B)-SPaRC", name)
    return f"Qwen 3 {found.group(1)}" if found else name


@dataclass(frozen=True)
class HeldOut:
    """One model family held out whole: its runs that ran all 500 puzzles (rows of the
    verdicts), the other families' verdicts and the 2PL fitted to them alone."""

    family: str
    #: The family's place among all families, `k/N` (by name).
    place: str
    held: list[Any]
    others: np.ndarray
    model: ItemModel


def held_out_families(verdicts: Verdicts) -> Iterator[HeldOut]:
    """Each model family in turn (by name), held out whole for leave-one-family-out checks:
    the 2PL refitted without it, so nothing of the family informs its own estimate.

    Args:
        verdicts: the published verdicts.

    Yields:
        a `HeldOut` per family with at least one run on all 500 puzzles (the others, which
        have nothing to check, are passed over unfitted).
    """
    solved = verdicts.solved
    families = [family(r.model) for r in verdicts.runs]
    names = sorted(set(families))
    for count, name in enumerate(names, 1):
        out = np.array([f == name for f in families])
        held = [i for i in np.flatnonzero(out) if not np.isnan(solved[i]).any()]
        if held:
            others = solved[~out]
            yield HeldOut(name, f"{count}/{len(names)}", held, others, fit_2pl(others))


def _estimates(
    model: Any, subset: Any, values: np.ndarray, methods: Sequence[str]
) -> dict[str, Estimate]:
    """Each asked method's estimate from one run's verdicts on one subset."""
    found: dict[str, Estimate] = {}
    if "design-based" in methods:
        found["design-based"] = design_based(subset, values)
    if "model-assisted" in methods:
        found["model-assisted"] = model_assisted(model, subset, values)
    if "model-based" in methods:
        found["model-based"] = model_based(model, subset, values)
    return found


def leave_one_family_out(
    sizes: Sequence[int] = (100,),
    draws: int = 10,
    methods: Sequence[str] = FAMILY_METHODS,
    verdicts: Verdicts | None = None,
    progress: Callable[[str], None] | None = None,
    unsolved_share: float = UNSOLVED_SHARE,
) -> list[Trial]:
    """Every trial: each model family held out whole (all its runs), the 2PL fit, strata and
    balanced subsets (`draws` per size, seeded by their number, `unsolved_share` of each for
    the puzzles the other families never solved) rebuilt from the other families' runs, each
    held-out run that ran all 500 puzzles estimated; with as many random puzzles beside
    (`random`).

    Args:
        sizes: subset sizes.
        draws: subsets per held-out family and size.
        methods: which of FAMILY_METHODS to run (`random` always runs).
        verdicts: the published verdicts (None: the shipped ones).
        progress: called with a line after each held-out family (None: silent).
        unsolved_share: the share of each subset for the puzzles no other family solved.

    Returns:
        The trials."""
    verdicts = verdicts or load_verdicts()
    solved = verdicts.solved
    trials = []
    for fold in held_out_families(verdicts):
        model = fold.model
        for size in sizes:
            for draw in range(draws):
                subset = balanced_subset(
                    size, verdicts.levels, fold.others, model, draw, unsolved_share=unsolved_share
                )
                for i in fold.held:
                    truth, row = float(solved[i].mean()), solved[i]
                    found = _estimates(model, subset, row[subset.chosen], methods)
                    rng = np.random.default_rng([draw, int(i)])
                    found["random"] = random_estimate(
                        row[rng.choice(row.size, size, False)], row.size
                    )
                    run_id = verdicts.runs[i].run_id
                    trials += [Trial(run_id, size, draw, m, truth, e) for m, e in found.items()]
        if progress:
            progress(f"{fold.place} {fold.family}")
    return trials


def shipped_subset_trials(
    methods: Sequence[str] = FAMILY_METHODS, verdicts: Verdicts | None = None
) -> list[Trial]:
    """The shipped subsets themselves (the one draw users run) and the shipped fit: each
    published run that ran all 500 puzzles estimated from its verdicts on each subset (the
    fit saw these runs: this is the subset's own bias, not a held-out check).

    Args:
        methods: which of FAMILY_METHODS to run.
        verdicts: the published verdicts (None: the shipped ones).

    Returns:
        One trial per subset, run and method (draw 0)."""
    from inspect_sparc.published_runs.shipped import NAMES, load_item_model, load_subset

    verdicts = verdicts or load_verdicts()
    model = load_item_model()
    trials = []
    for name in NAMES:
        subset = load_subset(name)
        for i, row in enumerate(verdicts.solved):
            if np.isnan(row).any():
                continue
            found = _estimates(model, subset, row[subset.chosen], methods)
            run_id, truth = verdicts.runs[i].run_id, float(row.mean())
            trials += [Trial(run_id, subset.chosen.size, 0, m, truth, e) for m, e in found.items()]
    return trials


def simulated_trials(
    accuracies: Sequence[float] = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95),
    size: int = 100,
    runs: int = 40,
    methods: Sequence[str] = FAMILY_METHODS,
    seed: int = 7,
    subset: Subset | None = None,
) -> list[Trial]:
    """Simulated models stronger than every published run, on the shipped subset of `size`
    and the shipped fit. Each puzzle's chance follows a 2PL: placed puzzles use their fitted
    a and b; a puzzle no published run solved gets the median a and a difficulty drawn
    uniformly between the hardest placed b and that plus 3 (harder than every placed puzzle,
    by an unknown amount). For each target accuracy the ability giving it is found, and
    `runs` runs are drawn (Bernoulli per puzzle); the truth is each drawn run's own accuracy.
    `subset` replaces the shipped one (same size).

    Args:
        accuracies: the simulated models' expected accuracies (fractions).
        size: the subset's size (a shipped `informative:<size>`).
        runs: simulated runs per accuracy.
        methods: which of FAMILY_METHODS to run (`random` always runs).
        seed: the simulation's seed.
        subset: the subset to use (None: the shipped one).

    Returns:
        The trials; `run_id` is "simulated <accuracy>%", `draw` the run's number."""
    from scipy.optimize import brentq

    from inspect_sparc.published_runs.shipped import load_item_model, load_subset

    model = load_item_model()
    subset = subset or load_subset(f"informative:{size}")
    rng = np.random.default_rng(seed)
    hardest = float(np.nanmax(model.b))
    a = np.where(model.placed, model.a, float(np.nanmedian(model.a)))
    trials = []
    for target in accuracies:
        for k in range(runs):
            b = np.where(model.placed, model.b, hardest + rng.uniform(0, 3, model.b.size))
            theta = brentq(
                lambda t, b=b, target=target: (
                    float((1 / (1 + np.exp(-a * (t - b)))).mean()) - target
                ),
                -20,
                40,
            )
            row = (rng.random(b.size) < 1 / (1 + np.exp(-a * (theta - b)))).astype(float)
            found = _estimates(model, subset, row[subset.chosen], methods)
            found["random"] = random_estimate(row[rng.choice(row.size, size, False)], row.size)
            run_id = f"simulated {100 * target:.0f}%"
            trials += [Trial(run_id, size, k, m, float(row.mean()), e) for m, e in found.items()]
    return trials


def bias_table(trials: Sequence[Trial]) -> list[dict[str, object]]:
    """Per method and size: trials, MAE, mean bias (points), coverage, mean width (points).

    Args:
        trials: trials of any methods and sizes.

    Returns:
        One row per method and size: FAMILY_METHODS, then `random`."""
    rows = []
    for method in (*FAMILY_METHODS, "random"):
        for size in sorted({t.size for t in trials}):
            group = [t for t in trials if t.method == method and t.size == size]
            if group:
                signed = [t.estimate.value - t.truth for t in group]
                width = [t.estimate.high - t.estimate.low for t in group]
                rows.append(
                    {
                        "method": method,
                        "size": size,
                        "trials": len(group),
                        "mae_points": 100 * float(np.mean(np.abs(signed))),
                        "bias_points": 100 * float(np.mean(signed)),
                        "coverage": float(np.mean([t.covered for t in group])),
                        "width_points": 100 * float(np.mean(width)),
                    }
                )
    return rows
