"""A two-parameter logistic (2PL) item response model of the published verdicts: each puzzle j
has a discrimination a_j and a difficulty b_j, each run an ability theta, and
P(solved) = 1 / (1 + exp(-a_j (theta - b_j))). Fitted by joint maximum a posteriori with weak
normal priors (scipy's L-BFGS), so that a puzzle no run solved gets a finite difficulty set by
+infinity. A puzzle no published run solved carries no information on where it lies: it is
left out of the fit (`placed` False) and the estimators treat it apart (docs/published_runs.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Prior standard deviations: ability (the scale), log discrimination, difficulty.
ABILITY_SD, LOG_A_SD, DIFFICULTY_SD = 1.0, 0.5, 3.0


@dataclass(frozen=True)
class ItemModel:
    """Fitted puzzles (`a`, `b`, over the puzzles in their order), the fitted abilities' mean
    and spread (the prior of a new run's ability) and their range (lowest, highest published
    run: where the model's predictions were checked)."""

    a: np.ndarray
    b: np.ndarray
    placed: np.ndarray
    ability_mean: float
    ability_sd: float
    ability_low: float = -np.inf
    ability_high: float = np.inf

    def p(self, theta: float) -> np.ndarray:
        """Each puzzle's chance of being solved at ability `theta`.

        Args:
            theta: the ability, on the fitted scale.

        Returns:
            The chances, one per puzzle (NaN for a puzzle that is not placed)."""
        return 1.0 / (1.0 + np.exp(-self.a * (theta - self.b)))


def fit_2pl(solved: np.ndarray) -> ItemModel:
    """Fit runs x puzzles verdicts (1/0, NaN where not run) by joint MAP; puzzles no run
    solved are not placed (a = b = NaN).

    Args:
        solved: runs x puzzles verdicts (1/0, NaN where a run did not run a puzzle).

    Returns:
        The fitted puzzles and the fitted abilities' mean, spread and range."""
    from scipy.optimize import minimize

    placed = np.nansum(solved, axis=0) > 0
    everything = solved
    solved = everything[:, placed]
    runs, items = solved.shape
    seen = ~np.isnan(solved)
    y = np.nan_to_num(solved)

    def unpack(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return x[:runs], x[runs : runs + items], x[runs + items :]

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        theta, log_a, b = unpack(x)
        a = np.exp(log_a)
        z = a * (theta[:, None] - b)
        p = 1.0 / (1.0 + np.exp(-z))
        loglik = np.where(seen, y * z - np.logaddexp(0.0, z), 0.0).sum()
        prior = (theta**2).sum() / ABILITY_SD**2 + (log_a**2).sum() / LOG_A_SD**2
        prior += (b**2).sum() / DIFFICULTY_SD**2
        residual = np.where(seen, y - p, 0.0)  # d loglik / dz
        g_theta = (residual * a).sum(axis=1) - theta / ABILITY_SD**2
        g_log_a = (residual * (theta[:, None] - b)).sum(axis=0) * a - log_a / LOG_A_SD**2
        g_b = -(residual * a).sum(axis=0) - b / DIFFICULTY_SD**2
        gradient = np.concatenate([g_theta, g_log_a, g_b])
        return -(loglik - prior / 2), -gradient

    start = np.concatenate([np.zeros(runs), np.zeros(items), np.full(items, 2.0)])
    result = minimize(objective, start, jac=True, method="L-BFGS-B", options={"maxiter": 5000})
    theta, log_a, b = unpack(result.x)
    a_all = np.full(everything.shape[1], np.nan)
    b_all = np.full(everything.shape[1], np.nan)
    a_all[placed], b_all[placed] = np.exp(log_a), b
    return ItemModel(
        a_all,
        b_all,
        placed,
        float(theta.mean()),
        float(theta.std(ddof=1)),
        float(theta.min()),
        float(theta.max()),
    )


def ability(model: ItemModel, at: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """MAP ability of a run that scored `values` (in [0, 1]) on puzzles `at` (indices), under
    the published abilities' spread as prior, and its posterior variance (Laplace). Puzzles
    that are not placed are skipped.

    Args:
        model: the fitted puzzles and the ability prior.
        at: indices of the puzzles the run was scored on.
        values: the run's verdicts on `at` (0/1, or means in [0, 1]).

    Returns:
        (MAP ability, its posterior variance)."""
    keep = model.placed[at]
    a, b, values = model.a[at][keep], model.b[at][keep], values[keep]
    theta = model.ability_mean
    precision = 1.0 / model.ability_sd**2
    for _ in range(100):  # Newton: the log posterior is concave
        p = 1.0 / (1.0 + np.exp(-a * (theta - b)))
        gradient = (a * (values - p)).sum() - (theta - model.ability_mean) * precision
        information = (a * a * p * (1 - p)).sum() + precision
        step = gradient / information
        theta += float(np.clip(step, -2.0, 2.0))
        if abs(step) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-a * (theta - b)))
    return theta, 1.0 / ((a * a * p * (1 - p)).sum() + precision)
