"""The epochs reducer a run's numbers follow, decided once when the run frame is read.

A log run with epochs reduces each puzzle's epochs to one value (Inspect's `mean` by default,
`--epochs-reducer max` ...), and with several reducers holds one set of metrics per reducer.
The report shows one set: the mean set where there is one (the tables counted from samples
use it), else the first. The run frame carries that choice (`columns.REDUCER`) and how the
report applies it to per-epoch values (`columns.REDUCTION`: mean, max, min, median, or missing
for a reducer it cannot apply); every table reads these two columns, none decides again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C

if TYPE_CHECKING:  # pragma: no cover
    from inspect_ai.log import EvalResults, EvalScore

#: Epoch reducers the report can apply to per-epoch values -> how (mean: both spellings).
REDUCTIONS: dict[str, str] = {
    "mean": "mean",
    K.EPOCHS_REDUCER: "mean",
    "max": "max",
    "min": "min",
    "median": "median",
}
#: The reducers that take the mean: Inspect's and the SPaRC tasks' (the same values).
MEAN_REDUCERS = tuple(name for name, how in REDUCTIONS.items() if how == "mean")


def shown_scores(results: EvalResults | None) -> list[EvalScore]:
    """Per scorer, the one set of metrics the report shows: the mean set where a log has one
    per reducer, else the first (in the log's scorer order).

    Args:
        results: the log header's `results` (its `scores`: one `EvalScore` per scorer and
            epochs reducer), or None for a log without results.

    Returns:
        One `EvalScore` per scorer name, in the order the scorers first appear; [] without
        results."""
    chosen: dict[str, EvalScore] = {}
    for score in results.scores if results is not None else []:
        if score.name not in chosen or (
            score.reducer in MEAN_REDUCERS and chosen[score.name].reducer not in MEAN_REDUCERS
        ):
            chosen[score.name] = score
    return list(chosen.values())


def decided_reducer(epochs_reducer: Sequence[str] | str | None, shown: str | None) -> str:
    """The reducer whose metrics a run's row shows.

    Args:
        epochs_reducer: the run's reducers (the eval config's list, or joined by commas).
        shown: the reducer of the metrics the log's results hold (`shown_scores`), if any.

    Returns:
        `shown` where the log has results, else the first reducer asked for, else `mean`.
    """
    if isinstance(shown, str) and shown:
        return shown
    if isinstance(epochs_reducer, str):
        epochs_reducer = epochs_reducer.split(",")
    return str((list(epochs_reducer or []) or ["mean"])[0])


def reducer_columns(reducer: str) -> dict[str, Any]:
    """The run frame's two reducer columns for a decided `reducer`.

    Args:
        reducer: the reducer `decided_reducer` chose, by Inspect's name (`mean`, `max`,
            `inspect_sparc/mean` ...).

    Returns:
        `metrics_reducer`: the reducer; `reduction`: how the report applies it (`REDUCTIONS`),
        None where it cannot."""
    return {C.REDUCER: reducer, C.REDUCTION: REDUCTIONS.get(reducer)}


def reducer_of(run: Mapping[str, Any]) -> str:
    """A run row's decided reducer (a frame built by hand without the column: its first
    `epochs_reducer`, as `decided_reducer` decides for a log without results).

    Args:
        run: a run row (its `metrics_reducer`, else `epochs_reducer`).

    Returns:
        The reducer's name; "mean" where the row names none."""
    value = run.get(C.REDUCER)
    return (
        value
        if isinstance(value, str) and value
        else decided_reducer(run.get("epochs_reducer"), None)
    )


def reduction_of(run: Mapping[str, Any]) -> str | None:
    """How a run row's values are reduced over epochs (`REDUCTIONS`), None where the report
    cannot apply its reducer.

    Args:
        run: a run row.

    Returns:
        "mean", "max", "min" or "median", or None."""
    return REDUCTIONS.get(reducer_of(run))


def reducer_text(run: Mapping[str, Any]) -> str | None:
    """The epochs reducer(s) as the results table says them, and which one's metrics it
    shows when there are several (`max,mean (metrics: mean)`).

    Args:
        run: a run row (its `epochs_reducer`, joined by commas, and `metrics_reducer`).

    Returns:
        The text; None where the row has no `epochs_reducer` text."""
    reducer = run.get("epochs_reducer")
    if reducer and "," in str(reducer):
        return f"{reducer} (metrics: {reducer_of(run)})"
    return str(reducer) if isinstance(reducer, str) else None
