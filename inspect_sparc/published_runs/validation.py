"""Leave-one-run-out validation of the subset estimates: hold out each published run that ran
all 500 puzzles, rebuild the strata, subset and 2PL fit from the other runs, estimate the
held-out run's full-split accuracy from its verdicts on the subset, and compare with its truth."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from inspect_sparc.published_runs.estimators import (
    Estimate,
    design_based,
    model_based,
    wilson_bounds,
)
from inspect_sparc.published_runs.irt import fit_2pl
from inspect_sparc.published_runs.subsets import draw_subset
from inspect_sparc.published_runs.verdicts import Verdicts, load_verdicts

METHODS = ("design-based", "model-based", "random")


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
        return abs(self.estimate.value - self.truth)

    @property
    def covered(self) -> bool:
        return self.estimate.low <= self.truth <= self.estimate.high


def random_estimate(values: np.ndarray, population: int) -> Estimate:
    """Mean of a simple random sample; Wilson interval at n / (1 - n/N) (finite population)."""
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
    """Every trial: held-out run x size x draw x method (the draws are seeded by their number)."""
    verdicts = verdicts or load_verdicts()
    solved = verdicts.solved
    complete = [i for i, row in enumerate(solved) if not np.isnan(row).any()]
    if run_ids is not None:
        complete = [i for i in complete if verdicts.runs[i].run_id in run_ids]
    trials = []
    for count, i in enumerate(complete, 1):
        run_id, truth = verdicts.runs[i].run_id, float(solved[i].mean())
        others = np.delete(solved, i, axis=0)
        model = fit_2pl(others) if "model-based" in methods else None
        for size in sizes:
            for draw in range(draws):
                subset = draw_subset(size, verdicts.levels, others, seed=draw)
                values = solved[i][subset.chosen]
                found = {}
                if "design-based" in methods:
                    found["design-based"] = design_based(subset, values)
                if model is not None:
                    found["model-based"] = model_based(model, subset, values)
                if "random" in methods:
                    picked = np.random.default_rng([draw, i]).choice(solved.shape[1], size, False)
                    found["random"] = random_estimate(solved[i][picked], solved.shape[1])
                trials += [Trial(run_id, size, draw, m, truth, e) for m, e in found.items()]
        if progress:
            progress(f"{count}/{len(complete)} {run_id}")
    return trials


def summarise(trials: Sequence[Trial]) -> list[dict[str, object]]:
    """Per method and size: trials, mean absolute error and mean width (points), coverage."""
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
    """The summary as the docs' table."""
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
