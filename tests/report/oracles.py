"""Oracles of the paired statistics for the tests, independent of the code under test: Tango's
score statistic from the likelihood maximised numerically, and the power of McNemar's score
test by enumerating every table with statsmodels' own test."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import cast

import numpy as np


def constrained_maximum(
    minus_log_likelihood: Callable[[float], float], low: float, high: float
) -> float:
    """The parameter in (low, high) that maximises a likelihood (its minus log minimised to
    1e-13, the ends kept out so that no log meets 0): the constrained estimate every score
    statistic's oracle needs."""
    from scipy.optimize import minimize_scalar

    return float(
        minimize_scalar(
            minus_log_likelihood,
            bounds=(low + 1e-12, high - 1e-12),
            method="bounded",
            options={"xatol": 1e-13},
        ).x
    )


def tango_score(b: int, c: int, n: int, delta: float) -> float:
    """(b - c - n delta) over its standard error at the multinomial likelihood maximised
    numerically under p(a only) - p(b only) = delta."""
    rest = n - b - c

    def minus_log_likelihood(p21: float) -> float:
        p12 = p21 + delta
        terms = [(b, p12), (c, p21), (rest, 1 - p12 - p21)]
        return -cast("float", sum(k * np.log(p) for k, p in terms if k))

    low, high = max(0.0, -delta), (1 - delta) / 2
    p21 = constrained_maximum(minus_log_likelihood, low, high)
    return float((b - c - n * delta) / np.sqrt(n * (2 * p21 + delta * (1 - delta))))


def score_test_power(n: int, discordance: float, difference: float) -> float:
    """The chance that statsmodels' asymptotic McNemar test (no continuity correction)
    rejects at 0.05, summed over every (only_a, only_b) with its trinomial chance."""
    from scipy.stats import multinomial
    from statsmodels.stats.contingency_tables import mcnemar

    p12, p21 = (discordance + difference) / 2, (discordance - difference) / 2
    power = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if (
                b + c
                and mcnemar([[0, b], [c, n - b - c]], exact=False, correction=False).pvalue < 0.05
            ):
                power += multinomial.pmf([b, c, n - b - c], n, [p12, p21, 1 - discordance])
    return float(power)


def brute_force_stratified_p(tables):
    """Every combination of per-stratum tables with the observed margins, weighted by the
    product of hypergeometric probabilities: twice the smaller tail of the summed x1."""
    from scipy.stats import hypergeom

    supports = []
    for x1, n1, x2, n2 in tables:
        solved = x1 + x2
        values = range(max(0, solved - n2), min(n1, solved) + 1)
        supports.append([(k, hypergeom(n1 + n2, solved, n1).pmf(k)) for k in values])
    seen = sum(t[0] for t in tables)
    low = high = 0.0
    for combination in itertools.product(*supports):
        total = sum(k for k, _ in combination)
        chance = float(np.prod([p for _, p in combination]))
        low += chance if total <= seen else 0.0
        high += chance if total >= seen else 0.0
    return min(1.0, 2 * min(low, high))
