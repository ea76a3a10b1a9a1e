"""Could a better prediction make the model-assisted estimate of informative:100 meet the
cheap-run target for published-like models (leave-one-family-out MAE at most 1.0 point)? The
difference estimator's error is the design error of its residuals, so this tries other
predictions in the same estimator (`estimators.difference_estimate`, the same design variance
and interval), leave-one-family-out, at the shipped share of puzzles no published run solved:

- the 2PL at the run's ability (the shipped model-assisted estimate);
- the 2PL with an ability per level (shrunk toward the run's ability, prior sd 0.5);
- a GREG (calibration) form: the 2PL chances at the run's ability and one spread either side,
  recombined by the Horvitz-Thompson-weighted least squares fit to the subset's verdicts;
- nearest runs (collaborative): the other families' runs weighted by the likelihood of the
  run's subset verdicts under their own (shrunk toward the 2PL), each puzzle predicted by their
  weighted verdicts; a sampled puzzle's residual uses the weights found without it;
- the 2PL at the ability the run's full 500 verdicts give (a bound: a subset run does not know
  them).

Then the floor: per held-out run, the residual variance of the 2PL at the full-split ability on
the puzzles the other families placed, against a ridge logistic regression on that chance and
every other family's verdicts, trained on 4/5 of the run's own verdicts (about 145 puzzles,
where a subset has 40) and scored on the rest (5-fold).

    python benchmarks/published_subset_predictors.py [--draws 10] [--share 0.6]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from inspect_sparc.published_runs.irt import ItemModel
    from inspect_sparc.published_runs.subsets import Subset


@dataclass(frozen=True)
class Case:
    """One held-out run on one subset: the 2PL fit and the verdicts of the other families
    (runs x puzzles, NaN where not run), the run's verdicts on the subset (`values`) and on
    every puzzle (`full`, for the bound only), and each puzzle's level."""

    model: ItemModel
    subset: Subset
    values: np.ndarray
    others: np.ndarray
    full: np.ndarray
    levels: np.ndarray


#: A prediction: each puzzle's predicted chance, and each sampled puzzle's for its residual
#: (None: its entry of the first).
Predictor = Callable[[Case], tuple[np.ndarray, np.ndarray | None]]


def _chances(model: ItemModel, theta: float) -> np.ndarray:
    return np.where(model.placed, model.p(theta), 0.0)


def one_ability(case: Case) -> tuple[np.ndarray, None]:
    """The shipped auxiliary: the 2PL at the run's MAP ability from the subset."""
    from inspect_sparc.published_runs.irt import ability

    theta = ability(case.model, case.subset.chosen, case.values)[0]
    return _chances(case.model, theta), None


def level_abilities(case: Case, sd: float = 0.5) -> tuple[np.ndarray, None]:
    """The 2PL with one ability per level: MAP from that level's subset puzzles, under a
    normal prior at the run's ability with standard deviation `sd`."""
    from dataclasses import replace

    from inspect_sparc.published_runs.irt import ability

    model, chosen, values = case.model, case.subset.chosen, case.values
    theta = ability(model, chosen, values)[0]
    prior = replace(model, ability_mean=theta, ability_sd=sd)
    predicted = np.zeros(model.a.size)
    for level in np.unique(case.levels):
        at = case.levels[chosen] == level
        own = ability(prior, chosen[at], values[at])[0] if at.any() else theta
        predicted[case.levels == level] = _chances(model, own)[case.levels == level]
    return predicted, None


def calibrated(case: Case) -> tuple[np.ndarray, None]:
    """GREG: the 2PL chances at the run's ability and one published spread either side,
    combined by the Horvitz-Thompson-weighted least squares fit to the subset's verdicts on
    the placed puzzles (no intercept: an unplaced puzzle still predicts 0)."""
    from inspect_sparc.published_runs.irt import ability

    model, subset, values = case.model, case.subset, case.values
    theta = ability(model, subset.chosen, values)[0]
    spread = model.ability_sd
    x = np.stack([_chances(model, theta + k * spread) for k in (-1, 0, 1)], axis=1)
    placed = model.placed[subset.chosen]
    w = np.sqrt(subset.weights()[placed])
    xs, ys = x[subset.chosen][placed] * w[:, None], values[placed] * w
    beta = np.linalg.solve(xs.T @ xs + 1e-3 * np.eye(3), xs.T @ ys + 1e-3 * np.array([0, 1, 0]))
    return np.clip(x @ beta, 0, 1), None


def nearest_runs(
    case: Case, shrink: float = 0.6, temper: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Collaborative: each other run's verdicts, shrunk toward the 2PL chance at the run's
    ability (a share `shrink` of the verdict), weighted by the likelihood of the run's subset
    verdicts under them (to the power `temper`); a sampled puzzle's residual uses the weights
    found without it (its own verdict does not predict it)."""
    from inspect_sparc.published_runs.irt import ability

    model, chosen, values, others = case.model, case.subset.chosen, case.values, case.others
    chance = _chances(model, ability(model, chosen, values)[0])
    q = np.where(np.isnan(others), chance, shrink * np.nan_to_num(others) + (1 - shrink) * chance)
    q = np.clip(q, 1e-3, 1 - 1e-3)
    placed = model.placed[chosen]
    each = np.where(
        placed, values * np.log(q[:, chosen]) + (1 - values) * np.log(1 - q[:, chosen]), 0
    )
    total = each.sum(axis=1)

    def weights(loglik: np.ndarray) -> np.ndarray:
        z = temper * (loglik - loglik.max())
        return np.asarray(np.exp(z) / np.exp(z).sum())

    predicted = np.where(model.placed, weights(total) @ q, 0.0)
    held = np.array([weights(total - each[:, k]) @ q[:, j] for k, j in enumerate(chosen)])
    return predicted, np.where(placed, held, 0.0)


def full_split_ability(case: Case) -> tuple[np.ndarray, None]:
    """A bound, not an estimator: the 2PL at the ability the run's full 500 verdicts give."""
    from inspect_sparc.published_runs.irt import ability

    theta = ability(case.model, np.arange(case.full.size), case.full)[0]
    return _chances(case.model, theta), None


PREDICTORS: dict[str, Predictor] = {
    "2PL, one ability (shipped)": one_ability,
    "2PL, an ability per level": level_abilities,
    "GREG on the chance at 3 abilities": calibrated,
    "nearest runs (collaborative)": nearest_runs,
    "bound: 2PL at the full-split ability": full_split_ability,
}


def lofo(
    draws: int, share: float, progress: Callable[[str], None]
) -> dict[str, list[tuple[float, bool, float]]]:
    """Per predictor, (signed error, covered, width) of every leave-one-family-out trial."""
    from inspect_sparc.published_runs.estimators import difference_estimate
    from inspect_sparc.published_runs.subsets import balanced_subset
    from inspect_sparc.published_runs.validation import held_out_families
    from inspect_sparc.published_runs.verdicts import load_verdicts

    verdicts = load_verdicts()
    solved = verdicts.solved
    found: dict[str, list[tuple[float, bool, float]]] = {name: [] for name in PREDICTORS}
    for fold in held_out_families(verdicts):
        model, others = fold.model, fold.others
        for draw in range(draws):
            subset = balanced_subset(100, verdicts.levels, others, model, draw, "", share)
            for i in fold.held:
                row, truth = solved[i], float(solved[i].mean())
                values = row[subset.chosen]
                case = Case(model, subset, values, others, row, verdicts.levels)
                for label, predictor in PREDICTORS.items():
                    predicted, at_sample = predictor(case)
                    e = difference_estimate(subset, values, predicted, at_sample)
                    found[label].append((e.value - truth, e.low <= truth <= e.high, e.high - e.low))
        progress(fold.family)
    return found


def _cross_validated(x: np.ndarray, y: np.ndarray, folds: int = 5) -> np.ndarray:
    """Each puzzle's chance from a ridge logistic regression of `y` on `x` (first column: the
    2PL logit, unpenalised; the rest penalised) fitted on the other folds."""
    from scipy.optimize import minimize

    fold = np.arange(y.size) % folds
    q = np.empty(y.size)
    for k in range(folds):
        train = fold != k
        xs, ys = x[train], y[train]

        def loss(w: np.ndarray, xs: np.ndarray = xs, ys: np.ndarray = ys) -> float:
            z = w[0] + xs @ w[1:]
            return float(-(ys * z - np.logaddexp(0, z)).sum() + 5 * (w[2:] ** 2).sum())

        w = minimize(loss, np.r_[0.0, 1.0, np.zeros(x.shape[1] - 1)], method="L-BFGS-B").x
        q[~train] = 1 / (1 + np.exp(-np.clip(w[0] + x[~train] @ w[1:], -30, 30)))
    return q


def floor(progress: Callable[[str], None]) -> tuple[float, float, float, int]:
    """Mean over held-out runs of the residual variance on the placed puzzles: the 2PL at the
    full-split ability, the cross-validated ridge logistic regression on that chance and every
    other family's verdicts, and the 2PL's own Bernoulli variance p(1-p); and the runs."""
    from inspect_sparc.published_runs.irt import ability, fit_2pl
    from inspect_sparc.published_runs.validation import family
    from inspect_sparc.published_runs.verdicts import load_verdicts

    verdicts = load_verdicts()
    solved = verdicts.solved
    families = [family(r.model) for r in verdicts.runs]
    plain, learned, bernoulli = [], [], []
    for name in sorted(set(families)):
        out = np.array([f == name for f in families])
        model = fit_2pl(solved[~out])
        placed = model.placed
        for i in [i for i in np.flatnonzero(out) if not np.isnan(solved[i]).any()]:
            y = solved[i][placed]
            p = model.p(ability(model, np.arange(placed.size), solved[i])[0])[placed]
            others = np.nan_to_num(solved[~out][:, placed])
            x = np.column_stack(
                [np.log(p / (1 - p)), (others - others.mean(axis=1, keepdims=True)).T]
            )
            q = _cross_validated(x, y)
            plain.append(float(((y - p) ** 2).mean()))
            learned.append(float(((y - q) ** 2).mean()))
            bernoulli.append(float((p * (1 - p)).mean()))
        progress(name)
    return float(np.mean(plain)), float(np.mean(learned)), float(np.mean(bernoulli)), len(plain)


def main(argv: list[str] | None = None) -> int:
    from inspect_sparc.published_runs.subsets import UNSOLVED_SHARE

    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--draws", type=int, default=10, help="subsets per held-out family")
    parser.add_argument("--share", type=float, default=UNSOLVED_SHARE, help="unsolved share")
    args = parser.parse_args(argv)
    start = time.monotonic()

    def progress(line: str) -> None:
        print(f"[{time.monotonic() - start:5.0f}s] held out {line}", file=sys.stderr)

    found = lofo(args.draws, args.share, progress)
    print(f"## Leave one family out, informative:100 at share {args.share}, {args.draws} draws\n")
    print("| prediction | trials | MAE | mean bias | 95% coverage | mean width |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, rows in found.items():
        error, covered, width = (
            np.array(column, dtype=float) for column in zip(*rows, strict=True)
        )
        print(
            f"| {label} | {error.size} | {100 * np.abs(error).mean():.2f} | "
            f"{100 * error.mean():+.2f} | {100 * covered.mean():.1f}% | {100 * width.mean():.1f} |"
        )
    plain, learned, bernoulli, runs = floor(progress)
    print("\n## Residual variance on the placed puzzles (mean over held-out runs)\n")
    print("| prediction | runs | residual variance |")
    print("|---|---:|---:|")
    print(f"| 2PL at the full-split ability | {runs} | {plain:.4f} |")
    print(f"| + every other family's verdicts (ridge, 5-fold) | {runs} | {learned:.4f} |")
    print(f"| the 2PL's own p(1 − p) at that ability | {runs} | {bernoulli:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
