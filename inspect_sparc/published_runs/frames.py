"""The report's entry points: pandas frames of a run paired with the published runs, and of a
subset run's estimates of its full-split accuracy. Percentages as the report shows them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from inspect_sparc.published_runs.estimators import (
    Estimate,
    design_based,
    model_assisted,
    model_based,
)
from inspect_sparc.published_runs.pairing import PairedCounts, paired_against_published
from inspect_sparc.published_runs.shipped import load_item_model, load_subset
from inspect_sparc.published_runs.subsets import Subset
from inspect_sparc.published_runs.verdicts import load_verdicts

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The columns of `paired_frame` (also when no published run matches: an empty frame).
PAIRED_COLUMNS = (
    "published_run",
    "model",
    "protocol",
    "prompt",
    "level",
    "n_shared",
    "run_accuracy",
    "published_accuracy",
    "difference",
    "only_run",
    "only_published",
    "ci95_low",
    "ci95_high",
    "p_value",
    "note",
    "source",
)
#: interval(only_run, only_published, n) -> (low, high, ...) as fractions, e.g. stats.paired_exact
#: (its `Interval` ends with the method's name, hence `str` among the items)
PairedInterval = Callable[[int, int, int], Sequence[float | str]]
#: test(only_run, only_published) -> p-value, e.g. stats.mcnemar_exact
PairedTest = Callable[[int, int], float]


def _row(
    counts: PairedCounts, interval: PairedInterval | None, test: PairedTest | None
) -> dict[str, Any]:
    run = counts.published
    integral = all(float(c).is_integer() for c in (counts.only_run, counts.only_published))
    b, c = round(counts.only_run), round(counts.only_published)
    low = high = p = float("nan")
    if counts.n and interval is not None:
        found = interval(b, c, counts.n)
        low, high = 100 * float(found[0]), 100 * float(found[1])
    if counts.n and test is not None:
        p = float(test(b, c))
    notes = []
    if not counts.whole_split:
        notes.append("shared puzzles only")
    if not integral:
        notes.append("epoch means: discordant counts rounded for the interval and test")
    return {
        "published_run": run.run_id,
        "model": run.model,
        "protocol": run.protocol,
        "prompt": run.prompt,
        "level": "all" if counts.level is None else counts.level,
        "n_shared": counts.n,
        "run_accuracy": 100 * counts.run_solved / counts.n if counts.n else float("nan"),
        "published_accuracy": 100 * counts.published_solved / counts.n
        if counts.n
        else float("nan"),
        "difference": 100 * counts.difference,
        "only_run": counts.only_run,
        "only_published": counts.only_published,
        "ci95_low": low,
        "ci95_high": high,
        "p_value": p,
        "note": "; ".join(notes),
        "source": f"{run.source_repo}@{run.commit[:7]} {run.path}",
    }


def paired_frame(
    run_verdicts: Mapping[str, float],
    protocol: str,
    prompt: str | None = "default",
    interval: PairedInterval | None = None,
    test: PairedTest | None = None,
) -> pd.DataFrame:
    """One row per published run of `protocol`/`prompt` and level ("all", then 1-5): the shared
    n, both accuracies and their difference (points) on the shared puzzles, the discordant
    counts, and, when given, `interval` (as points) and `test` of the paired difference.

    Args:
        run_verdicts: puzzle id -> the run's verdict (0/1, or a mean over epochs in [0, 1]).
        protocol: the published protocol to pair with (runs.csv's name, e.g. `single_shot`).
        prompt: the published prompt (`default`, `no-reason`, or ours: `paper`); None: any.
        interval: the paired difference's interval (e.g. `stats.paired_exact`); None: NaN.
        test: the paired test's p-value (e.g. `stats.mcnemar_exact`); None: NaN.

    Returns:
        A frame with PAIRED_COLUMNS, accuracies and differences in points (empty when no
        published run matches)."""
    import pandas as pd

    rows = paired_against_published(run_verdicts, protocol, prompt)
    return pd.DataFrame(
        [_row(counts, interval, test) for counts in rows], columns=list(PAIRED_COLUMNS)
    )


def _present(subset: Subset, run_verdicts: Mapping[str, float]) -> tuple[Subset, np.ndarray]:
    """The subset reduced to the puzzles the run has a verdict for, and those verdicts."""
    ids = load_verdicts().puzzle_ids
    chosen = np.array([i for i in subset.chosen if ids[i] in run_verdicts], dtype=int)
    values = np.array([float(run_verdicts[ids[i]]) for i in chosen], dtype=float)
    sizes = np.bincount(subset.strata[chosen], minlength=subset.population.size)
    return Subset(subset.name, subset.strata, subset.population, sizes, chosen), values


def subset_estimates(run_verdicts: Mapping[str, float], subset_name: str) -> list[Estimate]:
    """The three estimates of the full-split accuracy from a run on a shipped subset
    (fractions): model-assisted first (the one to read), design-based, model-based.
    With puzzles of the subset missing, the estimate uses those present (and says so); with a
    whole stratum missing there is no design-based estimate (NaN).

    Args:
        run_verdicts: puzzle id -> the run's verdict (0/1, or a mean over epochs in [0, 1]).
        subset_name: a shipped subset (`informative:100`).

    Returns:
        The model-assisted, design-based and model-based estimates, in that order."""
    subset, values = _present(load_subset(subset_name), run_verdicts)
    missing = len(load_subset(subset_name).chosen) - len(values)
    note = f"{missing} of the subset's puzzles have no verdict" if missing else ""
    nan = float("nan")
    if (subset.sample_sizes[subset.population > 0] == 0).any():
        design = Estimate("design-based", nan, nan, nan, len(values), "a stratum has no verdict")
    else:
        design = design_based(subset, values)
    model = model_based(load_item_model(), subset, values)
    assisted = model_assisted(load_item_model(), subset, values) if len(values) else design
    return [
        Estimate(e.method, e.value, e.low, e.high, e.n, "; ".join(x for x in (e.note, note) if x))
        for e in (assisted, design, model)
    ]


def subset_estimate_frame(run_verdicts: Mapping[str, float], subset_name: str) -> pd.DataFrame:
    """The two estimates as the report's rows: method, subset, puzzles, estimate and its 95%
    interval (%), note.

    Args:
        run_verdicts: puzzle id -> the run's verdict (0/1, or a mean over epochs in [0, 1]).
        subset_name: a shipped subset (`informative:100`).

    Returns:
        One row per estimate, in `subset_estimates` order, in points."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "method": e.method,
                "subset": subset_name,
                "puzzles": e.n,
                "estimate": 100 * e.value,
                "ci95_low": 100 * e.low,
                "ci95_high": 100 * e.high,
                "note": e.note,
            }
            for e in subset_estimates(run_verdicts, subset_name)
        ]
    )
