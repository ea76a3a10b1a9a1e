"""Counts and 95% intervals behind every rate, from the samples (the unit is the puzzle).

A rate's point estimate stays the log's own metric; what comes from the samples is the count
behind it (n puzzles, the solved count) and its interval (`stats.rate_interval`: Wilson over
puzzles, on the mean of per-puzzle means when epochs disagree), of the value shown: with
another epochs reducer than the mean, of the per-puzzle values reduced as the log did.
`check_counts` verifies that the two agree (n x accuracy = solved count) on every run the
report shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import REDUCTIONS, reducer_of, reduction_of
from inspect_sparc.report.statistics.score_intervals import clustered_rate, rate_interval

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: Tolerance of the count check, in puzzles (floating sums of per-puzzle means).
COUNT_TOLERANCE = 1e-6


def puzzle_values(samples: pd.DataFrame, values: Iterable[str]) -> pd.DataFrame:
    """One row per log and puzzle: its level, AlgoPuzzleVQA puzzle and categories, and each
    value averaged over the puzzle's epochs (Inspect's `mean` reducer). Missing values stay
    missing (an unscored sample is not a failure).

    Args:
        samples: the sample frame (`read.samples.samples_frame`: one row per sample and epoch,
            with `log`, `id`, `level`, `puzzle` and `categories`), or None.
        values: the columns to average (`correct`, a rule's breaks ...); one the frame lacks
            comes back all NaN.

    Returns:
        Columns `log`, `id`, `level`, `puzzle`, `categories` and each of `values` (the mean
        over epochs, NaN where no epoch has one); an empty frame with `log`, `id`, `level` and
        `values` for no samples."""
    import pandas as pd

    values = list(values)
    if samples is None or samples.empty:
        return pd.DataFrame(columns=[C.LOG, C.ID, C.LEVEL, *values])
    frame = samples.assign(**{v: float("nan") for v in values if v not in samples})
    for v in values:
        frame[v] = pd.to_numeric(frame[v], errors="coerce")
    keys = [C.LOG, C.ID]
    firsts = frame.groupby(keys, sort=False)[[C.LEVEL, C.PUZZLE, C.CATEGORIES]].first()
    means = frame.groupby(keys, sort=False)[values].mean()
    return firsts.join(means).reset_index()


def ci_fields(values: Any, prefix: str = "", clusters: Any = None) -> dict[str, Any]:
    """`n`, the 95% interval (%) and its method of a rate over per-puzzle values (NaNs left
    out), named `<prefix>ci95_low` ... (no prefix: `n`, `ci95_low`, `ci95_high`). With
    `clusters` (one label per value: AlgoPuzzleVQA's puzzle type) the interval is clustered.

    Args:
        values: one value in [0, 1] per puzzle (its outcome, or its mean over epochs); NaN
            for an unscored puzzle, left out.
        prefix: what the fields are named after (a level, a rule kind, a puzzle type); "" for
            the run's overall rate.
        clusters: one cluster label per value (before NaNs are dropped), or None for the
            Wilson interval over puzzles (`rate_interval`).

    Returns:
        `n_<prefix>` (puzzles with a value), `<prefix>_ci95_low` and `<prefix>_ci95_high`
        (percentage points, 0-100; None for no value); without a prefix the keys are `n`,
        `ci95_low`, `ci95_high` and `interval` (the method's name)."""
    import numpy as np

    data = np.asarray(values, dtype=float)
    kept = ~np.isnan(data)
    data = data[kept]
    name = f"{prefix}_" if prefix else ""
    n_key = f"n_{prefix}" if prefix else "n"
    if data.size == 0:
        empty = {n_key: 0, f"{name}ci95_low": None, f"{name}ci95_high": None}
        return empty if prefix else {**empty, "interval": None}
    if clusters is None:
        interval = rate_interval(data)
    else:
        interval = clustered_rate(data, np.asarray(clusters, dtype=object)[kept])
    fields: dict[str, Any] = {
        n_key: int(data.size),
        f"{name}ci95_low": 100 * interval.low,
        f"{name}ci95_high": 100 * interval.high,
    }
    if not prefix:  # the overall rate says which interval it has
        fields["interval"] = interval.method if clusters is not None else interval_method(data)
    return fields


def interval_method(values: Any) -> str:
    """How the interval of per-puzzle values was computed, in the page's words.

    Args:
        values: the per-puzzle values the interval was computed from (no NaNs).

    Returns:
        "Wilson" where every value is 0 or 1, else "Wilson on the mean of per-puzzle means
        (n = puzzles)"."""
    import numpy as np

    data = np.asarray(values, dtype=float)
    if np.isin(data, (0.0, 1.0)).all():
        return "Wilson"
    return "Wilson on the mean of per-puzzle means (n = puzzles)"


#: Inspect's epoch reducers the report can apply to per-epoch values (mean: both spellings).


def reduced_values(
    samples: pd.DataFrame, log: str, reducer: str, key: str = K.CORRECT
) -> pd.Series | None:
    """Per puzzle of `log`: its value `key` (`correct`) over epochs reduced as `reducer`
    reduces it (the value the log's metrics are computed from), or None for a reducer not in
    `REDUCTIONS`.

    Args:
        samples: the sample frame (one row per sample and epoch).
        log: the log whose rows are reduced (its `log` column value).
        reducer: the epochs reducer by Inspect's name (`mean`, `inspect_sparc/mean`, `max`,
            `min`, `median`).
        key: the sample column to reduce (`correct`, `invalid_path` ...); epochs without a
            value are left out before reducing.

    Returns:
        The reduced value per puzzle id (a Series indexed by `id`), empty where the log has no
        rows or no such column; None for a reducer the report cannot apply."""
    import pandas as pd

    how = REDUCTIONS.get(reducer)
    if how is None:
        return None
    rows = samples[samples[C.LOG] == log]
    values = pd.to_numeric(rows[key], errors="coerce") if key in rows and len(rows) else None
    if values is None or rows.empty:
        return pd.Series(dtype=float)
    frame = rows.assign(**{key: values}).dropna(subset=[key])
    return frame.groupby(C.ID, sort=False)[key].agg(how)


def shown_outcomes(
    group: pd.DataFrame | None, samples: pd.DataFrame | None, run: Any, key: str = K.CORRECT
) -> pd.DataFrame | None:
    """A run's per-puzzle rows (its `puzzle_values` group: id, level, ...) with `key` as its
    log reduced it over epochs: the group itself under the mean, the reduced values under
    max, min or median (the value its rows show), None for a reducer the report cannot apply.

    Args:
        group: the run's rows of the `puzzle_values` frame, or None.
        samples: the sample frame the group came from, or None (the group is kept as it is).
        run: the run's row of the run frame (its `log`, `metrics_reducer`, `epochs_reducer`).
        key: the column to reduce as the log did.

    Returns:
        The group with `key` replaced by the reduced values; the group itself under the mean
        or without samples; None for a reducer the report cannot apply."""
    how = reduction_of(run)
    if group is None or samples is None or how == "mean":
        return group
    if how is None:
        return None
    reduced = reduced_values(samples, run[C.LOG], reducer_of(run), key)
    return group.assign(**{key: group[C.ID].map(reduced)})


def check_counts(
    runs: pd.DataFrame, outcomes: pd.DataFrame, samples: pd.DataFrame | None = None
) -> dict[str, str]:
    """Per log whose samples disagree with its metrics: why (n puzzles scored against the
    header's n; n x accuracy against the solved count; the same per level). With `samples`,
    a run reduced by another reducer than the mean is checked on its reduced values. A run on
    a shipped subset that logs the whole split's estimate as `accuracy` is checked on its
    `subset_accuracy` (its levels are estimates too: not checked).

    Args:
        runs: the run frame (one row per log: `accuracy`, `subset_accuracy`, `level_1` ...
            `level_5` as fractions, `complete`, the reducer columns).
        outcomes: the `puzzle_values` frame of `correct` (one row per log and puzzle).
        samples: the sample frame, to reduce a run's epochs by max, min or median; None checks
            every run on its per-puzzle means.

    Returns:
        Log -> the disagreement in words; logs that agree (or have no accuracy, are
        incomplete, or use a reducer the report cannot apply) are absent."""
    problems: dict[str, str] = {}
    by_log = dict(tuple(outcomes.groupby(C.LOG, sort=False))) if len(outcomes) else {}
    for _, run in runs.iterrows():
        own = run.get(K.SUBSET_ACCURACY)
        on_subset = own is not None and own == own
        acc = own if on_subset else run.get(K.ACCURACY)
        if acc is None or acc != acc or not run.get("complete", True):
            continue
        group = by_log.get(run[C.LOG])
        scored = group.dropna(subset=[K.CORRECT]) if group is not None else None
        reducer = reducer_of(run)
        if scored is not None and samples is not None and REDUCTIONS.get(reducer) != "mean":
            reduced = reduced_values(samples, run[C.LOG], reducer)
            if reduced is None:  # a reducer the report cannot apply: nothing to check
                continue
            scored = scored.assign(**{K.CORRECT: scored[C.ID].map(reduced)})
        if scored is None or scored.empty:
            problems[run[C.LOG]] = "no scored sample behind the log's accuracy"
            continue
        found = _disagreement(scored, float(acc), "accuracy")
        for level in range(1, 6):
            metric = run.get(K.level_metric(level))
            if metric is not None and metric == metric and not found and not on_subset:
                at = scored[scored[C.LEVEL] == level]
                found = _disagreement(at, float(metric), f"level {level}")
        if found:
            problems[run[C.LOG]] = found
    return problems


def _disagreement(scored: pd.DataFrame, metric: float, what: str) -> str:
    """'' when n x metric equals the solved count of `scored`, else the two numbers."""
    n, solved = len(scored), float(scored[K.CORRECT].sum())
    if abs(n * metric - solved) <= COUNT_TOLERANCE * max(n, 1):
        return ""
    return (
        f"{what}: {n} puzzles x {metric:.4f} = {n * metric:.2f}, but the samples solve {solved:g}"
    )


def errors_as_failures_fields(
    samples: pd.DataFrame | None, log: str, reducer: str
) -> dict[str, Any]:
    """The accuracy with every errored epoch counted as a failure (a puzzle solved in one epoch
    and errored in the other is 0.5 under the mean, not 1), each puzzle's epochs reduced as
    the log reduced them, and its interval (`rate_interval`, n = every puzzle the run met);
    empty where the samples do not say (no samples, or a reducer the report cannot apply).

    Args:
        samples: the samples frame (one row per sample and epoch; `correct` NaN where errored).
        log: the run's log.
        reducer: the reducer whose value the run's row shows.

    Returns:
        `errors_as_failures` and its `_ci95_low`/`_ci95_high` (points), or {}."""
    import pandas as pd

    how = REDUCTIONS.get(reducer)
    if samples is None or samples.empty or how is None or K.CORRECT not in samples:
        return {}
    rows = samples[samples[C.LOG] == log]
    if rows.empty:
        return {}
    failed = pd.to_numeric(rows[K.CORRECT], errors="coerce").fillna(0.0)
    values = rows.assign(_value=failed).groupby(C.ID, sort=False)["_value"].agg(how)
    interval = rate_interval(values.to_numpy(float))
    return {
        "errors_as_failures": 100 * float(values.mean()),
        "errors_as_failures_ci95_low": 100 * interval.low,
        "errors_as_failures_ci95_high": 100 * interval.high,
    }
